/* Cell migration: owned cells move to other ranks with every registered variable, one message
 * per destination and family (cells, then nodes), point to point or with MPI_Alltoallv. */
#ifndef HYDRO_MIGRATE_H
#define HYDRO_MIGRATE_H

#include <stdint.h>
#include <mpi.h>

#include "cellset.h"
#include "comm.h"
#include "idmap.h"
#include "mesh.h"
#include "vars.h"

enum { FAMILY_CELL, FAMILY_NODE };

/* A message holds, for its items in one order: the count, the global ids, then (cells) node
 * global ids and face tags or (nodes) coordinates, then each registry-owned variable of the
 * family as one contiguous block, in registry order: packing and unpacking stream through
 * every variable's array instead of visiting hundreds of arrays per item. */
struct migration {
    MPI_Comm comm;
    struct cellset own; /* the cells this rank owns afterwards, with their nodes' coordinates */
    struct inbox in[2]; /* received messages, per family */
    /* where a received item's values are: message (high 24 bits) and position (low 40 bits) */
    struct idmap got[2];
    /* the old mesh's items (global ids, local order) and element sizes, kept so that the
     * caller can free the old mesh before it builds the new one */
    int64_t *old_gid[2];
    int32_t old_n[2];
    int nv, nf;
    /* what this rank did */
    long long cells_sent, cells_kept, cells_received;
    long long bytes[2]; /* sent, per family */
    int messages[2];    /* sent, per family */
    double seconds_pack, seconds_transfer[2], seconds_unpack;
    char date[2][40]; /* wall-clock date when each family's transfer began */
};

/* Collective. Owned cell c goes to rank dest[c] (dest[c] == this rank keeps it). collective
 * selects MPI_Alltoallv instead of point-to-point messages. The ghosts of m must hold their
 * owners' values (synchronise every variable first): any local copy of an item is used.
 * pools: NULL, or [2] buffer pools (cells, nodes) kept from one migration to the next; the
 * received messages live in them until migration_free or until the caller frees the pools
 * (comm_pool_free), whichever comes first: migration_finish is the last to read them. */
void migration_run(MPI_Comm comm, const struct mesh *m, const struct registry *reg, const int *dest, int collective,
                   struct comm_pool *pools, struct migration *mg);
/* m is not used after migration_run: free it before building the new mesh, so that the two
 * meshes do not coexist. Once the new mesh nm is built from mg->own (which mesh_build frees):
 * every registry-owned variable is reallocated for nm and filled for
 * every item that was local on the old mesh or arrived (all owned items; the other ghosts need a
 * synchronisation), one variable at a time, each old array freed as soon as nothing reads it. */
void migration_finish(struct migration *mg, const struct mesh *nm, struct registry *reg);
void migration_free(struct migration *mg);

#endif
