/* Cell geometry (see geometry.h). */
#include "geometry.h"

#include <math.h>
#include <string.h>

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

double geom_corners(const struct element *el, const double (*x)[3], double (*C)[3])
{
    double r[MAX_CELL_NODES][3]; /* relative to node 0 */
    for (int k = 0; k < el->nnodes; k++)
        for (int d = 0; d < 3; d++)
            r[k][d] = x[k][d] - x[0][d];
    memset(C, 0, (size_t)el->nnodes * sizeof *C);
    if (el->dim == 2) { /* A = 1/2 sum (x_k y_k+1 - x_k+1 y_k), counter-clockwise */
        double area = 0;
        for (int k = 0; k < 4; k++) {
            const double *next = r[(k + 1) % 4], *prev = r[(k + 3) % 4];
            C[k][0] = 0.5 * (next[1] - prev[1]);
            C[k][1] = 0.5 * (prev[0] - next[0]);
            area += r[k][0] * C[k][0] + r[k][1] * C[k][1];
        }
        return 0.5 * area;
    }
    /* V = 1/6 sum over the 24 triangles (a = face centre, b, c) of a . (b x c); its gradient:
     * d/da = (b x c)/6 shared by the 4 face nodes, d/db = (c x a)/6, d/dc = (a x b)/6 */
    double vol = 0;
    for (int f = 0; f < el->nfaces; f++) {
        const int *fn = el->face_nodes[f];
        double a[3] = {0, 0, 0};
        for (int i = 0; i < 4; i++)
            for (int d = 0; d < 3; d++)
                a[d] += 0.25 * r[fn[i]][d];
        double ga[3] = {0, 0, 0};
        for (int i = 0; i < 4; i++) {
            const double *b = r[fn[i]], *c = r[fn[(i + 1) % 4]];
            double bc[3], ca[3], ab[3];
            cross(b, c, bc);
            cross(c, a, ca);
            cross(a, b, ab);
            vol += a[0] * bc[0] + a[1] * bc[1] + a[2] * bc[2];
            for (int d = 0; d < 3; d++) {
                ga[d] += bc[d];
                C[fn[i]][d] += ca[d] / 6.0;
                C[fn[(i + 1) % 4]][d] += ab[d] / 6.0;
            }
        }
        for (int i = 0; i < 4; i++)
            for (int d = 0; d < 3; d++)
                C[fn[i]][d] += 0.25 * ga[d] / 6.0;
    }
    return vol / 6.0;
}

double geom_volume(const struct element *el, const double (*x)[3])
{
    double C[MAX_CELL_NODES][3];
    return geom_corners(el, x, C);
}

double geom_length(const struct element *el, const double (*x)[3], double volume, enum length_kind kind)
{
    if (kind == LENGTH_VOLUME)
        return el->dim == 2 ? sqrt(volume) : cbrt(volume);
    /* opposite faces: 2D edges 0-2, 1-3; 3D faces 0-1, 2-4, 3-5 */
    static const int pairs2[2][2] = {{0, 2}, {1, 3}}, pairs3[3][2] = {{0, 1}, {2, 4}, {3, 5}};
    int npairs = el->dim == 2 ? 2 : 3;
    double best = INFINITY;
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
    }
    return best;
}

void geom_centre(const struct element *el, const double (*x)[3], double c[3])
{
    c[0] = c[1] = c[2] = 0;
    for (int k = 0; k < el->nnodes; k++)
        for (int d = 0; d < 3; d++)
            c[d] += x[k][d];
    for (int d = 0; d < 3; d++)
        c[d] /= el->nnodes;
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
    cross(d1, d2, n);
    for (int d = 0; d < 3; d++)
        n[d] *= 0.5;
}
