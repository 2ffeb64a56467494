/* Spreading a cell value over the layers of cells around it, across ranks through the ghost layers. */
#ifndef HYDRO_SPREAD_H
#define HYDRO_SPREAD_H

#include <mpi.h>

#include "mesh.h"
#include "sync.h"
#include "vars.h"

/* Collective over the cell plan. v[ncells_owned] >= 0: each owned cell's value, in place, becomes
 * the largest (1 - d / reach) v[c'] over the cells c' fewer than reach layers from it, a layer
 * being the cells that share a node with the previous one, as the ghost layers are (d = 0: the
 * cell itself, its own value). The ghosts' values travel through the registry's external cell
 * variable id (VAR_SYNC, one component), pointed at the work arrays meanwhile and at NULL on
 * return: one synchronisation per nlayers layers, and none once no value grows any more. */
void cells_spread(MPI_Comm comm, const struct mesh *m, struct sync_plan *cells, struct registry *reg, int id,
                  double *v, double reach);

#endif
