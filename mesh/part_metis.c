/* The METIS backend: the distributed graph gathered on rank 0 in global id order (the order a
 * serial code would give METIS, so that the partition does not depend on where the cells were),
 * METIS with a fixed seed (k-way; recursive bisection for several constraints on up to 8 parts)
 * and the parts' target shares, the parts sent back to the vertices' ranks. */
#include <metis.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "gidblocks.h"
#include "partitioner.h"

enum { METIS_SEED = 20260101 };
enum { METIS_RECURSIVE_MAX = 8 }; /* parts up to which several constraints use recursive bisection */

/* METIS into part[nvtx] (vertex weights vw[nvtx][ncon] or NULL: with ncon > 1 each constraint is
 * balanced on its own), seeded so every run agrees. Several constraints on up to
 * METIS_RECURSIVE_MAX parts use recursive bisection, as METIS's manual advises for few parts: on
 * the issue-17 2-rank case (80 000 cells, two constraints) 37-46 ms against k-way's 81 ms, with a
 * better balance and the same cut (one constraint: 30 against 36 ms, not worth changing every
 * set-up's partition for).
 * METIS catches SIGTERM and SIGABRT while it runs and turns them into an error return, which
 * would end the job instead of the clean stop with a dump that SIGTERM asks for: SIGTERM is held
 * pending during the call and hydro's handlers are put back after it. */
static void metis_part(idx_t nvtx, idx_t ncon, idx_t *xadj, idx_t *adj, idx_t *vw, idx_t nparts, const double *share,
                       idx_t *part)
{
    real_t *tp = NULL; /* each part's fraction of every constraint (NULL: equal) */
    if (share) {
        tp = xmalloc((size_t)nparts * (size_t)ncon * sizeof *tp);
        for (idx_t p = 0; p < nparts; p++)
            for (idx_t k = 0; k < ncon; k++)
                tp[p * ncon + k] = (real_t)share[p];
    }
    struct sigaction term, abrt;
    sigset_t hold, old;
    sigaction(SIGTERM, NULL, &term);
    sigaction(SIGABRT, NULL, &abrt);
    sigemptyset(&hold);
    sigaddset(&hold, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &hold, &old);
    idx_t objval = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = METIS_SEED;
    options[METIS_OPTION_NUMBERING] = 0;
    const int bisect = ncon > 1 && nparts <= METIS_RECURSIVE_MAX;
    int rc = bisect ? METIS_PartGraphRecursive(&nvtx, &ncon, xadj, adj, vw, NULL, NULL, &nparts, tp, NULL, options,
                                               &objval, part)
                    : METIS_PartGraphKway(&nvtx, &ncon, xadj, adj, vw, NULL, NULL, &nparts, tp, NULL, options,
                                          &objval, part);
    free(tp);
    sigaction(SIGTERM, &term, NULL);
    sigaction(SIGABRT, &abrt, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL); /* a SIGTERM that came meanwhile is delivered now */
    if (rc != METIS_OK)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "METIS_PartGraph%s failed: %s", bisect ? "Recursive" : "Kway",
                    rc == METIS_ERROR_INPUT    ? "input error"
                    : rc == METIS_ERROR_MEMORY ? "out of memory"
                                               : "error");
}

/* The whole graph in METIS's arrays, vertex i the cell of global id i. */
struct whole {
    idx_t n, *xadj, *adj, *vw; /* vw [n][the graph's ncon], NULL: unweighted */
    idx_t *owned_xadj, *owned_adj; /* allocated here (else borrowed from the dgraph) */
    int32_t *gid_of;               /* gathered: the gid of each global vertex number */
};

/* Rank 0 already holds every vertex, in global id order from 0: METIS reads its arrays. */
static void whole_from_local(const struct dgraph *g, struct whole *w)
{
    w->n = (idx_t)g->nlocal;
    if (sizeof(idx_t) == sizeof(int32_t)) {
        w->xadj = (idx_t *)g->xadj;
        w->adj = (idx_t *)g->adjncy;
    } else { /* a METIS built with 64-bit indices */
        int32_t ne = g->xadj[g->nlocal];
        w->xadj = w->owned_xadj = xmalloc(((size_t)g->nlocal + 1) * sizeof *w->xadj);
        w->adj = w->owned_adj = xmalloc((size_t)(ne ? ne : 1) * sizeof *w->adj);
        for (int32_t i = 0; i <= g->nlocal; i++)
            w->xadj[i] = g->xadj[i];
        for (int32_t j = 0; j < ne; j++)
            w->adj[j] = g->adjncy[j];
    }
    if (g->vwgt) {
        size_t nw = (size_t)g->nlocal * (size_t)g->ncon;
        w->vw = xmalloc((nw ? nw : 1) * sizeof *w->vw);
        for (size_t i = 0; i < nw; i++)
            w->vw[i] = g->vwgt[i];
    }
}

/* A vertex's row as it travels to the root: gid, vertex number, degree, its ncon weights, then
 * its neighbours (at R_WEIGHT + 4 ncon). */
enum { R_GID = 0, R_VNUM = 8, R_DEGREE = 12, R_WEIGHT = 16 };

/* Collective: every rank's rows to the root, where they arrive in global id order. */
static void whole_gather(MPI_Comm comm, const struct dgraph *g, int weighted, int root, struct whole *w)
{
    const int me = comm_rank(comm);
    const int64_t N = g->vtxdist[g->nranks], first = g->vtxdist[me];
    int deg = 0;
    for (int32_t i = 0; i < g->nlocal; i++)
        deg = g->xadj[i + 1] - g->xadj[i] > deg ? g->xadj[i + 1] - g->xadj[i] : deg;
    deg = comm_max_int(comm, deg);
    const int ncon = g->ncon;
    const size_t r_adj = R_WEIGHT + 4 * (size_t)ncon, rec = r_adj + 4 * (size_t)deg;
    struct gid_blocks to_root;
    gid_blocks_on(&to_root, N, root);
    struct gid_push push;
    gid_push_init(&push, comm, &to_root, g->gid, g->nlocal, rec, "graph vertex");
    for (int32_t i = 0; i < g->nlocal; i++) {
        char *r = gid_push_record(&push, i);
        int32_t vnum = (int32_t)(first + i), d = g->xadj[i + 1] - g->xadj[i];
        memcpy(r + R_GID, &g->gid[i], 8);
        memcpy(r + R_VNUM, &vnum, 4);
        memcpy(r + R_DEGREE, &d, 4);
        for (int k = 0; k < ncon; k++) {
            int32_t wt = g->vwgt ? g->vwgt[(size_t)i * ncon + k] : 1;
            memcpy(r + R_WEIGHT + 4 * (size_t)k, &wt, 4);
        }
        memcpy(r + r_adj, g->adjncy + g->xadj[i], 4 * (size_t)d);
        memset(r + r_adj + 4 * (size_t)d, 0, rec - r_adj - 4 * (size_t)d); /* the unused tail is sent too */
    }
    int64_t lo, cnt;
    char *rows = gid_push_exchange(&push, &lo, &cnt);
    if (me == root) {
        int32_t *gid_of = w->gid_of = xmalloc((size_t)(N ? N : 1) * sizeof *gid_of); /* vertex number -> gid */
        int64_t ne = 0;
        for (int64_t i = 0; i < N; i++) {
            int32_t vnum, d;
            memcpy(&vnum, rows + (size_t)i * rec + R_VNUM, 4);
            memcpy(&d, rows + (size_t)i * rec + R_DEGREE, 4);
            gid_of[vnum] = (int32_t)i;
            ne += d;
        }
        if (sizeof(idx_t) == sizeof(int32_t) && ne > INT32_MAX) /* METIS's offsets would wrap */
            hydro_fatal(comm, EXIT_RUNTIME, "the dual graph has %lld edges, more than METIS's 32-bit indices hold",
                        (long long)ne);
        w->n = (idx_t)N;
        w->xadj = w->owned_xadj = xmalloc(((size_t)N + 1) * sizeof *w->xadj);
        w->adj = w->owned_adj = xmalloc((size_t)(ne ? ne : 1) * sizeof *w->adj);
        w->vw = weighted ? xmalloc((size_t)(N ? N : 1) * (size_t)ncon * sizeof *w->vw) : NULL;
        w->xadj[0] = 0;
        for (int64_t i = 0; i < N; i++) {
            const char *r = rows + (size_t)i * rec;
            int32_t d, wt, v;
            memcpy(&d, r + R_DEGREE, 4);
            for (int32_t j = 0; j < d; j++) {
                memcpy(&v, r + r_adj + 4 * (size_t)j, 4);
                w->adj[w->xadj[i] + j] = gid_of[v];
            }
            w->xadj[i + 1] = w->xadj[i] + d;
            for (int k = 0; w->vw && k < ncon; k++) {
                memcpy(&wt, r + R_WEIGHT + 4 * (size_t)k, 4);
                w->vw[(size_t)i * ncon + k] = wt;
            }
        }
    }
    free(rows);
}

/* The root's parts, in global id order, back to the vertices' ranks. */
static void scatter_parts(MPI_Comm comm, const struct dgraph *g, int on_root, const struct whole *w,
                          const idx_t *whole_part, int *part)
{
    if (on_root) { /* not gathered: vertex i is the cell of gid i, all on rank 0 */
        for (int32_t i = 0; i < g->nlocal; i++)
            part[i] = (int)whole_part[i];
        return;
    }
    struct outbox out;
    outbox_init(&out, comm);
    if (w->gid_of) /* the root: each rank's vertices in its order, global numbers vtxdist[r] .. vtxdist[r + 1] */
        for (int r = 0; r < g->nranks; r++)
            for (int64_t v = g->vtxdist[r]; v < g->vtxdist[r + 1]; v++) {
                int32_t p = (int32_t)whole_part[w->gid_of[v]];
                buf_put(&out.to[r], &p, sizeof p);
            }
    struct inbox in;
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    for (int32_t i = 0; i < g->nlocal; i++) {
        int32_t p;
        buf_get(&in.msg[0], &p, sizeof p); /* the one message, from the root */
        part[i] = p;
    }
    inbox_free(&in);
}

static void metis_partition(MPI_Comm comm, const struct dgraph *g, int nparts, int repart, const double *share,
                            int *part)
{
    (void)repart; /* a partition from scratch: distribute_parts then keeps the moves few */
    if (nparts == 1) { /* METIS 5.1 fails on nparts = 1: everything stays in part 0 */
        for (int32_t i = 0; i < g->nlocal; i++)
            part[i] = 0;
        return;
    }
    const int me = comm_rank(comm), P = g->nranks;
    /* rank 0 holds every vertex, numbered by gid from 0 (the set-up: rank 0 read the mesh) */
    int on_root = g->vtxdist[1] == g->vtxdist[P];
    if (me == 0)
        for (int32_t i = 0; i < g->nlocal && on_root; i++)
            on_root = g->gid[i] == i;
    comm_bcast_int(comm, &on_root, 0);
    /* else the graph goes to the fastest rank (by the parts' shares; the first of equals), which
     * computes the partition: a rank sharing its core gathers and partitions far slower */
    int root = 0;
    for (int r = 1; share && !on_root && r < P; r++)
        root = share[r] > share[root] ? r : root;
    int weighted = comm_max_int(comm, g->vwgt != NULL);
    struct whole w = {0};
    if (on_root && me == 0)
        whole_from_local(g, &w);
    else if (!on_root)
        whole_gather(comm, g, weighted, root, &w);
    idx_t *whole_part = NULL;
    int in_place = on_root && sizeof(idx_t) == sizeof *part; /* METIS writes part itself */
    if (me == root) {
        whole_part = in_place ? (idx_t *)part : xcalloc((size_t)(w.n ? w.n : 1), sizeof *whole_part);
        metis_part(w.n, w.vw ? (idx_t)g->ncon : 1, w.xadj, w.adj, w.vw, (idx_t)nparts, share, whole_part);
    }
    if (!in_place)
        scatter_parts(comm, g, on_root, &w, whole_part, part);
    if (!in_place)
        free(whole_part);
    free(w.owned_xadj);
    free(w.owned_adj);
    free(w.vw);
    free(w.gid_of);
}

const struct partitioner partitioner_metis = {"metis", "METIS", 0, METIS_RECURSIVE_MAX, metis_partition, NULL};
