/* The median of the raw benchmarks' timings (sorts them in place). */
#ifndef HYDRO_BENCH_MEDIAN_H
#define HYDRO_BENCH_MEDIAN_H

#include <stddef.h>
#include <stdlib.h>

static int median_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0 .. n), n > 0: the middle value, or the mean of the two middle ones. */
static inline double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, median_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
