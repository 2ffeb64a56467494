/* Memory estimate of a run (see memest.h). The figures are hydro's own, measured on the
 * development VM with the listing's peak RSS (BENCHMARKS.md, "Memory estimate"): a fixed part
 * per process, bytes per owned and per ghost cell by dimension and case, and rank 0's set-up
 * when it reads or generates the whole mesh. */
#include "memest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cartesian.h"
#include "check.h"
#include "comm.h"
#include "gmsh.h"
#include "restart.h"
#include "run.h"
#include "setup.h"

enum { D2, D3 };
static const struct {
    double fixed, fixed_per_rank, fixed_max; /* the MPI process and libraries (bytes) */
    double mesh;     /* building the local mesh, per local cell: the floor of a rank's peak */
    double hydro;    /* the hydro case's fields, arena and mesh, per owned cell */
    double sync;     /* sync_only's mesh and buffers, per owned cell, its variables apart */
    double ghost;    /* per ghost cell (its nodes, faces, plans and buffers included) */
    double global;   /* rank 0 holding the whole mesh at set-up, per cell of the mesh */
} model[2] = {
    [D2] = {12e6, 0.5e6, 20e6, 385, 523, 240, 810, 312},
    [D3] = {12e6, 0.5e6, 20e6, 503, 607, 280, 940, 390},
};

/* The largest block of a box split as the block partitioner splits it (METIS parts are about
 * as compact), and its ghosts: L layers on each side that has a neighbour. */
static void box_block(const struct config *cfg, int nranks, int64_t *owned, int64_t *ghosts)
{
    struct box b;
    setup_box(cfg, &b);
    int parts[3] = {1, 1, 1};
    if (cartesian_split(&b, nranks, parts))
        parts[0] = nranks, parts[1] = parts[2] = 1; /* refused later: any estimate will do */
    double own = 1, all = 1;
    for (int d = 0; d < b.dim; d++) {
        int64_t blk = (b.n[d] + parts[d] - 1) / parts[d];
        int64_t ext = blk + cfg->ghost_layers * (parts[d] >= 3 ? 2 : parts[d] - 1);
        own *= (double)blk;
        all *= (double)(ext < b.n[d] ? ext : b.n[d]);
    }
    *owned = (int64_t)own;
    *ghosts = (int64_t)(all - own);
}

/* The same for an unstructured mesh: a cube of its share, with L layers around. */
static void cube_block(int64_t cells, int dim, int nranks, int layers, int64_t *owned, int64_t *ghosts)
{
    double own = ceil((double)cells / nranks), side = pow(own, 1.0 / dim);
    double all = pow(side + 2.0 * layers, dim);
    *owned = (int64_t)own;
    *ghosts = nranks > 1 ? (int64_t)fmin(all - own, (double)cells - own) : 0;
}

/* Deck variables each local cell carries (bytes): sync_only's, the padding, and what a
 * migration holds at once (send and receive buffers, the new arrays beside the old). */
static double carried_bytes(const struct config *cfg)
{
    double vars = 0;
    if (cfg->case_name == CASE_SYNC_ONLY)
        vars = 8.0 * (double)cfg->components * (double)(cfg->cell_vars + cfg->node_vars);
    double pad = 8.0 * (double)(cfg->extra_cell_vars + cfg->extra_cell_array);
    if (cfg->lb_period > 0) {
        double moved = cfg->lb_mode == LB_SHUFFLE ? cfg->shuffle_fraction : 1.0;
        pad *= 2.0 + 2.0 * moved;
    }
    return vars + pad;
}

int mem_estimate(const struct config *cfg, int nranks, int node_ranks, int64_t known_cells, struct mem_estimate *e)
{
    memset(e, 0, sizeof *e);
    e->dim = (int)cfg->dim;
    int64_t nodes = 0;
    if (cfg->mesh_kind == MESH_GMSH) {
        e->cells = known_cells;
        if (known_cells <= 0 && gmsh_scan(cfg->mesh_file, &e->dim, &e->cells, &nodes))
            return -1;
        cube_block(e->cells, e->dim, nranks, (int)cfg->ghost_layers, &e->owned, &e->ghosts);
    } else {
        struct box b;
        setup_box(cfg, &b);
        e->cells = cartesian_ncells(&b);
        box_block(cfg, nranks, &e->owned, &e->ghosts);
    }
    const int d = e->dim == 2 ? D2 : D3;
    double fixed = fmin(model[d].fixed + model[d].fixed_per_rank * (node_ranks - 1), model[d].fixed_max);
    double per_cell = cfg->case_name == CASE_SYNC_ONLY ? model[d].sync : model[d].hydro;
    per_cell = fmax(per_cell + carried_bytes(cfg), model[d].mesh);
    e->loop_bytes = fixed + per_cell * (double)e->owned + (model[d].ghost + carried_bytes(cfg)) * (double)e->ghosts;
    int whole_on_root = cfg->mesh_kind == MESH_GMSH || cfg->partitioner == PART_METIS;
    if (whole_on_root && nranks > 1)
        e->setup_bytes = fixed + model[d].global * (double)e->cells;
    return 0;
}

double mem_available(const struct config *cfg, int node_ranks)
{
    if (cfg->memory_limit > 0)
        return cfg->memory_limit * 1e6;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    double kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024.0 / (node_ranks > 0 ? node_ranks : 1);
}

static const char *human(double bytes, char *out, size_t n)
{
    if (bytes >= 1e9)
        snprintf(out, n, "%.1f GB", bytes / 1e9);
    else
        snprintf(out, n, "%.0f MB", bytes / 1e6);
    return out;
}

/* This rank's need: rank 0 may hold the whole mesh at set-up. */
static double need_of(const struct mem_estimate *e, int rank)
{
    return rank == 0 && e->setup_bytes > e->loop_bytes ? e->setup_bytes : e->loop_bytes;
}

/* The one line a run too large gets: what it needs, what there is, what to change. */
static void refusal(const struct run *run, const struct mem_estimate *e, double need, double avail, int node_ranks,
                    char *msg, size_t n)
{
    char a[32], b[32], there[96];
    int more = (int)ceil(run->size * need / avail);
    if (run->cfg.memory_limit > 0)
        snprintf(there, sizeof there, "run.memory_limit is %s per rank", human(avail, b, sizeof b));
    else
        snprintf(there, sizeof there, "the node's available memory gives %s to each of its %d rank%s",
                 human(avail, b, sizeof b), node_ranks, node_ranks > 1 ? "s" : "");
    snprintf(msg, n, "%s: this run needs about %s on rank %d (%lld cells: %lld owned and %lld ghost cells per rank "
             "at most%s), but %s: use about %d ranks or more (on more nodes), a smaller mesh, %sor set "
             "run.memory_limit (MB per rank) if the estimate is wrong here",
             run->deck_path, human(need, a, sizeof a), run->rank, (long long)e->cells, (long long)e->owned,
             (long long)e->ghosts, run->rank == 0 && e->setup_bytes > e->loop_bytes ? "; rank 0 holds the whole mesh "
             "at set-up" : "", there, more < run->size + 1 ? run->size + 1 : more,
             run->rank == 0 && e->setup_bytes > e->loop_bytes ? "parallel.partitioner = block, " : "");
}

void mem_check(struct run *run)
{
    struct mem_estimate e;
    int node_ranks = comm_node_ranks(run->comm);
    if (mem_estimate(&run->cfg, run->size, node_ranks, run->restart ? run->restart->ncells : 0, &e))
        return; /* an unreadable Gmsh file: the reader reports it */
    double avail = mem_available(&run->cfg, node_ranks), need = need_of(&e, run->rank);
    int short_here = avail > 0 && need > avail;
    int first = -comm_max_int(run->comm, short_here ? -run->rank : -run->size);
    char a[32], b[32], c[32];
    listing_printf(run->lst, "Memory", "Estimate: about %s per rank at most (%lld owned, %lld ghost cells)%s%s; "
                   "available %s per rank", human(e.loop_bytes, a, sizeof a), (long long)e.owned, (long long)e.ghosts,
                   e.setup_bytes > 0 ? ", rank 0 at set-up " : "", e.setup_bytes > 0 ? human(e.setup_bytes, b, sizeof b)
                   : "", avail > 0 ? human(avail, c, sizeof c) : "unknown");
    if (first >= run->size)
        return;
    char msg[1024] = "";
    if (run->rank == first)
        refusal(run, &e, need, avail, node_ranks, msg, sizeof msg);
    char *text = comm_bcast_text(run->comm, msg, first);
    run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? text : NULL);
}

void mem_print_check(struct run *run)
{
    struct mem_estimate e;
    int node_ranks = comm_node_ranks(run->comm);
    if (mem_estimate(&run->cfg, run->size, node_ranks, 0, &e))
        return;
    double avail = mem_available(&run->cfg, node_ranks);
    if (run->rank != 0)
        return;
    char a[32], b[32], c[32];
    printf("; memory estimate on %d rank%s: about %s per rank at most (%lld owned, %lld ghost cells)%s%s; available "
           "%s per rank%s\n", run->size, run->size > 1 ? "s" : "", human(e.loop_bytes, a, sizeof a), (long long)e.owned,
           (long long)e.ghosts, e.setup_bytes > 0 ? ", rank 0 at set-up " : "",
           e.setup_bytes > 0 ? human(e.setup_bytes, b, sizeof b) : "", avail > 0 ? human(avail, c, sizeof c) : "unknown",
           avail > 0 && fmax(e.loop_bytes, e.setup_bytes) > avail ? ": TOO LARGE, the run will be refused" : "");
}
