/* Partitioning: graph partitions through a backend (partitioner.h) over the distributed dual
 * graph (dgraph.h), and geometric blocks of a generated box (see partition.h). */
#include "partition.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dgraph.h"
#include "distribute.h"

int partition_too_few(long long cells, int P, char *err, size_t errlen)
{
    if (cells >= P)
        return 0;
    snprintf(err, errlen, "the mesh has %lld cells, fewer than the %d ranks", cells, P);
    return -1;
}

int partition_block_split(const struct box *b, int P, int parts[3], char *err, size_t errlen)
{
    if (!cartesian_split(b, P, parts))
        return 0;
    snprintf(err, errlen, "cannot split %lld x %lld x %lld cells into %d blocks of at least one cell",
             (long long)b->n[0], (long long)b->n[1], (long long)(b->dim == 3 ? b->n[2] : 1), P);
    return -1;
}

/* Collective: each weight's largest sum over the parts against their mean (imb[ncon]). */
static void parts_weight_imbalance(MPI_Comm comm, int64_t n, const int *part, const int32_t *weight, int ncon,
                                   double *imb)
{
    const int P = comm_size(comm);
    double *sum = xcalloc((size_t)P * (size_t)ncon, sizeof *sum);
    for (int64_t i = 0; i < n; i++)
        for (int k = 0; k < ncon; k++)
            sum[(size_t)part[i] * ncon + k] += weight[(size_t)i * ncon + k];
    comm_sum_doubles(comm, sum, P * ncon);
    for (int k = 0; k < ncon; k++) {
        double most = 0, all = 0;
        for (int r = 0; r < P; r++) {
            most = fmax(most, sum[(size_t)r * ncon + k]);
            all += sum[(size_t)r * ncon + k];
        }
        imb[k] = all > 0 ? most * P / all : 1.0;
    }
    free(sum);
}

int partition_cells(MPI_Comm comm, const struct partitioner *pt, const struct cellset *some, const int32_t *weight,
                    int ncon, double *imb, struct cellset *own, double *graph_seconds, char *err, size_t errlen)
{
    *graph_seconds = 0;
    const int P = comm_size(comm);
    long long n = comm_sum_ll(comm, some->ncells);
    if (partition_too_few(n, P, err, errlen)) {
        if (comm_rank(comm) != 0)
            err[0] = '\0';
        return -1;
    }
    if (!pt)
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: no graph partitioner");
    int *part = xcalloc((size_t)(some->ncells ? some->ncells : 1), sizeof *part);
    if (P > 1) { /* one part: everything stays where it is (and METIS 5.1 refuses nparts = 1) */
        struct dgraph g;
        double t0 = comm_wtime();
        dgraph_build(comm, some->el, some->ncells, some->gid, some->nodes, some->face_tag, weight, weight ? ncon : 1,
                     &g);
        if (weight && ncon > 1 && pt->multi_how) /* it cuts several weights by the cells' positions */
            dgraph_set_centres(&g, some);
        *graph_seconds = comm_wtime() - t0;
        pt->partition(comm, &g, P, 0, NULL, part);
        dgraph_free(&g);
    }
    if (weight)
        parts_weight_imbalance(comm, some->ncells, part, weight, ncon, imb);
    distribute_cells(comm, some, part, own); /* part r goes to rank r */
    free(part);
    return 0;
}

int partition_block(MPI_Comm comm, const struct box *b, struct cellset *own, int parts[3], char *err,
                    size_t errlen)
{
    int P = comm_size(comm);
    if (partition_block_split(b, P, parts, err, errlen))
        return -1;
    int64_t lo[3], hi[3];
    cartesian_block(b, parts, comm_rank(comm), lo, hi);
    cartesian_generate(b, lo, hi, own);
    return 0;
}

/* Block index along one axis of item i among n split in p, as cartesian_block cuts it. */
static int block_index(int64_t i, int64_t n, int p)
{
    int b = (int)(i * p / n);
    while (b + 1 < p && n * (b + 1) / p <= i)
        b++;
    while (b > 0 && n * b / p > i)
        b--;
    return b;
}

int partition_block_redistribute(MPI_Comm comm, const struct box *b, const struct cellset *some, struct cellset *own,
                                 int parts[3], char *err, size_t errlen)
{
    int P = comm_size(comm);
    if (partition_block_split(b, P, parts, err, errlen))
        return -1;
    int *dest = xmalloc((size_t)(some->ncells ? some->ncells : 1) * sizeof *dest);
    for (int64_t c = 0; c < some->ncells; c++) {
        int64_t g = some->gid[c], i = g % b->n[0], j = (g / b->n[0]) % b->n[1], k = g / (b->n[0] * b->n[1]);
        dest[c] = block_index(i, b->n[0], parts[0]) +
                  parts[0] * (block_index(j, b->n[1], parts[1]) + parts[1] * block_index(k, b->n[2], parts[2]));
    }
    distribute_cells(comm, some, dest, own);
    free(dest);
    return 0;
}

void partition_rebalance(MPI_Comm comm, const struct partitioner *pt, const struct mesh *m, const int *weight,
                         int ncon, const double *speed, int *dest, double *imb_before, double *imb_after,
                         double seconds[2])
{
    seconds[0] = seconds[1] = 0;
    const int P = comm_size(comm);
    const int32_t n = m->ncells_owned;
    if (!pt)
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: no graph partitioner");
    int *part = xcalloc((size_t)(n ? n : 1), sizeof *part);
    int *total = xmalloc((size_t)(n ? n : 1) * sizeof *total); /* over the constraints */
    for (int32_t c = 0; c < n; c++) {
        total[c] = 0;
        for (int k = 0; k < ncon; k++)
            total[c] += weight[(size_t)c * ncon + k];
    }
    if (P > 1) {
        struct dgraph g;
        double t0 = comm_wtime();
        dgraph_from_mesh(comm, m, weight, ncon, &g);
        if (ncon > 1 && pt->multi_how) /* it cuts several weights by the cells' positions */
            dgraph_mesh_centres(&g, m);
        double t1 = comm_wtime();
        seconds[0] = t1 - t0;
        double *share = NULL; /* each part's fraction of the weight: its rank's of the speeds */
        if (speed) {
            double sum = 0;
            share = xmalloc((size_t)P * sizeof *share);
            for (int r = 0; r < P; r++)
                sum += speed[r];
            for (int r = 0; r < P; r++)
                share[r] = speed[r] / sum;
        }
        pt->partition(comm, &g, P, 1, share, part);
        seconds[1] = comm_wtime() - t1;
        free(share);
        dgraph_free(&g);
    }
    distribute_parts(comm, n, total, part, speed, dest, imb_before, imb_after);
    free(total);
    free(part);
}
