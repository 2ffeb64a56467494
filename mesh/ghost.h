/* Building the local mesh of every rank with its ghost layers, from the cells it owns (collective). */
#ifndef HYDRO_GHOST_H
#define HYDRO_GHOST_H

#include <stddef.h>
#include <mpi.h>

#include "cellset.h"
#include "mesh.h"

/* Collective. Builds the local mesh of every rank from the cells it owns (own: cells with
 * the coordinates of their nodes; consumed: emptied and its memory freed on the way). Ghost
 * layers are found through a directory of nodes distributed by global id, so no rank ever
 * holds the whole mesh. With check_cells (input meshes; not a restart, whose cells the run
 * itself has moved) a cell with a non-positive corner Jacobian is reported by global id:
 * returns NULL on every rank, with the message (the smallest bad id) in err on rank 0 and
 * err empty elsewhere. */
struct mesh *mesh_build(MPI_Comm comm, struct cellset *own, int nlayers, int check_cells, char *err, size_t errlen);

#endif
