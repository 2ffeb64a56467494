/* The PT-Scotch backend: the distributed graph handed to SCOTCH_dgraphPart where it lies (no
 * rank gathers it), with Scotch's random generator fixed and reset before each call so that the same
 * graph on the same ranks gives the same parts, in a context of one thread. */
#include <ptscotch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "partitioner.h"

/* Scotch returns non-zero on failure and prints its own reason on stderr. */
static void scotch_check(MPI_Comm comm, int rc, const char *call)
{
    if (rc)
        hydro_fatal(comm, EXIT_RUNTIME, "PT-Scotch: %s failed (its message above)", call);
}

/* A copy of n int32 values as SCOTCH_Num (Scotch's arrays are not const and may be wider). */
static SCOTCH_Num *as_num(const int32_t *a, size_t n)
{
    SCOTCH_Num *s = xmalloc((n ? n : 1) * sizeof *s);
    for (size_t i = 0; i < n; i++)
        s[i] = a[i];
    return s;
}

/* Parts into sp: equal parts (share NULL), or each part's fraction of the weight as the weights
 * of a complete graph of parts (Scotch's target architecture), in 1000ths of the smallest share
 * (in a fixed fraction of the total, thousands of parts would round to the same weight). */
static void ptscotch_map(MPI_Comm comm, SCOTCH_Dgraph *bound, SCOTCH_Strat *strat, int nparts, const double *share,
                         SCOTCH_Num *sp)
{
    if (!share) {
        scotch_check(comm, SCOTCH_dgraphPart(bound, nparts, strat, sp), "SCOTCH_dgraphPart");
        return;
    }
    SCOTCH_Num *w = xmalloc((size_t)nparts * sizeof *w);
    double least = share[0];
    for (int p = 1; p < nparts; p++)
        least = fmin(least, share[p]);
    for (int p = 0; p < nparts; p++)
        w[p] = (SCOTCH_Num)fmax(1.0, round(1e3 * share[p] / least));
    SCOTCH_Arch arch;
    scotch_check(comm, SCOTCH_archInit(&arch), "SCOTCH_archInit");
    scotch_check(comm, SCOTCH_archCmpltw(&arch, nparts, w), "SCOTCH_archCmpltw");
    scotch_check(comm, SCOTCH_dgraphMap(bound, &arch, strat, sp), "SCOTCH_dgraphMap");
    SCOTCH_archExit(&arch);
    free(w);
}

static void ptscotch_partition(MPI_Comm comm, const struct dgraph *g, int nparts, int repart, const double *share,
                               int *part)
{
    (void)repart; /* PT-Scotch 7.0 has no distributed remapping: distribute_parts keeps the moves few */
    if (nparts == 1) {
        for (int32_t i = 0; i < g->nlocal; i++)
            part[i] = 0;
        return;
    }
    const int32_t n = g->nlocal, ne = g->xadj[n];
    SCOTCH_Num *vert = as_num(g->xadj, (size_t)n + 1), *edge = as_num(g->adjncy, (size_t)ne);
    int weighted = comm_max_int(comm, g->vwgt != NULL);
    SCOTCH_Num *velo = NULL;
    if (weighted) {
        velo = xmalloc((size_t)(n ? n : 1) * sizeof *velo);
        for (int32_t i = 0; i < n; i++)
            velo[i] = dgraph_weight(g, i); /* one weight: the constraints' sum */
    }
    SCOTCH_Dgraph dg, bound;
    SCOTCH_Strat strat;
    SCOTCH_Context ctx;
    scotch_check(comm, SCOTCH_dgraphInit(&dg, comm), "SCOTCH_dgraphInit");
    scotch_check(comm,
                 SCOTCH_dgraphBuild(&dg, 0, n, n, vert, vert + 1, velo, NULL, ne, ne, edge, NULL, NULL),
                 "SCOTCH_dgraphBuild");
    /* One thread: Debian's PT-Scotch otherwise starts threads that call MPI at once, which Open
     * MPI at hydro's thread level does not allow (4 ranks hung); and a fixed seed. */
    scotch_check(comm, SCOTCH_contextInit(&ctx), "SCOTCH_contextInit");
    scotch_check(comm, SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1), "SCOTCH_contextOptionSetNum");
    scotch_check(comm, SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1),
                 "SCOTCH_contextOptionSetNum");
    scotch_check(comm, SCOTCH_contextThreadSpawn(&ctx, 1, NULL), "SCOTCH_contextThreadSpawn");
    scotch_check(comm, SCOTCH_contextBindDgraph(&ctx, &dg, &bound), "SCOTCH_contextBindDgraph");
    scotch_check(comm, SCOTCH_stratInit(&strat), "SCOTCH_stratInit");
    /* the default strategy with a 5% load imbalance allowed (as Zoltan's IMBALANCE_TOL here) */
    scotch_check(comm, SCOTCH_stratDgraphMapBuild(&strat, SCOTCH_STRATDEFAULT, comm_size(comm), nparts, 0.05),
                 "SCOTCH_stratDgraphMapBuild");
    SCOTCH_contextRandomReset(&ctx);
    SCOTCH_Num *sp = sizeof(SCOTCH_Num) == sizeof *part ? (SCOTCH_Num *)part
                                                        : xmalloc((size_t)(n ? n : 1) * sizeof *sp);
    ptscotch_map(comm, &bound, &strat, nparts, share, sp);
    if ((void *)sp != (void *)part) {
        for (int32_t i = 0; i < n; i++)
            part[i] = (int)sp[i];
        free(sp);
    }
    SCOTCH_stratExit(&strat);
    SCOTCH_dgraphExit(&bound);
    SCOTCH_dgraphExit(&dg);
    SCOTCH_contextExit(&ctx);
    free(vert);
    free(edge);
    free(velo);
}

const struct partitioner partitioner_ptscotch = {"ptscotch", "PT-Scotch", 1, 0, ptscotch_partition, NULL};
