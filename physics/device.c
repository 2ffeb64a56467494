/* The hydro scheme's arrays on the accelerator (see device.h). */
#include "device.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "cycle.h"
#include "par.h"

#ifdef HYDRO_OFFLOAD

int device_built(void) { return 1; }

/* GCC 12 warns of variables used only in the clauses of a standalone directive (enter data, exit
 * data, update): USED marks them. */
#define USED(x) (void)(x)

/* What an array holds per item of its mesh: cells, nodes, nodes + 1 (offsets), corners (cells x
 * nodes per cell), cell faces, faces, node-cell pairs. */
enum per { PER_CELL, PER_NODE, PER_NODE_1, PER_CORNER, PER_CELL_FACE, PER_FACE, PER_NODE_CELL };

/* A pointer member of a structure: its array holds width elements of size bytes per item. */
struct member {
    size_t off;
    enum per per;
    int width;
    size_t size;
};

/* The fields' arrays; the materials' store (f->ms) stays on the host. */
static const struct member field_members[] = {
    {offsetof(struct hydro_fields, rho), PER_CELL, 1, sizeof(double)},
    {offsetof(struct hydro_fields, e), PER_CELL, 1, sizeof(double)},
    {offsetof(struct hydro_fields, p), PER_CELL, 1, sizeof(double)},
    {offsetof(struct hydro_fields, c), PER_CELL, 1, sizeof(double)},
    {offsetof(struct hydro_fields, q), PER_CELL, 1, sizeof(double)},
    {offsetof(struct hydro_fields, vol), PER_CELL, 1, sizeof(double)},
    {offsetof(struct hydro_fields, mass), PER_CELL, 1, sizeof(double)},
    {offsetof(struct hydro_fields, len), PER_CELL, 1, sizeof(double)},
    {offsetof(struct hydro_fields, x), PER_NODE, 3, sizeof(double)},
    {offsetof(struct hydro_fields, v), PER_NODE, 3, sizeof(double)},
    {offsetof(struct hydro_fields, nmass), PER_NODE, 1, sizeof(double)},
    {offsetof(struct hydro_fields, force), PER_NODE, 3, sizeof(double)},
    {offsetof(struct hydro_fields, x_init), PER_NODE, 3, sizeof(double)},
    {offsetof(struct hydro_fields, corner), PER_CORNER, 3, sizeof(double)},
};

/* The remap's work arrays: in the arena (slopes, new velocities, swept faces' signs) or on their
 * own (the flags of what moves); its values (phi) below; the materials' slopes stay on the host. */
static const struct member work_members[] = {
    {offsetof(struct remap_work, moved), PER_NODE, 1, 1},
    {offsetof(struct remap_work, node_near), PER_NODE, 1, 1},
    {offsetof(struct remap_work, cell_moves), PER_CELL, 1, 1},
    {offsetof(struct remap_work, cell_near), PER_CELL, 1, 1},
    {offsetof(struct remap_work, upwind), PER_CELL, 1, 1},
    {offsetof(struct remap_work, swept), PER_FACE, 1, 1},
    {offsetof(struct remap_work, unew), PER_CELL, 3, sizeof(double)},
    {offsetof(struct remap_work, knew), PER_CELL, 1, sizeof(double)},
    {offsetof(struct remap_work, grad), PER_CELL, REMAP_NPHI * 3, sizeof(double)},
};

/* The mesh's connectivity the kernels read; its other arrays (global ids, owners, tags) are
 * NULL on the accelerator. */
static const struct member mesh_members[] = {
    {offsetof(struct mesh, cell_nodes), PER_CORNER, 1, sizeof(int32_t)},
    {offsetof(struct mesh, cell_faces), PER_CELL_FACE, 1, sizeof(int32_t)},
    {offsetof(struct mesh, node_xyz), PER_NODE, 3, sizeof(double)},
    {offsetof(struct mesh, node_cell_off), PER_NODE_1, 1, sizeof(int32_t)},
    {offsetof(struct mesh, node_cells), PER_NODE_CELL, 1, sizeof(int32_t)},
    {offsetof(struct mesh, face_cells), PER_FACE, 2, sizeof(int32_t)},
};

/* The blocks at most: the arena, each field's, each remap array's and phi, the element, each mesh
 * array's, the walls' three and the remap's three item lists (some share one: the positions are
 * the mesh's coordinates). */
_Static_assert(1 + sizeof field_members / sizeof *field_members + sizeof work_members / sizeof *work_members + 1 +
                       1 + sizeof mesh_members / sizeof *mesh_members + 3 + 3 <=
                   DEVICE_BLOCKS_MAX,
               "device_copy holds too few blocks");

static size_t items(const struct mesh *m, enum per per)
{
    switch (per) {
    case PER_CELL:
        return (size_t)m->ncells;
    case PER_NODE:
        return (size_t)m->nnodes;
    case PER_NODE_1:
        return (size_t)m->nnodes + 1;
    case PER_CORNER:
        return (size_t)m->ncells * (size_t)m->el->nnodes;
    case PER_CELL_FACE:
        return (size_t)m->ncells * (size_t)m->el->nfaces;
    case PER_FACE:
        return (size_t)m->nfaces;
    case PER_NODE_CELL:
        return (size_t)m->node_cell_off[m->nnodes];
    }
    return 0;
}

/* The copy of host array p (bytes long): inside a block copied already (the positions are the
 * mesh's coordinates, the corner vectors lie in the arena), or a new block of that kind. NULL for
 * no array. */
static void *copy_of(struct device_copy *d, void *p, size_t bytes, enum device_kind kind)
{
    if (!p || !bytes)
        return NULL;
    for (int i = 0; i < d->nblocks; i++) {
        const struct device_block *b = &d->block[i];
        const char *lo = b->host;
        if ((const char *)p >= lo && (const char *)p + bytes <= lo + b->bytes)
            return (char *)b->dev + ((const char *)p - lo);
    }
    if (d->nblocks == DEVICE_BLOCKS_MAX) /* the tables above hold fewer arrays */
        return NULL;
    char *h = p;
    void *dev = NULL;
    PAR_PRAGMA(omp target enter data map(to : h[0:bytes]) device(d->device))
    PAR_PRAGMA(omp target data use_device_ptr(h) device(d->device))
    dev = h;
    d->block[d->nblocks++] = (struct device_block){p, dev, bytes, kind};
    return dev;
}

/* In the accelerator's structure `shadow`, each member of mem[n] of the host's `host` becomes its
 * array's copy. */
static void copy_members(struct device_copy *d, void *shadow, const void *host, const struct mesh *m,
                         const struct member *mem, int n, enum device_kind kind)
{
    for (int i = 0; i < n; i++) {
        void *p, *dev;
        memcpy(&p, (const char *)host + mem[i].off, sizeof p);
        dev = copy_of(d, p, items(m, mem[i].per) * (size_t)mem[i].width * mem[i].size, kind);
        memcpy((char *)shadow + mem[i].off, &dev, sizeof dev);
    }
}

static void drop_block(struct device_copy *d, int i)
{
    char *h = d->block[i].host;
    USED(h);
    PAR_PRAGMA(omp target exit data map(delete : h[0:d->block[i].bytes]) device(d->device))
    d->block[i] = d->block[--d->nblocks];
}

static void walls_copy(struct device_copy *d, const struct walls *w)
{
    const size_t nn = (size_t)w->nnodes;
    d->walls = *w;
    d->walls.off = copy_of(d, w->off, nn + 1, BLOCK_WALLS);
    d->walls.base = copy_of(d, w->base, (nn / WALLS_BLOCK + 1) * sizeof *w->base, BLOCK_WALLS);
    d->walls.dir = copy_of(d, w->dir, 3 * (size_t)walls_first(w, w->nnodes) * sizeof *w->dir, BLOCK_WALLS);
}

/* The mesh's scalars, its arrays those of mesh_members (the others NULL). */
static void mesh_copy(struct device_copy *d, const struct mesh *m)
{
    memset(&d->m, 0, sizeof d->m);
    d->m.el = copy_of(d, (void *)m->el, sizeof *m->el, BLOCK_MESH);
    d->m.nlayers = m->nlayers;
    d->m.rank = m->rank;
    d->m.global_ncells = m->global_ncells;
    d->m.global_nnodes = m->global_nnodes;
    d->m.ntagged = m->ntagged;
    d->m.ncells = m->ncells;
    d->m.ncells_owned = m->ncells_owned;
    d->m.nnodes = m->nnodes;
    d->m.nnodes_owned = m->nnodes_owned;
    d->m.nfaces = m->nfaces;
    memcpy(d->m.cell_layer_start, m->cell_layer_start, sizeof m->cell_layer_start);
    memcpy(d->m.node_layer_start, m->node_layer_start, sizeof m->node_layer_start);
    copy_members(d, &d->m, m, m, mesh_members, (int)(sizeof mesh_members / sizeof *mesh_members), BLOCK_MESH);
}

/* The remap's work: its scalars, its arrays those of work_members and its values (nphi - 1
 * columns per cell). */
static void work_copy(struct device_copy *d, const struct remap_work *w, const struct mesh *m)
{
    memset(&d->rw, 0, sizeof d->rw); /* the arrays not copied stay NULL (the materials' slopes) */
    d->rw.ncells = w->ncells;
    d->rw.nfaces = w->nfaces;
    d->rw.nmat = w->nmat;
    d->rw.nphi = w->nphi;
    d->rw.sweep = w->sweep;
    d->rw.nmoved = w->nmoved;
    copy_members(d, &d->rw, w, m, work_members, (int)(sizeof work_members / sizeof *work_members), BLOCK_SCRATCH);
    d->rw.phi = copy_of(d, w->phi, items(m, PER_CELL) * (size_t)(w->nphi - 1) * sizeof *w->phi, BLOCK_SCRATCH);
}

/* The structures the kernels get, with the parameters, onto the accelerator (enter) or off it. */
static void shadows(struct device_copy *d, int enter)
{
    struct mesh *dm = &d->m;
    struct hydro_fields *df = &d->f;
    struct walls *dw = &d->walls;
    struct remap_work *dr = &d->rw;
    const struct hydro_params *hp = d->hp;
    USED(dm), USED(df), USED(dw), USED(dr), USED(hp);
    if (enter) {
        PAR_PRAGMA(omp target enter data map(to : dm[0:1], df[0:1], dw[0:1], dr[0:1], hp[0:1]) device(d->device))
    } else {
        PAR_PRAGMA(omp target exit data map(delete : dm[0:1], df[0:1], dw[0:1], dr[0:1], hp[0:1]) device(d->device))
    }
}

void device_attach(struct device_copy *d, const struct hydro *h)
{
    const double to = d->bytes_to, from = d->bytes_from; /* over the run, whatever its meshes */
    memset(d, 0, sizeof *d);
    d->bytes_to = to;
    d->bytes_from = from;
    if (omp_get_num_devices() < 1)
        return;
    d->on = 1;
    d->device = h->m->rank % omp_get_num_devices(); /* ranks spread over a node's devices */
    omp_set_default_device(d->device); /* the kernels' (DEVICE_PRESENT) */
    d->hp = &h->hp;
    /* the fields first, so that the positions' block (the mesh's coordinates) is a field's */
    copy_of(d, h->arena, h->narena * sizeof *h->arena, BLOCK_SCRATCH);
    memset(&d->f, 0, sizeof d->f); /* every member an array: those not copied stay NULL (the materials' store) */
    copy_members(d, &d->f, &h->f, h->m, field_members, (int)(sizeof field_members / sizeof *field_members),
                 BLOCK_FIELDS);
    if (h->hp.remap)
        work_copy(d, &h->rw, h->m);
    /* the remap kernels' item lists with the overlap (inner items, then outer ones): a kernel given
     * the host's list (a pointer, not a structure's member) reads the copy mapped to it */
    const struct item_split *hs[3] = {&h->values_split, &h->nodes_split, &h->finish_split};
    for (int i = 0; i < 3; i++)
        copy_of(d, hs[i]->item, (size_t)hs[i]->n * sizeof *hs[i]->item, BLOCK_MESH);
    mesh_copy(d, h->m);
    walls_copy(d, &h->walls);
    shadows(d, 1);
}

void device_detach(struct device_copy *d)
{
    if (!d->on)
        return;
    for (int i = 0; i < d->nlists; i++)
        omp_target_free(d->lists[i].dev, d->device);
    free(d->lists);
    omp_target_free(d->stage, d->device);
    free(d->stage_here);
    shadows(d, 0);
    while (d->nblocks > 0)
        drop_block(d, d->nblocks - 1);
    d->on = 0;
}

/* Host bytes [h, h + n) of a copied block over to the device, or back, counted. */
static void update(struct device_copy *d, char *h, size_t n, int back)
{
    USED(h), USED(n);
    if (back) {
        PAR_PRAGMA(omp target update from(h[0:n]) device(d->device))
    } else {
        PAR_PRAGMA(omp target update to(h[0:n]) device(d->device))
    }
    *(back ? &d->bytes_from : &d->bytes_to) += (double)n;
}

/* Every field's block to the device, or back. */
static void fields_copy(struct device_copy *d, int back)
{
    for (int i = 0; d->on && i < d->nblocks; i++)
        if (d->block[i].kind == BLOCK_FIELDS)
            update(d, d->block[i].host, d->block[i].bytes, back);
}

/* The copy there of host bytes [p, p + bytes) when they lie in a block whose values move (a
 * field's or scratch), NULL otherwise (no kernel there reads them). */
static char *moving_copy(const struct device_copy *d, const void *p, size_t bytes)
{
    for (int i = 0; d->on && bytes && i < d->nblocks; i++) {
        const char *lo = d->block[i].host, *h = p;
        const int moves = d->block[i].kind == BLOCK_FIELDS || d->block[i].kind == BLOCK_SCRATCH;
        if (moves && h >= lo && h + bytes <= lo + d->block[i].bytes)
            return (char *)d->block[i].dev + (h - lo);
    }
    return NULL;
}

void device_array(struct device_copy *d, const void *host, size_t bytes, int back)
{
    if (moving_copy(d, host, bytes))
        update(d, (char *)host, bytes, back);
}

/* The copy of item list items (n long) on the accelerator, made at its first use; NULL when it
 * has no room. */
static const int32_t *list_of(struct device_copy *d, const int32_t *items, int n)
{
    for (int i = 0; i < d->nlists; i++)
        if (d->lists[i].host == items && d->lists[i].n == n)
            return d->lists[i].dev;
    const size_t bytes = (size_t)n * sizeof *items;
    int32_t *dev = omp_target_alloc(bytes, d->device);
    if (!dev)
        return NULL;
    if (omp_target_memcpy(dev, items, bytes, 0, 0, d->device, omp_get_initial_device())) {
        omp_target_free(dev, d->device);
        return NULL;
    }
    d->lists = xrealloc(d->lists, (size_t)(d->nlists + 1) * sizeof *d->lists);
    d->lists[d->nlists++] = (struct device_list){items, dev, n};
    d->bytes_to += (double)bytes;
    return dev;
}

/* Staging for need doubles on both sides (the old one kept when there is no room for more). */
static int stage_for(struct device_copy *d, size_t need)
{
    if (need <= d->stage_cap)
        return 0;
    double *stage = omp_target_alloc(need * sizeof *stage, d->device);
    if (!stage)
        return -1;
    omp_target_free(d->stage, d->device);
    d->stage = stage;
    d->stage_here = xrealloc(d->stage_here, need * sizeof *d->stage_here);
    d->stage_cap = need;
    return 0;
}

/* Up to DEVICE_STAGE_VARS arrays' copies, their layouts and their places in the staging array. */
struct stage_vars {
    double *src[DEVICE_STAGE_VARS];
    int stride[DEVICE_STAGE_VARS], ncomp[DEVICE_STAGE_VARS];
    size_t off[DEVICE_STAGE_VARS];
    int nv;
};

/* On the accelerator: the n items' values (idx) of every array of sv gathered into the staging
 * array (back), or placed from it. One kernel for them all. */
static void stage_kernel(const struct stage_vars *sv, const int32_t *idx, int n, double *stage, int back, int device)
{
    const struct stage_vars v = *sv;
    if (back) {
        PAR_PRAGMA(omp target teams distribute parallel for is_device_ptr(idx, stage) firstprivate(v) device(device))
        for (int i = 0; i < n; i++)
            for (int k = 0; k < v.nv; k++)
                for (int c = 0; c < v.ncomp[k]; c++)
                    stage[v.off[k] + (size_t)i * (size_t)v.ncomp[k] + (size_t)c] =
                        v.src[k][(size_t)idx[i] * (size_t)v.stride[k] + (size_t)c];
    } else {
        PAR_PRAGMA(omp target teams distribute parallel for is_device_ptr(idx, stage) firstprivate(v) device(device))
        for (int i = 0; i < n; i++)
            for (int k = 0; k < v.nv; k++)
                for (int c = 0; c < v.ncomp[k]; c++)
                    v.src[k][(size_t)idx[i] * (size_t)v.stride[k] + (size_t)c] =
                        stage[v.off[k] + (size_t)i * (size_t)v.ncomp[k] + (size_t)c];
    }
}

/* The values of the n items of the arrays of sv between the host's arrays (a) and the staging
 * array on the host (or compared), then between the two staging arrays. */
static int stage_host(struct device_copy *d, const struct device_var *const *a, const struct stage_vars *sv,
                      const int32_t *items, int n, enum device_move how, size_t bytes, long long *differ)
{
    double *here = d->stage_here;
    const int back = how != DEVICE_OVER;
    if (back && omp_target_memcpy(here, d->stage, bytes, 0, 0, omp_get_initial_device(), d->device))
        return -1;
    for (int k = 0; k < sv->nv; k++)
        for (int i = 0; i < n; i++)
            for (int c = 0; c < sv->ncomp[k]; c++) {
                double *h = &a[k]->data[(size_t)items[i] * (size_t)sv->stride[k] + (size_t)c];
                double *s = &here[sv->off[k] + (size_t)i * (size_t)sv->ncomp[k] + (size_t)c];
                if (how == DEVICE_COMPARE)
                    *differ += memcmp(h, s, sizeof *h) != 0;
                else
                    *(back ? h : s) = *(back ? s : h);
            }
    if (!back && omp_target_memcpy(d->stage, here, bytes, 0, 0, d->device, omp_get_initial_device()))
        return -1;
    if (how != DEVICE_COMPARE) /* a check's copies are not the run's */
        *(back ? &d->bytes_from : &d->bytes_to) += (double)bytes;
    return 0;
}

int device_items(struct device_copy *d, const struct device_var *vars, int nvars, const int32_t *items, int n,
                 enum device_move how, long long *differ)
{
    if (nvars > DEVICE_STAGE_VARS)
        return -1;
    if (!d->on || n <= 0)
        return 0;
    const int32_t *idx = list_of(d, items, n);
    if (!idx)
        return -1;
    struct stage_vars sv = {.nv = 0};
    const struct device_var *a[DEVICE_STAGE_VARS];
    size_t need = 0;
    for (int k = 0; k < nvars; k++) {
        const size_t span = ((size_t)items[n - 1] * (size_t)vars[k].stride + (size_t)vars[k].ncomp) *
                            sizeof *vars[k].data; /* items in increasing order */
        double *src = (double *)moving_copy(d, vars[k].data, span);
        if (!src) /* no copy there: no kernel there reads it */
            continue;
        a[sv.nv] = &vars[k];
        sv.src[sv.nv] = src, sv.stride[sv.nv] = vars[k].stride, sv.ncomp[sv.nv] = vars[k].ncomp;
        sv.off[sv.nv++] = need;
        need += (size_t)n * (size_t)vars[k].ncomp;
    }
    if (sv.nv == 0)
        return 0;
    if (stage_for(d, need))
        return -1;
    if (how != DEVICE_OVER)
        stage_kernel(&sv, idx, n, d->stage, 1, d->device);
    if (stage_host(d, a, &sv, items, n, how, need * sizeof *d->stage, differ))
        return -1;
    if (how == DEVICE_OVER)
        stage_kernel(&sv, idx, n, d->stage, 0, d->device);
    return 0;
}

void device_fields_to(struct device_copy *d) { fields_copy(d, 0); }
void device_fields_from(struct device_copy *d) { fields_copy(d, 1); }

void device_sweep(struct device_copy *d, int sweep)
{
    if (!d->on)
        return;
    d->rw.sweep = sweep;
    struct remap_work *dr = &d->rw;
    USED(dr);
    PAR_PRAGMA(omp target update to(dr[0:1]) device(d->device))
}

void device_walls(struct device_copy *d, const struct walls *w)
{
    if (!d->on)
        return;
    for (int i = d->nblocks - 1; i >= 0; i--)
        if (d->block[i].kind == BLOCK_WALLS)
            drop_block(d, i);
    walls_copy(d, w);
    struct walls *dw = &d->walls;
    USED(dw);
    PAR_PRAGMA(omp target update to(dw[0:1]) device(d->device))
}

#else /* no offload: the host's structures serve */

void device_array(struct device_copy *d, const void *host, size_t bytes, int back)
{
    (void)d, (void)host, (void)bytes, (void)back;
}
int device_items(struct device_copy *d, const struct device_var *vars, int nvars, const int32_t *items, int n,
                 enum device_move how, long long *differ)
{
    (void)d, (void)vars, (void)nvars, (void)items, (void)n, (void)how, (void)differ;
    return 0;
}

int device_built(void) { return 0; }

void device_attach(struct device_copy *d, const struct hydro *h)
{
    (void)h;
    memset(d, 0, sizeof *d);
}

void device_detach(struct device_copy *d) { (void)d; }
void device_sweep(struct device_copy *d, int sweep) { (void)d, (void)sweep; }
void device_fields_to(struct device_copy *d) { (void)d; }
void device_fields_from(struct device_copy *d) { (void)d; }
void device_walls(struct device_copy *d, const struct walls *w) { (void)d, (void)w; }

#endif

int device_mandatory(void)
{
    const char *v = getenv("OMP_TARGET_OFFLOAD");
    return v && strcasecmp(v, "MANDATORY") == 0;
}
