/* METIS and block partitioning, scatter of owned cells, partition quality (see partition.h). */
#include "partition.h"

#include <metis.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "check.h"
#include "mesh_local.h"

enum { METIS_SEED = 20260101 };

/* Does cell d of g have a face whose key is key? */
static int has_face(const struct cellset *g, int64_t d, const int64_t key[4])
{
    const struct element *el = g->el;
    const int64_t *nodes = g->nodes + d * el->nnodes;
    for (int i = 0; i < el->nface_nodes; i++) { /* cheap test first: all nodes in d */
        int found = 0;
        for (int k = 0; k < el->nnodes && !found; k++)
            found = nodes[k] == key[i];
        if (!found)
            return 0;
    }
    for (int t = 0; t < el->nfaces; t++) {
        int64_t k2[4];
        element_face_key(el, nodes, t, k2);
        if (!memcmp(k2, key, sizeof k2))
            return 1;
    }
    return 0;
}

static int key_cmp(const int64_t a[4], const int64_t b[4])
{
    for (int i = 0; i < 4; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Cell dual graph in CSR (METIS's idx_t). A cell's neighbours come in the order of the keys
 * of the faces it shares with them (sorted node ids); several cells on one face (a mesh that
 * mesh_build refuses later) are chained in ascending index: the graph that sorting all face
 * records by (key, cell) and linking equal neighbours gives, which METIS's partition depends
 * on. Faces are matched through the cells around their smallest node instead, so that no
 * array of face records (48 bytes per cell face, for the whole mesh on rank 0) is held. */
static void dual_graph(const struct cellset *g, idx_t **xadj_out, idx_t **adj_out)
{
    const struct element *el = g->el;
    const int nv = el->nnodes, nf = el->nfaces;
    const int64_t n = g->ncells;
    struct idmap index; /* node gid -> dense index (the set may carry no node coordinates) */
    idmap_init(&index, (size_t)n + (size_t)n / 4 + 16);
    int64_t nn = 0;
    for (int64_t i = 0; i < n * nv; i++)
        nn += idmap_put(&index, g->nodes[i], nn);
    int64_t *off = xcalloc((size_t)nn + 1, sizeof *off); /* node -> cells, CSR */
    for (int64_t i = 0; i < n * nv; i++)
        off[idmap_get(&index, g->nodes[i]) + 1]++;
    for (int64_t i = 0; i < nn; i++)
        off[i + 1] += off[i];
    idx_t *around = xmalloc((size_t)(n > 0 ? n * nv : 1) * sizeof *around);
    for (int64_t c = 0; c < n; c++)
        for (int k = 0; k < nv; k++)
            around[off[idmap_get(&index, g->nodes[c * nv + k])]++] = (idx_t)c;
    for (int64_t i = nn; i > 0; i--) /* back to the starts: lists are in ascending cell */
        off[i] = off[i - 1];
    off[0] = 0;
    idx_t *xadj = xmalloc((size_t)(n + 1) * sizeof *xadj);
    int64_t len = 0, cap = n * nf + 16;
    idx_t *adj = xmalloc((size_t)cap * sizeof *adj);
    xadj[0] = 0;
    for (int64_t c = 0; c < n; c++) {
        int64_t key[MAX_CELL_FACES][4];
        int order[MAX_CELL_FACES];
        for (int f = 0; f < nf; f++) { /* the cell's faces in key order (insertion sort) */
            element_face_key(el, g->nodes + c * nv, f, key[f]);
            int j = f;
            for (; j > 0 && key_cmp(key[order[j - 1]], key[f]) > 0; j--)
                order[j] = order[j - 1];
            order[j] = f;
        }
        for (int i = 0; i < nf; i++) {
            const int64_t *k = key[order[i]];
            int64_t s = idmap_get(&index, k[0]), pred = -1, succ = -1;
            for (int64_t j = off[s]; j < off[s + 1]; j++) {
                int64_t d = around[j];
                if (d == c || !has_face(g, d, k))
                    continue;
                if (d < c)
                    pred = d; /* ascending list: the last one below c */
                else if (succ < 0)
                    succ = d;
            }
            if (len + 2 > cap) {
                cap *= 2;
                adj = xrealloc(adj, (size_t)cap * sizeof *adj);
            }
            if (pred >= 0)
                adj[len++] = (idx_t)pred;
            if (succ >= 0)
                adj[len++] = (idx_t)succ;
        }
        xadj[c + 1] = (idx_t)len;
    }
    free(around);
    free(off);
    idmap_free(&index);
    *xadj_out = xadj;
    *adj_out = adj;
}

/* METIS_PartGraphKway into part[nvtx] (vertex weights vw or NULL), seeded so every run agrees.
 * METIS catches SIGTERM and SIGABRT while it runs and turns them into an error return, which
 * would end the job instead of the clean stop with a dump that SIGTERM asks for: SIGTERM is held
 * pending during the call and hydro's handlers are put back after it. */
static void metis_kway(idx_t nvtx, idx_t *xadj, idx_t *adj, idx_t *vw, idx_t nparts, idx_t *part)
{
    struct sigaction term, abrt;
    sigset_t hold, old;
    sigaction(SIGTERM, NULL, &term);
    sigaction(SIGABRT, NULL, &abrt);
    sigemptyset(&hold);
    sigaddset(&hold, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &hold, &old);
    idx_t ncon = 1, objval = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = METIS_SEED;
    options[METIS_OPTION_NUMBERING] = 0;
    int rc = METIS_PartGraphKway(&nvtx, &ncon, xadj, adj, vw, NULL, NULL, &nparts, NULL, NULL, options, &objval, part);
    sigaction(SIGTERM, &term, NULL);
    sigaction(SIGABRT, &abrt, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL); /* a SIGTERM that came meanwhile is delivered now */
    if (rc != METIS_OK)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "METIS_PartGraphKway failed: %s",
                    rc == METIS_ERROR_INPUT    ? "input error"
                    : rc == METIS_ERROR_MEMORY ? "out of memory"
                                               : "error");
}

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

/* Send each cell of some to dest[i] (cells and their nodes), receive into own: from each
 * source rank in ascending order. The cells staying here are copied, not packed and sent to
 * this rank (on rank 0 at set-up that was two more copies of the mesh it keeps). */
static void send_cells(MPI_Comm comm, const struct cellset *some, const int *dest, struct cellset *own)
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

int partition_metis(MPI_Comm comm, const struct cellset *global, struct cellset *own, char *err, size_t errlen)
{
    int P = comm_size(comm), me = comm_rank(comm);
    int ok = 1;
    int64_t n = me == 0 ? global->ncells : 0; /* other ranks hold an empty set */
    int *dest = xcalloc((size_t)(n ? n : 1), sizeof *dest);
    if (me == 0 && n < P) {
        snprintf(err, errlen, "the mesh has %lld cells, fewer than the %d ranks", (long long)n, P);
        ok = 0;
    } else if (me == 0 && P > 1) { /* METIS 5.1 fails on nparts = 1: everything stays on rank 0 */
        idx_t *part = xcalloc((size_t)n, sizeof *part);
        idx_t *xadj, *adj;
        dual_graph(global, &xadj, &adj);
        metis_kway((idx_t)n, xadj, adj, NULL, (idx_t)P, part);
        for (int64_t c = 0; c < n; c++)
            dest[c] = (int)part[c];
        free(xadj);
        free(adj);
        free(part);
    }
    comm_bcast_int(comm, &ok, 0);
    if (ok)
        send_cells(comm, global, dest, own);
    free(dest);
    return ok ? 0 : -1;
}

int partition_block(MPI_Comm comm, const struct box *b, struct cellset *own, int parts[3], char *err,
                    size_t errlen)
{
    int P = comm_size(comm);
    if (cartesian_split(b, P, parts)) {
        snprintf(err, errlen, "cannot split %lld x %lld x %lld cells into %d blocks of at least one cell",
                 (long long)b->n[0], (long long)b->n[1], (long long)(b->dim == 3 ? b->n[2] : 1), P);
        return -1;
    }
    int64_t lo[3], hi[3];
    cartesian_block(b, parts, comm_rank(comm), lo, hi);
    cartesian_generate(b, lo, hi, own);
    return 0;
}

int partition_metis_gather(MPI_Comm comm, const struct cellset *some, struct cellset *own, char *err, size_t errlen)
{
    struct cellset global;
    cellset_init(&global, some->el->dim);
    int *dest = xcalloc((size_t)(some->ncells ? some->ncells : 1), sizeof *dest); /* all to rank 0 */
    send_cells(comm, some, dest, &global);
    free(dest);
    cellset_sort(&global); /* the order METIS sees in a fresh run */
    int rc = partition_metis(comm, &global, own, err, errlen);
    cellset_free(&global);
    return rc;
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
    if (cartesian_split(b, P, parts)) {
        snprintf(err, errlen, "cannot split %lld x %lld x %lld cells into %d blocks of at least one cell",
                 (long long)b->n[0], (long long)b->n[1], (long long)(b->dim == 3 ? b->n[2] : 1), P);
        return -1;
    }
    int *dest = xmalloc((size_t)(some->ncells ? some->ncells : 1) * sizeof *dest);
    for (int64_t c = 0; c < some->ncells; c++) {
        int64_t g = some->gid[c], i = g % b->n[0], j = (g / b->n[0]) % b->n[1], k = g / (b->n[0] * b->n[1]);
        dest[c] = block_index(i, b->n[0], parts[0]) +
                  parts[0] * (block_index(j, b->n[1], parts[1]) + parts[1] * block_index(k, b->n[2], parts[2]));
    }
    send_cells(comm, some, dest, own);
    free(dest);
    return 0;
}

static double weight_imbalance(const double *w, int P)
{
    double lo = w[0], hi = w[0];
    for (int r = 1; r < P; r++) {
        lo = w[r] < lo ? w[r] : lo;
        hi = w[r] > hi ? w[r] : hi;
    }
    return lo > 0 ? (hi - lo) / lo : -1;
}

/* The weight of the cells of one new part that one rank holds now. */
struct overlap {
    double w;
    int part, rank;
};

static int overlap_by_pair(const void *a, const void *b)
{
    const struct overlap *x = a, *y = b;
    if (x->part != y->part)
        return x->part < y->part ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Heaviest first; ties by (part, rank), so every run assigns the same way. */
static int overlap_by_weight(const void *a, const void *b)
{
    const struct overlap *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return overlap_by_pair(a, b);
}

void partition_rebalance(MPI_Comm comm, const struct mesh *m, const int *weight, int *dest, double *imb_before,
                         double *imb_after)
{
    const int P = comm_size(comm), me = comm_rank(comm), nv = m->el->nnodes;
    struct outbox out;
    outbox_init(&out, comm);
    struct buf *b = &out.to[0]; /* every rank's cells, weights included, to rank 0 */
    buf_put_i64(b, m->ncells_owned);
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        buf_put_i64(b, m->cell_gid[c]);
        buf_put_i64(b, weight[c]);
        for (int k = 0; k < nv; k++)
            buf_put_i64(b, m->node_gid[m->cell_nodes[(size_t)c * nv + k]]);
    }
    struct inbox in;
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    outbox_init(&out, comm); /* the answer: each rank's destinations, from rank 0 */
    double w[2] = {0, 0};
    if (me == 0) {
        /* the whole mesh, indexed by global id (ids are dense) */
        int64_t n = m->global_ncells;
        struct cellset g;
        cellset_init(&g, m->el->dim);
        idx_t *vw = xcalloc((size_t)n, sizeof *vw);
        int *owner = xcalloc((size_t)n, sizeof *owner);
        int64_t *pos = xcalloc((size_t)n, sizeof *pos); /* index in the source's own order */
        int64_t nodes[MAX_CELL_NODES];
        for (int i = 0; i < in.n; i++) {
            int64_t cnt = buf_get_i64(&in.msg[i]);
            for (int64_t k = 0; k < cnt; k++) {
                int64_t gid = buf_get_i64(&in.msg[i]);
                vw[gid] = (idx_t)buf_get_i64(&in.msg[i]);
                buf_get(&in.msg[i], nodes, (size_t)nv * sizeof *nodes);
                owner[gid] = in.src[i];
                pos[gid] = k;
                cellset_add_cell(&g, gid, nodes, NULL);
            }
        }
        cellset_sort(&g); /* gid order: the graph METIS sees does not depend on the partition */
        idx_t *part = xcalloc((size_t)n, sizeof *part);
        if (P > 1) {
            idx_t *xadj, *adj;
            dual_graph(&g, &xadj, &adj);
            metis_kway((idx_t)n, xadj, adj, vw, (idx_t)P, part);
            free(xadj);
            free(adj);
        }
        /* parts -> ranks: greedily by the largest weight already in place, so that the fewest
         * cells move; the nonzero (part, rank) overlaps are sorted, O(n log n), not O(P^3) */
        double *before = xcalloc((size_t)P, sizeof *before), *after = xcalloc((size_t)P, sizeof *after);
        struct overlap *ov = xmalloc((size_t)(n ? n : 1) * sizeof *ov);
        for (int64_t c = 0; c < n; c++) {
            ov[c] = (struct overlap){.w = (double)vw[c], .part = (int)part[c], .rank = owner[c]};
            before[owner[c]] += vw[c];
        }
        qsort(ov, (size_t)n, sizeof *ov, overlap_by_pair);
        int64_t npairs = 0;
        for (int64_t c = 0; c < n; c++) {
            if (npairs && ov[npairs - 1].part == ov[c].part && ov[npairs - 1].rank == ov[c].rank)
                ov[npairs - 1].w += ov[c].w;
            else
                ov[npairs++] = ov[c];
        }
        qsort(ov, (size_t)npairs, sizeof *ov, overlap_by_weight);
        int *rank_of = xmalloc((size_t)P * sizeof *rank_of), *taken = xcalloc((size_t)P, sizeof *taken);
        for (int p = 0; p < P; p++)
            rank_of[p] = -1;
        for (int64_t i = 0; i < npairs; i++)
            if (rank_of[ov[i].part] < 0 && !taken[ov[i].rank]) {
                rank_of[ov[i].part] = ov[i].rank;
                taken[ov[i].rank] = 1;
            }
        for (int p = 0, r = 0; p < P; p++) /* parts sharing nothing with a free rank: in order */
            if (rank_of[p] < 0) {
                while (taken[r])
                    r++;
                rank_of[p] = r;
                taken[r] = 1;
            }
        for (int64_t c = 0; c < n; c++)
            after[rank_of[part[c]]] += vw[c];
        w[0] = weight_imbalance(before, P);
        w[1] = weight_imbalance(after, P);
        /* each rank's destinations, in the order it sent its cells */
        int64_t *cnt = xcalloc((size_t)P, sizeof *cnt);
        for (int64_t c = 0; c < n; c++)
            cnt[owner[c]]++;
        int64_t **d = xcalloc((size_t)P, sizeof *d);
        for (int r = 0; r < P; r++)
            d[r] = xmalloc((size_t)(cnt[r] ? cnt[r] : 1) * sizeof **d);
        for (int64_t c = 0; c < n; c++)
            d[owner[c]][pos[c]] = rank_of[part[c]];
        for (int r = 0; r < P; r++) {
            buf_put(&out.to[r], d[r], (size_t)cnt[r] * sizeof **d);
            free(d[r]);
        }
        free(d);
        free(cnt);
        free(ov);
        free(before);
        free(after);
        free(rank_of);
        free(taken);
        free(part);
        free(vw);
        free(owner);
        free(pos);
        cellset_free(&g);
    }
    inbox_free(&in);
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    for (int32_t c = 0; c < m->ncells_owned; c++)
        dest[c] = me;
    for (int i = 0; i < in.n; i++) /* from rank 0 */
        for (int32_t c = 0; c < m->ncells_owned; c++)
            dest[c] = (int)buf_get_i64(&in.msg[i]);
    inbox_free(&in);
    comm_bcast_bytes(comm, w, sizeof w, 0);
    *imb_before = w[0];
    *imb_after = w[1];
}

void partition_weight_imbalance(MPI_Comm comm, const struct mesh *m, const int *weight, const int *dest,
                                double *imb_before, double *imb_after)
{
    const int P = comm_size(comm), me = comm_rank(comm);
    double *w = xcalloc(2 * (size_t)P, sizeof *w); /* before, then after */
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        w[me] += weight[c];
        w[P + dest[c]] += weight[c];
    }
    comm_sum_doubles(comm, w, 2 * P);
    *imb_before = weight_imbalance(w, P);
    *imb_after = weight_imbalance(w + P, P);
    free(w);
}

void partition_quality(MPI_Comm comm, const struct mesh *m, int neighbours, struct partition_quality *q)
{
    long long cut = 0;
    for (int32_t f = 0; f < m->nfaces; f++) {
        int32_t a = m->face_cells[2 * f], b = m->face_cells[2 * f + 1];
        if (b >= 0 && (a < m->ncells_owned) != (b < m->ncells_owned))
            cut++;
    }
    q->edge_cut = comm_sum_ll(comm, cut) / 2;
    double v[3] = {m->ncells_owned, m->ncells - m->ncells_owned, neighbours};
    struct stats st[3];
    comm_stats(comm, v, 3, st);
    q->cells = st[0];
    q->ghosts = st[1];
    q->neighbours = st[2];
}
