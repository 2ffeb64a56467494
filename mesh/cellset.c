/* Cells travelling between ranks (see cellset.h). */
#include "cellset.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "geometry.h"
#include "mesh_local.h"

void cellset_init(struct cellset *s, int dim)
{
    memset(s, 0, sizeof *s);
    s->el = element_of_dim(dim);
    idmap_init(&s->node_index, 16);
}

void cellset_free(struct cellset *s)
{
    free(s->gid);
    free(s->nodes);
    free(s->face_tag);
    free(s->node_gid);
    free(s->xyz);
    idmap_free(&s->node_index);
    memset(s, 0, sizeof *s);
}

void cellset_reserve(struct cellset *s, int64_t cells, int64_t nodes)
{
    int nv = s->el->nnodes, nf = s->el->nfaces;
    if (s->ncells + cells > s->cap_cells) {
        s->cap_cells = s->ncells + cells;
        s->gid = xrealloc(s->gid, (size_t)s->cap_cells * sizeof *s->gid);
        s->nodes = xrealloc(s->nodes, (size_t)s->cap_cells * nv * sizeof *s->nodes);
        s->face_tag = xrealloc(s->face_tag, (size_t)s->cap_cells * nf * sizeof *s->face_tag);
    }
    if (s->nnodes + nodes > s->cap_nodes) {
        s->cap_nodes = s->nnodes + nodes;
        s->node_gid = xrealloc(s->node_gid, (size_t)s->cap_nodes * sizeof *s->node_gid);
        s->xyz = xrealloc(s->xyz, (size_t)s->cap_nodes * 3 * sizeof *s->xyz);
    }
    if (2 * (s->node_index.n + (size_t)nodes) > s->node_index.cap) { /* one rehash, to the final size */
        struct idmap index;
        idmap_init(&index, (size_t)(s->nnodes + nodes));
        for (int64_t i = 0; i < s->nnodes; i++)
            idmap_put(&index, s->node_gid[i], i);
        idmap_free(&s->node_index);
        s->node_index = index;
    }
}

void cellset_add_cell(struct cellset *s, int64_t gid, const int64_t *nodes, const int32_t *tags)
{
    int nv = s->el->nnodes, nf = s->el->nfaces;
    if (s->ncells == s->cap_cells) {
        s->cap_cells = s->cap_cells ? 2 * s->cap_cells : 64;
        s->gid = xrealloc(s->gid, (size_t)s->cap_cells * sizeof *s->gid);
        s->nodes = xrealloc(s->nodes, (size_t)s->cap_cells * nv * sizeof *s->nodes);
        s->face_tag = xrealloc(s->face_tag, (size_t)s->cap_cells * nf * sizeof *s->face_tag);
    }
    s->gid[s->ncells] = gid;
    memcpy(s->nodes + s->ncells * nv, nodes, (size_t)nv * sizeof *nodes);
    if (tags)
        memcpy(s->face_tag + s->ncells * nf, tags, (size_t)nf * sizeof *tags);
    else
        memset(s->face_tag + s->ncells * nf, 0, (size_t)nf * sizeof *tags);
    s->ncells++;
}

void cellset_add_node(struct cellset *s, int64_t gid, const double xyz[3])
{
    if (!idmap_put(&s->node_index, gid, s->nnodes))
        return;
    if (s->nnodes == s->cap_nodes) {
        s->cap_nodes = s->cap_nodes ? 2 * s->cap_nodes : 64;
        s->node_gid = xrealloc(s->node_gid, (size_t)s->cap_nodes * sizeof *s->node_gid);
        s->xyz = xrealloc(s->xyz, (size_t)s->cap_nodes * 3 * sizeof *s->xyz);
    }
    s->node_gid[s->nnodes] = gid;
    memcpy(s->xyz + 3 * s->nnodes, xyz, 3 * sizeof *xyz);
    s->nnodes++;
}

const double *cellset_node_xyz(const struct cellset *s, int64_t gid)
{
    int64_t i = idmap_get(&s->node_index, gid);
    return i < 0 ? NULL : s->xyz + 3 * i;
}

void cellset_centre(const struct cellset *s, int64_t c, double centre[3])
{
    const int nv = s->el->nnodes;
    double xc[MAX_CELL_NODES][3];
    for (int k = 0; k < nv; k++) {
        const double *x = cellset_node_xyz(s, s->nodes[(size_t)c * nv + k]);
        if (!x)
            hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: node %lld of cell %lld has no position",
                        (long long)s->nodes[(size_t)c * nv + k], (long long)s->gid[c]);
        memcpy(xc[k], x, sizeof xc[k]);
    }
    geom_centre(s->el, (const double(*)[3])xc, centre);
}

void cellset_pack(const struct cellset *s, const int32_t *cells, int64_t n, struct buf *b)
{
    int nv = s->el->nnodes, nf = s->el->nfaces;
    struct idmap seen;
    idmap_init(&seen, (size_t)n * 2);
    int64_t nn = 0;
    for (int64_t i = 0; i < n; i++)
        for (int k = 0; k < nv; k++)
            nn += idmap_put(&seen, s->nodes[cells[i] * nv + k], 0);
    /* the message's exact size at once: growing it by doubling held two copies at a time */
    size_t need = b->len + 2 * sizeof(int64_t) + (size_t)n * (sizeof *s->gid + (size_t)nv * sizeof *s->nodes +
                  (size_t)nf * sizeof *s->face_tag) + (size_t)nn * (sizeof(int64_t) + 3 * sizeof(double));
    if (need > b->cap) {
        b->data = xrealloc(b->data, need);
        b->cap = need;
    }
    buf_put_i64(b, n);
    for (int64_t i = 0; i < n; i++) {
        int64_t c = cells[i];
        buf_put_i64(b, s->gid[c]);
        buf_put(b, s->nodes + c * nv, (size_t)nv * sizeof *s->nodes);
        buf_put(b, s->face_tag + c * nf, (size_t)nf * sizeof *s->face_tag);
    }
    buf_put_i64(b, nn);
    for (size_t i = 0; i < seen.cap; i++) {
        if (seen.keys[i] < 0)
            continue;
        const double *x = cellset_node_xyz(s, seen.keys[i]);
        if (!x)
            hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: node %lld has no coordinates",
                        (long long)seen.keys[i]);
        buf_put_i64(b, seen.keys[i]);
        buf_put(b, x, 3 * sizeof *x);
    }
    idmap_free(&seen);
}

/* Room for cells and nodes more: the exact sizes into an empty set (a single message, as at
 * set-up), at least doubling otherwise, so that many messages still cost linear time. */
static void grow_for(struct cellset *s, int64_t cells, int64_t nodes)
{
    int64_t c = 0, v = 0;
    if (s->ncells + cells > s->cap_cells)
        c = cells > 2 * s->cap_cells - s->ncells ? cells : 2 * s->cap_cells - s->ncells;
    if (s->nnodes + nodes > s->cap_nodes)
        v = nodes > 2 * s->cap_nodes - s->nnodes ? nodes : 2 * s->cap_nodes - s->nnodes;
    cellset_reserve(s, c, v);
}

void cellset_unpack(struct cellset *s, struct buf *b)
{
    int nv = s->el->nnodes, nf = s->el->nfaces;
    int64_t n = buf_get_i64(b);
    int64_t nodes[MAX_CELL_NODES];
    int32_t tags[MAX_CELL_FACES];
    grow_for(s, n, 0); /* growing cell by cell doubled the arrays, two copies alive each time */
    for (int64_t i = 0; i < n; i++) {
        int64_t gid = buf_get_i64(b);
        buf_get(b, nodes, (size_t)nv * sizeof *nodes);
        buf_get(b, tags, (size_t)nf * sizeof *tags);
        cellset_add_cell(s, gid, nodes, tags);
    }
    int64_t nn = buf_get_i64(b);
    grow_for(s, 0, nn);
    for (int64_t i = 0; i < nn; i++) {
        double x[3];
        int64_t gid = buf_get_i64(b);
        buf_get(b, x, sizeof x);
        cellset_add_node(s, gid, x);
    }
}

void cellset_sort(struct cellset *s)
{
    int nv = s->el->nnodes, nf = s->el->nfaces;
    int64_t n = s->ncells, sorted = 1;
    for (int64_t i = 1; i < n && sorted; i++)
        sorted = s->gid[i - 1] < s->gid[i];
    if (sorted) /* as generated or partitioned: no copy of the arrays needed */
        return;
    struct key_idx *o = xmalloc((size_t)(n ? n : 1) * sizeof *o);
    for (int64_t i = 0; i < n; i++)
        o[i] = (struct key_idx){s->gid[i], i};
    key_idx_sort(o, n);
    int64_t *gid = xmalloc((size_t)(n ? n : 1) * sizeof *gid);
    int64_t *nodes = xmalloc((size_t)(n ? n : 1) * nv * sizeof *nodes);
    int32_t *tags = xmalloc((size_t)(n ? n : 1) * nf * sizeof *tags);
    for (int64_t i = 0; i < n; i++) {
        gid[i] = o[i].key;
        memcpy(nodes + i * nv, s->nodes + o[i].idx * nv, (size_t)nv * sizeof *nodes);
        memcpy(tags + i * nf, s->face_tag + o[i].idx * nf, (size_t)nf * sizeof *tags);
    }
    free(o);
    free(s->gid);
    free(s->nodes);
    free(s->face_tag);
    s->gid = gid;
    s->nodes = nodes;
    s->face_tag = tags;
    s->cap_cells = n;
}
