/* Partition quality metrics of a distributed mesh, for the listing. */
#ifndef HYDRO_QUALITY_H
#define HYDRO_QUALITY_H

#include <mpi.h>

#include "comm.h"
#include "mesh.h"

struct partition_quality {
    struct stats cells;      /* owned cells per rank */
    struct stats ghosts;     /* ghost cells per rank */
    struct stats neighbours; /* ranks exchanging ghost cells with a rank */
    long long edge_cut;      /* faces between cells of different ranks */
};
/* Collective; neighbours: the ranks this one exchanges ghosts with. */
void partition_quality(MPI_Comm comm, const struct mesh *m, int neighbours, struct partition_quality *q);

#endif
