/* Load-balancing cost models (see cost.h). */
#include "cost.h"

#include <math.h>

int cell_cost(const struct cost_params *cp, const double centre[3], double q, double time)
{
    switch (cp->kind) {
    case COST_UNIFORM:
        return 1;
    case COST_REGION: {
        double len = cp->xmax - cp->xmin;
        double start = fmod(cp->speed * time, 1.0) * len; /* slab start from xmin */
        double x = centre[0] - cp->xmin - start;
        if (x < 0)
            x += len;
        return x < cp->width * len ? cp->factor : 1;
    }
    case COST_SHOCK:
        return q > 0 ? cp->factor : 1;
    case COST_COUNT: /* not a model */
        break;
    }
    return 1;
}

long cost_evaluations(const struct cost_params *cp, int cost) { return (long)(cost - 1) * cp->units; }

double cost_burn(const struct eos *e, long n, double rho, double eint)
{
    double acc = 0;
    for (long i = 0; i < n; i++) {
        double p = eos_pressure(e, rho * (1.0 + 1e-12 * i), eint);
        acc += eos_sound_speed(e, rho, p > 0 ? p : -p);
    }
    return acc;
}
