/* Arcane-compatible listing (see listing.h). */
#include "listing.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool listing_parallel_output(void)
{
    const char *v = getenv("ARCANE_PARALLEL_OUTPUT");
    return v && *v && strcmp(v, "0") != 0;
}

struct listing *listing_create(int rank, char *err, size_t errlen)
{
    struct listing *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->rank = rank;
    if (rank == 0)
        l->out[l->nout++] = stdout;
    if (listing_parallel_output()) {
        const char *prefix = getenv("ARCANE_PARALLEL_OUTPUT_PREFIX");
        char path[4096];
        snprintf(path, sizeof path, "%soutput%d", prefix ? prefix : "", rank);
        FILE *f = fopen(path, "w");
        if (!f) {
            snprintf(err, errlen, "cannot create listing file '%s': %s", path, strerror(errno));
            free(l);
            return NULL;
        }
        l->out[l->nout++] = f;
    }
    return l;
}

void listing_destroy(struct listing *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->nout; i++) {
        if (l->out[i] == stdout)
            fflush(stdout);
        else
            fclose(l->out[i]);
    }
    free(l);
}

void listing_printf(struct listing *l, const char *module, const char *fmt, ...)
{
    if (!l || !l->nout)
        return;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (int i = 0; i < l->nout; i++) { /* flushed: a listing followed with tail -f, or cut short by a
                                          * kill, shows every line written so far */
        fprintf(l->out[i], "*I-%-11s%s\n", module, msg);
        fflush(l->out[i]);
    }
}
