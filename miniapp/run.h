/* The run context: communicator, configuration, listing, timers, mesh and variables of one run. */
#ifndef HYDRO_RUN_H
#define HYDRO_RUN_H

#include <mpi.h>

#include "deck.h"
#include "listing.h"
#include "mesh.h"
#include "sync.h"
#include "stop.h"
#include "timers.h"
#include "vars.h"

struct case_ops;
struct loadbalance;
struct restart_file;
struct checkpointer;

struct run {
    MPI_Comm comm;
    int rank, size;
    struct config cfg;
    char *deck_path;
    char *deck_text; /* resolved deck, as --check prints it */
    struct listing *lst;
    struct timers tm;
    double t_start; /* timers_now() right after MPI_Init */
    struct mesh *mesh;
    struct sync_plan cell_plan, node_plan;
    struct registry reg;
    const struct case_ops *case_ops; /* the case the deck names (case.h) */
    void *case_self;                 /* its state */
    struct restart_file *restart; /* NULL unless started with --restart */
    struct checkpointer *dumps;   /* NULL when output.checkpoint_period = -1 */
    struct loadbalance *lb;
    long cycle;
    long first_cycle; /* 1, or the restart cycle + 1 */
    long last_dump;   /* cycle of the last dump written or read, -1 if none */
    double time, dt;
    double dt_old; /* the previous step: velocities advance by (dt_old + dt) / 2 */
    struct stop stop; /* SIGTERM, SIGUSR1, walltime */
    char dump_path[8192]; /* the last dump written */
};

/* Command line and deck (or, with --restart FILE, the deck stored in the dump). Handles
 * --help, --version and --check itself (prints and exits 0) and bad input (message from
 * rank 0, exit 2 on every rank). Returns the run to do. */
struct run *run_create(MPI_Comm comm, int argc, char **argv, double t_start);
void run_destroy(struct run *run);

/* Print msg (when not NULL or empty) on stderr as it is, then exit with status on every rank
 * without MPI_Abort: for errors all ranks know of together; only one rank passes the message. */
_Noreturn void run_exit_collective(struct run *run, int status, const char *msg);

#endif
