/* Cells to their ranks (see distribute.h). */
#include "distribute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "check.h"
#include "comm.h"
#include "mesh_local.h"

/* Cells [first, last) of the list cells, indices into some, with their nodes into own. */
static void keep_cells(const struct cellset *some, const int32_t *cells, int64_t first, int64_t last,
                       struct cellset *own)
{
    const int nv = some->el->nnodes, nf = some->el->nfaces;
    cellset_reserve(own, last - first, 0);
    for (int64_t i = first; i < last; i++) {
        int64_t c = cells[i];
        for (int k = 0; k < nv; k++) {
            int64_t g = some->nodes[c * nv + k];
            const double *x = cellset_node_xyz(some, g);
            if (!x)
                hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: node %lld has no coordinates", (long long)g);
            cellset_add_node(own, g, x);
        }
        cellset_add_cell(own, some->gid[c], some->nodes + c * nv, some->face_tag + c * nf);
    }
}

void distribute_cells(MPI_Comm comm, const struct cellset *some, const int *dest, struct cellset *own)
{
    int P = comm_size(comm), me = comm_rank(comm);
    for (int64_t c = 0; c < some->ncells; c++)
        if (dest[c] < 0 || dest[c] >= P)
            hydro_fatal(comm, EXIT_RUNTIME, "internal error: cell %lld sent to rank %d of %d", (long long)some->gid[c],
                        dest[c], P);
    int64_t *count = xmalloc(((size_t)P + 1) * sizeof *count);
    int32_t *cells = xmalloc((size_t)(some->ncells ? some->ncells : 1) * sizeof *cells);
    bucket_sort(dest, some->ncells, P, count, cells);
    struct outbox out;
    outbox_init(&out, comm);
    for (int r = 0; r < P; r++)
        if (r != me && count[r + 1] > count[r])
            cellset_pack(some, cells + count[r], count[r + 1] - count[r], &out.to[r]);
    struct inbox in;
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    int kept = 0;
    for (int i = 0; i <= in.n; i++) {
        if (!kept && (i == in.n || in.src[i] > me)) {
            keep_cells(some, cells, count[me], count[me + 1], own);
            kept = 1;
        }
        if (i < in.n)
            cellset_unpack(own, &in.msg[i]);
    }
    inbox_free(&in);
    free(cells);
    free(count);
}

/* Rank r's relative speed (speed NULL: all equal). */
static double speed_of(const double *speed, int r) { return speed ? speed[r] : 1.0; }

/* (max - min) / min over ranks of their weight over their speed: of their times. */
static double weight_imbalance(const double *w, const double *speed, int P)
{
    double lo = w[0] / speed_of(speed, 0), hi = lo;
    for (int r = 1; r < P; r++) {
        const double t = w[r] / speed_of(speed, r);
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
    }
    return lo > 0 ? (hi - lo) / lo : -1;
}

/* The weight of the cells of one new part that one rank holds now. */
struct overlap {
    double w;
    int part, rank;
};

/* Heaviest first; ties by (part, rank), so every run assigns the same way. */
static int overlap_by_weight(const void *a, const void *b)
{
    const struct overlap *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    if (x->part != y->part)
        return x->part < y->part ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Can part p (sized for rank p) go to rank r: any rank without speeds, else one within 5% of
 * rank p's speed. */
static int fits(const double *speed, int p, int r)
{
    return !speed || fabs(speed[p] - speed[r]) <= 0.05 * fmax(speed[p], speed[r]);
}

/* Rank 0: parts -> ranks from every (part, rank) overlap, greedily by the largest weight
 * already in place, each part to a rank of its speed; parts left take the free ranks of their
 * speed in order, then any free rank. */
static void assign_parts(struct overlap *ov, int64_t n, int P, const double *speed, int *rank_of)
{
    qsort(ov, (size_t)n, sizeof *ov, overlap_by_weight);
    int *taken = xcalloc((size_t)P, sizeof *taken);
    for (int p = 0; p < P; p++)
        rank_of[p] = -1;
    for (int64_t i = 0; i < n; i++)
        if (rank_of[ov[i].part] < 0 && !taken[ov[i].rank] && fits(speed, ov[i].part, ov[i].rank)) {
            rank_of[ov[i].part] = ov[i].rank;
            taken[ov[i].rank] = 1;
        }
    for (int pass = 0; pass < 2; pass++)
        for (int p = 0; p < P; p++)
            for (int r = 0; r < P && rank_of[p] < 0; r++)
                if (!taken[r] && (pass == 1 || fits(speed, p, r))) {
                    rank_of[p] = r;
                    taken[r] = 1;
                }
    free(taken);
}

void distribute_parts(MPI_Comm comm, int32_t n, const int *weight, const int *part, const double *speed, int *dest,
                      double *imb_before, double *imb_after)
{
    const int P = comm_size(comm), me = comm_rank(comm);
    double *mine = xcalloc((size_t)P, sizeof *mine); /* weight of this rank's cells per new part */
    for (int32_t c = 0; c < n; c++)
        mine[part[c]] += weight[c];
    struct outbox out;
    outbox_init(&out, comm);
    for (int p = 0; p < P; p++) /* the nonzero overlaps, to rank 0 */
        if (mine[p] > 0) {
            struct overlap o = {mine[p], p, me};
            buf_put(&out.to[0], &o, sizeof o);
        }
    free(mine);
    struct inbox in;
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    int *rank_of = xmalloc((size_t)P * sizeof *rank_of);
    double w[2] = {0, 0};
    if (me == 0) {
        int64_t nov = 0;
        for (int i = 0; i < in.n; i++)
            nov += (int64_t)(in.msg[i].len / sizeof(struct overlap));
        struct overlap *ov = xmalloc((size_t)(nov ? nov : 1) * sizeof *ov);
        double *before = xcalloc((size_t)P, sizeof *before), *after = xcalloc((size_t)P, sizeof *after);
        for (int i = 0, k = 0; i < in.n; i++)
            while (!buf_done(&in.msg[i])) {
                buf_get(&in.msg[i], &ov[k], sizeof ov[k]);
                before[ov[k].rank] += ov[k].w;
                k++;
            }
        assign_parts(ov, nov, P, speed, rank_of);
        for (int64_t i = 0; i < nov; i++)
            after[rank_of[ov[i].part]] += ov[i].w;
        w[0] = weight_imbalance(before, speed, P);
        w[1] = weight_imbalance(after, speed, P);
        free(ov);
        free(before);
        free(after);
    }
    inbox_free(&in);
    comm_bcast_bytes(comm, rank_of, (size_t)P * sizeof *rank_of, 0);
    comm_bcast_bytes(comm, w, sizeof w, 0);
    for (int32_t c = 0; c < n; c++)
        dest[c] = rank_of[part[c]];
    free(rank_of);
    *imb_before = w[0];
    *imb_after = w[1];
}

/* sum_k max_r w[r][k] / speed[r] over sum_k (sum_r w[r][k]) / (sum_r speed[r]), w: [P][ncon] (1
 * when there is no weight): the phases' time over the balanced time. */
static double phase_time(const double *w, const double *speed, int P, int ncon)
{
    double slowest = 0, mean = 0, speeds = 0;
    for (int r = 0; r < P; r++)
        speeds += speed_of(speed, r);
    for (int k = 0; k < ncon; k++) {
        double hi = 0, sum = 0;
        for (int r = 0; r < P; r++) {
            const double t = w[(size_t)r * ncon + k] / speed_of(speed, r);
            hi = t > hi ? t : hi;
            sum += w[(size_t)r * ncon + k];
        }
        slowest += hi;
        mean += sum / speeds;
    }
    return mean > 0 ? slowest / mean : 1;
}

void distribute_phase_cost(MPI_Comm comm, int32_t n, const int *weight, int ncon, const int *dest,
                           const double *speed, double *before, double *after)
{
    const int P = comm_size(comm), me = comm_rank(comm);
    const size_t span = (size_t)P * ncon;
    double *w = xcalloc(2 * span, sizeof *w); /* [P][ncon] before, then after */
    for (int32_t c = 0; c < n; c++)
        for (int k = 0; k < ncon; k++) {
            w[(size_t)me * ncon + k] += weight[(size_t)c * ncon + k];
            w[span + (size_t)dest[c] * ncon + k] += weight[(size_t)c * ncon + k];
        }
    comm_sum_doubles(comm, w, (int)(2 * span));
    *before = phase_time(w, speed, P, ncon);
    *after = phase_time(w + span, speed, P, ncon);
    free(w);
}

void distribute_weight_imbalance(MPI_Comm comm, int32_t n, const int *weight, const int *dest, const double *speed,
                                 double *imb_before, double *imb_after)
{
    const int P = comm_size(comm), me = comm_rank(comm);
    double *w = xcalloc(2 * (size_t)P, sizeof *w); /* before, then after */
    for (int32_t c = 0; c < n; c++) {
        w[me] += weight[c];
        w[P + dest[c]] += weight[c];
    }
    comm_sum_doubles(comm, w, 2 * P);
    *imb_before = weight_imbalance(w, speed, P);
    *imb_after = weight_imbalance(w + P, speed, P);
    free(w);
}
