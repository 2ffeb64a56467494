/* Arcane-compatible listing: "*I-" + module in 11 columns + message, to stdout and output<rank>. */
#ifndef HYDRO_LISTING_H
#define HYDRO_LISTING_H

#include <stdbool.h>
#include <stdio.h>

struct listing {
    FILE *out[2]; /* stdout on rank 0; output<rank> with ARCANE_PARALLEL_OUTPUT */
    int nout;
    int rank;
};

/* Reads ARCANE_PARALLEL_OUTPUT (set and not "0": every rank writes output<rank>) and
 * ARCANE_PARALLEL_OUTPUT_PREFIX (prefix of those file names). Returns NULL and a message
 * in err when the file cannot be created. */
struct listing *listing_create(int rank, char *err, size_t errlen);
void listing_destroy(struct listing *l);

/* One line: "*I-<module padded to 11> <message>", flushed. */
void listing_printf(struct listing *l, const char *module, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool listing_parallel_output(void);

#endif
