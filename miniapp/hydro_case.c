/* The hydro cases behind the case interface: the cycle of physics/cycle.c with the halo operations
 * it calls (synchronisation points, the dt reduction, timers, kernel accounting, the cost burn). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "check.h"
#include "checkpoint.h"
#include "comm.h"
#include "cost.h"
#include "hydro_fields.h"
#include "hydro_params.h"
#include "hydro_report.h"
#include "kernels.h"
#include "lagrange.h"
#include "loadbalance.h"
#include "restart.h"
#include "run.h"
#include "sync_points.h"
#include "timestep.h"

_Static_assert(HYDRO_MAT_MAX <= DUMP_MAT_MAX, "a dump's diagnostics hold every material");
_Static_assert(HYDRO_MAT_MAX <= MATSTORE_MAX, "the matstore holds every material");

struct scheme {
    struct hydro h;
    struct case_params cp;
    int pattern;
    int id[F_COUNT];        /* registry ids of the fields */
    struct sync_book book;  /* the pattern's recorded synchronisations */
    struct kernels kern;    /* per-kernel work and seconds; the SMPI compute model */
    struct reduction dt_red;
    struct totals_report totals;
    struct run *run;        /* of the cycle under way (the halo operations' context) */
    volatile double burnt;  /* the cost model's extra work lands here so that it is done */
};

/* ---- the halo operations of the cycle (struct cycle_ops) ---- */

/* The cycle's synchronisation points by name, for the listing. */
static const char *const point_names[SP_COUNT] = {
#define X(id, name, help) [id] = name,
    SYNC_POINT_LIST(X)
#undef X
};

/* Point p's synchronisation through fn (whole, start or finish). The compute done since the last
 * communication is charged first: before a start, and before a finish's wait, which the work since
 * the start then overlaps (SMPI). A point of no group costs nothing. */
static void book_op(void *ctx, enum sync_point p, void (*fn)(struct sync_book *, struct run *, int))
{
    struct scheme *s = ctx;
    if (sync_book_empty(&s->book, p))
        return;
    kernels_flush(&s->kern);
    fn(&s->book, s->run, p);
}

static void op_sync(void *ctx, enum sync_point p) { book_op(ctx, p, sync_book_run); }
static void op_device_point(void *ctx, enum sync_point p, int back);
static void op_sync_start(void *ctx, enum sync_point p) { book_op(ctx, p, sync_book_start); }

static void op_sync_finish(void *ctx, enum sync_point p)
{
    struct scheme *s = ctx;
    const int flying = s->book.in_flight == (int)p;
    book_op(ctx, p, sync_book_finish);
    if (flying && s->h.dev.current) /* its ghosts arrived only now: over to the accelerator */
        op_device_point(ctx, p, 0);
}

static void op_reduce_start(void *ctx, const double v[3])
{
    struct scheme *s = ctx;
    kernels_flush(&s->kern);
    reduction_start(s->run->comm, &s->dt_red, v, 3, 1);
}

/* Waiting for a reduction is communication, not compute: the load balancer must not see it. */
static void op_reduce_finish(void *ctx, double out[3])
{
    struct scheme *s = ctx;
    timers_start(&s->run->tm, TIMER_REDUCE);
    reduction_finish(&s->dt_red);
    timers_stop(&s->run->tm, TIMER_REDUCE);
    for (int i = 0; i < 3; i++)
        out[i] = s->dt_red.out[i];
}

static void op_phase(void *ctx, enum cycle_phase ph, int begin)
{
    struct scheme *s = ctx;
    enum timer_id t = ph == PHASE_LAGRANGE ? TIMER_LAGRANGE : TIMER_REMAP;
    if (begin) {
        timers_start(&s->run->tm, t);
        return;
    }
    kernels_flush(&s->kern);
    timers_stop(&s->run->tm, t);
}

static void op_kernel_begin(void *ctx) { kernels_begin(&((struct scheme *)ctx)->kern); }

static void op_kernel_end(void *ctx, enum kernel k, enum kernel_part part)
{
    struct scheme *s = ctx;
    kernels_stop(&s->kern);
    if (k == K_R_TARGETS) /* the remap kernels' active items, from the targets just chosen */
        kernels_count_active(&s->kern, s->h.m, s->h.rw.moved);
    const struct item_split *sp = hydro_split(&s->h, k);
    if (part == PART_ALL || !sp) {
        kernels_account(&s->kern, s->h.m, k, s->h.n[k]);
        return;
    }
    /* one call in two parts: each charges its share of the items (the model's time is the whole
     * call's, spread evenly), and the call is counted once */
    double share = sp->n ? (part == PART_INNER ? sp->ninner : sp->n - sp->ninner) / (double)sp->n : 0;
    kernels_account_part(&s->kern, s->h.m, k, s->h.n[k], share, part == PART_OUTER);
}

/* The cost model's extra work (loadbalance.cost): costly cells compute more, for real. */
static void op_after_lagrange(void *ctx)
{
    struct scheme *s = ctx;
    struct run *run = s->run;
    const struct cost_params *cp = run->lb ? lb_cost(run->lb) : NULL;
    if (!cp || cp->kind == COST_UNIFORM || cp->units <= 0)
        return;
    const struct hydro_fields *f = &s->h.f;
    if (s->h.dev.current) { /* it reads these on the host: their latest values back from the accelerator */
        const size_t nc = (size_t)run->mesh->ncells * sizeof(double);
        device_array(&s->h.dev, f->x, 3 * (size_t)run->mesh->nnodes * sizeof(double), 1);
        device_array(&s->h.dev, f->q, nc, 1);
        device_array(&s->h.dev, f->rho, nc, 1);
        device_array(&s->h.dev, f->e, nc, 1);
    }
    timers_start(&run->tm, TIMER_EXTRA);
    s->burnt += cost_burn_cells(cp, &s->h.hp.eos[0], run->mesh, f->x, f->q, f->rho, f->e, run->time,
                                run->mesh->ncells_owned);
    timers_stop(&run->tm, TIMER_EXTRA);
}

/* The copies of the point's variables' values (the registry's, through the recorded groups). */
struct point_copy {
    struct device_copy *dev;
    enum device_move how;
    MPI_Comm comm;
    long long differ; /* DEVICE_COMPARE's count */
};

/* A group's variables' values of its items, in one piece (one per DEVICE_STAGE_VARS variables). */
static void copy_items(void *ctx, const struct registry *reg, const int *ids, int nids, const int32_t *items, int n)
{
    struct point_copy *pc = ctx;
    struct device_var a[DEVICE_STAGE_VARS];
    for (int first = 0; first < nids; first += DEVICE_STAGE_VARS) {
        int na = 0;
        for (int k = first; k < nids && k < first + DEVICE_STAGE_VARS; k++)
            a[na++] = (struct device_var){reg->v[ids[k]].data, reg->v[ids[k]].stride, reg->v[ids[k]].ncomp};
        if (device_items(pc->dev, a, na, items, n, pc->how, &pc->differ))
            hydro_fatal(pc->comm, EXIT_RUNTIME, "offload: the accelerator has no room for the %d items' values a "
                        "synchronisation %s, or their copy failed", n, pc->how == DEVICE_BACK ? "sends" : "receives");
    }
}

/* Back: the values the point sends; over: the ghosts it wrote (only those items, in one piece),
 * with HYDRO_CHECK_GHOSTS=1 then read there again and compared with the host's. */
static void op_device_point(void *ctx, enum sync_point p, int back)
{
    struct scheme *s = ctx;
    if (!back && s->book.in_flight == (int)p) /* its ghosts have not arrived: op_sync_finish */
        return;
    struct point_copy pc = {&s->h.dev, back ? DEVICE_BACK : DEVICE_OVER, s->run->comm, 0};
    sync_book_point_items(&s->book, p, back, copy_items, &pc);
    if (back || !s->book.check)
        return;
    pc.how = DEVICE_COMPARE;
    sync_book_point_items(&s->book, p, 0, copy_items, &pc);
    if (pc.differ)
        hydro_fatal(s->run->comm, EXIT_RUNTIME, "HYDRO_CHECK_GHOSTS: after synchronisation point %s of cycle %ld, "
                    "%lld ghost values on the accelerator differ from the host's", point_names[p], s->run->cycle,
                    pc.differ);
}

static const struct cycle_ops halo_ops = {
    .sync = op_sync,
    .sync_start = op_sync_start,
    .sync_finish = op_sync_finish,
    .reduce_start = op_reduce_start,
    .reduce_finish = op_reduce_finish,
    .phase = op_phase,
    .kernel_begin = op_kernel_begin,
    .kernel_end = op_kernel_end,
    .after_lagrange = op_after_lagrange,
    .device_point = op_device_point,
};

/* ---- the case interface ---- */

static void hydro_attach(void *self, struct run *run)
{
    struct scheme *s = self;
    struct mesh *m = run->mesh;
    s->h.m = m;
    const char *bad = s->h.hp.remap ? sync_points_check(s->pattern, s->h.hp.nmat, m->nlayers) : NULL;
    if (bad) /* the same tables on every rank: every rank stops here */
        hydro_fatal(run->comm, EXIT_RUNTIME, "sync pattern %s: %s", sync_points_name(s->pattern), bad);
    sync_points_ranges(s->pattern, s->h.hp.nmat, m, s->h.n);
    hydro_splits_build(&s->h, s->book.overlap);
    hydro_fields_attach(&s->h, &run->reg, s->id);
    kernels_attach(&s->kern, m, s->h.hp.remap);
    /* walls from where the remap returns (or from the current boundary without remap) */
    walls_build(m, s->h.hp.remap ? s->h.f.x_init : s->h.f.x, m->node_layer_start[m->nlayers], &s->h.walls);
    sync_points_record(&s->book, run, s->pattern, s->h.hp.remap, s->id); /* the same order on every rank */
    device_attach(&s->h.dev, &s->h);
    /* rather than a run on the host unasked; decided together (every rank of the offload build, whatever
     * its environment), so that rank 0 speaks for all */
    if (device_built() && comm_max_int(run->comm, device_mandatory() && !s->h.dev.on))
        hydro_fatal_shared_at(run->comm, EXIT_RUNTIME, __FILE__, __LINE__, "OMP_TARGET_OFFLOAD=MANDATORY, and the "
                              "offload build finds no accelerator on %s (omp_get_num_devices() is 0): unset it to "
                              "run every kernel on the host", s->h.dev.on ? "some rank" : "this rank");
}

static void hydro_detach(void *self)
{
    struct scheme *s = self;
    hydro_to_host(&s->h); /* the load balancer migrates them */
    device_detach(&s->h.dev); /* before the groups go: its item lists' copies are theirs */
    sync_book_drop(&s->book);
    walls_free(&s->h.walls);
    hydro_splits_free(&s->h);
    hydro_fields_detach(&s->h);
    kernels_detach(&s->kern);
}

static void init_kernels(struct scheme *s, struct run *run)
{
#ifdef HYDRO_SMPI
    const int smpi = 1;
#else
    const int smpi = 0;
#endif
    char why[1024];
    if (kernels_init(&s->kern, run->mesh->el->dim, smpi, why, sizeof why))
        run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? why : NULL);
    if (lb_repartitions(&run->cfg)) /* the cost model counts active cells */
        kernels_track(&s->kern);
    if (s->kern.model)
        listing_printf(run->lst, "Internal", "SMPI compute model %s: each physics kernel costs a x items + b x "
                       "active items, owned items x %g, ghost items x %g; the host's measured time is not counted",
                       getenv("HYDRO_COMPUTE_MODEL"), s->kern.scale_own, s->kern.scale_ghost);
}

/* The case's initial state, on every local item, and its totals at t = 0. */
static void initial_state(struct scheme *s, struct run *run)
{
    struct mesh *m = run->mesh;
    struct hydro_error err;
    int bad = case_init(&s->cp, &s->h.hp, m, &s->h.f, m->ncells, m->nnodes, &err) != 0;
    lagrange_node_mass(m, &s->h.f, m->node_layer_start[m->nlayers]);
    if (comm_max_int(run->comm, bad))
        run_exit_collective(run, EXIT_BADINPUT, run->rank == 0 ? "the initial state has no sound speed "
                                                                 "(check the equation of state)" : NULL);
    s->run = run;
    op_sync(s, SP_INIT);        /* ghosts hold their owners' values from the start */
    sync_book_reset(&s->book); /* the listing counts the time loop's synchronisations */
    hydro_totals_initial(&s->totals, run, &s->h);
}

static void *hydro_create(struct run *run)
{
    struct scheme *s = xcalloc(1, sizeof *s);
    hydro_params_from_deck(run, &s->h.hp, &s->cp);
    s->pattern = run->cfg.sync_pattern;
    s->h.split = run->cfg.remap_split;
    const char *all = getenv("HYDRO_REMAP_ALL");
    s->h.remap_all = all && strcmp(all, "0") != 0;
    s->totals.nmat = s->h.hp.nmat;
    for (int k = 0; k < run->cfg.nmat; k++)
        snprintf(s->totals.names[k], sizeof s->totals.names[k], "%s", run->cfg.mat[k].name);
    hydro_fields_register(&run->reg, s->h.hp.remap, s->h.hp.nmat, run->mesh->node_xyz, s->id);
    init_kernels(s, run);
    sync_book_init(&s->book, SP_COUNT, point_names);
    s->book.overlap = run->cfg.overlap && sync_points_overlap(s->pattern);
    hydro_attach(s, run);
    struct mesh *m = run->mesh;
    memcpy(s->h.f.x_init, s->h.f.x, (size_t)m->nnodes * 3 * sizeof *s->h.f.x);
    walls_free(&s->h.walls); /* now from the initial positions */
    walls_build(m, s->h.f.x, m->node_layer_start[m->nlayers], &s->h.walls);
    device_walls(&s->h.dev, &s->h.walls);
    if (s->h.dev.on)
        listing_printf(run->lst, "Internal", "Offload: the kernels of the cycle on accelerator %d (OpenMP target "
                       "offload), the fields kept there between cycles (back when the host reads them), and "
                       "around each synchronisation what it sends and receives; on the host the synchronisations "
                       "and %s",
                       s->h.dev.device,
                       s->h.hp.nmat > 1 ? "the materials' save, cells and remap (the material store)"
                                        : "nothing else");
    else if (device_built())
        listing_printf(run->lst, "Internal", "Offload build: no accelerator found, every kernel on the host");
    /* the first step obeys dt_max and final_time too */
    const struct hydro_params *hp = &s->h.hp;
    run->dt = run->dt_old = timestep_first(hp->dt_init, hp->dt_max, hp->final_time);
    if (!run->restart)
        initial_state(s, run);
    s->totals.cycle = -1;
    return s;
}

static void hydro_restored(void *self, struct run *run)
{
    struct scheme *s = self;
    struct mesh *m = run->mesh;
    struct hydro_fields *f = &s->h.f;
    memcpy(f->x_init, f->x, (size_t)m->nnodes * 3 * sizeof *f->x);
    lagrange_geometry(m, f, m->ncells);
    for (int32_t c = 0; c < m->ncells; c++) {
        double xc[MAX_CELL_NODES][3];
        mesh_cell_coords(m, f->x, c, xc);
        f->len[c] = geom_length(m->el, (const double(*)[3])xc, f->vol[c], s->h.hp.length);
    }
    s->totals.mass0 = run->restart->mass0;
    s->totals.energy0 = run->restart->energy0;
    for (int k = 0; k < run->restart->nmat && run->restart->nmat == s->h.hp.nmat; k++) {
        s->totals.mat0[k] = run->restart->mat_mass0[k];
        xsum_init(&s->h.removed[k]); /* summed over the ranks: the dump's total on rank 0, exact */
        if (run->rank == 0 && run->restart->removed_exact)
            s->h.removed[k] = run->restart->mat_removed_exact[k];
        else if (run->rank == 0) /* a dump before the exact sums: its rounded total */
            xsum_add(&s->h.removed[k], run->restart->mat_removed[k]);
    }
}

/* The next time step from the reduced candidate and the cycle's largest relative density
 * change: sets run->dt and run->dt_old; -1 when MaHyCo's falls below dt_min (reported on rank 0,
 * naming the limiting cell). MicroHydro's previous step is the one it computed last: none
 * before the first cycle (its global step starts at 0, so the second step is dt_min). */
static int next_dt(struct scheme *s, struct run *run, double cand, double change)
{
    const struct hydro_params *hp = &s->h.hp;
    double left = hp->final_time - run->time;
    if (hp->dt_control == DT_MICROHYDRO) {
        double prev = run->cycle == 1 ? 0.0 : run->dt;
        run->dt_old = prev;
        run->dt = timestep_microhydro(hp, cand, prev, change, left);
        return 0;
    }
    double dt = timestep_mahyco(hp, cand, run->dt);
    if (dt < hp->dt_min && left > 0) { /* before the last step is shortened to final_time */
        /* the cell that limits the step: smallest candidate, lowest rank holding it */
        double best = comm_min_double(run->comm, s->h.cand);
        char msg[512] = "";
        if (s->h.cand == best)
            snprintf(msg, sizeof msg, "rank %d: %s:%d: cycle %ld: time step %.6g below dt_min %.6g (limited by cell %lld)",
                     run->rank, __FILE__, __LINE__, run->cycle, dt, hp->dt_min,
                     (long long)run->mesh->cell_gid[s->h.cand_cell]);
        hydro_report_stop(run, s->h.cand == best, msg);
        return -1;
    }
    run->dt_old = run->dt;
    run->dt = timestep_last(dt, left);
    return 0;
}

static int hydro_cycle_op(void *self, struct run *run)
{
    struct scheme *s = self;
    struct mesh *m = run->mesh;
    if (run->cycle == run->cfg.test_nan_cycle) { /* [run] test_nan_*: for tests of the failure path only */
        hydro_to_host_for_writing(&s->h);
        for (int32_t c = 0; c < m->ncells_owned; c++)
            if (m->cell_gid[c] == run->cfg.test_nan_cell)
                s->h.f.e[c] = NAN;
    }
    s->run = run;
    struct cycle_ops ops = halo_ops;
    ops.ctx = s;
    double out[3];
    hydro_cycle(&s->h, &ops, run->cycle, run->dt, run->dt_old, out);
    /* MicroHydro's time counts from its second step */
    run->time += s->h.hp.dt_control == DT_MICROHYDRO && run->cycle == 1 ? 0.0 : run->dt;
    if (out[1] < 0) {
        hydro_report_failure(run, &s->h);
        return -1;
    }
    return next_dt(s, run, out[0], -out[2]); /* out[2]: minus the largest density change */
}

static int hydro_finished(const void *self, const struct run *run)
{
    (void)self;
    return run->time >= run->cfg.final_time;
}

static void hydro_listing(void *self, struct run *run)
{
    struct scheme *s = self;
    hydro_to_host(&s->h);
    hydro_totals_listing(&s->totals, run, &s->h, 0);
}

static void hydro_report_op(void *self, struct run *run)
{
    struct scheme *s = self;
    hydro_to_host(&s->h);
    hydro_totals_listing(&s->totals, run, &s->h, 1);
    hydro_report(run, &s->h, &s->book, sync_points_name(s->pattern), &s->kern);
    const long done = run->cycle - run->first_cycle + 1;
    const double cycles = done > 0 ? (double)done : 1.0;
    if (s->h.dev.on)
        listing_printf(run->lst, "Internal", "Offload: this rank copied %.3f MB per cycle to accelerator %d and "
                       "%.3f MB back",
                       s->h.dev.bytes_to / cycles / 1e6, s->h.dev.device, s->h.dev.bytes_from / cycles / 1e6);
}

static void hydro_to_host_op(void *self)
{
    struct scheme *s = self;
    hydro_to_host(&s->h);
}

static void hydro_diagnostics(const void *self, struct run *run, struct dump_meta *meta)
{
    const struct scheme *s = self;
    meta->mass0 = s->totals.mass0;
    meta->energy0 = s->totals.energy0;
    meta->nmat = s->h.hp.nmat;
    if (meta->nmat < 2)
        return;
    for (int k = 0; k < meta->nmat; k++) {
        meta->mat_mass0[k] = s->totals.mat0[k];
        snprintf(meta->mat_names[k], sizeof meta->mat_names[k], "%s", run->cfg.mat[k].name);
    }
    comm_sum_xsums(run->comm, s->h.removed, meta->nmat, meta->mat_removed_exact); /* what left the cells, over the ranks */
    for (int k = 0; k < meta->nmat; k++)
        meta->mat_removed[k] = xsum_round(&meta->mat_removed_exact[k]);
}

static double hydro_burn_seconds(void *self, long n)
{
    struct scheme *s = self;
    double t = comm_wtime();
    s->burnt += cost_burn(&s->h.hp.eos[0], n, 1.0, 2.5);
    return comm_wtime() - t;
}

static double hydro_active_work(void *self, struct run *run, long cycles, double *extra, double *lagrange_share,
                                double *spread)
{
    struct scheme *s = self;
    struct kernel_sums all[K_COUNT]; /* every rank's calls in one fit: one model for every rank, */
    double v[K_COUNT][KERNEL_SUMS_FIELDS], *field[KERNEL_SUMS_FIELDS]; /* a rank without cells included */
    memcpy(all, s->kern.sums, sizeof all);
    for (int i = 0; i < K_COUNT; i++) {
        kernel_sums_fields(&all[i], field);
        for (int f = 0; f < KERNEL_SUMS_FIELDS; f++)
            v[i][f] = *field[f];
    }
    comm_sum_doubles(run->comm, &v[0][0], K_COUNT * KERNEL_SUMS_FIELDS);
    for (int i = 0; i < K_COUNT; i++) {
        kernel_sums_fields(&all[i], field);
        for (int f = 0; f < KERNEL_SUMS_FIELDS; f++)
            *field[f] = v[i][f];
    }
    double ratio = kernels_active_ratio(all, lagrange_share);
    const struct mesh *m = run->mesh;
    uint32_t *steps = s->kern.cell_steps;
    for (int32_t c = 0; c < m->ncells_owned; c++)
        extra[c] = steps && cycles > 0 ? ratio * steps[c] / (double)cycles : 0;
    if (steps)
        memset(steps, 0, (size_t)m->ncells_owned * sizeof *steps);
    /* dt = cfl min L / (c + |v|): no wave crosses more than cfl of a cell per cycle; MicroHydro's
     * control (cfl min L / c) lets one cross more, as the step the flow would allow tells */
    struct hydro_params flow = s->h.hp;
    flow.dt_control = DT_MAHYCO;
    int32_t at;
    double with_flow = comm_min_double(run->comm, lagrange_dt_candidate(m, &s->h.f, &flow, m->ncells_owned, &at));
    *spread = fmax(flow.cfl, flow.cfl * run->dt / with_flow);
    return ratio;
}

static void hydro_destroy(void *self)
{
    struct scheme *s = self;
    hydro_totals_free(&s->totals);
    reduction_finish(&s->dt_red);
    hydro_detach(s);
    sync_book_free(&s->book);
    free(s);
}

const struct case_ops hydro_case_ops = {
    .create = hydro_create,
    .detach = hydro_detach,
    .attach = hydro_attach,
    .restored = hydro_restored,
    .cycle = hydro_cycle_op,
    .finished = hydro_finished,
    .listing = hydro_listing,
    .report = hydro_report_op,
    .diagnostics = hydro_diagnostics,
    .burn_seconds = hydro_burn_seconds,
    .active_work = hydro_active_work,
    .to_host = hydro_to_host_op,
    .destroy = hydro_destroy,
};
