/* Minimal TAP producer for the C tests: ok(), a plan at the end, exit status = failures. */
#ifndef HYDRO_TAP_H
#define HYDRO_TAP_H

#include <stdarg.h>
#include <stdio.h>

struct tap {
    int n, failed;
    int quiet; /* only failures are printed (used on ranks other than 0) */
};

static inline int tap_ok(struct tap *t, int cond, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline int tap_ok(struct tap *t, int cond, const char *fmt, ...)
{
    t->n++;
    if (!cond)
        t->failed++;
    if (cond && t->quiet)
        return cond;
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", cond ? "ok" : "not ok", t->n);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    return cond;
}

static inline int tap_done(struct tap *t)
{
    printf("1..%d\n# %d passed, %d failed\n", t->n, t->n - t->failed, t->failed);
    return t->failed ? 1 : 0;
}

#endif
