/* Cell migration (see migrate.h). */
#include "migrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bucket.h"
#include "check.h"
#include "mesh_local.h"
#include "par.h"

/* A received item: message index in the high bits, position in the message in the low 40. */
enum { POS_BITS = 40 };
static int64_t code_of(int msg, int64_t pos) { return ((int64_t)msg << POS_BITS) | pos; }
static int msg_of(int64_t code) { return (int)(code >> POS_BITS); }
static int64_t pos_of(int64_t code) { return code & (((int64_t)1 << POS_BITS) - 1); }

static int owned_var(const struct var *v, enum var_center center) { return v->center == center && (v->flags & VAR_MIGRATE); }

/* Variable v's rows of items[lo..hi) into their places in a message block: par_ranges' pieces
 * of pack_values (reads only, material rows too). */
struct value_rows {
    const struct registry *reg;
    int v;
    const int32_t *items;
    char *dst;
};

static void value_rows(void *ctx, int64_t lo, int64_t hi)
{
    const struct value_rows *r = ctx;
    const struct var *var = &r->reg->v[r->v];
    const size_t row = (size_t)var->ncomp * sizeof(double);
    for (int64_t i = lo; i < hi; i++) {
        if (var->flags & VAR_MATERIAL) { /* one value per material, 0 where absent */
            double vals[MATSTORE_MAX];
            registry_mat_row(r->reg, r->v, r->items[i], vals);
            memcpy(r->dst + (size_t)i * row, vals, row);
        } else {
            memcpy(r->dst + (size_t)i * row, var->data + (size_t)r->items[i] * var->ncomp, row);
        }
    }
}

/* Every registry-owned variable of the family, each as one block over the listed items. */
static void pack_values(struct buf *b, const struct registry *reg, enum var_center center, const int32_t *items,
                        int64_t n)
{
    for (int v = 0; v < reg->n; v++) {
        const struct var *var = &reg->v[v];
        if (!owned_var(var, center))
            continue;
        struct value_rows r = {reg, v, items, buf_append(b, (size_t)n * (size_t)var->ncomp * sizeof(double))};
        par_ranges(n, value_rows, &r);
    }
}

/* Bytes before the first variable block of a message of n items. */
static size_t header_bytes(int family, int64_t n, int nv, int nf)
{
    if (family == FAMILY_CELL)
        return sizeof(int64_t) * (size_t)(1 + n + n * nv) + sizeof(int32_t) * (size_t)(n * nf);
    return sizeof(int64_t) * (size_t)(1 + n) + 3 * sizeof(double) * (size_t)n;
}

static void now_date(char *out, size_t n)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    char base[24];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, n, "%.19s.%03d", base, (int)(ts.tv_nsec / 1000000));
}

/* One outbox per family: MPI_Alltoallv sends straight from one block packed in rank order. */
static void outboxes_init(struct outbox out[2], MPI_Comm comm, int collective, struct comm_pool *pools)
{
    for (int f = 0; f < 2; f++)
        if (collective)
            outbox_init_block(&out[f], comm, pools ? &pools[f] : NULL);
        else if (pools)
            outbox_init_pooled(&out[f], comm, &pools[f]);
        else
            outbox_init(&out[f], comm);
}

/* The cell message and the node message of the n cells going to rank r. stamp [nnodes]: the
 * rank a node was last listed for; nodes: room for the listed nodes. */
static void pack_destination(const struct mesh *m, const struct registry *reg, int r, const int32_t *cells, int64_t n,
                             struct outbox out[2], int32_t *stamp, int32_t *nodes)
{
    const int nv = m->el->nnodes, nf = m->el->nfaces;
    struct buf *b = outbox_to(&out[FAMILY_CELL], r);
    buf_put_i64(b, n);
    /* (each appended block is filled before the next append, which may move the buffer) */
    int64_t *g = buf_append(b, (size_t)n * sizeof *g);
    for (int64_t i = 0; i < n; i++)
        g[i] = m->cell_gid[cells[i]];
    int64_t *cn = buf_append(b, (size_t)(n * nv) * sizeof *cn);
    for (int64_t i = 0; i < n; i++)
        for (int k = 0; k < nv; k++)
            cn[i * nv + k] = m->node_gid[m->cell_nodes[(size_t)cells[i] * nv + k]];
    int32_t *tags = buf_append(b, (size_t)(n * nf) * sizeof *tags);
    for (int64_t i = 0; i < n; i++)
        mesh_cell_face_tags(m, cells[i], tags + i * nf);
    pack_values(b, reg, VAR_CELL, cells, n);

    int64_t nn = 0; /* the nodes of these cells, in order of first use */
    for (int64_t i = 0; i < n; i++)
        for (int k = 0; k < nv; k++) {
            int32_t node = m->cell_nodes[(size_t)cells[i] * nv + k];
            if (stamp[node] != r) {
                stamp[node] = r;
                nodes[nn++] = node;
            }
        }
    b = outbox_to(&out[FAMILY_NODE], r);
    buf_put_i64(b, nn);
    g = buf_append(b, (size_t)nn * sizeof *g);
    for (int64_t i = 0; i < nn; i++)
        g[i] = m->node_gid[nodes[i]];
    double *x = buf_append(b, (size_t)nn * 3 * sizeof *x);
    for (int64_t i = 0; i < nn; i++)
        memcpy(x + 3 * i, m->node_xyz + 3 * (size_t)nodes[i], 3 * sizeof *x);
    pack_values(b, reg, VAR_NODE, nodes, nn);
}

/* The items that the messages of in will bring: each message starts with its count. */
static int64_t incoming(const struct inbox *in)
{
    int64_t n = 0;
    for (int i = 0; i < in->n; i++) {
        int64_t k;
        memcpy(&k, in->msg[i].data + in->msg[i].pos, sizeof k);
        n += k;
    }
    return n;
}

/* The owned cells that stay here (dest this rank), in local order, go into mg->own with each of
 * their nodes once (their values stay in the old arrays until migration_finish). The cellset is
 * sized at once for them and for what the messages bring (in[f]: their cells, their nodes):
 * grown by doubling, with every corner looked up in its node hash, this took half of
 * migration_run on issue 17's case. */
static void keep_cells(struct migration *mg, const struct mesh *m, const int *dest, const int64_t in[2])
{
    const int me = comm_rank(mg->comm), nv = m->el->nnodes;
    uint8_t *added = xcalloc((size_t)(m->nnodes ? m->nnodes : 1), 1); /* node in mg->own */
    int64_t ncells = 0, nnodes = 0;
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        if (dest[c] != me)
            continue;
        ncells++;
        for (int k = 0; k < nv; k++) {
            int32_t node = m->cell_nodes[(size_t)c * nv + k];
            nnodes += !added[node];
            added[node] = 1;
        }
    }
    cellset_reserve(&mg->own, ncells + in[FAMILY_CELL], nnodes + in[FAMILY_NODE]);
    memset(added, 0, (size_t)m->nnodes);
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        if (dest[c] != me)
            continue;
        int64_t g[MAX_CELL_NODES];
        for (int k = 0; k < nv; k++) {
            int32_t node = m->cell_nodes[(size_t)c * nv + k];
            g[k] = m->node_gid[node];
            if (!added[node])
                cellset_add_node(&mg->own, g[k], m->node_xyz + 3 * (size_t)node);
            added[node] = 1;
        }
        int32_t tags[MAX_CELL_FACES];
        mesh_cell_face_tags(m, c, tags);
        cellset_add_cell(&mg->own, m->cell_gid[c], g, tags);
        mg->cells_kept++;
    }
    free(added);
}

/* Every destination's messages; sizes into mg. */
static void pack_all(struct migration *mg, const struct mesh *m, const struct registry *reg, const int *dest,
                     struct outbox out[2])
{
    const int me = comm_rank(mg->comm), P = comm_size(mg->comm);
    int64_t *first = xmalloc(((size_t)P + 1) * sizeof *first);
    int32_t *by_dest = xmalloc((size_t)(m->ncells_owned ? m->ncells_owned : 1) * sizeof *by_dest);
    bucket_sort(dest, m->ncells_owned, P, first, by_dest);
    int32_t *stamp = xmalloc((size_t)(m->nnodes ? m->nnodes : 1) * sizeof *stamp); /* node listed for r */
    for (int32_t n = 0; n < m->nnodes; n++)
        stamp[n] = -1;
    int32_t *nodes = xmalloc((size_t)(m->nnodes ? m->nnodes : 1) * sizeof *nodes);
    for (int r = 0; r < P; r++) {
        int64_t n = first[r + 1] - first[r];
        if (r == me || n == 0)
            continue;
        mg->cells_sent += n;
        pack_destination(m, reg, r, by_dest + first[r], n, out, stamp, nodes);
    }
    free(nodes);
    free(stamp);
    for (int f = 0; f < 2; f++) {
        outbox_seal(&out[f]);
        for (int r = 0; r < P; r++) {
            mg->bytes[f] += (long long)out[f].to[r].len;
            mg->messages[f] += out[f].to[r].len > 0;
        }
    }
    free(first);
    free(by_dest);
}

/* Transfer: cells, then nodes (the time of the transfer alone, as Arcane reports it). */
static void transfer(struct migration *mg, struct outbox out[2], int collective)
{
    for (int f = 0; f < 2; f++) {
        now_date(mg->date[f], sizeof mg->date[f]);
        /* every rank starts together: the time is the transfer's, not a slower rank's packing */
        MPI_CHECK(MPI_Barrier(mg->comm));
        double t = comm_wtime();
        if (collective)
            comm_exchange_collective(mg->comm, &out[f], &mg->in[f]);
        else
            comm_exchange(mg->comm, &out[f], &mg->in[f]);
        mg->seconds_transfer[f] = comm_wtime() - t;
        outbox_free(&out[f]);
    }
}

/* The mesh part of the received messages, by source rank order (deterministic); their values
 * stay in the messages until migration_finish. */
static void unpack_mesh(struct migration *mg, int nv, int nf, const int64_t in[2])
{
    idmap_init(&mg->got[FAMILY_NODE], (size_t)in[FAMILY_NODE]);
    idmap_init(&mg->got[FAMILY_CELL], (size_t)in[FAMILY_CELL]);
    for (int i = 0; i < mg->in[FAMILY_NODE].n; i++) {
        struct buf *b = &mg->in[FAMILY_NODE].msg[i];
        int64_t n = buf_get_i64(b);
        const char *g = b->data + b->pos, *x = g + (size_t)n * sizeof(int64_t);
        for (int64_t k = 0; k < n; k++) {
            int64_t gid;
            double xyz[3];
            memcpy(&gid, g + (size_t)k * sizeof gid, sizeof gid);
            memcpy(xyz, x + (size_t)k * sizeof xyz, sizeof xyz);
            cellset_add_node(&mg->own, gid, xyz);
            idmap_put(&mg->got[FAMILY_NODE], gid, code_of(i, k));
        }
    }
    for (int i = 0; i < mg->in[FAMILY_CELL].n; i++) {
        struct buf *b = &mg->in[FAMILY_CELL].msg[i];
        int64_t n = buf_get_i64(b);
        const char *g = b->data + b->pos, *cn = g + (size_t)n * sizeof(int64_t),
                   *tags = cn + (size_t)(n * nv) * sizeof(int64_t);
        for (int64_t k = 0; k < n; k++) {
            int64_t gid, nodes_of[MAX_CELL_NODES];
            int32_t t[MAX_CELL_FACES];
            memcpy(&gid, g + (size_t)k * sizeof gid, sizeof gid);
            memcpy(nodes_of, cn + (size_t)(k * nv) * sizeof(int64_t), (size_t)nv * sizeof(int64_t));
            memcpy(t, tags + (size_t)(k * nf) * sizeof(int32_t), (size_t)nf * sizeof(int32_t));
            cellset_add_cell(&mg->own, gid, nodes_of, t);
            idmap_put(&mg->got[FAMILY_CELL], gid, code_of(i, k));
            mg->cells_received++;
        }
    }
}

void migration_run(MPI_Comm comm, const struct mesh *m, const struct registry *reg, const int *dest, int collective,
                   struct comm_pool *pools, struct migration *mg)
{
    memset(mg, 0, sizeof *mg);
    mg->comm = comm;
    cellset_init(&mg->own, m->el->dim);
    double t0 = comm_wtime();
    struct outbox out[2];
    outboxes_init(out, comm, collective, pools);
    pack_all(mg, m, reg, dest, out);
    mg->seconds_pack = comm_wtime() - t0;
    transfer(mg, out, collective);
    t0 = comm_wtime();
    int64_t in[2]; /* the items the messages bring, by family */
    for (int f = 0; f < 2; f++)
        in[f] = incoming(&mg->in[f]);
    keep_cells(mg, m, dest, in);
    unpack_mesh(mg, m->el->nnodes, m->el->nfaces, in);
    mg->nv = m->el->nnodes;
    mg->nf = m->el->nfaces;
    const int64_t *gid[2] = {m->cell_gid, m->node_gid};
    const int32_t n[2] = {m->ncells, m->nnodes};
    for (int f = 0; f < 2; f++) {
        mg->old_n[f] = n[f];
        mg->old_gid[f] = xmalloc((size_t)(n[f] ? n[f] : 1) * sizeof *mg->old_gid[f]);
        memcpy(mg->old_gid[f], gid[f], (size_t)n[f] * sizeof *gid[f]);
    }
    mg->seconds_unpack = comm_wtime() - t0;
}

/* A material variable's rows for the new cells into the new store ns: from the old store (its
 * pure cells' values in the cell variable's old array) or from a message; the fractions set
 * each cell's composition (they come first in the registry). Pure cells' values are their cell
 * variables', which migrate on their own. */
static void fill_material(struct matstore *ns, const struct matstore *os, const struct var *var, double *old_pure,
                          const int64_t *src, int32_t new_n, const struct inbox *in, const size_t *block)
{
    double row[MATSTORE_MAX], *pure[MQ_COUNT] = {0}, *none[MQ_COUNT] = {0};
    pure[var->mq] = old_pure;
    const size_t bytes = (size_t)var->ncomp * sizeof(double);
    for (int32_t i = 0; i < new_n; i++) {
        if (src[i] >= 0) {
            matstore_get(os, pure, (int32_t)src[i], (enum mat_quantity)var->mq, row);
        } else if (src[i] <= -2) {
            int64_t code = -2 - src[i];
            memcpy(row, in->msg[msg_of(code)].data + block[msg_of(code)] + (size_t)pos_of(code) * bytes, bytes);
        } else {
            continue; /* a ghost no one sent: the synchronisation after the migration fills it */
        }
        if (var->flags & VAR_FRACTION)
            matstore_compose_fractions(ns, i, row);
        matstore_set(ns, none, i, (enum mat_quantity)var->mq, row);
    }
}

/* The new arrays of one family: from the old local copy when there is one, else from a message. */
static void fill_family(struct migration *mg, int family, const int64_t *new_gid, int32_t new_n, int32_t new_owned,
                        struct registry *reg)
{
    const int64_t *old_gid = mg->old_gid[family];
    const int32_t old_n = mg->old_n[family];
    const int nv = mg->nv, nf = mg->nf;
    enum var_center center = family == FAMILY_CELL ? VAR_CELL : VAR_NODE;
    struct idmap old;
    idmap_init(&old, (size_t)old_n);
    for (int32_t i = 0; i < old_n; i++)
        idmap_put(&old, old_gid[i], i);
    /* source of each new item: >= 0 old local index, <= -2 a message code, -1 none */
    int64_t *src = xmalloc((size_t)(new_n ? new_n : 1) * sizeof *src);
    for (int32_t i = 0; i < new_n; i++) {
        int64_t o = idmap_get(&old, new_gid[i]), code = o >= 0 ? -1 : idmap_get(&mg->got[family], new_gid[i]);
        src[i] = o >= 0 ? o : code >= 0 ? -2 - code : -1;
        if (i < new_owned && src[i] == -1)
            hydro_fatal(mg->comm, EXIT_RUNTIME, "internal error: owned %s %lld arrived without its values",
                        family == FAMILY_CELL ? "cell" : "node", (long long)new_gid[i]);
    }
    idmap_free(&old);
    /* each message's item count and its next variable block */
    const struct inbox *in = &mg->in[family];
    int64_t *count = xmalloc((size_t)(in->n ? in->n : 1) * sizeof *count);
    size_t *block = xmalloc((size_t)(in->n ? in->n : 1) * sizeof *block);
    for (int i = 0; i < in->n; i++) {
        memcpy(&count[i], in->msg[i].data, sizeof count[i]);
        block[i] = header_bytes(family, count[i], nv, nf);
    }
    /* an old array is freed once its new one is filled, except those a material variable
     * reads its pure cells' values from (freed at the end) */
    double **old_data = xcalloc((size_t)(reg->n ? reg->n : 1), sizeof *old_data);
    char *read_later = xcalloc((size_t)(reg->n ? reg->n : 1), 1);
    for (int v = 0; v < reg->n; v++)
        if ((reg->v[v].flags & VAR_MATERIAL) && reg->v[v].pure >= 0)
            read_later[reg->v[v].pure] = 1;
    struct matstore *ns = center == VAR_CELL && reg->mats ? matstore_create(reg->mats->nmat, new_n) : NULL;
    for (int v = 0; v < reg->n; v++) {
        struct var *var = &reg->v[v];
        if (var->center != center || var->external)
            continue;
        size_t row = (size_t)var->ncomp * sizeof(double);
        if (var->flags & VAR_MATERIAL) {
            fill_material(ns, reg->mats, var, var->pure >= 0 ? (old_data[var->pure] ? old_data[var->pure]
                                                                                   : reg->v[var->pure].data)
                                                              : NULL,
                          src, new_n, in, block);
            for (int i = 0; i < in->n; i++)
                block[i] += (size_t)count[i] * row;
            continue;
        }
        double *data = xcalloc((size_t)(new_n ? new_n : 1) * (size_t)var->ncomp, sizeof *data);
        old_data[v] = var->data;
        if (!owned_var(var, center)) { /* the registry's, not migrating: new items, zero values */
            var->data = data;
            continue;
        }
        PAR_FOR(new_n)
        for (int32_t i = 0; i < new_n; i++) {
            if (src[i] >= 0) {
                memcpy(data + (size_t)i * var->ncomp, var->data + (size_t)src[i] * var->ncomp, row);
            } else if (src[i] <= -2) {
                int64_t code = -2 - src[i];
                int msg = msg_of(code);
                memcpy(data + (size_t)i * var->ncomp, in->msg[msg].data + block[msg] + (size_t)pos_of(code) * row, row);
            }
        }
        for (int i = 0; i < in->n; i++)
            block[i] += (size_t)count[i] * row;
        var->data = data;
        if (!read_later[v]) {
            free(old_data[v]);
            old_data[v] = NULL;
        }
    }
    for (int v = 0; v < reg->n; v++)
        free(old_data[v]);
    free(old_data);
    free(read_later);
    if (ns) {
        matstore_destroy(reg->mats);
        reg->mats = ns;
    }
    for (int i = 0; i < in->n; i++)
        if (block[i] != in->msg[i].len)
            hydro_fatal(mg->comm, EXIT_RUNTIME, "internal error: a migration message from rank %d holds %zu bytes, "
                        "%zu expected (registries differ between ranks?)", in->src[i], in->msg[i].len, block[i]);
    free(count);
    free(block);
    free(src);
}

void migration_finish(struct migration *mg, const struct mesh *nm, struct registry *reg)
{
    double t0 = comm_wtime();
    fill_family(mg, FAMILY_CELL, nm->cell_gid, nm->ncells, nm->ncells_owned, reg);
    fill_family(mg, FAMILY_NODE, nm->node_gid, nm->nnodes, nm->nnodes_owned, reg);
    reg->ncells = nm->ncells;
    reg->nnodes = nm->nnodes;
    mg->seconds_unpack += comm_wtime() - t0;
}

void migration_free(struct migration *mg)
{
    cellset_free(&mg->own);
    for (int f = 0; f < 2; f++) {
        inbox_free(&mg->in[f]);
        idmap_free(&mg->got[f]);
        free(mg->old_gid[f]);
    }
    memset(mg, 0, sizeof *mg);
}
