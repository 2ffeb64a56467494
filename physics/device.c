/* The hydro scheme's arrays on the accelerator (see device.h). */
#include "device.h"

#include <string.h>

#include "par.h"

#ifdef HYDRO_OFFLOAD

int device_built(void) { return 1; }

/* What an array holds per item of its mesh: cells, nodes, nodes + 1 (offsets), corners (cells x
 * nodes per cell), cell faces, faces, node-cell pairs. */
/* GCC 12 warns of variables used only in the clauses of a standalone directive (enter data, exit
 * data, update): USED marks them. */
#define USED(x) (void)(x)

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
 * mesh's coordinates, the corner vectors lie in the arena), or a new block of kind `fields`
 * (device_block). NULL for no array. */
static void *copy_of(struct device_copy *d, void *p, size_t bytes, int fields)
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
    d->block[d->nblocks++] = (struct device_block){p, dev, bytes, fields};
    return dev;
}

/* In the accelerator's structure `shadow`, each member of mem[n] of the host's `host` becomes its
 * array's copy. */
static void copy_members(struct device_copy *d, void *shadow, const void *host, const struct mesh *m,
                         const struct member *mem, int n, int fields)
{
    for (int i = 0; i < n; i++) {
        void *p, *dev;
        memcpy(&p, (const char *)host + mem[i].off, sizeof p);
        dev = copy_of(d, p, items(m, mem[i].per) * (size_t)mem[i].width * mem[i].size, fields);
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

enum { BLOCK_MESH = 0, BLOCK_FIELDS = 1, BLOCK_WALLS = 2 };

static void walls_copy(struct device_copy *d, const struct walls *w)
{
    const size_t nn = (size_t)w->nnodes;
    d->walls = *w;
    d->walls.off = copy_of(d, w->off, nn + 1, BLOCK_WALLS);
    d->walls.base = copy_of(d, w->base, (nn / WALLS_BLOCK + 1) * sizeof *w->base, BLOCK_WALLS);
    d->walls.dir = copy_of(d, w->dir, 3 * (size_t)walls_first(w, w->nnodes) * sizeof *w->dir, BLOCK_WALLS);
}

void device_attach(struct device_copy *d, const struct mesh *m, const struct hydro_fields *f, double *arena,
                   size_t narena, const struct hydro_params *hp, const struct walls *w)
{
    memset(d, 0, sizeof *d);
    if (omp_get_num_devices() < 1)
        return;
    d->on = 1;
    d->device = omp_get_default_device();
    /* the fields first, so that the positions' block (the mesh's coordinates) is a field's */
    copy_of(d, arena, narena * sizeof *arena, BLOCK_FIELDS);
    memset(&d->f, 0, sizeof d->f); /* every member an array: those not copied stay NULL (the materials' store) */
    copy_members(d, &d->f, f, m, field_members, (int)(sizeof field_members / sizeof *field_members), BLOCK_FIELDS);
    memset(&d->m, 0, sizeof d->m); /* the arrays not copied stay NULL */
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
    walls_copy(d, w);
    struct mesh *dm = &d->m;
    struct hydro_fields *df = &d->f;
    struct walls *dw = &d->walls;
    USED(dm), USED(df), USED(dw), USED(hp);
    PAR_PRAGMA(omp target enter data map(to : dm[0:1], df[0:1], dw[0:1], hp[0:1]) device(d->device))
}

void device_detach(struct device_copy *d, const struct hydro_params *hp)
{
    if (!d->on)
        return;
    struct mesh *dm = &d->m;
    struct hydro_fields *df = &d->f;
    struct walls *dw = &d->walls;
    USED(dm), USED(df), USED(dw), USED(hp);
    PAR_PRAGMA(omp target exit data map(delete : dm[0:1], df[0:1], dw[0:1], hp[0:1]) device(d->device))
    while (d->nblocks > 0)
        drop_block(d, d->nblocks - 1);
    d->on = 0;
}

void device_fields_to(struct device_copy *d)
{
    for (int i = 0; d->on && i < d->nblocks; i++)
        if (d->block[i].fields == BLOCK_FIELDS) {
            char *h = d->block[i].host;
            USED(h);
            PAR_PRAGMA(omp target update to(h[0:d->block[i].bytes]) device(d->device))
        }
}

void device_fields_from(struct device_copy *d)
{
    for (int i = 0; d->on && i < d->nblocks; i++)
        if (d->block[i].fields == BLOCK_FIELDS) {
            char *h = d->block[i].host;
            USED(h);
            PAR_PRAGMA(omp target update from(h[0:d->block[i].bytes]) device(d->device))
        }
}

void device_walls(struct device_copy *d, const struct walls *w)
{
    if (!d->on)
        return;
    for (int i = d->nblocks - 1; i >= 0; i--)
        if (d->block[i].fields == BLOCK_WALLS)
            drop_block(d, i);
    walls_copy(d, w);
    struct walls *dw = &d->walls;
    USED(dw);
    PAR_PRAGMA(omp target update to(dw[0:1]) device(d->device))
}

#else /* no offload: the host's structures serve */

int device_built(void) { return 0; }

void device_attach(struct device_copy *d, const struct mesh *m, const struct hydro_fields *f, double *arena,
                   size_t narena, const struct hydro_params *hp, const struct walls *w)
{
    (void)m, (void)f, (void)arena, (void)narena, (void)hp, (void)w;
    memset(d, 0, sizeof *d);
}

void device_detach(struct device_copy *d, const struct hydro_params *hp) { (void)d, (void)hp; }
void device_fields_to(struct device_copy *d) { (void)d; }
void device_fields_from(struct device_copy *d) { (void)d; }
void device_walls(struct device_copy *d, const struct walls *w) { (void)d, (void)w; }

#endif
