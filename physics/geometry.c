/* Cell geometry (see geometry.h). */
#include "geometry.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Quads: A = 1/2 sum (x_k y_k+1 - x_k+1 y_k), counter-clockwise, relative to node 0; C (when
 * not NULL) gets the gradient, z components 0. A path of its own: the generic one's 3D set-up
 * (relative positions in z, zeroing every corner) took half of its instructions in 2D. */
static double quad_corners(const double *x, const int32_t *nodes, double (*C)[3])
{
    double r[4][2];
    const double *x0 = x + 3 * (size_t)nodes[0];
    for (int k = 0; k < 4; k++) {
        const double *xk = x + 3 * (size_t)nodes[k];
        r[k][0] = xk[0] - x0[0];
        r[k][1] = xk[1] - x0[1];
    }
    double area = 0;
    for (int k = 0; k < 4; k++) {
        const double *next = r[(k + 1) & 3], *prev = r[(k + 3) & 3];
        double cx = 0.5 * (next[1] - prev[1]), cy = 0.5 * (prev[0] - next[0]);
        if (C) {
            C[k][0] = cx;
            C[k][1] = cy;
            C[k][2] = 0;
        }
        area += r[k][0] * cx + r[k][1] * cy;
    }
    return 0.5 * area;
}

/* Hexes: V = 1/6 sum over the 24 triangles (face centre a, b_i, b_i+1) of a . (b_i x b_i+1). Per
 * face the 4 triangles sum to a . (d1 x d2) with the diagonals d1 = b2 - b0, d2 = b3 - b1, so the
 * gradient is cheap: a gives (d1 x d2)/4 to each face node, d1 gives +-(d2 x a) to b2/b0 and d2
 * gives +-(a x d1) to b3/b1 (all over 6). C: NULL for the volume alone (the same bits). */
static const int hex_faces[6][4] = HEX_FACE_NODES;

static double hex_corners(const double *x, const int32_t *nodes, double (*C)[3])
{
    double r[8][3]; /* relative to node 0 */
    const double *x0 = x + 3 * (size_t)nodes[0];
    for (int k = 0; k < 8; k++)
        for (int d = 0; d < 3; d++)
            r[k][d] = x[3 * (size_t)nodes[k] + d] - x0[d];
    if (C)
        memset(C, 0, 8 * sizeof *C);
    double vol = 0;
    for (int f = 0; f < 6; f++) {
        const int *fn = hex_faces[f];
        const double *b0 = r[fn[0]], *b1 = r[fn[1]], *b2 = r[fn[2]], *b3 = r[fn[3]];
        double a[3], d1[3], d2[3], n[3], g1[3], g2[3];
        for (int d = 0; d < 3; d++) {
            a[d] = 0.25 * (b0[d] + b1[d] + b2[d] + b3[d]);
            d1[d] = b2[d] - b0[d];
            d2[d] = b3[d] - b1[d];
        }
        cross(d1, d2, n);
        vol += a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
        if (!C)
            continue;
        cross(d2, a, g1);
        cross(a, d1, g2);
        for (int d = 0; d < 3; d++) { /* 6 C here, scaled once below (divisions are slow) */
            double q = 0.25 * n[d];
            C[fn[0]][d] += q - g1[d];
            C[fn[2]][d] += q + g1[d];
            C[fn[1]][d] += q - g2[d];
            C[fn[3]][d] += q + g2[d];
        }
    }
    const double sixth = 1.0 / 6.0;
    for (int k = 0; C && k < 8; k++)
        for (int d = 0; d < 3; d++)
            C[k][d] *= sixth;
    return vol * sixth;
}

/* Positions given per cell: nodes 0 .. 7 of the cell's own array. */
static const int32_t own_nodes[MAX_CELL_NODES] = {0, 1, 2, 3, 4, 5, 6, 7};

double geom_corners_at(const struct element *el, const double *x, const int32_t *nodes, double (*C)[3])
{
    return el->dim == 2 ? quad_corners(x, nodes, C) : hex_corners(x, nodes, C);
}

double geom_volume_at(const struct element *el, const double *x, const int32_t *nodes)
{
    return el->dim == 2 ? quad_corners(x, nodes, NULL) : hex_corners(x, nodes, NULL);
}

double geom_corners(const struct element *el, const double (*x)[3], double (*C)[3])
{
    return geom_corners_at(el, (const double *)x, own_nodes, C);
}

double geom_volume(const struct element *el, const double (*x)[3])
{
    return geom_volume_at(el, (const double *)x, own_nodes);
}

double geom_length(const struct element *el, const double (*x)[3], double volume, enum length_kind kind)
{
    if (kind == LENGTH_VOLUME)
        return el->dim == 2 ? sqrt(volume) : cbrt(volume);
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
    cross(d1, d2, n);
    for (int d = 0; d < 3; d++)
        n[d] *= 0.5;
}
