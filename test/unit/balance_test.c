/* Unit tests of the load balancer's expected gain (miniapp/loadbalance.c): what a rebalance should
 * save over the cycles ahead, from the slowest rank's excess and its growth. */
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
    return tap_done(&t);
}
