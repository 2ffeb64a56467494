/* Recorded synchronisations of a case (see syncbook.h). */
#include "syncbook.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "ghostcheck.h"
#include "run.h"
#include "sync.h"

void sync_book_init(struct sync_book *b, int npoints, const char *const *names)
{
    memset(b, 0, sizeof *b);
    b->npoints = npoints;
    b->names = names;
    b->point = xcalloc((size_t)(npoints ? npoints : 1), sizeof *b->point);
    const char *env = getenv("HYDRO_CHECK_GHOSTS");
    b->check = env && !strcmp(env, "1");
    b->in_flight = -1;
}

struct sync_group *sync_book_group(struct sync_book *b, int point, struct run *run, const int *ids, int n)
{
    struct book_point *p = &b->point[point];
    if (p->ngroups == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 4;
        p->g = xrealloc(p->g, (size_t)p->cap * sizeof *p->g);
        p->lists = xrealloc(p->lists, (size_t)p->cap * sizeof *p->lists);
    }
    p->lists[p->ngroups][0] = p->lists[p->ngroups][1] = (struct item_list){NULL, 0};
    struct sync_plan *plan = run->reg.v[ids[0]].center == VAR_CELL ? &run->cell_plan : &run->node_plan;
    p->g[p->ngroups] = sync_group_create(run->comm, plan, &run->reg, ids, n,
                                         run->cfg.sync == SYNC_BASIC ? SYNC_KIND_BASIC : SYNC_KIND_PERSISTENT);
    return p->g[p->ngroups++];
}

static int item_order(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The items group g sends (sent) or receives in the layers it refreshes, each once, in increasing
 * order. */
static struct item_list group_items(const struct sync_group *g, int sent)
{
    const struct sync_plan *plan = g->plan;
    const int nb = sent ? plan->nsend : plan->nrecv;
    const int32_t *idx = sent ? plan->send_idx : plan->recv_idx, *off = sent ? plan->send_off : plan->recv_off;
    const int32_t *upto = sent ? plan->send_upto : plan->recv_upto;
    struct item_list l = {NULL, 0};
    for (int i = 0; i < nb; i++)
        l.n += upto[(size_t)i * SYNC_DEPTHS + g->depth];
    l.items = xmalloc((size_t)(l.n ? l.n : 1) * sizeof *l.items);
    l.n = 0;
    for (int i = 0; i < nb; i++)
        for (int32_t k = off[i]; k < off[i] + upto[(size_t)i * SYNC_DEPTHS + g->depth]; k++)
            l.items[l.n++] = idx[k];
    qsort(l.items, (size_t)l.n, sizeof *l.items, item_order);
    int n = 0;
    for (int k = 0; k < l.n; k++)
        if (n == 0 || l.items[k] != l.items[n - 1])
            l.items[n++] = l.items[k];
    l.n = n;
    return l;
}

void sync_book_point_items(struct sync_book *b, int point, int sent,
                           void (*fn)(void *ctx, const struct registry *reg, const int *ids, int nids,
                                      const int32_t *items, int n),
                           void *ctx)
{
    struct book_point *p = &b->point[point];
    for (int g = 0; g < p->ngroups; g++) {
        struct item_list *l = &p->lists[g][sent != 0];
        if (!l->items) /* a recorded pattern: listed once, replayed at every cycle */
            *l = group_items(p->g[g], sent);
        if (l->n > 0 && p->g[g]->nplain > 0)
            fn(ctx, p->g[g]->reg, p->g[g]->vars, p->g[g]->nplain, l->items, l->n);
    }
}

void sync_book_together(struct sync_book *b, int point, int together) { b->point[point].together = together; }

int sync_book_empty(const struct sync_book *b, int point) { return b->point[point].ngroups == 0; }

/* HYDRO_CHECK_GHOSTS: the point's ghosts against their owners' values, fetched now or, for a
 * point left in flight, when it started (fetched[g]; the owners may have changed them since). */
static void check_point(struct sync_book *b, struct run *run, const struct book_point *p, struct inbox *fetched)
{
    for (int g = 0; b->check && g < p->ngroups; g++) {
        char what[512];
        long long compared;
        if (fetched ? ghost_check_compare(run->mesh, p->g[g], &fetched[g], &compared, what, sizeof what)
                    : ghost_check_group(run->comm, run->mesh, p->g[g], &compared, what, sizeof what))
            hydro_fatal(run->comm, EXIT_RUNTIME, "HYDRO_CHECK_GHOSTS: after a synchronisation of cycle %ld, %s",
                        run->cycle, what);
        b->checked++;
        b->values += compared;
    }
}

/* Starts the point's groups, and leaves it in flight when allowed and its groups travel together;
 * otherwise finishes it. */
static void start_point(struct sync_book *b, struct run *run, int point, int allowed)
{
    struct book_point *p = &b->point[point];
    if (b->in_flight >= 0)
        hydro_fatal(run->comm, EXIT_RUNTIME, "synchronisation point %d started while %d is in flight", point,
                    b->in_flight);
    const double t0 = timers_now();
    timers_start(&run->tm, TIMER_SYNC);
    if (p->together || p->ngroups == 1) {
        for (int g = 0; g < p->ngroups; g++)
            sync_start(p->g[g]);
        if (allowed) {
            timers_stop(&run->tm, TIMER_SYNC);
            p->seconds += timers_now() - t0;
            b->in_flight = point;
            b->overlapped++;
            if (b->check) { /* what the ghosts must hold: the owners' values as sent */
                b->fetched = xrealloc(b->fetched, (size_t)p->ngroups * sizeof *b->fetched);
                for (int g = 0; g < p->ngroups; g++)
                    ghost_check_fetch(run->comm, run->mesh, p->g[g], &b->fetched[g]);
            }
            timers_start(&run->tm, TIMER_OVERLAP);
            return;
        }
        for (int g = 0; g < p->ngroups; g++)
            sync_finish(p->g[g]);
    } else {
        for (int g = 0; g < p->ngroups; g++) {
            sync_start(p->g[g]);
            sync_finish(p->g[g]);
        }
    }
    timers_stop(&run->tm, TIMER_SYNC);
    p->seconds += timers_now() - t0;
    check_point(b, run, p, NULL);
}

void sync_book_run(struct sync_book *b, struct run *run, int point)
{
    if (b->point[point].ngroups)
        start_point(b, run, point, 0);
}

void sync_book_start(struct sync_book *b, struct run *run, int point)
{
    if (b->point[point].ngroups)
        start_point(b, run, point, b->overlap);
}

void sync_book_finish(struct sync_book *b, struct run *run, int point)
{
    if (b->in_flight != point) { /* done at its start, or (a bug) another point is in flight */
        if (b->in_flight >= 0)
            hydro_fatal(run->comm, EXIT_RUNTIME, "synchronisation point %d finished while %d is in flight", point,
                        b->in_flight);
        return;
    }
    struct book_point *p = &b->point[point];
    timers_stop(&run->tm, TIMER_OVERLAP);
    double t0 = timers_now();
    timers_start(&run->tm, TIMER_SYNC);
    for (int g = 0; g < p->ngroups; g++)
        sync_finish(p->g[g]);
    timers_stop(&run->tm, TIMER_SYNC);
    b->waited += timers_now() - t0;
    p->seconds += timers_now() - t0;
    b->in_flight = -1;
    check_point(b, run, p, b->fetched);
}

/* Adds a group of material variables' statistics to t. */
static void tally_add(struct sync_tally *t, const struct sync_group *g)
{
    if (!g->nmat)
        return;
    t->syncs += g->count;
    t->messages += g->messages;
    t->bytes += g->bytes_sent;
    t->recorded += g->recorded;
    t->arcane_bytes += g->arcane_bytes;
}

void sync_book_drop(struct sync_book *b)
{
    if (b->in_flight >= 0) /* its requests and buffers are MPI's until it is finished */
        hydro_fatal(b->point[b->in_flight].g[0]->comm, EXIT_RUNTIME, "synchronisation point %d dropped in flight",
                    b->in_flight);
    for (int i = 0; i < b->npoints; i++) {
        struct book_point *p = &b->point[i];
        for (int g = 0; g < p->ngroups; g++) {
            b->syncs += p->g[g]->count;
            b->messages += p->g[g]->messages;
            b->bytes += p->g[g]->bytes_sent;
            tally_add(&b->mat, p->g[g]);
            sync_group_destroy(p->g[g]);
            free(p->lists[g][0].items), free(p->lists[g][1].items);
        }
        p->ngroups = 0;
    }
}

void sync_book_reset(struct sync_book *b)
{
    for (int i = 0; i < b->npoints; i++)
        for (int g = 0; g < b->point[i].ngroups; g++)
            b->point[i].g[g]->count = b->point[i].g[g]->messages = b->point[i].g[g]->bytes_sent =
                b->point[i].g[g]->recorded = b->point[i].g[g]->arcane_bytes = 0;
    b->syncs = b->messages = b->bytes = 0;
    memset(&b->mat, 0, sizeof b->mat);
    b->overlapped = 0;
    b->waited = 0;
    for (int i = 0; i < b->npoints; i++)
        b->point[i].seconds = 0;
}

void sync_book_totals(const struct sync_book *b, long long *syncs, long long *messages, long long *bytes)
{
    *syncs = b->syncs;
    *messages = b->messages;
    *bytes = b->bytes;
    for (int i = 0; i < b->npoints; i++)
        for (int g = 0; g < b->point[i].ngroups; g++) {
            *syncs += b->point[i].g[g]->count;
            *messages += b->point[i].g[g]->messages;
            *bytes += b->point[i].g[g]->bytes_sent;
        }
}

struct sync_tally sync_book_material(const struct sync_book *b)
{
    struct sync_tally t = b->mat;
    for (int i = 0; i < b->npoints; i++)
        for (int g = 0; g < b->point[i].ngroups; g++)
            tally_add(&t, b->point[i].g[g]);
    return t;
}

/* The seconds each rank spent in each point that synchronised anything, over ranks: a rank that
 * finished the work before a point first waits there for the others. */
static void seconds_by_point(const struct sync_book *b, struct run *run)
{
    double *sec = xmalloc((size_t)(b->npoints ? b->npoints : 1) * sizeof *sec);
    struct stats *st = xmalloc((size_t)(b->npoints ? b->npoints : 1) * sizeof *st);
    for (int i = 0; i < b->npoints; i++)
        sec[i] = b->point[i].seconds;
    comm_stats(run->comm, sec, b->npoints, st);
    for (int i = 0; i < b->npoints; i++)
        if (st[i].max > 0)
            listing_printf(run->lst, "Sync", "Point %s: seconds in it per rank min %.6f (rank %d) avg %.6f max %.6f "
                           "(rank %d)", b->names[i], st[i].min, st[i].rank_min, st[i].avg, st[i].max, st[i].rank_max);
    free(sec);
    free(st);
}

void sync_book_report(const struct sync_book *b, struct run *run)
{
    long long syncs, messages, bytes;
    sync_book_totals(b, &syncs, &messages, &bytes);
    long done = run->cycle - run->first_cycle + 1; /* cycles of this run, a restart's included */
    double cycles = done > 0 ? (double)done : 1.0;
    double per[2] = {(double)messages / cycles, (double)bytes / cycles};
    struct stats st[2];
    comm_stats(run->comm, per, 2, st);
    listing_printf(run->lst, "Sync", "This rank sent per cycle: %.0f messages, %.0f bytes", per[0], per[1]);
    listing_printf(run->lst, "Sync", "Bytes sent per cycle over ranks: min %.0f (rank %d) avg %.0f max %.0f (rank %d)",
                   st[1].min, st[1].rank_min, st[1].avg, st[1].max, st[1].rank_max);
    if (b->overlap) { /* what the exchanges left in flight cost: the rest of their time was hidden */
        double w[2] = {b->waited, run->tm.total[TIMER_OVERLAP]};
        struct stats ws[2];
        comm_stats(run->comm, w, 2, ws);
        listing_printf(run->lst, "Sync", "Overlap: %.1f exchanges per cycle left in flight over interior work; "
                       "finishing them took min %.6f avg %.6f max %.6f s (rank %d), the work meanwhile (timer "
                       "overlap) avg %.6f s", (double)b->overlapped / cycles, ws[0].min, ws[0].avg, ws[0].max,
                       ws[0].rank_max, ws[1].avg);
    }
    if (b->check)
        listing_printf(run->lst, "Sync", "HYDRO_CHECK_GHOSTS: %lld synchronisations checked, %lld ghost values "
                       "over ranks equal their owners' bit for bit", b->checked, comm_sum_ll(run->comm, b->values));
    seconds_by_point(b, run);
    struct sync_tally t = sync_book_material(b);
    if (t.syncs) /* the materials' share: messages sized by the ghosts' composition */
        listing_printf(run->lst, "Sync",
                       "Material synchronisations per cycle: %.1f; this rank sent per cycle: %.0f messages, %.0f "
                       "bytes (Arcane's packing of the same values: %.0f); send requests recorded: %lld "
                       "(at first and when a composition changed)",
                       (double)t.syncs / cycles, (double)t.messages / cycles, (double)t.bytes / cycles,
                       (double)t.arcane_bytes / cycles, t.recorded);
}

void sync_book_free(struct sync_book *b)
{
    sync_book_drop(b);
    for (int i = 0; i < b->npoints; i++)
        free(b->point[i].g), free(b->point[i].lists);
    free(b->point);
    free(b->fetched);
    memset(b, 0, sizeof *b);
}
