/* The Zoltan backend: the distributed graph given to Zoltan's parallel hypergraph/graph
 * partitioner (PHG, the graph package Debian's Zoltan has besides Scotch) through its query
 * callbacks, where it lies (no rank gathers it). A rebalance asks for REPARTITION, in which PHG
 * weighs the cells it would move against the faces it would cut; the set-up asks for PARTITION.
 * A rebalance with several weights per cell is cut by Zoltan's RCB instead, one phase per weight
 * (below: PHG balances one weight only). */
#include <math.h>
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
    int repart;
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

/* Parameters by name and value, as strings (Zoltan's interface). */
static void zoltan_params(MPI_Comm comm, struct Zoltan_Struct *zz, const char *const params[][2], size_t n)
{
    for (size_t i = 0; i < n; i++)
        zoltan_check(comm, Zoltan_Set_Param(zz, params[i][0], params[i][1]), params[i][0]);
}

/* The PHG graph partition's parameters, as strings (Zoltan's interface). */
static void phg_params(MPI_Comm comm, struct Zoltan_Struct *zz, int repart, int weighted)
{
    const char *const params[][2] = {
        {"LB_METHOD", "GRAPH"},
        {"GRAPH_PACKAGE", "PHG"},
        {"LB_APPROACH", repart ? "REPARTITION" : "PARTITION"},
        {"OBJ_WEIGHT_DIM", weighted ? "1" : "0"},
        {"EDGE_WEIGHT_DIM", "0"},
        {"IMBALANCE_TOL", "1.05"},
        {"CHECK_GRAPH", "0"}, /* the graph is checked by test/dgraph.t */
    };
    zoltan_params(comm, zz, params, sizeof params / sizeof *params);
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

/* What one Zoltan call needs besides its query functions: the method's parameters and callbacks
 * (set), each part's fraction of the weight (NULL: equal), and how many local objects it lists,
 * whose local ids are their indices in part. */
struct zcall {
    int nparts;
    const double *share;
    int32_t nobj;
    void (*set)(MPI_Comm comm, struct Zoltan_Struct *zz, void *data);
    void *data;
};

/* One Zoltan partition, each listed object's part into part[local id]. */
static void zoltan_run(MPI_Comm comm, const struct zcall *z, int *part)
{
    float version;
    zoltan_check(comm, Zoltan_Initialize(0, NULL, &version), "Zoltan_Initialize");
    struct Zoltan_Struct *zz = Zoltan_Create(comm);
    if (!zz)
        hydro_fatal(comm, EXIT_RUNTIME, "Zoltan: Zoltan_Create failed");
    char np[16];
    snprintf(np, sizeof np, "%d", z->nparts);
    const char *const common[][2] = {
        {"DEBUG_LEVEL", "0"},      {"NUM_GID_ENTRIES", "1"}, {"NUM_LID_ENTRIES", "1"},
        {"NUM_GLOBAL_PARTS", np}, {"RETURN_LISTS", "PARTS"}, /* every local object with its new part */
    };
    zoltan_params(comm, zz, common, sizeof common / sizeof *common);
    z->set(comm, zz, z->data);
    if (z->share)
        zoltan_part_sizes(comm, zz, z->nparts, z->share);
    Zoltan_Srand(ZOLTAN_START_SEED, NULL);
    int changes, ngid, nlid, nimp, nexp, *imp_rank, *imp_part, *exp_rank, *exp_part;
    ZOLTAN_ID_PTR imp_gid, imp_lid, exp_gid, exp_lid;
    zoltan_check(comm,
                 Zoltan_LB_Partition(zz, &changes, &ngid, &nlid, &nimp, &imp_gid, &imp_lid, &imp_rank, &imp_part,
                                     &nexp, &exp_gid, &exp_lid, &exp_rank, &exp_part),
                 "Zoltan_LB_Partition");
    for (int32_t i = 0; i < z->nobj; i++)
        part[i] = -1;
    for (int i = 0; i < nexp; i++)
        part[exp_lid[i]] = exp_part[i];
    for (int32_t i = 0; i < z->nobj; i++)
        if (part[i] < 0 || part[i] >= z->nparts)
            hydro_fatal(comm, EXIT_RUNTIME, "Zoltan: local object %d of rank %d has no part in [0, %d)", (int)i,
                        comm_rank(comm), z->nparts);
    Zoltan_LB_Free_Part(&imp_gid, &imp_lid, &imp_rank, &imp_part);
    Zoltan_LB_Free_Part(&exp_gid, &exp_lid, &exp_rank, &exp_part);
    Zoltan_Destroy(&zz);
}

/* PHG's set-up: its parameters and the graph's query functions. */
static void phg_set(MPI_Comm comm, struct Zoltan_Struct *zz, void *data)
{
    const struct zquery *q = data;
    phg_params(comm, zz, q->repart, comm_max_int(comm, q->g->vwgt != NULL));
    zoltan_check(comm, Zoltan_Set_Num_Obj_Fn(zz, q_num_obj, data), "Zoltan_Set_Num_Obj_Fn");
    zoltan_check(comm, Zoltan_Set_Obj_List_Fn(zz, q_obj_list, data), "Zoltan_Set_Obj_List_Fn");
    zoltan_check(comm, Zoltan_Set_Num_Edges_Multi_Fn(zz, q_num_edges, data), "Zoltan_Set_Num_Edges_Multi_Fn");
    zoltan_check(comm, Zoltan_Set_Edge_List_Multi_Fn(zz, q_edge_list, data), "Zoltan_Set_Edge_List_Multi_Fn");
}

/* ---- several weights: RCB in phases ----
 * Zoltan balances one weight: PHG reads only the first it is given, and RCB's multi-criteria
 * bisection has one cutting plane for all of them, which cannot balance a slab of costly cells
 * and the rest at once on 2 parts. So with several weights and the cells' centres (a rebalance's
 * graph) the parts are made in phases, as multiphase partitioning does with a one-weight
 * partitioner: each vertex belongs to the constraint where it weighs most against that
 * constraint's total (ties: the lower); the vertices of constraints 1, 2, ... are cut first by
 * RCB, each phase by its own weight into the room each part has left in that constraint, and
 * constraint 0's last, filling each part's room in constraint 0. A part's room counts the weight
 * the later phases will bring it as its share of theirs. RCB: cuts in space, fast (no graph),
 * and the same for the same positions and weights on the same ranks (no random choice). */

/* The vertices of one phase, for RCB's query functions: local vertex sub[i] is object i. */
struct zphase {
    const struct dgraph *g;
    int me;
    const int32_t *sub;
    int32_t n;
    int k; /* the weight it balances */
};

static int p_num_obj(void *data, int *ierr)
{
    *ierr = ZOLTAN_OK;
    return ((const struct zphase *)data)->n;
}

static void p_obj_list(void *data, int ngid, int nlid, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int wdim,
                       float *wgt, int *ierr)
{
    (void)ngid, (void)nlid;
    const struct zphase *q = data;
    for (int32_t i = 0; i < q->n; i++) {
        gids[i] = (ZOLTAN_ID_TYPE)(q->g->vtxdist[q->me] + q->sub[i]);
        lids[i] = (ZOLTAN_ID_TYPE)i;
        if (wdim)
            wgt[i] = (float)q->g->vwgt[(size_t)q->sub[i] * q->g->ncon + q->k];
    }
    *ierr = ZOLTAN_OK;
}

static int p_num_geom(void *data, int *ierr)
{
    (void)data;
    *ierr = ZOLTAN_OK;
    return 3;
}

static void p_geom(void *data, int ngid, int nlid, int nobj, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int ndim,
                   double *xyz, int *ierr)
{
    (void)ngid, (void)nlid, (void)gids, (void)ndim;
    const struct zphase *q = data;
    for (int i = 0; i < nobj; i++)
        memcpy(xyz + 3 * (size_t)i, q->g->xyz + 3 * (size_t)q->sub[lids[i]], 3 * sizeof *xyz);
    *ierr = ZOLTAN_OK;
}

static void rcb_set(MPI_Comm comm, struct Zoltan_Struct *zz, void *data)
{
    /* REMAP 0: the parts keep their numbers, for which their rooms were computed */
    const char *const params[][2] = {
        {"LB_METHOD", "RCB"}, {"OBJ_WEIGHT_DIM", "1"}, {"IMBALANCE_TOL", "1.01"}, {"KEEP_CUTS", "0"}, {"REMAP", "0"},
    };
    zoltan_params(comm, zz, params, sizeof params / sizeof *params);
    zoltan_check(comm, Zoltan_Set_Num_Obj_Fn(zz, p_num_obj, data), "Zoltan_Set_Num_Obj_Fn");
    zoltan_check(comm, Zoltan_Set_Obj_List_Fn(zz, p_obj_list, data), "Zoltan_Set_Obj_List_Fn");
    zoltan_check(comm, Zoltan_Set_Num_Geom_Fn(zz, p_num_geom, data), "Zoltan_Set_Num_Geom_Fn");
    zoltan_check(comm, Zoltan_Set_Geom_Multi_Fn(zz, p_geom, data), "Zoltan_Set_Geom_Multi_Fn");
}

/* Vertex i's phase: the constraint k where w[k] / total[k] is largest (exact ties: the lower k;
 * a constraint without weight is none's). */
static int phase_of(const struct dgraph *g, int32_t i, const double *total)
{
    const int32_t *w = g->vwgt + (size_t)i * g->ncon;
    int best = 0;
    while (best + 1 < g->ncon && total[best] == 0)
        best++;
    for (int k = best + 1; k < g->ncon; k++) /* long double: the products of weights and totals exact */
        if (total[k] > 0 && (long double)w[k] * total[best] > (long double)w[best] * total[k])
            best = k;
    return best;
}

/* The parts' room in constraint k for a phase (fractions summing to 1, into room): each part's
 * share of the total less what the later phases bring (later) less what it holds (load). */
static void phase_room(int nparts, const double *share, double total, double later, const double *load, int k,
                       int ncon, double *room)
{
    double sum = 0;
    for (int p = 0; p < nparts; p++) {
        const double s = share ? share[p] : 1.0 / nparts;
        room[p] = fmax(0.0, s * (total - later) - load[(size_t)p * ncon + k]);
        sum += room[p];
    }
    for (int p = 0; p < nparts; p++)
        room[p] = sum > 0 ? room[p] / sum : (share ? share[p] : 1.0 / nparts);
}

static void zoltan_phases(MPI_Comm comm, const struct dgraph *g, int nparts, const double *share, int *part)
{
    const int ncon = g->ncon, me = comm_rank(comm);
    const int32_t n = g->nlocal;
    /* totals[k], then per phase j its weight in each constraint k: sums[ncon + j * ncon + k], then
     * its vertices: sums[ncon + ncon * ncon + j] */
    double *sums = xcalloc((size_t)(ncon + 2) * ncon, sizeof *sums), *total = sums;
    for (int32_t i = 0; i < n; i++)
        for (int k = 0; k < ncon; k++)
            total[k] += g->vwgt[(size_t)i * ncon + k];
    comm_sum_doubles(comm, total, ncon);
    int *phase = xmalloc((size_t)(n ? n : 1) * sizeof *phase);
    for (int32_t i = 0; i < n; i++) {
        phase[i] = phase_of(g, i, total);
        for (int k = 0; k < ncon; k++)
            sums[ncon + (size_t)phase[i] * ncon + k] += g->vwgt[(size_t)i * ncon + k];
        sums[ncon + (size_t)ncon * ncon + phase[i]]++;
    }
    comm_sum_doubles(comm, sums + ncon, ncon * ncon + ncon);
    double *load = xcalloc((size_t)nparts * ncon, sizeof *load), *room = xmalloc((size_t)nparts * sizeof *room);
    int32_t *sub = xmalloc((size_t)(n ? n : 1) * sizeof *sub);
    int *got = xmalloc((size_t)(n ? n : 1) * sizeof *got);
    for (int step = 0; step < ncon; step++) {
        const int k = (step + 1) % ncon; /* 1, 2, ..., then 0 */
        double later = 0;
        for (int s = step + 1; s < ncon; s++)
            later += sums[ncon + (size_t)((s + 1) % ncon) * ncon + k];
        if (sums[ncon + (size_t)ncon * ncon + k] == 0) /* no vertex in this phase */
            continue;
        phase_room(nparts, share, total[k], later, load, k, ncon, room);
        struct zphase q = {g, me, sub, 0, k};
        for (int32_t i = 0; i < n; i++)
            if (phase[i] == k)
                sub[q.n++] = i;
        struct zcall z = {nparts, room, q.n, rcb_set, &q};
        zoltan_run(comm, &z, got);
        double *add = xcalloc((size_t)nparts * ncon, sizeof *add); /* what this phase brought each part */
        for (int32_t i = 0; i < q.n; i++) {
            part[sub[i]] = got[i];
            for (int kk = 0; kk < ncon; kk++)
                add[(size_t)got[i] * ncon + kk] += g->vwgt[(size_t)sub[i] * ncon + kk];
        }
        comm_sum_doubles(comm, add, nparts * ncon);
        for (size_t j = 0; j < (size_t)nparts * ncon; j++)
            load[j] += add[j];
        free(add);
    }
    free(got);
    free(sub);
    free(room);
    free(load);
    free(phase);
    free(sums);
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
    /* several weights and every rank's positions (a rebalance's graph) */
    if (g->ncon > 1 && comm_min_ll(comm, (g->vwgt && g->xyz) || g->nlocal == 0)) {
        zoltan_phases(comm, g, nparts, share, part);
        return;
    }
    struct zquery q = {g, me, repart};
    struct zcall z = {nparts, share, g->nlocal, phg_set, &q};
    zoltan_run(comm, &z, part);
}

const struct partitioner partitioner_zoltan = {"zoltan", "Zoltan", 1, 8, zoltan_partition,
                                               "by Zoltan's RCB, one phase per weight"};
