/* The Zoltan backend: the distributed graph given to Zoltan's parallel hypergraph/graph
 * partitioner (PHG, the graph package Debian's Zoltan has besides Scotch) through its query
 * callbacks, where it lies (no rank gathers it). A rebalance asks for REPARTITION, in which PHG
 * weighs the cells it would move against the faces it would cut; the set-up asks for PARTITION. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zoltan.h>

#include "check.h"
#include "comm.h"
#include "partitioner.h"

/* Zoltan's generator (zz_rand.c; not in its public headers): PHG draws from one global state,
 * which a second call in the same process would continue. Reset before each call to the value
 * Zoltan starts from, so that the same graph on the same ranks gives the same parts. */
void Zoltan_Srand(unsigned int seed, unsigned int *state);
enum { ZOLTAN_START_SEED = 123456789 };

/* Zoltan reports ZOLTAN_WARN for a partition it computed (e.g. an imbalance above its
 * tolerance): only worse codes are failures. */
static void zoltan_check(MPI_Comm comm, int rc, const char *call)
{
    if (rc != ZOLTAN_OK && rc != ZOLTAN_WARN)
        hydro_fatal(comm, EXIT_RUNTIME, "Zoltan: %s failed (code %d%s)", call, rc,
                    rc == ZOLTAN_MEMERR ? ", out of memory" : "");
}

/* What the callbacks read: the graph and, for each neighbour, its rank. */
struct zquery {
    const struct dgraph *g;
    int me;
};

static int rank_of(const struct dgraph *g, int64_t v)
{
    int lo = 0, hi = g->nranks - 1; /* the r with vtxdist[r] <= v < vtxdist[r + 1] */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (g->vtxdist[mid] <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int q_num_obj(void *data, int *ierr)
{
    *ierr = ZOLTAN_OK;
    return ((const struct zquery *)data)->g->nlocal;
}

static void q_obj_list(void *data, int ngid, int nlid, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int wdim,
                       float *wgt, int *ierr)
{
    (void)ngid, (void)nlid;
    const struct zquery *q = data;
    const struct dgraph *g = q->g;
    for (int32_t i = 0; i < g->nlocal; i++) {
        gids[i] = (ZOLTAN_ID_TYPE)(g->vtxdist[q->me] + i);
        lids[i] = (ZOLTAN_ID_TYPE)i;
        if (wdim)
            wgt[i] = (float)dgraph_weight(g, i); /* PHG balances one weight: the constraints' sum */
    }
    *ierr = ZOLTAN_OK;
}

static void q_num_edges(void *data, int ngid, int nlid, int nobj, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids,
                        int *nedges, int *ierr)
{
    (void)ngid, (void)nlid, (void)gids;
    const struct dgraph *g = ((const struct zquery *)data)->g;
    for (int i = 0; i < nobj; i++)
        nedges[i] = g->xadj[lids[i] + 1] - g->xadj[lids[i]];
    *ierr = ZOLTAN_OK;
}

static void q_edge_list(void *data, int ngid, int nlid, int nobj, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids,
                        int *nedges, ZOLTAN_ID_PTR nbor, int *nbor_rank, int wdim, float *ewgt, int *ierr)
{
    (void)ngid, (void)nlid, (void)gids, (void)nedges, (void)wdim, (void)ewgt;
    const struct dgraph *g = ((const struct zquery *)data)->g;
    size_t k = 0;
    for (int i = 0; i < nobj; i++)
        for (int32_t j = g->xadj[lids[i]]; j < g->xadj[lids[i] + 1]; j++, k++) {
            nbor[k] = (ZOLTAN_ID_TYPE)g->adjncy[j];
            nbor_rank[k] = rank_of(g, g->adjncy[j]);
        }
    *ierr = ZOLTAN_OK;
}

/* Zoltan's parameters, as strings (its interface). */
static void zoltan_params(MPI_Comm comm, struct Zoltan_Struct *zz, int nparts, int repart, int weighted)
{
    char np[16];
    snprintf(np, sizeof np, "%d", nparts);
    const char *const params[][2] = {
        {"DEBUG_LEVEL", "0"},
        {"LB_METHOD", "GRAPH"},
        {"GRAPH_PACKAGE", "PHG"},
        {"LB_APPROACH", repart ? "REPARTITION" : "PARTITION"},
        {"NUM_GID_ENTRIES", "1"},
        {"NUM_LID_ENTRIES", "1"},
        {"NUM_GLOBAL_PARTS", np},
        {"RETURN_LISTS", "PARTS"}, /* every local vertex with its new part */
        {"OBJ_WEIGHT_DIM", weighted ? "1" : "0"},
        {"EDGE_WEIGHT_DIM", "0"},
        {"IMBALANCE_TOL", "1.05"},
        {"CHECK_GRAPH", "0"}, /* the graph is checked by test/dgraph.t */
    };
    for (size_t i = 0; i < sizeof params / sizeof *params; i++)
        zoltan_check(comm, Zoltan_Set_Param(zz, params[i][0], params[i][1]), params[i][0]);
}

/* Each part's fraction of the weight (Zoltan's part sizes), the same on every rank. */
static void zoltan_part_sizes(MPI_Comm comm, struct Zoltan_Struct *zz, int nparts, const double *share)
{
    int *ids = xmalloc((size_t)nparts * sizeof *ids);
    float *sizes = xmalloc((size_t)nparts * sizeof *sizes);
    for (int p = 0; p < nparts; p++) {
        ids[p] = p;
        sizes[p] = (float)share[p];
    }
    zoltan_check(comm, Zoltan_LB_Set_Part_Sizes(zz, 1, nparts, ids, NULL, sizes), "Zoltan_LB_Set_Part_Sizes");
    free(ids);
    free(sizes);
}

static void zoltan_partition(MPI_Comm comm, const struct dgraph *g, int nparts, int repart, const double *share,
                             int *part)
{
    const int me = comm_rank(comm);
    if (nparts == 1 || g->vtxdist[g->nranks] < nparts) { /* PHG fails (ZOLTAN_MEMERR) with fewer vertices than parts */
        for (int32_t i = 0; i < g->nlocal; i++)
            part[i] = nparts == 1 ? 0 : (int)(g->vtxdist[me] + i);
        return;
    }
    float version;
    zoltan_check(comm, Zoltan_Initialize(0, NULL, &version), "Zoltan_Initialize");
    struct Zoltan_Struct *zz = Zoltan_Create(comm);
    if (!zz)
        hydro_fatal(comm, EXIT_RUNTIME, "Zoltan: Zoltan_Create failed");
    struct zquery q = {g, me};
    zoltan_params(comm, zz, nparts, repart, comm_max_int(comm, g->vwgt != NULL));
    if (share)
        zoltan_part_sizes(comm, zz, nparts, share);
    zoltan_check(comm, Zoltan_Set_Num_Obj_Fn(zz, q_num_obj, &q), "Zoltan_Set_Num_Obj_Fn");
    zoltan_check(comm, Zoltan_Set_Obj_List_Fn(zz, q_obj_list, &q), "Zoltan_Set_Obj_List_Fn");
    zoltan_check(comm, Zoltan_Set_Num_Edges_Multi_Fn(zz, q_num_edges, &q), "Zoltan_Set_Num_Edges_Multi_Fn");
    zoltan_check(comm, Zoltan_Set_Edge_List_Multi_Fn(zz, q_edge_list, &q), "Zoltan_Set_Edge_List_Multi_Fn");
    Zoltan_Srand(ZOLTAN_START_SEED, NULL);
    int changes, ngid, nlid, nimp, nexp, *imp_rank, *imp_part, *exp_rank, *exp_part;
    ZOLTAN_ID_PTR imp_gid, imp_lid, exp_gid, exp_lid;
    zoltan_check(comm,
                 Zoltan_LB_Partition(zz, &changes, &ngid, &nlid, &nimp, &imp_gid, &imp_lid, &imp_rank, &imp_part,
                                     &nexp, &exp_gid, &exp_lid, &exp_rank, &exp_part),
                 "Zoltan_LB_Partition");
    for (int32_t i = 0; i < g->nlocal; i++)
        part[i] = -1;
    for (int i = 0; i < nexp; i++)
        part[exp_lid[i]] = exp_part[i];
    for (int32_t i = 0; i < g->nlocal; i++)
        if (part[i] < 0 || part[i] >= nparts)
            hydro_fatal(comm, EXIT_RUNTIME, "Zoltan: vertex %lld has no part in [0, %d)",
                        (long long)(g->vtxdist[q.me] + i), nparts);
    Zoltan_LB_Free_Part(&imp_gid, &imp_lid, &imp_rank, &imp_part);
    Zoltan_LB_Free_Part(&exp_gid, &exp_lid, &exp_rank, &exp_part);
    Zoltan_Destroy(&zz);
}

const struct partitioner partitioner_zoltan = {"zoltan", "Zoltan", 1, 0, zoltan_partition};
