/* The hydro cycle and its synchronisation patterns (see scheme.h). */
#include "scheme.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "check.h"
#include "comm.h"
#include "cost.h"
#include "kernels.h"
#include "lagrange.h"
#include "loadbalance.h"
#include "remap.h"
#include "restart.h"
#include "run.h"

enum { MAX_GROUPS = 64 };

struct scheme {
    struct hydro_params hp;
    struct case_params cp;
    struct hydro_fields f;
    struct walls walls;
    int pattern;
    int32_t nc_comp, nn_comp; /* items the Lagrange phase updates */
    int id[32];               /* registry ids, see enum field */
    struct sync_group *g[MAX_GROUPS];
    int ng;
    int g_save[5], g_velocity, g_position, g_end_cells, g_end_nodes, g_all_cells, g_all_nodes;
    struct reduction dt_red, totals;
    long totals_cycle;
    double totals_time;
    double mass0, energy0;
    struct hydro_error err, err2; /* the first failure of a cycle, and a later one (ignored) */
    int failed;
    double cand; /* this rank's dt candidate of the cycle */
    int32_t cand_cell; /* the owned cell giving it */
    struct remap_work rw;
    int split;
    /* remap synchronisations */
    int g_rvalues[4], g_rslopes[4], g_rresult[4], g_nmass, g_rcells, g_end2_cells, g_end2_nodes;
    int rv_id[4], rs_id[4]; /* registry views of the reconstructed values and slopes (mahyco) */
    double *arena; /* scratch that one phase of the cycle uses and the other overwrites (attach) */
    size_t narena; /* its doubles */
    int res_id[4];          /* remap results: views of the remap's scratch arrays */
    long long syncs_done, messages_done, bytes_done; /* of groups destroyed by rebalances */
    volatile double burnt; /* the cost model's extra work lands here so that it is done */
    struct kernels kern;    /* per-kernel work and seconds; the SMPI compute model */
    int32_t *act_cells, *act_nodes; /* with kern.on: prefix counts of active cells / moved nodes */
    double pending; /* SMPI model: seconds of compute not yet charged (see flush) */
};

/* SMPI model: charge the kernels' compute since the last communication in one piece, before
 * the next one (one simulated action per compute phase, as SMPI makes of measured time). */
static void flush(struct scheme *s)
{
    if (s->pending > 0)
        comm_compute(s->pending);
    s->pending = 0;
}

enum field {
    F_RHO, F_E, F_P, F_C, F_Q, F_VOL, F_MASS, F_LEN, F_RHO0, F_E0, F_P0,
    F_X, F_V, F_NMASS, F_FORCE, F_XINIT, F_COUNT
};

static const struct {
    const char *name;
    enum var_center center;
    int ncomp;
    unsigned flags;
    const char *unit;
    int scratch; /* written and read within the Lagrange phase: stored in the arena (attach) */
} fields[F_COUNT] = {
    [F_RHO] = {"density", VAR_CELL, 1, VAR_SYNC | VAR_CHECKPOINT, "mass/length^3", 0},
    [F_E] = {"internal_energy", VAR_CELL, 1, VAR_SYNC | VAR_CHECKPOINT, "energy/mass", 0},
    [F_P] = {"pressure", VAR_CELL, 1, VAR_SYNC | VAR_CHECKPOINT, "pressure", 0},
    [F_C] = {"sound_speed", VAR_CELL, 1, VAR_SYNC | VAR_CHECKPOINT, "length/time", 0},
    [F_Q] = {"viscosity", VAR_CELL, 1, VAR_SYNC | VAR_CHECKPOINT, "pressure", 0},
    [F_VOL] = {"volume", VAR_CELL, 1, VAR_SYNC | VAR_CHECKPOINT, "length^dim", 0},
    [F_MASS] = {"mass", VAR_CELL, 1, VAR_SYNC | VAR_CHECKPOINT, "mass", 0},
    [F_LEN] = {"length", VAR_CELL, 1, 0, "length", 0},
    [F_RHO0] = {"density_n", VAR_CELL, 1, 0, "mass/length^3", 1},
    [F_E0] = {"internal_energy_n", VAR_CELL, 1, 0, "energy/mass", 1},
    [F_P0] = {"pressure_n", VAR_CELL, 1, 0, "pressure", 1},
    [F_X] = {"position", VAR_NODE, 3, VAR_SYNC, "length", 0},
    [F_V] = {"velocity", VAR_NODE, 3, VAR_SYNC | VAR_CHECKPOINT, "length/time", 0},
    [F_NMASS] = {"mass", VAR_NODE, 1, VAR_SYNC | VAR_CHECKPOINT, "mass", 0},
    [F_FORCE] = {"force", VAR_NODE, 3, 0, "mass length/time^2", 1},
    [F_XINIT] = {"initial_position", VAR_NODE, 3, 0, "length", 0},
};

static int group(struct scheme *s, struct run *run, const int *fl, int n)
{
    int ids[F_COUNT];
    for (int i = 0; i < n; i++)
        ids[i] = s->id[fl[i]];
    enum var_center c = fields[fl[0]].center;
    s->g[s->ng] = sync_group_create(run->comm, c == VAR_CELL ? &run->cell_plan : &run->node_plan, &run->reg, ids, n,
                                    run->cfg.sync == SYNC_BASIC ? SYNC_KIND_BASIC : SYNC_KIND_PERSISTENT);
    return s->ng++;
}

static void sync_now(struct scheme *s, struct run *run, int g)
{
    flush(s);
    timers_start(&run->tm, TIMER_SYNC);
    sync_start(s->g[g]);
    sync_finish(s->g[g]);
    timers_stop(&run->tm, TIMER_SYNC);
}

/* Waiting for a reduction is communication, not compute: the load balancer must not see it. */
static void reduce_wait(struct run *run, struct reduction *r)
{
    timers_start(&run->tm, TIMER_REDUCE);
    reduction_finish(r);
    timers_stop(&run->tm, TIMER_REDUCE);
}

/* Work of a call over items [0, n) whose first `own` are owned; act: prefix counts of active
 * items (NULL: every item is). */
static struct kernel_work work(int32_t n, int32_t own, const int32_t *act)
{
    int32_t o = n < own ? n : own;
    struct kernel_work w = {.n_own = o, .n_ghost = n - o, .m_own = o, .m_ghost = n - o};
    if (act) {
        w.m_own = act[o];
        w.m_ghost = act[n] - act[o];
    }
    return w;
}

/* Accounts the call measured last (kernels_begin ... kernels_stop) as kernel id over items
 * [0, n) (cells, or nodes when `nodes`), with activity prefix act; in the SMPI model its time
 * is added to what this rank computes before its next communication. */
static void kernel_done(struct scheme *s, const struct mesh *m, enum kernel id, int nodes, int32_t n,
                        const int32_t *act)
{
    if (!s->kern.on)
        return;
    struct kernel_work w = work(n, nodes ? m->node_layer_start[1] : m->ncells_owned, act);
    s->pending += kernels_end(&s->kern, id, &w);
}

/* Runs `call` as a kernel (see kernel_done). */
#define KERNEL(s, m, id, nodes, n, act, call)                                                       \
    do {                                                                                          \
        kernels_begin(&(s)->kern);                                                                \
        call;                                                                                     \
        kernels_stop(&(s)->kern);                                                                 \
        kernel_done((s), (m), (id), (nodes), (n), (act));                                         \
    } while (0)

/* Prefix counts of moved nodes and of cells with a moved node, after remap_targets. */
static void count_active(struct scheme *s, const struct mesh *m)
{
    const unsigned char *moved = s->rw.moved;
    int nv = m->el->nnodes;
    s->act_nodes[0] = 0;
    for (int32_t i = 0; i < m->nnodes; i++)
        s->act_nodes[i + 1] = s->act_nodes[i] + moved[i];
    s->act_cells[0] = 0;
    for (int32_t c = 0; c < m->ncells; c++) {
        int any = 0;
        for (int k = 0; k < nv; k++)
            any |= moved[m->cell_nodes[(size_t)c * nv + k]];
        s->act_cells[c + 1] = s->act_cells[c] + any;
    }
}

static double *data(struct scheme *s, struct run *run, enum field fl) { return run->reg.v[s->id[fl]].data; }

/* Owned totals: mass, internal + kinetic energy. */
static void totals(const struct scheme *s, const struct mesh *m, double out[2])
{
    const struct hydro_fields *f = &s->f;
    double mass = 0, energy = 0;
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        mass += f->mass[c];
        energy += f->mass[c] * f->e[c];
    }
    for (int32_t n = 0; n < m->nnodes_owned; n++) {
        const double *v = f->v + 3 * (size_t)n;
        energy += 0.5 * f->nmass[n] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    out[0] = mass;
    out[1] = energy;
}

/* Everything that depends on the mesh and its plans: field pointers, scratch arrays, walls,
 * recorded synchronisations. Done at creation and again after a rebalance. */
void scheme_attach(struct scheme *s, struct run *run)
{
    struct mesh *m = run->mesh;
    int L = m->nlayers;
    s->nc_comp = s->pattern == PATTERN_MINIMAL ? m->cell_layer_start[L] : m->ncells_owned;
    s->nn_comp = s->pattern == PATTERN_MINIMAL ? m->node_layer_start[L] : m->node_layer_start[1];
    registry_set_external(&run->reg, s->id[F_X], m->node_xyz);
    struct hydro_fields *f = &s->f;
    f->rho = data(s, run, F_RHO);
    f->e = data(s, run, F_E);
    f->p = data(s, run, F_P);
    f->c = data(s, run, F_C);
    f->q = data(s, run, F_Q);
    f->vol = data(s, run, F_VOL);
    f->mass = data(s, run, F_MASS);
    f->len = data(s, run, F_LEN);
    f->x = data(s, run, F_X);
    f->v = data(s, run, F_V);
    f->nmass = data(s, run, F_NMASS);
    f->x_init = data(s, run, F_XINIT);
    /* The arena: corner vectors, the level-n copies and the forces live from the start of the
     * Lagrange phase to its end, the remap's work arrays within one remap step; neither reads
     * what the other left, so one block serves both (3D: 36 instead of 76 doubles per cell).
     * Written once here so that its pages are faulted in during the set-up, not inside the
     * first cycle's timers (page faults are expensive on some VMs). */
    size_t nc1 = (size_t)(m->ncells ? m->ncells : 1), nn1 = (size_t)(m->nnodes ? m->nnodes : 1);
    size_t ncorner = nc1 * m->el->nnodes * 3, lag = ncorner, rem = s->hp.remap ? remap_work_size(m) : 0;
    for (int i = 0; i < F_COUNT; i++)
        if (fields[i].scratch)
            lag += (fields[i].center == VAR_CELL ? nc1 : nn1) * fields[i].ncomp;
    s->narena = lag > rem ? lag : rem;
    s->arena = xmalloc(s->narena * sizeof *s->arena);
    memset(s->arena, 0, s->narena * sizeof *s->arena);
    f->corner = s->arena;
    double *next = s->arena + ncorner;
    for (int i = 0; i < F_COUNT; i++)
        if (fields[i].scratch) {
            registry_set_external(&run->reg, s->id[i], next);
            next += (fields[i].center == VAR_CELL ? nc1 : nn1) * fields[i].ncomp;
        }
    f->rho0 = data(s, run, F_RHO0);
    f->e0 = data(s, run, F_E0);
    f->p0 = data(s, run, F_P0);
    f->force = data(s, run, F_FORCE);
    if (s->hp.remap)
        remap_work_init(&s->rw, m, s->arena);
    if (s->kern.on && s->hp.remap) {
        s->act_cells = xmalloc(((size_t)m->ncells + 1) * sizeof *s->act_cells);
        s->act_nodes = xmalloc(((size_t)m->nnodes + 1) * sizeof *s->act_nodes);
    }
    /* walls from where the remap returns (or from the current boundary without remap) */
    walls_build(m, s->hp.remap ? f->x_init : f->x, m->node_layer_start[L], &s->walls);

    /* recorded synchronisations, in the same order on every rank */
    s->ng = 0;
    static const int save[5] = {F_Q, F_RHO, F_E, F_VOL, F_P};
    for (int i = 0; i < 5; i++)
        s->g_save[i] = group(s, run, &save[i], 1);
    int fv = F_V, fx = F_X;
    s->g_velocity = group(s, run, &fv, 1);
    s->g_position = group(s, run, &fx, 1);
    static const int end_cells[] = {F_RHO, F_E, F_P, F_C, F_Q}, end_nodes[] = {F_X, F_V};
    s->g_end_cells = group(s, run, end_cells, 5);
    s->g_end_nodes = group(s, run, end_nodes, 2);
    static const int all_cells[] = {F_RHO, F_E, F_P, F_C, F_Q, F_VOL, F_MASS, F_LEN}, all_nodes[] = {F_X, F_V, F_NMASS};
    s->g_all_cells = group(s, run, all_cells, 8);
    s->g_all_nodes = group(s, run, all_nodes, 3);
    if (s->hp.remap) {
        double *res_data[4] = {f->mass, s->rw.unew, f->e, s->rw.knew}; /* remap_cells writes mass and e in place */
        for (int k = 0; k < 4; k++)
            registry_set_external(&run->reg, s->res_id[k], res_data[k]);
        /* views of the interleaved values [cell][rho e k u] and slopes [cell][rho e k u][3]:
         * each quantity is synchronised in place, as MaHyCo does one variable at a time */
        for (int k = 0, off = 0; k < 4; k++) {
            registry_set_view(&run->reg, s->rv_id[k], s->rw.phi + off, REMAP_NPHI);
            registry_set_view(&run->reg, s->rs_id[k], s->rw.grad + 3 * off, REMAP_NPHI * 3);
            off += k == 3 ? 3 : 1;
        }
        enum sync_kind kind = run->cfg.sync == SYNC_BASIC ? SYNC_KIND_BASIC : SYNC_KIND_PERSISTENT;
        for (int k = 0; k < 4; k++) {
            s->g[s->ng] = sync_group_create(run->comm, &run->cell_plan, &run->reg, &s->rv_id[k], 1, kind);
            s->g_rvalues[k] = s->ng++;
            s->g[s->ng] = sync_group_create(run->comm, &run->cell_plan, &run->reg, &s->rs_id[k], 1, kind);
            s->g_rslopes[k] = s->ng++;
        }
        for (int k = 0; k < 4; k++) {
            s->g[s->ng] = sync_group_create(run->comm, &run->cell_plan, &run->reg, &s->res_id[k], 1, kind);
            s->g_rresult[k] = s->ng++;
        }
        s->g[s->ng] = sync_group_create(run->comm, &run->cell_plan, &run->reg, s->res_id, 4, kind);
        s->g_rcells = s->ng++;
        int fn = F_NMASS;
        s->g_nmass = group(s, run, &fn, 1);
        static const int end2_cells[] = {F_RHO, F_E, F_P, F_C, F_Q, F_MASS}, end2_nodes[] = {F_V, F_NMASS};
        s->g_end2_cells = group(s, run, end2_cells, 6);
        s->g_end2_nodes = group(s, run, end2_nodes, 2);
    }
}

void scheme_detach(struct scheme *s)
{
    for (int g = 0; g < s->ng; g++) { /* keep the statistics for the report */
        s->syncs_done += s->g[g]->count;
        s->messages_done += s->g[g]->messages;
        s->bytes_done += s->g[g]->bytes_sent;
        sync_group_destroy(s->g[g]);
    }
    s->ng = 0;
    walls_free(&s->walls);
    remap_work_free(&s->rw);
    free(s->arena);
    s->arena = NULL;
    s->f.corner = NULL;
    free(s->act_cells);
    free(s->act_nodes);
    s->act_cells = s->act_nodes = NULL;
}

struct scheme *scheme_create(struct run *run)
{
    const struct config *cfg = &run->cfg;
    struct mesh *m = run->mesh;
    struct scheme *s = xcalloc(1, sizeof *s);
    s->hp = (struct hydro_params){
        .eos = eos_make(cfg->eos, cfg->gamma, cfg->p_inf, cfg->newton_tol, (int)cfg->newton_max),
        .cfl = cfg->cfl,
        .q1 = cfg->q1,
        .q2 = cfg->q2 >= 0 ? cfg->q2 : 0.5 * (cfg->gamma + 1.0),
        .dt_init = cfg->dt_init,
        .dt_min = cfg->dt_min,
        .dt_max = cfg->dt_max,
        .dt_growth = cfg->dt_growth,
        .final_time = cfg->final_time,
        .length = cfg->length,
        .remap = cfg->remap == REMAP_EULER,
        .remap_heat = cfg->remap_heat,
        .limiter = cfg->limiter,
    };
    s->cp = (struct case_params){.name = (enum hydro_case)(cfg->case_name - CASE_HYDRO), .direction = cfg->direction,
                                 .interface = cfg->interface, .sedov_energy = cfg->sedov_energy};
    if (s->cp.name == HCASE_SEDOV && s->cp.sedov_energy == 0) {
        double alpha = sedov_alpha((int)cfg->dim, cfg->gamma);
        if (alpha == 0)
            run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? "case.sedov_energy: the automatic value is "
                                                                     "known for gamma 1.4 only: set it" : NULL);
        s->cp.sedov_energy = alpha / (cfg->dim == 2 ? 4.0 : 8.0); /* a quarter plane or an octant */
    }
    if (s->cp.name == HCASE_SEDOV) { /* the blast sits at the corner of a quarter plane or octant */
        int outside = 0, at_origin = 0;
        for (int32_t c = 0; c < m->ncells_owned; c++)
            for (int k = 0; k < m->el->nnodes; k++) {
                const double *x = m->node_xyz + 3 * (size_t)m->cell_nodes[(size_t)c * m->el->nnodes + k];
                outside |= x[0] < -1e-12 || x[1] < -1e-12 || x[2] < -1e-12;
                at_origin |= fabs(x[0]) + fabs(x[1]) + fabs(x[2]) < 1e-12;
            }
        if (comm_max_int(run->comm, outside) || !comm_max_int(run->comm, at_origin))
            run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? "case sedov: the mesh must be the quarter plane "
                                "(2D) or octant (3D) x, y, z >= 0, with a node at the origin where the blast starts"
                                                                   : NULL);
    }
    s->pattern = cfg->sync_pattern;
    s->split = cfg->remap_split;
    int L = m->nlayers;
    for (int i = 0; i < F_COUNT; i++) {
        const char *name = fields[i].name;
        if (i == F_X || fields[i].scratch) /* the mesh's coordinates, the arena (attach) */
            s->id[i] = registry_add_external(&run->reg, name, fields[i].center, fields[i].ncomp, fields[i].flags,
                                             fields[i].unit, i == F_X ? m->node_xyz : NULL);
        else
            s->id[i] = registry_add(&run->reg, name, fields[i].center, fields[i].ncomp, fields[i].flags,
                                    fields[i].unit);
    }
    if (s->hp.remap) { /* remap results are registry variables so that they can be synchronised */
        static const char *const rnames[4] = {"remap_mass", "remap_velocity", "remap_energy", "remap_kinetic"};
        static const char *const vnames[4] = {"remap_density", "remap_internal_energy", "remap_kinetic_energy",
                                              "remap_mean_velocity"};
        static const char *const snames[4] = {"slope_density", "slope_internal_energy", "slope_kinetic_energy",
                                              "slope_mean_velocity"};
        for (int k = 0; k < 4; k++) {
            s->res_id[k] = registry_add_external(&run->reg, rnames[k], VAR_CELL, k == 1 ? 3 : 1, 0, "", NULL);
            s->rv_id[k] = registry_add_external(&run->reg, vnames[k], VAR_CELL, k == 3 ? 3 : 1, 0, "", NULL);
            s->rs_id[k] = registry_add_external(&run->reg, snames[k], VAR_CELL, k == 3 ? 9 : 3, 0, "", NULL);
        }
    }
#ifdef HYDRO_SMPI
    const int smpi = 1;
#else
    const int smpi = 0;
#endif
    char why[1024];
    if (kernels_init(&s->kern, m->el->dim, smpi, why, sizeof why))
        run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? why : NULL);
    if (s->kern.model)
        listing_printf(run->lst, "Internal", "SMPI compute model %s: each physics kernel costs a x items + b x "
                       "active items, owned items x %g, ghost items x %g; the host's measured time is not counted",
                       getenv("HYDRO_COMPUTE_MODEL"), s->kern.scale_own, s->kern.scale_ghost);
    scheme_attach(s, run);
    struct hydro_fields *f = &s->f;

    memcpy(f->x_init, f->x, (size_t)m->nnodes * 3 * sizeof *f->x);
    walls_free(&s->walls); /* now from the initial positions */
    walls_build(m, f->x, m->node_layer_start[L], &s->walls);
    /* the first step obeys dt_max and final_time too */
    double dt0 = s->hp.dt_init < s->hp.dt_max ? s->hp.dt_init : s->hp.dt_max;
    run->dt = run->dt_old = dt0 < s->hp.final_time && s->hp.final_time > 0 ? dt0 : s->hp.final_time;
    if (!run->restart) {
        struct hydro_error err;
        int bad = case_init(&s->cp, &s->hp, m, f, m->ncells, m->nnodes, &err) != 0;
        lagrange_node_mass(m, f, m->node_layer_start[L]);
        if (comm_max_int(run->comm, bad))
            run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? "the initial state has no sound speed "
                                                                     "(check the equation of state)" : NULL);
        sync_now(s, run, s->g_all_cells); /* ghosts hold their owners' values from the start */
        sync_now(s, run, s->g_all_nodes);
        for (int g = 0; g < s->ng; g++) /* the listing counts the time loop's synchronisations */
            s->g[g]->count = s->g[g]->messages = s->g[g]->bytes_sent = 0;
        double t[2], sum[2];
        totals(s, m, t);
        reduction_start(run->comm, &s->totals, t, 2, 0);
        reduce_wait(run, &s->totals);
        memcpy(sum, s->totals.out, sizeof sum);
        s->mass0 = sum[0];
        s->energy0 = sum[1];
    }
    s->totals_cycle = -1;
    return s;
}

void scheme_restored(struct scheme *s, struct run *run)
{
    struct mesh *m = run->mesh;
    struct hydro_fields *f = &s->f;
    memcpy(f->x_init, f->x, (size_t)m->nnodes * 3 * sizeof *f->x);
    lagrange_geometry(m, f, m->ncells);
    for (int32_t c = 0; c < m->ncells; c++) {
        double xc[MAX_CELL_NODES][3];
        mesh_cell_coords(m, f->x, c, xc);
        f->len[c] = geom_length(m->el, (const double(*)[3])xc, f->vol[c], s->hp.length);
    }
    s->mass0 = run->restart->mass0;
    s->energy0 = run->restart->energy0;
}

/* Collective: the lowest rank with holds != 0 names why the run stops in msg (the form of
 * hydro_fatal's line: rank, check, cause); rank 0 prints it on stderr and in the listing. */
static void report_stop(struct run *run, int holds, const char *msg)
{
    int holder = -comm_max_int(run->comm, holds ? -run->rank : -run->size);
    char *text = comm_bcast_text(run->comm, run->rank == holder ? msg : "", holder);
    if (run->rank == 0) {
        fprintf(stderr, "hydro: %s\n", text);
        listing_printf(run->lst, "Hydro", "Stopped: %s", text);
    }
    free(text);
}

/* Collective after the dt reduction reported a failure: the smallest bad cell is named. */
static void report_failure(struct scheme *s, struct run *run)
{
    long long gid = s->failed ? (long long)run->mesh->cell_gid[s->err.cell] : LLONG_MAX;
    long long worst = comm_min_ll(run->comm, gid);
    char msg[512] = "";
    if (gid == worst)
        snprintf(msg, sizeof msg, "rank %d: %s:%d: cycle %ld: cell %lld: %s", run->rank, s->err.file, s->err.line,
                 run->cycle, worst, s->err.what);
    report_stop(run, gid == worst, msg);
}

/* Reconstructed values or slopes (mahyco): one quantity at a time, as MaHyCo does. */
static void sync_columns(struct scheme *s, struct run *run, const int *groups)
{
    for (int k = 0; k < 4; k++)
        sync_now(s, run, groups[k]);
}

/* The arena passes from one phase to the other. Sanitizer builds (test/asan_mpi.t) fill it with
 * NaN there, so that a phase reading what the other left (a lifetime error) fails the run. */
static void arena_handover(struct scheme *s)
{
#ifdef __SANITIZE_ADDRESS__
    for (size_t i = 0; i < s->narena; i++)
        s->arena[i] = NAN;
#else
    (void)s;
#endif
}

/* One remap step to the targets of sweep (-1: the initial mesh). */
static void remap_step(struct scheme *s, struct run *run, int sweep, int last)
{
    struct mesh *m = run->mesh;
    struct hydro_fields *f = &s->f;
    struct remap_work *w = &s->rw;
    const int32_t own = m->ncells_owned, nodes_own = m->node_layer_start[1];
    arena_handover(s);
    kernels_begin(&s->kern);
    remap_targets(m, f, w, sweep);
    kernels_stop(&s->kern);
    const int32_t *ac = NULL, *an = NULL;
    if (s->kern.on) { /* not part of the kernel's time: counting is the accounting's own work */
        count_active(s, m);
        ac = s->act_cells;
        an = s->act_nodes;
    }
    kernel_done(s, m, K_R_TARGETS, 1, m->nnodes, an);
    int failed = 0;
    if (s->pattern == PATTERN_MINIMAL) { /* redundant work on layers 1-2, one synchronisation */
        int32_t nc2 = m->cell_layer_start[3], nc1 = m->cell_layer_start[2];
        KERNEL(s, m, K_R_VALUES, 0, nc2, ac, remap_values(m, f, w, nc2));
        KERNEL(s, m, K_R_SWEPT, 0, nc1, ac, remap_swept(m, f, w, nc1));
        KERNEL(s, m, K_R_GRADIENTS, 0, nc1, ac, remap_gradients(m, f, w, nc1));
        KERNEL(s, m, K_R_LIMIT, 0, nc1, ac, remap_limit(m, f, w, s->hp.limiter, nc1));
        KERNEL(s, m, K_R_CELLS, 0, own, ac, remap_cells(m, f, w, own));
        sync_now(s, run, s->g_rcells);
        KERNEL(s, m, K_R_NODES, 1, nodes_own, an, remap_nodes(m, f, w, &s->walls, nodes_own));
        KERNEL(s, m, K_R_FINISH, 0, own, ac, failed = remap_finish(m, f, w, &s->hp, own, s->failed ? &s->err2 : &s->err));
        if (failed)
            s->failed = 1;
        KERNEL(s, m, K_R_MOVE, 1, m->nnodes, an, remap_move(m, f, w));
        if (!last) {
            flush(s);
            timers_start(&run->tm, TIMER_SYNC);
            sync_start(s->g[s->g_end2_cells]);
            sync_start(s->g[s->g_end2_nodes]);
            sync_finish(s->g[s->g_end2_cells]);
            sync_finish(s->g[s->g_end2_nodes]);
            timers_stop(&run->tm, TIMER_SYNC);
        }
        return;
    }
    /* mahyco: owners compute, each quantity synchronised where it is produced (the values of
     * ghost cells computed here are replaced by their owners'; their centres are needed) */
    KERNEL(s, m, K_R_VALUES, 0, m->ncells, ac, remap_values(m, f, w, m->ncells));
    sync_columns(s, run, s->g_rvalues);
    KERNEL(s, m, K_R_SWEPT, 0, own, ac, remap_swept(m, f, w, own));
    KERNEL(s, m, K_R_GRADIENTS, 0, own, ac, remap_gradients(m, f, w, own));
    KERNEL(s, m, K_R_LIMIT, 0, own, ac, remap_limit(m, f, w, s->hp.limiter, own));
    sync_columns(s, run, s->g_rslopes);
    KERNEL(s, m, K_R_CELLS, 0, own, ac, remap_cells(m, f, w, own));
    for (int k = 0; k < 4; k++)
        sync_now(s, run, s->g_rresult[k]);
    KERNEL(s, m, K_R_NODES, 1, nodes_own, an, remap_nodes(m, f, w, &s->walls, nodes_own));
    sync_now(s, run, s->g_velocity);
    KERNEL(s, m, K_R_FINISH, 0, own, ac, failed = remap_finish(m, f, w, &s->hp, own, s->failed ? &s->err2 : &s->err));
    if (failed)
        s->failed = 1;
    KERNEL(s, m, K_R_MOVE, 1, m->nnodes, an, remap_move(m, f, w));
    for (int i = 0; i < 5; i++) /* MaHyCo synchronises its cell variables again after each direction */
        sync_now(s, run, s->g_save[i]);
    (void)last;
}

int scheme_cycle(struct scheme *s, struct run *run)
{
    struct mesh *m = run->mesh;
    struct hydro_fields *f = &s->f;
    const double dt = run->dt, dt_half = 0.5 * (run->dt_old + run->dt);
    const int dim = m->el->dim;
    s->failed = 0;
    if (run->cycle == run->cfg.test_nan_cycle) /* [run] test_nan_*: for tests of the failure path only */
        for (int32_t c = 0; c < m->ncells_owned; c++)
            if (m->cell_gid[c] == run->cfg.test_nan_cell)
                f->e[c] = NAN;

    arena_handover(s);
    timers_start(&run->tm, TIMER_LAGRANGE);
    KERNEL(s, m, K_SAVE, 0, s->nc_comp, NULL, lagrange_save(f, s->nc_comp));
    if (s->pattern == PATTERN_MAHYCO) /* MaHyCo: each saved variable synchronised separately */
        for (int i = 0; i < 5; i++)
            sync_now(s, run, s->g_save[i]);
    /* corner vectors at level n of the cells around the nodes computed here: the MaHyCo pattern
     * computes owned nodes, whose cells are layers 0 and 1; the minimal one all layers */
    int32_t ngeom = s->pattern == PATTERN_MINIMAL ? m->ncells : m->cell_layer_start[m->nlayers >= 1 ? 2 : 1];
    KERNEL(s, m, K_GEOMETRY, 0, ngeom, NULL, lagrange_geometry(m, f, ngeom));
    if (!s->hp.remap) { /* walls follow the boundary as it moves (with the remap it never does) */
        walls_free(&s->walls);
        walls_build(m, f->x, m->node_layer_start[m->nlayers], &s->walls);
    }
    KERNEL(s, m, K_FORCES, 1, s->nn_comp, NULL, lagrange_forces(m, f, s->nn_comp));
    KERNEL(s, m, K_VELOCITY, 1, s->nn_comp, NULL, lagrange_velocity(f, &s->walls, s->nn_comp, dim, dt_half));
    if (s->pattern == PATTERN_MAHYCO)
        sync_now(s, run, s->g_velocity);
    KERNEL(s, m, K_POSITIONS, 1, s->nn_comp, NULL, lagrange_positions(f, s->nn_comp, dim, dt));
    if (s->pattern == PATTERN_MAHYCO)
        sync_now(s, run, s->g_position);
    int failed = 0;
    KERNEL(s, m, K_CELLS, 0, s->nc_comp, NULL, failed = lagrange_cells(m, f, &s->hp, s->nc_comp, dt, &s->err));
    if (failed)
        s->failed = 1;
    flush(s);
    timers_stop(&run->tm, TIMER_LAGRANGE);
    if (run->lb && lb_cost(run->lb)->kind != COST_UNIFORM && lb_cost(run->lb)->units > 0) /* the cost model's work */
        for (int32_t c = 0; c < m->ncells_owned; c++) {
            double x[MAX_CELL_NODES][3], centre[3];
            mesh_cell_coords(m, f->x, c, x);
            geom_centre(m->el, (const double(*)[3])x, centre);
            int cost = cell_cost(lb_cost(run->lb), centre, f->q[c], run->time);
            s->burnt += cost_burn(&s->hp.eos, cost_evaluations(lb_cost(run->lb), cost), f->rho[c], f->e[c]);
        }
    run->time += dt;
    if (s->hp.remap) {
        int steps = s->split ? dim : 1, first = (int)(run->cycle % dim);
        timers_start(&run->tm, TIMER_REMAP);
        for (int i = 0; i < steps; i++)
            remap_step(s, run, s->split ? (first + i) % dim : -1, i == steps - 1);
        flush(s);
        timers_stop(&run->tm, TIMER_REMAP);
    }

    /* dt candidate and failure flag travel in one non-blocking reduction, finished with the
     * cycle's last synchronisation */
    s->cand = -1.0;
    arena_handover(s); /* nothing after the phases reads the arena */
    if (!s->failed)
        KERNEL(s, m, K_DT, 0, m->ncells_owned, NULL,
               s->cand = lagrange_dt_candidate(m, f, &s->hp, m->ncells_owned, &s->cand_cell));
    double v[2] = {s->cand, s->failed ? -1.0 : 0.0};
    flush(s);
    reduction_start(run->comm, &s->dt_red, v, 2, 1);
    int g_cells = -1, g_nodes = -1;
    if (s->pattern == PATTERN_MINIMAL && !s->hp.remap) {
        g_cells = s->g_end_cells;
        g_nodes = s->g_end_nodes;
    } else if (s->pattern == PATTERN_MINIMAL) {
        g_cells = s->g_end2_cells;
        g_nodes = s->g_end2_nodes;
    } else if (s->hp.remap) {
        g_nodes = s->g_nmass; /* MaHyCo's last synchronisation of a cycle */
    }
    timers_start(&run->tm, TIMER_SYNC);
    if (g_cells >= 0)
        sync_start(s->g[g_cells]);
    if (g_nodes >= 0)
        sync_start(s->g[g_nodes]);
    if (g_cells >= 0)
        sync_finish(s->g[g_cells]);
    if (g_nodes >= 0)
        sync_finish(s->g[g_nodes]);
    timers_stop(&run->tm, TIMER_SYNC);
    reduce_wait(run, &s->dt_red);
    if (s->dt_red.out[1] < 0) {
        report_failure(s, run);
        return -1;
    }
    return scheme_next_dt(s, run);
}

int scheme_next_dt(struct scheme *s, struct run *run)
{
    double dt = s->dt_red.out[0];
    double grown = run->dt * s->hp.dt_growth;
    dt = dt < grown ? dt : grown;
    dt = dt < s->hp.dt_max ? dt : s->hp.dt_max;
    double left = s->hp.final_time - run->time;
    if (dt < s->hp.dt_min && left > 0) { /* before the last step is shortened to final_time */
        /* the cell that limits the step: smallest candidate, lowest rank holding it */
        double best = comm_min_double(run->comm, s->cand);
        char msg[512] = "";
        if (s->cand == best)
            snprintf(msg, sizeof msg, "rank %d: %s:%d: cycle %ld: time step %.6g below dt_min %.6g (limited by cell %lld)",
                     run->rank, __FILE__, __LINE__, run->cycle, dt, s->hp.dt_min,
                     (long long)run->mesh->cell_gid[s->cand_cell]);
        report_stop(run, s->cand == best, msg);
        return -1;
    }
    if (left > 0 && dt > left)
        dt = left; /* the last step ends exactly at final_time */
    run->dt_old = run->dt;
    run->dt = dt;
    return 0;
}

static void print_totals(struct scheme *s, struct run *run)
{
    reduce_wait(run, &s->totals);
    double mass = s->totals.out[0], energy = s->totals.out[1];
    listing_printf(run->lst, "Hydro", "Totals at cycle %ld, time %.6e: mass %.12e (drift %+.3e), energy %.12e "
                   "(drift %+.3e)", s->totals_cycle, s->totals_time, mass, (mass - s->mass0) / s->mass0, energy,
                   (energy - s->energy0) / fabs(s->energy0));
    s->totals_cycle = -1;
}

void scheme_listing(struct scheme *s, struct run *run, int final)
{
    if (final && s->totals_cycle == run->cycle) { /* the last cycle's line already started them */
        print_totals(s, run);
        return;
    }
    if (s->totals_cycle >= 0) /* started at the previous listing line */
        print_totals(s, run);
    double t[2];
    totals(s, run->mesh, t);
    reduction_start(run->comm, &s->totals, t, 2, 0);
    s->totals_cycle = run->cycle;
    s->totals_time = run->time;
    if (final)
        print_totals(s, run);
}

void scheme_totals0(const struct scheme *s, double *mass0, double *energy0)
{
    *mass0 = s->mass0;
    *energy0 = s->energy0;
}

void scheme_report(const struct scheme *s, struct run *run)
{
    long long syncs = s->syncs_done, messages = s->messages_done, bytes = s->bytes_done;
    for (int g = 0; g < s->ng; g++) {
        syncs += s->g[g]->count;
        messages += s->g[g]->messages;
        bytes += s->g[g]->bytes_sent;
    }
    long done = run->cycle - run->first_cycle + 1;
    double cycles = done > 0 ? (double)done : 1.0;
    double per[2] = {(double)messages / cycles, (double)bytes / cycles};
    struct stats st[2];
    comm_stats(run->comm, per, 2, st);
    listing_printf(run->lst, "Sync", "Synchronisations per cycle: %.1f (pattern %s, %s)", (double)syncs / cycles,
                   s->pattern == PATTERN_MAHYCO ? "mahyco" : "minimal",
                   run->cfg.sync == SYNC_BASIC ? "basic Isend/Irecv" : "persistent requests");
    listing_printf(run->lst, "Sync", "This rank sent per cycle: %.0f messages, %.0f bytes", per[0], per[1]);
    listing_printf(run->lst, "Sync", "Bytes sent per cycle over ranks: min %.0f (rank %d) avg %.0f max %.0f (rank %d)",
                   st[1].min, st[1].rank_min, st[1].avg, st[1].max, st[1].rank_max);
    if (s->kern.report && run->rank == 0) { /* HYDRO_KERNEL_REPORT: rank 0's kernels */
        FILE *out = fopen(s->kern.report, "w");
        if (!out)
            hydro_fatal(run->comm, EXIT_RUNTIME, "HYDRO_KERNEL_REPORT: cannot write '%s': %s", s->kern.report,
                        strerror(errno));
        char what[256];
        snprintf(what, sizeof what, "rank 0 of %d, %ld cycles, %s", run->size, done, s->kern.model ? "modelled" : "measured");
        kernels_write(&s->kern, out, what);
        if (fclose(out))
            hydro_fatal(run->comm, EXIT_RUNTIME, "HYDRO_KERNEL_REPORT: cannot write '%s'", s->kern.report);
        listing_printf(run->lst, "Internal", "Kernel costs of rank 0 written to %s", s->kern.report);
    }
}

double scheme_burn_seconds(struct scheme *s, long n)
{
    double t = comm_wtime();
    s->burnt += cost_burn(&s->hp.eos, n, 1.0, 2.5);
    return comm_wtime() - t;
}

void scheme_destroy(struct scheme *s)
{
    if (!s)
        return;
    reduction_finish(&s->totals);
    reduction_finish(&s->dt_red);
    scheme_detach(s);
    free(s);
}
