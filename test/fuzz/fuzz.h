/* Shared by the fuzz harnesses and the corpus replayer: libFuzzer's entry points, temp files. */
#ifndef HYDRO_FUZZ_H
#define HYDRO_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* libFuzzer's API. Every harness defines both, so that replay.c needs no weak symbols. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes data to a file private to this process ($TMPDIR or /tmp, named after the harness and
 * the pid, so parallel fuzzing jobs never share one) and puts its path in path. The readers
 * under test take a path, not a buffer. Returns 0, or -1 when the file cannot be written. */
static inline int fuzz_write_temp(const char *harness, const uint8_t *data, size_t size, char *path, size_t n)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, n, "%s/hydro_fuzz_%s_%ld", dir && *dir ? dir : "/tmp", harness, (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = size ? fwrite(data, 1, size, f) : 0;
    return fclose(f) == 0 && w == size ? 0 : -1;
}

#endif
