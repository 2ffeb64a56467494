/* Blocks of global ids (see gidblocks.h). */
#include "gidblocks.h"

#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "check.h"
#include "comm.h"

void gid_blocks_init(struct gid_blocks *b, int64_t n, int nranks)
{
    int64_t size = (n + nranks - 1) / nranks;
    *b = (struct gid_blocks){.n = n, .size = size > 0 ? size : 1, .nranks = nranks};
}

void gid_blocks_on(struct gid_blocks *b, int64_t n, int rank)
{
    gid_blocks_init(b, n, 1);
    b->first = rank;
}

void gid_blocks_range(const struct gid_blocks *b, int rank, int64_t *lo, int64_t *cnt)
{
    const int k = rank - b->first; /* the block's number */
    const int held = k >= 0 && k < b->nranks;
    int64_t a = held ? k * b->size : b->n, e = held ? (k + 1) * b->size : b->n;
    a = a < b->n ? a : b->n;
    e = e < b->n ? e : b->n;
    *lo = a;
    *cnt = e - a;
}

void id_ranges_by_weight(const long long *weight, int P, int64_t n, int64_t *first)
{
    long double total = 0, before = 0;
    for (int r = 0; r < P; r++)
        total += (long double)weight[r];
    for (int r = 0; r < P; r++) { /* a non-decreasing share: the ranges follow each other */
        long double share = total > 0 ? before / total : (long double)r / P;
        first[r] = (int64_t)(share * (long double)n);
        before += (long double)weight[r];
    }
    first[0] = 0;
    first[P] = n;
}

int id_ranges_find(const int64_t *first, int P, int64_t id)
{
    int lo = 0, hi = P - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (first[mid] <= id)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

void gid_push_init(struct gid_push *p, MPI_Comm comm, const struct gid_blocks *b, const int64_t *gid, int64_t n,
                   size_t rec, const char *what)
{
    const int P = comm_size(comm);
    *p = (struct gid_push){.comm = comm, .b = *b, .rec = rec, .what = what};
    int32_t *dest = xmalloc((size_t)(n ? n : 1) * sizeof *dest);
    for (int64_t i = 0; i < n; i++) {
        if (gid[i] < 0 || gid[i] >= b->n)
            hydro_fatal(comm, EXIT_RUNTIME, "internal error: %s id %lld outside [0, %lld)", what, (long long)gid[i],
                        (long long)b->n);
        dest[i] = gid_blocks_rank(b, gid[i]);
    }
    int64_t *off = xmalloc(((size_t)P + 1) * sizeof *off);
    int32_t *order = xmalloc((size_t)(n ? n : 1) * sizeof *order);
    bucket_sort(dest, n, P, off, order);
    free(dest);
    p->scount = xmalloc((size_t)P * sizeof *p->scount);
    p->sdisp = xmalloc(((size_t)P + 1) * sizeof *p->sdisp);
    for (int r = 0; r <= P; r++) {
        p->sdisp[r] = (int)off[r];
        if (r < P)
            p->scount[r] = (int)(off[r + 1] - off[r]);
    }
    free(off);
    p->slot = xmalloc((size_t)(n ? n : 1) * sizeof *p->slot);
    for (int64_t j = 0; j < n; j++)
        p->slot[order[j]] = (int32_t)j;
    free(order);
    p->sbuf = xmalloc((size_t)(n ? n : 1) * rec);
}

/* The received records in id order, each id of [lo, lo + cnt) once. */
static char *by_id(const struct gid_push *p, const char *rbuf, int64_t lo, int64_t cnt)
{
    const size_t rec = p->rec;
    char *block = xmalloc((size_t)(cnt ? cnt : 1) * rec);
    char *seen = xcalloc((size_t)(cnt ? cnt : 1), 1);
    for (int64_t i = 0; i < cnt; i++) {
        int64_t gid;
        memcpy(&gid, rbuf + (size_t)i * rec, sizeof gid);
        if (gid < lo || gid >= lo + cnt || seen[gid - lo]++)
            hydro_fatal(p->comm, EXIT_RUNTIME, "internal error: %s %lld sent to the block [%lld, %lld) twice or wrongly",
                        p->what, (long long)gid, (long long)lo, (long long)(lo + cnt));
        memcpy(block + (size_t)(gid - lo) * rec, rbuf + (size_t)i * rec, rec);
    }
    free(seen);
    return block;
}

char *gid_push_exchange(struct gid_push *p, int64_t *lo_out, int64_t *cnt_out)
{
    const int P = comm_size(p->comm), me = comm_rank(p->comm);
    int *rcount = xcalloc((size_t)P, sizeof *rcount), *rdisp = xcalloc((size_t)P + 1, sizeof *rdisp);
    MPI_CHECK(MPI_Alltoall(p->scount, 1, MPI_INT, rcount, 1, MPI_INT, p->comm));
    for (int r = 0; r < P; r++)
        rdisp[r + 1] = rdisp[r] + rcount[r];
    int64_t lo, cnt;
    gid_blocks_range(&p->b, me, &lo, &cnt);
    if (rdisp[P] != cnt)
        hydro_fatal(p->comm, EXIT_RUNTIME, "internal error: %s block [%lld, %lld) receives %d items", p->what,
                    (long long)lo, (long long)(lo + cnt), rdisp[P]);
    char *rbuf = xmalloc((size_t)(rdisp[P] ? rdisp[P] : 1) * p->rec);
    MPI_Datatype t;
    MPI_CHECK(MPI_Type_contiguous((int)p->rec, MPI_BYTE, &t));
    MPI_CHECK(MPI_Type_commit(&t));
    MPI_CHECK(MPI_Alltoallv(p->sbuf, p->scount, p->sdisp, t, rbuf, rcount, rdisp, t, p->comm));
    MPI_CHECK(MPI_Type_free(&t));
    free(p->sbuf);
    char *block = by_id(p, rbuf, lo, cnt);
    free(rbuf);
    free(rcount);
    free(rdisp);
    free(p->scount);
    free(p->sdisp);
    free(p->slot);
    *lo_out = lo;
    *cnt_out = cnt;
    return block;
}

void gid_fetch(MPI_Comm comm, const struct gid_blocks *b, const int64_t *gid, int64_t n, const char *block,
               size_t rec, char *out, unsigned char *asked)
{
    const int P = comm_size(comm);
    int64_t lo, cnt;
    gid_blocks_range(b, comm_rank(comm), &lo, &cnt);
    struct outbox o;
    outbox_init(&o, comm);
    for (int64_t i = 0; i < n; i++)
        buf_put_i64(&o.to[gid_blocks_rank(b, gid[i])], gid[i]);
    struct inbox in;
    comm_exchange(comm, &o, &in);
    for (int k = 0; k < in.n; k++) /* the answers, in the order of the questions */
        while (!buf_done(&in.msg[k])) {
            int64_t g = buf_get_i64(&in.msg[k]);
            if (g < lo || g >= lo + cnt)
                hydro_fatal(comm, EXIT_RUNTIME, "internal error: id %lld asked of the block [%lld, %lld)",
                            (long long)g, (long long)lo, (long long)(lo + cnt));
            if (asked)
                asked[g - lo] = 1;
            buf_put(&o.to[in.src[k]], block + (size_t)(g - lo) * rec, rec);
        }
    inbox_free(&in);
    comm_exchange(comm, &o, &in);
    outbox_free(&o);
    int *slot = xmalloc((size_t)P * sizeof *slot); /* message of each holder */
    for (int r = 0; r < P; r++)
        slot[r] = -1;
    for (int k = 0; k < in.n; k++)
        slot[in.src[k]] = k;
    for (int64_t i = 0; i < n; i++)
        buf_get(&in.msg[slot[gid_blocks_rank(b, gid[i])]], out + (size_t)i * rec, rec);
    free(slot);
    inbox_free(&in);
}
