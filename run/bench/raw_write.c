/* Plain sequential write, the baseline of the checkpoint benchmark: BYTES written to a new file
 * in DIR with write() in 4 MiB blocks, then fsync() and close() (hydro's dumps are fsync'ed
 * before they are published, so both sides include the flush to the device).
 * Usage: raw_write [-r REPEATS] DIR BYTES
 * Each repeat writes .raw_write.tmp afresh and unlinks it afterwards (untimed). Prints
 * "bytes BYTES seconds MEDIAN GBps BYTES/MEDIAN/1e9". Exit 2 on bad usage, 1 on I/O errors. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "median.h"

enum { BLOCK = 4 << 20 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(FILE *f, int status)
{
    fprintf(f, "usage: raw_write [-r REPEATS] DIR BYTES\n"
               "  median seconds of writing BYTES to a new file in DIR (write + fsync + close; default 5 repeats)\n");
    return status;
}

int main(int argc, char **argv)
{
    int repeats = 5, opt;
    while ((opt = getopt(argc, argv, "r:h")) != -1) {
        if (opt == 'r')
            repeats = atoi(optarg);
        else
            return usage(opt == 'h' ? stdout : stderr, opt == 'h' ? 0 : 2);
    }
    if (argc - optind != 2 || repeats < 1)
        return usage(stderr, 2);
    const char *dir = argv[optind];
    char *end;
    long long bytes = strtoll(argv[optind + 1], &end, 10);
    if (*end || bytes < 1) {
        fprintf(stderr, "raw_write: BYTES must be a positive byte count, not '%s'\n", argv[optind + 1]);
        return 2;
    }
    char path[4096];
    if (snprintf(path, sizeof path, "%s/.raw_write.tmp", dir) >= (int)sizeof path) {
        fprintf(stderr, "raw_write: directory name too long\n");
        return 2;
    }
    char *block = malloc(BLOCK);
    double *t = malloc((size_t)repeats * sizeof *t);
    if (!block || !t) {
        fprintf(stderr, "raw_write: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < BLOCK; i++) /* not zeros: no file system may treat the data as sparse */
        block[i] = (char)(i * 31 + 7);
    for (int r = 0; r < repeats; r++) {
        double t0 = now();
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) {
            fprintf(stderr, "raw_write: cannot create '%s': %s\n", path, strerror(errno));
            return 1;
        }
        for (long long done = 0; done < bytes;) {
            size_t n = bytes - done < BLOCK ? (size_t)(bytes - done) : (size_t)BLOCK;
            ssize_t w = write(fd, block, n);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                fprintf(stderr, "raw_write: write to '%s': %s\n", path, strerror(errno));
                return 1;
            }
            done += w;
        }
        if (fsync(fd) || close(fd)) {
            fprintf(stderr, "raw_write: fsync/close of '%s': %s\n", path, strerror(errno));
            return 1;
        }
        t[r] = now() - t0;
        unlink(path);
    }
    double med = median(t, (size_t)repeats);
    printf("bytes %lld seconds %.6e GBps %.4f\n", bytes, med, (double)bytes / med / 1e9);
    free(block);
    free(t);
    return 0;
}
