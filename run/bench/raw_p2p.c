/* Raw point-to-point bandwidth, the baseline of the migration benchmark: every rank sends SIZE
 * bytes to rank + 1 and receives SIZE bytes from rank - 1 (on 2 ranks: both ways between the
 * pair, as a migration of whole subdomains does) with one MPI_Irecv, one MPI_Isend, MPI_Waitall.
 * Usage: mpirun -np N raw_p2p [-r REPEATS] [-c] SIZE...   (N >= 2)
 * Buffers are allocated and touched once, then reused (hydro keeps freed memory in the process
 * for the same reason), after one untimed warm-up exchange. By default every exchange finds both
 * buffers in cache, left there by the previous one. With -c each exchange finds them as a
 * migration does: the send buffer just written (packed), the receive buffer out of the caches
 * (a migration comes many cycles after the previous one), by writing a 64 MiB array between
 * exchanges, outside the timed part. Each exchange starts after a
 * barrier; rank 0 times it (the migration's total_time is rank 0's too). Rank 0 prints one line
 * per size: "size BYTES seconds MEDIAN MBps BYTES/MEDIAN/1e6". Exit 2 on bad usage. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "comm.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

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
                       "  -c  cold: receive buffer evicted from the caches, send buffer just written\n");
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
    const size_t nevict = cold ? (size_t)64 << 20 : 0;
    unsigned char *evict = cold ? xmalloc(nevict) : NULL;
    for (int a = optind; a < argc; a++) {
        char *end;
        long long size = strtoll(argv[a], &end, 10);
        if (*end || size < 1 || size > INT_MAX)
            return bad_usage(me, "SIZE must be a byte count between 1 and INT_MAX");
        char *sbuf = xmalloc((size_t)size), *rbuf = xmalloc((size_t)size);
        memset(sbuf, 1, (size_t)size);
        memset(rbuf, 0, (size_t)size);
        double *t = xmalloc((size_t)repeats * sizeof *t);
        const int to = (me + 1) % P, from = (me + P - 1) % P;
        for (int r = -1; r < repeats; r++) {
            MPI_Request req[2];
            if (cold) {
                memset(evict, r & 0xff, nevict);
                memset(sbuf, 1, (size_t)size);
            }
            MPI_CHECK(MPI_Barrier(comm));
            double t0 = comm_wtime();
            MPI_CHECK(MPI_Irecv(rbuf, (int)size, MPI_BYTE, from, 3, comm, &req[0]));
            MPI_CHECK(MPI_Isend(sbuf, (int)size, MPI_BYTE, to, 3, comm, &req[1]));
            MPI_CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
            if (r >= 0)
                t[r] = comm_wtime() - t0;
        }
        if (rbuf[0] != 1 || rbuf[size - 1] != 1)
            hydro_fatal(comm, 1, "raw_p2p: the received bytes are not the sent ones");
        qsort(t, (size_t)repeats, sizeof *t, cmp_double);
        double med = repeats % 2 ? t[repeats / 2] : 0.5 * (t[repeats / 2 - 1] + t[repeats / 2]);
        if (me == 0)
            printf("size %lld seconds %.6e MBps %.1f\n", size, med, (double)size / med / 1e6);
        free(t);
        free(sbuf);
        free(rbuf);
    }
    free(evict);
    comm_finalize();
    return 0;
}
