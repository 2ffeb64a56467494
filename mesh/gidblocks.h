/* Items sent to, or fetched from, the rank that holds their block of global ids (dumps, restarts,
 * gathers): ids [0, n) cut into equal blocks, rank r holding [r size, (r + 1) size); and ids cut
 * into ranges, found by a binary search (the ghost directory's homes, in proportion to weights;
 * a Gmsh read's shares of node tags). */
#ifndef HYDRO_GIDBLOCKS_H
#define HYDRO_GIDBLOCKS_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

struct gid_blocks {
    int64_t n;    /* ids [0, n) */
    int64_t size; /* ids per block, >= 1 */
    int nranks;   /* ranks first .. first + nranks - 1 hold the blocks (1: everything on one rank, a gather) */
    int first;
};

/* Blocks of ceil(n / nranks) ids on ranks 0 .. nranks - 1. */
void gid_blocks_init(struct gid_blocks *b, int64_t n, int nranks);
/* Every id on rank `rank` (a gather there). */
void gid_blocks_on(struct gid_blocks *b, int64_t n, int rank);
static inline int gid_blocks_rank(const struct gid_blocks *b, int64_t gid) { return b->first + (int)(gid / b->size); }
/* The ids rank holds: [lo, lo + cnt), empty (lo = n) for a rank holding none. */
void gid_blocks_range(const struct gid_blocks *b, int rank, int64_t *lo, int64_t *cnt);

/* Ranges of ids [0, n) in proportion to weights: rank r of P holds [first[r], first[r + 1])
 * (first: P + 1 entries, first[0] = 0, first[P] = n; equal ranges when every weight is 0). A
 * rank of weight 0 holds none. */
void id_ranges_by_weight(const long long *weight, int P, int64_t n, int64_t *first);
/* The rank holding id: the last r < P with first[r] <= id (reads first[0 .. P - 1] only; an
 * empty range starts where the next one does). */
int id_ranges_find(const int64_t *first, int P, int64_t id);

/* Push: each of n local items, global id gid[i] (each id on exactly one rank), sends a record of
 * rec bytes to the holder of its block; the holder gets its whole block in id order. The caller
 * writes item i's record at gid_push_record(p, i), starting with its int64 gid. */
struct gid_push {
    MPI_Comm comm;
    struct gid_blocks b;
    size_t rec;
    const char *what; /* "cell", "node": for the internal-error messages */
    int *scount, *sdisp;
    int32_t *slot; /* [n] record place of item i in sbuf */
    char *sbuf;
};
void gid_push_init(struct gid_push *p, MPI_Comm comm, const struct gid_blocks *b, const int64_t *gid, int64_t n,
                   size_t rec, const char *what);
static inline char *gid_push_record(const struct gid_push *p, int64_t i) { return p->sbuf + (size_t)p->slot[i] * p->rec; }
/* Collective (MPI_Alltoallv): returns this rank's block [*lo, *lo + *cnt) in id order, every id of
 * it exactly once (checked), malloc'd; frees the push. */
char *gid_push_exchange(struct gid_push *p, int64_t *lo, int64_t *cnt);

/* Fetch, collective: each of n local items (any ids, several ranks may ask for the same one)
 * gets the record of rec bytes its holder keeps at block + (gid - lo) * rec, into out + i * rec.
 * asked: NULL, or [cnt] flags of the holder's block set where some rank asked for the id. */
void gid_fetch(MPI_Comm comm, const struct gid_blocks *b, const int64_t *gid, int64_t n, const char *block,
               size_t rec, char *out, unsigned char *asked);

#endif
