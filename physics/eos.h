/* Equations of state: perfect and stiffened gas. Units: rho mass/volume, e energy/mass, p pressure. */
#ifndef HYDRO_EOS_H
#define HYDRO_EOS_H

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

double eos_pressure(const struct eos *q, double rho, double e);
/* Specific internal energy giving pressure p at density rho (initial conditions). */
double eos_energy(const struct eos *q, double rho, double p);
/* c = sqrt(gamma (p + p_inf) / rho); NaN when the state has no real sound speed. */
double eos_sound_speed(const struct eos *q, double rho, double p);

/* Lagrange energy update: e1 = e0 - (p0 / 2 + p(rho1, e1) / 2 + q) dtau, with dtau the change
 * of specific volume 1/rho1 - 1/rho0. The perfect gas has a closed form (implicit in p); the
 * stiffened gas goes through Newton's method on the same equation. Returns the iterations
 * used (0 for the closed form) or -1 when Newton does not converge within newton_max. */
int eos_energy_update(const struct eos *q, double e0, double p0, double visc, double rho1, double dtau, double *e1);

#endif
