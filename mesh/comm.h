/* The MPI entry points the rest of hydro uses: start/stop, clock, small collectives, sparse exchange. */
#ifndef HYDRO_COMM_H
#define HYDRO_COMM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <mpi.h>

#include "xsum.h"

void comm_init(int *argc, char ***argv);
void comm_finalize(void);
int comm_rank(MPI_Comm comm);
int comm_size(MPI_Comm comm);
/* Collective: how many ranks of comm share this rank's node (shared memory). */
int comm_node_ranks(MPI_Comm comm);
double comm_wtime(void);
/* SMPI build: this rank computes for `seconds` of simulated time (its compute model; see
 * miniapp/kernels.h). A no-op in the real build, where computing takes the time it takes. */
void comm_compute(double seconds);

/* Rank root's text (NUL-terminated, or NULL meaning "failed") reaches every rank.
 * Returns a malloc'd copy on every rank, or NULL on every rank when root had NULL. */
char *comm_bcast_text(MPI_Comm comm, const char *text, int root);
void comm_bcast_int(MPI_Comm comm, int *value, int root);
/* Plain data (no pointers inside) from root to every rank. */
void comm_bcast_bytes(MPI_Comm comm, void *data, size_t n, int root);

long long comm_sum_ll(MPI_Comm comm, long long v);
/* In place, element-wise over ranks (exact for sums of integers below 2^53). */
void comm_sum_doubles(MPI_Comm comm, double *v, int n);
void comm_max_doubles(MPI_Comm comm, double *v, int n);
/* Every rank's v, in rank order, into all[comm size]. */
void comm_allgather_ll(MPI_Comm comm, long long v, long long *all);
long long comm_max_ll(MPI_Comm comm, long long v);
long long comm_min_ll(MPI_Comm comm, long long v);
double comm_min_double(MPI_Comm comm, double v);
int comm_max_int(MPI_Comm comm, int v);

/* Cross-rank statistics of one value: min, average, max and the ranks holding min and max. */
struct stats {
    double min, avg, max;
    int rank_min, rank_max;
};
void comm_stats(MPI_Comm comm, const double *values, int n, struct stats *out);

/* A reduction started now and completed when its result is needed (MPI_Iallreduce).
 * The SMPI build (HYDRO_SMPI) reduces with a blocking MPI_Allreduce in reduction_finish:
 * SimGrid simulates MPI_Iallreduce far more slowly than MPI_Allreduce. */
enum { REDUCTION_MAX = 20 }; /* values one reduction carries at most */
struct reduction {
    MPI_Request req;
    int n, active;
    double in[REDUCTION_MAX], out[REDUCTION_MAX];
#ifdef HYDRO_SMPI
    MPI_Comm comm;
    int is_min;
#endif
};
void reduction_start(MPI_Comm comm, struct reduction *r, const double *v, int n, int is_min);
/* Waits if still running; the result stays in r->out. */
void reduction_finish(struct reduction *r);

/* An exact sum over the ranks of up to REDUCTION_MAX exact sums (xsum.h), started now and
 * finished when needed: their limbs are integers, summed by MPI_Iallreduce, so the total does
 * not depend on how the terms fall to the ranks nor on the order the ranks are summed in. */
struct reduction_exact {
    MPI_Request req;
    int n, active;
    int64_t in[REDUCTION_MAX * XSUM_LIMBS], out[REDUCTION_MAX * XSUM_LIMBS];
#ifdef HYDRO_SMPI
    MPI_Comm comm;
#endif
};
void reduction_exact_start(MPI_Comm comm, struct reduction_exact *r, const struct xsum *v, int n);
/* Waits if still running; out[i] is sum i rounded to the nearest double. */
void reduction_exact_finish(struct reduction_exact *r, double *out);
/* Both at once (blocking). */
void comm_sum_exact(MPI_Comm comm, const struct xsum *v, int n, double *out);
/* The same, the sums kept exact: out[i] is sum i carried (xsum_carry), the same limbs whatever
 * the rank count. */
void comm_sum_xsums(MPI_Comm comm, const struct xsum *v, int n, struct xsum *out);

/* MPI_Waitall (st: NULL, or n statuses); the SMPI build waits for each request in turn. */
void comm_waitall(int n, MPI_Request *req, MPI_Status *st);

/* Growable byte buffer with a read cursor, for messages. */
struct buf {
    char *data;
    size_t len, cap, pos;
};
/* The slow paths of the inline functions below: room for n more bytes (grown geometrically), and
 * reading past the end (fatal). */
void buf_grow(struct buf *b, size_t n);
_Noreturn void buf_overrun(const struct buf *b, size_t n);
/* n more bytes at the end; the pointer is valid until the next append.
 * Inline, as buf_put and buf_get: the packers call them once per value, and a copy of a constant
 * size then compiles to a move instead of a call to memcpy (8% of mesh_build's time). */
static inline void *buf_append(struct buf *b, size_t n)
{
    if (b->len + n > b->cap)
        buf_grow(b, n);
    void *at = b->data + b->len;
    b->len += n;
    return at;
}
static inline void buf_put(struct buf *b, const void *p, size_t n)
{
    void *at = buf_append(b, n);
    if (n)
        memcpy(at, p, n);
}
static inline void buf_get(struct buf *b, void *p, size_t n)
{
    if (b->pos + n > b->len)
        buf_overrun(b, n);
    if (n)
        memcpy(p, b->data + b->pos, n);
    b->pos += n;
}
void buf_free(struct buf *b);
static inline void buf_put_i64(struct buf *b, int64_t v) { buf_put(b, &v, sizeof v); }
static inline int64_t buf_get_i64(struct buf *b)
{
    int64_t v;
    buf_get(b, &v, sizeof v);
    return v;
}
static inline int buf_done(const struct buf *b) { return b->pos >= b->len; }

/* Sparse personalised exchange: one byte message per destination rank that has data.
 * Messages of any size (split into chunks under 1 GiB). Received messages are sorted by
 * source rank, so the result does not depend on arrival order. */
struct outbox {
    int nranks;
    struct buf *to; /* [nranks] */
    size_t chunk;   /* largest MPI message in bytes, 1 GiB; the same on every rank (tests lower it) */
    struct comm_pool *pool; /* NULL, or where to and the received messages live (see below) */
    /* block outboxes (outbox_init_block): every message packed into one block, in rank order;
     * to[r] are views into it once sealed */
    struct buf *block;
    size_t *start; /* [nranks + 1] where each rank's message begins in block */
    int next;      /* ranks below next have their start */
    int owns_block, sealed;
};
struct inbox {
    int n;
    int *src;        /* [n], ascending */
    struct buf *msg; /* [n] */
    char *block;     /* when set, every message's data lies in this one allocation (back to back, in
                        source order) */
    int borrowed;    /* block belongs to a comm_pool: inbox_free leaves it */
};
/* Buffers kept from one exchange to the next (migrations). With Open MPI's single-copy
 * transfer (CMA) on the development VM, a message sent from or received into memory that no
 * transfer used before moves at a tenth of the speed of one through reused memory
 * (BENCHMARKS.md); a pool keeps the send buffers, the receive block and MPI_Alltoallv's send
 * block of one kind of exchange. The received messages stay valid until the pool's next
 * exchange. */
struct comm_pool {
    int nranks;
    struct buf *to;  /* [nranks] send buffers: an exchange empties them, their memory stays */
    struct buf recv; /* received messages, back to back */
    struct buf send; /* MPI_Alltoallv's send block */
};
void comm_pool_free(struct comm_pool *p);
/* Frees its send buffers and send block (after an exchange, when they will not be reused soon),
 * keeping the received messages. */
void comm_pool_release_send(struct comm_pool *p);
void outbox_init(struct outbox *o, MPI_Comm comm);
/* An outbox that packs into pool's send buffers; its exchange receives into pool's block. */
void outbox_init_pooled(struct outbox *o, MPI_Comm comm, struct comm_pool *pool);
/* An outbox whose messages are packed back to back into one block (pool's send block when
 * pool is not NULL), so that MPI_Alltoallv sends straight from it instead of copying every
 * message into a send block first (46 MB per migration in the bench). Messages must be packed
 * in ascending destination order, each complete before the next (outbox_to), and the outbox
 * sealed before its lengths are read (the exchanges seal it themselves). */
void outbox_init_block(struct outbox *o, MPI_Comm comm, struct comm_pool *pool);
/* The buffer rank r's message is appended to: out->to[r], or the block of a block outbox. */
struct buf *outbox_to(struct outbox *o, int r);
/* Block outbox: packing is over; to[r] become views of the block (a no-op otherwise). */
void outbox_seal(struct outbox *o);
void outbox_free(struct outbox *o);
void inbox_free(struct inbox *in);
/* Sends and empties every buffer of out (which can be filled again for the next exchange).
 * Point to point: a counting MPI_Reduce_scatter_block, then to each destination a length
 * message and the payload (MPI_Isend); every length is received (any source), then every
 * payload into one block (out's pool's when it has one). The SMPI build posts the payloads a
 * few ring distances at a time (SimGrid's cost per message grows with those in flight). */
void comm_exchange(MPI_Comm comm, struct outbox *out, struct inbox *in);
/* The same with collectives: MPI_Alltoall of the sizes, then MPI_Alltoallv in rounds of at
 * most 1 GiB per pair (more data takes more rounds: never truncated). */
void comm_exchange_collective(MPI_Comm comm, struct outbox *out, struct inbox *in);

#endif
