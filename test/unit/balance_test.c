/* Unit tests of the load balancer's expected gain (miniapp/loadbalance.c): what a rebalance should
 * save over the cycles ahead, from the slowest rank's excess and its growth, and that growth fitted. */
#include <math.h>

#include "loadbalance.h"
#include "tap.h"

/* The saving cycle by cycle: excess + growth * min(k, served) on cycle k = 1 .. h ahead. */
static double by_cycles(double excess, double growth, long served, long h)
{
    double s = 0;
    for (long k = 1; k <= h; k++)
        s += excess + growth * (double)(k < served ? k : served);
    return s;
}

int main(void)
{
    struct tap t = {0};
    tap_ok(&t, lb_expected_gain(2e-3, 0, 20, 40) == 40 * 2e-3, "no growth: the excess times the cycles ahead");
    tap_ok(&t, lb_expected_gain(1, 1, 50, 10) == 65, "served longer than the horizon: growth all the way (10 + 55)");
    tap_ok(&t, lb_expected_gain(1, 1, 3, 5) == 17, "served 3 cycles, 5 ahead: growth for 3, then held (2+3+4+4+4)");
    tap_ok(&t, lb_expected_gain(3, 2, 10, 0) == 0, "nothing ahead: no gain");
    tap_ok(&t, lb_expected_gain(0.5, 7, 0, 6) == 3, "a partition not yet served: no growth counted");
    double worst = 0;
    for (long served = 0; served <= 40; served++)
        for (long h = 0; h <= 60; h++) {
            const double e = 1e-3 * (double)(served % 7), g = 1e-5 * (double)(h % 5 + 1);
            const double want = by_cycles(e, g, served, h), got = lb_expected_gain(e, g, served, h);
            worst = fmax(worst, fabs(got - want) / fmax(want, 1e-300));
        }
    tap_ok(&t, worst < 1e-12, "served 0..40, 0..60 cycles ahead: the closed form is the cycle-by-cycle sum "
           "(largest relative difference %.2g)", worst);
    /* the excess's growth per cycle: a line's slope exactly, noise about a line near it, and 0
     * where nothing can be fitted */
    double line[10], noisy[10], flat[10];
    for (int i = 0; i < 10; i++) {
        line[i] = 1.5e-3 + 0.25e-3 * i;
        noisy[i] = line[i] + (i % 2 ? 0.1e-3 : -0.1e-3);
        flat[i] = 2e-3;
    }
    const double g = lb_growth(line, 10);
    tap_ok(&t, fabs(g - 0.25e-3) < 1e-15, "a straight line: its slope (%.6g)", g);
    /* +-0.1e-3 alternating over 10 cycles tilts the fit by 0.2e-3 * 5 / 165 (sum of (i - 4.5)^2 = 82.5) */
    const double gn = lb_growth(noisy, 10), want = 0.25e-3 + 0.2e-3 * 5 / 165;
    tap_ok(&t, fabs(gn - want) < 1e-15, "a line with alternating noise: the least-squares slope (%.6g, %.6g)", gn,
           want);
    tap_ok(&t, lb_growth(flat, 10) == 0, "no change: no growth");
    tap_ok(&t, lb_growth(line, 2) == 0 && lb_growth(line, 0) == 0, "fewer than 3 cycles: no growth");
    tap_ok(&t, lb_growth(line + 7, 3) > 0 && fabs(lb_growth(line + 7, 3) - 0.25e-3) < 1e-15,
           "3 cycles: a slope");
    return tap_done(&t);
}
