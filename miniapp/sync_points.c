/* The synchronisation patterns mahyco and minimal (see sync_points.h). Adding a field to a
 * point is one entry in a GROUP; a new pattern is one more table. */
#include "sync_points.h"

#include "deck.h"
#include "run.h"

enum { MAX_GROUPS = 5, MAX_FIELDS = 12 };

struct group_def {
    int n;
    int field[MAX_FIELDS];
};

struct point_def {
    int together; /* 1: every group started, then every group finished (one wait for all) */
    int ngroups;
    struct group_def g[MAX_GROUPS];
    int depth; /* the ghost layers it refreshes (cells 1..depth, nodes 0..depth); 0: all of them */
};

/* How far into the ghost layers a kernel computes: its items of layers 0 .. d-1, or */
enum { D_INNER = -1, /* every layer but the last */
       D_ALL = -2 /* every local item */ };

struct pattern {
    const char *name;
    int overlap; /* exchanges may stay in flight over interior work (struct cycle_ops) */
    struct point_def point[SP_COUNT];
    int depth[K_COUNT];
    int depth_mat[K_COUNT]; /* with more than one material, where not 0: instead of depth (a kernel of
                             * depth 0 computes nothing) */
};

#define GROUP(...) {sizeof((int[]){__VA_ARGS__}) / sizeof(int), {__VA_ARGS__}}
#define EACH(n, ...) {0, n, {__VA_ARGS__}, 0}
#define TOGETHER(n, ...) {1, n, {__VA_ARGS__}, 0}
/* the same, refreshing the ghost layers up to depth only */
#define EACH_TO(depth, n, ...) {0, n, {__VA_ARGS__}, depth}
#define TOGETHER_TO(depth, n, ...) {1, n, {__VA_ARGS__}, depth}
/* every field the cycle reads on ghosts, for the initial state and after a restart */
#define MATERIALS F_MFRAC, F_MMASS, F_ME, F_MP /* left out when there is one material */
#define INIT EACH(2, GROUP(F_RHO, F_E, F_P, F_C, F_Q, F_VOL, F_MASS, F_LEN, MATERIALS), GROUP(F_X, F_V, F_NMASS))
/* MaHyCo's level-n values, each synchronised on its own, with the materials' (MaHyCo's are
 * material variables: the cell's value and each material's) */
#define SAVED EACH(5, GROUP(F_Q), GROUP(F_RHO, F_MMASS), GROUP(F_E, F_ME), GROUP(F_VOL, F_MFRAC), GROUP(F_P, F_MP))
/* the remap's kernels outside the Lagrange phase: the same in both patterns */
#define REMAP_DEPTHS [K_R_TARGETS] = D_ALL, [K_R_CELLS] = 1, [K_R_NODES] = 1, [K_R_FINISH] = 1, [K_R_MOVE] = D_ALL

static const struct pattern patterns[] = {
    /* MaHyCo: owners compute, each quantity synchronised where it is produced (ghost cells'
     * remap values are computed too, then replaced by their owners': their centres are needed) */
    [PATTERN_MAHYCO] = {
        "mahyco",
        0,
        {[SP_INIT] = INIT,
         [SP_SAVE] = SAVED,
         [SP_VELOCITY] = EACH(1, GROUP(F_V)),
         [SP_POSITION] = EACH(1, GROUP(F_X)),
         /* the materials' partial volumes, masses and energies travel with the density */
         [SP_REMAP_VALUES] = EACH(4, GROUP(F_PHI_RHO, F_PHI_MAT), GROUP(F_PHI_E), GROUP(F_PHI_K), GROUP(F_PHI_U)),
         [SP_REMAP_SLOPES] = EACH(4, GROUP(F_GRAD_RHO), GROUP(F_GRAD_E), GROUP(F_GRAD_K), GROUP(F_GRAD_U)),
         [SP_REMAP_CELLS] = EACH(4, GROUP(F_MASS), GROUP(F_UNEW), GROUP(F_E), GROUP(F_KNEW)),
         [SP_REMAP_NODES] = EACH(1, GROUP(F_V)),
         [SP_STEP_END] = SAVED, /* MaHyCo synchronises its cell variables again after each direction */
         [SP_END_REMAP] = EACH(1, GROUP(F_NMASS))},
        {[K_SAVE] = 1, [K_GEOMETRY] = 2, [K_FORCES] = 1, [K_VELOCITY] = 1, [K_POSITIONS] = 1, [K_CELLS] = 1,
         [K_DT] = 1, [K_R_VALUES] = D_ALL, [K_R_SWEPT] = 1, [K_R_SLOPES] = 1, REMAP_DEPTHS},
        /* the materials' slopes are computed, not synchronised, on the first ghost layer too
         * (remap.h), which needs that layer's swept faces */
        {[K_R_SWEPT] = 2, [K_R_MSLOPES] = 2},
    },
    /* minimal: redundant work on the ghost layers, one synchronisation per remap step and one
     * at the end of the cycle, beside the dt reduction. Each refreshes the layers the kernels read
     * before the next: remap_nodes and remap_finish compute the owned cells' nodes and the owned
     * cells (depth 1), reading the cells of ghost layer 1; the next step's remap_values computes
     * ghost layers 1-2 (depth 3), reading those cells and their nodes; the next cycle's geometry
     * computes every layer. Between two steps only what the next one reads travels: no pressure,
     * sound speed or viscosity (the end of the cycle sends them; a pure cell's material pressure,
     * its pressure, goes with the materials'), but the masses (a pure cell's material mass is its
     * mass: without them the triple point on 4 ranks differs from 1 rank, test/overlap.t). */
    [PATTERN_MINIMAL] = {
        "minimal",
        1,
        {[SP_INIT] = INIT,
         [SP_REMAP_CELLS] = EACH_TO(1, 1, GROUP(F_MASS, F_UNEW, F_E, F_KNEW)),
         [SP_STEP_BETWEEN] = TOGETHER_TO(2, 2, GROUP(F_RHO, F_E, F_MASS, MATERIALS), GROUP(F_V, F_NMASS)),
         [SP_END_LAGRANGE] = TOGETHER(2, GROUP(F_RHO, F_E, F_P, F_C, F_Q, MATERIALS), GROUP(F_X, F_V)),
         [SP_END_REMAP] = TOGETHER(2, GROUP(F_RHO, F_E, F_P, F_C, F_Q, F_MASS, MATERIALS), GROUP(F_V, F_NMASS))},
        {[K_SAVE] = D_INNER, [K_GEOMETRY] = D_ALL, [K_FORCES] = D_INNER, [K_VELOCITY] = D_INNER,
         [K_POSITIONS] = D_INNER, [K_CELLS] = D_INNER, [K_DT] = 1, [K_R_VALUES] = 3, [K_R_SWEPT] = 2,
         [K_R_SLOPES] = 2, REMAP_DEPTHS},
        {[K_R_MSLOPES] = 2},
    },
};

/* Whether a point can be reached by a cycle with or without the remap. */
static int point_runs(enum sync_point p, int remap)
{
    switch (p) {
    case SP_INIT:
    case SP_SAVE:
    case SP_VELOCITY:
    case SP_POSITION:
        return 1;
    case SP_END_LAGRANGE:
        return !remap;
    default: /* the remap's points */
        return remap;
    }
}

void sync_points_record(struct sync_book *b, struct run *run, int pattern, int remap, const int id[F_COUNT])
{
    for (int p = 0; p < SP_COUNT; p++) {
        const struct point_def *d = &patterns[pattern].point[p];
        if (!point_runs((enum sync_point)p, remap))
            continue;
        sync_book_together(b, p, d->together);
        for (int g = 0; g < d->ngroups; g++) {
            int ids[MAX_FIELDS], n = 0;
            for (int i = 0; i < d->g[g].n; i++) /* a field this run does not register is left out */
                if (id[d->g[g].field[i]] >= 0)
                    ids[n++] = id[d->g[g].field[i]];
            if (n == 0) /* a group of fields this run lacks (the materials') is no synchronisation */
                continue;
            struct sync_group *sg = sync_book_group(b, p, run, ids, n);
            if (d->depth)
                sync_group_set_depth(sg, d->depth);
        }
    }
}

/* Kernel k's depth under pat with nmat materials. */
static int depth_of(const struct pattern *pat, int k, int nmat)
{
    return nmat > 1 && pat->depth_mat[k] ? pat->depth_mat[k] : pat->depth[k];
}

/* The layers kernel k computes under pat (1: owned cells only) with L ghost layers. */
static int layers_of(const struct pattern *pat, int k, int nmat, int L)
{
    int d = depth_of(pat, k, nmat);
    return d == D_ALL ? L + 1 : d == D_INNER ? L : d < L + 1 ? d : L + 1;
}

const char *sync_points_check(int pattern, int nmat, int nlayers)
{
    const struct pattern *pat = &patterns[pattern];
    if (nmat < 2)
        return NULL;
    const int cells = layers_of(pat, K_R_CELLS, nmat, nlayers);
    /* remap_cells reads the material slopes of its cells' upwind neighbours, and those need
     * their own swept faces (remap.h) */
    if (layers_of(pat, K_R_MSLOPES, nmat, nlayers) < cells + 1)
        return "remap_material_slopes must compute one layer further than remap_cells";
    if (layers_of(pat, K_R_SWEPT, nmat, nlayers) < layers_of(pat, K_R_MSLOPES, nmat, nlayers))
        return "remap_swept must compute as far as remap_material_slopes";
    return NULL;
}

void sync_points_ranges(int pattern, int nmat, const struct mesh *m, int32_t n[K_COUNT])
{
    static const enum kernel_items items[K_COUNT] = {
#define X(id, name, it, help) [id] = it,
        KERNEL_LIST(X)
#undef X
    };
    const struct pattern *pat = &patterns[pattern];
    for (int k = 0; k < K_COUNT; k++) {
        const int32_t *start = items[k] == ITEMS_CELLS ? m->cell_layer_start : m->node_layer_start;
        int32_t all = items[k] == ITEMS_CELLS ? m->ncells : m->nnodes;
        n[k] = depth_of(pat, k, nmat) == D_ALL ? all : start[layers_of(pat, k, nmat, m->nlayers)];
    }
}

int sync_points_overlap(int pattern) { return patterns[pattern].overlap; }

const char *sync_points_name(int pattern) { return patterns[pattern].name; }
