/* The hydro scheme's fields in the registry: one table gives each its name, centering, width,
 * flags, unit and storage; the arena that the Lagrange phase and the remap share. */
#ifndef HYDRO_HYDRO_FIELDS_H
#define HYDRO_HYDRO_FIELDS_H

#include "cycle.h"
#include "vars.h"

enum field {
    F_RHO, F_E, F_P, F_C, F_Q, F_VOL, F_MASS, F_LEN,
    F_X, F_V, F_NMASS, F_FORCE, F_XINIT,
    /* with more than one material: the registry's matstore (pure cells in the cell arrays) */
    F_MFRAC, F_MMASS, F_ME, F_MP,
    /* with the remap: its results and, as views, its reconstructed values and slopes */
    F_UNEW, F_KNEW, F_PHI_RHO, F_PHI_E, F_PHI_K, F_PHI_U, F_GRAD_RHO, F_GRAD_E, F_GRAD_K, F_GRAD_U,
    F_PHI_MAT, /* and the materials' values (their slopes are computed where used: remap.h) */
    F_COUNT
};

/* Registers the fields (those of the remap only with remap, the materials' only with
 * nmat > 1), their registry ids into id[] (-1 for a field not registered). node_xyz: the mesh's
 * coordinates, the positions field. */
void hydro_fields_register(struct registry *reg, int remap, int nmat, double *node_xyz, int id[F_COUNT]);
/* Points h's fields at the registry's arrays of mesh h->m, lays out the arena (allocated here)
 * and, with the remap, its work arrays; the positions field becomes m's coordinates. */
void hydro_fields_attach(struct hydro *h, struct registry *reg, const int id[F_COUNT]);
/* Frees the arena and the remap's work arrays (before the mesh changes). */
void hydro_fields_detach(struct hydro *h);

#endif
