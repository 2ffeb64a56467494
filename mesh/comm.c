/* MPI start/stop, clock, small collectives and the sparse exchange (see comm.h). */
#include "comm.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "idmap.h"
#include "par.h"

/* lengths and payloads apart: a rank may take every length (any source) before any payload */
enum { TAG_EXCHANGE = 17, TAG_EXCHANGE_DATA = 18 };
/* Largest single MPI message of the exchange, well under INT_MAX bytes. */
static const size_t CHUNK = (size_t)1 << 30;

void comm_init(int *argc, char ***argv)
{
    /* threads (mesh/par.h) compute between the calls; only the main thread calls MPI */
    int provided = MPI_THREAD_SINGLE;
    MPI_CHECK(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided));
    /* errors come back to MPI_CHECK, which names the call and its file:line before MPI_Abort
     * (communicators made from the world one inherit this) */
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
#ifdef _OPENMP
    /* one thread per rank unless OMP_NUM_THREADS says otherwise: N ranks on N cores must not
     * each start a thread per core */
    const char *env = getenv("OMP_NUM_THREADS");
    if (!env || !*env)
        omp_set_num_threads(1);
    if (provided < MPI_THREAD_FUNNELED && omp_get_max_threads() > 1)
        hydro_fatal(MPI_COMM_WORLD, EXIT_BADINPUT, "this MPI library gives thread level %d, below "
                    "MPI_THREAD_FUNNELED: run with OMP_NUM_THREADS=1", provided);
#endif
}

void comm_finalize(void) { MPI_CHECK(MPI_Finalize()); }

int comm_rank(MPI_Comm comm)
{
    int r;
    MPI_CHECK(MPI_Comm_rank(comm, &r));
    return r;
}

int comm_size(MPI_Comm comm)
{
    int s;
    MPI_CHECK(MPI_Comm_size(comm, &s));
    return s;
}

double comm_wtime(void) { return MPI_Wtime(); }

void comm_compute(double seconds)
{
#ifdef HYDRO_SMPI
    if (seconds > 0)
        smpi_execute(seconds);
#else
    (void)seconds;
#endif
}

char *comm_bcast_text(MPI_Comm comm, const char *text, int root)
{
    long long len = text ? (long long)strlen(text) : -1;
    MPI_CHECK(MPI_Bcast(&len, 1, MPI_LONG_LONG, root, comm));
    if (len < 0)
        return NULL;
    char *copy = xmalloc((size_t)len + 1);
    if (comm_rank(comm) == root)
        memcpy(copy, text, (size_t)len);
    comm_bcast_bytes(comm, copy, (size_t)len, root);
    copy[len] = '\0';
    return copy;
}

void comm_bcast_int(MPI_Comm comm, int *value, int root)
{
    MPI_CHECK(MPI_Bcast(value, 1, MPI_INT, root, comm));
}

void comm_bcast_bytes(MPI_Comm comm, void *data, size_t n, int root)
{
    for (size_t off = 0; off < n; off += CHUNK) {
        size_t len = n - off < CHUNK ? n - off : CHUNK;
        MPI_CHECK(MPI_Bcast((char *)data + off, (int)len, MPI_BYTE, root, comm));
    }
}

long long comm_sum_ll(MPI_Comm comm, long long v)
{
    long long r;
    MPI_CHECK(MPI_Allreduce(&v, &r, 1, MPI_LONG_LONG, MPI_SUM, comm));
    return r;
}

void comm_sum_doubles(MPI_Comm comm, double *v, int n)
{
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, comm));
}

void comm_max_doubles(MPI_Comm comm, double *v, int n)
{
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, comm));
}

void comm_allgather_ll(MPI_Comm comm, long long v, long long *all)
{
    MPI_CHECK(MPI_Allgather(&v, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, comm));
}

long long comm_max_ll(MPI_Comm comm, long long v)
{
    long long r;
    MPI_CHECK(MPI_Allreduce(&v, &r, 1, MPI_LONG_LONG, MPI_MAX, comm));
    return r;
}

long long comm_min_ll(MPI_Comm comm, long long v)
{
    long long r;
    MPI_CHECK(MPI_Allreduce(&v, &r, 1, MPI_LONG_LONG, MPI_MIN, comm));
    return r;
}

double comm_min_double(MPI_Comm comm, double v)
{
    double r;
    MPI_CHECK(MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MIN, comm));
    return r;
}

int comm_node_ranks(MPI_Comm comm)
{
    MPI_Comm node;
    MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int n = comm_size(node);
    MPI_CHECK(MPI_Comm_free(&node));
    return n;
}

int comm_max_int(MPI_Comm comm, int v)
{
    int r;
    MPI_CHECK(MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MAX, comm));
    return r;
}

void comm_stats(MPI_Comm comm, const double *values, int n, struct stats *out)
{
    struct {
        double v;
        int r;
    } *loc = xmalloc((size_t)n * sizeof *loc), *mn = xmalloc((size_t)n * sizeof *mn),
      *mx = xmalloc((size_t)n * sizeof *mx);
    double *sum = xmalloc((size_t)n * sizeof *sum);
    int rank = comm_rank(comm), size = comm_size(comm);
    for (int i = 0; i < n; i++) {
        loc[i].v = values[i];
        loc[i].r = rank;
    }
    MPI_CHECK(MPI_Allreduce(loc, mn, n, MPI_DOUBLE_INT, MPI_MINLOC, comm));
    MPI_CHECK(MPI_Allreduce(loc, mx, n, MPI_DOUBLE_INT, MPI_MAXLOC, comm));
    MPI_CHECK(MPI_Allreduce(values, sum, n, MPI_DOUBLE, MPI_SUM, comm));
    for (int i = 0; i < n; i++) {
        out[i].min = mn[i].v;
        out[i].rank_min = mn[i].r;
        out[i].max = mx[i].v;
        out[i].rank_max = mx[i].r;
        out[i].avg = sum[i] / size;
    }
    free(loc);
    free(mn);
    free(mx);
    free(sum);
}

void reduction_start(MPI_Comm comm, struct reduction *r, const double *v, int n, int is_min)
{
    if (r->active)
        reduction_finish(r);
    if (n < 1 || n > REDUCTION_MAX)
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: a reduction of %d values (at most %d)", n, REDUCTION_MAX);
    r->n = n;
    memcpy(r->in, v, (size_t)n * sizeof *v);
#ifdef HYDRO_SMPI
    /* SimGrid's MPI_Iallreduce costs far more simulation time than MPI_Allreduce (and grows
     * much faster than the rank count): reduce where the result is needed, blocking. Same
     * values, same order of collectives on every rank; only the overlap is lost. */
    r->comm = comm;
    r->is_min = is_min;
    r->req = MPI_REQUEST_NULL;
#else
    MPI_CHECK(MPI_Iallreduce(r->in, r->out, n, MPI_DOUBLE, is_min ? MPI_MIN : MPI_SUM, comm, &r->req));
#endif
    r->active = 1;
}

void reduction_finish(struct reduction *r)
{
    if (!r->active)
        return;
#ifdef HYDRO_SMPI
    MPI_CHECK(MPI_Allreduce(r->in, r->out, r->n, MPI_DOUBLE, r->is_min ? MPI_MIN : MPI_SUM, r->comm));
#else
    MPI_CHECK(MPI_Wait(&r->req, MPI_STATUS_IGNORE));
#endif
    r->active = 0;
}

void reduction_exact_start(MPI_Comm comm, struct reduction_exact *r, const struct xsum *v, int n)
{
    if (r->active)
        reduction_exact_finish(r, NULL);
    if (n < 1 || n > REDUCTION_MAX)
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: an exact reduction of %d sums (at most %d)", n, REDUCTION_MAX);
    r->n = n;
    for (int i = 0; i < n; i++) { /* carried: limbs in [0, 2^32), which 2^30 ranks sum without overflow */
        struct xsum s = v[i];
        xsum_carry(&s);
        memcpy(r->in + (size_t)i * XSUM_LIMBS, s.limb, sizeof s.limb);
    }
    const int len = n * XSUM_LIMBS;
#ifdef HYDRO_SMPI
    r->comm = comm; /* blocking, where the result is needed: see reduction_start */
    r->req = MPI_REQUEST_NULL;
    (void)len;
#else
    MPI_CHECK(MPI_Iallreduce(r->in, r->out, len, MPI_INT64_T, MPI_SUM, comm, &r->req));
#endif
    r->active = 1;
}

void reduction_exact_finish(struct reduction_exact *r, double *out)
{
    if (r->active) {
#ifdef HYDRO_SMPI
        MPI_CHECK(MPI_Allreduce(r->in, r->out, r->n * XSUM_LIMBS, MPI_INT64_T, MPI_SUM, r->comm));
#else
        MPI_CHECK(MPI_Wait(&r->req, MPI_STATUS_IGNORE));
#endif
        r->active = 0;
    }
    for (int i = 0; out && i < r->n; i++) {
        struct xsum s = {.adds = 0};
        memcpy(s.limb, r->out + (size_t)i * XSUM_LIMBS, sizeof s.limb);
        out[i] = xsum_round(&s);
    }
}

void comm_sum_xsums(MPI_Comm comm, const struct xsum *v, int n, struct xsum *out)
{
    struct reduction_exact *r = xcalloc(1, sizeof *r);
    reduction_exact_start(comm, r, v, n);
    reduction_exact_finish(r, NULL);
    for (int i = 0; i < n; i++) {
        xsum_init(&out[i]);
        memcpy(out[i].limb, r->out + (size_t)i * XSUM_LIMBS, sizeof out[i].limb);
        xsum_carry(&out[i]);
    }
    free(r);
}

void comm_sum_exact(MPI_Comm comm, const struct xsum *v, int n, double *out)
{
    struct xsum s[REDUCTION_MAX];
    comm_sum_xsums(comm, v, n, s);
    for (int i = 0; i < n; i++)
        out[i] = xsum_round(&s[i]);
}

void buf_grow(struct buf *b, size_t n)
{
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

_Noreturn void buf_overrun(const struct buf *b, size_t n)
{
    hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: message read past its end (%zu + %zu > %zu)", b->pos, n,
                b->len);
}

void buf_free(struct buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void outbox_init(struct outbox *o, MPI_Comm comm)
{
    memset(o, 0, sizeof *o);
    o->nranks = comm_size(comm);
    o->to = xcalloc((size_t)o->nranks, sizeof *o->to);
    o->chunk = CHUNK;
}

void outbox_init_block(struct outbox *o, MPI_Comm comm, struct comm_pool *pool)
{
    outbox_init(o, comm);
    o->pool = pool;
    o->owns_block = pool == NULL;
    o->block = pool ? &pool->send : xcalloc(1, sizeof *o->block);
    o->block->len = o->block->pos = 0;
    o->start = xcalloc((size_t)o->nranks + 1, sizeof *o->start);
}

struct buf *outbox_to(struct outbox *o, int r)
{
    if (!o->block)
        return &o->to[r];
    if (r + 1 < o->next || o->sealed)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: block outbox packed out of rank order (%d)", r);
    for (; o->next <= r; o->next++)
        o->start[o->next] = o->block->len;
    return o->block;
}

void outbox_seal(struct outbox *o)
{
    if (!o->block || o->sealed)
        return;
    for (; o->next <= o->nranks; o->next++)
        o->start[o->next] = o->block->len;
    for (int r = 0; r < o->nranks; r++) {
        size_t n = o->start[r + 1] - o->start[r];
        o->to[r] = (struct buf){.data = n ? o->block->data + o->start[r] : NULL, .len = n, .cap = n};
    }
    o->sealed = 1;
}

void outbox_init_pooled(struct outbox *o, MPI_Comm comm, struct comm_pool *pool)
{
    memset(o, 0, sizeof *o);
    o->nranks = comm_size(comm);
    if (!pool->to) {
        pool->nranks = o->nranks;
        pool->to = xcalloc((size_t)o->nranks, sizeof *pool->to);
    }
    if (pool->nranks != o->nranks)
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: a buffer pool used on two communicators");
    o->to = pool->to;
    for (int r = 0; r < o->nranks; r++)
        o->to[r].len = o->to[r].pos = 0;
    o->chunk = CHUNK;
    o->pool = pool;
}

void comm_pool_release_send(struct comm_pool *p)
{
    for (int r = 0; r < p->nranks; r++)
        buf_free(&p->to[r]);
    buf_free(&p->send);
}

void comm_pool_free(struct comm_pool *p)
{
    for (int r = 0; r < p->nranks; r++)
        buf_free(&p->to[r]);
    free(p->to);
    buf_free(&p->recv);
    buf_free(&p->send);
    memset(p, 0, sizeof *p);
}

/* At least n bytes of b, contents not kept; grown with a quarter to spare, so that exchanges
 * of slightly varying sizes reuse the same memory. */
static char *pool_reserve(struct buf *b, size_t n)
{
    if (b->cap < n || !b->data) {
        free(b->data);
        b->cap = n + n / 4 + 1;
        b->data = xmalloc(b->cap);
    }
    b->len = n;
    b->pos = 0;
    return b->data;
}

/* After an exchange: pooled buffers keep their memory, the others are freed; a block outbox
 * starts packing again from rank 0 (its block keeps its memory until outbox_free). */
static void outbox_empty(struct outbox *o)
{
    if (o->block) {
        memset(o->to, 0, (size_t)o->nranks * sizeof *o->to); /* views */
        o->block->len = o->block->pos = 0;
        o->next = o->sealed = 0;
        return;
    }
    for (int r = 0; r < o->nranks; r++)
        if (o->pool)
            o->to[r].len = o->to[r].pos = 0;
        else
            buf_free(&o->to[r]);
}

void outbox_free(struct outbox *o)
{
    outbox_empty(o);
    if (o->block) {
        if (o->owns_block) {
            buf_free(o->block);
            free(o->block);
        }
        free(o->start);
        free(o->to);
    } else if (!o->pool)
        free(o->to);
    memset(o, 0, sizeof *o);
}

void inbox_free(struct inbox *in)
{
    if (in->block) {
        if (!in->borrowed)
            free(in->block);
    } else {
        for (int i = 0; i < in->n; i++)
            buf_free(&in->msg[i]);
    }
    free(in->msg);
    free(in->src);
    memset(in, 0, sizeof *in);
}

void comm_waitall(int n, MPI_Request *req, MPI_Status *st)
{
#ifdef HYDRO_SMPI
    /* SimGrid 3.32 completes MPI_Waitall through MPI_Waitany, which goes through every request it
     * was given each time one completes: 90% of the wall time of a 512-rank simulation. One at a
     * time ends when the last one does, as MPI_Waitall. */
    for (int i = 0; i < n; i++)
        MPI_CHECK(MPI_Wait(&req[i], st ? &st[i] : MPI_STATUS_IGNORE));
#else
    if (n > 0)
        MPI_CHECK(MPI_Waitall(n, req, st ? st : MPI_STATUSES_IGNORE));
#endif
}

/* A message of len bytes travels as ceil(len / chunk) MPI messages (none when empty). */
static size_t chunks_of(size_t len, size_t chunk) { return (len + chunk - 1) / chunk; }

/* Posts b's payload to rank r, chunk by chunk; returns the requests written at req. */
static size_t isend_chunks(MPI_Comm comm, const struct buf *b, int r, size_t chunk, MPI_Request *req)
{
    size_t k = 0;
    for (size_t off = 0; off < b->len; off += chunk) {
        size_t n = b->len - off < chunk ? b->len - off : chunk;
        MPI_CHECK(MPI_Isend(b->data + off, (int)n, MPI_BYTE, r, TAG_EXCHANGE_DATA, comm, &req[k++]));
    }
    return k;
}

/* Posts the receives of rank r's payload into m (m->len bytes at m->data); returns their count. */
static size_t irecv_chunks(MPI_Comm comm, struct buf *m, int r, size_t chunk, MPI_Request *req)
{
    size_t k = 0;
    for (size_t off = 0; off < m->len; off += chunk) {
        size_t n = m->len - off < chunk ? m->len - off : chunk;
        MPI_CHECK(MPI_Irecv(m->data + off, (int)n, MPI_BYTE, r, TAG_EXCHANGE_DATA, comm, &req[k++]));
    }
    return k;
}

/* The SMPI build posts the payloads EXCHANGE_WINDOW ring distances at a time (to rank + d, from
 * rank - d): SimGrid's cost per completed message grows with the messages in flight (all at
 * once, the mesh set-up's directory exchanges took minutes at 128 simulated ranks). Before,
 * it used MPI_Alltoallv, which sends every pair a message, empty or not: 4.2 million messages
 * per exchange at 2048 ranks, and the set-up did not end within an hour. No deadlock: rank r's
 * send to r + d and its receive from r - d are in window d / EXCHANGE_WINDOW on both sides,
 * and every rank goes through the windows in order. The real build posts every payload at once. */
#ifdef HYDRO_SMPI
enum { EXCHANGE_WINDOW = 8 };
#else
enum { EXCHANGE_WINDOW = 0 };
#endif

/* Receives in->msg (lengths known) and sends out's messages, EXCHANGE_WINDOW distances at a time. */
static void exchange_windowed(MPI_Comm comm, struct outbox *out, struct inbox *in)
{
    const int P = out->nranks, me = comm_rank(comm);
    const size_t chunk = out->chunk;
    int *slot = xmalloc((size_t)P * sizeof *slot);
    for (int r = 0; r < P; r++)
        slot[r] = -1;
    for (int i = 0; i < in->n; i++)
        slot[in->src[i]] = i;
    size_t cap = 0;
    MPI_Request *req = NULL;
    for (int d0 = 0; d0 < P; d0 += EXCHANGE_WINDOW) {
        const int d1 = d0 + EXCHANGE_WINDOW < P ? d0 + EXCHANGE_WINDOW : P;
        size_t need = 0;
        for (int d = d0; d < d1; d++) {
            int from = (me - d + P) % P;
            need += (slot[from] < 0 ? 0 : chunks_of(in->msg[slot[from]].len, chunk)) +
                    chunks_of(out->to[(me + d) % P].len, chunk);
        }
        if (need > cap) {
            free(req);
            req = xmalloc(need * sizeof *req);
            cap = need;
        }
        size_t k = 0;
        for (int d = d0; d < d1; d++) {
            int from = (me - d + P) % P;
            if (slot[from] >= 0)
                k += irecv_chunks(comm, &in->msg[slot[from]], from, chunk, req + k);
        }
        for (int d = d0; d < d1; d++)
            k += isend_chunks(comm, &out->to[(me + d) % P], (me + d) % P, chunk, req + k);
        comm_waitall((int)k, req, NULL);
    }
    free(req);
    free(slot);
}

/* The counting collective at the start also separates consecutive exchanges: no rank can
 * send messages of exchange k+1 before every rank has entered it, that is finished k. */
void comm_exchange(MPI_Comm comm, struct outbox *out, struct inbox *in)
{
    outbox_seal(out);
    int P = out->nranks;
    const size_t chunk = out->chunk;
    int *flag = xcalloc((size_t)P, sizeof *flag);
    size_t nreq = 0;
    for (int r = 0; r < P; r++)
        if (out->to[r].len) {
            flag[r] = 1;
            nreq += 1 + (EXCHANGE_WINDOW ? 0 : chunks_of(out->to[r].len, chunk));
        }
    int nrecv = 0;
    MPI_CHECK(MPI_Reduce_scatter_block(flag, &nrecv, 1, MPI_INT, MPI_SUM, comm));
    free(flag);

    /* lengths, with the payloads unless windowed */
    MPI_Request *req = xmalloc((nreq ? nreq : 1) * sizeof *req);
    uint64_t *lens = xmalloc((size_t)P * sizeof *lens);
    size_t k = 0;
    for (int r = 0; r < P; r++) {
        struct buf *b = &out->to[r];
        if (!b->len)
            continue;
        lens[r] = b->len;
        MPI_CHECK(MPI_Isend(&lens[r], 1, MPI_UINT64_T, r, TAG_EXCHANGE, comm, &req[k++]));
        if (!EXCHANGE_WINDOW)
            k += isend_chunks(comm, b, r, chunk, req + k);
    }

    /* every length (any source), then the inbox in source order in one block (the pool's, kept
     * for the next exchange, or a fresh one the inbox owns) */
    struct key_idx *from = xmalloc((size_t)(nrecv ? nrecv : 1) * sizeof *from);
    uint64_t *rlen = xmalloc((size_t)(nrecv ? nrecv : 1) * sizeof *rlen);
    size_t total = 0;
    for (int i = 0; i < nrecv; i++) {
        MPI_Status st;
        MPI_CHECK(MPI_Recv(&rlen[i], 1, MPI_UINT64_T, MPI_ANY_SOURCE, TAG_EXCHANGE, comm, &st));
        from[i] = (struct key_idx){st.MPI_SOURCE, i};
        total += rlen[i];
    }
    qsort(from, (size_t)nrecv, sizeof *from, key_idx_cmp);
    char *block = out->pool ? pool_reserve(&out->pool->recv, total) : xmalloc(total ? total : 1);
    in->n = nrecv;
    in->block = block;
    in->borrowed = out->pool != NULL;
    in->src = xmalloc((size_t)(nrecv ? nrecv : 1) * sizeof *in->src);
    in->msg = xmalloc((size_t)(nrecv ? nrecv : 1) * sizeof *in->msg);
    size_t at = 0;
    for (int i = 0; i < nrecv; i++) {
        uint64_t len = rlen[from[i].idx];
        in->src[i] = (int)from[i].key;
        in->msg[i] = (struct buf){.data = block + at, .len = len, .cap = len};
        at += len;
    }
    free(rlen);
    free(from);

    if (EXCHANGE_WINDOW)
        exchange_windowed(comm, out, in);
    else {
        size_t nchunks = 0, kr = 0;
        for (int i = 0; i < nrecv; i++)
            nchunks += chunks_of(in->msg[i].len, chunk);
        MPI_Request *rreq = xmalloc((nchunks ? nchunks : 1) * sizeof *rreq);
        for (int i = 0; i < nrecv; i++)
            kr += irecv_chunks(comm, &in->msg[i], in->src[i], chunk, rreq + kr);
        comm_waitall((int)kr, rreq, NULL);
        free(rreq);
    }
    comm_waitall((int)k, req, NULL);
    free(req);
    free(lens);
    outbox_empty(out);
}

void comm_exchange_collective(MPI_Comm comm, struct outbox *out, struct inbox *in)
{
    outbox_seal(out);
    int P = out->nranks;
    uint64_t *slen = xcalloc((size_t)P, sizeof *slen), *rlen = xcalloc((size_t)P, sizeof *rlen);
    uint64_t most = 0;
    for (int r = 0; r < P; r++) {
        slen[r] = out->to[r].len;
        most = slen[r] > most ? slen[r] : most;
    }
    MPI_CHECK(MPI_Alltoall(slen, 1, MPI_UINT64_T, rlen, 1, MPI_UINT64_T, comm));
    for (int r = 0; r < P; r++)
        most = rlen[r] > most ? rlen[r] : most;
    uint64_t m = (uint64_t)comm_max_ll(comm, (long long)most);
    /* a round's displacements are int: at most INT_MAX / P bytes per pair and round */
    const uint64_t chunk = (uint64_t)INT_MAX / (uint64_t)P < out->chunk ? (uint64_t)INT_MAX / (uint64_t)P : out->chunk;
    int rounds = (int)((m + chunk - 1) / chunk);
    in->n = 0;
    in->block = NULL;
    in->borrowed = 0;
    for (int r = 0; r < P; r++)
        in->n += rlen[r] > 0;
    in->src = xmalloc((size_t)(in->n ? in->n : 1) * sizeof *in->src);
    in->msg = xcalloc((size_t)(in->n ? in->n : 1), sizeof *in->msg);
    int *slot = xmalloc((size_t)P * sizeof *slot);
    for (int r = 0, k = 0; r < P; r++) {
        slot[r] = -1;
        if (rlen[r]) {
            slot[r] = k;
            in->src[k] = r;
            in->msg[k].data = rounds > 1 ? xmalloc(rlen[r]) : NULL; /* one round: into the receive block */
            in->msg[k].len = in->msg[k].cap = rlen[r];
            k++;
        }
    }
    int *scount = xmalloc((size_t)P * sizeof *scount), *rcount = xmalloc((size_t)P * sizeof *rcount);
    int *sdisp = xmalloc((size_t)P * sizeof *sdisp), *rdisp = xmalloc((size_t)P * sizeof *rdisp);
    for (int round = 0; round < rounds; round++) {
        uint64_t off = (uint64_t)round * chunk;
        size_t stot = 0, rtot = 0;
        for (int r = 0; r < P; r++) {
            scount[r] = slen[r] > off ? (int)(slen[r] - off < chunk ? slen[r] - off : chunk) : 0;
            rcount[r] = rlen[r] > off ? (int)(rlen[r] - off < chunk ? rlen[r] - off : chunk) : 0;
            stot += (size_t)scount[r];
            rtot += (size_t)rcount[r];
        }
        struct comm_pool *pool = out->pool; /* one round: both blocks from the pool */
        /* a block outbox in one round is the send block itself (its messages are in rank order) */
        int direct = out->block && rounds == 1;
        static char nothing; /* an empty block has no data: MPI still wants a buffer */
        char *sbuf;
        int own_sbuf = 0; /* freed after the round: neither the block nor the pool's */
        if (direct)
            sbuf = out->block->data ? out->block->data : &nothing;
        else if (pool && !out->block) /* a block outbox's pool->send is its block */
            sbuf = pool_reserve(&pool->send, stot);
        else {
            sbuf = xmalloc(stot ? stot : 1);
            own_sbuf = 1;
        }
        char *rbuf = pool && rounds == 1 ? pool_reserve(&pool->recv, rtot) : xmalloc(rtot ? rtot : 1);
        if (rounds == 1) {
            in->block = rbuf;
            in->borrowed = pool != NULL;
        }
        size_t pos = 0;
        for (int r = 0; r < P; r++) {
            sdisp[r] = direct ? (int)out->start[r] : (int)pos;
            if (scount[r] && !direct)
                memcpy(sbuf + pos, out->to[r].data + off, (size_t)scount[r]);
            pos += (size_t)scount[r];
        }
        pos = 0;
        for (int r = 0; r < P; r++) {
            rdisp[r] = (int)pos;
            pos += (size_t)rcount[r];
        }
        MPI_CHECK(MPI_Alltoallv(sbuf, scount, sdisp, MPI_BYTE, rbuf, rcount, rdisp, MPI_BYTE, comm));
        for (int r = 0; r < P; r++)
            if (rcount[r]) {
                if (rounds == 1)
                    in->msg[slot[r]].data = rbuf + rdisp[r];
                else
                    memcpy(in->msg[slot[r]].data + off, rbuf + rdisp[r], (size_t)rcount[r]);
            }
        if (own_sbuf)
            free(sbuf);
        if (rounds > 1)
            free(rbuf);
    }
    outbox_empty(out);
    free(slot);
    free(scount);
    free(rcount);
    free(sdisp);
    free(rdisp);
    free(slen);
    free(rlen);
}
