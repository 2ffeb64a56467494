/* Graph partitioners behind one interface, over the distributed dual graph (dgraph.h): a
 * backend is one file defining a struct partitioner (part_metis.c) and one row of the table
 * in partitioner.c (and its name among the deck's choices). */
#ifndef HYDRO_PARTITIONER_H
#define HYDRO_PARTITIONER_H

#include <stddef.h>
#include <mpi.h>

#include "dgraph.h"

struct partitioner {
    const char *name;
    /* Collective: part[i] in [0, nparts) for each local vertex i of g, the same for every run of
     * the same graph (fixed seeds), weighted by g's vertex weights. */
    void (*partition)(MPI_Comm comm, const struct dgraph *g, int nparts, int *part);
};

extern const struct partitioner partitioner_metis;

/* The backend of that name ([parallel] partitioner), NULL for none (block is geometric). */
const struct partitioner *partitioner_named(const char *name);

#endif
