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

double eos_pressure(const struct eos *q, double rho, double e)
{
    return (q->gamma - 1.0) * rho * e - q->gamma * q->p_inf;
}

double eos_energy(const struct eos *q, double rho, double p) { return (p + q->gamma * q->p_inf) / ((q->gamma - 1.0) * rho); }

double eos_sound_speed(const struct eos *q, double rho, double p)
{
    double c2 = q->gamma * (p + q->p_inf) / rho;
    return c2 >= 0 ? sqrt(c2) : NAN;
}

int eos_energy_update(const struct eos *q, double e0, double p0, double visc, double rho1, double dtau, double *e1)
{
    if (q->kind == EOS_PERFECT) { /* p1 = (gamma - 1) rho1 e1 solved in closed form */
        *e1 = (e0 - (0.5 * p0 + visc) * dtau) / (1.0 + 0.5 * (q->gamma - 1.0) * rho1 * dtau);
        return 0;
    }
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
