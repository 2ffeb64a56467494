/* Unit tests of the exact sums (mesh/xsum.c): exact where doubles are not, the same total in any
 * order and split in any number of partial sums, correct rounding, the whole range of doubles. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "tap.h"
#include "xsum.h"

static double sum_of(const double *x, int n)
{
    struct xsum s;
    xsum_init(&s);
    for (int i = 0; i < n; i++)
        xsum_add(&s, x[i]);
    return xsum_round(&s);
}

/* xorshift: the same terms on every machine */
static uint64_t next(uint64_t *st)
{
    *st ^= *st << 13;
    *st ^= *st >> 7;
    *st ^= *st << 17;
    return *st;
}

int main(void)
{
    struct tap t = {0};
    double a[] = {1.0, 0x1p-60, -1.0};
    tap_ok(&t, sum_of(a, 3) == 0x1p-60, "1 + 2^-60 - 1 = 2^-60 (a double sum gives 0)");
    double b[] = {DBL_MAX, DBL_MAX, -DBL_MAX};
    tap_ok(&t, sum_of(b, 3) == DBL_MAX, "max + max - max = max, no overflow on the way");
    double c[] = {0x1p-1074, 0x1p-1074, 0x1p-1074};
    tap_ok(&t, sum_of(c, 3) == 0x3p-1074, "three of the smallest subnormal");
    double d[] = {0.1, 0.2, 0.3, -0.6};
    tap_ok(&t, sum_of(d, 4) == 0x1p-55, "0.1 + 0.2 + 0.3 - 0.6 = 2^-55, the exact residue of the binary values");
    double e[] = {1.0, 0x1p-53, 0x1p-106};
    tap_ok(&t, sum_of(e, 3) == 1.0 + 0x1p-52, "1 + 2^-53 + 2^-106 rounds up (the sticky bits count)");
    double g[] = {1.0, 0x1p-53};
    tap_ok(&t, sum_of(g, 2) == 1.0, "1 + 2^-53 is a tie: to even, 1");
    double h[] = {-3.5, 1.25};
    tap_ok(&t, sum_of(h, 2) == -2.25, "negative totals");
    tap_ok(&t, sum_of(NULL, 0) == 0.0, "the empty sum is 0");
    double n1[] = {1.0, NAN, 2.0}, n2[] = {1.0, INFINITY}, n3[] = {-INFINITY, 1.0}, n4[] = {INFINITY, -INFINITY};
    tap_ok(&t, isnan(sum_of(n1, 3)) && sum_of(n2, 2) == INFINITY && sum_of(n3, 2) == -INFINITY && isnan(sum_of(n4, 2)),
           "a NaN term gives NaN, an infinity gives it, both infinities NaN (a blown-up run shows)");

    /* random terms over 600 binades, both signs: any order, any split, the same bits */
    enum { N = 20000 };
    static double x[N];
    uint64_t st = 88172645463325252u;
    for (int i = 0; i < N; i++)
        x[i] = ldexp((double)(next(&st) >> 11) / 0x1p53, (int)(next(&st) % 600) - 300) * (next(&st) & 1 ? 1 : -1);
    double forward = sum_of(x, N);
    int same = 1;
    for (int trial = 0; trial < 5; trial++) {
        for (int i = N - 1; i > 0; i--) { /* shuffle */
            int j = (int)(next(&st) % (uint64_t)(i + 1));
            double tmp = x[i];
            x[i] = x[j];
            x[j] = tmp;
        }
        int parts = 1 + trial * 3; /* partial sums merged, as ranks or threads would */
        struct xsum total, part;
        xsum_init(&total);
        for (int p = 0; p < parts; p++) {
            xsum_init(&part);
            for (int i = N * p / parts; i < N * (p + 1) / parts; i++)
                xsum_add(&part, x[i]);
            xsum_merge(&total, &part);
        }
        same &= xsum_round(&total) == forward && sum_of(x, N) == forward;
    }
    tap_ok(&t, same, "20000 terms over 600 binades: the same total in 5 orders and split in 1-13 parts (%.17g)",
           forward);
    /* limbs near overflow (what 2^29 terms without a carry would give) carry exactly */
    struct xsum big;
    xsum_init(&big);
    big.limb[40] = INT64_MAX - 5;
    big.limb[41] = -((int64_t)1 << 40);
    tap_ok(&t, xsum_round(&big) == ldexp((double)(INT64_MAX - 5), 32 * 40 - 1074) - ldexp(1.0, 40 + 32 * 41 - 1074),
           "limbs of 2^63 carried into the next ones: the same value");
    return tap_done(&t);
}
