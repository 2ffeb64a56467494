/* Ghost check: after a synchronisation, every ghost's values against its owner's, fetched by global id. */
#ifndef HYDRO_GHOSTCHECK_H
#define HYDRO_GHOSTCHECK_H

#include <stddef.h>
#include <mpi.h>

#include "comm.h"
#include "mesh.h"
#include "sync.h"

/* Collective over comm. Every rank asks the owner of each of its ghost items that g refreshes
 * (of g's plan's centering, in g's layers: sync_group_set_depth) for the values of g's
 * variables, by global id through an exchange of its own (not g's plan), and compares them bit
 * for bit with its ghost's: a material variable's whole row, so that a ghost holds exactly its
 * owner's materials (the absent ones 0 on both sides).
 * Returns this rank's differing values; *compared counts the values compared here, and the
 * first difference is described in what (variable, global id, owner, both values). */
long long ghost_check_group(MPI_Comm comm, const struct mesh *m, const struct sync_group *g, long long *compared,
                            char *what, size_t n);

/* The same in two halves, for a synchronisation left in flight while its owners' values change
 * (sync_start packed them): fetch them when it starts (collective), compare the ghosts with them
 * once it has finished (frees answered). */
void ghost_check_fetch(MPI_Comm comm, const struct mesh *m, const struct sync_group *g, struct inbox *answered);
long long ghost_check_compare(const struct mesh *m, const struct sync_group *g, struct inbox *answered,
                              long long *compared, char *what, size_t n);

#endif
