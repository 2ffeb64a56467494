/* Checked allocation without MPI: failure ends the job naming the site (implemented in check.c). */
#ifndef HYDRO_ALLOC_H
#define HYDRO_ALLOC_H

#include <stddef.h>

/* Allocation that cannot return NULL: failure aborts the job (exit 1) naming the site. Physics
 * code includes this header alone, so that it compiles without MPI headers. */
void *xmalloc_at(size_t n, const char *file, int line);
void *xcalloc_at(size_t n, size_t size, const char *file, int line);
void *xrealloc_at(void *p, size_t n, const char *file, int line);
#define xmalloc(n) xmalloc_at((n), __FILE__, __LINE__)
#define xcalloc(n, s) xcalloc_at((n), (s), __FILE__, __LINE__)
#define xrealloc(p, n) xrealloc_at((p), (n), __FILE__, __LINE__)

#endif
