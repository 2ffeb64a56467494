/* HDF5 dumps: one file per dump, written collectively, ordered by global id, with XDMF sidecars. */
#ifndef HYDRO_CHECKPOINT_H
#define HYDRO_CHECKPOINT_H

#include <stddef.h>
#include <mpi.h>

#include "mesh.h"
#include "vars.h"
#include "xsum.h"

/* Layout version of the files; restart refuses other versions. */
enum { CHECKPOINT_FORMAT_VERSION = 2 }; /* 2: a crc32 attribute on every dataset */
#define CHECKPOINT_FORMAT "hydro-checkpoint"

/* The time-stepping state written as root attributes. */
enum { DUMP_MAT_MAX = 8 }; /* materials a dump's diagnostics hold (HYDRO_MAT_MAX) */

struct dump_meta {
    long cycle;
    double time, dt;
    double dt_old;         /* the step that led to this state */
    double mass0, energy0; /* totals at t = 0, for drift reports after a restart */
    int nmat;              /* > 1: each material's mass at t = 0 and the mass removed so far below the
                            * threshold (over all ranks), into /diagnostics */
    double mat_mass0[DUMP_MAT_MAX], mat_removed[DUMP_MAT_MAX];
    /* the removed masses exactly: each one's sum over the ranks, carried (xsum_carry: the one
     * representation of its value, whatever the rank count), so that a restart goes on from it */
    struct xsum mat_removed_exact[DUMP_MAT_MAX];
    char mat_names[DUMP_MAT_MAX][32]; /* the materials' names, for /materials and the XDMF file */
    const char *deck_text;    /* the resolved deck */
    const char *code_version; /* "hydro X.Y.Z (revision)" */
};

struct dump_report {
    char path[8192];
    double bytes, seconds;
};

struct checkpointer;

/* Collective. Creates the directory if needed (rank 0) and removes temporary files that an
 * interrupted run left. keep: how many of this run's dumps to keep (0: all). Returns NULL on
 * every rank on failure, with the reason in err on rank 0. */
struct checkpointer *checkpointer_create(MPI_Comm comm, const char *dir, long keep, char *err, size_t errlen);
void checkpointer_destroy(struct checkpointer *cp);

/* Collective. Writes <dir>/hydro_<cycle 6 digits>.h5 under a temporary name, closes it and
 * renames it, writes its .xmf and the run's hydro.xmf, and removes dumps beyond keep.
 * HDF5 failures end the job (exit 1); a failed rename returns -1 on every rank with the
 * reason in err on rank 0. */
int checkpoint_write(struct checkpointer *cp, const struct mesh *m, const struct registry *reg,
                     const struct dump_meta *meta, struct dump_report *rep, char *err, size_t errlen);

#endif
