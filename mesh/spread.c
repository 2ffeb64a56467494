/* Spreading a cell value over the layers of cells around it (see spread.h). */
#include "spread.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"

/* The cells whose value grew in the last layer, each with its value then: only they can make a
 * value grow in the next one (the values only grow, and a cell's other neighbours gave theirs
 * already), so that a layer costs the changes of the last one, not a pass over the mesh. */
struct front {
    int32_t *cell, n;
    double *val;
    int32_t *seen; /* [ncells] the layer that last put the cell in the front */
};

static void front_add(struct front *f, int32_t c, int32_t layer)
{
    if (f->seen[c] == layer)
        return;
    f->seen[c] = layer;
    f->cell[f->n++] = c;
}

/* One layer: each cell of the front gives its value to the cells sharing a node with it (the
 * outer ghost layer's nodes lack the cells beyond it, so that one layer keeps the owned cells and
 * the layers below the last exact). The cells that grew make the next front. Returns whether an
 * owned cell grew. */
static int one_layer(const struct mesh *m, double *cur, struct front *f, struct front *next, int32_t layer)
{
    const int nv = m->el->nnodes;
    for (int32_t i = 0; i < f->n; i++) /* the values before the layer: it moves them one layer only */
        f->val[i] = cur[f->cell[i]];
    next->n = 0;
    int grew = 0;
    for (int32_t i = 0; i < f->n; i++) {
        const int32_t from = f->cell[i];
        const double val = f->val[i];
        for (int k = 0; k < nv; k++) {
            const int32_t n = m->cell_nodes[(size_t)from * nv + k];
            for (int32_t j = m->node_cell_off[n]; j < m->node_cell_off[n + 1]; j++) {
                const int32_t c = mesh_nc_cell(m->node_cells[j]);
                if (val > cur[c]) {
                    cur[c] = val;
                    front_add(next, c, layer);
                    grew |= c < m->ncells_owned;
                }
            }
        }
    }
    return grew;
}

void cells_spread(MPI_Comm comm, const struct mesh *m, struct sync_plan *cells, struct registry *reg, int id,
                  double *v, double reach)
{
    if (m->nlayers < 1) /* the ghosts' values would lack their neighbours from the first layer */
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: cells_spread needs a ghost layer");
    const size_t n = (size_t)(m->ncells ? m->ncells : 1);
    const int32_t first = m->ncells_owned, nghost = m->ncells - first;
    double *cur = xcalloc(n, sizeof *cur); /* the most within d layers */
    double *was = xmalloc((size_t)(nghost ? nghost : 1) * sizeof *was); /* the ghosts' before a sync */
    struct front f[2];
    for (int i = 0; i < 2; i++)
        f[i] = (struct front){xmalloc(n * sizeof *f[i].cell), 0, xmalloc(n * sizeof *f[i].val), NULL};
    f[1].seen = f[0].seen = xmalloc(n * sizeof *f[0].seen);
    for (size_t c = 0; c < n; c++)
        f[0].seen[c] = -1;
    memcpy(cur, v, (size_t)first * sizeof *cur);
    for (int32_t c = 0; c < first; c++)
        if (cur[c] > 0)
            front_add(&f[0], c, 0);
    struct sync_group *g = sync_group_create(comm, cells, reg, &id, 1, SYNC_KIND_BASIC);
    registry_set_external(reg, id, cur);
    int grew = 1, a = 0;
    for (long d = 1; d < reach; d++) {
        if ((d - 1) % m->nlayers == 0) { /* the ghosts' values, good for nlayers layers */
            if (d > 1 && !comm_max_int(comm, grew))
                break; /* the same everywhere: no value can grow any more */
            memcpy(was, cur + first, (size_t)nghost * sizeof *was);
            sync_start(g);
            sync_finish(g);
            for (int32_t c = first; c < m->ncells; c++) /* the owners' are exact, the local ones not above */
                if (cur[c] > was[c - first])
                    front_add(&f[a], c, (int32_t)d - 1);
        }
        grew = one_layer(m, cur, &f[a], &f[1 - a], (int32_t)d);
        a = 1 - a;
        for (int32_t i = 0; i < f[a].n; i++) { /* the others' (1 - d / reach) cur fell since */
            const int32_t c = f[a].cell[i];
            if (c < first)
                v[c] = fmax(v[c], (1.0 - (double)d / reach) * cur[c]);
        }
    }
    sync_group_destroy(g);
    registry_set_external(reg, id, NULL);
    for (int i = 0; i < 2; i++) {
        free(f[i].cell);
        free(f[i].val);
    }
    free(f[0].seen);
    free(was);
    free(cur);
}
