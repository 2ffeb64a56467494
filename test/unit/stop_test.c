/* Unit tests of the walltime rule (miniapp/stop.c): when a run must ask to stop. */
#include "stop.h"
#include "tap.h"

int main(void)
{
    struct tap t = {0};
    tap_ok(&t, !stop_walltime_near(1e9, 0, 1, 1), "walltime 0: never");
    tap_ok(&t, !stop_walltime_near(10, 100, 1, 2), "far from the limit: no");
    /* 100 - (2 x 5 + 1.5 x 4 + 1) = 83: the last moment to ask */
    tap_ok(&t, !stop_walltime_near(82.9, 100, 5, 4) && stop_walltime_near(83, 100, 5, 4),
           "asks when two slowest cycles, 1.5 slowest dumps and 1 s are all that is left");
    tap_ok(&t, stop_walltime_near(99, 100, 0, 0) && !stop_walltime_near(98.9, 100, 0, 0),
           "before any cycle or dump: one second of slack");
    tap_ok(&t, stop_walltime_near(200, 100, 0, 0), "past the limit: yes");
    return tap_done(&t);
}
