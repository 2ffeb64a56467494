/* The peak memory a run needs per rank, estimated from the deck before anything is allocated,
 * against the memory each rank may have: a run too large for the machine is refused at once. */
#ifndef HYDRO_MEMEST_H
#define HYDRO_MEMEST_H

#include <stdint.h>

#include "deck.h"

struct run;

struct mem_estimate {
    int dim;
    int64_t cells;         /* the whole mesh */
    int64_t owned, ghosts; /* on the rank with the most local cells */
    double loop_bytes;     /* that rank's peak (set-up of its part of the mesh, fields, the time loop) */
    double fixed_bytes;    /* of those, the process and its libraries, whatever the mesh */
    double setup_bytes;    /* rank 0's peak while it holds the whole mesh (METIS or a Gmsh file), else 0 */
};

/* The estimate for cfg on nranks ranks, node_ranks of them on each node; a cartesian mesh's
 * dimension and cells from the deck, a Gmsh mesh's given (dim, cells: from the file's headers or
 * a restart's dump). Returns 0. */
int mem_estimate(const struct config *cfg, int nranks, int node_ranks, int dim, int64_t cells, struct mem_estimate *e);
/* Bytes a rank may use: run.memory_limit, or the node's available memory (MemAvailable of
 * /proc/meminfo, or what the process's memory cgroup still allows when less) shared by its
 * node_ranks ranks; 0 when unknown. */
double mem_available(const struct config *cfg, int node_ranks);
/* Collective: prints the estimate in the listing; when some rank needs more than it may have,
 * the lowest such rank says what it needs, what there is and what to change, and every rank
 * exits 2. */
void mem_check(struct run *run);
/* Collective: the estimate as a deck comment line on rank 0's stdout, for --check (for this
 * communicator's ranks: mpirun -np N hydro --check DECK estimates N). */
void mem_print_check(struct run *run);

#endif
