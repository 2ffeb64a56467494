/* The hydro case's listing lines and reports (see hydro_report.h). */
#include "hydro_report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "run.h"

/* Waiting for a reduction is communication, not compute: the load balancer must not see it. */
static void wait_totals(struct totals_report *t, struct run *run)
{
    timers_start(&run->tm, TIMER_REDUCE);
    reduction_exact_finish(&t->red, t->out);
    timers_stop(&run->tm, TIMER_REDUCE);
}

static void start_totals(struct totals_report *t, struct run *run, const struct hydro *h)
{
    struct xsum v[REDUCTION_MAX];
    hydro_totals(h, v);
    reduction_exact_start(run->comm, &t->red, v, hydro_totals_count(h));
}

void hydro_totals_initial(struct totals_report *t, struct run *run, const struct hydro *h)
{
    start_totals(t, run, h);
    wait_totals(t, run);
    t->mass0 = t->out[0];
    t->energy0 = t->out[1];
    for (int k = 0; k < t->nmat && t->nmat > 1; k++)
        t->mat0[k] = t->out[2 + k];
    t->cycle = -1;
}

/* Each material's mass, its drift from t = 0 with what the threshold removed added back (the
 * conservation check), and what was removed. */
static void print_materials(const struct totals_report *t, struct run *run)
{
    char line[1024] = "";
    for (int k = 0; k < t->nmat; k++) {
        double mk = t->out[2 + k], gone = t->out[2 + t->nmat + k];
        size_t len = strlen(line);
        if (t->mat0[k] > 0)
            snprintf(line + len, sizeof line - len, "%s%s %.12e (drift %+.3e, removed %.3e)", k ? "; " : "",
                     t->names[k], mk, (mk + gone - t->mat0[k]) / t->mat0[k], gone);
        else /* restarted from a dump without materials' diagnostics: the removed mass counted from the restart */
            snprintf(line + len, sizeof line - len, "%s%s %.12e (removed since the restart %.3e)", k ? "; " : "",
                     t->names[k], mk, gone);
    }
    listing_printf(run->lst, "Hydro", "Materials at cycle %ld: %s", t->cycle, line);
}

static void print_totals(struct totals_report *t, struct run *run)
{
    wait_totals(t, run);
    double mass = t->out[0], energy = t->out[1];
    listing_printf(run->lst, "Hydro", "Totals at cycle %ld, time %.6e: mass %.12e (drift %+.3e), energy %.12e "
                   "(drift %+.3e)", t->cycle, t->time, mass, (mass - t->mass0) / t->mass0, energy,
                   (energy - t->energy0) / fabs(t->energy0));
    if (t->nmat > 1)
        print_materials(t, run);
    t->cycle = -1;
}

void hydro_totals_listing(struct totals_report *t, struct run *run, const struct hydro *h, int final)
{
    if (final && t->cycle == run->cycle) { /* the last cycle's line already started them */
        print_totals(t, run);
        return;
    }
    if (t->cycle >= 0) /* started at the previous listing line */
        print_totals(t, run);
    start_totals(t, run, h);
    t->cycle = run->cycle;
    t->time = run->time;
    if (final)
        print_totals(t, run);
}

void hydro_totals_free(struct totals_report *t) { reduction_exact_finish(&t->red, NULL); }

void hydro_report_stop(struct run *run, int holds, const char *msg)
{
    int holder = -comm_max_int(run->comm, holds ? -run->rank : -run->size);
    char *text = comm_bcast_text(run->comm, run->rank == holder ? msg : "", holder);
    if (run->rank == 0) {
        fprintf(stderr, "hydro: %s\n", text);
        listing_printf(run->lst, "Hydro", "Stopped: %s", text);
    }
    free(text);
}

void hydro_report_failure(struct run *run, const struct hydro *h)
{
    long long gid = h->failed ? (long long)run->mesh->cell_gid[h->err.cell] : LLONG_MAX;
    long long worst = comm_min_ll(run->comm, gid);
    char msg[512] = "";
    if (gid == worst)
        snprintf(msg, sizeof msg, "rank %d: %s:%d: cycle %ld: cell %lld: %s", run->rank, h->err.file, h->err.line,
                 run->cycle, worst, h->err.what);
    hydro_report_stop(run, gid == worst, msg);
}

/* One rank's kernel costs to path. */
static void write_kernels(struct run *run, const struct kernels *k, long done, const char *path)
{
    FILE *out = fopen(path, "w");
    if (!out)
        hydro_fatal(run->comm, EXIT_RUNTIME, "HYDRO_KERNEL_REPORT: cannot write '%s': %s", path, strerror(errno));
    char what[256];
    snprintf(what, sizeof what, "rank %d of %d, %ld cycles, %s", run->rank, run->size, done,
             k->model ? "modelled" : "measured");
    kernels_write(k, out, what);
    if (fclose(out))
        hydro_fatal(run->comm, EXIT_RUNTIME, "HYDRO_KERNEL_REPORT: cannot write '%s'", path);
}

/* HYDRO_KERNEL_REPORT: rank 0's kernels to the file named; with ARCANE_PARALLEL_OUTPUT, as every
 * rank writes its own listing, every rank r also writes its own to that name followed by .r
 * (where the ranks' loads differ, which kernels differ). */
static void report_kernels(struct run *run, const struct kernels *k, long done)
{
    if (!k->report)
        return;
    if (run->rank == 0) {
        write_kernels(run, k, done, k->report);
        listing_printf(run->lst, "Internal", "Kernel costs of rank 0 written to %s", k->report);
    }
    if (!listing_parallel_output())
        return;
    char path[4096];
    if (snprintf(path, sizeof path, "%s.%d", k->report, run->rank) >= (int)sizeof path)
        hydro_fatal(run->comm, EXIT_RUNTIME, "HYDRO_KERNEL_REPORT: the name '%s' is too long", k->report);
    write_kernels(run, k, done, path);
    listing_printf(run->lst, "Internal", "Kernel costs of rank %d written to %s", run->rank, path);
}

void hydro_report(struct run *run, const struct hydro *h, const struct sync_book *b, const char *pattern,
                  const struct kernels *k)
{
    if (h->hp.remap) { /* how much of the mesh the remap computed (remap_active) */
        long long near = comm_sum_ll(run->comm, h->remap_near), owned = comm_sum_ll(run->comm, h->remap_owned);
        listing_printf(run->lst, "Hydro", "Remap: %.2f%% of the owned cells computed per step (%lld of %lld); "
                       "the others had no moving node within reach and kept their values",
                       owned > 0 ? 100.0 * (double)near / (double)owned : 0.0, near, owned);
    }
    long long syncs, messages, bytes;
    sync_book_totals(b, &syncs, &messages, &bytes);
    long done = run->cycle - run->first_cycle + 1;
    double cycles = done > 0 ? (double)done : 1.0;
    listing_printf(run->lst, "Sync", "Synchronisations per cycle: %.1f (pattern %s, %s)", (double)syncs / cycles,
                   pattern, run->cfg.sync == SYNC_BASIC ? "basic Isend/Irecv" : "persistent requests");
    sync_book_report(b, run);
    report_kernels(run, k, done);
}
