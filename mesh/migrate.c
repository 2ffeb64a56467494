/* Cell migration (see migrate.h). */
#include "migrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "comm.h"

static int width(const struct registry *reg, enum var_center center)
{
    int w = 0;
    for (int v = 0; v < reg->n; v++)
        if (reg->v[v].center == center && !reg->v[v].external)
            w += reg->v[v].ncomp;
    return w;
}

/* The values of item i of one centering, concatenated in registry order. */
static void gather_values(const struct registry *reg, enum var_center center, int32_t i, double *dst)
{
    for (int v = 0; v < reg->n; v++) {
        const struct var *var = &reg->v[v];
        if (var->center != center || var->external)
            continue;
        memcpy(dst, var->data + (size_t)i * var->ncomp, (size_t)var->ncomp * sizeof *dst);
        dst += var->ncomp;
    }
}

static void scatter_values(struct registry *reg, enum var_center center, int32_t i, const double *src)
{
    for (int v = 0; v < reg->n; v++) {
        struct var *var = &reg->v[v];
        if (var->center != center || var->external)
            continue;
        memcpy(var->data + (size_t)i * var->ncomp, src, (size_t)var->ncomp * sizeof *src);
        src += var->ncomp;
    }
}

/* Keep the first copy of an item's values. */
static void store(struct idmap *rows, int64_t *n, int64_t *cap, double **values, int w, int64_t gid, const double *v)
{
    if (!idmap_put(rows, gid, *n))
        return;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        *values = xrealloc(*values, (size_t)*cap * (size_t)(w ? w : 1) * sizeof **values);
    }
    memcpy(*values + (size_t)*n * w, v, (size_t)w * sizeof *v);
    (*n)++;
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

void migration_run(MPI_Comm comm, const struct mesh *m, const struct registry *reg, const int *dest, int collective,
                   struct migration *mg)
{
    const int me = comm_rank(comm), P = comm_size(comm);
    const int nv = m->el->nnodes, nf = m->el->nfaces;
    memset(mg, 0, sizeof *mg);
    cellset_init(&mg->own, m->el->dim);
    mg->cell_width = width(reg, VAR_CELL);
    mg->node_width = width(reg, VAR_NODE);
    idmap_init(&mg->cell_row, (size_t)m->ncells_owned);
    idmap_init(&mg->node_row, (size_t)m->nnodes);
    const int wc = mg->cell_width, wn = mg->node_width;
    double *cv = xmalloc((size_t)(wc ? wc : 1) * sizeof *cv), *nvv = xmalloc((size_t)(wn ? wn : 1) * sizeof *nvv);

    /* pack: one cell message and one node message per destination */
    double t0 = comm_wtime();
    struct outbox cells, nodes;
    outbox_init(&cells, comm);
    outbox_init(&nodes, comm);
    int64_t *count = xcalloc((size_t)P, sizeof *count), *first = xcalloc((size_t)P + 1, sizeof *first);
    for (int32_t c = 0; c < m->ncells_owned; c++)
        count[dest[c]]++;
    for (int r = 0; r < P; r++)
        first[r + 1] = first[r] + count[r];
    int32_t *by_dest = xmalloc((size_t)(m->ncells_owned ? m->ncells_owned : 1) * sizeof *by_dest);
    {
        int64_t *fill = xmalloc((size_t)P * sizeof *fill);
        memcpy(fill, first, (size_t)P * sizeof *fill);
        for (int32_t c = 0; c < m->ncells_owned; c++)
            by_dest[fill[dest[c]]++] = c;
        free(fill);
    }
    for (int r = 0; r < P; r++)
        if (r != me && count[r]) {
            buf_put_i64(&cells.to[r], count[r]);
            mg->cells_sent += count[r];
        }
    int32_t *stamp = xmalloc((size_t)(m->nnodes ? m->nnodes : 1) * sizeof *stamp); /* node already packed for r */
    for (int32_t n = 0; n < m->nnodes; n++)
        stamp[n] = -1;
    int64_t *nodes_to = xcalloc((size_t)P, sizeof *nodes_to);
    struct buf *node_body = xcalloc((size_t)P, sizeof *node_body);
    for (int r = 0; r < P; r++) {
        if (r == me || !count[r])
            continue;
        for (int64_t i = first[r]; i < first[r + 1]; i++) {
            int32_t c = by_dest[i];
            buf_put_i64(&cells.to[r], m->cell_gid[c]);
            for (int k = 0; k < nv; k++)
                buf_put_i64(&cells.to[r], m->node_gid[m->cell_nodes[(size_t)c * nv + k]]);
            buf_put(&cells.to[r], m->cell_face_tag + (size_t)c * nf, (size_t)nf * sizeof *m->cell_face_tag);
            gather_values(reg, VAR_CELL, c, cv);
            buf_put(&cells.to[r], cv, (size_t)wc * sizeof *cv);
            for (int k = 0; k < nv; k++) {
                int32_t n = m->cell_nodes[(size_t)c * nv + k];
                if (stamp[n] == r)
                    continue;
                stamp[n] = r;
                nodes_to[r]++;
                buf_put_i64(&node_body[r], m->node_gid[n]);
                buf_put(&node_body[r], m->node_xyz + 3 * (size_t)n, 3 * sizeof(double));
                gather_values(reg, VAR_NODE, n, nvv);
                buf_put(&node_body[r], nvv, (size_t)wn * sizeof *nvv);
            }
        }
        buf_put_i64(&nodes.to[r], nodes_to[r]);
        buf_put(&nodes.to[r], node_body[r].data, node_body[r].len);
        buf_free(&node_body[r]);
    }
    free(node_body);
    free(nodes_to);
    free(stamp);
    for (int r = 0; r < P; r++) {
        mg->bytes[FAMILY_CELL] += (long long)cells.to[r].len;
        mg->bytes[FAMILY_NODE] += (long long)nodes.to[r].len;
        mg->messages[FAMILY_CELL] += cells.to[r].len > 0;
        mg->messages[FAMILY_NODE] += nodes.to[r].len > 0;
    }
    /* cells kept here, with their values */
    for (int32_t c = 0; c < m->ncells_owned; c++) {
        if (dest[c] != me)
            continue;
        int64_t g[MAX_CELL_NODES];
        for (int k = 0; k < nv; k++) {
            int32_t n = m->cell_nodes[(size_t)c * nv + k];
            g[k] = m->node_gid[n];
            cellset_add_node(&mg->own, g[k], m->node_xyz + 3 * (size_t)n);
            gather_values(reg, VAR_NODE, n, nvv);
            store(&mg->node_row, &mg->nnode_rows, &mg->cap_node_rows, &mg->node_values, wn, g[k], nvv);
        }
        cellset_add_cell(&mg->own, m->cell_gid[c], g, m->cell_face_tag + (size_t)c * nf);
        gather_values(reg, VAR_CELL, c, cv);
        store(&mg->cell_row, &mg->ncell_rows, &mg->cap_cell_rows, &mg->cell_values, wc, m->cell_gid[c], cv);
        mg->cells_kept++;
    }
    free(count);
    free(first);
    free(by_dest);
    mg->seconds_pack = comm_wtime() - t0;

    /* transfer: cells, then nodes (the time of the transfer alone, as Arcane reports it) */
    struct inbox in[2];
    struct outbox *boxes[2] = {&cells, &nodes};
    for (int fam = 0; fam < 2; fam++) {
        now_date(mg->date[fam], sizeof mg->date[fam]);
        double t = comm_wtime();
        if (collective)
            comm_exchange_collective(comm, boxes[fam], &in[fam]);
        else
            comm_exchange(comm, boxes[fam], &in[fam]);
        mg->seconds_transfer[fam] = comm_wtime() - t;
    }
    outbox_free(&cells);
    outbox_free(&nodes);

    /* unpack, by source rank order: deterministic */
    t0 = comm_wtime();
    for (int i = 0; i < in[FAMILY_NODE].n; i++) {
        struct buf *b = &in[FAMILY_NODE].msg[i];
        int64_t n = buf_get_i64(b);
        for (int64_t k = 0; k < n; k++) {
            double x[3];
            int64_t gid = buf_get_i64(b);
            buf_get(b, x, sizeof x);
            buf_get(b, nvv, (size_t)wn * sizeof *nvv);
            cellset_add_node(&mg->own, gid, x);
            store(&mg->node_row, &mg->nnode_rows, &mg->cap_node_rows, &mg->node_values, wn, gid, nvv);
        }
    }
    for (int i = 0; i < in[FAMILY_CELL].n; i++) {
        struct buf *b = &in[FAMILY_CELL].msg[i];
        int64_t n = buf_get_i64(b);
        for (int64_t k = 0; k < n; k++) {
            int64_t gid = buf_get_i64(b), g[MAX_CELL_NODES];
            int32_t tags[MAX_CELL_FACES];
            buf_get(b, g, (size_t)nv * sizeof *g);
            buf_get(b, tags, (size_t)nf * sizeof *tags);
            buf_get(b, cv, (size_t)wc * sizeof *cv);
            cellset_add_cell(&mg->own, gid, g, tags);
            store(&mg->cell_row, &mg->ncell_rows, &mg->cap_cell_rows, &mg->cell_values, wc, gid, cv);
            mg->cells_received++;
        }
    }
    inbox_free(&in[FAMILY_CELL]);
    inbox_free(&in[FAMILY_NODE]);
    free(cv);
    free(nvv);
    mg->seconds_unpack = comm_wtime() - t0;
}

void migration_fill(const struct migration *mg, const struct mesh *m, struct registry *reg)
{
    for (int32_t c = 0; c < m->ncells; c++) {
        int64_t row = idmap_get(&mg->cell_row, m->cell_gid[c]);
        if (row >= 0)
            scatter_values(reg, VAR_CELL, c, mg->cell_values + (size_t)row * mg->cell_width);
        else if (c < m->ncells_owned)
            hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: owned cell %lld arrived without its values",
                        (long long)m->cell_gid[c]);
    }
    for (int32_t n = 0; n < m->nnodes; n++) {
        int64_t row = idmap_get(&mg->node_row, m->node_gid[n]);
        if (row >= 0)
            scatter_values(reg, VAR_NODE, n, mg->node_values + (size_t)row * mg->node_width);
        else if (n < m->nnodes_owned)
            hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: owned node %lld arrived without its values",
                        (long long)m->node_gid[n]);
    }
}

void migration_free(struct migration *mg)
{
    cellset_free(&mg->own);
    idmap_free(&mg->cell_row);
    idmap_free(&mg->node_row);
    free(mg->cell_values);
    free(mg->node_values);
    memset(mg, 0, sizeof *mg);
}

void registry_resize(struct registry *reg, int32_t ncells, int32_t nnodes)
{
    reg->ncells = ncells;
    reg->nnodes = nnodes;
    for (int v = 0; v < reg->n; v++) {
        struct var *var = &reg->v[v];
        if (var->external)
            continue;
        int32_t items = var->center == VAR_CELL ? ncells : nnodes;
        free(var->data);
        var->data = xcalloc((size_t)(items ? items : 1) * (size_t)var->ncomp, sizeof *var->data);
    }
}
