/* Materials in mixed cells, as MaHyCo: per material in a cell a volume fraction f_k, a mass m_k
 * and a specific internal energy e_k (its density rho_k = y_k rho / f_k, y_k = m_k / m, and its
 * pressure from its own EOS); the cell's values are the mixture's: p = sum f_k p_k, q = sum f_k
 * q_k, e = sum y_k e_k, c = max c_k, rho = m / V.
 *
 * Lagrange: one velocity field from the mean p and q; the fractions are frozen (the same strain
 * for every material), each material's energy is updated with its own EOS and viscosity (the
 * cell's L, div u and mean c, the material's q2). Remap: each material's partial volume f_k V,
 * partial density m_k / V and partial energy m_k e_k / V are reconstructed and carried through
 * the faces' swept volumes like the cell's values (no interface reconstruction); the cell's mass
 * flux is the sum of its materials'. From an upwind cell that holds one material alone with its
 * face neighbours, that material's flux is the cell's own (volume, mass, mass times specific
 * energy): a pure region computes as with one material, and only cells along material
 * boundaries fit and keep material slopes (remap.h). A material whose fraction falls below the
 * threshold, or whose mass would turn negative, leaves the cell: its mass is counted as
 * removed. A negative partial energy is clipped to 0, as MaHyCo does (a stiffened gas may then
 * have no sound speed: the run stops, naming the cell).
 *
 * With hydro_params' relax (materials.relax = pressure; MaHyCo has none), a mixed cell's
 * materials are brought to one pressure after the Lagrange phase and after the remap, at
 * constant cell volume and internal energy (each material pays its p dV).
 *
 * Storage: MaHyCo's (hydro_fields' ms, mesh/matstore.h): a pure cell's values are the cell's
 * own (mass, e, p and the level-n e0, p0; fraction 1), a mixed cell's a slot of partial arrays.
 * The functions below read and write a cell's materials as rows of nmat values (0 for the
 * absent ones), so that a pure cell computes exactly what it computed in [cells][nmat] arrays. */
#ifndef HYDRO_MATERIALS_H
#define HYDRO_MATERIALS_H

#include "hydro.h"
#include "par.h"
#include "xsum.h"

/* Remap columns per material: f_k, m_k / V, m_k e_k / V. */
enum { MAT_NPHI = 3 };

/* Cell c of the case's initial state: pure material k, its mass m and energy e. */
void mat_init_cell(struct hydro_fields *f, int32_t c, int k);
/* Each present material's density, pressure and sound speed from its mass and energy (relaxed
 * to one pressure first, with hydro_params' relax), and the cell's mean p, c and e. Returns 0,
 * or -1 when a material has no sound speed. */
DEVICE_BEGIN
int mat_eos_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c);
DEVICE_END
/* The level-n copies of e_k and p_k, cells [0, nc). */
void mat_save(int nmat, struct hydro_fields *f, int32_t nc);
/* The Lagrange update of cell c's materials from density rho0 to rho1 (fractions frozen) with
 * the cell's length L and div u: each material's viscosity and energy, then the cell's q, p, e
 * and c. Returns 0, or -1 when a Newton iteration failed (*what says which). */
DEVICE_BEGIN
int mat_lagrange_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, double rho0, double rho1,
                      double divu, const char **what);
DEVICE_END

/* The remap's per-material values of cell c (MAT_NPHI columns each, into phi): f_k, y_k rho
 * (= m_k / V) and y_k rho e_k. */
DEVICE_BEGIN
void mat_remap_values(int nmat, const struct hydro_fields *f, int32_t c, double *phi);
DEVICE_END
/* Cell c after the remap's fluxes: dv, dm and de hold each material's partial volume, mass and
 * internal energy gained (negative: lost) through the faces, vol the cell's volume before. New
 * fractions, masses and energies; materials below the threshold leave (their mass added to
 * removed[k]). Returns the cell's new mass and sets *eint to its internal energy. */
/* A cell that the remap turns from pure to mixed or back: matstore_compose then takes or gives
 * back a slot, which threads must not do at once, so the change waits in this record until the
 * loop over the cells is done (mat_apply_change). */
struct mat_change {
    int32_t cell;
    unsigned bits;
    double mass, eint; /* the cell's new mass M and internal energy M L^2/T^2 */
    double fr[HYDRO_MAT_MAX], mm[HYDRO_MAT_MAX], me[HYDRO_MAT_MAX], mp[HYDRO_MAT_MAX];
};
/* *change->cell is c when the new composition waits there, -1 when it is stored already. */
double mat_remap_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, double vol, const double *dv,
                      const double *dm, const double *de, double *eint, struct xsum *removed, struct mat_change *change);
/* A waiting composition, and the cell's mass and mean specific internal energy (its entries
 * first, then the cell's own, in the order of a cell stored at once). One thread; changes in
 * ascending cell order take slots in the same order whatever the thread count. */
void mat_apply_change(struct hydro_fields *f, const struct mat_change *change);
/* The remap's heating (dissipated kinetic energy dk per unit mass) of cell c's materials, when
 * every material stays admissible; the cell's mean energy is then mat_eos_cell's. */
DEVICE_BEGIN
void mat_heat(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, double dk);
DEVICE_END
/* Whether every material of cell c has an admissible energy. */
DEVICE_BEGIN
int mat_admissible(const struct hydro_params *hp, const struct hydro_fields *f, int32_t c);
DEVICE_END

#endif
