/* Thread parallelism of the loops over items: OpenMP pragmas when the build has OpenMP (-fopenmp),
 * plain loops otherwise (the SMPI build, the plain-C check of physics/). Plain C, no MPI.
 *
 * Every threaded loop writes each item's results from that item's inputs alone, so the results
 * are the same bits for any thread count: node sums gather over a node's cells in their fixed
 * order, minima and maxima are exact, sums of doubles go through exact accumulators (xsum.h),
 * and a failure names the item of smallest index whichever thread saw it. */
#ifndef HYDRO_PAR_H
#define HYDRO_PAR_H

#ifdef _OPENMP
#include <omp.h>
#define PAR_PRAGMA_STRING(...) _Pragma(#__VA_ARGS__)
#define PAR_PRAGMA(...) PAR_PRAGMA_STRING(__VA_ARGS__) /* the clauses' macros expanded first */
#else
#define PAR_PRAGMA(...)
#endif

/* Loops shorter than this run on one thread: a parallel region costs a few microseconds. The
 * sanitizer build sets 1, so that its tests thread every loop, however small their meshes. */
#ifndef PAR_MIN_ITEMS
#define PAR_MIN_ITEMS 2048
#endif

/* A loop over n items split in equal contiguous chunks, one per thread (n is the loop's bound). */
#define PAR_FOR(n) PAR_PRAGMA(omp parallel for schedule(static) if ((n) >= PAR_MIN_ITEMS))
/* A kernel's loop over n items, one summing integers into sum, and one with a reduction clause
 * whose results are in the variables named after it (those and the records a failing item
 * merges into under PAR_CRITICAL, which come back from the accelerator): in the offload build
 * (make offload, -DHYDRO_OFFLOAD) on the accelerator where the structure s points to is there (a
 * copy holding the addresses of the arrays' copies, physics/device.h: the kernel then reads and
 * writes those), on the host otherwise; the ordinary threaded loops in other builds. Functions a
 * kernel calls from other files are declared between DEVICE_BEGIN and DEVICE_END. */
#ifdef HYDRO_OFFLOAD
#define DEVICE_PRESENT(s) if (target : omp_target_is_present((s), omp_get_default_device()))
#define DEVICE_FOR(n, s) PAR_PRAGMA(omp target teams distribute parallel for DEVICE_PRESENT(s))
#define DEVICE_FOR_SUM(n, s, sum) \
    PAR_PRAGMA(omp target teams distribute parallel for reduction(+ : sum) map(tofrom : sum) DEVICE_PRESENT(s))
#define DEVICE_FOR_REDUCE(n, s, reduce, ...) \
    PAR_PRAGMA(omp target teams distribute parallel for reduce map(tofrom : __VA_ARGS__) DEVICE_PRESENT(s))
#define DEVICE_BEGIN PAR_PRAGMA(omp declare target)
#define DEVICE_END PAR_PRAGMA(omp end declare target)
#else
#define DEVICE_FOR(n, s) PAR_FOR(n)
#define DEVICE_FOR_SUM(n, s, sum) \
    PAR_PRAGMA(omp parallel for schedule(static) reduction(+ : sum) if ((n) >= PAR_MIN_ITEMS))
#define DEVICE_FOR_REDUCE(n, s, reduce, ...) \
    PAR_PRAGMA(omp parallel for schedule(static) reduce if ((n) >= PAR_MIN_ITEMS))
#define DEVICE_BEGIN
#define DEVICE_END
#endif
/* Whether the kernels given s run on the accelerator (the offload build, s's copy there). */
static inline int device_has(const void *s)
{
#ifdef HYDRO_OFFLOAD
    return omp_target_is_present(s, omp_get_default_device());
#else
    (void)s;
    return 0;
#endif
}
/* A parallel region over n items, inside which PAR_LOOP splits a loop as PAR_FOR does and each
 * thread keeps its own partial results, merged in PAR_CRITICAL. */
#define PAR_REGION(n) PAR_PRAGMA(omp parallel if ((n) >= PAR_MIN_ITEMS))
#define PAR_LOOP PAR_PRAGMA(omp for schedule(static) nowait)
#define PAR_CRITICAL PAR_PRAGMA(omp critical)

#include <stdint.h>

/* fn(ctx, lo, hi) over [0, n) in contiguous blocks, one per thread, when n is long; once, on the
 * calling thread and without entering the OpenMP runtime, when it is short or there is one
 * thread. For loops called many times on short lists (the packing of each ghost message): even
 * a parallel region that starts no thread costs a microsecond or more, as much as the copy. */
static inline void par_ranges(int64_t n, void (*fn)(void *ctx, int64_t lo, int64_t hi), void *ctx)
{
#ifdef _OPENMP
    if (n >= PAR_MIN_ITEMS && omp_get_max_threads() > 1) {
        PAR_PRAGMA(omp parallel)
        {
            int64_t t = omp_get_thread_num(), T = omp_get_num_threads();
            fn(ctx, n * t / T, n * (t + 1) / T);
        }
        return;
    }
#endif
    fn(ctx, 0, n);
}

/* Threads a parallel region runs on, and the calling thread's number in it (0: the main thread,
 * the only one that calls MPI). */
static inline int par_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

static inline int par_thread(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

#endif
