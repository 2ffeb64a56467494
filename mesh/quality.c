/* Partition quality: cells, ghosts and neighbours per rank, the edge cut (see quality.h). */
#include "quality.h"

void partition_quality(MPI_Comm comm, const struct mesh *m, int neighbours, struct partition_quality *q)
{
    long long cut = 0;
    for (int32_t f = 0; f < m->nfaces; f++) {
        int32_t a = m->face_cells[2 * f], b = m->face_cells[2 * f + 1];
        if (b >= 0 && (a < m->ncells_owned) != (b < m->ncells_owned))
            cut++;
    }
    q->edge_cut = comm_sum_ll(comm, cut) / 2;
    double v[3] = {m->ncells_owned, m->ncells - m->ncells_owned, neighbours};
    struct stats st[3];
    comm_stats(comm, v, 3, st);
    q->cells = st[0];
    q->ghosts = st[1];
    q->neighbours = st[2];
}
