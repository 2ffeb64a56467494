/* Reading a Gmsh mesh by shares: every rank streams the file and keeps only its share (see gmsh.h). */
#include "gmsh.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "gidblocks.h"
#include "gmsh_parse.h"
#include "idmap.h"

/* ---- The tag values that cut a kind of item (cells, nodes) into shares ---- */

enum { SELECT_BUCKETS = 1 << 16 };

/* The k-th smallest tag (from 0) of a kind, found by narrowing [lo, hi] pass after pass: a
 * histogram of SELECT_BUCKETS buckets per pass, so a range of 2^32 tag values takes two. */
struct select {
    int64_t k, below; /* below: tags smaller than lo */
    long lo, hi;      /* inclusive */
    unsigned long width;
    int64_t *hist;
    int active;
};

/* A kind's tags as the file gives them, and the two cuts of this rank's share. */
struct kind {
    int64_t n;
    long min, max;
    int counting;
    struct select sel[2];
};

static void kind_seen(struct kind *k, long t)
{
    if (k->counting) {
        k->min = k->n ? (t < k->min ? t : k->min) : t;
        k->max = k->n ? (t > k->max ? t : k->max) : t;
        k->n++;
    }
    for (int i = 0; i < 2; i++) {
        struct select *s = &k->sel[i];
        if (s->active && t >= s->lo && t <= s->hi)
            s->hist[((unsigned long)t - (unsigned long)s->lo) / s->width]++;
    }
}

static void cell_seen(void *ctx, long t) { kind_seen(&((struct kind *)ctx)[0], t); }
static void node_seen(void *ctx, long t) { kind_seen(&((struct kind *)ctx)[1], t); }

static void select_begin(struct select *s)
{
    s->width = ((unsigned long)s->hi - (unsigned long)s->lo) / SELECT_BUCKETS + 1;
    memset(s->hist, 0, SELECT_BUCKETS * sizeof *s->hist);
}

/* After a pass: the bucket holding the k-th tag becomes the range; done when it is one value.
 * Returns -1 when no bucket holds it (the file changed between the passes). */
static int select_narrow(struct select *s)
{
    int64_t cum = s->below;
    for (long j = 0; j < SELECT_BUCKETS; j++) {
        if (cum + s->hist[j] > s->k) {
            long lo = (long)((unsigned long)s->lo + (unsigned long)j * s->width);
            s->hi = (unsigned long)s->hi - (unsigned long)lo < s->width - 1 ? s->hi
                                                                            : (long)((unsigned long)lo + s->width - 1);
            s->lo = lo;
            s->below = cum;
            s->active = s->lo != s->hi;
            return 0;
        }
        cum += s->hist[j];
    }
    s->active = 0;
    return -1;
}

/* Cut i (0: this rank's first item, 1: the next rank's) of a kind of n items: share number
 * me of P in tag order. Dense tags (max - min + 1 = n) give it at once; others need selects. */
static void cut_setup(struct kind *k, int i, int me, int P)
{
    struct select *s = &k->sel[i];
    s->k = k->n * (me + i) / P;
    s->active = 0;
    if (s->k == 0 || s->k == k->n) /* before the first item, after the last: no tag needed */
        return;
    if ((unsigned long)k->max - (unsigned long)k->min == (unsigned long)(k->n - 1)) {
        s->lo = s->hi = (long)((unsigned long)k->min + (unsigned long)s->k);
        return;
    }
    s->lo = k->min;
    s->hi = k->max;
    s->below = 0;
    s->active = 1;
    s->hist = xmalloc(SELECT_BUCKETS * sizeof *s->hist);
}

/* The range of tags this rank keeps of a kind: lo <= tag < hi, or tag >= lo when to_end. */
static void cut_range(const struct kind *k, long *lo, long *hi, int *to_end)
{
    *lo = k->sel[0].k == 0 ? LONG_MIN : k->sel[0].lo;
    *to_end = k->sel[1].k == k->n;
    /* a rank whose share is empty (more ranks than items) keeps nothing, whatever the tags */
    *hi = *to_end ? LONG_MAX : k->sel[1].k == 0 ? LONG_MIN : k->sel[1].lo;
}

/* ---- Errors: the one on the smallest line of the file wins, and rank 0 reports it ---- */

struct fail {
    long line; /* LONG_MAX: none */
    char *err;
    size_t errlen;
    const char *path;
};

static void fail_at(struct fail *f, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail_at(struct fail *f, long line, const char *fmt, ...)
{
    if (line >= f->line)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    f->line = line;
    snprintf(f->err, f->errlen, "%s:%ld: %s", f->path, line, msg);
}

/* Collective: 0 when no rank failed; else -1, with the message on rank 0 only. */
static int agree(MPI_Comm comm, struct fail *f)
{
    long long best = comm_min_ll(comm, f->line);
    if (best == LONG_MAX)
        return 0;
    const int me = comm_rank(comm), P = comm_size(comm);
    int who = (int)comm_min_ll(comm, f->line == best ? me : P);
    char *text = comm_bcast_text(comm, me == who ? f->err : "", who);
    snprintf(f->err, f->errlen, "%s", me == 0 ? text : "");
    free(text);
    return -1;
}

/* ---- Questions to the ranks keeping a directory, answered in the order asked ---- */

struct directory_ops {
    size_t answer_size;
    void (*see)(void *ctx, int64_t q);                 /* every question, before any answer; NULL: none */
    void (*ready)(MPI_Comm comm, void *ctx);          /* collective, once all were seen; NULL: none */
    void (*answer)(void *ctx, int64_t q, void *a);    /* the answer to q into a */
};

/* Collective: question q[i] goes to rank dest[i]; its answer lands in answers[i]. */
static void ask(MPI_Comm comm, int64_t n, const int *dest, const int64_t *q, const struct directory_ops *ops,
                void *ctx, void *answers)
{
    const int P = comm_size(comm);
    int64_t *start = xcalloc((size_t)P + 1, sizeof *start), *order = xmalloc((size_t)(n ? n : 1) * sizeof *order);
    for (int64_t i = 0; i < n; i++)
        start[dest[i] + 1]++;
    for (int r = 0; r < P; r++)
        start[r + 1] += start[r];
    int64_t *fill = xmalloc((size_t)P * sizeof *fill);
    memcpy(fill, start, (size_t)P * sizeof *fill);
    for (int64_t i = 0; i < n; i++) /* stable: each rank's questions in the caller's order */
        order[fill[dest[i]]++] = i;
    free(fill);
    struct outbox out;
    struct inbox in;
    outbox_init(&out, comm);
    for (int r = 0; r < P; r++)
        for (int64_t j = start[r]; j < start[r + 1]; j++)
            buf_put_i64(outbox_to(&out, r), q[order[j]]);
    comm_exchange(comm, &out, &in);
    for (int m = 0; ops->see && m < in.n; m++)
        for (in.msg[m].pos = 0; !buf_done(&in.msg[m]);)
            ops->see(ctx, buf_get_i64(&in.msg[m]));
    if (ops->ready)
        ops->ready(comm, ctx);
    for (int m = 0; m < in.n; m++)
        for (in.msg[m].pos = 0; !buf_done(&in.msg[m]);)
            ops->answer(ctx, buf_get_i64(&in.msg[m]), buf_append(outbox_to(&out, in.src[m]), ops->answer_size));
    inbox_free(&in);
    comm_exchange(comm, &out, &in);
    for (int m = 0; m < in.n; m++) {
        const int r = in.src[m];
        for (int64_t j = start[r]; j < start[r + 1]; j++)
            buf_get(&in.msg[m], (char *)answers + order[j] * ops->answer_size, ops->answer_size);
    }
    inbox_free(&in);
    outbox_free(&out);
    free(order);
    free(start);
}

/* ---- The node directory: rank r keeps the nodes of its share of node tags ---- */

struct node_dir {
    const struct gmsh_items *it; /* this rank's nodes */
    struct idmap pos;            /* tag -> index in it */
    char *used;                  /* [it->nnodes] some cell uses the node */
    int64_t *gid;                /* [it->nnodes] its number among used nodes in tag order, -1: unused */
    int dim;
};

struct node_answer {
    int64_t gid; /* -1: no such node (or, for a boundary element, no cell uses it) */
    double xyz[3];
};

static void dir_see(void *ctx, int64_t tag)
{
    struct node_dir *d = ctx;
    int64_t p = idmap_get(&d->pos, tag);
    if (p >= 0)
        d->used[p] = 1;
}

/* Used nodes are numbered in ascending tag across the ranks (their shares are in tag order). */
static void dir_ready(MPI_Comm comm, void *ctx)
{
    struct node_dir *d = ctx;
    const long n = d->it->nnodes;
    struct key_idx *u = xmalloc((size_t)(n ? n : 1) * sizeof *u);
    long long nused = 0, first = 0;
    for (long i = 0; i < n; i++) {
        d->gid[i] = -1;
        if (d->used[i])
            u[nused++] = (struct key_idx){d->it->node_tag[i], i};
    }
    qsort(u, (size_t)nused, sizeof *u, key_idx_cmp);
    MPI_CHECK(MPI_Exscan(&nused, &first, 1, MPI_LONG_LONG, MPI_SUM, comm));
    if (comm_rank(comm) == 0)
        first = 0; /* MPI_Exscan leaves rank 0's result undefined */
    for (long long g = 0; g < nused; g++)
        d->gid[u[g].idx] = first + g;
    free(u);
}

static void dir_answer_cell(void *ctx, int64_t tag, void *a)
{
    struct node_dir *d = ctx;
    struct node_answer ans = {.gid = -1};
    int64_t p = idmap_get(&d->pos, tag);
    if (p >= 0) {
        ans.gid = d->gid[p];
        for (int k = 0; k < 3; k++)
            ans.xyz[k] = k == 2 && d->dim == 2 ? 0.0 : d->it->node_xyz[3 * p + k]; /* quads lie in xy */
    }
    memcpy(a, &ans, sizeof ans);
}

static void dir_answer_bnd(void *ctx, int64_t tag, void *a)
{
    struct node_dir *d = ctx;
    int64_t p = idmap_get(&d->pos, tag);
    struct node_answer ans = {.gid = p >= 0 ? d->gid[p] : -1};
    memcpy(a, &ans, sizeof ans);
}

/* The distinct node tags a list names, ascending, and the directory's answer for each: a rank
 * asks once per node, not once per cell corner. */
struct node_table {
    int64_t n;
    long *tag;
    struct node_answer *ans;
};

static int long_cmp(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void table_init(struct node_table *t, const long *tags, int64_t n)
{
    t->tag = xmalloc((size_t)(n ? n : 1) * sizeof *t->tag);
    memcpy(t->tag, tags, (size_t)n * sizeof *tags);
    qsort(t->tag, (size_t)n, sizeof *t->tag, long_cmp);
    t->n = 0;
    for (int64_t i = 0; i < n; i++)
        if (t->n == 0 || t->tag[t->n - 1] != t->tag[i])
            t->tag[t->n++] = t->tag[i];
    t->tag = xrealloc(t->tag, (size_t)(t->n ? t->n : 1) * sizeof *t->tag);
    t->ans = xmalloc((size_t)(t->n ? t->n : 1) * sizeof *t->ans);
}

static const struct node_answer *table_get(const struct node_table *t, long tag)
{
    const long *at = bsearch(&tag, t->tag, (size_t)t->n, sizeof tag, long_cmp);
    return &t->ans[at - t->tag];
}

static void table_free(struct node_table *t)
{
    free(t->tag);
    free(t->ans);
}

/* Collective: the node ids and positions of this rank's cells' nodes (cells) and the node ids
 * of its boundary elements' nodes (bnd), asked of the directory. */
static void ask_nodes(MPI_Comm comm, int dim, const struct gmsh_items *it, long node_lo, struct fail *f,
                      struct node_table *cells, struct node_table *bnd)
{
    const int P = comm_size(comm), nvc = dim == 2 ? 4 : 8, nvb = dim == 2 ? 2 : 4;
    struct node_dir d = {.it = it, .dim = dim};
    idmap_init(&d.pos, (size_t)it->nnodes + 16);
    for (long i = 0; i < it->nnodes; i++)
        if (!idmap_put(&d.pos, it->node_tag[i], i))
            fail_at(f, it->node_line[i], "node tag %ld is defined twice", it->node_tag[i]);
    d.used = xcalloc((size_t)it->nnodes + 1, 1);
    d.gid = xmalloc(((size_t)it->nnodes + 1) * sizeof *d.gid);
    int64_t *cut = xmalloc((size_t)P * sizeof *cut), lo = node_lo; /* rank r's share of tags starts at cut[r] */
    MPI_CHECK(MPI_Allgather(&lo, 1, MPI_INT64_T, cut, 1, MPI_INT64_T, comm));
    table_init(cells, it->cell_nodes, it->ncells * nvc);
    table_init(bnd, it->bnd_nodes, it->nbnd * nvb);
    int64_t nq = cells->n > bnd->n ? cells->n : bnd->n;
    int *dest = xmalloc((size_t)(nq ? nq : 1) * sizeof *dest);
    for (int64_t i = 0; i < cells->n; i++)
        dest[i] = id_ranges_find(cut, P, cells->tag[i]);
    const struct directory_ops cell_ops = {sizeof(struct node_answer), dir_see, dir_ready, dir_answer_cell};
    ask(comm, cells->n, dest, cells->tag, &cell_ops, &d, cells->ans);
    for (int64_t i = 0; i < bnd->n; i++)
        dest[i] = id_ranges_find(cut, P, bnd->tag[i]);
    const struct directory_ops bnd_ops = {sizeof(struct node_answer), NULL, NULL, dir_answer_bnd};
    ask(comm, bnd->n, dest, bnd->tag, &bnd_ops, &d, bnd->ans);
    free(dest);
    free(cut);
    free(d.used);
    free(d.gid);
    idmap_free(&d.pos);
    for (long c = 0; c < it->ncells; c++)
        for (int k = 0; k < nvc; k++)
            if (table_get(cells, it->cell_nodes[c * nvc + k])->gid < 0)
                fail_at(f, it->cell_line[c], "element %ld uses undefined node %ld", it->cell_tag[c],
                        it->cell_nodes[c * nvc + k]);
    for (long b = 0; b < it->nbnd; b++)
        for (int k = 0; k < nvb; k++)
            if (table_get(bnd, it->bnd_nodes[b * nvb + k])->gid < 0)
                fail_at(f, it->bnd_line[b], "boundary element %ld uses node %ld, which belongs to no cell",
                        it->bnd_tag[b], it->bnd_nodes[b * nvb + k]);
}

/* Collective: this rank's cells into out, numbered in ascending element tag across the ranks
 * from *first on, each oriented so that its corners are valid. Returns where each came from:
 * cell g of out is item [g] of it (malloc'd). */
static long *add_cells(MPI_Comm comm, const struct gmsh_items *it, const struct node_table *nodes_of,
                       struct fail *f, struct cellset *out, int64_t *first)
{
    const struct element *el = out->el;
    const int nvc = el->nnodes;
    struct key_idx *ct = xmalloc((size_t)(it->ncells ? it->ncells : 1) * sizeof *ct);
    for (long c = 0; c < it->ncells; c++)
        ct[c] = (struct key_idx){it->cell_tag[c], c};
    qsort(ct, (size_t)it->ncells, sizeof *ct, key_idx_cmp);
    long long n = it->ncells, start = 0;
    MPI_CHECK(MPI_Exscan(&n, &start, 1, MPI_LONG_LONG, MPI_SUM, comm));
    *first = comm_rank(comm) == 0 ? 0 : start;
    for (long g = 0; g < it->ncells; g++) {
        long c = ct[g].idx;
        if (g > 0 && ct[g - 1].key == ct[g].key)
            fail_at(f, it->cell_line[c], "element tag %ld is defined twice", ct[g].key);
        int64_t nodes[MAX_CELL_NODES];
        double x[MAX_CELL_NODES][3];
        for (int k = 0; k < nvc; k++) {
            const struct node_answer *a = table_get(nodes_of, it->cell_nodes[c * nvc + k]);
            nodes[k] = a->gid;
            memcpy(x[k], a->xyz, sizeof x[k]);
        }
        if (gmsh_orient(el, nodes, x))
            fail_at(f, it->cell_line[c], "element %ld is degenerate or twisted (a corner Jacobian is not positive)",
                    it->cell_tag[c]);
        for (int k = 0; k < nvc; k++)
            cellset_add_node(out, nodes[k], x[k]);
        cellset_add_cell(out, *first + g, nodes, NULL);
    }
    long *from = xmalloc((size_t)(it->ncells ? it->ncells : 1) * sizeof *from);
    for (long g = 0; g < it->ncells; g++)
        from[g] = ct[g].idx;
    free(ct);
    return from;
}

/* ---- Boundary tags: cell faces and boundary elements meet at the rank of their key ---- */

struct face_msg {
    int64_t key[4];
    int64_t item; /* a cell's id, or -1 - the file number of a boundary element */
    int32_t src;  /* the rank holding the cell or boundary element */
    int32_t side; /* the face in the cell; the physical tag of a boundary element */
};

static int face_msg_cmp(const void *a, const void *b)
{
    const struct face_msg *x = a, *y = b;
    for (int i = 0; i < 4; i++)
        if (x->key[i] != y->key[i])
            return x->key[i] < y->key[i] ? -1 : 1;
    return (x->item > y->item) - (x->item < y->item);
}

/* An answer to the rank of an item: (item, side, value). For a cell, value >= 0 is the face's
 * tag and value < 0 means -value other cells share the face; for a boundary element, no cell has
 * its face. The item's rank writes the message: it knows its tag and line. */
static void reply(struct outbox *replies, const struct face_msg *m, int64_t value)
{
    struct buf *b = outbox_to(replies, m->src);
    buf_put_i64(b, m->item);
    buf_put_i64(b, m->side);
    buf_put_i64(b, value);
}

/* The faces of one key, sorted: boundary elements first (the last in the file first), then cells
 * in ascending id. As gmsh_read: a face of one cell takes the tag of the first boundary element. */
static void match_face(const struct face_msg *m, int64_t n, struct outbox *replies)
{
    int64_t nbnd = 0;
    while (nbnd < n && m[nbnd].item < 0)
        nbnd++;
    const int64_t ncell = n - nbnd;
    if (ncell > 2)
        reply(replies, &m[n - 1], -(ncell - 1));
    else if (nbnd > 0 && ncell == 0)
        reply(replies, &m[0], 0);
    else if (nbnd > 0 && ncell == 1)
        reply(replies, &m[n - 1], m[0].side);
}

/* The key of boundary element b, its node ids sorted as element_face_key sorts them. */
static void boundary_key(const struct gmsh_items *it, long b, int nvb, const struct node_table *bnd, int64_t key[4])
{
    for (int i = 0; i < 4; i++)
        key[i] = -1;
    for (int i = 0; i < nvb; i++) {
        int64_t g = table_get(bnd, it->bnd_nodes[b * nvb + i])->gid;
        int j = i;
        for (; j > 0 && key[j - 1] > g; j--)
            key[j] = key[j - 1];
        key[j] = g;
    }
}

/* The answers of match_face, applied here. */
static void apply_replies(struct inbox *in, const struct gmsh_items *it, const long *from, int64_t first,
                          struct fail *f, struct cellset *out)
{
    const int nf = out->el->nfaces;
    for (int i = 0; i < in->n; i++)
        while (!buf_done(&in->msg[i])) {
            int64_t item = buf_get_i64(&in->msg[i]), s = buf_get_i64(&in->msg[i]), v = buf_get_i64(&in->msg[i]);
            if (item < 0) { /* boundary elements are kept in file order */
                long ord = (long)(-1 - item), *at = bsearch(&ord, it->bnd_ord, (size_t)it->nbnd, sizeof ord, long_cmp);
                long b = at - it->bnd_ord;
                fail_at(f, it->bnd_line[b], "boundary element %ld is not a face of any cell", it->bnd_tag[b]);
            } else if (v < 0) {
                long c = from[item - first];
                fail_at(f, it->cell_line[c], "element %ld shares a face with %d other elements (non-conforming mesh)",
                        it->cell_tag[c], (int)-v);
            } else {
                out->face_tag[(item - first) * nf + s] = (int32_t)v;
            }
        }
}

/* Faces travel in rounds, those of key[0] / P = round modulo FACE_ROUNDS in a round, so that a
 * rank holds a quarter of its faces' messages at a time. */
enum { FACE_ROUNDS = 4 };

/* The face messages of one round, written where they go: two passes, the first counting (a
 * buffer grown as faces come would hold up to twice as much). */
static void pack_faces(MPI_Comm comm, const struct gmsh_items *it, const struct node_table *bnd, int64_t first,
                       const struct cellset *out, int round, struct outbox *ob)
{
    const struct element *el = out->el;
    const int P = comm_size(comm), me = comm_rank(comm), nvc = el->nnodes, nf = el->nfaces;
    int64_t *count = xcalloc((size_t)P, sizeof *count);
    struct face_msg **at = xcalloc((size_t)P, sizeof *at);
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < out->ncells * nf + it->nbnd; i++) {
            struct face_msg m = {.src = me};
            if (i < out->ncells * nf) {
                m.item = first + i / nf;
                m.side = (int32_t)(i % nf);
                element_face_key(el, out->nodes + (i / nf) * nvc, m.side, m.key);
            } else {
                const long b = (long)(i - out->ncells * nf);
                m.item = -1 - it->bnd_ord[b];
                m.side = it->bnd_phys[b];
                boundary_key(it, b, el->nface_nodes, bnd, m.key);
            }
            if (m.key[0] / P % FACE_ROUNDS != round)
                continue;
            const int r = (int)(m.key[0] % P);
            if (pass)
                *at[r]++ = m;
            else
                count[r]++;
        }
        for (int r = 0; r < P && pass == 0; r++)
            if (count[r])
                at[r] = buf_append(outbox_to(ob, r), (size_t)count[r] * sizeof **at);
    }
    free(count);
    free(at);
}

/* Collective: the boundary tags of the faces of out's cells (ids first.. on this rank, from[]: see
 * add_cells). */
static void tag_faces(MPI_Comm comm, const struct gmsh_items *it, const long *from, const struct node_table *bnd,
                      int64_t first, struct fail *f, struct cellset *out)
{
    for (int round = 0; round < FACE_ROUNDS; round++) {
        struct outbox ob;
        struct inbox in;
        outbox_init(&ob, comm);
        pack_faces(comm, it, bnd, first, out, round, &ob);
        comm_exchange(comm, &ob, &in);
        outbox_free(&ob); /* its buffers, before the received faces are sorted */
        outbox_init(&ob, comm);
        /* sorted where they were received: comm_exchange puts the messages back to back in one
         * block, and the sort's order does not depend on theirs (items are unique) */
        int64_t n = 0;
        for (int i = 0; i < in.n; i++)
            n += (int64_t)(in.msg[i].len / sizeof(struct face_msg));
        struct face_msg *all = (struct face_msg *)in.block, *copy = NULL;
        if (!all && n) { /* MPI_Alltoallv in several rounds (SMPI build): messages on their own */
            char *at = (char *)(all = copy = xmalloc((size_t)n * sizeof *all));
            for (int i = 0; i < in.n; at += in.msg[i].len, i++)
                memcpy(at, in.msg[i].data, in.msg[i].len);
        }
        qsort(all, (size_t)n, sizeof *all, face_msg_cmp);
        for (int64_t i = 0, j; i < n; i = j) {
            for (j = i + 1; j < n && !memcmp(all[j].key, all[i].key, sizeof all[i].key);)
                j++;
            match_face(all + i, j - i, &ob);
        }
        free(copy);
        inbox_free(&in);
        comm_exchange(comm, &ob, &in);
        apply_replies(&in, it, from, first, f, out);
        inbox_free(&in);
        outbox_free(&ob);
    }
}

/* ---- The read ---- */

/* Passes that only look at the tags: their count and range, then the cut tags of this rank's
 * shares. Every rank reads the whole file; none keeps more than its counters. */
static int find_cuts(MPI_Comm comm, const char *path, int dim, struct kind kinds[2], struct fail *f)
{
    const int me = comm_rank(comm), P = comm_size(comm);
    struct gmsh_keep look = {.cell_lo = 1, .node_lo = 1, .cell_seen = cell_seen, .node_seen = node_seen,
                             .ctx = kinds}; /* lo > hi: nothing is kept */
    struct gmsh_items it;
    kinds[0] = kinds[1] = (struct kind){.counting = 1};
    int rc = gmsh_parse(path, dim, &look, &it, f->err, f->errlen);
    long last = it.last_line;
    gmsh_items_free(&it);
    if (rc == 0 && kinds[0].n == 0)
        fail_at(f, last, "no %s in the file", dim == 2 ? "quadrangles" : "hexahedra");
    else if (rc)
        f->line = 0; /* the same message on every rank */
    if (agree(comm, f))
        return -1;
    for (int k = 0; k < 2; k++) {
        kinds[k].counting = 0;
        for (int i = 0; i < 2; i++)
            cut_setup(&kinds[k], i, me, P);
    }
    for (;;) {
        int active = 0;
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < 2; i++)
                if (kinds[k].sel[i].active) {
                    select_begin(&kinds[k].sel[i]);
                    active = 1;
                }
        if (!active || rc)
            break;
        rc = gmsh_parse(path, dim, &look, &it, f->err, f->errlen);
        gmsh_items_free(&it);
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < 2; i++)
                if (kinds[k].sel[i].active && select_narrow(&kinds[k].sel[i]) && !rc) {
                    snprintf(f->err, f->errlen, "%s: the file changed while it was read", path);
                    rc = -1;
                }
    }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 2; i++)
            free(kinds[k].sel[i].hist);
    if (rc) /* the file changed under the run */
        f->line = 0;
    return agree(comm, f);
}

int gmsh_read_share(MPI_Comm comm, const char *path, int dim, struct cellset *out, char *err, size_t errlen)
{
    const int me = comm_rank(comm), P = comm_size(comm);
    struct fail f = {LONG_MAX, err, errlen, path};
    err[0] = '\0';
    struct kind kinds[2];
    if (find_cuts(comm, path, dim, kinds, &f))
        return -1;
    struct gmsh_keep keep = {.bnd_stride = P, .bnd_phase = me, .coords = 1};
    cut_range(&kinds[0], &keep.cell_lo, &keep.cell_hi, &keep.cell_to_end);
    cut_range(&kinds[1], &keep.node_lo, &keep.node_hi, &keep.node_to_end);
    struct gmsh_items it;
    if (gmsh_parse(path, dim, &keep, &it, err, errlen))
        f.line = 0;
    int rc = agree(comm, &f);
    struct node_table cells = {0}, bnd = {0};
    if (rc == 0) {
        ask_nodes(comm, dim, &it, keep.node_lo, &f, &cells, &bnd);
        rc = agree(comm, &f);
    }
    if (rc == 0) {
        int64_t first;
        long *from = add_cells(comm, &it, &cells, &f, out, &first);
        table_free(&cells);
        cells = (struct node_table){0};
        rc = agree(comm, &f);
        if (rc == 0) {
            tag_faces(comm, &it, from, &bnd, first, &f, out);
            rc = agree(comm, &f);
        }
        free(from);
    }
    table_free(&cells);
    table_free(&bnd);
    gmsh_items_free(&it);
    return rc;
}
