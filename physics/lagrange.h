/* Lagrange phase of the MaHyCo-like staggered scheme: forces, velocities, positions, geometry,
 * viscosity, energy and EOS, and the time step candidate. Ranges are local index ranges:
 * cells [0, nc) and nodes [0, nn), so a caller can compute on owned items or redundantly on
 * ghost layers. Node sums visit the node's cells in ascending global id. */
#ifndef HYDRO_LAGRANGE_H
#define HYDRO_LAGRANGE_H

#include "hydro.h"
#include "par.h"

/* Level-n copies of rho, e, p (and each material's e_k and p_k) for cells [0, nc). */
void lagrange_save(int nmat, struct hydro_fields *f, int32_t nc);

/* Corner forces (p + q) C_cp, C_cp the corner vectors (into f->corner), and volumes (f->vol) of
 * cells [0, nc) at positions f->x. */
void lagrange_geometry(const struct mesh *m, struct hydro_fields *f, int32_t nc);

/* Node masses: sum of the cell masses around the node divided by nodes per cell. */
void lagrange_node_mass(const struct mesh *m, struct hydro_fields *f, int32_t nn);

/* F_p = sum over the node's cells of their corner forces (p + q) C_cp, nodes [0, nn). */
void lagrange_forces(const struct mesh *m, struct hydro_fields *f, int32_t nn);

/* v += dt_half F / m, then the walls. Nodes [0, nn). */
void lagrange_velocity(struct hydro_fields *f, const struct walls *w, int32_t nn, int dim, double dt_half);
/* x += dt v. Nodes [0, nn). */
void lagrange_positions(struct hydro_fields *f, int32_t nn, int dim, double dt);

/* New geometry, density, viscosity, energy and EOS of cells [0, nc) after a step of dt; with
 * ratio, the largest relative density change (rho1 - rho0) / rho1 of those cells into *ratio.
 * Returns 0, or -1 with err set (first bad cell: non-positive volume, NaN, EOS failure). */
int lagrange_cells(const struct mesh *m, struct hydro_fields *f, const struct hydro_params *hp, int32_t nc, double dt,
                   double *ratio, struct hydro_error *err);

/* EOS only (after a remap, or for initial conditions): p and c from rho and e, cells [0, nc).
 * Every cell is done; returns 0, or -1 with err naming the first cell without a sound speed. */
int lagrange_eos(const struct hydro_params *hp, struct hydro_fields *f, int32_t nc, struct hydro_error *err);
/* The same for cell c alone: 0, or -1 with err set. */
DEVICE_BEGIN
int lagrange_eos_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, struct hydro_error *err);
DEVICE_END

/* Smallest cfl L / (c + max node |v|) over cells [0, nc); *cell gets the cell giving it. */
double lagrange_dt_candidate(const struct mesh *m, const struct hydro_fields *f, const struct hydro_params *hp,
                             int32_t nc, int32_t *cell);

/* Walls from the boundary faces around nodes [0, nn) at positions x. */
void walls_build(const struct mesh *m, const double *x, int32_t nn, struct walls *w);
void walls_free(struct walls *w);
DEVICE_BEGIN
void walls_apply(const struct walls *w, int32_t node, double v[3]);
DEVICE_END

#endif
