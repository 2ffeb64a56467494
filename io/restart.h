/* Restart from an HDF5 dump on any number of ranks: validation, mesh by gid blocks, variables. */
#ifndef HYDRO_RESTART_H
#define HYDRO_RESTART_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

#include "cellset.h"
#include "checkpoint.h"
#include "mesh.h"
#include "vars.h"

struct restart_var {
    char name[64];
    enum var_center center;
    int ncomp;
    int material; /* 1: a material variable, /materials/<name> [entries] (ncomp: the materials) */
};

/* What a valid dump holds, the same on every rank after restart_open. */
struct restart_file {
    char path[4096];
    char *deck_text;
    long cycle;
    double time, dt, dt_old;
    double mass0, energy0; /* totals at t = 0 */
    int nmat;              /* > 1 when the dump holds each material's mass at t = 0 and removed mass */
    double mat_mass0[DUMP_MAT_MAX], mat_removed[DUMP_MAT_MAX];
    int removed_exact;     /* 1: the dump also holds them exactly (dumps before it do not) */
    struct xsum mat_removed_exact[DUMP_MAT_MAX];
    int dim, nranks_written;
    int64_t ncells, nnodes;
    int64_t nentries; /* > 0: the dump's /materials holds this many material entries */
    int nvars;
    struct restart_var *vars;
};

/* Collective. Rank 0 alone checks that path is a complete hydro dump (HDF5, format and
 * version, root attributes, mesh datasets and their sizes, variable datasets); then every
 * rank learns what it holds. Returns -1 on every rank with "PATH: what is wrong" in err on
 * rank 0 (empty elsewhere). */
int restart_open(MPI_Comm comm, const char *path, struct restart_file *rf, char *err, size_t errlen);
void restart_close(struct restart_file *rf);

/* Collective: this rank's block of cells (by global id) with their nodes' coordinates.
 * Returns -1 on every rank (err on rank 0) when a cell names a node outside the node
 * dataset or a node belongs to no cell. */
int restart_read_cells(MPI_Comm comm, const struct restart_file *rf, struct cellset *block, char *err,
                       size_t errlen);

/* Collective: every checkpointed variable of reg for every local item, owned and ghost.
 * Returns -1 on every rank (err on rank 0) when the dump lacks one or holds another shape. */
int restart_read_vars(MPI_Comm comm, const struct restart_file *rf, const struct mesh *m, struct registry *reg,
                      char *err, size_t errlen);

#endif
