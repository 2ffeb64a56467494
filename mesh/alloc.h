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

/* Freed memory stays in the process for reuse (main.c: keep_freed_memory); this hands its pages
 * back to the system (malloc_trim), so that the next allocations fault in fresh pages instead of
 * growing the process: at set-up before the fields, and in a rebalance once the new mesh is built,
 * so that the scratch of one (the set-up's, the old mesh's) does not add to the peak of the next.
 * Each call costs the page faults of the reuses after it. */
void release_freed_memory(void);

#endif
