/* Graph partitioners behind one interface, over the distributed dual graph (dgraph.h): a
 * backend is one file defining a struct partitioner (part_metis.c) and one row of the table
 * in partitioner.c (and its name among the deck's choices). */
#ifndef HYDRO_PARTITIONER_H
#define HYDRO_PARTITIONER_H

#include <stddef.h>
#include <mpi.h>

#include "dgraph.h"

struct partitioner {
    const char *name;    /* the deck's */
    const char *display; /* the listing's */
    int distributed;     /* no rank gathers the graph: the set-up then gives each rank only its share */
    /* Parts up to which it balances several weights per vertex well and fast (0: it balances
     * their sum); loadbalance.weights = auto gives one weight per phase up to there. Zoltan
     * balances them only where the graph carries positions (multi_how). */
    int multi_weight_max;
    /* Collective: part[i] in [0, nparts) for each local vertex i of g, the same for every run of
     * the same graph on the same ranks (fixed seeds), weighted by g's vertex weights. repart: the
     * vertices lie on the ranks of their current parts (a rebalance), so that a backend that can
     * may weigh the vertices it moves against the edges it cuts. share: each part's fraction of
     * the total weight, summing to 1, the same on every rank (NULL: equal parts). */
    void (*partition)(MPI_Comm comm, const struct dgraph *g, int nparts, int repart, const double *share, int *part);
    /* How it balances several weights, for the listing (NULL: as constraints, or their sum where
     * multi_weight_max is 0). Non-NULL: by the vertices' positions, which a rebalance then gives it
     * (struct dgraph's xyz). */
    const char *multi_how;
};

extern const struct partitioner partitioner_metis;
/* The SMPI build lacks PT-Scotch, and Zoltan unless built with smpicc (Debian's link Open MPI) */
#ifndef HYDRO_NO_ZOLTAN
extern const struct partitioner partitioner_zoltan;
#endif
#ifndef HYDRO_NO_PTSCOTCH
extern const struct partitioner partitioner_ptscotch;
#endif

/* The backend of that name ([parallel] partitioner, loadbalance.mode), NULL for none (block is
 * geometric, shuffle no partitioner) or one this build lacks. */
const struct partitioner *partitioner_named(const char *name);

#endif
