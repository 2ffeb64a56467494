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

/* A quick look at a mesh file's headers, without reading its nodes or elements: the largest
 * dimension of its elements (2 or 3), the elements of that dimension and the nodes. Returns 0,
 * or -1 when the headers cannot be read (gmsh_read then says why). */
int gmsh_scan(const char *path, int *dim, int64_t *ncells, int64_t *nnodes);

#endif
