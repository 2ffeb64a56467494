/* Load-balancing cost models: which cells cost more, and the real extra work they do. */
#ifndef HYDRO_COST_H
#define HYDRO_COST_H

#include <stdint.h>

#include "eos.h"
#include "mesh.h"

enum cost_kind { COST_UNIFORM, COST_REGION, COST_SHOCK, COST_COUNT };

struct cost_params {
    enum cost_kind kind;
    int factor;          /* a costly cell costs this many times a plain one (METIS weight) */
    int units;           /* EOS evaluations that cost as much as a plain cell's cycle; 0: not yet measured */
    double xmin, xmax;   /* region: x extent of the domain */
    double width, speed; /* region: slab width (fraction of the extent), speed (extents per unit time) */
};

/* Relative cost of a cell (1 or factor): region, its centre inside the slab that starts at
 * xmin and moves with time (wrapping around the domain); shock, its viscosity positive. */
int cell_cost(const struct cost_params *cp, const double centre[3], double q, double time);

/* The cost averaged over the times [t0, t1], exactly (a region's slab moves at a constant speed
 * and wraps around; the other models do not depend on time): what a partition serving those times
 * should balance. cell_cost_mean_of: cell c's, its centre from the positions x ([nodes][3]), its
 * viscosity q[c] (q NULL: none, so no cell is in a shock). */
double cost_mean(const struct cost_params *cp, const double centre[3], double q, double t0, double t1);
double cell_cost_mean_of(const struct cost_params *cp, const struct mesh *m, const double *x, const double *q,
                         int32_t c, double t0, double t1);

/* The extra work of a cell of relative cost `cost`: (cost - 1) * units evaluations of the
 * equation of state of the cell's state. */
long cost_evaluations(const struct cost_params *cp, int cost);
/* Does n evaluations; returns a value that depends on all of them, so that the compiler
 * cannot drop them. */
double cost_burn(const struct eos *e, long n, double rho, double eint);
/* The extra work of cells [0, nc) of m this cycle (a costly cell does cost_evaluations of its
 * cost): the sum of cost_burn's values over them. */
double cost_burn_cells(const struct cost_params *cp, const struct eos *e, const struct mesh *m, const double *x,
                       const double *q, const double *rho, const double *eint, double time, int32_t nc);

#endif
