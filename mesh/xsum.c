/* Exact sums of doubles (see xsum.h). */
#include "xsum.h"

#include <math.h>
#include <string.h>

enum { XSUM_EMIN = -1074, CARRY_EVERY = 1 << 28 };
static const int64_t LOW = 0xffffffff;

void xsum_init(struct xsum *s) { memset(s, 0, sizeof *s); }

void xsum_carry(struct xsum *s)
{
    for (int i = 0; i < XSUM_DIGITS - 1; i++) {
        int64_t low = s->limb[i] & LOW; /* the value modulo 2^32, in [0, 2^32) */
        s->limb[i + 1] += (s->limb[i] - low) / ((int64_t)1 << 32); /* an exact multiple of 2^32 */
        s->limb[i] = low;
    }
    s->adds = 0;
}

void xsum_add(struct xsum *s, double x)
{
    if (x == 0)
        return;
    if (!isfinite(x)) {
        s->limb[isnan(x) ? XSUM_NAN : x > 0 ? XSUM_PINF : XSUM_NINF]++;
        return;
    }
    int e;
    double f = frexp(x, &e);             /* x = f 2^e, 1/2 <= |f| < 1 */
    int64_t m = (int64_t)ldexp(f, 53);   /* x = m 2^(e - 53), |m| < 2^53, exact */
    e -= 53;
    if (e < XSUM_EMIN) { /* a subnormal: its low bits are zero, the division is exact */
        m /= (int64_t)1 << (XSUM_EMIN - e);
        e = XSUM_EMIN;
    }
    const int bit = e - XSUM_EMIN, i = bit / 32, sh = bit % 32;
    const int64_t sign = m < 0 ? -1 : 1;
    const uint64_t a = (uint64_t)(m < 0 ? -m : m), lo = (a & (uint64_t)LOW) << sh, hi = (a >> 32) << sh;
    s->limb[i] += sign * (int64_t)(lo & (uint64_t)LOW);
    s->limb[i + 1] += sign * (int64_t)((lo >> 32) + (hi & (uint64_t)LOW));
    s->limb[i + 2] += sign * (int64_t)(hi >> 32);
    if (++s->adds == CARRY_EVERY)
        xsum_carry(s);
}

void xsum_merge(struct xsum *into, const struct xsum *from)
{
    struct xsum b = *from;
    xsum_carry(into);
    xsum_carry(&b);
    for (int i = 0; i < XSUM_LIMBS; i++)
        into->limb[i] += b.limb[i];
    xsum_carry(into);
}

static uint64_t limb_at(const struct xsum *s, int i) { return i >= 0 ? (uint64_t)s->limb[i] : 0; }

double xsum_round(const struct xsum *in)
{
    if (in->limb[XSUM_NAN] || (in->limb[XSUM_PINF] && in->limb[XSUM_NINF]))
        return NAN;
    if (in->limb[XSUM_PINF] || in->limb[XSUM_NINF])
        return in->limb[XSUM_PINF] ? INFINITY : -INFINITY;
    struct xsum s = *in;
    xsum_carry(&s);
    double sign = 1;
    if (s.limb[XSUM_DIGITS - 1] < 0) { /* the magnitude, carried again */
        for (int i = 0; i < XSUM_DIGITS; i++)
            s.limb[i] = -s.limb[i];
        xsum_carry(&s);
        sign = -1;
    }
    int h = XSUM_DIGITS - 1;
    while (h >= 0 && s.limb[h] == 0)
        h--;
    if (h < 0)
        return 0.0;
    /* the 64 bits from the highest set one, the lowest of them set when anything below is
     * (so that rounding them to 53 bits rounds the exact value) */
    const uint64_t H = limb_at(&s, h) << 32 | limb_at(&s, h - 1), L = limb_at(&s, h - 2) << 32 | limb_at(&s, h - 3);
    int clz = 0;
    while (!(H << clz >> 63))
        clz++;
    uint64_t w = H << clz | (clz ? L >> (64 - clz) : 0);
    int sticky = clz ? (L << clz) != 0 : L != 0;
    for (int i = h - 4; i >= 0 && !sticky; i--)
        sticky = s.limb[i] != 0;
    w |= (uint64_t)sticky;
    return sign * ldexp((double)w, 32 * (h - 1) - clz + XSUM_EMIN);
}
