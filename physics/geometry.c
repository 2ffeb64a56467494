/* Cell geometry (see geometry.h). */
#include "geometry.h"

#include <math.h>

double geom_length_faces(const struct element *el, const double (*x)[3], enum length_kind kind)
{
    /* opposite faces: 2D edges 0-2, 1-3; 3D faces 0-1, 2-4, 3-5 */
    static const int pairs2[2][2] = {{0, 2}, {1, 3}}, pairs3[3][2] = {{0, 1}, {2, 4}, {3, 5}};
    int npairs = el->dim == 2 ? 2 : 3;
    double best = INFINITY, d[3];
    for (int p = 0; p < npairs; p++) {
        double ca[3] = {0, 0, 0}, cb[3] = {0, 0, 0};
        int fa = el->dim == 2 ? pairs2[p][0] : pairs3[p][0], fb = el->dim == 2 ? pairs2[p][1] : pairs3[p][1];
        for (int i = 0; i < el->nface_nodes; i++)
            for (int d = 0; d < 3; d++) {
                ca[d] += x[el->face_nodes[fa][i]][d] / el->nface_nodes;
                cb[d] += x[el->face_nodes[fb][i]][d] / el->nface_nodes;
            }
        double dist = sqrt((ca[0] - cb[0]) * (ca[0] - cb[0]) + (ca[1] - cb[1]) * (ca[1] - cb[1]) +
                           (ca[2] - cb[2]) * (ca[2] - cb[2]));
        best = dist < best ? dist : best;
        d[p] = dist;
    }
    if (kind == LENGTH_MEDIANS) /* MicroHydro's characteristic length of the three medians */
        return el->dim == 2 ? d[0] * d[1] / (d[0] + d[1]) : d[0] * d[1] * d[2] / (d[0] * d[1] + d[0] * d[2] + d[1] * d[2]);
    return best;
}

void geom_centre(const struct element *el, const double (*x)[3], double c[3])
{
    c[0] = c[1] = c[2] = 0;
    for (int k = 0; k < el->nnodes; k++)
        for (int d = 0; d < 3; d++)
            c[d] += x[k][d];
    const double inv = 1.0 / el->nnodes; /* exact for 4 and 8 nodes */
    for (int d = 0; d < 3; d++)
        c[d] *= inv;
}

void geom_face_normal(const struct element *el, const double (*x)[3], int f, double n[3])
{
    const int *fn = el->face_nodes[f];
    if (el->dim == 2) { /* edge a->b of a counter-clockwise cell: outward normal (dy, -dx) */
        n[0] = x[fn[1]][1] - x[fn[0]][1];
        n[1] = -(x[fn[1]][0] - x[fn[0]][0]);
        n[2] = 0;
        return;
    }
    double d1[3], d2[3];
    for (int d = 0; d < 3; d++) {
        d1[d] = x[fn[2]][d] - x[fn[0]][d];
        d2[d] = x[fn[3]][d] - x[fn[1]][d];
    }
    geom_cross(d1, d2, n);
    for (int d = 0; d < 3; d++)
        n[d] *= 0.5;
}
