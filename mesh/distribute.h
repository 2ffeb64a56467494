/* Cells to their ranks: the scatter of cells to new owners, the parts-to-ranks assignment that
 * moves the fewest cells, and weight imbalances over ranks. */
#ifndef HYDRO_DISTRIBUTE_H
#define HYDRO_DISTRIBUTE_H

#include <stdint.h>
#include <mpi.h>

#include "cellset.h"

/* Collective: each cell of some goes to rank dest[i] with its nodes, into own (cells from each
 * source rank in ascending rank order; the cells staying here are copied, not sent). */
void distribute_cells(MPI_Comm comm, const struct cellset *some, const int *dest, struct cellset *own);

/* Ranks' relative speeds below (speed[P], the same on every rank; NULL: all equal): a rank's time
 * is its weight over its speed, and the imbalances are of those times. */

/* Collective, for load balancing: this rank's n owned cells (integer weights) fall into parts
 * part[] of a new partition into as many parts as ranks; each part goes to the rank holding the
 * most of its weight already (greedily, heaviest overlap first), so that the fewest cells move;
 * with speeds, part p (sized for rank p) only to a rank within 5% of rank p's speed: dest[c] is
 * the new owner of cell c. Also the imbalance (max - min) / min over ranks as it is and as it will
 * be (-1 when a rank holds no weight). */
void distribute_parts(MPI_Comm comm, int32_t n, const int *weight, const int *part, const double *speed, int *dest,
                      double *imb_before, double *imb_after);

/* Collective: the imbalance (max - min) / min over ranks of the owned cells' weights over the
 * ranks' speeds, as they are and once every cell c is at dest[c] (-1 when a rank would hold no
 * weight). */
void distribute_weight_imbalance(MPI_Comm comm, int32_t n, const int *weight, const int *dest, const double *speed,
                                 double *imb_before, double *imb_after);

/* Collective: the time of the ranks' phases in one cycle over the balanced time, as they are and
 * once every cell c is at dest[c]. Each of the ncon weights weight[c][ncon] is a phase's work that
 * a synchronisation ends (the ranks wait there for the slowest), so the time is the sum over the
 * phases of the slowest rank's weight over its speed, and the balanced time the sum of each phase's
 * weight over the ranks' summed speed: 1 when every phase is balanced. */
void distribute_phase_cost(MPI_Comm comm, int32_t n, const int *weight, int ncon, const int *dest,
                           const double *speed, double *before, double *after);

#endif
