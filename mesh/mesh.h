/* The local unstructured mesh of one rank: owned cells, ghost layers, nodes, faces, connectivity
 * (plain data: no MPI here; ghost.h builds it). */
#ifndef HYDRO_MESH_H
#define HYDRO_MESH_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "element.h"

enum { MAX_LAYERS = 3 };
/* face_cells[2 f + 1] of a face seen by one local cell: */
enum { FACE_BOUNDARY = -1, /* on the domain boundary */
       FACE_CUT = -2 /* the other cell lies beyond the last ghost layer */ };

/* Numbering rules (local indices are int32, global ids int64):
 * - cells: owned cells in ascending global id, then ghost layer 1, 2, ... each in ascending
 *   global id; layer l is [cell_layer_start[l], cell_layer_start[l+1]), layer 0 = owned.
 *   Ghost layer 1 = cells not owned sharing a node with an owned cell; layer k = cells
 *   sharing a node with layer k-1 and in no lower layer.
 * - nodes: a node's layer is the lowest layer of the local cells around it. Its owner is the
 *   owner of its cell with the smallest global id (over the whole mesh, not only the local
 *   cells), so every node has exactly one owner and the owner holds it in layer 0. Order:
 *   owned nodes in ascending gid, then the other layer-0 nodes, then layer 1, 2, ..., each
 *   in ascending gid; layer l is [node_layer_start[l], node_layer_start[l+1]).
 * - node_cells lists each node's local cells in ascending global id, so node-centred sums
 *   do not depend on the partition. It is complete for nodes of layers < nlayers.
 * - faces: every face of every local cell once. face_cells[2f] is the cell with the smaller
 *   global id (or the only local one); the face's index in each of its cells' element numbering
 *   is found in cell_faces (mesh_face_side). Order: by the lowest layer of its cells, then global id = (smaller
 *   cell gid) * nfaces_per_cell + its face index. The ids fix the order and are not kept
 *   (nothing is attached to faces across ranks: 8 bytes per face less). */
struct mesh {
    const struct element *el;
    int nlayers;
    int rank;
    int64_t global_ncells, global_nnodes;

    int32_t ncells, ncells_owned;
    int32_t cell_layer_start[MAX_LAYERS + 2];
    int64_t *cell_gid;      /* [ncells] */
    int32_t *ghost_cell_owner; /* [ncells - ncells_owned] rank of each ghost (mesh_cell_owner) */
    int32_t *cell_nodes;    /* [ncells][nnodes per cell] */
    int32_t *cell_faces;    /* [ncells][nfaces per cell] */

    int32_t nnodes, nnodes_owned;
    int32_t node_layer_start[MAX_LAYERS + 2];
    int64_t *node_gid;   /* [nnodes] */
    int32_t *ghost_node_owner; /* [nnodes - nnodes_owned] rank of each ghost (mesh_node_owner) */
    double *node_xyz;    /* [nnodes][3], length units */
    int32_t *node_cell_off, *node_cells; /* CSR [nnodes+1], cells in ascending gid, each with the
                                          * node's corner in it (mesh_nc_cell, mesh_nc_corner) */

    int32_t nfaces;
    int32_t *face_cells; /* [nfaces][2], second FACE_BOUNDARY or FACE_CUT when alone */
    /* Boundary tags: only the faces with one are listed (a few percent of the faces; 0 for the
     * others), 4 bytes per face less than an array over all faces. */
    int32_t ntagged;
    int32_t *tagged_face; /* [ntagged] ascending */
    int32_t *tagged_tag;  /* [ntagged] their tags, never 0 */
};

/* The positions of cell c's nodes in its element's order, from x ([nodes][3], length units: the
 * mesh's node_xyz or a field of positions), into xc: the one way a cell's coordinates are read.
 * _n: with nv, the element's node count, given (a constant lets a hot loop unroll). */
static inline void mesh_cell_coords_n(const struct mesh *m, const double *x, int32_t c, double (*xc)[3], int nv)
{
    const int32_t *nodes = m->cell_nodes + (size_t)c * nv;
    for (int k = 0; k < nv; k++)
        memcpy(xc[k], x + 3 * (size_t)nodes[k], 3 * sizeof(double));
}
static inline void mesh_cell_coords(const struct mesh *m, const double *x, int32_t c, double (*xc)[3])
{
    mesh_cell_coords_n(m, x, c, xc, m->el->nnodes);
}

/* The rank owning local cell c / node n: this one for the owned items, which come first, the
 * ghosts' own owners otherwise (only theirs are kept: 4 bytes per owned item less). */
static inline int32_t mesh_cell_owner(const struct mesh *m, int32_t c)
{
    return c < m->ncells_owned ? m->rank : m->ghost_cell_owner[c - m->ncells_owned];
}
static inline int32_t mesh_node_owner(const struct mesh *m, int32_t n)
{
    return n < m->nnodes_owned ? m->rank : m->ghost_node_owner[n - m->nnodes_owned];
}

/* The index of face f in the element numbering of its cell face_cells[2f + k] (k 0 or 1, that
 * cell local): found in the cell's faces rather than kept (2 bytes per face less). */
static inline int mesh_face_side(const struct mesh *m, int32_t f, int k)
{
    const int nf = m->el->nfaces;
    const int32_t *faces = m->cell_faces + (size_t)m->face_cells[2 * (size_t)f + k] * nf;
    int s = 0;
    while (s < nf - 1 && faces[s] != f)
        s++;
#ifndef HYDRO_OFFLOAD /* GCC's NVIDIA device library has no assert (the other builds check it) */
    assert(faces[s] == f && "a face missing from its cell's faces");
#endif
    return s;
}

/* An entry of node_cells: the cell times 8 plus the node's corner in it (its position in the
 * cell's node list), one int32 instead of a cell index and a corner byte. At most
 * MESH_MAX_LOCAL_CELLS local cells per rank. */
enum { NODE_CORNER_BITS = 3 };
#define MESH_MAX_LOCAL_CELLS (INT32_MAX >> NODE_CORNER_BITS)
static inline int32_t mesh_nc_cell(int32_t entry) { return entry >> NODE_CORNER_BITS; }
static inline int mesh_nc_corner(int32_t entry) { return entry & ((1 << NODE_CORNER_BITS) - 1); }

/* Boundary tag of face f (0 when none). */
int32_t mesh_face_tag(const struct mesh *m, int32_t f);

/* Boundary tags of the faces of cell c, in its element's face order (0 when none), into
 * tags[nfaces per cell]. Tags live on the faces only: a mesh tags boundary faces alone (the
 * Gmsh reader and the generator), so no per-cell copy is kept. */
static inline void mesh_cell_face_tags(const struct mesh *m, int32_t c, int32_t *tags)
{
    for (int s = 0; s < m->el->nfaces; s++)
        tags[s] = mesh_face_tag(m, m->cell_faces[(size_t)c * m->el->nfaces + s]);
}

void mesh_destroy(struct mesh *m);

/* Local index of an owned cell / owned node by global id, -1 if not owned here. */
int32_t mesh_owned_cell(const struct mesh *m, int64_t gid);
int32_t mesh_owned_node(const struct mesh *m, int64_t gid);

#endif
