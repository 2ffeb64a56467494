/* Local numbering and connectivity of one rank's mesh (rules in mesh.h). */
#include "mesh.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "check.h"
#include "mesh_local.h"

static int32_t checked_i32(int64_t n, const char *what)
{
    if (n > INT32_MAX)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "%lld local %s do not fit 32-bit local indices: use more ranks",
                    (long long)n, what);
    return (int32_t)n;
}

/* Face index in the cell with node gids nodes whose key equals key, or -1. */
static int face_of(const struct element *el, const int64_t *nodes, const int64_t key[4])
{
    for (int f = 0; f < el->nfaces; f++) {
        int64_t k[4];
        element_face_key(el, nodes, f, k);
        if (!memcmp(k, key, sizeof k))
            return f;
    }
    return -1;
}

/* Scratch arrays shared by the assembly steps, indexed by local cell. */
struct scratch {
    int64_t *cell_node_gid; /* [ncells][nnodes per cell], until the nodes are numbered */
    int8_t *cell_layer;     /* [ncells] */
    int32_t *cell_face_tag; /* [ncells][nfaces per cell], until the faces are numbered */
    long long nonconforming; /* smallest gid of a cell sharing a face with two others, or LLONG_MAX */
};

/* Copy cell idx of set to local position pos. */
static void place_cell(struct mesh *m, struct scratch *w, int64_t pos, const struct cellset *set, int64_t idx,
                       int32_t owner, int layer)
{
    const int nv = m->el->nnodes, nf = m->el->nfaces;
    m->cell_gid[pos] = set->gid[idx];
    if (pos >= m->ncells_owned)
        m->ghost_cell_owner[pos - m->ncells_owned] = owner;
    memcpy(w->cell_node_gid + pos * nv, set->nodes + idx * nv, (size_t)nv * sizeof *w->cell_node_gid);
    memcpy(w->cell_face_tag + pos * nf, set->face_tag + idx * nf, (size_t)nf * sizeof *w->cell_face_tag);
    w->cell_layer[pos] = (int8_t)layer;
}

/* Cells: owned (already sorted by gid), then each ghost layer sorted by gid. */
static void assemble_cells(struct mesh *m, struct scratch *w, const struct cellset *own, const struct cellset *ghosts,
                           const int64_t *layer_end, const struct idmap *ghost_owner)
{
    const int nv = m->el->nnodes, nf = m->el->nfaces;
    int64_t nc = own->ncells + ghosts->ncells;
    m->ncells = checked_i32(nc, "cells");
    m->ncells_owned = (int32_t)own->ncells;
    m->cell_gid = xmalloc((size_t)(nc ? nc : 1) * sizeof *m->cell_gid);
    m->ghost_cell_owner = xmalloc((size_t)(nc - own->ncells + 1) * sizeof *m->ghost_cell_owner);
    m->cell_nodes = xmalloc((size_t)(nc ? nc : 1) * nv * sizeof *m->cell_nodes);
    m->cell_faces = xmalloc((size_t)(nc ? nc : 1) * nf * sizeof *m->cell_faces);
    w->cell_face_tag = xmalloc((size_t)(nc ? nc : 1) * nf * sizeof *w->cell_face_tag);
    w->cell_node_gid = xmalloc((size_t)(nc ? nc : 1) * nv * sizeof *w->cell_node_gid);
    w->cell_layer = xmalloc((size_t)(nc ? nc : 1));
    for (int64_t c = 0; c < own->ncells; c++)
        place_cell(m, w, c, own, c, m->rank, 0);
    m->cell_layer_start[0] = 0;
    int64_t pos = own->ncells;
    for (int l = 1; l <= m->nlayers; l++) {
        m->cell_layer_start[l] = (int32_t)pos;
        int64_t a = layer_end[l - 1], b = layer_end[l];
        struct key_idx *o = xmalloc((size_t)(b - a + 1) * sizeof *o);
        for (int64_t i = a; i < b; i++)
            o[i - a] = (struct key_idx){ghosts->gid[i], i};
        key_idx_sort(o, b - a);
        for (int64_t i = 0; i < b - a; i++, pos++)
            place_cell(m, w, pos, ghosts, o[i].idx, (int32_t)idmap_get(ghost_owner, ghosts->gid[o[i].idx]), l);
        free(o);
    }
    for (int l = m->nlayers + 1; l <= MAX_LAYERS + 1; l++)
        m->cell_layer_start[l] = (int32_t)pos;
}

/* Nodes: a node's layer is the lowest layer of the cells around it; owner by the rule in mesh.h.
 * The cells' node gids are no longer needed afterwards: freed here, before the faces. */
static void assemble_nodes(struct mesh *m, struct scratch *w, const struct cellset *own, const struct cellset *ghosts,
                           const struct nodelists *known)
{
    const int nv = m->el->nnodes, me = m->rank;
    const int64_t nc = m->ncells;
    struct idmap node_slot; /* gid -> slot in order of first visit; sized for about one node per cell */
    idmap_init(&node_slot, (size_t)nc + (size_t)nc / 4 + 16);
    int64_t nn = 0, cap = 1024;
    int64_t *ngid = xmalloc((size_t)cap * sizeof *ngid);
    int8_t *nlayer = xmalloc((size_t)cap);
    for (int64_t c = 0; c < nc; c++)
        for (int k = 0; k < nv; k++) {
            int64_t g = w->cell_node_gid[c * nv + k];
            /* each corner's slot, in cell_nodes until the slots have local indices (below) */
            m->cell_nodes[c * nv + k] = (int32_t)idmap_get_or_put(&node_slot, g, nn);
            if (m->cell_nodes[c * nv + k] == nn) {
                if (nn == cap) {
                    cap *= 2;
                    ngid = xrealloc(ngid, (size_t)cap * sizeof *ngid);
                    nlayer = xrealloc(nlayer, (size_t)cap);
                }
                ngid[nn] = g;
                nlayer[nn++] = w->cell_layer[c]; /* cells come in layer order: first visit is lowest */
            }
        }
    m->nnodes = checked_i32(nn, "nodes");
    int32_t *nowner = xmalloc((size_t)(nn ? nn : 1) * sizeof *nowner);
    struct key_idx *o = xmalloc((size_t)(nn ? nn : 1) * sizeof *o);
    int64_t nown = 0;
    for (int64_t i = 0; i < nn; i++) {
        int64_t s = idmap_get(&known->index, ngid[i]);
        nowner[i] = s < 0 ? me : known->owner[known->start[s]];
        if (nowner[i] == me && nlayer[i] != 0)
            hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: node %lld owned here but not in layer 0",
                        (long long)ngid[i]);
        /* sort key: owned first, then by layer, then gid (gids < 2^59) */
        int64_t cls = nowner[i] == me ? 0 : 1 + nlayer[i];
        o[i] = (struct key_idx){(cls << 59) | ngid[i], i};
        nown += nowner[i] == me;
    }
    free(nlayer);
    key_idx_sort(o, nn);
    m->nnodes_owned = (int32_t)nown;
    m->node_gid = xmalloc((size_t)(nn ? nn : 1) * sizeof *m->node_gid);
    m->ghost_node_owner = xmalloc((size_t)(nn - nown + 1) * sizeof *m->ghost_node_owner);
    m->node_xyz = xmalloc((size_t)(nn ? nn : 1) * 3 * sizeof *m->node_xyz);
    /* classes in sort order: 0 owned, 1 other layer-0, 1 + l layer l */
    int64_t per_class[MAX_LAYERS + 2] = {0};
    for (int64_t i = 0; i < nn; i++)
        per_class[o[i].key >> 59]++;
    m->node_layer_start[0] = 0;
    m->node_layer_start[1] = (int32_t)(per_class[0] + per_class[1]);
    for (int l = 2; l <= MAX_LAYERS + 1; l++)
        m->node_layer_start[l] = m->node_layer_start[l - 1] + (int32_t)per_class[l];
    int32_t *local = nowner; /* slot -> local index, in place of the owners once they are copied */
    for (int64_t i = 0; i < nn; i++) {
        int64_t src = o[i].idx;
        m->node_gid[i] = ngid[src];
        if (i >= nown)
            m->ghost_node_owner[i - nown] = nowner[src];
        const double *x = cellset_node_xyz(own, ngid[src]);
        if (!x)
            x = cellset_node_xyz(ghosts, ngid[src]);
        memcpy(m->node_xyz + 3 * i, x, 3 * sizeof *x);
    }
    for (int64_t i = 0; i < nn; i++)
        local[o[i].idx] = (int32_t)i;
    free(o);
    free(ngid);
    for (int64_t i = 0; i < nc * nv; i++)
        m->cell_nodes[i] = local[m->cell_nodes[i]];
    free(local);
    idmap_free(&node_slot);
    free(w->cell_node_gid);
    w->cell_node_gid = NULL;
}

/* Node -> cells, each list in ascending cell gid. */
static void assemble_node_cells(struct mesh *m)
{
    const int nv = m->el->nnodes;
    const int64_t nc = m->ncells, nn = m->nnodes;
    checked_i32(nc * nv, "cell-node pairs");
    if (nc > MESH_MAX_LOCAL_CELLS)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "%lld local cells on rank %d: at most %d per rank (use more ranks)",
                    (long long)nc, m->rank, (int)MESH_MAX_LOCAL_CELLS);
    /* the corners (cell c, node k) = c nv + k sorted by node, then each corner becomes its cell */
    int64_t *off = xmalloc(((size_t)nn + 1) * sizeof *off);
    m->node_cells = xmalloc((size_t)(nc > 0 ? nc * nv : 1) * sizeof *m->node_cells);
    bucket_sort(m->cell_nodes, nc * nv, (int)nn, off, m->node_cells);
    for (int64_t j = 0; j < nc * nv; j++)
        m->node_cells[j] /= nv;
    m->node_cell_off = xmalloc(((size_t)nn + 1) * sizeof *m->node_cell_off);
    for (int64_t i = 0; i <= nn; i++)
        m->node_cell_off[i] = (int32_t)off[i];
    free(off);
    for (int64_t i = 0; i < nn; i++) { /* insertion sort: lists are short */
        int32_t *l = m->node_cells + m->node_cell_off[i];
        int32_t n = m->node_cell_off[i + 1] - m->node_cell_off[i];
        for (int32_t a = 1; a < n; a++)
            for (int32_t b = a; b > 0 && m->cell_gid[l[b - 1]] > m->cell_gid[l[b]]; b--) {
                int32_t t = l[b];
                l[b] = l[b - 1];
                l[b - 1] = t;
            }
    }
    for (int64_t i = 0; i < nn; i++) /* each entry with the node's (first) corner in its cell */
        for (int32_t j = m->node_cell_off[i]; j < m->node_cell_off[i + 1]; j++) {
            const int32_t *cn = m->cell_nodes + (size_t)m->node_cells[j] * nv;
            int k = 0;
            while (cn[k] != i)
                k++;
            m->node_cells[j] = m->node_cells[j] << NODE_CORNER_BITS | k;
        }

}

/* Key of face f of local cell c on local node indices (one to one with the global ids, so
 * two faces have equal keys here exactly when they have equal global keys). */
static void local_key(const struct mesh *m, int32_t c, int f, int64_t key[4])
{
    const int nv = m->el->nnodes;
    int64_t nodes[MAX_CELL_NODES];
    for (int k = 0; k < nv; k++)
        nodes[k] = m->cell_nodes[(size_t)c * nv + k];
    element_face_key(m->el, nodes, f, key);
}

/* Does local cell d hold every node of key (n entries)? */
static int holds_nodes(const struct mesh *m, int32_t d, const int64_t *key, int n)
{
    const int nv = m->el->nnodes;
    const int32_t *cn = m->cell_nodes + (size_t)d * nv;
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int k = 0; k < nv && !found; k++)
            found = cn[k] == key[i];
        if (!found)
            return 0;
    }
    return 1;
}

/* Does local cell c use a node twice (then two of its own faces may share a key)? */
static int repeats_node(const struct mesh *m, int32_t c)
{
    const int nv = m->el->nnodes;
    const int32_t *cn = m->cell_nodes + (size_t)c * nv;
    for (int i = 0; i < nv; i++)
        for (int k = i + 1; k < nv; k++)
            if (cn[i] == cn[k])
                return 1;
    return 0;
}

enum { FACE_SKIPPED = INT32_MIN,    /* a face shared by three cells or more: the mesh is refused */
       FACE_UNSET = INT32_MIN + 1,  /* not yet paired */
       FACE_PAIRED = INT32_MIN + 2 }; /* recorded from its other side, which holds this side's slot */

/* Face s of cell c, which no other local cell holds: on the boundary, or cut by the last ghost
 * layer (the node lists tell the cell beyond). Its global id (that of its cell of smaller gid)
 * into *gid; returns FACE_BOUNDARY or FACE_CUT. */
static int32_t lone_face(const struct mesh *m, const struct scratch *w, const struct nodelists *known,
                         const struct idmap *beyond_index, const struct cellset *beyond, int32_t c, int s, int64_t *gid)
{
    const struct element *el = m->el;
    const int nv = el->nnodes, nf = el->nfaces;
    int64_t gnodes[MAX_CELL_NODES], nb;
    int32_t nbo;
    for (int k = 0; k < nv; k++)
        gnodes[k] = m->node_gid[m->cell_nodes[(size_t)c * nv + k]];
    local_face_neighbour(el, gnodes, s, m->cell_gid[c], known, &nb, &nbo);
    if (nb >= 0 && w->cell_layer[c] != m->nlayers)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: face %d of cell %lld (layer %d) has its neighbour "
                    "%lld outside the ghost layers", s, (long long)m->cell_gid[c], w->cell_layer[c], (long long)nb);
    if (nb < 0 || nb > m->cell_gid[c]) {
        *gid = m->cell_gid[c] * nf + s;
    } else {
        int64_t gkey[4];
        element_face_key(el, gnodes, s, gkey);
        int64_t bi = idmap_get(beyond_index, nb);
        int fb = bi < 0 ? -1 : face_of(el, beyond->nodes + bi * nv, gkey);
        if (fb < 0)
            hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: cell %lld beyond the ghosts unknown",
                        (long long)nb);
        *gid = nb * nf + fb;
    }
    return nb >= 0 ? FACE_CUT : FACE_BOUNDARY;
}

/* The boundary faces with a tag (a face's tag is its first cell's entry), in face order. */
static void list_tagged_faces(struct mesh *m, const struct scratch *w)
{
    const int nf = m->el->nfaces;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        int32_t n = 0;
        for (int32_t i = 0; i < m->nfaces; i++) {
            if (m->face_cells[2 * (size_t)i + 1] != FACE_BOUNDARY)
                continue;
            int32_t tag = w->cell_face_tag[(size_t)m->face_cells[2 * (size_t)i] * nf + mesh_face_side(m, i, 0)];
            if (tag && pass) {
                m->tagged_face[n] = i;
                m->tagged_tag[n] = tag;
            }
            n += tag != 0;
        }
        if (!pass) {
            m->ntagged = n;
            m->tagged_face = xmalloc((size_t)(n ? n : 1) * sizeof *m->tagged_face);
            m->tagged_tag = xmalloc((size_t)(n ? n : 1) * sizeof *m->tagged_tag);
        }
    }
}

int32_t mesh_face_tag(const struct mesh *m, int32_t f)
{
    if (m->face_cells[2 * (size_t)f + 1] != FACE_BOUNDARY)
        return 0;
    int32_t lo = 0, hi = m->ntagged; /* the first listed face >= f */
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (m->tagged_face[mid] < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->ntagged && m->tagged_face[lo] == f ? m->tagged_tag[lo] : 0;
}

/* The recorded faces in (layer, global id) order become the mesh's faces. Every cell face is
 * the first side of one recorded face or the other side of one: each cell_faces slot is read
 * (first side) before it is written, or only written (other side). */
static void number_faces(struct mesh *m, const struct scratch *w, const struct key_idx *forder, int64_t nface)
{
    const int nf = m->el->nfaces;
    m->nfaces = checked_i32(nface, "faces");
    m->face_cells = xmalloc((size_t)(nface ? nface : 1) * 2 * sizeof *m->face_cells);
    for (int64_t i = 0; i < nface; i++) {
        int32_t a = (int32_t)(forder[i].idx / nf);
        int32_t other = m->cell_faces[forder[i].idx];
        int32_t b = other >= 0 ? other / nf : other, sb = other >= 0 ? other % nf : -1;
        m->face_cells[2 * i] = a;
        m->face_cells[2 * i + 1] = b;
        m->cell_faces[forder[i].idx] = (int32_t)i;
        if (b >= 0)
            m->cell_faces[(int64_t)b * nf + sb] = (int32_t)i;
    }
    list_tagged_faces(m, w);
}

/* The cells of a local cell c's face s, whose sorted node key is key, other than (c, s): the
 * last one in *d0, *t0; returns how many. A candidate is a cell around the key's smallest
 * node holding every node of the key; when neither it nor c repeats a node, its one face on
 * those nodes is that of its corners' mask (fmask: each face's corners), else each of its
 * faces' keys is compared. */
static int face_matches(const struct mesh *m, const uint8_t *repeats, const unsigned *fmask, int32_t c, int s,
                        const int64_t key[4], int32_t *d0, int *t0)
{
    const struct element *el = m->el;
    const int nv = el->nnodes, nf = el->nfaces, nfn = el->nface_nodes;
    int nmatch = 0;
    for (int32_t j = m->node_cell_off[key[0]]; j < m->node_cell_off[key[0] + 1]; j++) {
        int32_t d = mesh_nc_cell(m->node_cells[j]);
        if (d == c && !repeats[c])
            continue;
        if (!repeats[c] && !repeats[d]) {
            const int32_t *cn = m->cell_nodes + (size_t)d * nv;
            unsigned mask = 1u << mesh_nc_corner(m->node_cells[j]);
            for (int i = 1; i < nfn && mask; i++) {
                int k = 0;
                while (k < nv && cn[k] != key[i])
                    k++;
                mask = k < nv ? mask | 1u << k : 0;
            }
            for (int t = 0; mask && t < nf; t++)
                if (fmask[t] == mask) { /* a cell's faces have distinct corner sets: one at most */
                    nmatch++;
                    *d0 = d;
                    *t0 = t;
                    break;
                }
            continue;
        }
        if (!holds_nodes(m, d, key + 1, nfn - 1))
            continue;
        for (int t = 0; t < nf; t++) {
            int64_t k2[4];
            if (d == c && t == s)
                continue;
            local_key(m, d, t, k2);
            if (!memcmp(k2, key, sizeof k2)) {
                nmatch++;
                *d0 = d;
                *t0 = t;
            }
        }
    }
    return nmatch;
}

/* Faces: each face of a local cell is paired with the local cells around its smallest node
 * that hold the same face (node_cells, no sort of all face records); a lone face is on the
 * boundary or cut by the last ghost layer, which the node lists tell apart. The face is
 * recorded once, by its cell of smaller global id, as (layer, global id) to sort, when either
 * side is first met (the other side's slot is then marked and skipped; with a cell that repeats
 * a node, by that cell only, each side deciding alone); cell_faces holds the other side of each
 * recorded face until the faces are numbered. */
static void assemble_faces(struct mesh *m, struct scratch *w, const struct nodelists *known,
                           const struct cellset *beyond)
{
    const struct element *el = m->el;
    const int nf = el->nfaces, nfn = el->nface_nodes;
    const int64_t nc = m->ncells;
    checked_i32(nc * nf, "cell faces");
    struct idmap beyond_index;
    idmap_init(&beyond_index, (size_t)beyond->ncells);
    for (int64_t i = 0; i < beyond->ncells; i++)
        idmap_put(&beyond_index, beyond->gid[i], i);
    unsigned fmask[MAX_CELL_FACES] = {0};
    for (int t = 0; t < nf; t++)
        for (int i = 0; i < nfn; i++)
            fmask[t] |= 1u << el->face_nodes[t][i];
    uint8_t *repeats = xmalloc((size_t)(nc ? nc : 1));
    for (int32_t c = 0; c < (int32_t)nc; c++) {
        repeats[c] = (uint8_t)repeats_node(m, c);
        for (int s = 0; s < nf; s++)
            m->cell_faces[(size_t)c * nf + s] = FACE_UNSET;
    }
    int64_t nface = 0, cap = nc * nf / 2 + nc + 16; /* about half the cell faces, more on boundaries */
    struct key_idx *forder = xmalloc((size_t)cap * sizeof *forder);
    for (int32_t c = 0; c < (int32_t)nc; c++) {
        for (int s = 0; s < nf; s++) {
            int32_t *slot = m->cell_faces + (size_t)c * nf + s;
            if (*slot != FACE_UNSET) /* paired from its other side */
                continue;
            int64_t key[4];
            local_key(m, c, s, key);
            int32_t d0 = -1;
            int t0 = -1;
            int nmatch = face_matches(m, repeats, fmask, c, s, key, &d0, &t0);
            if (nmatch > 1) { /* reported by mesh_build for the whole mesh */
                if (m->cell_gid[c] < w->nonconforming)
                    w->nonconforming = m->cell_gid[c];
                *slot = FACE_SKIPPED;
                continue;
            }
            int64_t gid, at = (int64_t)c * nf + s;
            int lay = w->cell_layer[c];
            if (nmatch == 1) {
                int64_t other = (int64_t)d0 * nf + t0;
                const int theirs = m->cell_gid[d0] < m->cell_gid[c] || (d0 == c && t0 < s);
                if (repeats[c] || repeats[d0]) { /* a repeated node is counted once per corner: */
                    if (theirs)                  /* the other side may count otherwise, it decides alone */
                        continue;
                } else {
                    if (theirs) { /* recorded here for the other side, whose count is the same */
                        int64_t t = at;
                        at = other;
                        other = t;
                    }
                    m->cell_faces[other] = FACE_PAIRED;
                }
                gid = m->cell_gid[at / nf] * nf + at % nf;
                lay = w->cell_layer[d0] < lay ? w->cell_layer[d0] : lay;
                m->cell_faces[at] = (int32_t)other;
            } else {
                *slot = lone_face(m, w, known, &beyond_index, beyond, c, s, &gid);
            }
            if (nface == cap) {
                cap = cap + cap / 2;
                forder = xrealloc(forder, (size_t)cap * sizeof *forder);
            }
            forder[nface++] = (struct key_idx){((int64_t)lay << 59) | gid, at};
        }
    }
    free(repeats);
    idmap_free(&beyond_index);
    key_idx_sort(forder, nface);
    number_faces(m, w, forder, nface);
    free(forder);
}

struct mesh *mesh_assemble(int me, struct cellset *own, struct cellset *ghosts, const int64_t *layer_end,
                           int nlayers, struct idmap *ghost_owner, const struct nodelists *known,
                           const struct cellset *beyond, long long *nonconforming)
{
    struct mesh *m = xcalloc(1, sizeof *m);
    m->el = own->el;
    m->nlayers = nlayers;
    m->rank = me;
    struct scratch w = {.nonconforming = LLONG_MAX};
    assemble_cells(m, &w, own, ghosts, layer_end, ghost_owner);
    idmap_free(ghost_owner);
    assemble_nodes(m, &w, own, ghosts, known);
    /* the set-up's peak: what the faces need must not sit beside what the nodes needed */
    cellset_free(own);
    cellset_free(ghosts);
    assemble_node_cells(m);
    assemble_faces(m, &w, known, beyond);
    free(w.cell_layer);
    free(w.cell_face_tag);
    *nonconforming = w.nonconforming;
    return m;
}

void mesh_destroy(struct mesh *m)
{
    if (!m)
        return;
    free(m->cell_gid);
    free(m->ghost_cell_owner);
    free(m->cell_nodes);
    free(m->cell_faces);
    free(m->node_gid);
    free(m->ghost_node_owner);
    free(m->node_xyz);
    free(m->node_cell_off);
    free(m->node_cells);
    free(m->face_cells);
    free(m->tagged_face);
    free(m->tagged_tag);
    free(m);
}

static int32_t bsearch_gid(const int64_t *gid, int32_t n, int64_t key)
{
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (gid[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && gid[lo] == key ? lo : -1;
}

int32_t mesh_owned_cell(const struct mesh *m, int64_t gid) { return bsearch_gid(m->cell_gid, m->ncells_owned, gid); }
int32_t mesh_owned_node(const struct mesh *m, int64_t gid) { return bsearch_gid(m->node_gid, m->nnodes_owned, gid); }
