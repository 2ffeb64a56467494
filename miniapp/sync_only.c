/* Test case sync_only (see sync_only.h). */
#include "sync_only.h"

#include <stdio.h>
#include <stdlib.h>

#include "case.h"
#include "check.h"
#include "checkpoint.h"
#include "comm.h"
#include "run.h"
#include "syncbook.h"

struct sync_case {
    int ncell, nnode;      /* variables of each kind */
    int *vars;             /* [ncell + nnode] registry ids, cells first */
    struct sync_book book; /* one point: the cycle's synchronisations */
};

double sync_case_value(long long gid, int var, int comp, long cycle)
{
    return (double)gid * 4096.0 + (double)((cycle * 131 + var * 17 + comp) % 4096);
}

/* One group per variable, synchronised one after the other as MaHyCo does, or one per kind with
 * both in flight together (grouped). */
static void sync_attach(void *self, struct run *run)
{
    struct sync_case *sc = self;
    if (run->cfg.grouped) {
        if (sc->ncell)
            sync_book_group(&sc->book, 0, run, sc->vars, sc->ncell);
        if (sc->nnode)
            sync_book_group(&sc->book, 0, run, sc->vars + sc->ncell, sc->nnode);
    } else {
        for (int v = 0; v < sc->ncell + sc->nnode; v++)
            sync_book_group(&sc->book, 0, run, &sc->vars[v], 1);
    }
}

static void sync_detach(void *self) { sync_book_drop(&((struct sync_case *)self)->book); }

static void *sync_create(struct run *run)
{
    const struct config *cfg = &run->cfg;
    struct sync_case *sc = xcalloc(1, sizeof *sc);
    sc->ncell = (int)cfg->cell_vars;
    sc->nnode = (int)cfg->node_vars;
    int nv = sc->ncell + sc->nnode;
    sc->vars = xmalloc((size_t)(nv ? nv : 1) * sizeof *sc->vars);
    for (int v = 0; v < nv; v++) {
        char name[64];
        int cell = v < sc->ncell;
        snprintf(name, sizeof name, "sync_%s_%d", cell ? "cell" : "node", cell ? v : v - sc->ncell);
        sc->vars[v] = registry_add(&run->reg, name, cell ? VAR_CELL : VAR_NODE, (int)cfg->components,
                                   VAR_SYNC | VAR_CHECKPOINT | VAR_MIGRATE, "1");
    }
    static const char *const name[1] = {"exchange"};
    sync_book_init(&sc->book, 1, name);
    sync_book_together(&sc->book, 0, cfg->grouped);
    sync_attach(sc, run);
    run->dt = run->dt_old = 1.0; /* no physics: time counts cycles */
    return sc;
}

static void fill_owned(struct run *run, int id, int var, const int64_t *gid, int32_t nowned)
{
    struct var *v = &run->reg.v[id];
    for (int32_t i = 0; i < nowned; i++)
        for (int c = 0; c < v->ncomp; c++)
            v->data[(size_t)i * v->ncomp + c] = sync_case_value(gid[i], var, c, run->cycle);
}

static void verify(struct run *run, int id, int var, const int64_t *gid, int32_t first, int32_t n)
{
    const struct var *v = &run->reg.v[id];
    for (int32_t i = first; i < n; i++)
        for (int c = 0; c < v->ncomp; c++) {
            double want = sync_case_value(gid[i], var, c, run->cycle);
            double got = v->data[(size_t)i * v->ncomp + c];
            if (got != want)
                hydro_fatal(run->comm, EXIT_RUNTIME,
                            "cycle %ld: %s %lld of variable %s component %d holds %.17g, its owner wrote %.17g",
                            run->cycle, v->center == VAR_CELL ? "cell" : "node", (long long)gid[i], v->name, c, got,
                            want);
        }
}

static int sync_cycle(void *self, struct run *run)
{
    struct sync_case *sc = self;
    const struct mesh *m = run->mesh;
    for (int v = 0; v < sc->ncell + sc->nnode; v++) {
        if (v < sc->ncell)
            fill_owned(run, sc->vars[v], v, m->cell_gid, m->ncells_owned);
        else
            fill_owned(run, sc->vars[v], v, m->node_gid, m->nnodes_owned);
    }
    sync_book_run(&sc->book, run, 0);
    run->time += run->dt;
    if (!run->cfg.verify)
        return 0;
    timers_start(&run->tm, TIMER_VERIFY);
    for (int v = 0; v < sc->ncell + sc->nnode; v++) {
        if (v < sc->ncell)
            verify(run, sc->vars[v], v, m->cell_gid, m->ncells_owned, m->ncells);
        else
            verify(run, sc->vars[v], v, m->node_gid, m->nnodes_owned, m->nnodes);
    }
    timers_stop(&run->tm, TIMER_VERIFY);
    return 0;
}

/* After a restart: every value restored (owned and ghost) must be what its owner wrote in the
 * dumped cycle; exit 1 naming the first wrong one. */
static void sync_restored(void *self, struct run *run)
{
    const struct sync_case *sc = self;
    const struct mesh *m = run->mesh;
    if (!run->cfg.verify)
        return;
    for (int v = 0; v < sc->ncell + sc->nnode; v++) {
        if (v < sc->ncell)
            verify(run, sc->vars[v], v, m->cell_gid, 0, m->ncells);
        else
            verify(run, sc->vars[v], v, m->node_gid, 0, m->nnodes);
    }
}

static int sync_finished(const void *self, const struct run *run)
{
    (void)self;
    (void)run;
    return 0; /* max_cycles alone ends the run */
}

static void sync_listing(void *self, struct run *run)
{
    (void)self;
    (void)run;
}

static void sync_report(void *self, struct run *run)
{
    const struct sync_case *sc = self;
    long long syncs, messages, bytes;
    sync_book_totals(&sc->book, &syncs, &messages, &bytes);
    long done = run->cycle - run->first_cycle + 1; /* cycles of this run, a restart's included */
    double cycles = done > 0 ? (double)done : 1.0;
    listing_printf(run->lst, "Sync", "Synchronisations per cycle: %.0f (%s, %s)", (double)syncs / cycles,
                   run->cfg.sync == SYNC_BASIC ? "basic Isend/Irecv" : "persistent requests",
                   run->cfg.grouped ? "grouped by kind" : "one per variable");
    sync_book_report(&sc->book, run);
    listing_printf(run->lst, "Sync", "Ghost values verified: %s", run->cfg.verify ? "yes, all equal their owner's" : "no");
}

static void sync_diagnostics(const void *self, struct run *run, struct dump_meta *meta)
{
    (void)self;
    (void)run;
    meta->mass0 = meta->energy0 = 0; /* no physics */
}

static void sync_destroy(void *self)
{
    struct sync_case *sc = self;
    sync_book_free(&sc->book);
    free(sc->vars);
    free(sc);
}

const struct case_ops sync_only_ops = {
    .create = sync_create,
    .detach = sync_detach,
    .attach = sync_attach,
    .restored = sync_restored,
    .cycle = sync_cycle,
    .finished = sync_finished,
    .listing = sync_listing,
    .report = sync_report,
    .diagnostics = sync_diagnostics,
    .burn_seconds = NULL, /* no cost-model work */
    .destroy = sync_destroy,
};
