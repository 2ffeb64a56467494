/* Load-balancing cost models (see cost.h). */
#include "cost.h"

#include <math.h>

#include "geometry.h"
#include "par.h"

/* Where the region's slab is, in extents: a point at a (from xmin) is inside at time t when the
 * fractional part of a - speed t is below the width; the slab wraps around the domain, moving
 * either way. */
static double slab_phase(const struct cost_params *cp, double x, double time)
{
    return (x - cp->xmin) / (cp->xmax - cp->xmin) - cp->speed * time;
}

int cell_cost(const struct cost_params *cp, const double centre[3], double q, double time)
{
    switch (cp->kind) {
    case COST_UNIFORM:
        return 1;
    case COST_REGION: {
        double ph = slab_phase(cp, centre[0], time); /* ph - floor(ph) rounds to 1 just below an integer */
        return cp->width >= 1 || ph - floor(ph) < cp->width ? cp->factor : 1;
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

/* The length of the phases in [lo, lo + r] (0 <= r < 1) inside the slab (fractional part below
 * width): the inside length up to each end, counted from the period that holds lo. */
static double slab_inside(double lo, double r, double width)
{
    const double y0 = lo - floor(lo), y1 = y0 + r; /* y0 in [0, 1], y1 in [0, 2) (1: rounded) */
    const double to1 = y1 < 1 ? fmin(y1, width) : fmin(1, width) + fmin(y1 - 1, width);
    return to1 - fmin(y0, width);
}

double cost_mean(const struct cost_params *cp, const double centre[3], double q, double t0, double t1)
{
    if (cp->kind != COST_REGION || !(t1 > t0) || cp->speed == 0 || cp->width >= 1 || cp->width <= 0)
        return cell_cost(cp, centre, q, t0); /* the same cost all along */
    /* the phase moves linearly with time: the fraction of the interval spent in the slab is the
     * inside length of the phases swept over their span, whole periods (width each) then the rest */
    const double p0 = slab_phase(cp, centre[0], t0), p1 = slab_phase(cp, centre[0], t1);
    const double lo = fmin(p0, p1), span = fabs(p1 - p0), whole = floor(span);
    if (!(span > 0) || !isfinite(span)) /* no span, or speed x time beyond the doubles */
        return cell_cost(cp, centre, q, t0);
    const double inside = whole * cp->width + slab_inside(lo, span - whole, cp->width);
    return 1 + (cp->factor - 1) * (inside / span);
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
