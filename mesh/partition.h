/* Distribution of cells to ranks: graph partitions through a backend (partitioner.h) over the
 * distributed dual graph, or geometric blocks of a generated box. */
#ifndef HYDRO_PARTITION_H
#define HYDRO_PARTITION_H

#include <stddef.h>
#include <mpi.h>

#include "cartesian.h"
#include "cellset.h"
#include "comm.h"
#include "mesh.h"
#include "partitioner.h"

/* Whether a mesh of cells can have P parts of at least one cell: 0, or -1 with the reason in err. */
int partition_too_few(long long cells, int P, char *err, size_t errlen);
/* The block partitioner's split of box b into P blocks (parts per axis): 0, or -1 with the
 * reason in err. */
int partition_block_split(const struct box *b, int P, int parts[3], char *err, size_t errlen);

/* Collective. The cells spread over the ranks in some (any way: all on rank 0 at set-up, each
 * rank's block of a dump at a restart; ascending global ids on each rank, the ids over all ranks
 * exactly 0 .. N-1, as every mesh hydro reads has them) are partitioned into
 * one part per rank by pt over their dual graph, without gathering the cells, and sent to their
 * part's rank into own; weighted by weight[c][ncon] for some's cells where weight is not NULL
 * (NULL on every rank or on none: the cells counted), each weight's largest sum over the parts
 * against their mean then in imb[ncon] (1: balanced); *graph_seconds: this rank's seconds
 * building the dual graph (0 on one rank), which a rebalance, reading it from the mesh's faces,
 * does not pay. Returns 0, or -1 on every rank with the reason in err on rank 0. */
int partition_cells(MPI_Comm comm, const struct partitioner *pt, const struct cellset *some, const int32_t *weight,
                    int ncon, double *imb, struct cellset *own, double *graph_seconds, char *err, size_t errlen);

/* Collective, no communication of cells: every rank generates its block of the box. */
int partition_block(MPI_Comm comm, const struct box *b, struct cellset *own, int parts[3], char *err,
                    size_t errlen);

/* Collective, for restarts: cells spread over the ranks go to the rank whose block of the box
 * holds them (the same blocks as partition_block). */
int partition_block_redistribute(MPI_Comm comm, const struct box *b, const struct cellset *some, struct cellset *own,
                                 int parts[3], char *err, size_t errlen);

/* Collective, for load balancing: the new owner dest[c] of every owned cell of m, from pt's
 * partition of the dual graph weighted by the cells' integer weights weight[c][ncon] (ncon
 * balance constraints; a backend with one weight takes their sum), each part going to the rank
 * that holds most of its total weight (distribute_parts), so that the fewest cells move; with the
 * ranks' relative speeds speed[P] (NULL: equal), part r is sized for rank r's share of the speeds
 * and goes to a rank of that speed.
 * Also the imbalance (max - min) / min over ranks of the total weight over the speed, before and
 * after (-1 when a rank has no weight), and this rank's seconds in building the dual graph and in
 * the partitioner's call (seconds[2]). */
void partition_rebalance(MPI_Comm comm, const struct partitioner *pt, const struct mesh *m, const int *weight,
                         int ncon, const double *speed, int *dest, double *imb_before, double *imb_after,
                         double seconds[2]);

#endif
