/* Cells travelling between ranks (see cellset.h). */
#include "cellset.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

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

void cellset_pack(const struct cellset *s, const int64_t *cells, int64_t n, struct buf *b)
{
    int nv = s->el->nnodes, nf = s->el->nfaces;
    buf_put_i64(b, n);
    struct idmap seen;
    idmap_init(&seen, (size_t)n * 2);
    int64_t nn = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t c = cells[i];
        buf_put_i64(b, s->gid[c]);
        buf_put(b, s->nodes + c * nv, (size_t)nv * sizeof *s->nodes);
        buf_put(b, s->face_tag + c * nf, (size_t)nf * sizeof *s->face_tag);
        for (int k = 0; k < nv; k++)
            nn += idmap_put(&seen, s->nodes[c * nv + k], 0);
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

void cellset_unpack(struct cellset *s, struct buf *b)
{
    int nv = s->el->nnodes, nf = s->el->nfaces;
    int64_t n = buf_get_i64(b);
    int64_t nodes[MAX_CELL_NODES];
    int32_t tags[MAX_CELL_FACES];
    for (int64_t i = 0; i < n; i++) {
        int64_t gid = buf_get_i64(b);
        buf_get(b, nodes, (size_t)nv * sizeof *nodes);
        buf_get(b, tags, (size_t)nf * sizeof *tags);
        cellset_add_cell(s, gid, nodes, tags);
    }
    int64_t nn = buf_get_i64(b);
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
    int64_t n = s->ncells;
    struct key_idx *o = xmalloc((size_t)(n ? n : 1) * sizeof *o);
    for (int64_t i = 0; i < n; i++)
        o[i] = (struct key_idx){s->gid[i], i};
    qsort(o, (size_t)n, sizeof *o, key_idx_cmp);
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
