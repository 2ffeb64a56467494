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
#define PAR_PRAGMA(x) _Pragma(#x)
#else
#define PAR_PRAGMA(x)
#endif

/* Loops shorter than this run on one thread: a parallel region costs a few microseconds. The
 * sanitizer build sets 1, so that its tests thread every loop, however small their meshes. */
#ifndef PAR_MIN_ITEMS
#define PAR_MIN_ITEMS 2048
#endif

/* A loop over n items split in equal contiguous chunks, one per thread (n is the loop's bound). */
#define PAR_FOR(n) PAR_PRAGMA(omp parallel for schedule(static) if ((n) >= PAR_MIN_ITEMS))
/* The same with a max reduction of a double (exact in any order). */
#define PAR_FOR_MAX(n, var) PAR_PRAGMA(omp parallel for schedule(static) reduction(max : var) if ((n) >= PAR_MIN_ITEMS))
/* A parallel region over n items, inside which PAR_LOOP splits a loop as PAR_FOR does and each
 * thread keeps its own partial results, merged in PAR_CRITICAL. */
#define PAR_REGION(n) PAR_PRAGMA(omp parallel if ((n) >= PAR_MIN_ITEMS))
#define PAR_LOOP PAR_PRAGMA(omp for schedule(static) nowait)
#define PAR_LOOP_WAIT PAR_PRAGMA(omp for schedule(static))
#define PAR_CRITICAL PAR_PRAGMA(omp critical)
#define PAR_BARRIER PAR_PRAGMA(omp barrier)
#define PAR_SINGLE PAR_PRAGMA(omp single)

/* Threads a parallel region runs on, and the calling thread's number in it. */
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
