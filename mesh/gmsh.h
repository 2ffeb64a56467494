/* Reader of Gmsh MSH 4.1 ASCII meshes: quads (2D) or hexes (3D), physical groups as boundary tags. */
#ifndef HYDRO_GMSH_H
#define HYDRO_GMSH_H

#include <stddef.h>
#include <stdint.h>

#include "cellset.h"

/* Reads the whole mesh into out (initialised by the caller with the same dim).
 * Cells are the elements of dimension dim, numbered 0.. in ascending element tag; nodes
 * used by cells are numbered 0.. in ascending node tag. Elements of dimension dim-1 (lines
 * in 2D, quads in 3D) give the physical tag of their entity to the boundary face they
 * cover. Clockwise quads and left-handed hexes are reordered; degenerate or twisted ones
 * are refused. Returns 0, or -1 with "FILE:LINE: message" in err. */
int gmsh_read(const char *path, int dim, struct cellset *out, char *err, size_t errlen);

/* Collective: the same mesh read by shares, for partitioners that take a distributed graph.
 * Every rank streams the whole file but keeps only about 1/P of it: the cells of its share of
 * element tags (ids in ascending tag, so rank r holds a contiguous block of ids), the nodes
 * those cells use, and, while the read lasts, its share of the node tags (a directory that
 * numbers the used nodes) and of the boundary elements. Cells, nodes, orientations and
 * boundary tags are those gmsh_read gives. Element tags in ascending order without gaps cost
 * two passes over the file; others a few more (tag histograms). Returns 0, or -1 on every rank
 * with the message ("FILE:LINE: message", the error on the smallest line) on rank 0. */
int gmsh_read_share(MPI_Comm comm, const char *path, int dim, struct cellset *out, char *err, size_t errlen);

/* A quick look at a mesh file's headers, without reading its nodes or elements: the largest
 * dimension of its elements (2 or 3), the elements of that dimension and the nodes. Returns 0,
 * or -1 when the headers cannot be read (gmsh_read then says why). */
int gmsh_scan(const char *path, int *dim, int64_t *ncells, int64_t *nnodes);

#endif
