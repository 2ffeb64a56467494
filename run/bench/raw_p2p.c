/* Raw point-to-point bandwidth, the baseline of the migration benchmark: every rank sends SIZE
 * bytes to rank + 1 and receives SIZE bytes from rank - 1 (on 2 ranks: both ways between the
 * pair, as a migration of whole subdomains does) with one MPI_Irecv, one MPI_Isend, MPI_Waitall.
 * Usage: mpirun -np N raw_p2p [-r REPEATS] [-c] SIZE...   (N >= 2)
 * Buffers are allocated and touched once, then reused (hydro keeps freed memory in the process
 * for the same reason), after one untimed warm-up round. Each exchange starts after a barrier;
 * rank 0 times it (the migration's total_time is rank 0's too).
 * By default each size is exchanged REPEATS times in a row: every exchange finds both buffers
 * as the previous one left them, in cache when they fit. With -c each round does what a
 * migration does, outside the timed parts: write a 64 MiB array (a migration comes many cycles
 * after the previous one: nothing of it is left in the caches), write every send buffer
 * (packing), then exchange the sizes one after the other in the order given (a migration sends
 * its Cell messages, then its Node messages).
 * Rank 0 prints one line per size, medians over the rounds:
 * "size BYTES seconds MEDIAN MBps BYTES/MEDIAN/1e6". Exit 2 on bad usage. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "comm.h"
#include "median.h"

static int bad_usage(int me, const char *why)
{
    if (me == 0)
        fprintf(stderr, "raw_p2p: %s\nusage: mpirun -np N raw_p2p [-r REPEATS] [-c] SIZE...  (N >= 2, SIZE in bytes)\n",
                why);
    comm_finalize();
    return 2;
}

int main(int argc, char **argv)
{
    comm_init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    const int me = comm_rank(comm), P = comm_size(comm);
    int repeats = 9, cold = 0, opt;
    while ((opt = getopt(argc, argv, "r:ch")) != -1) {
        if (opt == 'r')
            repeats = atoi(optarg);
        else if (opt == 'c')
            cold = 1;
        else if (opt == 'h') {
            if (me == 0)
                printf("usage: mpirun -np N raw_p2p [-r REPEATS] [-c] SIZE...\n"
                       "  median time of a ring exchange of SIZE bytes per rank (default 9 repeats)\n"
                       "  -c  as a migration: caches flushed, every send buffer written, then the sizes in order\n");
            comm_finalize();
            return 0;
        } else
            return bad_usage(me, "unknown option");
    }
    if (optind >= argc)
        return bad_usage(me, "at least one SIZE is required");
    if (repeats < 1)
        return bad_usage(me, "-r needs a positive count");
    if (P < 2)
        return bad_usage(me, "needs at least 2 ranks");
    const int nsizes = argc - optind, to = (me + 1) % P, from = (me + P - 1) % P;
    long long *size = xmalloc((size_t)nsizes * sizeof *size);
    char **sbuf = xmalloc((size_t)nsizes * sizeof *sbuf), **rbuf = xmalloc((size_t)nsizes * sizeof *rbuf);
    double *t = xmalloc((size_t)nsizes * (size_t)repeats * sizeof *t); /* [size][round] */
    for (int i = 0; i < nsizes; i++) {
        char *end;
        size[i] = strtoll(argv[optind + i], &end, 10);
        if (*end || size[i] < 1 || size[i] > INT_MAX)
            return bad_usage(me, "SIZE must be a byte count between 1 and INT_MAX");
        sbuf[i] = xmalloc((size_t)size[i]);
        rbuf[i] = xmalloc((size_t)size[i]);
        memset(sbuf[i], 1, (size_t)size[i]);
        memset(rbuf[i], 0, (size_t)size[i]);
    }
    const size_t nevict = cold ? (size_t)64 << 20 : 0;
    unsigned char *evict = cold ? xmalloc(nevict) : NULL;
    /* cold: rounds outside, sizes in order inside; hot: each size's rounds in a row */
    for (int outer = 0; outer < (cold ? repeats + 1 : nsizes); outer++)
        for (int inner = 0; inner < (cold ? nsizes : repeats + 1); inner++) {
            int i = cold ? inner : outer, r = (cold ? outer : inner) - 1; /* round -1: warm-up */
            if (cold && inner == 0) {
                memset(evict, r & 0xff, nevict);
                for (int k = 0; k < nsizes; k++)
                    memset(sbuf[k], 1, (size_t)size[k]);
            }
            MPI_Request req[2];
            MPI_CHECK(MPI_Barrier(comm));
            double t0 = comm_wtime();
            MPI_CHECK(MPI_Irecv(rbuf[i], (int)size[i], MPI_BYTE, from, 3, comm, &req[0]));
            MPI_CHECK(MPI_Isend(sbuf[i], (int)size[i], MPI_BYTE, to, 3, comm, &req[1]));
            MPI_CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
            if (r >= 0)
                t[(size_t)i * (size_t)repeats + (size_t)r] = comm_wtime() - t0;
        }
    for (int i = 0; i < nsizes; i++) {
        if (rbuf[i][0] != 1 || rbuf[i][size[i] - 1] != 1)
            hydro_fatal(comm, 1, "raw_p2p: the received bytes are not the sent ones");
        double *ti = t + (size_t)i * (size_t)repeats;
        double med = median(ti, (size_t)repeats);
        if (me == 0)
            printf("size %lld seconds %.6e MBps %.1f\n", size[i], med, (double)size[i] / med / 1e6);
        free(sbuf[i]);
        free(rbuf[i]);
    }
    free(t);
    free(size);
    free(sbuf);
    free(rbuf);
    free(evict);
    comm_finalize();
    return 0;
}
