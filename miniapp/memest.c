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
#include "partitioner.h"
#include "restart.h"
#include "run.h"
#include "setup.h"

enum { D2, D3 };
static const struct {
    double fixed, fixed_per_rank, fixed_max; /* the MPI process and libraries (bytes) */
    double mesh;     /* building the local mesh, per local cell: the floor of a rank's peak */
    double hydro;    /* the hydro case's fields, arena and mesh, per owned cell (the overlap's item
                      * lists, with minimal on several ranks, add about 12 bytes) */
    double sync;     /* sync_only's mesh and buffers, per owned cell, its variables apart */
    double ghost;    /* per ghost cell (its nodes, faces, plans and buffers included) */
    double global;   /* rank 0 holding the whole mesh at set-up, per cell of the mesh */
} model[2] = {
    [D2] = {12e6, 0.5e6, 20e6, 385, 523, 240, 810, 312},
    [D3] = {12e6, 0.5e6, 20e6, 503, 540, 280, 940, 390},
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

/* Deck variables each local cell carries (bytes): sync_only's, the materials' when there are
 * several, the padding, and what a migration holds at once (send and receive buffers, the new
 * arrays beside the old). */
static double carried_bytes(const struct config *cfg)
{
    double vars = 0;
    if (cfg->case_name == CASE_SYNC_ONLY)
        vars = 8.0 * (double)cfg->components * (double)(cfg->cell_vars + cfg->node_vars);
    if (cfg->nmat > 1) /* 5 bytes of composition, the remap's 3 values per material and its slot index
                        * (4 bytes), and for one cell in ten (those along material boundaries) a mixed
                        * cell's slot (6 doubles per material) and the remap's material slopes (9) */
        vars = 9.0 + 8.0 * 3.0 * (double)cfg->nmat + 0.1 * 8.0 * 15.0 * (double)cfg->nmat;
    double pad = 8.0 * (double)(cfg->extra_cell_vars + cfg->extra_cell_array);
    if (cfg->lb_period > 0) {
        double moved = cfg->lb_mode == LB_SHUFFLE ? cfg->shuffle_fraction : 1.0;
        pad *= 2.0 + 2.0 * moved;
    }
    return vars + pad;
}

int mem_estimate(const struct config *cfg, int nranks, int node_ranks, int dim, int64_t cells, struct mem_estimate *e)
{
    memset(e, 0, sizeof *e);
    e->dim = dim;
    e->cells = cells;
    if (cfg->mesh_kind == MESH_GMSH) {
        cube_block(e->cells, e->dim, nranks, (int)cfg->ghost_layers, &e->owned, &e->ghosts);
    } else {
        struct box b;
        setup_box(cfg, &b);
        e->dim = b.dim;
        e->cells = cartesian_ncells(&b);
        box_block(cfg, nranks, &e->owned, &e->ghosts);
    }
    const int d = e->dim == 2 ? D2 : D3;
    double fixed = fmin(model[d].fixed + model[d].fixed_per_rank * (node_ranks - 1), model[d].fixed_max);
    double per_cell = cfg->case_name == CASE_SYNC_ONLY ? model[d].sync : model[d].hydro;
    per_cell = fmax(per_cell + carried_bytes(cfg), model[d].mesh);
    e->fixed_bytes = fixed;
    e->loop_bytes = fixed + per_cell * (double)e->owned + (model[d].ghost + carried_bytes(cfg)) * (double)e->ghosts;
    /* a distributed partitioner has every rank generate or read its share */
    const struct partitioner *pt = cfg->partitioner == PART_BLOCK ? NULL :
        partitioner_named(deck_enum_name("parallel", "partitioner", cfg->partitioner));
    int whole_on_root = !(pt && pt->distributed) && (cfg->mesh_kind == MESH_GMSH || cfg->partitioner == PART_METIS);
    if (whole_on_root && nranks > 1)
        e->setup_bytes = fixed + model[d].global * (double)e->cells;
    return 0;
}

/* A number from a one-line file, or -1 (absent, unreadable, or "max"). */
static double read_number(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "/sys/fs/cgroup%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    double v = -1;
    if (f) {
        if (fscanf(f, "%lf", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* What the process's memory cgroup still allows (a batch job's or a container's limit): cgroup
 * v2's memory.max, or v1's memory.limit_in_bytes, less what the group uses; 0 when no limit. */
static double cgroup_room(void)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return 0;
    char line[512], dir[520], path[400];
    double room = 0;
    while (room == 0 && fgets(line, sizeof line, f)) {
        const char *limit = "memory.max", *used = "memory.current";
        if (sscanf(line, "0::%399[^\n]", path) == 1) {
            snprintf(dir, sizeof dir, "%s", path);
        } else if (sscanf(line, "%*d:memory:%399[^\n]", path) == 1) {
            snprintf(dir, sizeof dir, "/memory%s", path);
            limit = "memory.limit_in_bytes", used = "memory.usage_in_bytes";
        } else {
            continue;
        }
        if (strcmp(dir, "/") == 0)
            dir[0] = '\0';
        double max = read_number(dir, limit), cur = read_number(dir, used);
        if (max > 0 && max < 0x1p62 && cur >= 0) /* v1 says "no limit" with about 2^63 */
            room = max > cur ? max - cur : 1;
    }
    fclose(f);
    return room;
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
    double bytes = kb * 1024.0, room = cgroup_room();
    if (room > 0 && (room < bytes || bytes == 0))
        bytes = room;
    return bytes / (node_ranks > 0 ? node_ranks : 1);
}

static const char *human(double bytes, char *out, size_t n)
{
    if (bytes >= 1e12)
        snprintf(out, n, "%.1f TB", bytes / 1e12);
    else if (bytes >= 1e9)
        snprintf(out, n, "%.1f GB", bytes / 1e9);
    else
        snprintf(out, n, bytes < 100e6 ? "%.1f MB" : "%.0f MB", bytes / 1e6);
    return out;
}

/* This rank's need: rank 0 may hold the whole mesh at set-up. */
static double need_of(const struct mem_estimate *e, int rank)
{
    return rank == 0 && e->setup_bytes > e->loop_bytes ? e->setup_bytes : e->loop_bytes;
}

/* The fewest ranks (more than nranks, as many per node) whose time loop fits in avail per rank,
 * or 0 when no count does (the fixed part alone is too large, or it would take more ranks than
 * cells): doubling, then bisection on the estimate. */
static int64_t ranks_that_fit(const struct config *cfg, const struct mem_estimate *e, int nranks, int node_ranks,
                              double avail)
{
    struct mem_estimate t;
    int64_t lo = nranks, hi = nranks;
    do {
        lo = hi;
        hi = 2 * hi;
        if (hi > e->cells || hi > (1 << 30))
            return 0;
        mem_estimate(cfg, (int)hi, node_ranks, e->dim, e->cells, &t);
    } while (t.loop_bytes > avail);
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        mem_estimate(cfg, (int)mid, node_ranks, e->dim, e->cells, &t);
        *(t.loop_bytes > avail ? &lo : &hi) = mid;
    }
    return hi;
}

/* The one line a run too large gets: what it needs, what there is, what to change. */
static void refusal(const struct run *run, const struct mem_estimate *e, double need, double avail, int node_ranks,
                    char *msg, size_t n)
{
    char a[32], b[32], there[96], ranks[96] = "";
    int root_setup = run->rank == 0 && e->setup_bytes > e->loop_bytes;
    if (run->cfg.memory_limit > 0)
        snprintf(there, sizeof there, "run.memory_limit is %g MB per rank", run->cfg.memory_limit);
    else
        snprintf(there, sizeof there, "the node's available memory gives %s to each of its %d rank%s",
                 human(avail, b, sizeof b), node_ranks, node_ranks > 1 ? "s" : "");
    int64_t fit = e->loop_bytes > avail ? ranks_that_fit(&run->cfg, e, run->size, node_ranks, avail) : 0;
    /* rank 0 generates and partitions a cartesian mesh whole only for METIS: block helps when the
     * time loop fits, now or on more ranks */
    int block = root_setup && run->cfg.mesh_kind != MESH_GMSH && e->setup_bytes > avail &&
                (e->loop_bytes <= avail || fit > 0);
    if (fit > 0)
        snprintf(ranks, sizeof ranks, "about %lld ranks or more (on more nodes)%s, ", (long long)fit,
                 block ? " with parallel.partitioner = block" : "");
    else if (block)
        snprintf(ranks, sizeof ranks, "parallel.partitioner = block, ");
    char alone[96] = "", advice[256];
    if (e->fixed_bytes >= avail)
        snprintf(alone, sizeof alone, " (the process alone takes about %s)", human(e->fixed_bytes, b, sizeof b));
    snprintf(advice, sizeof advice, "%s%s", ranks, e->fixed_bytes < avail ? "a smaller mesh, " : "");
    snprintf(msg, n, "%s: this run needs about %s on rank %d (%lld cells: %lld owned and %lld ghost cells per rank "
             "at most%s), but %s%s: %s%s%s run.memory_limit (MB per rank) if the estimate is wrong here",
             run->deck_path, human(need, a, sizeof a), run->rank, (long long)e->cells, (long long)e->owned,
             (long long)e->ghosts, root_setup ? "; rank 0 holds the whole mesh at set-up" : "", there, alone,
             advice[0] ? "use " : "", advice, advice[0] ? "or set" : run->cfg.memory_limit > 0 ? "raise" : "set");
}

/* The mesh's dimension and cells, the same on every rank: from a restart's dump, or from a Gmsh
 * file's headers read by rank 0 alone. Returns 0, or -1 on every rank when they cannot be read. */
static int mesh_size(struct run *run, int *dim, int64_t *cells)
{
    int64_t v[3] = {0, run->cfg.dim, run->restart ? run->restart->ncells : 0}, nodes;
    if (run->cfg.mesh_kind == MESH_GMSH && v[2] <= 0 && run->rank == 0) {
        int d = 0;
        v[0] = gmsh_scan(run->cfg.mesh_file, &d, &v[2], &nodes);
        v[1] = d;
    }
    comm_bcast_bytes(run->comm, v, sizeof v, 0);
    *dim = (int)v[1];
    *cells = v[2];
    return (int)v[0];
}

/* The estimate for this run's ranks and what a rank may have, the same on every rank (collective).
 * Returns -1 on every rank when a Gmsh file's headers cannot be read (the reader says why). */
static int estimate_run(struct run *run, struct mem_estimate *e, int *node_ranks, double *avail)
{
    int dim;
    int64_t cells;
    *node_ranks = comm_node_ranks(run->comm);
    if (mesh_size(run, &dim, &cells))
        return -1;
    mem_estimate(&run->cfg, run->size, *node_ranks, dim, cells, e);
    *avail = mem_available(&run->cfg, *node_ranks);
    return 0;
}

/* "about N per rank at most (...), rank 0 at set-up M; available A per rank", for the listing
 * and --check. */
static void summary(const struct mem_estimate *e, double avail, char *out, size_t n)
{
    char a[32], b[32], c[32];
    snprintf(out, n, "about %s per rank at most (%lld owned, %lld ghost cells)%s%s; available %s per rank",
             human(e->loop_bytes, a, sizeof a), (long long)e->owned, (long long)e->ghosts,
             e->setup_bytes > 0 ? ", rank 0 at set-up " : "", e->setup_bytes > 0 ? human(e->setup_bytes, b, sizeof b) : "",
             avail > 0 ? human(avail, c, sizeof c) : "unknown");
}

void mem_check(struct run *run)
{
    struct mem_estimate e;
    int node_ranks;
    double avail;
    if (estimate_run(run, &e, &node_ranks, &avail))
        return; /* an unreadable Gmsh file: the reader reports it */
    double need = need_of(&e, run->rank);
    int short_here = avail > 0 && need > avail;
    int first = -comm_max_int(run->comm, short_here ? -run->rank : -run->size);
    char line[256];
    summary(&e, avail, line, sizeof line);
    listing_printf(run->lst, "Memory", "Estimate: %s", line);
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
    int node_ranks;
    double avail;
    if (estimate_run(run, &e, &node_ranks, &avail) || run->rank != 0)
        return;
    char line[256];
    summary(&e, avail, line, sizeof line);
    printf("; memory estimate on %d rank%s: %s%s\n", run->size, run->size > 1 ? "s" : "", line,
           avail > 0 && fmax(e.loop_bytes, e.setup_bytes) > avail ? ": TOO LARGE, the run will be refused" : "");
}
