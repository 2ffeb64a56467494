/* Equations of state (see eos.h). */
#include "eos.h"

#include <float.h>
#include <math.h>

struct eos eos_make(enum eos_kind kind, double gamma, double p_inf, double newton_tol, int newton_max)
{
    return (struct eos){.kind = kind,
                        .gamma = gamma,
                        .p_inf = kind == EOS_STIFFENED ? p_inf : 0.0,
                        .newton_tol = newton_tol,
                        .newton_max = newton_max};
}

int eos_newton_update(const struct eos *q, double e0, double p0, double visc, double rho1, double dtau, double *e1)
{
    /* f(e) = e - e0 + (p0 / 2 + p(rho1, e) / 2 + visc) dtau, f'(e) = 1 + (gamma - 1) rho1 dtau / 2.
     * Converged when the residual after a step is below the tolerance relative to the energies
     * involved; a tolerance below round-off is raised to 4 machine epsilons. */
    double tol = q->newton_tol > 4 * DBL_EPSILON ? q->newton_tol : 4 * DBL_EPSILON;
    double e = e0;
    for (int it = 1; it <= q->newton_max; it++) {
        double f = e - e0 + (0.5 * p0 + 0.5 * eos_pressure(q, rho1, e) + visc) * dtau;
        double df = 1.0 + 0.5 * (q->gamma - 1.0) * rho1 * dtau;
        e -= f / df;
        double r = e - e0 + (0.5 * p0 + 0.5 * eos_pressure(q, rho1, e) + visc) * dtau;
        double scale = fabs(e) + fabs(e0) + fabs((0.5 * p0 + visc) * dtau) + DBL_MIN;
        if (fabs(r) <= tol * scale) {
            *e1 = e;
            return it;
        }
    }
    *e1 = e;
    return -1;
}
