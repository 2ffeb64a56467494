/* Euler remap by swept faces, second order with limited slopes, conservative in mass,
 * momentum and total (internal + kinetic) energy, on any quad/hex mesh.
 *
 * One remap step moves the mesh from its positions x (after the Lagrange phase) to targets xt.
 * Each face sweeps a region between its two positions; the volume of that region, computed
 * with the cells' own volume formula, is exactly the volume the face's cells exchange, so
 * V(xt) = V(x) + sum of the swept volumes. Across a face flows the swept volume times the
 * upwind cell's reconstructed density, and that mass carries the upwind cell's reconstructed
 * mean velocity and specific total energy, all evaluated at the swept region's centre.
 * Slopes are least-squares fits over the face neighbours (walls mirror the cell), limited by
 * minmod, superbee or van Leer ratios and then cut so that no flux value leaves the range of
 * the cell and its neighbours: no new extrema.
 * Nodes: the cell's mean velocity changes by du; a node's velocity changes by the mass
 * weighted mean of du over its cells, which conserves momentum exactly. Energy: internal and
 * kinetic energy (the corner share of the nodes' 1/2 m |v|^2) are transported separately and
 * conservatively. The nodal velocities then hold a little less kinetic energy than was
 * transported (the remap's dissipation). With remap_heat that difference is added to the
 * cell's internal energy, which conserves total energy exactly, except in a cell where the
 * difference is negative and larger than its internal energy (there the internal energy is the
 * transported one). Without it (MaHyCo's choice) the internal energy is the transported one
 * everywhere and the dissipated kinetic energy shows as the listing's energy drift.
 *
 * Nothing crosses a face none of whose nodes moves, so a step changes only the cells with a
 * moving node and the cells and nodes around them (remap_active); the kernels skip the rest,
 * and a cell through which nothing flowed keeps its mass and energies as they were (not
 * m e / m, which rounds), so that skipping a cell and computing it give the same bits.
 *
 * The steps take index ranges so that the caller synchronises between them; see cycle.c. */
#ifndef HYDRO_REMAP_H
#define HYDRO_REMAP_H

#include "hydro.h"
#include "xsum.h"

enum { REMAP_NPHI = 6 }; /* reconstructed: rho, e, k (specific kinetic energy), u_x, u_y, u_z */
/* then, with several materials, MAT_NPHI per material (materials.h) */
enum { REMAP_NPHI_MAX = REMAP_NPHI + 3 * HYDRO_MAT_MAX };

/* The sign of a face's swept volume for its first cell (0 is no value: a face not reached). */
enum swept { SWEPT_LOSES = 1, SWEPT_NONE = 2, SWEPT_GAINS = 3 };

struct remap_work {
    int32_t ncells, nfaces;
    int nmat, nphi;  /* materials (1: none carried), values per cell (the density among them) */
    double *phi;     /* [ncells][nphi - 1] cell values at x but the density, which is f->rho itself:
                      * nothing changes it before remap_finish */
    double *grad;    /* [ncells][REMAP_NPHI][3] limited slopes of the cell's own columns (the
                      * materials' are computed where a face uses them) */
    signed char *swept; /* [nfaces] what face_cells[0] does when the face moves to the targets (enum
                         * swept; the volume is computed again where a flux crosses) */
    double *unew;    /* [ncells][3] remapped mean velocity */
    double *knew;    /* [ncells] remapped kinetic energy per unit mass */
    int sweep;       /* targets: x with coordinate sweep (every coordinate when -1) from x_init */
    unsigned char *moved; /* [nnodes] 1 where the target differs from x */
    int64_t nmoved;       /* how many (remap_targets) */
    /* Where the step can change anything (remap_active): the other items keep their values, and
     * the kernels skip them. */
    unsigned char *cell_moves; /* [ncells] 1 where a node of the cell moves (only such a cell's faces sweep) */
    unsigned char *node_near;  /* [nnodes] 1 where the node is a node of a moving cell */
    unsigned char *cell_near;  /* [ncells] 1 where a node of the cell is near (values read, finished) */
    unsigned char *upwind; /* [ncells] 1 where the cell is upwind of a face (its slopes are used) */
    /* with materials: per cell the row of its material slopes in mgrad, or -1 - k where material k
     * is alone in the cell and its face neighbours (the cell's own flux carries it) */
    int32_t *mslot;
    double *mgrad; /* [rows][MAT_NPHI nmat][3], one row per upwind cell along a material boundary */
    size_t mcap;   /* doubles allocated in mgrad */
    struct xsum removed[HYDRO_MAT_MAX]; /* mass of each material that left cells (below the threshold), summed
                                    * over the owned cells since remap_work_init */
};

/* Doubles of scratch the remap uses only inside one remap step (values, slopes, swept
 * volumes, new velocities and kinetic energies): the caller lends them, and may lend the same
 * memory to the Lagrange phase (miniapp/hydro_fields.c). */
size_t remap_work_size(const struct mesh *m, int nmat);
/* scratch: remap_work_size(m, nmat) doubles, owned by the caller; moved, upwind and, with
 * materials, mslot are allocated here, mgrad by remap_material_slopes as it needs. */
void remap_work_init(struct remap_work *w, const struct mesh *m, double *scratch, int nmat);
void remap_work_free(struct remap_work *w);

/* Targets: all local nodes at x_init (sweep < 0) or x with coordinate sweep replaced. */
void remap_targets(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w, int sweep);
/* The step's moving and near items from moved (after remap_targets): a kernel changes nothing
 * in the others. A node whose cell list is incomplete (the last ghost layer) counts as near:
 * more items than needed are harmless, since a cell through which nothing flows keeps its values
 * (remap_cells), so processing it changes nothing either. all: every item active (the same bits).
 * Returns the near owned cells (those the step computes). */
int64_t remap_active(const struct mesh *m, struct remap_work *w, int all);
/* Cell values of the nc cells listed (struct item_split), or with cells NULL of cells
 * [0, nc); the same for the item lists of remap_nodes and remap_finish. */
void remap_values(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w, const int32_t *cells,
                  int32_t nc);
/* Which way the faces of cells [0, nc) sweep (interior faces only). */
void remap_swept(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w, int32_t nc);
/* Least-squares slopes of the cell's own columns, limited, cells [0, nc): needs values of their
 * face neighbours and the cells' swept faces. */
void remap_slopes(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w, enum limiter_kind lim,
                  int32_t nc);
/* With several materials, cells [0, nc): the materials' limited slopes of the cells upwind of a
 * face that do not hold one material alone with their face neighbours (those along material
 * boundaries), in mgrad, which grows with them; the others' material fluxes are the cell's
 * (remap_cells). Needs what remap_slopes needs; the fluxes of remap_cells' cells read these of
 * their neighbours, so it runs one layer further than remap_cells. */
void remap_material_slopes(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w,
                           enum limiter_kind lim, int32_t nc);
/* Fluxes through the faces of cells [0, nc) and their new mass, mean velocity and total
 * energy: needs the limited slopes of their face neighbours. */
/* With several materials each one's partial volume, mass and energy cross the faces, and the
 * cell's mass flux is their sum (materials.h); from an upwind cell that holds one material alone
 * with its neighbours, that material's flux is the cell's (swept volume, mass flux, and the mass
 * flux times the reconstructed specific energy), as with one material. */
/* The new mass and internal energy go straight into f->mass and f->e: a cell reads only its
 * own mass, and the energies through their copies in phi, so nothing reads an entry after it
 * is replaced (remap_finish then updates each cell from its own entries). */
void remap_cells(const struct mesh *m, struct hydro_fields *f, const struct hydro_params *hp, struct remap_work *w,
                 int32_t nc);
/* New velocity and mass of the nn nodes listed: needs the new cell values around them. Walls
 * apply. */
void remap_nodes(const struct mesh *m, struct hydro_fields *f, const struct remap_work *w, const struct walls *walls,
                 const int32_t *nodes, int32_t nn);
/* The nc cells listed at the targets: volume, density, internal energy, EOS; needs the new
 * velocities of their nodes. Every cell is finished, so that a failure leaves one state (the
 * remapped one) to dump. Failures merge into err[0] (no mass, negative energy) and err[1] (the
 * equation of state), each keeping its smallest cell: the step's failure is err[0]'s, or else
 * err[1]'s, whatever the parts the cells were finished in. */
void remap_finish(const struct mesh *m, struct hydro_fields *f, const struct remap_work *w,
                  const struct hydro_params *hp, const int32_t *cells, int32_t nc, struct hydro_error err[2]);
/* All local nodes move to the targets. */
void remap_move(const struct mesh *m, struct hydro_fields *f, const struct remap_work *w);

/* Limiter functions of the slope ratio r, in [0, 1]. */
double limiter(enum limiter_kind lim, double r);

#endif
