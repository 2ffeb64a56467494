/* Initial conditions of the hydro test cases, from cell centres and node positions. */
#ifndef HYDRO_CASES_H
#define HYDRO_CASES_H

#include "hydro.h"

enum hydro_case { HCASE_SOD, HCASE_BISOD_X, HCASE_SEDOV, HCASE_NOH, HCASE_TRIPLE_POINT, HCASE_WATER_AIR, HCASE_COUNT };

struct case_params {
    enum hydro_case name;
    int direction;       /* sod */
    double interface;    /* sod */
    double sedov_energy; /* sedov: in the whole domain simulated */
    int region_mat[HYDRO_MAT_MAX]; /* the material of each region (case_regions' order) */
};

/* Sedov: the energy E (rho 1, gamma 1.4) for which the shock reaches radius 1 at t = 1, in the
 * whole plane (dim 2, cylindrical) or space (dim 3, spherical): E = alpha, the dimensionless
 * energy integral of the self-similar solution. 0 when gamma is not 1.4. */
double sedov_alpha(int dim, double gamma);

/* Sets rho, e, p, c, vol, mass of cells [0, nc) and v of nodes [0, nn) at positions f->x.
 * Cases: sod (left rho 1 p 1, right rho 0.125 p 0.1 around the interface), bisod_x (the
 * same along x, the MaHyCo bench), sedov (rho 1, p 1e-6, the energy in the cells touching the
 * origin, shared by volume), noh (rho 1, p 1e-6, unit velocity towards the origin), triple
 * point (x < 1: rho 1 p 1; x > 1 and y < 1.5: rho 1 p 0.1; else rho 0.125 p 0.1), water_air
 * (Saurel & Abgrall 1999, SI units: x < 0.7 rho 1000 kg/m^3 p 1e9 Pa, beyond rho 50 p 1e5).
 * Each cell takes the material of its region (f->mat, when there is more than one material). */
/* The case's regions, in the order case.materials gives their materials: their number, and
 * their names in *names. */
int case_regions(enum hydro_case name, const char *const **names);

int case_init(const struct case_params *cp, const struct hydro_params *hp, const struct mesh *m,
              struct hydro_fields *f, int32_t nc, int32_t nn, struct hydro_error *err);

#endif
