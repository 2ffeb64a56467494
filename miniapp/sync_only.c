/* Test case sync_only (see sync_only.h). */
#include "sync_only.h"

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "comm.h"
#include "run.h"

struct sync_case {
    int ncell, nnode; /* variables of each kind */
    int *vars;        /* [ncell + nnode] registry ids, cells first */
    int ngroups;
    struct sync_group **groups;
    long long syncs_done, messages_done, bytes_done; /* of groups dropped by rebalances */
};

double sync_case_value(long long gid, int var, int comp, long cycle)
{
    return (double)gid * 4096.0 + (double)((cycle * 131 + var * 17 + comp) % 4096);
}

struct sync_case *sync_case_create(struct run *run)
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
                                   VAR_SYNC | VAR_CHECKPOINT, "1");
    }
    sc->groups = xmalloc((size_t)(nv ? nv : 1) * sizeof *sc->groups);
    sync_case_attach(sc, run);
    return sc;
}

void sync_case_detach(struct sync_case *sc)
{
    for (int g = 0; g < sc->ngroups; g++) {
        sc->syncs_done += sc->groups[g]->count;
        sc->messages_done += sc->groups[g]->messages;
        sc->bytes_done += sc->groups[g]->bytes_sent;
        sync_group_destroy(sc->groups[g]);
    }
    sc->ngroups = 0;
}

void sync_case_attach(struct sync_case *sc, struct run *run)
{
    const struct config *cfg = &run->cfg;
    int nv = sc->ncell + sc->nnode;
    enum sync_kind kind = cfg->sync == SYNC_BASIC ? SYNC_KIND_BASIC : SYNC_KIND_PERSISTENT;
    if (cfg->grouped) {
        if (sc->ncell)
            sc->groups[sc->ngroups++] =
                sync_group_create(run->comm, &run->cell_plan, &run->reg, sc->vars, sc->ncell, kind);
        if (sc->nnode)
            sc->groups[sc->ngroups++] =
                sync_group_create(run->comm, &run->node_plan, &run->reg, sc->vars + sc->ncell, sc->nnode, kind);
    } else {
        for (int v = 0; v < nv; v++)
            sc->groups[sc->ngroups++] = sync_group_create(
                run->comm, v < sc->ncell ? &run->cell_plan : &run->node_plan, &run->reg, &sc->vars[v], 1, kind);
    }
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

void sync_case_cycle(struct sync_case *sc, struct run *run)
{
    const struct mesh *m = run->mesh;
    for (int v = 0; v < sc->ncell + sc->nnode; v++) {
        if (v < sc->ncell)
            fill_owned(run, sc->vars[v], v, m->cell_gid, m->ncells_owned);
        else
            fill_owned(run, sc->vars[v], v, m->node_gid, m->nnodes_owned);
    }
    timers_start(&run->tm, TIMER_SYNC);
    if (run->cfg.grouped) { /* both kinds in flight together */
        for (int g = 0; g < sc->ngroups; g++)
            sync_start(sc->groups[g]);
        for (int g = 0; g < sc->ngroups; g++)
            sync_finish(sc->groups[g]);
    } else { /* one after the other, as MaHyCo does */
        for (int g = 0; g < sc->ngroups; g++) {
            sync_start(sc->groups[g]);
            sync_finish(sc->groups[g]);
        }
    }
    timers_stop(&run->tm, TIMER_SYNC);
    if (!run->cfg.verify)
        return;
    timers_start(&run->tm, TIMER_VERIFY);
    for (int v = 0; v < sc->ncell + sc->nnode; v++) {
        if (v < sc->ncell)
            verify(run, sc->vars[v], v, m->cell_gid, m->ncells_owned, m->ncells);
        else
            verify(run, sc->vars[v], v, m->node_gid, m->nnodes_owned, m->nnodes);
    }
    timers_stop(&run->tm, TIMER_VERIFY);
}

void sync_case_check_restart(const struct sync_case *sc, struct run *run)
{
    const struct mesh *m = run->mesh;
    for (int v = 0; v < sc->ncell + sc->nnode; v++) {
        if (v < sc->ncell)
            verify(run, sc->vars[v], v, m->cell_gid, 0, m->ncells);
        else
            verify(run, sc->vars[v], v, m->node_gid, 0, m->nnodes);
    }
}

void sync_case_report(const struct sync_case *sc, struct run *run)
{
    long long syncs = sc->syncs_done, messages = sc->messages_done, bytes = sc->bytes_done;
    for (int g = 0; g < sc->ngroups; g++) {
        syncs += sc->groups[g]->count;
        messages += sc->groups[g]->messages;
        bytes += sc->groups[g]->bytes_sent;
    }
    long done = run->cycle - run->first_cycle + 1; /* cycles of this run, a restart's included */
    double cycles = done > 0 ? (double)done : 1.0;
    double per[2] = {(double)messages / cycles, (double)bytes / cycles};
    struct stats st[2];
    comm_stats(run->comm, per, 2, st);
    listing_printf(run->lst, "Sync", "Synchronisations per cycle: %.0f (%s, %s)", (double)syncs / cycles,
                   run->cfg.sync == SYNC_BASIC ? "basic Isend/Irecv" : "persistent requests",
                   run->cfg.grouped ? "grouped by kind" : "one per variable");
    listing_printf(run->lst, "Sync", "This rank sent per cycle: %.0f messages, %.0f bytes", per[0], per[1]);
    listing_printf(run->lst, "Sync", "Bytes sent per cycle over ranks: min %.0f (rank %d) avg %.0f max %.0f (rank %d)",
                   st[1].min, st[1].rank_min, st[1].avg, st[1].max, st[1].rank_max);
    listing_printf(run->lst, "Sync", "Ghost values verified: %s", run->cfg.verify ? "yes, all equal their owner's" : "no");
}

void sync_case_destroy(struct sync_case *sc)
{
    if (!sc)
        return;
    sync_case_detach(sc);
    free(sc->groups);
    free(sc->vars);
    free(sc);
}
