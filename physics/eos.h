/* Equations of state: perfect and stiffened gas. Units: rho mass/volume, e energy/mass, p pressure. */
#ifndef HYDRO_EOS_H
#define HYDRO_EOS_H

#include <math.h>

#include "par.h"

enum eos_kind { EOS_PERFECT, EOS_STIFFENED, EOS_COUNT };

struct eos {
    enum eos_kind kind;
    double gamma;
    double p_inf;      /* stiffened gas: p = (gamma - 1) rho e - gamma p_inf; 0 for a perfect gas */
    double newton_tol; /* relative tolerance of the energy update's Newton iteration */
    int newton_max;    /* iteration cap; failing to converge is an error */
};

/* An EOS of this kind; p_inf is kept for the stiffened gas only (a perfect gas has none). */
struct eos eos_make(enum eos_kind kind, double gamma, double p_inf, double newton_tol, int newton_max);
/* Whether a specific internal energy is a state of this EOS: a perfect gas needs e >= 0 (NaN is
 * not), a stiffened gas takes any e (its p_inf makes negative energies physical). */
static inline int eos_energy_admissible(const struct eos *q, double e) { return q->kind != EOS_PERFECT || e >= 0; }

/* The three closed forms are inline: the cell loops call them for every cell, twice a cycle. */
static inline double eos_pressure(const struct eos *q, double rho, double e)
{
    return (q->gamma - 1.0) * rho * e - q->gamma * q->p_inf;
}
/* Specific internal energy giving pressure p at density rho (initial conditions). */
static inline double eos_energy(const struct eos *q, double rho, double p)
{
    return (p + q->gamma * q->p_inf) / ((q->gamma - 1.0) * rho);
}
/* c = sqrt(gamma (p + p_inf) / rho); NaN when the state has no real sound speed. */
static inline double eos_sound_speed(const struct eos *q, double rho, double p)
{
    double c2 = q->gamma * (p + q->p_inf) / rho;
    return c2 >= 0 ? sqrt(c2) : NAN;
}

/* Lagrange energy update: e1 = e0 - (p0 / 2 + p(rho1, e1) / 2 + q) dtau, with dtau the change
 * of specific volume 1/rho1 - 1/rho0. The perfect gas has a closed form (implicit in p); the
 * stiffened gas goes through Newton's method on the same equation. Returns the iterations
 * used (0 for the closed form) or -1 when Newton does not converge within newton_max.
 * eos_newton_update: the stiffened gas's iteration alone. */
DEVICE_BEGIN
int eos_newton_update(const struct eos *q, double e0, double p0, double visc, double rho1, double dtau, double *e1);
DEVICE_END
static inline int eos_energy_update(const struct eos *q, double e0, double p0, double visc, double rho1, double dtau,
                                    double *e1)
{
    if (q->kind == EOS_PERFECT) { /* p1 = (gamma - 1) rho1 e1 solved in closed form */
        *e1 = (e0 - (0.5 * p0 + visc) * dtau) / (1.0 + 0.5 * (q->gamma - 1.0) * rho1 * dtau);
        return 0;
    }
    return eos_newton_update(q, e0, p0, visc, rho1, dtau, e1);
}

#endif
