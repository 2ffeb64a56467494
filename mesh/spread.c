/* Spreading a cell value over the face layers around it (see spread.h). */
#include "spread.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* next[c]: the largest value of cur over c and its face neighbours, for every local cell (the
 * outer ghost layers' results lack their cut neighbours: good for owned cells nlayers times). */
static void one_layer(const struct mesh *m, const double *cur, double *next)
{
    const size_t nf = (size_t)m->el->nfaces;
    for (int32_t c = 0; c < m->ncells; c++) {
        double most = cur[c];
        for (size_t k = 0; k < nf; k++) {
            const int32_t *fc = m->face_cells + 2 * (size_t)m->cell_faces[(size_t)c * nf + k];
            const int32_t other = fc[0] == c ? fc[1] : fc[0]; /* negative: none (boundary or cut) */
            most = other >= 0 && cur[other] > most ? cur[other] : most;
        }
        next[c] = most;
    }
}

void cells_spread(MPI_Comm comm, const struct mesh *m, struct sync_plan *cells, struct registry *reg, int id,
                  double *v, double reach)
{
    const size_t n = (size_t)(m->ncells ? m->ncells : 1);
    const int nlayers = m->nlayers > 0 ? m->nlayers : 1;
    double *cur = xcalloc(n, sizeof *cur), *next = xcalloc(n, sizeof *next); /* the most within d layers */
    memcpy(cur, v, (size_t)m->ncells_owned * sizeof *cur);
    for (int d = 1; d < reach; d++) {
        if ((d - 1) % nlayers == 0) { /* the ghosts' values, good for nlayers layers */
            registry_set_external(reg, id, cur);
            struct sync_group *g = sync_group_create(comm, cells, reg, &id, 1, SYNC_KIND_BASIC);
            sync_start(g);
            sync_finish(g);
            sync_group_destroy(g);
        }
        one_layer(m, cur, next);
        double *t = cur;
        cur = next, next = t;
        for (int32_t c = 0; c < m->ncells_owned; c++)
            v[c] = fmax(v[c], (1.0 - d / reach) * cur[c]);
    }
    registry_set_external(reg, id, NULL);
    free(cur);
    free(next);
}
