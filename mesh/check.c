/* Fatal-error reporting and checked allocation (see check.h). */
#ifndef _DEFAULT_SOURCE /* madvise, beside the build's _XOPEN_SOURCE (smpicc defines it) */
#define _DEFAULT_SOURCE
#endif
#include "check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#ifdef __GLIBC__ /* known once a libc header is in */
#include <malloc.h>
#endif

#include "par.h"

static int world_rank(void)
{
    int init = 0, fin = 0, rank = -1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

/* Bytes of the valid UTF-8 sequence starting at s (1-4), 0 when s does not start one. */
static int utf8_length(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
          : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
        (n == 4 && s[0] == 0xf0 && s[1] < 0x90) || (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
        return 0; /* overlong forms, surrogates, beyond U+10FFFF */
    return n;
}

void text_escape(const char *in, char *out, size_t n)
{
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)in;
    while (*s && o + 1 < n) {
        int len = utf8_length(s);
        if (len > 0 && o + (size_t)len < n) {
            memcpy(out + o, s, (size_t)len);
            o += (size_t)len;
            s += len;
        } else if (len > 0 || o + 4 >= n) {
            break; /* no room for the whole character */
        } else {
            snprintf(out + o, n - o, "\\x%02X", *s++);
            o += 4;
        }
    }
    out[o] = '\0';
}

/* The message, escaped, on stderr in the documented form; then the whole job ends. */
static _Noreturn void fatal(MPI_Comm comm, int status, const char *file, int line, const char *fmt, va_list ap)
{
    char raw[1024], msg[4096];
    vsnprintf(raw, sizeof raw, fmt, ap);
    text_escape(raw, msg, sizeof msg);
    fprintf(stderr, "hydro: rank %d: %s:%d: %s\n", world_rank(), file, line, msg);
    fflush(stderr);
    fflush(stdout);
    if (par_thread() != 0) /* a worker thread (out of memory in a threaded loop) may not call MPI: this
                            * process ends, and the launcher ends the others */
        _exit(status);
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Abort(comm, status);
    exit(status);
}

_Noreturn void hydro_fatal_at(MPI_Comm comm, int status, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fatal(comm, status, file, line, fmt, ap);
}

_Noreturn void hydro_fatal_shared_at(MPI_Comm comm, int status, const char *file, int line, const char *fmt, ...)
{
    int rank = world_rank();
    if (rank > 0) { /* rank 0 meets the same failure and ends the job before this one speaks */
        struct timespec wait = {2, 0};
        while (nanosleep(&wait, &wait) && errno == EINTR) /* the launcher's SIGTERM (hydro's stop request) */
            ;
    }
    va_list ap;
    va_start(ap, fmt);
    fatal(comm, status, file, line, fmt, ap);
}

void error_at(char *err, size_t n, const char *file, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, n, "hydro: rank %d: %s:%d: %s", world_rank(), file, line, msg);
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

/* Blocks of HUGE_MIN bytes or more (the arena, a large mesh's arrays, migration messages) start
 * on a 2 MiB boundary and are marked for transparent huge pages, where the kernel has them
 * (THP "madvise" or "always"): their pages are then faulted in 512 at a time. A fault costs
 * microseconds on a VM, and freed pages handed back are faulted in again: on issue 17's 2-rank
 * case the set-up took 0.04 s less and a rebalance 0.03 s less, for 0.4 MB more peak
 * (BENCHMARKS.md). hydro fills such blocks, so that their huge pages hold little unused memory. */
enum { HUGE_PAGE = 2 << 20, HUGE_MIN = 4 << 20 };

/* Marks the whole 2 MiB pages inside [p, p + n) for huge pages (advice: a kernel without THP
 * ignores it); pages already touched keep their size. */
static void advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE,
                    e = ((uintptr_t)p + n) / HUGE_PAGE * HUGE_PAGE;
    if (e > a)
        madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p, (void)n;
#endif
}

static void *alloc_block(size_t n)
{
    if (n < HUGE_MIN)
        return malloc(n ? n : 1);
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, n))
        return NULL;
    advise_huge(p, n);
    return p;
}

void *xmalloc_at(size_t n, const char *file, int line)
{
    void *p = alloc_block(n);
    if (!p)
        hydro_fatal_at(MPI_COMM_WORLD, EXIT_RUNTIME, file, line, "out of memory allocating %zu bytes", n);
    return p;
}

void *xcalloc_at(size_t n, size_t size, const char *file, int line)
{
    const size_t count = n ? n : 1, each = size ? size : 1;
    void *p = NULL;
    if (count > (size_t)-1 / each) /* calloc's own overflow check, kept for the huge blocks */
        p = NULL;
    else if (count * each < HUGE_MIN)
        p = calloc(count, each);
    else if ((p = alloc_block(count * each)))
        memset(p, 0, count * each);
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
    /* a block grown to HUGE_MIN or more: the part it grew by, not touched yet, becomes huge pages
     * as xmalloc's blocks do (BENCHMARKS.md: a migration's send buffers grow so) */
    if (n >= HUGE_MIN)
        advise_huge(q, n);
    return q;
}

void release_freed_memory(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}
