/* Named wall-clock timers and their tables (see timers.h). */
#include "timers.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "comm.h"

static const char *const names[] = {
#define X(id, name, help) name,
    TIMER_LIST(X)
#undef X
};

double timers_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double timers_cpu(const struct timers *t)
{
#ifdef HYDRO_SMPI /* SMPI's clock_gettime is the simulated clock, whatever the clock id */
    (void)t;
    return 0;
#else
    struct timespec ts;
    if (!t->cpu || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
        return 0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

/* The timers whose CPU seconds are kept: those the load balancer takes out of a cycle's compute. */
static int cpu_timed(const struct timers *t, enum timer_id id)
{
    return t->cpu && (id == TIMER_SYNC || id == TIMER_REDUCE);
}

void timers_init(struct timers *t) { memset(t, 0, sizeof *t); }

void timers_start(struct timers *t, enum timer_id id)
{
    t->start[id] = timers_now();
    if (cpu_timed(t, id))
        t->cpu_start[id] = timers_cpu(t);
}

void timers_stop(struct timers *t, enum timer_id id)
{
    t->total[id] += timers_now() - t->start[id];
    if (cpu_timed(t, id))
        t->cpu_total[id] += timers_cpu(t) - t->cpu_start[id];
    t->calls[id]++;
}

void timers_add(struct timers *t, enum timer_id id, double seconds)
{
    t->total[id] += seconds;
    t->calls[id]++;
}

const char *timer_name(enum timer_id id) { return names[id]; }

void timers_print_help(FILE *out)
{
    static const char *const help[] = {
#define X(id, name, text) text,
        TIMER_LIST(X)
#undef X
    };
    for (int i = 0; i < TIMER_COUNT; i++)
        fprintf(out, "  %-10s %s\n", names[i], help[i]);
}

void timers_print_local(const struct timers *t, struct listing *l)
{
    listing_printf(l, "Timers", "Rank %d timers:", l->rank);
    listing_printf(l, "Timers", "  %-10s %14s %10s", "timer", "seconds", "calls");
    for (int i = 0; i < TIMER_COUNT; i++)
        listing_printf(l, "Timers", "  %-10s %14.6f %10ld", names[i], t->total[i], t->calls[i]);
}

void timers_print_global(const struct timers *t, MPI_Comm comm, struct listing *l)
{
    struct stats st[TIMER_COUNT];
    comm_stats(comm, t->total, TIMER_COUNT, st);
    if (!l)
        return;
    listing_printf(l, "Timers", "Timers over %d ranks (seconds):", comm_size(comm));
    listing_printf(l, "Timers", "  %-10s %12s %5s %12s %12s %5s", "timer", "min", "rank", "avg", "max", "rank");
    for (int i = 0; i < TIMER_COUNT; i++)
        listing_printf(l, "Timers", "  %-10s %12.6f %5d %12.6f %12.6f %5d", names[i], st[i].min, st[i].rank_min,
                       st[i].avg, st[i].max, st[i].rank_max);
}
