/* Spreading a cell value over the face layers around it, across ranks through the ghost layers. */
#ifndef HYDRO_SPREAD_H
#define HYDRO_SPREAD_H

#include <mpi.h>

#include "mesh.h"
#include "sync.h"
#include "vars.h"

/* Collective over the cell plan. v[ncells_owned]: each owned cell's value, in place, becomes the
 * largest (1 - d / reach) v[c'] over the cells c' fewer than reach face layers from it (d the
 * layers between them; c' the cell itself: its own value). The ghosts' values travel through
 * the registry's external cell variable id (VAR_SYNC, one component), pointed at the work array
 * meanwhile and at NULL on return; one synchronisation per nlayers layers. */
void cells_spread(MPI_Comm comm, const struct mesh *m, struct sync_plan *cells, struct registry *reg, int id,
                  double *v, double reach);

#endif
