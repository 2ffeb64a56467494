/* Peak resident memory of a bare MPI process (MPI_Init, one barrier, nothing else): the floor
 * under hydro's "bytes per owned cell", measured the way hydro measures it (getrusage).
 * Usage: mpirun -np N raw_mem. Rank 0 prints "peak_rss_bytes MAX_OVER_RANKS". */
#include <stdio.h>
#include <sys/resource.h>

#include "comm.h"

int main(int argc, char **argv)
{
    comm_init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    if (argc > 1) {
        if (comm_rank(comm) == 0)
            fprintf(stderr, "usage: mpirun -np N raw_mem\n");
        comm_finalize();
        return 2;
    }
    MPI_Barrier(comm); /* the shared-memory transport is set up by now */
    struct rusage ru;
    long long rss = getrusage(RUSAGE_SELF, &ru) == 0 ? (long long)ru.ru_maxrss * 1024 : 0; /* Linux: kB */
    rss = comm_max_ll(comm, rss);
    if (comm_rank(comm) == 0)
        printf("peak_rss_bytes %lld\n", rss);
    comm_finalize();
    return 0;
}
