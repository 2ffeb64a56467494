/* Fatal-error reporting and checked allocation: one helper reports file:line and ends the whole job. */
#ifndef HYDRO_CHECK_H
#define HYDRO_CHECK_H

#include <stddef.h>
#include <mpi.h>

#include "alloc.h"

/* Exit statuses documented in the README. */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_BADINPUT = 2 };

/* in as readable text into out (n bytes, NUL-terminated, cut if need be): every byte that is
 * not part of a valid UTF-8 sequence becomes \xHH, so a message echoing a user's bad bytes
 * stays text. */
void text_escape(const char *in, char *out, size_t n);

/* Print "hydro: rank R: FILE:LINE: message" on stderr and MPI_Abort(comm, status).
 * Safe before MPI_Init and after MPI_Finalize (then it exits). Never returns. */
_Noreturn void hydro_fatal_at(MPI_Comm comm, int status, const char *file, int line,
                              const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define hydro_fatal(comm, status, ...) hydro_fatal_at((comm), (status), __FILE__, __LINE__, __VA_ARGS__)

/* The same for a failure every rank meets at once (a collective HDF5 call): rank 0 speaks and
 * ends the job at once, the others wait a moment first, so that the job prints one line. */
_Noreturn void hydro_fatal_shared_at(MPI_Comm comm, int status, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* A runtime error to return to the caller, in hydro_fatal's form "hydro: rank R: FILE:LINE:
 * message", into err (the caller ends the job with it: run_exit_collective). */
void error_at(char *err, size_t n, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define ERROR_AT(err, n, ...) error_at((err), (n), __FILE__, __LINE__, __VA_ARGS__)

/* Every MPI call goes through this: on failure the MPI error string is reported. */
void mpi_check_at(int rc, const char *call, const char *file, int line);
#define MPI_CHECK(call) mpi_check_at((call), #call, __FILE__, __LINE__)


#endif
