/* Distribution of cells to ranks: METIS k-way on rank 0, or geometric blocks of a generated box. */
#ifndef HYDRO_PARTITION_H
#define HYDRO_PARTITION_H

#include <stddef.h>
#include <mpi.h>

#include "cartesian.h"
#include "cellset.h"
#include "comm.h"
#include "mesh.h"

/* Collective. Rank 0 holds the whole mesh in global (other ranks: an empty set), builds the
 * dual graph (cells sharing a face), runs METIS_PartGraphKway with a fixed seed and sends
 * every rank its cells. Returns 0, or -1 on every rank with the reason in err on rank 0. */
int partition_metis(MPI_Comm comm, const struct cellset *global, struct cellset *own, char *err, size_t errlen);

/* Collective, no communication of cells: every rank generates its block of the box. */
int partition_block(MPI_Comm comm, const struct box *b, struct cellset *own, int parts[3], char *err,
                    size_t errlen);

/* Collective, for restarts: cells spread over the ranks in any way (each rank's block of
 * a dump) are gathered on rank 0 in global id order and partitioned as partition_metis does. */
int partition_metis_gather(MPI_Comm comm, const struct cellset *some, struct cellset *own, char *err, size_t errlen);

/* Collective, for restarts: cells spread over the ranks go to the rank whose block of the box
 * holds them (the same blocks as partition_block). */
int partition_block_redistribute(MPI_Comm comm, const struct box *b, const struct cellset *some, struct cellset *own,
                                 int parts[3], char *err, size_t errlen);

/* Collective, for load balancing: the new owner dest[c] of every owned cell. Rank 0 gathers
 * the cell dual graph with the cells' integer weights, runs METIS_PartGraphKway with vertex
 * weights (fixed seed), then renumbers the parts to keep as much weight as possible where it
 * is, so that the fewest cells move. Also returns the weight imbalance (max - min) / min over
 * ranks before and after (-1 when a rank has no weight). */
void partition_rebalance(MPI_Comm comm, const struct mesh *m, const int *weight, int *dest, double *imb_before,
                         double *imb_after);
/* Collective: the weight imbalance (max - min) / min over ranks of the owned cells' weights,
 * as they are and once every cell c is at dest[c] (-1 when a rank would hold no weight). */
void partition_weight_imbalance(MPI_Comm comm, const struct mesh *m, const int *weight, const int *dest,
                                double *imb_before, double *imb_after);

struct partition_quality {
    struct stats cells;      /* owned cells per rank */
    struct stats ghosts;     /* ghost cells per rank */
    struct stats neighbours; /* ranks exchanging ghost cells with a rank */
    long long edge_cut;      /* faces between cells of different ranks */
};
void partition_quality(MPI_Comm comm, const struct mesh *m, int neighbours, struct partition_quality *q);

#endif
