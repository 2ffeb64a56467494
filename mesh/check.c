/* Fatal-error reporting and checked allocation (see check.h). */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int world_rank(void)
{
    int init = 0, fin = 0, rank = -1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

_Noreturn void hydro_fatal_at(MPI_Comm comm, int status, const char *file, int line,
                              const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "hydro: rank %d: %s:%d: %s\n", world_rank(), file, line, msg);
    fflush(stderr);
    fflush(stdout);
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Abort(comm, status);
    exit(status);
}

void mpi_check_at(int rc, const char *call, const char *file, int line)
{
    if (rc == MPI_SUCCESS)
        return;
    char err[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, err, &len) != MPI_SUCCESS)
        snprintf(err, sizeof err, "MPI error %d", rc);
    hydro_fatal_at(MPI_COMM_WORLD, EXIT_RUNTIME, file, line, "%s failed: %s", call, err);
}

void *xmalloc_at(size_t n, const char *file, int line)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        hydro_fatal_at(MPI_COMM_WORLD, EXIT_RUNTIME, file, line, "out of memory allocating %zu bytes", n);
    return p;
}

void *xcalloc_at(size_t n, size_t size, const char *file, int line)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        hydro_fatal_at(MPI_COMM_WORLD, EXIT_RUNTIME, file, line, "out of memory allocating %zu x %zu bytes",
                       n, size);
    return p;
}

void *xrealloc_at(void *p, size_t n, const char *file, int line)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        hydro_fatal_at(MPI_COMM_WORLD, EXIT_RUNTIME, file, line, "out of memory reallocating %zu bytes", n);
    return q;
}
