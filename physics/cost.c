/* Load-balancing cost models (see cost.h). */
#include "cost.h"

#include <math.h>

#include "geometry.h"
#include "par.h"

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

/* Cell c's centre from the positions x, as the cost models place it. */
static void cell_centre(const struct mesh *m, const double *x, int32_t c, double centre[3])
{
    double xc[MAX_CELL_NODES][3];
    mesh_cell_coords(m, x, c, xc);
    geom_centre(m->el, (const double(*)[3])xc, centre);
}

/* The cost of cell c of m at time (q NULL: no cell is in a shock). */
static int cell_cost_of(const struct cost_params *cp, const struct mesh *m, const double *x, const double *q,
                        int32_t c, double time)
{
    double centre[3];
    cell_centre(m, x, c, centre);
    return cell_cost(cp, centre, q ? q[c] : 0, time);
}

double cost_mean(const struct cost_params *cp, const double centre[3], double q, double t0, double t1)
{
    if (cp->kind != COST_REGION || !(t1 > t0))
        return cell_cost(cp, centre, q, t0);
    const double period = cp->speed != 0 ? 1.0 / fabs(cp->speed) : 0; /* the slab's, in time units */
    if (period > 0 && t1 - t0 > period)
        t1 = t0 + period; /* the mean over a period is that over any whole number of them */
    double sum = 0; /* the midpoint rule, over at most one period */
    for (int k = 0; k < COST_MEAN_SAMPLES; k++)
        sum += cell_cost(cp, centre, q, t0 + (t1 - t0) * (k + 0.5) / COST_MEAN_SAMPLES);
    return sum / COST_MEAN_SAMPLES;
}

double cell_cost_mean_of(const struct cost_params *cp, const struct mesh *m, const double *x, const double *q,
                         int32_t c, double t0, double t1)
{
    double centre[3];
    cell_centre(m, x, c, centre);
    return cost_mean(cp, centre, q ? q[c] : 0, t0, t1);
}

double cost_burn_cells(const struct cost_params *cp, const struct eos *e, const struct mesh *m, const double *x,
                       const double *q, const double *rho, const double *eint, double time, int32_t nc)
{
    double acc = 0; /* a sink that only makes the work happen: its rounding is of no account */
    PAR_PRAGMA(omp parallel for schedule(dynamic, 256) reduction(+ : acc) if (nc >= PAR_MIN_ITEMS))
    for (int32_t c = 0; c < nc; c++)
        acc += cost_burn(e, cost_evaluations(cp, cell_cost_of(cp, m, x, q, c, time)), rho[c], eint[c]);
    return acc;
}
