/* Cell geometry of quads and hexes: corner vectors, volume, characteristic length, centre. */
#ifndef HYDRO_GEOMETRY_H
#define HYDRO_GEOMETRY_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "element.h"
#include "par.h"

/* Hot loops take the element's node count and dimension as constants (quads: 4 and 2, hexes: 8
 * and 3, the only elements): an inline body called once per kind lets the compiler unroll it and
 * skip a quad's z components, which are 0 (a NaN or infinite pressure no longer reaches a quad's
 * unused z force). Every sum keeps its terms and their order: the same bits as the generic
 * loop. */
#define BY_ELEMENT(dim, call4, call8) ((dim) == 2 ? (call4) : (call8))

/* Corner vectors and volumes (geom_corners and the rest): inline, at the end of this file. */

/* volume^(1/dim) (MaHyCo), the smallest distance between opposite faces, or MicroHydro's
 * d1 d2 d3 / (d1 d2 + d1 d3 + d2 d3) of those distances (2D: d1 d2 / (d1 + d2)). */
enum length_kind { LENGTH_VOLUME, LENGTH_FACES, LENGTH_MEDIANS, LENGTH_COUNT };
/* Characteristic length: V^(1/dim) (MaHyCo's choice; x is not read and may be NULL) or the
 * smallest distance between the centres of opposite faces. */
DEVICE_BEGIN
double geom_length_faces(const struct element *el, const double (*x)[3], enum length_kind kind);
DEVICE_END
static inline double geom_length(const struct element *el, const double (*x)[3], double volume, enum length_kind kind)
{
    if (kind == LENGTH_VOLUME)
        return el->dim == 2 ? sqrt(volume) : cbrt(volume);
    return geom_length_faces(el, x, kind);
}

/* Mean of the node positions. */
void geom_centre(const struct element *el, const double (*x)[3], double c[3]);

/* Outward normal of face f of the cell, with the face's area (length in 2D) as its norm. */
DEVICE_BEGIN
void geom_face_normal(const struct element *el, const double (*x)[3], int f, double n[3]);
DEVICE_END

/* The cross product c = a x b. */
static inline void geom_cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Quads: A = 1/2 sum (x_k y_k+1 - x_k+1 y_k), counter-clockwise, relative to node 0; C (when
 * not NULL) gets the gradient, z components 0. A path of its own: the generic one's 3D set-up
 * (relative positions in z, zeroing every corner) took half of its instructions in 2D. */
static inline double quad_corners(const double *x, const int32_t *nodes, double (*C)[3])
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
static inline double hex_corners(const double *x, const int32_t *nodes, double (*C)[3])
{
    static const int hex_faces[6][4] = HEX_FACE_NODES;
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
        geom_cross(d1, d2, n);
        vol += a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
        if (!C)
            continue;
        geom_cross(d2, a, g1);
        geom_cross(a, d1, g2);
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

/* Corner vectors C[k] = dV/dx_k (V: area in 2D, volume in 3D) of the cell whose node positions
 * are x[3 nodes[k] ..] (a field of positions, [nodes][3], and the cell's node list in element
 * order); returns V. 2D from the quad's edges; 3D from the hex faces split into four triangles
 * around each face centre. sum_k C[k] = 0 and V = sum_k x_k . C[k] / dim; both are exact for any
 * cell with planar faces. Positions are taken relative to node 0, so the result does not depend
 * on where the cell lies. Read in place, not copied first (a third of the 2D grind's geometry
 * instructions went to that copy); inline, since the cell loops call it for every cell and as a
 * call into another file it cost a tenth of the 2D grind. */
static inline double geom_corners_at(const struct element *el, const double *x, const int32_t *nodes,
                                     double (*C)[3])
{
    return el->dim == 2 ? quad_corners(x, nodes, C) : hex_corners(x, nodes, C);
}

/* The volume alone (same formula, same bits). */
static inline double geom_volume_at(const struct element *el, const double *x, const int32_t *nodes)
{
    return geom_corners_at(el, x, nodes, NULL);
}

/* The same two from the cell's own positions x[k] (element order). */
static inline double geom_corners(const struct element *el, const double (*x)[3], double (*C)[3])
{
    static const int32_t own_nodes[MAX_CELL_NODES] = {0, 1, 2, 3, 4, 5, 6, 7}; /* the cell's own array */
    return geom_corners_at(el, (const double *)x, own_nodes, C);
}

static inline double geom_volume(const struct element *el, const double (*x)[3]) { return geom_corners(el, x, NULL); }

#endif
