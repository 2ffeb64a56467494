/* Ghost synchronisation plans and groups (see sync.h). */
#include "sync.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "check.h"
#include "comm.h"
#include "par.h"

/* Tags of groups: cell and node plans interleave so that no two live groups share a tag. */
enum { TAG_BASE = 1000, TAG_SPAN = 30000 };

struct ghost_list {
    int n;       /* neighbours */
    int *rank;   /* ascending */
    int32_t *off;
    int32_t *idx;
    int32_t *upto; /* [n * SYNC_DEPTHS] (struct sync_plan) */
};

/* The layer of local item i, from its mesh's layer starts (cells: 0 owned, 1.. the ghosts'; nodes:
 * 0 those of the owned cells, owned or not). */
static int item_layer(const int32_t *start, int32_t i)
{
    int l = 0;
    while (l < MAX_LAYERS && i >= start[l + 1])
        l++;
    return l;
}

/* Each list's items per layer, as prefix counts; the lists must go by layer (local order does). */
static void count_layers(struct ghost_list *g, const int32_t *start)
{
    g->upto = xcalloc((size_t)(g->n ? g->n : 1) * SYNC_DEPTHS, sizeof *g->upto);
    for (int k = 0; k < g->n; k++) {
        int32_t *u = g->upto + (size_t)k * SYNC_DEPTHS;
        int last = 0;
        for (int32_t j = g->off[k]; j < g->off[k + 1]; j++) {
            const int l = item_layer(start, g->idx[j]);
            if (l < last)
                hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: ghost item %d out of layer order",
                            g->idx[j]);
            last = l;
            u[l]++;
        }
        for (int d = 1; d < SYNC_DEPTHS; d++)
            u[d] += u[d - 1];
    }
}

/* Ghost items (owner != me, owner[i - first] for item i) grouped by owner rank, in local order
 * inside a group. */
static void group_by_owner(const int32_t *owner, int32_t first, int32_t n, int me, int P, struct ghost_list *g)
{
    int64_t *off = xmalloc(((size_t)P + 1) * sizeof *off);
    g->idx = xmalloc((size_t)(n - first + 1) * sizeof *g->idx);
    bucket_sort(owner, n - first, P, off, g->idx);
    if (off[me + 1] > off[me]) /* the numbering puts every owned item before first */
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: item %d after the owned ones is owned here",
                    g->idx[off[me]] + first);
    for (int32_t j = 0; j < n - first; j++)
        g->idx[j] += first;
    g->n = 0;
    for (int r = 0; r < P; r++)
        g->n += r != me && off[r + 1] > off[r];
    g->rank = xmalloc((size_t)(g->n + 1) * sizeof *g->rank);
    g->off = xmalloc((size_t)(g->n + 1) * sizeof *g->off);
    g->off[0] = 0;
    for (int r = 0, k = 0; r < P; r++)
        if (r != me && off[r + 1] > off[r]) {
            g->rank[k] = r;
            g->off[k + 1] = (int32_t)off[r + 1];
            k++;
        }
    free(off);
}

static void plan_from(struct sync_plan *p, enum var_center center, const struct ghost_list *recv)
{
    memset(p, 0, sizeof *p);
    p->center = center;
    p->nrecv = recv->n;
    p->recv_rank = recv->rank;
    p->recv_off = recv->off;
    p->recv_idx = recv->idx;
    p->recv_upto = recv->upto;
    p->send_off = xmalloc(sizeof *p->send_off);
    p->send_off[0] = 0;
    p->next_tag = center == VAR_CELL ? 0 : 1;
}

static void add_send(struct sync_plan *p, int rank, const int32_t *idx, int32_t n, const int32_t *upto)
{
    p->send_upto = xrealloc(p->send_upto, (size_t)(p->nsend + 1) * SYNC_DEPTHS * sizeof *p->send_upto);
    memcpy(p->send_upto + (size_t)p->nsend * SYNC_DEPTHS, upto, SYNC_DEPTHS * sizeof *upto);
    p->send_rank = xrealloc(p->send_rank, (size_t)(p->nsend + 1) * sizeof *p->send_rank);
    p->send_off = xrealloc(p->send_off, (size_t)(p->nsend + 2) * sizeof *p->send_off);
    p->send_idx = xrealloc(p->send_idx, (size_t)(p->send_off[p->nsend] + n + 1) * sizeof *p->send_idx);
    memcpy(p->send_idx + p->send_off[p->nsend], idx, (size_t)n * sizeof *idx);
    p->send_rank[p->nsend] = rank;
    p->send_off[p->nsend + 1] = p->send_off[p->nsend] + n;
    p->nsend++;
}

void sync_plans_build(MPI_Comm comm, const struct mesh *m, struct sync_plan *cells, struct sync_plan *nodes)
{
    int P = comm_size(comm), me = comm_rank(comm);
    struct ghost_list gc, gn;
    group_by_owner(m->ghost_cell_owner, m->ncells_owned, m->ncells, me, P, &gc);
    group_by_owner(m->ghost_node_owner, m->nnodes_owned, m->nnodes, me, P, &gn);
    count_layers(&gc, m->cell_layer_start);
    count_layers(&gn, m->node_layer_start);

    /* tell each owner which of its items we hold, in our order */
    struct outbox out;
    outbox_init(&out, comm);
    for (int r = 0; r < P; r++) {
        int ic = -1, in_ = -1;
        for (int k = 0; k < gc.n; k++)
            if (gc.rank[k] == r)
                ic = k;
        for (int k = 0; k < gn.n; k++)
            if (gn.rank[k] == r)
                in_ = k;
        if (ic < 0 && in_ < 0)
            continue;
        struct buf *b = &out.to[r];
        int32_t nc = ic < 0 ? 0 : gc.off[ic + 1] - gc.off[ic], nn = in_ < 0 ? 0 : gn.off[in_ + 1] - gn.off[in_];
        buf_put_i64(b, nc);
        for (int32_t i = 0; i < nc; i++)
            buf_put_i64(b, m->cell_gid[gc.idx[gc.off[ic] + i]]);
        for (int d = 0; d < SYNC_DEPTHS; d++) /* and how many of them lie in layers <= d */
            buf_put_i64(b, ic < 0 ? 0 : gc.upto[(size_t)ic * SYNC_DEPTHS + d]);
        buf_put_i64(b, nn);
        for (int32_t i = 0; i < nn; i++)
            buf_put_i64(b, m->node_gid[gn.idx[gn.off[in_] + i]]);
        for (int d = 0; d < SYNC_DEPTHS; d++)
            buf_put_i64(b, in_ < 0 ? 0 : gn.upto[(size_t)in_ * SYNC_DEPTHS + d]);
    }
    struct inbox in;
    comm_exchange(comm, &out, &in);
    outbox_free(&out);

    plan_from(cells, VAR_CELL, &gc);
    plan_from(nodes, VAR_NODE, &gn);
    for (int i = 0; i < in.n; i++) {
        struct buf *b = &in.msg[i];
        for (int kind = 0; kind < 2; kind++) {
            int64_t n = buf_get_i64(b);
            int32_t *idx = xmalloc((size_t)(n ? n : 1) * sizeof *idx), upto[SYNC_DEPTHS];
            for (int64_t k = 0; k < n; k++) {
                int64_t gid = buf_get_i64(b);
                idx[k] = kind == 0 ? mesh_owned_cell(m, gid) : mesh_owned_node(m, gid);
                if (idx[k] < 0)
                    hydro_fatal(comm, EXIT_RUNTIME, "internal error: rank %d expects %s %lld from rank %d", in.src[i],
                                kind == 0 ? "cell" : "node", (long long)gid, me);
            }
            for (int d = 0; d < SYNC_DEPTHS; d++)
                upto[d] = (int32_t)buf_get_i64(b);
            if (upto[SYNC_DEPTHS - 1] != n)
                hydro_fatal(comm, EXIT_RUNTIME, "internal error: rank %d asks for %lld items, %d by layer", in.src[i],
                            (long long)n, (int)upto[SYNC_DEPTHS - 1]);
            if (n)
                add_send(kind == 0 ? cells : nodes, in.src[i], idx, (int32_t)n, upto);
            free(idx);
        }
    }
    inbox_free(&in);
}

void sync_plan_free(struct sync_plan *p)
{
    free(p->sendbuf);
    free(p->recvbuf);
    free(p->send_rank);
    free(p->recv_rank);
    free(p->send_off);
    free(p->recv_off);
    free(p->send_idx);
    free(p->recv_idx);
    free(p->send_upto);
    free(p->recv_upto);
    memset(p, 0, sizeof *p);
}

int sync_plan_neighbours(const struct sync_plan *p)
{
    int n = p->nrecv;
    for (int i = 0; i < p->nsend; i++) {
        int seen = 0;
        for (int k = 0; k < p->nrecv; k++)
            seen |= p->recv_rank[k] == p->send_rank[i];
        n += !seen;
    }
    return n;
}

/* Items of neighbour i's message: the first of its list, those in the layers g refreshes. */
static int32_t items(const struct sync_group *g, const int32_t *upto, int i)
{
    return upto[(size_t)i * SYNC_DEPTHS + g->depth];
}

/* Doubles of neighbour i's message at most (every material present). */
static int32_t max_len(const struct sync_group *g, const int32_t *upto, int i)
{
    return items(g, upto, i) * g->width;
}

/* Persistent requests of g on its plan's current buffers, made by sync_start when it has none
 * or the buffers moved: a group's depth, set after its creation, changes the lengths, and a
 * wider group created later moves the buffers, so that requests made at once would be made
 * again. The sends of a material group are recorded when sync_start has packed them and knows
 * their length. */
static void make_requests(struct sync_group *g)
{
    const struct sync_plan *p = g->plan;
    for (int i = 0; i < p->nrecv; i++)
        MPI_CHECK(MPI_Recv_init(p->recvbuf + (size_t)p->recv_off[i] * g->width, max_len(g, p->recv_upto, i),
                                MPI_DOUBLE, p->recv_rank[i], g->tag, g->comm, &g->req[i]));
    for (int i = 0; i < p->nsend; i++) {
        g->send_len[i] = g->nmat ? -1 : max_len(g, p->send_upto, i);
        if (!g->nmat)
            MPI_CHECK(MPI_Send_init(p->sendbuf + (size_t)p->send_off[i] * g->width, g->send_len[i], MPI_DOUBLE,
                                    p->send_rank[i], g->tag, g->comm, &g->req[p->nrecv + i]));
    }
    g->has_req = 1;
    g->gen = p->gen;
}

static void free_requests(struct sync_group *g)
{
    if (g->has_req)
        for (int i = 0; i < g->plan->nsend + g->plan->nrecv; i++)
            if (g->req[i] != MPI_REQUEST_NULL)
                MPI_CHECK(MPI_Request_free(&g->req[i]));
    g->has_req = 0;
}

/* Sorts the group's variables into the others and the material variables; returns the number
 * of material variables (g->nmat: the registry's materials when there are any). */
static int material_vars(struct sync_group *g, const int *vars, int nvars)
{
    const struct registry *reg = g->reg;
    int nm = 0, n = 0;
    for (int v = 0; v < nvars; v++)
        nm += (reg->v[vars[v]].flags & VAR_MATERIAL) != 0;
    for (int pass = 0; pass < 2; pass++) /* the others first, then the material variables */
        for (int v = 0; v < nvars; v++)
            if (((reg->v[vars[v]].flags & VAR_MATERIAL) != 0) == pass)
                g->vars[n++] = vars[v];
    g->nmat = nm ? reg->mats->nmat : 0;
    return nm;
}

struct sync_group *sync_group_create(MPI_Comm comm, struct sync_plan *plan, struct registry *reg, const int *vars,
                                     int nvars, enum sync_kind kind)
{
    struct sync_group *g = xcalloc(1, sizeof *g);
    g->comm = comm;
    g->plan = plan;
    g->reg = reg;
    g->nvars = nvars;
    g->vars = xmalloc((size_t)(nvars ? nvars : 1) * sizeof *g->vars);
    for (int v = 0; v < nvars; v++)
        if (reg->v[vars[v]].center != plan->center || !(reg->v[vars[v]].flags & VAR_SYNC))
            hydro_fatal(comm, EXIT_RUNTIME, "internal error: variable '%s' synchronised %s",
                        reg->v[vars[v]].name, reg->v[vars[v]].flags & VAR_SYNC ? "with the wrong plan" : "without VAR_SYNC");
    int nm = material_vars(g, vars, nvars);
    g->nplain = nvars - nm;
    for (int v = 0; v < g->nplain; v++)
        g->width += reg->v[g->vars[v]].ncomp;
    g->width += nm ? 1 + nm * g->nmat : 0;
    /* MPI counts are int: one message holds at most INT_MAX doubles */
    size_t most = 0;
    for (int i = 0; i < plan->nsend; i++)
        if ((size_t)(plan->send_off[i + 1] - plan->send_off[i]) > most)
            most = (size_t)(plan->send_off[i + 1] - plan->send_off[i]);
    for (int i = 0; i < plan->nrecv; i++)
        if ((size_t)(plan->recv_off[i + 1] - plan->recv_off[i]) > most)
            most = (size_t)(plan->recv_off[i + 1] - plan->recv_off[i]);
    if (most * (size_t)g->width > INT_MAX)
        hydro_fatal(comm, EXIT_BADINPUT, "a synchronisation of %d doubles per item over %zu items exceeds MPI's "
                    "count limit: synchronise fewer variables together or use more ranks", g->width, most);
    g->kind = kind;
    g->depth = SYNC_DEPTHS - 1;
    g->tag = TAG_BASE + plan->next_tag % TAG_SPAN;
    plan->next_tag += 2;
    if (g->width > plan->width) { /* the plan's buffers grow (and move) for the widest group */
        free(plan->sendbuf);
        free(plan->recvbuf);
        plan->sendbuf = xmalloc(((size_t)plan->send_off[plan->nsend] * (size_t)g->width + 1) * sizeof *plan->sendbuf);
        plan->recvbuf = xmalloc(((size_t)plan->recv_off[plan->nrecv] * (size_t)g->width + 1) * sizeof *plan->recvbuf);
        plan->width = g->width;
        plan->gen++;
    }
    plan->ngroups++;
    int nreq = plan->nsend + plan->nrecv;
    g->req = xmalloc((size_t)(nreq + 1) * sizeof *g->req);
    for (int i = 0; i < nreq; i++)
        g->req[i] = MPI_REQUEST_NULL;
    g->send_len = xmalloc((size_t)(plan->nsend + 1) * sizeof *g->send_len);
    return g;
}

void sync_group_set_depth(struct sync_group *g, int depth)
{
    if (g->active || depth < 0)
        hydro_fatal(g->comm, EXIT_RUNTIME, "internal error: %s",
                    g->active ? "a depth set in flight" : "a negative depth");
    g->depth = depth < SYNC_DEPTHS - 1 ? depth : SYNC_DEPTHS - 1;
    free_requests(g); /* the receives' lengths, and a plain group's sends: remade by sync_start */
}

void sync_group_destroy(struct sync_group *g)
{
    if (!g)
        return;
    if (g->active)
        sync_finish(g);
    free_requests(g);
    struct sync_plan *p = g->plan;
    if (--p->ngroups == 0) { /* e.g. a rebalance's one-off group of every variable: give it back */
        free(p->sendbuf);
        free(p->recvbuf);
        p->sendbuf = p->recvbuf = NULL;
        p->width = 0;
        p->gen++;
    }
    free(g->req);
    free(g->send_len);
    free(g->vars);
    free(g);
}

/* Material variable var's present values of cells idx[0..n): a pure cell's one value (its cell
 * variable's, 1 for the fractions), a mixed cell's slot entries. Returns the end of dst. */
static double *pack_material(const struct registry *reg, const struct var *var, const int32_t *idx, int32_t n,
                             double *dst)
{
    const struct matstore *ms = reg->mats;
    const double *pure = var->pure >= 0 ? reg->v[var->pure].data : NULL, *q = ms->q[var->mq];
    const int nm = ms->nmat;
    for (int32_t k = 0; k < n; k++) {
        const int32_t c = idx[k], cell = ms->cell[c];
        if (cell >= 0) {
            *dst++ = pure ? pure[c] : 1.0;
            continue;
        }
        const double *row = q + (size_t)(-1 - cell) * nm;
        const unsigned bits = ms->bits[c];
        if (nm == 2) { /* the benchmark's two materials, unrolled */
            if (bits & 1u)
                *dst++ = row[0];
            if (bits & 2u)
                *dst++ = row[1];
            continue;
        }
        for (int m = 0; m < nm; m++)
            if (bits >> m & 1u)
                *dst++ = row[m];
    }
    return dst;
}

/* The inverse, the cells' compositions already their owners': a pure cell's value into its cell
 * variable, a mixed cell's into its slot (0 for the absent materials). Returns the end of src. */
static const double *unpack_material(struct registry *reg, const struct var *var, const int32_t *idx, int32_t n,
                                     const double *src)
{
    struct matstore *ms = reg->mats;
    double *pure = var->pure >= 0 ? reg->v[var->pure].data : NULL, *q = ms->q[var->mq];
    const int nm = ms->nmat;
    for (int32_t k = 0; k < n; k++) {
        const int32_t c = idx[k], cell = ms->cell[c];
        if (cell >= 0) {
            double x = *src++;
            if (pure)
                pure[c] = x;
            continue;
        }
        double *row = q + (size_t)(-1 - cell) * nm;
        const unsigned bits = ms->bits[c];
        if (nm == 2) {
            row[0] = bits & 1u ? *src++ : 0.0;
            row[1] = bits & 2u ? *src++ : 0.0;
            continue;
        }
        for (int m = 0; m < nm; m++)
            row[m] = bits >> m & 1u ? *src++ : 0.0;
    }
    return src;
}

/* One variable's rows of the items idx[lo..hi) between its array and a block of n rows (nc
 * doubles each, in plan order): par_ranges' pieces of pack and unpack. */
struct rows {
    double *data, *block;
    const int32_t *idx;
    int nc, stride;
};

static void rows_pack(void *ctx, int64_t lo, int64_t hi)
{
    const struct rows *r = ctx;
    const int nc = r->nc;
    double *dst = r->block + (size_t)lo * nc;
    if (nc == 1) { /* most variables: no inner loop to enter per item */
        for (int64_t k = lo; k < hi; k++)
            *dst++ = r->data[(size_t)r->idx[k] * r->stride];
        return;
    }
    for (int64_t k = lo; k < hi; k++) {
        const double *src = r->data + (size_t)r->idx[k] * r->stride;
        for (int c = 0; c < nc; c++)
            *dst++ = src[c];
    }
}

static void rows_unpack(void *ctx, int64_t lo, int64_t hi)
{
    const struct rows *r = ctx;
    const int nc = r->nc;
    const double *src = r->block + (size_t)lo * nc;
    if (nc == 1) {
        for (int64_t k = lo; k < hi; k++)
            r->data[(size_t)r->idx[k] * r->stride] = *src++;
        return;
    }
    for (int64_t k = lo; k < hi; k++) {
        double *dst = r->data + (size_t)r->idx[k] * r->stride;
        for (int c = 0; c < nc; c++)
            dst[c] = *src++;
    }
}

/* Message layout per neighbour: variable after variable, items in plan order, components; then
 * for a material group the items' compositions and each material variable's present entries.
 * Returns the doubles packed; *arcane the doubles Arcane's packing of the same values takes: a
 * material variable there is the cell's value (the group's plain variable beside it, as in
 * MaHyCo's pairs) and, per material present, its environment's and its own: 3 doubles for a
 * pure cell, 5 for a cell of two materials, where hydro sends 3 and 4. */
static int32_t pack(const struct sync_group *g, const int32_t *idx, int32_t n, double *dst, long long *arcane)
{
    double *start = dst;
    const int nplain = g->nplain;
    for (int v = 0; v < nplain; v++) {
        const struct var *var = &g->reg->v[g->vars[v]];
        struct rows r = {var->data, dst, idx, var->ncomp, var->stride};
        par_ranges(n, rows_pack, &r); /* each item at its place in the block */
        dst += (size_t)n * var->ncomp;
    }
    *arcane = dst - start;
    if (nplain == g->nvars)
        return (int32_t)(dst - start);
    const uint8_t *bits = g->reg->mats->bits;
    for (int32_t k = 0; k < n; k++)
        *dst++ = (double)bits[idx[k]];
    const double *entries = dst;
    for (int v = nplain; v < g->nvars; v++)
        dst = pack_material(g->reg, &g->reg->v[g->vars[v]], idx, n, dst);
    *arcane += 2 * (dst - entries); /* each present material's value, and its environment's */
    return (int32_t)(dst - start);
}

/* The inverse of pack; returns the doubles read. */
static int32_t unpack(const struct sync_group *g, const int32_t *idx, int32_t n, const double *src)
{
    const double *start = src;
    int v = 0;
    for (; v < g->nplain; v++) {
        struct var *var = &g->reg->v[g->vars[v]];
        struct rows r = {var->data, (double *)src, idx, var->ncomp, var->stride}; /* the block is only read */
        par_ranges(n, rows_unpack, &r);
        src += (size_t)n * var->ncomp;
    }
    if (v == g->nvars)
        return (int32_t)(src - start);
    const double *code = src; /* the owners' compositions first, then their values */
    src += n;
    struct matstore *ms = g->reg->mats;
    const uint8_t *bits = ms->bits; /* matstore_compose writes it, never moves it */
    for (int32_t k = 0; k < n; k++)
        if (bits[idx[k]] != (unsigned)code[k])
            matstore_compose(ms, idx[k], (unsigned)code[k]);
    for (; v < g->nvars; v++)
        src = unpack_material(g->reg, &g->reg->v[g->vars[v]], idx, n, src);
    return (int32_t)(src - start);
}

/* Packs neighbour i's message; a persistent material group records its send again when the
 * length changed (the composition of the cells it carries did). */
static void pack_send(struct sync_group *g, int i)
{
    struct sync_plan *p = g->plan;
    double *dst = p->sendbuf + (size_t)p->send_off[i] * g->width;
    long long arcane;
    int32_t len = pack(g, p->send_idx + p->send_off[i], items(g, p->send_upto, i), dst, &arcane);
    if (g->nmat)
        g->arcane_bytes += arcane * (long long)sizeof(double);
    if (g->kind == SYNC_KIND_PERSISTENT && len != g->send_len[i]) {
        MPI_Request *r = &g->req[p->nrecv + i];
        if (*r != MPI_REQUEST_NULL)
            MPI_CHECK(MPI_Request_free(r));
        MPI_CHECK(MPI_Send_init(dst, len, MPI_DOUBLE, p->send_rank[i], g->tag, g->comm, r));
        g->recorded++;
    }
    g->send_len[i] = len;
}

void sync_start(struct sync_group *g)
{
    struct sync_plan *p = g->plan;
    if (g->active)
        hydro_fatal(g->comm, EXIT_RUNTIME, "internal error: synchronisation started twice");
    if (p->active)
        hydro_fatal(g->comm, EXIT_RUNTIME, "internal error: two synchronisations of one plan in flight");
    if (g->kind == SYNC_KIND_PERSISTENT && (!g->has_req || g->gen != p->gen)) { /* none yet, or the buffers moved */
        free_requests(g);
        make_requests(g);
    }
    for (int i = 0; i < p->nsend; i++)
        pack_send(g, i);
    int n = p->nrecv + p->nsend;
    if (g->kind == SYNC_KIND_PERSISTENT) {
        if (n)
            MPI_CHECK(MPI_Startall(n, g->req));
    } else {
        for (int i = 0; i < p->nrecv; i++)
            MPI_CHECK(MPI_Irecv(p->recvbuf + (size_t)p->recv_off[i] * g->width, max_len(g, p->recv_upto, i), MPI_DOUBLE,
                                p->recv_rank[i], g->tag, g->comm, &g->req[i]));
        for (int i = 0; i < p->nsend; i++)
            MPI_CHECK(MPI_Isend(p->sendbuf + (size_t)p->send_off[i] * g->width, g->send_len[i], MPI_DOUBLE,
                                p->send_rank[i], g->tag, g->comm, &g->req[p->nrecv + i]));
    }
    g->active = 1;
    p->active = g;
}

void sync_finish(struct sync_group *g)
{
    struct sync_plan *p = g->plan;
    if (!g->active)
        hydro_fatal(g->comm, EXIT_RUNTIME, "internal error: synchronisation finished before it started");
#ifdef HYDRO_SMPI
    /* SimGrid's MPI_Waitany goes through every request it was given each time one completes
     * (quadratic in the neighbours, up to 26 at 3 layers): all received first (comm_waitall).
     * With the compute model (run/smpirun.sh -m) the same simulated time, unpacking not being
     * charged; with measured time the unpacking now follows the last arrival. */
    MPI_Status *sts = xmalloc((size_t)(p->nrecv ? p->nrecv : 1) * sizeof *sts);
    comm_waitall(p->nrecv, g->req, sts);
#endif
    for (int i = 0; i < p->nrecv; i++) { /* each message unpacked as it arrives */
        int got, idx;
#ifdef HYDRO_SMPI
        MPI_Status st = sts[i];
        idx = i;
#else
        MPI_Status st;
        MPI_CHECK(MPI_Waitany(p->nrecv, g->req, &idx, &st));
#endif
        MPI_CHECK(MPI_Get_count(&st, MPI_DOUBLE, &got));
        const double *src = p->recvbuf + (size_t)p->recv_off[idx] * g->width;
        int32_t used = unpack(g, p->recv_idx + p->recv_off[idx], items(g, p->recv_upto, idx), src);
        if (used != got)
            hydro_fatal(g->comm, EXIT_RUNTIME, "internal error: a synchronisation message from rank %d holds %d "
                        "doubles, its compositions say %d", p->recv_rank[idx], got, (int)used);
    }
#ifdef HYDRO_SMPI
    free(sts);
#endif
    comm_waitall(p->nsend, g->req + p->nrecv, NULL);
    g->active = 0;
    p->active = NULL;
    g->count++;
    g->messages += p->nsend;
    for (int i = 0; i < p->nsend; i++)
        g->bytes_sent += (long long)g->send_len[i] * (long long)sizeof(double);
}
