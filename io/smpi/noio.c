/* The SMPI (SimGrid) build's io/: no HDF5, so dumps and restarts are refused with a clear error. */
#ifndef HYDRO_SMPI
#error "io/smpi/noio.c replaces io/*.c in the SMPI build only (make smpi defines HYDRO_SMPI)"
#endif

#include <stdio.h>
#include <string.h>

#include "checkpoint.h"
#include "comm.h"
#include "restart.h"

/* The deck check in run_create refuses dumps first (exit 2); these keep the link complete and
 * fail cleanly should a caller get here anyway. */
static void no_hdf5(MPI_Comm comm, const char *what, char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    if (comm_rank(comm) == 0 && errlen)
        snprintf(err, errlen, "hydro: %s: this SMPI (SimGrid) build has no HDF5 output (build/hydro has it)", what);
}

struct checkpointer *checkpointer_create(MPI_Comm comm, const char *dir, long keep, char *err, size_t errlen)
{
    (void)dir;
    (void)keep;
    no_hdf5(comm, "dumps (set output.checkpoint_period = -1)", err, errlen);
    return NULL;
}

void checkpointer_destroy(struct checkpointer *cp) { (void)cp; }

int checkpoint_write(struct checkpointer *cp, const struct mesh *m, const struct registry *reg,
                     const struct dump_meta *meta, struct dump_report *rep, char *err, size_t errlen)
{
    (void)cp;
    (void)m;
    (void)reg;
    (void)meta;
    memset(rep, 0, sizeof *rep);
    snprintf(err, errlen, "hydro: dumps: this SMPI (SimGrid) build has no HDF5 output");
    return -1;
}

int restart_open(MPI_Comm comm, const char *path, struct restart_file *rf, char *err, size_t errlen)
{
    memset(rf, 0, sizeof *rf);
    snprintf(rf->path, sizeof rf->path, "%s", path);
    no_hdf5(comm, "--restart", err, errlen);
    return -1;
}

void restart_close(struct restart_file *rf) { (void)rf; }

int restart_read_cells(MPI_Comm comm, const struct restart_file *rf, struct cellset *block, char *err,
                       size_t errlen)
{
    (void)rf;
    (void)block;
    no_hdf5(comm, "--restart", err, errlen);
    return -1;
}

int restart_read_vars(MPI_Comm comm, const struct restart_file *rf, const struct mesh *m, struct registry *reg,
                      char *err, size_t errlen)
{
    (void)rf;
    (void)m;
    (void)reg;
    no_hdf5(comm, "--restart", err, errlen);
    return -1;
}
