/* Reference quad (2D) and hex (3D): node order, faces, corner validity. Nothing else is assumed. */
#ifndef HYDRO_ELEMENT_H
#define HYDRO_ELEMENT_H

#include <stdint.h>

enum { MAX_CELL_NODES = 8, MAX_CELL_FACES = 6, MAX_FACE_NODES = 4 };

/* The hex's faces, the one table: the element below and the geometry's hex path (physics/
 * geometry.h, where constant indices let the compiler unroll the face loops) both take it. */
#define HEX_FACE_NODES {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}

/* Node order (Gmsh and VTK convention): quad 0 1 2 3 counter-clockwise; hex 0-3 the bottom
 * face counter-clockwise seen from above, 4-7 the top face above them. Faces list their
 * nodes counter-clockwise seen from outside, so their normals point out of the cell. */
struct element {
    int dim;
    int nnodes;      /* 4 or 8 */
    int nfaces;      /* 4 or 6 */
    int nface_nodes; /* 2 or 4 */
    int face_nodes[MAX_CELL_FACES][MAX_FACE_NODES];
    int corner[MAX_CELL_NODES][3]; /* edge neighbours of each corner, right-handed */
};

const struct element *element_of_dim(int dim);

/* Smallest corner Jacobian (2D cross product, 3D triple product of the corner's edges)
 * divided by the product of the edge lengths: in (0, 1] for a valid cell. */
double element_corner_quality(const struct element *e, const double (*x)[3]);

/* Key of a face independent of its orientation: its node ids sorted ascending, padded with -1. */
void element_face_key(const struct element *e, const int64_t *cell_nodes, int face, int64_t key[4]);

/* A face of a cell with its key, to pair faces by sorting (equal keys: the same face). */
struct face_rec {
    int64_t key[4];
    int64_t cell; /* the caller's cell index (negative values are free for other uses) */
    int32_t side; /* face index in the cell */
};
int face_rec_cmp(const void *a, const void *b); /* by key, then cell: for qsort */

#endif
