/* SimGrid's cost of simulating one message against the simulated rank count: each rank exchanges a
 * double with k ring neighbours each way (Irecv, Isend, compute, Wait), n times; no hydro code. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAXK = 64 };

/* Every MPI call checked: a failure stops every rank. */
#define CHECK(call)                                                                                                  \
    do {                                                                                                             \
        if ((call) != MPI_SUCCESS) {                                                                                 \
            fprintf(stderr, "msgcost: %s failed\n", #call);                                                          \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                            \
        }                                                                                                            \
    } while (0)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, P;
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &r));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &P));
    int n = argc > 1 ? atoi(argv[1]) : 0, k = argc > 2 ? atoi(argv[2]) : 0;
    if (n < 1 || k < 1 || k > MAXK || k >= P) {
        if (r == 0)
            fprintf(stderr, "usage: msgcost N K (N rounds, 1 <= K <= %d neighbours each way, K < ranks)\n", MAXK);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double out[MAXK], in[MAXK];
    MPI_Request req[2 * MAXK];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++) {
            out[j] = r + i;
            CHECK(MPI_Irecv(&in[j], 1, MPI_DOUBLE, (r + P - 1 - j) % P, j, MPI_COMM_WORLD, &req[j]));
            CHECK(MPI_Isend(&out[j], 1, MPI_DOUBLE, (r + 1 + j) % P, j, MPI_COMM_WORLD, &req[k + j]));
        }
        smpi_execute(1e-3); /* a millisecond of simulated compute between start and wait */
        for (int j = 0; j < 2 * k; j++)
            CHECK(MPI_Wait(&req[j], MPI_STATUS_IGNORE));
    }
    if (r == 0)
        printf("msgcost: %d ranks, %d rounds, %d neighbours each way: %ld messages\n", P, n, k, (long)P * n * k);
    CHECK(MPI_Finalize());
    return 0;
}
