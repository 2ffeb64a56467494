/* Exact sums of doubles: a fixed-point accumulator as wide as the doubles' range, so that a total
 * does not depend on the order of its terms (ranks, threads, partitions). Plain C, no MPI. */
#ifndef HYDRO_XSUM_H
#define HYDRO_XSUM_H

#include <stdint.h>

/* Value = sum of limb[i] 2^(32 i - 1074) for i < XSUM_DIGITS: every finite double is a whole
 * number of 2^-1074, below 2^1024. Limbs are signed 64-bit, so that terms are added without
 * carrying; xsum_add carries every 2^28 terms. The last three limbs count the NaN, +Inf and -Inf
 * terms, so that a total with one is NaN or infinite as a double sum would be. */
enum { XSUM_DIGITS = 68, XSUM_NAN = XSUM_DIGITS, XSUM_PINF, XSUM_NINF, XSUM_LIMBS };
struct xsum {
    int64_t limb[XSUM_LIMBS];
    int64_t adds; /* terms since the last carry */
};

void xsum_init(struct xsum *s);
/* s += x, exactly. */
void xsum_add(struct xsum *s, double x);
/* Limbs 0..XSUM_DIGITS-2 into [0, 2^32), the sign in the last digit: the one representation of the
 * value, whose limbs can be summed over up to 2^30 accumulators without overflow (what an
 * MPI_SUM of the limbs over the ranks does). */
void xsum_carry(struct xsum *s);
/* into += from, exactly. */
void xsum_merge(struct xsum *into, const struct xsum *from);
/* The double nearest the exact value (ties to even), a function of the value alone; NaN when a
 * term was NaN or both infinities came, an infinity when one did. */
double xsum_round(const struct xsum *s);

#endif
