/* Cell geometry of quads and hexes: corner vectors, volume, characteristic length, centre. */
#ifndef HYDRO_GEOMETRY_H
#define HYDRO_GEOMETRY_H

#include <stdint.h>

#include "element.h"

/* Hot loops take the element's node count and dimension as constants (quads: 4 and 2, hexes: 8
 * and 3, the only elements): an inline body called once per kind lets the compiler unroll it and
 * skip a quad's z components, which are 0 (a NaN or infinite pressure no longer reaches a quad's
 * unused z force). Every sum keeps its terms and their order: the same bits as the generic
 * loop. */
#define BY_ELEMENT(dim, call4, call8) ((dim) == 2 ? (call4) : (call8))

/* Corner vectors C[k] = dV/dx_k (V: area in 2D, volume in 3D) of the cell with node positions
 * x[k] (element order); returns V. 2D from the quad's edges; 3D from the hex faces split into
 * four triangles around each face centre. sum_k C[k] = 0 and V = sum_k x_k . C[k] / dim; both
 * are exact for any cell with planar faces. Positions are taken relative to node 0, so the
 * result does not depend on where the cell lies. */
double geom_corners(const struct element *el, const double (*x)[3], double (*C)[3]);

/* Volume alone (same formula). */
double geom_volume(const struct element *el, const double (*x)[3]);
/* The same two from a field of positions x ([nodes][3]) and the cell's node list (element
 * order), without copying the positions first (a third of the 2D grind's instructions in the
 * geometry went to that copy). Same results, bit for bit. */
double geom_corners_at(const struct element *el, const double *x, const int32_t *nodes, double (*C)[3]);
double geom_volume_at(const struct element *el, const double *x, const int32_t *nodes);

/* volume^(1/dim) (MaHyCo), the smallest distance between opposite faces, or MicroHydro's
 * d1 d2 d3 / (d1 d2 + d1 d3 + d2 d3) of those distances (2D: d1 d2 / (d1 + d2)). */
enum length_kind { LENGTH_VOLUME, LENGTH_FACES, LENGTH_MEDIANS, LENGTH_COUNT };
/* Characteristic length: V^(1/dim) (MaHyCo's choice; x is not read and may be NULL) or the
 * smallest distance between the centres of opposite faces. */
double geom_length(const struct element *el, const double (*x)[3], double volume, enum length_kind kind);

/* Mean of the node positions. */
void geom_centre(const struct element *el, const double (*x)[3], double c[3]);

/* Outward normal of face f of the cell, with the face's area (length in 2D) as its norm. */
void geom_face_normal(const struct element *el, const double (*x)[3], int f, double n[3]);

#endif
