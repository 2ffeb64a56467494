/* Stop requests: SIGTERM, SIGUSR1 and the [output] walltime limit, agreed on by every rank. */
#ifndef HYDRO_STOP_H
#define HYDRO_STOP_H

#include "comm.h"

/* What the run does at the end of a cycle; a larger request includes the smaller ones. */
enum stop_request {
    STOP_NONE = 0,
    STOP_DUMP = 1,     /* SIGUSR1: write a dump now and go on */
    STOP_WALLTIME = 2, /* the walltime limit is near: dump and end (exit 0) */
    STOP_TERM = 3      /* SIGTERM: dump and end (exit 0) */
};

struct stop {
    MPI_Comm comm;
    double walltime;    /* seconds since start allowed, 0: no limit */
    double t_start;     /* timers_now() at start */
    double cycle_worst; /* slowest cycle seen (seconds), for the walltime margin */
    double dump_worst;  /* slowest dump seen (seconds) */
    struct reduction red;
};

/* Installs the SIGTERM and SIGUSR1 handlers (they only set a flag). */
void stop_create(struct stop *s, MPI_Comm comm, double walltime, double t_start);
/* End of a cycle: the request every rank agreed on from the previous call's flags (one cycle
 * of lag, so the reduction never stalls the loop), then starts reducing this call's flags.
 * cycle_s and dump_s are this cycle's seconds, for the walltime margin. */
enum stop_request stop_poll(struct stop *s, double now, double cycle_s, double dump_s);
void stop_destroy(struct stop *s);
/* The walltime rule: stop now when the elapsed seconds plus what the stop still needs (the
 * request acts a cycle later: two of the slowest cycles, 1.5 of the slowest dumps and one
 * second of slack) reach the limit. Pure, for the unit tests. */
int stop_walltime_near(double elapsed, double walltime, double cycle_worst, double dump_worst);
const char *stop_reason(enum stop_request r);

#endif
