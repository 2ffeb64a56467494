/* Ghost layers: a distributed node directory finds the cells around each node, layer by layer. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "ghost.h"
#include "gidblocks.h"
#include "mesh_local.h"

static void nodelists_init(struct nodelists *l)
{
    memset(l, 0, sizeof *l);
    idmap_init(&l->index, 1024);
}

static void nodelists_free(struct nodelists *l)
{
    idmap_free(&l->index);
    free(l->start);
    free(l->count);
    free(l->cell);
    free(l->owner);
}

/* Read "node, count, (cell, owner) x count" records until the message ends. */
static void nodelists_read(struct nodelists *l, struct buf *b)
{
    while (!buf_done(b)) {
        int64_t node = buf_get_i64(b), n = buf_get_i64(b);
        int fresh = idmap_put(&l->index, node, l->nslots);
        if (fresh) {
            if (l->nslots == l->cap_slots) {
                l->cap_slots = l->cap_slots ? 2 * l->cap_slots : 1024;
                l->start = xrealloc(l->start, (size_t)l->cap_slots * sizeof *l->start);
                l->count = xrealloc(l->count, (size_t)l->cap_slots * sizeof *l->count);
            }
            l->start[l->nslots] = l->nent;
            l->count[l->nslots] = (int32_t)n;
            l->nslots++;
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t cell = buf_get_i64(b), owner = buf_get_i64(b);
            if (!fresh)
                continue;
            if (l->nent == l->cap_ent) {
                l->cap_ent = l->cap_ent ? 2 * l->cap_ent : 4096;
                l->cell = xrealloc(l->cell, (size_t)l->cap_ent * sizeof *l->cell);
                l->owner = xrealloc(l->owner, (size_t)l->cap_ent * sizeof *l->owner);
            }
            l->cell[l->nent] = cell;
            l->owner[l->nent] = (int32_t)owner;
            l->nent++;
        }
    }
}

/* The directory: every (node, cell, owner) triple of the mesh, held by the rank whose range of
 * node ids holds the node. Ranges rather than node % P: the nodes of a compact subdomain have
 * few distinct ranges, so each rank talks to a few homes instead of all P (the set-up's
 * messages grew as P^2 otherwise, which is what limited simulated runs to a few hundred ranks).
 * Each rank's range is in proportion to the cells it owns: with equal ranges a rank left with
 * few cells or none (a slow one, by the load balancer's measured speeds) still homed 1/P of the
 * mesh's triples, which kept the rebuild after a rebalance slow on it (BENCHMARKS.md).
 * Held as a list per node (CSR, 12 bytes per triple) rather than as one sorted array of
 * triples, which took twice that plus as much again to sort: the set-up's largest array. */
struct directory {
    int nranks;
    int64_t *first; /* [nranks + 1]: rank r homes the node ids [first[r], first[r + 1]) */
    int64_t nnodes; /* distinct nodes homed here */
    int64_t *node;  /* [nnodes] ascending */
    int64_t *start; /* [nnodes + 1]: the cells of node[i] are [start[i], start[i + 1]) */
    int64_t *cell;  /* cells around each node, ascending */
    int32_t *owner; /* their owners */
    int64_t base;   /* the first node id homed here: node ids are dense (every reader and the
                     * generator number the nodes 0 .. N-1), so a node's entry is found by its
                     * offset from base, without a hash map */
    int64_t size;   /* node ids homed here */
    int64_t *at;    /* [size] node - base -> its index in node, -1 when absent (counts during the
                     * first pass) */
};

static int home(const struct directory *d, int64_t node) { return id_ranges_find(d->first, d->nranks, node); }

/* The (node, cell) pairs homed here: own's (owner me) and those of the messages (owner: the
 * source). Pass 0 finds the nodes and counts their cells, pass 1 files the cells. */
static void directory_pass(struct directory *d, int pass, int me, const struct cellset *own, struct inbox *in,
                           int64_t *fill)
{
    const int nv = own->el->nnodes;
    for (int i = -1; i < in->n; i++) {
        struct buf *b = i < 0 ? NULL : &in->msg[i];
        int64_t k = 0, n = b ? (int64_t)(b->len / (2 * sizeof(int64_t))) : own->ncells * nv;
        if (b)
            b->pos = 0;
        for (; k < n; k++) {
            int64_t node, cell;
            int32_t owner;
            if (b) {
                node = buf_get_i64(b);
                cell = buf_get_i64(b);
                owner = in->src[i];
            } else {
                node = own->nodes[k];
                if (home(d, node) != me)
                    continue;
                cell = own->gid[k / nv];
                owner = me;
            }
            if (pass == 0) {
                d->at[node - d->base]++; /* counts, for now */
            } else {
                int64_t e = fill[d->at[node - d->base]]++;
                d->cell[e] = cell;
                d->owner[e] = owner;
            }
        }
    }
}

static void directory_build(MPI_Comm comm, const struct cellset *own, struct directory *d)
{
    int P = comm_size(comm), me = comm_rank(comm), nv = own->el->nnodes;
    memset(d, 0, sizeof *d);
    long long top = -1;
    for (int64_t i = 0; i < own->ncells * nv; i++)
        top = own->nodes[i] > top ? own->nodes[i] : top;
    top = comm_max_ll(comm, top);
    long long refs = comm_sum_ll(comm, (long long)own->ncells * nv);
    if (top >= 4 * refs + 1024) /* dense ids: never more ids than cell corners */
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: node ids up to %lld for %lld cell corners: not a dense "
                    "numbering", top, refs);
    d->nranks = P;
    long long *cells = xmalloc((size_t)P * sizeof *cells); /* the ranges follow the owned cells */
    comm_allgather_ll(comm, (long long)own->ncells, cells);
    d->first = xmalloc(((size_t)P + 1) * sizeof *d->first);
    id_ranges_by_weight(cells, P, top + 1, d->first);
    free(cells);
    /* pairs for other homes: counted first so that each message is allocated once, exactly */
    int64_t *per_home = xcalloc((size_t)P, sizeof *per_home);
    for (int64_t i = 0; i < own->ncells * nv; i++)
        per_home[home(d, own->nodes[i])]++;
    struct outbox out;
    outbox_init(&out, comm);
    for (int r = 0; r < P; r++)
        if (r != me && per_home[r]) {
            out.to[r].cap = (size_t)per_home[r] * 2 * sizeof(int64_t);
            out.to[r].data = xmalloc(out.to[r].cap);
        }
    free(per_home);
    for (int64_t c = 0; c < own->ncells; c++)
        for (int k = 0; k < nv; k++) {
            int64_t node = own->nodes[c * nv + k];
            const int h = home(d, node);
            if (h == me)
                continue; /* filed directly from own */
            struct buf *b = &out.to[h];
            buf_put_i64(b, node);
            buf_put_i64(b, own->gid[c]);
        }
    struct inbox in;
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    d->base = d->first[me];
    d->size = d->first[me + 1] - d->first[me];
    d->at = xcalloc((size_t)(d->size ? d->size : 1), sizeof *d->at);
    directory_pass(d, 0, me, own, &in, NULL);
    /* nodes in ascending order (the offsets' order), their lists one after the other */
    int64_t nn = 0;
    for (int64_t i = 0; i < d->size; i++)
        nn += d->at[i] > 0;
    d->nnodes = nn;
    d->node = xmalloc((size_t)(nn ? nn : 1) * sizeof *d->node);
    d->start = xmalloc((size_t)(nn + 1) * sizeof *d->start);
    int64_t *fill = xmalloc((size_t)(nn ? nn : 1) * sizeof *fill);
    d->start[0] = 0;
    for (int64_t i = 0, k = 0; i < d->size; i++) {
        if (d->at[i] == 0) {
            d->at[i] = -1;
            continue;
        }
        d->node[k] = d->base + i;
        d->start[k + 1] = d->start[k] + d->at[i]; /* at holds the counts */
        fill[k] = d->start[k];
        d->at[i] = k++;
    }
    d->cell = xmalloc((size_t)(d->start[nn] ? d->start[nn] : 1) * sizeof *d->cell);
    d->owner = xmalloc((size_t)(d->start[nn] ? d->start[nn] : 1) * sizeof *d->owner);
    directory_pass(d, 1, me, own, &in, fill);
    free(fill);
    inbox_free(&in);
    for (int64_t i = 0; i < nn; i++) /* each list by cell (insertion sort: lists are short) */
        for (int64_t a = d->start[i] + 1; a < d->start[i + 1]; a++)
            for (int64_t b = a; b > d->start[i] && d->cell[b - 1] > d->cell[b]; b--) {
                int64_t tc = d->cell[b];
                int32_t to = d->owner[b];
                d->cell[b] = d->cell[b - 1];
                d->owner[b] = d->owner[b - 1];
                d->cell[b - 1] = tc;
                d->owner[b - 1] = to;
            }
}

static void directory_free(struct directory *d)
{
    free(d->first);
    free(d->node);
    free(d->start);
    free(d->cell);
    free(d->owner);
    free(d->at);
    memset(d, 0, sizeof *d);
}

/* Index of node in the directory (fatal when it is not homed here). */
static int64_t dir_index(const struct directory *d, int64_t node)
{
    int64_t i = node - d->base;
    if (i < 0 || i >= d->size || d->at[i] < 0)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: node %lld unknown to its directory",
                    (long long)node);
    return d->at[i];
}

static void put_list(const struct directory *d, int64_t i, struct buf *b)
{
    buf_put_i64(b, d->node[i]);
    buf_put_i64(b, d->start[i + 1] - d->start[i]);
    for (int64_t k = d->start[i]; k < d->start[i + 1]; k++) {
        buf_put_i64(b, d->cell[k]);
        buf_put_i64(b, d->owner[k]);
    }
}

/* Push the list of every node shared by several ranks to each of those ranks. */
static void directory_push_shared(MPI_Comm comm, const struct directory *d, struct nodelists *known)
{
    struct outbox out;
    outbox_init(&out, comm);
    for (int64_t n = 0; n < d->nnodes; n++) {
        const int64_t i = d->start[n], j = d->start[n + 1];
        int shared = 0;
        for (int64_t k = i; k < j; k++)
            shared |= d->owner[k] != d->owner[i];
        if (!shared)
            continue;
        for (int64_t k = i; k < j; k++) { /* once to each distinct owner */
            int seen = 0;
            for (int64_t q = i; q < k; q++)
                seen |= d->owner[q] == d->owner[k];
            if (!seen)
                put_list(d, n, &out.to[d->owner[k]]);
        }
    }
    struct inbox in;
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    for (int i = 0; i < in.n; i++)
        nodelists_read(known, &in.msg[i]);
    inbox_free(&in);
}

/* Ask the directory for the lists of nodes[0..n-1]. */
static void directory_query(MPI_Comm comm, const struct directory *d, const int64_t *nodes, int64_t n,
                            struct nodelists *known)
{
    struct outbox out;
    outbox_init(&out, comm);
    for (int64_t i = 0; i < n; i++)
        buf_put_i64(&out.to[home(d, nodes[i])], nodes[i]);
    struct inbox in;
    comm_exchange(comm, &out, &in);
    for (int i = 0; i < in.n; i++)
        while (!buf_done(&in.msg[i]))
            put_list(d, dir_index(d, buf_get_i64(&in.msg[i])), &out.to[in.src[i]]);
    inbox_free(&in);
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    for (int i = 0; i < in.n; i++)
        nodelists_read(known, &in.msg[i]);
    inbox_free(&in);
}

/* Fetch cells (gids[i] owned by owners[i]) with their nodes from their owners into dst. */
static void fetch_cells(MPI_Comm comm, const struct cellset *own, const struct idmap *own_index,
                        const int64_t *gids, const int32_t *owners, int64_t n, struct cellset *dst)
{
    struct outbox out;
    outbox_init(&out, comm);
    for (int64_t i = 0; i < n; i++)
        buf_put_i64(&out.to[owners[i]], gids[i]);
    struct inbox in;
    comm_exchange(comm, &out, &in);
    for (int i = 0; i < in.n; i++) {
        int64_t cnt = (int64_t)(in.msg[i].len / sizeof(int64_t));
        int32_t *idx = xmalloc((size_t)(cnt ? cnt : 1) * sizeof *idx);
        for (int64_t k = 0; k < cnt; k++) {
            int64_t g = buf_get_i64(&in.msg[i]);
            idx[k] = (int32_t)idmap_get(own_index, g);
            if (idx[k] < 0)
                hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: rank %d asked for cell %lld, not owned here",
                            in.src[i], (long long)g);
        }
        cellset_pack(own, idx, cnt, &out.to[in.src[i]]);
        free(idx);
    }
    inbox_free(&in);
    comm_exchange(comm, &out, &in);
    outbox_free(&out);
    for (int i = 0; i < in.n; i++)
        cellset_unpack(dst, &in.msg[i]);
    inbox_free(&in);
}

/* Growable list of (gid, owner). */
struct cell_list {
    int64_t n, cap;
    int64_t *gid;
    int32_t *owner;
};

static void cell_list_add(struct cell_list *l, int64_t gid, int32_t owner)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->gid = xrealloc(l->gid, (size_t)l->cap * sizeof *l->gid);
        l->owner = xrealloc(l->owner, (size_t)l->cap * sizeof *l->owner);
    }
    l->gid[l->n] = gid;
    l->owner[l->n++] = owner;
}

static void cell_list_free(struct cell_list *l)
{
    free(l->gid);
    free(l->owner);
    memset(l, 0, sizeof *l);
}

/* Cells of known lists around the nodes of cells [first, last) of set: every cell not owned
 * here and not yet a ghost is found (the next layer). */
static void next_layer(const struct cellset *set, int64_t first, int64_t last, const struct nodelists *known,
                       int me, struct idmap *ghost_owner, struct cell_list *found)
{
    int nv = set->el->nnodes;
    for (int64_t c = first; c < last; c++)
        for (int k = 0; k < nv; k++) {
            int64_t s = idmap_get(&known->index, set->nodes[c * nv + k]);
            if (s < 0)
                continue; /* a node all of whose cells are owned here */
            for (int64_t e = known->start[s]; e < known->start[s] + known->count[s]; e++)
                if (known->owner[e] != me && idmap_put(ghost_owner, known->cell[e], known->owner[e]))
                    cell_list_add(found, known->cell[e], known->owner[e]);
        }
}

/* Nodes of cells [first, last) of set whose lists are not known yet (and not interior). */
static int64_t unknown_nodes(const struct cellset *set, int64_t first, int64_t last, const struct cellset *own,
                             const struct nodelists *known, int64_t **out)
{
    int nv = set->el->nnodes;
    struct idmap seen;
    idmap_init(&seen, 1024);
    int64_t n = 0, cap = 1024;
    int64_t *list = xmalloc((size_t)cap * sizeof *list);
    for (int64_t c = first; c < last; c++)
        for (int k = 0; k < nv; k++) {
            int64_t node = set->nodes[c * nv + k];
            if (idmap_get(&known->index, node) >= 0 || cellset_node_xyz(own, node))
                continue;
            if (!idmap_put(&seen, node, 0))
                continue;
            if (n == cap) {
                cap *= 2;
                list = xrealloc(list, (size_t)cap * sizeof *list);
            }
            list[n++] = node;
        }
    idmap_free(&seen);
    *out = list;
    return n;
}

/* Collective: the smallest global id of a cell with a non-positive corner Jacobian (LLONG_MAX:
 * none), the same for any partition. */
static long long first_inverted(MPI_Comm comm, const struct cellset *own)
{
    const struct element *el = own->el;
    long long bad = LLONG_MAX;
    for (int64_t c = 0; c < own->ncells; c++) {
        double x[MAX_CELL_NODES][3];
        for (int k = 0; k < el->nnodes; k++)
            memcpy(x[k], cellset_node_xyz(own, own->nodes[c * el->nnodes + k]), sizeof x[k]);
        if (own->gid[c] < bad && element_corner_quality(el, (const double(*)[3])x) <= 0)
            bad = own->gid[c];
    }
    return comm_min_ll(comm, bad);
}

/* Cells beyond the last layer that share a face with it and have a smaller gid: their element
 * numbering names the face (face global id). Collective. */
static void fetch_beyond(MPI_Comm comm, const struct cellset *own, const struct idmap *own_index,
                         const struct cellset *ghosts, int64_t first, const struct nodelists *known,
                         const struct idmap *ghost_owner, struct cellset *beyond)
{
    const struct element *el = own->el;
    struct idmap asked;
    idmap_init(&asked, 256);
    struct cell_list far = {0};
    for (int64_t c = first; c < ghosts->ncells; c++) {
        int64_t gid = ghosts->gid[c];
        for (int f = 0; f < el->nfaces; f++) {
            int64_t nb = -1;
            int32_t nbo = -1;
            local_face_neighbour(el, ghosts->nodes + c * el->nnodes, f, gid, known, &nb, &nbo);
            if (nb >= 0 && nb < gid && idmap_get(own_index, nb) < 0 && idmap_get(ghost_owner, nb) < 0 &&
                idmap_put(&asked, nb, 0))
                cell_list_add(&far, nb, nbo);
        }
    }
    fetch_cells(comm, own, own_index, far.gid, far.owner, far.n, beyond);
    cell_list_free(&far);
    idmap_free(&asked);
}

struct mesh *mesh_build(MPI_Comm comm, struct cellset *own, int nlayers, int check_cells, char *err, size_t errlen)
{
    const int me = comm_rank(comm);
    const struct element *el = own->el;
    err[0] = '\0';

    /* every cell must be valid before anything relies on its geometry */
    long long bad = check_cells ? first_inverted(comm, own) : LLONG_MAX;
    if (bad != LLONG_MAX) {
        if (me == 0)
            snprintf(err, errlen, "cell %lld is inverted or degenerate (a corner Jacobian is not positive)", bad);
        return NULL;
    }

    cellset_sort(own);
    struct idmap own_index;
    idmap_init(&own_index, (size_t)own->ncells);
    for (int64_t c = 0; c < own->ncells; c++)
        idmap_put(&own_index, own->gid[c], c);

    struct directory dir;
    directory_build(comm, own, &dir);
    struct nodelists known;
    nodelists_init(&known);
    directory_push_shared(comm, &dir, &known);

    struct idmap ghost_owner; /* ghost gid -> owner rank */
    idmap_init(&ghost_owner, 1024);
    struct cellset ghosts; /* ghost cells, layer after layer */
    cellset_init(&ghosts, el->dim);
    int64_t layer_end[MAX_LAYERS + 2] = {0};
    struct cell_list wanted = {0};
    next_layer(own, 0, own->ncells, &known, me, &ghost_owner, &wanted);
    for (int layer = 1; layer <= nlayers; layer++) {
        int64_t first = ghosts.ncells;
        fetch_cells(comm, own, &own_index, wanted.gid, wanted.owner, wanted.n, &ghosts);
        layer_end[layer] = ghosts.ncells;
        cell_list_free(&wanted);
        int64_t *query;
        int64_t nq = unknown_nodes(&ghosts, first, ghosts.ncells, own, &known, &query);
        directory_query(comm, &dir, query, nq, &known);
        free(query);
        if (layer < nlayers)
            next_layer(&ghosts, first, ghosts.ncells, &known, me, &ghost_owner, &wanted);
    }
    directory_free(&dir); /* the largest set-up array: gone before the mesh is assembled */

    struct cellset beyond;
    cellset_init(&beyond, el->dim);
    fetch_beyond(comm, own, &own_index, &ghosts, layer_end[nlayers - 1], &known, &ghost_owner, &beyond);
    idmap_free(&own_index);

    long long nonconforming;
    struct mesh *m = mesh_assemble(me, own, &ghosts, layer_end, nlayers, &ghost_owner, &known, &beyond,
                                   &nonconforming);
    nonconforming = comm_min_ll(comm, nonconforming);
    if (nonconforming != LLONG_MAX) {
        if (me == 0)
            snprintf(err, errlen, "cell %lld shares a face with two other cells or more (non-conforming mesh)",
                     nonconforming);
        mesh_destroy(m);
        m = NULL;
    }
    if (m) {
        m->global_ncells = comm_sum_ll(comm, m->ncells_owned);
        m->global_nnodes = comm_sum_ll(comm, m->nnodes_owned);
    }
    cellset_free(&beyond);
    nodelists_free(&known);
    return m;
}

static int list_has(const struct nodelists *known, int64_t s, int64_t cell)
{
    for (int64_t e = known->start[s]; e < known->start[s] + known->count[s]; e++)
        if (known->cell[e] == cell)
            return 1;
    return 0;
}

void local_face_neighbour(const struct element *el, const int64_t *nodes, int f, int64_t gid,
                          const struct nodelists *known, int64_t *nb, int32_t *owner)
{
    *nb = -1;
    *owner = -1;
    int64_t slot[MAX_FACE_NODES];
    for (int i = 0; i < el->nface_nodes; i++) {
        slot[i] = idmap_get(&known->index, nodes[el->face_nodes[f][i]]);
        if (slot[i] < 0)
            return; /* a node whose cells are all owned by one rank: no cell beyond */
    }
    for (int64_t e = known->start[slot[0]]; e < known->start[slot[0]] + known->count[slot[0]]; e++) {
        if (known->cell[e] == gid)
            continue;
        int all = 1;
        for (int i = 1; i < el->nface_nodes && all; i++)
            all = list_has(known, slot[i], known->cell[e]);
        if (all) {
            *nb = known->cell[e];
            *owner = known->owner[e];
            return;
        }
    }
}
