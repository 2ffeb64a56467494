/* Named wall-clock timers (an enum plus a name table), per-rank and cross-rank tables. */
#ifndef HYDRO_TIMERS_H
#define HYDRO_TIMERS_H

#include <mpi.h>
#include <stdio.h>

#include "listing.h"

/* Nested timers are allowed (loop contains sync); each accumulates its own time. */
#define TIMER_LIST(X)                                                                     \
    X(TIMER_INIT, "init", "prolog: everything before the time loop")                      \
    X(TIMER_MESH, "mesh", "generate or read the mesh")                                    \
    X(TIMER_PARTITION, "partition", "partition (METIS or blocks) and scatter owned cells") \
    X(TIMER_GRAPH, "graph", "inside partition: the dual graph from the cells' nodes")     \
    X(TIMER_GHOSTS, "ghosts", "ghost layers, local numbering, faces")                     \
    X(TIMER_PLANS, "plans", "build synchronisation plans and persistent requests")       \
    X(TIMER_LOOP, "loop", "time loop")                                                    \
    X(TIMER_LAGRANGE, "lagrange", "hydro: Lagrange phase (its synchronisations included)") \
    X(TIMER_REMAP, "remap", "hydro: Euler remap (its synchronisations included)")         \
    X(TIMER_EXTRA, "extra", "hydro: the cost model's extra work (loadbalance.cost), between the phases") \
    X(TIMER_SYNC, "sync", "ghost synchronisations: starting and finishing them")         \
    X(TIMER_OVERLAP, "overlap", "hydro, minimal: interior work while exchanges are in flight") \
    X(TIMER_REDUCE, "reduce", "hydro: waiting for the dt and totals reductions")          \
    X(TIMER_VERIFY, "verify", "sync_only: check ghost values")                           \
    X(TIMER_DUMP, "dump", "HDF5 dumps: reorder by global id, write, rename, XDMF")        \
    X(TIMER_RESTART, "restart", "read a dump: mesh blocks and variables")                 \
    X(TIMER_BALANCE, "balance", "load balance: measure, repartition, migrate, rebuild")

enum timer_id {
#define X(id, name, help) id,
    TIMER_LIST(X)
#undef X
        TIMER_COUNT
};

struct timers {
    double start[TIMER_COUNT];
    double total[TIMER_COUNT];
    long calls[TIMER_COUNT];
    /* with cpu set (the load balancer's measured speeds), the calling thread's CPU seconds of sync
     * and reduce; otherwise no CPU clock is read */
    int cpu;
    double cpu_start[TIMER_COUNT], cpu_total[TIMER_COUNT];
};

double timers_now(void); /* monotonic wall clock, seconds */
/* The calling thread's CPU seconds when t->cpu is set, else 0 (and always 0 in the SMPI build). */
double timers_cpu(const struct timers *t);
void timers_init(struct timers *t);
void timers_print_help(FILE *out); /* the table above, for --help */
void timers_start(struct timers *t, enum timer_id id);
void timers_stop(struct timers *t, enum timer_id id);
void timers_add(struct timers *t, enum timer_id id, double seconds); /* one call of that many seconds */
const char *timer_name(enum timer_id id);

/* This rank's table, into its own listing. */
void timers_print_local(const struct timers *t, struct listing *l);
/* Collective: min/avg/max across ranks (and where), printed into l unless it is NULL. */
void timers_print_global(const struct timers *t, MPI_Comm comm, struct listing *l);

#endif
