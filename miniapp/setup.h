/* Prolog steps shared by the application and the integration tests: mesh, partition, ghosts. */
#ifndef HYDRO_SETUP_H
#define HYDRO_SETUP_H

#include <stddef.h>
#include <mpi.h>

#include "cartesian.h"
#include "deck.h"
#include "listing.h"
#include "mesh.h"
#include "timers.h"

void setup_box(const struct config *cfg, struct box *b);

/* Collective: source (generator or Gmsh file), partition, ghost layers. Returns the local
 * mesh, or NULL on every rank with the message in err where it is known (rank 0 for input
 * files, the rank holding an invalid cell otherwise; err[0] = 0 elsewhere). Timers and
 * listing may be NULL. */
struct mesh *setup_mesh(MPI_Comm comm, const struct config *cfg, struct timers *tm, struct listing *lst, char *err,
                        size_t errlen);

/* Collective, for --check: what the run would read or generate, checked as the run checks it
 * (a Gmsh file read and validated on rank 0; the partition of the cells possible on this many
 * ranks), without building the distributed mesh. Returns 0 with a one-line summary (dimension,
 * cells, nodes) in summary, or -1 with the run's message in err on rank 0 (err empty
 * elsewhere). */
int setup_check_mesh(MPI_Comm comm, const struct config *cfg, char *summary, size_t n, char *err, size_t errlen);

struct restart_file;

/* Collective: the same from a dump, read by global-id blocks and repartitioned with the
 * configured partitioner (timed under restart and partition). */
struct mesh *setup_mesh_restart(MPI_Comm comm, const struct config *cfg, const struct restart_file *rf,
                                struct timers *tm, struct listing *lst, char *err, size_t errlen);

#endif
