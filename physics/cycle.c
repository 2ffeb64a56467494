/* The hydro cycle (see cycle.h). */
#include "cycle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "lagrange.h"
#include "par.h"

/* Runs `call` as kernel k: the miniapp times and counts it. */
#define KERNEL(ops, k, call)               \
    do {                                   \
        (ops)->kernel_begin((ops)->ctx);   \
        call;                              \
        (ops)->kernel_end((ops)->ctx, k, PART_ALL); \
    } while (0)
/* The same for one part of a call made in two (struct item_split). */
#define KERNEL_PART(ops, k, part, call)    \
    do {                                   \
        (ops)->kernel_begin((ops)->ctx);   \
        call;                              \
        (ops)->kernel_end((ops)->ctx, k, part); \
    } while (0)

/* The arena passes from one phase to the other. Sanitizer builds (test/asan_mpi.t) fill it with
 * NaN there, so that a phase reading what the other left (a lifetime error) fails the run. */
static void arena_handover(struct hydro *h)
{
#ifdef __SANITIZE_ADDRESS__
    for (size_t i = 0; i < h->narena; i++)
        h->arena[i] = NAN;
#else
    (void)h;
#endif
}

static struct hydro_error *error_slot(struct hydro *h) { return h->failed ? &h->err2 : &h->err; }

/* The structures the kernels get: on the accelerator (there: the offload build found one and its
 * copies hold the fields' latest values) its copies, whose members hold the copies' addresses;
 * the host's otherwise. */
struct kargs {
    int there;
    const struct mesh *m;
    struct hydro_fields *f;
    const struct walls *walls;
    struct remap_work *w;
};

static struct kargs kargs_of(struct hydro *h)
{
    const int there = h->dev.on && h->dev.current;
    struct device_copy *d = &h->dev;
    return (struct kargs){there, there ? &d->m : h->m, there ? &d->f : &h->f, there ? &d->walls : &h->walls,
                          there ? &d->rw : &h->rw};
}

/* The fields' latest values over to the accelerator (every array: the host may have changed any
 * since it computed last), or back to the host for good: the host computes from there on. */
static void fields_there(struct hydro *h)
{
    if (h->dev.on && !h->dev.current) {
        device_fields_to(&h->dev);
        h->dev.current = h->dev.here = 1;
    }
}

void hydro_to_host(struct hydro *h)
{
    if (h->dev.current && !h->dev.here) {
        device_fields_from(&h->dev);
        h->dev.here = 1; /* the copies stay valid: read only, the host leaves them as they are */
    }
}

static void fields_here(struct hydro *h)
{
    hydro_to_host(h);
    h->dev.current = 0;
}

void hydro_to_host_for_writing(struct hydro *h) { fields_here(h); }

/* A synchronisation point (or its start) while the kernels run on the accelerator: the values it
 * sends back on the host before it, the ghosts it wrote over again after it (for a point left in
 * flight, after its finish: device_point). */
static void sync_there(const struct cycle_ops *ops, const struct kargs *k, enum sync_point p, int start)
{
    if (k->there)
        ops->device_point(ops->ctx, p, 1);
    if (start)
        ops->sync_start(ops->ctx, p);
    else
        ops->sync(ops->ctx, p);
    if (k->there)
        ops->device_point(ops->ctx, p, 0);
}

/* Velocities, positions, volumes, densities, energies from level n to n + 1. With an
 * accelerator (the offload build) the kernels run there on the copies, which take every field
 * after the first synchronisation (unless they stayed there since the last cycle) and keep them
 * until the host reads them (hydro_to_host), what the synchronisations send and write going back
 * and forth (sync_there); with several materials the cells' update and what follows stay on the
 * host (the material store). */
static void lagrange_phase(struct hydro *h, const struct cycle_ops *ops, double dt, double dt_half)
{
    const struct mesh *m = h->m;
    struct hydro_fields *f = &h->f;
    const int dim = m->el->dim;
    const int32_t *n = h->n;
    ops->phase(ops->ctx, PHASE_LAGRANGE, 1);
    if (h->hp.nmat > 1) /* the materials' save: on the host (a cycle with several ends there anyway) */
        fields_here(h);
    KERNEL(ops, K_SAVE, lagrange_save(h->hp.nmat, f, n[K_SAVE]));
    const struct kargs k0 = kargs_of(h); /* the fields may have stayed there since the last cycle */
    sync_there(ops, &k0, SP_SAVE, 0);
    fields_there(h);
    const int x_here = h->dev.here; /* the host's positions are the accelerator's */
    h->dev.here = 0;                /* the kernels change the copies from here on */
    const struct kargs k = kargs_of(h);
    KERNEL(ops, K_GEOMETRY, lagrange_geometry(k.m, k.f, n[K_GEOMETRY]));
    if (!h->hp.remap) { /* walls follow the boundary as it moves (with the remap it never does) */
        if (k.there && !x_here) /* from the positions the last cycle left there */
            device_array(&h->dev, f->x, (size_t)m->nnodes * 3 * sizeof *f->x, 1);
        walls_free(&h->walls);
        walls_build(m, f->x, m->node_layer_start[m->nlayers], &h->walls);
        device_walls(&h->dev, &h->walls);
    }
    KERNEL(ops, K_FORCES, lagrange_forces(k.m, k.f, n[K_FORCES]));
    KERNEL(ops, K_VELOCITY, lagrange_velocity(k.f, k.walls, n[K_VELOCITY], dim, dt_half));
    sync_there(ops, &k, SP_VELOCITY, 0);
    KERNEL(ops, K_POSITIONS, lagrange_positions(k.f, n[K_POSITIONS], dim, dt));
    if (h->hp.nmat > 1) /* the cells' update reads the material store: on the host */
        fields_here(h);
    const struct kargs kc = kargs_of(h);
    sync_there(ops, &kc, SP_POSITION, 0);
    int failed = 0;
    double *ratio = h->hp.dt_control == DT_MICROHYDRO ? &h->density_ratio : NULL;
    h->density_ratio = 0;
    KERNEL(ops, K_CELLS, failed = lagrange_cells(kc.m, kc.f, &h->hp, n[K_CELLS], dt, ratio, &h->err));
    if (failed)
        h->failed = 1;
    ops->phase(ops->ctx, PHASE_LAGRANGE, 0);
}

/* The outer items' list; without a list, [0, n - ninner): all of them, or none. */
static const int32_t *outer_of(const struct item_split *s) { return s->item ? s->item + s->ninner : NULL; }

/* The step's targets and the items it can change; from the accelerator, which nodes moved back on
 * the host, where the kernels' accounting reads them. */
static void targets_and_active(struct hydro *h, const struct kargs *k, int sweep)
{
    remap_targets(k->m, k->f, k->w, sweep);
    h->remap_near += remap_active(k->m, k->w, h->remap_all);
    if (k->there)
        device_array(&h->dev, h->rw.moved, (size_t)h->m->nnodes * sizeof *h->rw.moved, 1);
}

/* One remap step to the targets of sweep (-1: the initial mesh). in_flight: the point started
 * after the previous step (hydro_cycle), finished here, or -1. Named synchronisations with work
 * across them: the inner items of a kernel run while the exchange is in flight, the outer ones
 * after it. On the accelerator (one material) likewise, what each point sends and writes going
 * back and forth around it (sync_there; a point in flight sends its ghosts over when finished). */
static void remap_step(struct hydro *h, const struct cycle_ops *ops, int sweep, int in_flight)
{
    if (h->hp.nmat > 1) /* on the host: the material store */
        fields_here(h);
    const struct kargs k = kargs_of(h);
    /* their lists: the host's, whose copies there the kernels read (device_attach) */
    const struct item_split *vs = &h->values_split, *ns = &h->nodes_split, *fs = &h->finish_split;
    const struct mesh *m = k.m;
    struct hydro_fields *f = k.f;
    struct remap_work *w = k.w;
    const int32_t *n = h->n;
    arena_handover(h);
    if (k.there)
        device_sweep(&h->dev, sweep);
    /* reads positions: no point carries them here */
    KERNEL(ops, K_R_TARGETS, targets_and_active(h, &k, sweep));
    h->remap_owned += m->ncells_owned;
    KERNEL_PART(ops, K_R_VALUES, PART_INNER, remap_values(m, f, w, vs->item, vs->ninner));
    if (in_flight >= 0)
        ops->sync_finish(ops->ctx, (enum sync_point)in_flight);
    KERNEL_PART(ops, K_R_VALUES, PART_OUTER, remap_values(m, f, w, outer_of(vs), vs->n - vs->ninner));
    sync_there(ops, &k, SP_REMAP_VALUES, 0);
    KERNEL(ops, K_R_SWEPT, remap_swept(m, f, w, n[K_R_SWEPT]));
    KERNEL(ops, K_R_SLOPES, remap_slopes(m, f, w, h->hp.limiter, n[K_R_SLOPES]));
    KERNEL(ops, K_R_MSLOPES, remap_material_slopes(m, f, w, h->hp.limiter, n[K_R_MSLOPES]));
    sync_there(ops, &k, SP_REMAP_SLOPES, 0);
    KERNEL(ops, K_R_CELLS, remap_cells(m, f, &h->hp, w, n[K_R_CELLS]));
    sync_there(ops, &k, SP_REMAP_CELLS, 1);
    /* the inner nodes, then the cells all of whose nodes are inner, while it is in flight */
    struct hydro_error fe[2] = {HYDRO_NO_ERROR, HYDRO_NO_ERROR};
    KERNEL_PART(ops, K_R_NODES, PART_INNER, remap_nodes(m, f, w, k.walls, ns->item, ns->ninner));
    KERNEL_PART(ops, K_R_FINISH, PART_INNER, remap_finish(m, f, w, &h->hp, fs->item, fs->ninner, fe));
    ops->sync_finish(ops->ctx, SP_REMAP_CELLS);
    KERNEL_PART(ops, K_R_NODES, PART_OUTER,
                remap_nodes(m, f, w, k.walls, outer_of(ns), ns->n - ns->ninner));
    sync_there(ops, &k, SP_REMAP_NODES, 0); /* ghost nodes only: the inner cells did not need it */
    KERNEL_PART(ops, K_R_FINISH, PART_OUTER,
                remap_finish(m, f, w, &h->hp, outer_of(fs), fs->n - fs->ninner, fe));
    if (fe[0].cell != INT32_MAX || fe[1].cell != INT32_MAX) { /* a check of the remap before the EOS' */
        *error_slot(h) = fe[0].cell != INT32_MAX ? fe[0] : fe[1];
        h->failed = 1;
    }
    KERNEL(ops, K_R_MOVE, remap_move(m, f, w));
    for (int i = 0; i < h->hp.nmat; i++) { /* what left the cells below the threshold, kept in h */
        xsum_merge(&h->removed[i], &h->rw.removed[i]);
        xsum_init(&h->rw.removed[i]);
    }
    sync_there(ops, &k, SP_STEP_END, 0);
}

void hydro_cycle(struct hydro *h, const struct cycle_ops *ops, long cycle, double dt, double dt_old, double out[3])
{
    const struct mesh *m = h->m;
    const int dim = m->el->dim;
    h->failed = 0;
    arena_handover(h);
    lagrange_phase(h, ops, dt, 0.5 * (dt_old + dt));
    ops->after_lagrange(ops->ctx);
    if (h->hp.remap) { /* MaHyCo's directional sweeps start from the axis cycle % dim */
        int steps = h->split ? dim : 1, first = (int)(cycle % dim);
        ops->phase(ops->ctx, PHASE_REMAP, 1);
        for (int i = 0; i < steps; i++) {
            remap_step(h, ops, h->split ? (first + i) % dim : -1, i > 0 ? SP_STEP_BETWEEN : -1);
            if (i < steps - 1) { /* finished by the next step, after its first inner work */
                const struct kargs k = kargs_of(h);
                sync_there(ops, &k, SP_STEP_BETWEEN, 1);
            }
        }
        ops->phase(ops->ctx, PHASE_REMAP, 0);
    }
    /* the end-of-cycle point, the dt candidate, then the dt candidate and the failure flag in one
     * non-blocking reduction, finished after the point. The candidate reads the velocities of the
     * first layer's nodes owned elsewhere: as computed here while the point is in flight, as their
     * owners sent them when it was done at once; the two are the same bits (minimal recomputes
     * them from the same values in the same order; test/overlap.t compares the dumps) */
    const enum sync_point end = h->hp.remap ? SP_END_REMAP : SP_END_LAGRANGE;
    const struct kargs k = kargs_of(h); /* the candidate where the fields' latest values are */
    sync_there(ops, &k, end, 1); /* the fields stay there until the host reads them (hydro_to_host) */
    h->cand = -1.0;
    arena_handover(h); /* nothing after the phases reads the arena */
    if (!h->failed)
        KERNEL(ops, K_DT, h->cand = lagrange_dt_candidate(k.m, k.f, &h->hp, h->n[K_DT], &h->cand_cell));
    double v[3] = {h->cand, h->failed ? -1.0 : 0.0, -h->density_ratio};
    ops->reduce_start(ops->ctx, v);
    ops->sync_finish(ops->ctx, end);
    ops->reduce_finish(ops->ctx, out);
}

/* Items [0, n) in two ascending lists: those with inner[i] first, then the rest; no list when all
 * are inner or none is. */
static void split_from(const unsigned char *inner, int32_t n, struct item_split *s)
{
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++)
        k += inner[i];
    *s = (struct item_split){.n = n, .ninner = k};
    if (k == n || k == 0)
        return;
    s->item = xmalloc((size_t)n * sizeof *s->item);
    int32_t a = 0, b = k;
    for (int32_t i = 0; i < n; i++)
        s->item[inner[i] ? a++ : b++] = i;
}

/* An owned cell whose nodes all pass: owned (its values read no ghost cell or node), or inner
 * (it can be finished before the new cell values of the ghosts arrive). */
static unsigned char cell_of(const struct mesh *m, int32_t c, const unsigned char *node_ok)
{
    const int nv = m->el->nnodes;
    if (c >= m->ncells_owned)
        return 0;
    for (int i = 0; i < nv; i++)
        if (!node_ok[m->cell_nodes[(size_t)c * nv + i]])
            return 0;
    return 1;
}

/* A node whose cells are all owned (such a node is owned: its owner holds its first cell). */
static unsigned char node_inner(const struct mesh *m, int32_t n)
{
    if (n >= m->nnodes_owned)
        return 0;
    for (int32_t k = m->node_cell_off[n]; k < m->node_cell_off[n + 1]; k++)
        if (mesh_nc_cell(m->node_cells[k]) >= m->ncells_owned)
            return 0;
    return 1;
}

void hydro_splits_build(struct hydro *h, int overlap)
{
    h->overlap = overlap;
    if (!h->hp.remap)
        return;
    const int32_t *n = h->n;
    if (!overlap) { /* each kernel in one part, where the cycle had it before the overlap: remap_values
                     * and remap_nodes as their inner part (no exchange is in flight then),
                     * remap_finish as its outer part (after the mahyco pattern's node velocities) */
        h->values_split = (struct item_split){.n = n[K_R_VALUES], .ninner = n[K_R_VALUES]};
        h->nodes_split = (struct item_split){.n = n[K_R_NODES], .ninner = n[K_R_NODES]};
        h->finish_split = (struct item_split){.n = n[K_R_FINISH], .ninner = 0};
        return;
    }
    const struct mesh *m = h->m;
    unsigned char *owned = xmalloc((size_t)(m->nnodes ? m->nnodes : 1));
    unsigned char *inner = xmalloc((size_t)(m->nnodes ? m->nnodes : 1));
    unsigned char *cell = xmalloc((size_t)(m->ncells ? m->ncells : 1));
    for (int32_t i = 0; i < m->nnodes; i++) {
        owned[i] = i < m->nnodes_owned;
        inner[i] = node_inner(m, i);
    }
    for (int32_t c = 0; c < n[K_R_VALUES]; c++)
        cell[c] = cell_of(m, c, owned);
    split_from(cell, n[K_R_VALUES], &h->values_split);
    split_from(inner, n[K_R_NODES], &h->nodes_split);
    for (int32_t c = 0; c < n[K_R_FINISH]; c++)
        cell[c] = cell_of(m, c, inner);
    split_from(cell, n[K_R_FINISH], &h->finish_split);
    free(owned);
    free(inner);
    free(cell);
}

void hydro_splits_free(struct hydro *h)
{
    free(h->values_split.item);
    free(h->nodes_split.item);
    free(h->finish_split.item);
    memset(&h->values_split, 0, sizeof h->values_split);
    memset(&h->nodes_split, 0, sizeof h->nodes_split);
    memset(&h->finish_split, 0, sizeof h->finish_split);
}

const struct item_split *hydro_split(const struct hydro *h, enum kernel k)
{
    switch (k) {
    case K_R_VALUES:
        return &h->values_split;
    case K_R_NODES:
        return &h->nodes_split;
    case K_R_FINISH:
        return &h->finish_split;
    default:
        return NULL;
    }
}

int hydro_totals_count(const struct hydro *h) { return h->hp.nmat > 1 ? 2 + 2 * h->hp.nmat : 2; }

void hydro_totals(const struct hydro *h, struct xsum *out)
{
    const struct mesh *m = h->m;
    const struct hydro_fields *f = &h->f;
    const int nm = h->hp.nmat, nt = hydro_totals_count(h);
    for (int i = 0; i < nt; i++)
        xsum_init(&out[i]);
    PAR_REGION(m->ncells_owned)
    { /* each term is a function of its item alone, and the sums are exact: any order will do */
        struct xsum part[2 + HYDRO_MAT_MAX];
        for (int i = 0; i < 2 + nm; i++)
            xsum_init(&part[i]);
        PAR_LOOP
        for (int32_t c = 0; c < m->ncells_owned; c++) {
            xsum_add(&part[0], f->mass[c]);
            xsum_add(&part[1], f->mass[c] * f->e[c]);
        }
        PAR_LOOP
        for (int32_t n = 0; n < m->nnodes_owned; n++) {
            const double *v = f->v + 3 * (size_t)n;
            xsum_add(&part[1], 0.5 * f->nmass[n] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
        }
        if (nm > 1) {
            double row[HYDRO_MAT_MAX];
            double *const pure[MQ_COUNT] = {NULL, f->mass};
            PAR_LOOP
            for (int32_t c = 0; c < m->ncells_owned; c++) { /* each material's mass */
                matstore_get(f->ms, pure, c, MQ_MASS, row);
                for (int k = 0; k < nm; k++)
                    xsum_add(&part[2 + k], row[k]);
            }
        }
        PAR_CRITICAL
        for (int i = 0; i < (nm > 1 ? 2 + nm : 2); i++)
            xsum_merge(&out[i], &part[i]);
    }
    for (int k = 0; nm > 1 && k < nm; k++) /* and the mass that left cells */
        out[2 + nm + k] = h->removed[k];
}
