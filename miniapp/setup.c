/* Prolog: build the distributed mesh from the configuration (see setup.h). */
#include "setup.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ghost.h"

#include "comm.h"
#include "gmsh.h"
#include "loadbalance.h"
#include "partition.h"
#include "restart.h"
#include "timestep.h"

void setup_box(const struct config *cfg, struct box *b)
{
    memset(b, 0, sizeof *b);
    b->dim = (int)cfg->dim;
    b->n[0] = cfg->nx;
    b->n[1] = cfg->ny;
    b->n[2] = cfg->dim == 3 ? cfg->nz : 1;
    b->x0[0] = cfg->x0;
    b->x0[1] = cfg->y0;
    b->x0[2] = cfg->dim == 3 ? cfg->z0 : 0.0;
    b->len[0] = cfg->lx;
    b->len[1] = cfg->ly;
    b->len[2] = cfg->dim == 3 ? cfg->lz : 0.0;
    b->perturb = cfg->perturb;
    b->seed = (uint64_t)cfg->seed;
}

/* The backend of [parallel] partitioner when it partitions the dual graph. */
static const struct partitioner *graph_partitioner(const struct config *cfg)
{
    return partitioner_named(deck_enum_name("parallel", "partitioner", cfg->partitioner));
}

static void tstart(struct timers *tm, enum timer_id id)
{
    if (tm)
        timers_start(tm, id);
}

static void tstop(struct timers *tm, enum timer_id id)
{
    if (tm)
        timers_stop(tm, id);
}

static void tadd(struct timers *tm, enum timer_id id, double seconds)
{
    if (tm)
        timers_add(tm, id, seconds);
}

/* Collective: the mesh's nodes, from the largest node id any rank holds (ids are 0.. for
 * generated boxes and Gmsh meshes alike). */
static long long mesh_nodes(MPI_Comm comm, const struct cellset *cs)
{
    long long top = -1;
    for (int64_t i = 0; i < cs->nnodes; i++)
        top = cs->node_gid[i] > top ? cs->node_gid[i] : top;
    return comm_max_ll(comm, top) + 1;
}

/* The most cells and nodes a rank holds before the partition, against the mesh's cells and
 * nodes over the ranks (1: each rank its share; the number of ranks: rank 0 holds everything). */
static void print_share(MPI_Comm comm, const struct cellset *cs, struct listing *lst)
{
    const int P = comm_size(comm);
    long long cmax = comm_max_ll(comm, cs->ncells), nmax = comm_max_ll(comm, cs->nnodes);
    double cavg = (double)comm_sum_ll(comm, cs->ncells) / P, navg = (double)mesh_nodes(comm, cs) / P;
    listing_printf(lst, "Mesh", "Before the partition, the most a rank holds: %lld cells (%.2f x the average), "
                   "%lld nodes (%.2f x)", cmax, cavg > 0 ? (double)cmax / cavg : 0.0, nmax,
                   navg > 0 ? (double)nmax / navg : 0.0);
}

/* partition_cells, the cells weighed by the load balancer's cost model over the cycles from
 * (cycle, time) at steps of dt where it says so (lb_setup_weights), and then each weight's
 * balance printed. */
static int graph_partition(MPI_Comm comm, const struct config *cfg, const struct partitioner *pt,
                           const struct cellset *cells, long cycle, double time, double dt, struct cellset *own,
                           double *graph, struct listing *lst, char *err, size_t errlen)
{
    int ncon;
    int32_t *w = lb_setup_weights(comm, cfg, pt, cells, cycle, time, dt, &ncon, lst);
    double imb[2] = {1, 1}; /* lb_setup_weights gives 2 weights at most */
    int rc = partition_cells(comm, pt, cells, w, ncon, imb, own, graph, err, errlen);
    if (rc == 0 && w)
        listing_printf(lst, "Balance", "Set-up partition: the largest rank's weight against the mean %.3f (the cells' "
                       "own work), %.3f (the extra work)", imb[0], imb[1]);
    free(w);
    return rc;
}

struct mesh *setup_mesh(MPI_Comm comm, const struct config *cfg, struct timers *tm, struct listing *lst, char *err,
                        size_t errlen)
{
    int me = comm_rank(comm);
    struct box box;
    setup_box(cfg, &box);
    struct cellset own;
    cellset_init(&own, (int)cfg->dim);
    err[0] = '\0';
    int ok = 1;

    if (cfg->partitioner == PART_BLOCK) {
        tstart(tm, TIMER_MESH);
        int parts[3];
        ok = partition_block(comm, &box, &own, parts, err, errlen) == 0;
        tstop(tm, TIMER_MESH);
        if (ok)
            listing_printf(lst, "Mesh", "Block partition: %d x %d x %d blocks", parts[0], parts[1], parts[2]);
        if (me != 0)
            err[0] = '\0'; /* every rank found the same problem: rank 0 reports it */
    } else {
        struct cellset global; /* the whole mesh on rank 0, or each rank's share (distributed backends) */
        cellset_init(&global, (int)cfg->dim);
        tstart(tm, TIMER_MESH);
        const struct partitioner *pt = graph_partitioner(cfg);
        if (cfg->mesh_kind == MESH_CARTESIAN && pt->distributed) {
            const int64_t N = cartesian_ncells(&box), P = comm_size(comm);
            cartesian_generate_range(&box, N * me / P, N * (me + 1) / P, &global);
        } else if (cfg->mesh_kind == MESH_GMSH && pt->distributed) {
            ok = gmsh_read_share(comm, cfg->mesh_file, (int)cfg->dim, &global, err, errlen) == 0;
        } else if (me == 0) {
            if (cfg->mesh_kind == MESH_GMSH) {
                ok = gmsh_read(cfg->mesh_file, (int)cfg->dim, &global, err, errlen) == 0;
            } else {
                int64_t lo[3] = {0, 0, 0};
                cartesian_generate(&box, lo, box.n, &global);
            }
        }
        comm_bcast_int(comm, &ok, 0);
        tstop(tm, TIMER_MESH);
        if (ok) {
            print_share(comm, &global, lst);
            double graph;
            tstart(tm, TIMER_PARTITION);
            /* the hydro case's first step (sync_only's steps are 1, its cost model the same) */
            const double dt0 = timestep_first(cfg->dt_init, cfg->dt_max, cfg->final_time);
            ok = graph_partition(comm, cfg, pt, &global, 0, 0.0, dt0, &own, &graph, lst, err, errlen) == 0;
            tstop(tm, TIMER_PARTITION);
            tadd(tm, TIMER_GRAPH, graph);
        }
        cellset_free(&global);
    }
    if (!ok) {
        cellset_free(&own);
        return NULL;
    }
    tstart(tm, TIMER_GHOSTS);
    struct mesh *m = mesh_build(comm, &own, (int)cfg->ghost_layers, 1, err, errlen);
    tstop(tm, TIMER_GHOSTS);
    cellset_free(&own);
    return m;
}

int setup_check_mesh(MPI_Comm comm, const struct config *cfg, char *summary, size_t n, char *err, size_t errlen)
{
    const int me = comm_rank(comm), P = comm_size(comm);
    int ok = 1;
    long long cells = 0, nodes = 0;
    err[0] = '\0';
    struct box box;
    setup_box(cfg, &box);
    const struct partitioner *pt = cfg->partitioner == PART_BLOCK ? NULL : graph_partitioner(cfg);
    if (cfg->mesh_kind == MESH_GMSH && pt && pt->distributed) { /* read as the run reads it, then dropped */
        struct cellset cs;
        cellset_init(&cs, (int)cfg->dim);
        ok = gmsh_read_share(comm, cfg->mesh_file, (int)cfg->dim, &cs, err, errlen) == 0;
        cells = comm_sum_ll(comm, cs.ncells);
        nodes = mesh_nodes(comm, &cs);
        cellset_free(&cs);
    } else if (cfg->mesh_kind == MESH_GMSH && me == 0) {
        struct cellset cs;
        cellset_init(&cs, (int)cfg->dim);
        ok = gmsh_read(cfg->mesh_file, (int)cfg->dim, &cs, err, errlen) == 0;
        cells = cs.ncells;
        nodes = cs.nnodes;
        cellset_free(&cs);
    } else if (cfg->mesh_kind == MESH_CARTESIAN) {
        cells = cartesian_ncells(&box);
        nodes = (box.n[0] + 1) * (box.n[1] + 1) * (cfg->dim == 3 ? box.n[2] + 1 : 1);
    }
    comm_bcast_int(comm, &ok, 0);
    comm_bcast_bytes(comm, &cells, sizeof cells, 0);
    comm_bcast_bytes(comm, &nodes, sizeof nodes, 0);
    int parts[3];
    if (ok && cfg->partitioner == PART_BLOCK)
        ok = partition_block_split(&box, P, parts, err, errlen) == 0;
    else if (ok)
        ok = partition_too_few(cells, P, err, errlen) == 0;
    if (!ok) {
        if (me != 0)
            err[0] = '\0';
        return -1;
    }
    snprintf(summary, n, "%s: %ldD %s, %lld cells, %lld nodes", cfg->mesh_kind == MESH_GMSH ? cfg->mesh_file :
             "cartesian box", cfg->dim, cfg->dim == 2 ? "quads" : "hexes", cells, nodes);
    return 0;
}

struct mesh *setup_mesh_restart(MPI_Comm comm, const struct config *cfg, const struct restart_file *rf,
                                struct timers *tm, struct listing *lst, char *err, size_t errlen)
{
    err[0] = '\0';
    /* the deck stored in the dump must describe the mesh stored in it */
    int64_t box_cells = cfg->nx * cfg->ny * (cfg->dim == 3 ? cfg->nz : 1);
    if (cfg->dim != rf->dim || (cfg->mesh_kind == MESH_CARTESIAN && box_cells != rf->ncells)) {
        if (comm_rank(comm) == 0)
            snprintf(err, errlen, "%s: its deck (%ldD%s) does not describe its mesh (%dD, %lld cells)", rf->path,
                     cfg->dim, cfg->mesh_kind == MESH_CARTESIAN ? ", mesh.nx * ny * nz cells" : "", rf->dim,
                     (long long)rf->ncells);
        return NULL;
    }
    struct cellset block, own;
    cellset_init(&block, rf->dim);
    cellset_init(&own, rf->dim);
    tstart(tm, TIMER_RESTART);
    int rc = restart_read_cells(comm, rf, &block, err, errlen);
    tstop(tm, TIMER_RESTART);
    tstart(tm, TIMER_PARTITION);
    if (rc) {
        /* reported below */
    } else if (cfg->partitioner == PART_BLOCK) {
        struct box box;
        int parts[3];
        setup_box(cfg, &box);
        rc = partition_block_redistribute(comm, &box, &block, &own, parts, err, errlen);
        if (rc == 0)
            listing_printf(lst, "Mesh", "Block partition: %d x %d x %d blocks", parts[0], parts[1], parts[2]);
        if (comm_rank(comm) != 0)
            err[0] = '\0';
    } else {
        double graph;
        rc = graph_partition(comm, cfg, graph_partitioner(cfg), &block, rf->cycle, rf->time, rf->dt, &own, &graph,
                             lst, err, errlen);
        tadd(tm, TIMER_GRAPH, graph);
    }
    tstop(tm, TIMER_PARTITION);
    cellset_free(&block);
    struct mesh *m = NULL;
    if (rc == 0) {
        tstart(tm, TIMER_GHOSTS);
        m = mesh_build(comm, &own, (int)cfg->ghost_layers, 0, err, errlen);
        tstop(tm, TIMER_GHOSTS);
        if (!m && err[0]) { /* name the dump the bad mesh came from */
            size_t n = strlen(rf->path) + strlen(err) + 3;
            char *msg = xmalloc(n);
            snprintf(msg, n, "%s: %s", rf->path, err);
            snprintf(err, errlen, "%s", msg);
            free(msg);
        }
    }
    cellset_free(&own);
    return m;
}
