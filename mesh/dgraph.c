/* The distributed cell dual graph (see dgraph.h). */
#include "dgraph.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cellset.h"
#include "check.h"
#include "comm.h"
#include "geometry.h"
#include "idmap.h"

/* A face no local cell shares with c: asked of the rank its smallest node's id falls to. */
struct face_ask {
    int64_t key[4];
    int64_t gid;  /* the asking cell */
    int32_t vnum; /* its global vertex number */
    int32_t rec;  /* the asker's record number: its placeholders in adjncy */
    int32_t src;  /* the asker's rank (set by the directory) */
};

/* The answer: the face's other cells, chained in ascending gid (-1: none). */
struct face_answer {
    int32_t rec, pred, succ;
};

/* The rank keeping the directory entry of a face. */
static int face_home(const int64_t key[4], int P) { return (int)(key[0] % P); }

static int key_cmp(const int64_t a[4], const int64_t b[4])
{
    for (int i = 0; i < 4; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int ask_cmp(const void *a, const void *b)
{
    const struct face_ask *x = a, *y = b;
    int k = key_cmp(x->key, y->key);
    return k ? k : (x->gid > y->gid) - (x->gid < y->gid);
}

/* The cells around each node of the local cells, each list in ascending cell index. */
struct around {
    struct idmap index; /* node gid -> dense index */
    int64_t *off;       /* [nodes + 1] */
    int32_t *cell;      /* [n * nv] */
};

static void around_build(struct around *a, const struct element *el, int64_t n, const int64_t *nodes)
{
    const int nv = el->nnodes;
    idmap_init(&a->index, (size_t)n + (size_t)n / 4 + 16);
    int64_t nn = 0;
    for (int64_t i = 0; i < n * nv; i++)
        nn += idmap_put(&a->index, nodes[i], nn);
    a->off = xcalloc((size_t)nn + 1, sizeof *a->off);
    for (int64_t i = 0; i < n * nv; i++)
        a->off[idmap_get(&a->index, nodes[i]) + 1]++;
    for (int64_t i = 0; i < nn; i++)
        a->off[i + 1] += a->off[i];
    a->cell = xmalloc((size_t)(n > 0 ? n * nv : 1) * sizeof *a->cell);
    for (int64_t c = 0; c < n; c++)
        for (int k = 0; k < nv; k++)
            a->cell[a->off[idmap_get(&a->index, nodes[c * nv + k])]++] = (int32_t)c;
    for (int64_t i = nn; i > 0; i--) /* back to the starts: lists are in ascending cell */
        a->off[i] = a->off[i - 1];
    a->off[0] = 0;
}

static void around_free(struct around *a)
{
    idmap_free(&a->index);
    free(a->off);
    free(a->cell);
}

/* Does cell d (node ids nodes of d) have a face whose key is key? */
static int has_face(const struct element *el, const int64_t *nodes, const int64_t key[4])
{
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

/* The faces of cell c in key order (insertion sort: at most 6). */
static void sorted_faces(const struct element *el, const int64_t *nodes, int64_t key[][4], int *order)
{
    for (int f = 0; f < el->nfaces; f++) {
        element_face_key(el, nodes, f, key[f]);
        int j = f;
        for (; j > 0 && key_cmp(key[order[j - 1]], key[f]) > 0; j--)
            order[j] = order[j - 1];
        order[j] = f;
    }
}

/* Placeholder of answer `which` (0: pred, 1: succ) of record rec in adjncy (negative; -1 is
 * an empty slot). */
static int32_t placeholder(int32_t rec, int which) { return -2 - (2 * rec + which); }

/* Rows of the local cells: neighbours among them (pred/succ in ascending local index around the
 * face's smallest node), two placeholders for an untagged face that none of them shares, whose
 * question goes into asks. Returns the number of questions. */
static int32_t local_rows(struct dgraph *g, const struct around *ar, const struct element *el, const int64_t *nodes,
                          const int32_t *tags, int64_t first, struct face_ask **asks_out)
{
    const int nv = el->nnodes, nf = el->nfaces;
    const int64_t n = g->nlocal;
    const struct around a = *ar;
    g->xadj = xmalloc((size_t)(n + 1) * sizeof *g->xadj);
    int64_t len = 0, cap = n * nf + 16, nask = 0, ask_cap = 16;
    g->adjncy = xmalloc((size_t)cap * sizeof *g->adjncy);
    struct face_ask *asks = xmalloc((size_t)ask_cap * sizeof *asks);
    g->xadj[0] = 0;
    for (int64_t c = 0; c < n; c++) {
        int64_t key[MAX_CELL_FACES][4];
        int order[MAX_CELL_FACES];
        if (len + 2 * nf > INT32_MAX || nask + nf > INT32_MAX / 2) /* before a row could overflow */
            hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "the dual graph has over 2^31 edges on this rank");
        sorted_faces(el, nodes + c * nv, key, order);
        for (int i = 0; i < nf; i++) {
            const int64_t *k = key[order[i]];
            int64_t s = idmap_get(&a.index, k[0]), pred = -1, succ = -1;
            for (int64_t j = a.off[s]; j < a.off[s + 1]; j++) {
                int64_t d = a.cell[j];
                if (d == c || !has_face(el, nodes + d * nv, k))
                    continue;
                if (d < c)
                    pred = d; /* ascending list: the last one below c */
                else if (succ < 0)
                    succ = d;
            }
            if (len + 2 > cap) {
                cap *= 2;
                g->adjncy = xrealloc(g->adjncy, (size_t)cap * sizeof *g->adjncy);
            }
            if (pred >= 0)
                g->adjncy[len++] = (int32_t)(first + pred);
            if (succ >= 0)
                g->adjncy[len++] = (int32_t)(first + succ);
            if (pred < 0 && succ < 0 && !(tags && tags[c * nf + order[i]])) { /* ask the directory */
                if (nask == ask_cap) {
                    ask_cap *= 2;
                    asks = xrealloc(asks, (size_t)ask_cap * sizeof *asks);
                }
                memset(&asks[nask], 0, sizeof asks[nask]); /* padding included: it is sent */
                asks[nask] = (struct face_ask){{k[0], k[1], k[2], k[3]}, g->gid[c], (int32_t)(first + c), (int32_t)nask, 0};
                g->adjncy[len++] = placeholder((int32_t)nask, 0);
                g->adjncy[len++] = placeholder((int32_t)nask, 1);
                nask++;
            }
        }
        g->xadj[c + 1] = (int32_t)len;
    }
    *asks_out = asks;
    return (int32_t)nask;
}

/* The directory: the questions of every rank about the faces that fall here, paired by key;
 * each asker learns its face's other cells. Collective. */
static struct face_answer *ask_directory(MPI_Comm comm, const struct face_ask *asks, int32_t nask)
{
    const int P = comm_size(comm);
    struct outbox out;
    outbox_init(&out, comm);
    for (int32_t i = 0; i < nask; i++)
        buf_put(&out.to[face_home(asks[i].key, P)], &asks[i], sizeof asks[i]);
    struct inbox in;
    comm_exchange(comm, &out, &in);
    int64_t total = 0;
    for (int i = 0; i < in.n; i++)
        total += (int64_t)(in.msg[i].len / sizeof(struct face_ask));
    struct face_ask *all = xmalloc((size_t)(total ? total : 1) * sizeof *all);
    int64_t k = 0;
    for (int i = 0; i < in.n; i++)
        while (!buf_done(&in.msg[i])) {
            buf_get(&in.msg[i], &all[k], sizeof all[k]);
            all[k++].src = in.src[i];
        }
    inbox_free(&in);
    qsort(all, (size_t)total, sizeof *all, ask_cmp);
    for (int64_t i = 0; i < total; i++) {
        int same_prev = i > 0 && !key_cmp(all[i - 1].key, all[i].key);
        int same_next = i + 1 < total && !key_cmp(all[i + 1].key, all[i].key);
        struct face_answer a = {all[i].rec, same_prev ? all[i - 1].vnum : -1, same_next ? all[i + 1].vnum : -1};
        buf_put(&out.to[all[i].src], &a, sizeof a);
    }
    free(all);
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    struct face_answer *ans = xmalloc((size_t)(nask ? nask : 1) * sizeof *ans);
    int got = 0;
    for (int i = 0; i < in.n; i++)
        while (!buf_done(&in.msg[i])) {
            struct face_answer a;
            buf_get(&in.msg[i], &a, sizeof a);
            ans[a.rec] = a;
            got++;
        }
    inbox_free(&in);
    if (got != nask)
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: %d of %d face questions answered", got, nask);
    return ans;
}

/* Placeholders become the answers' vertices; empty slots go. */
static void fill_answers(struct dgraph *g, const struct face_answer *ans)
{
    int64_t len = 0;
    for (int32_t c = 0; c < g->nlocal; c++) {
        int32_t start = g->xadj[c], end = g->xadj[c + 1];
        g->xadj[c] = (int32_t)len;
        for (int32_t j = start; j < end; j++) {
            int32_t v = g->adjncy[j];
            if (v < -1) {
                int32_t code = -2 - v;
                v = code % 2 ? ans[code / 2].succ : ans[code / 2].pred;
            }
            if (v >= 0)
                g->adjncy[len++] = v;
        }
    }
    g->xadj[g->nlocal] = (int32_t)len;
}

/* The graph's frame (collective): vertex ranges from every rank's n cells, gids and weights. */
static void frame(MPI_Comm comm, int64_t n, const int64_t *gid, const int32_t *weight, int ncon, struct dgraph *g)
{
    const int P = comm_size(comm);
    memset(g, 0, sizeof *g);
    g->nranks = P;
    g->vtxdist = xcalloc((size_t)P + 1, sizeof *g->vtxdist);
    int64_t mine = n;
    MPI_CHECK(MPI_Allgather(&mine, 1, MPI_INT64_T, g->vtxdist + 1, 1, MPI_INT64_T, comm));
    for (int r = 0; r < P; r++)
        g->vtxdist[r + 1] += g->vtxdist[r];
    if (g->vtxdist[P] > INT32_MAX)
        hydro_fatal(comm, EXIT_BADINPUT, "the dual graph of %lld cells exceeds 2^31 vertices",
                    (long long)g->vtxdist[P]);
    g->nlocal = (int32_t)n;
    g->gid = gid;
    g->vwgt = weight;
    g->ncon = ncon > 0 ? ncon : 1;
    for (int64_t c = 1; c < n; c++)
        if (gid[c] <= gid[c - 1])
            hydro_fatal(comm, EXIT_RUNTIME, "internal error: dual graph cells not in ascending global id");
}

void dgraph_build(MPI_Comm comm, const struct element *el, int64_t n, const int64_t *gid, const int64_t *nodes,
                  const int32_t *tags, const int32_t *weight, int ncon, struct dgraph *g)
{
    frame(comm, n, gid, weight, ncon, g);
    struct face_ask *asks;
    struct around a;
    around_build(&a, el, n, nodes);
    int32_t nask = local_rows(g, &a, el, nodes, tags, g->vtxdist[comm_rank(comm)], &asks);
    struct face_answer *ans = ask_directory(comm, asks, nask);
    fill_answers(g, ans);
    free(ans);
    free(asks);
    around_free(&a); /* last: its memory, the largest scratch, is one free block for what follows */
}

/* Vertex numbers of the first ghost layer's cells (the others' stay -1): each cell's index among
 * its owner's owned cells (ascending gid), asked of the owner, plus the owner's first vertex. */
static int32_t *ghost_vertices(MPI_Comm comm, const struct mesh *m, const struct dgraph *g)
{
    const int32_t first = m->cell_layer_start[1], last = m->cell_layer_start[2]; /* nlayers >= 1 */
    const int64_t mine = g->vtxdist[comm_rank(comm)];
    int32_t *vnum = xmalloc((size_t)(m->ncells ? m->ncells : 1) * sizeof *vnum);
    for (int32_t c = 0; c < m->ncells; c++)
        vnum[c] = c < m->ncells_owned ? (int32_t)(mine + c) : -1;
    struct outbox out;
    outbox_init(&out, comm);
    for (int32_t c = first; c < last; c++)
        buf_put_i64(&out.to[mesh_cell_owner(m, c)], m->cell_gid[c]);
    struct inbox in;
    comm_exchange(comm, &out, &in);
    for (int i = 0; i < in.n; i++) /* answers in the order asked */
        while (!buf_done(&in.msg[i])) {
            int64_t gid = buf_get_i64(&in.msg[i]), idx = mesh_owned_cell(m, gid);
            if (idx < 0)
                hydro_fatal(comm, EXIT_RUNTIME, "internal error: rank %d asked for cell %lld, not owned here",
                            in.src[i], (long long)gid);
            buf_put_i64(&out.to[in.src[i]], idx);
        }
    inbox_free(&in);
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    int *msg_of = xmalloc((size_t)g->nranks * sizeof *msg_of); /* owner rank -> its answer */
    for (int i = 0; i < in.n; i++)
        msg_of[in.src[i]] = i;
    for (int32_t c = first; c < last; c++) {
        const int r = mesh_cell_owner(m, c);
        vnum[c] = (int32_t)(g->vtxdist[r] + buf_get_i64(&in.msg[msg_of[r]]));
    }
    free(msg_of);
    inbox_free(&in);
    return vnum;
}

void dgraph_from_mesh(MPI_Comm comm, const struct mesh *m, const int32_t *weight, int ncon, struct dgraph *g)
{
    const struct element *el = m->el;
    const int nv = el->nnodes, nf = el->nfaces;
    if (m->nlayers < 1)
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: the dual graph from a mesh needs a ghost layer");
    frame(comm, m->ncells_owned, m->cell_gid, weight, ncon, g);
    int32_t *vnum = ghost_vertices(comm, m, g);
    g->xadj = xmalloc((size_t)(m->ncells_owned + 1) * sizeof *g->xadj);
    g->adjncy = xmalloc((size_t)(m->ncells_owned ? m->ncells_owned * nf : 1) * sizeof *g->adjncy);
    int32_t len = 0;
    g->xadj[0] = 0;
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        int64_t nodes[MAX_CELL_NODES], key[MAX_CELL_FACES][4];
        int order[MAX_CELL_FACES];
        for (int k = 0; k < nv; k++)
            nodes[k] = m->node_gid[m->cell_nodes[(size_t)c * nv + k]];
        sorted_faces(el, nodes, key, order); /* neighbours in face key order, as dgraph_build */
        for (int i = 0; i < nf; i++) {
            const int32_t face = m->cell_faces[(size_t)c * nf + order[i]];
            const int32_t a = m->face_cells[2 * (size_t)face], b = m->face_cells[2 * (size_t)face + 1];
            const int32_t other = a == c ? b : a;
            if (other < 0) /* the domain's boundary (an owned cell's faces are never cut) */
                continue;
            if (vnum[other] < 0)
                hydro_fatal(comm, EXIT_RUNTIME, "internal error: cell %lld's face neighbour %lld lies beyond "
                            "the first ghost layer", (long long)m->cell_gid[c], (long long)m->cell_gid[other]);
            g->adjncy[len++] = vnum[other];
        }
        g->xadj[c + 1] = len;
    }
    free(vnum);
}

void dgraph_mesh_centres(struct dgraph *g, const struct mesh *m)
{
    free(g->xyz);
    g->xyz = xmalloc((size_t)(m->ncells_owned ? m->ncells_owned : 1) * 3 * sizeof *g->xyz);
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        double xc[MAX_CELL_NODES][3];
        mesh_cell_coords(m, m->node_xyz, c, xc);
        geom_centre(m->el, (const double(*)[3])xc, g->xyz + 3 * (size_t)c);
    }
}

void dgraph_set_centres(struct dgraph *g, const struct cellset *s)
{
    free(g->xyz);
    g->xyz = xmalloc((size_t)(g->nlocal ? g->nlocal : 1) * 3 * sizeof *g->xyz);
    for (int32_t c = 0; c < g->nlocal; c++)
        cellset_centre(s, c, g->xyz + 3 * (size_t)c);
}

void dgraph_free(struct dgraph *g)
{
    free(g->xyz);
    free(g->vtxdist);
    free(g->xadj);
    free(g->adjncy);
    memset(g, 0, sizeof *g);
}

int32_t dgraph_weight(const struct dgraph *g, int32_t i)
{
    if (!g->vwgt)
        return 1;
    int32_t w = 0;
    for (int k = 0; k < g->ncon; k++)
        w += g->vwgt[(size_t)i * g->ncon + k];
    return w;
}
