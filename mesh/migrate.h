/* Cell migration: owned cells move to other ranks with every registered variable, one message
 * per destination and family (cells, then nodes), point to point or with MPI_Alltoallv. */
#ifndef HYDRO_MIGRATE_H
#define HYDRO_MIGRATE_H

#include <stdint.h>
#include <mpi.h>

#include "cellset.h"
#include "idmap.h"
#include "mesh.h"
#include "vars.h"

enum { FAMILY_CELL, FAMILY_NODE };

struct migration {
    struct cellset own; /* the cells this rank owns afterwards, with their nodes' coordinates */
    /* values of the registry's own (non-external) variables, by global id */
    int cell_width, node_width; /* doubles per item */
    struct idmap cell_row, node_row;
    int64_t ncell_rows, nnode_rows, cap_cell_rows, cap_node_rows;
    double *cell_values, *node_values;
    /* what this rank did */
    long long cells_sent, cells_kept, cells_received;
    long long bytes[2];  /* sent, per family */
    int messages[2];     /* sent, per family */
    double seconds_pack, seconds_transfer[2], seconds_unpack;
    char date[2][40]; /* wall-clock date when each family's transfer began */
};

/* Collective. Owned cell c goes to rank dest[c] (dest[c] == this rank keeps it). collective
 * selects MPI_Alltoallv instead of point-to-point messages. */
void migration_run(MPI_Comm comm, const struct mesh *m, const struct registry *reg, const int *dest, int collective,
                   struct migration *mg);
/* After the new mesh is built and reg resized to it: the values of every local item found in
 * the migration (all owned items; ghosts are completed by a synchronisation). */
void migration_fill(const struct migration *mg, const struct mesh *m, struct registry *reg);
void migration_free(struct migration *mg);

/* Reallocate every registry-owned variable for new item counts (contents undefined). */
void registry_resize(struct registry *reg, int32_t ncells, int32_t nnodes);

#endif
