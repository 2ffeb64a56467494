/* Spreading a cell value over the layers of cells around it (see spread.h). */
#include "spread.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"

/* next[c]: the largest value of cur over the cells sharing a node with c, c included, for every
 * local cell (through each node's largest, node_most); the outer ghost layer's nodes lack cells
 * beyond it, so that one step keeps the owned cells and the layers below the last exact.
 * Returns whether an owned cell's value grew. */
static int one_layer(const struct mesh *m, const double *cur, double *node_most, double *next)
{
    const int nv = m->el->nnodes;
    for (int32_t n = 0; n < m->nnodes; n++) {
        double most = 0;
        for (int32_t j = m->node_cell_off[n]; j < m->node_cell_off[n + 1]; j++)
            most = fmax(most, cur[mesh_nc_cell(m->node_cells[j])]);
        node_most[n] = most;
    }
    int grew = 0;
    for (int32_t c = 0; c < m->ncells; c++) {
        double most = cur[c];
        for (int k = 0; k < nv; k++)
            most = fmax(most, node_most[m->cell_nodes[(size_t)c * nv + k]]);
        next[c] = most;
        grew |= c < m->ncells_owned && most > cur[c];
    }
    return grew;
}

void cells_spread(MPI_Comm comm, const struct mesh *m, struct sync_plan *cells, struct registry *reg, int id,
                  double *v, double reach)
{
    if (m->nlayers < 1) /* the ghosts' values would lack their neighbours from the first layer */
        hydro_fatal(comm, EXIT_RUNTIME, "internal error: cells_spread needs a ghost layer");
    const size_t n = (size_t)(m->ncells ? m->ncells : 1);
    double *cur = xcalloc(n, sizeof *cur), *next = xcalloc(n, sizeof *next); /* the most within d layers */
    double *node_most = xmalloc((size_t)(m->nnodes ? m->nnodes : 1) * sizeof *node_most);
    memcpy(cur, v, (size_t)m->ncells_owned * sizeof *cur);
    struct sync_group *g = sync_group_create(comm, cells, reg, &id, 1, SYNC_KIND_BASIC);
    int grew = 1;
    for (long d = 1; d < reach; d++) {
        if ((d - 1) % m->nlayers == 0) { /* the ghosts' values, good for nlayers layers */
            if (d > 1 && !comm_max_int(comm, grew))
                break; /* the same everywhere: no value can grow any more */
            registry_set_external(reg, id, cur);
            sync_start(g);
            sync_finish(g);
        }
        grew = one_layer(m, cur, node_most, next);
        double *t = cur;
        cur = next, next = t;
        for (int32_t c = 0; c < m->ncells_owned; c++)
            v[c] = fmax(v[c], (1.0 - (double)d / reach) * cur[c]);
    }
    sync_group_destroy(g);
    registry_set_external(reg, id, NULL);
    free(cur);
    free(next);
    free(node_most);
}
