/* What the hydro case reports: totals of mass and energy (their reduction overlapped with the
 * next period), its synchronisations, its kernels' costs. */
#ifndef HYDRO_HYDRO_REPORT_H
#define HYDRO_HYDRO_REPORT_H

#include "comm.h"
#include "cycle.h"
#include "kernels.h"
#include "syncbook.h"

struct run;

struct totals_report {
    struct reduction_exact red; /* the totals of cycle `cycle`, in flight when cycle >= 0 */
    double out[REDUCTION_MAX];  /* its result, once finished */
    long cycle;
    double time;
    double mass0, energy0; /* at t = 0: the drift's reference */
    int nmat;              /* > 1: each material's mass is reported too */
    double mat0[HYDRO_MAT_MAX]; /* each material's mass at t = 0 (from the dump after a restart; 0 when
                                 * it has none: no drift shown, the removed mass counted from the restart) */
    char names[HYDRO_MAT_MAX][32];
};

/* The totals at t = 0 (collective, blocking). */
void hydro_totals_initial(struct totals_report *t, struct run *run, const struct hydro *h);
/* At a listing period: starts this cycle's totals and prints the previous period's (a period
 * late, so that the listing never waits for a reduction). final: at the end, printed at once. */
void hydro_totals_listing(struct totals_report *t, struct run *run, const struct hydro *h, int final);
void hydro_totals_free(struct totals_report *t);

/* Collective, after the cycle's reduction reported a failure (out[1] < 0): rank 0 prints the
 * smallest failing cell, the rank holding it and the check that found it. */
void hydro_report_failure(struct run *run, const struct hydro *h);
/* Collective: the lowest rank with holds != 0 names why the run stops in msg (the form of
 * hydro_fatal's line: rank, check, cause); rank 0 prints it on stderr and in the listing. */
void hydro_report_stop(struct run *run, int holds, const char *msg);

/* Synchronisations per cycle, messages and bytes; with HYDRO_KERNEL_REPORT, rank 0 writes its
 * kernels' costs. Collective. */
void hydro_report(struct run *run, const struct hydro *h, const struct sync_book *b, const char *pattern,
                  const struct kernels *k);

#endif
