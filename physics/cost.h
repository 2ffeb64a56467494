/* Load-balancing cost models: which cells cost more, and the real extra work they do. */
#ifndef HYDRO_COST_H
#define HYDRO_COST_H

#include "eos.h"

enum cost_kind { COST_UNIFORM, COST_REGION, COST_SHOCK };

struct cost_params {
    enum cost_kind kind;
    int factor;          /* a costly cell does this many times the EOS work of the others */
    double xmin, xmax;   /* region: x extent of the domain */
    double width, speed; /* region: slab width (fraction of the extent), speed (extents per unit time) */
};

/* Relative cost of a cell (1 or factor): region, its centre inside the slab that starts at
 * xmin and moves with time (wrapping around the domain); shock, its viscosity positive. */
int cell_cost(const struct cost_params *cp, const double centre[3], double q, double time);

/* The extra work: (cost - 1) more evaluations of the equation of state of the cell's state.
 * Returns a value that depends on all of them, so that the compiler cannot drop them. */
double cost_burn(const struct eos *e, int extra, double rho, double eint);

#endif
