/* A set of cells as they travel between ranks: global ids, node ids, face tags, node coordinates. */
#ifndef HYDRO_CELLSET_H
#define HYDRO_CELLSET_H

#include <stdint.h>

#include "comm.h"
#include "element.h"
#include "idmap.h"

/* Cells and the nodes they use. Node coordinates are in length units, z = 0 in 2D.
 * face_tag[c][f] is the boundary tag of face f of cell c (element.h numbering), 0 when the
 * face carries none; it travels with the cell so any rank knows its boundary faces. */
struct cellset {
    const struct element *el;
    int64_t ncells, cap_cells;
    int64_t *gid;      /* [ncells] */
    int64_t *nodes;    /* [ncells][el->nnodes] global node ids */
    int32_t *face_tag; /* [ncells][el->nfaces] */
    int64_t nnodes, cap_nodes;
    int64_t *node_gid; /* [nnodes] */
    double *xyz;       /* [nnodes][3] */
    struct idmap node_index; /* node gid -> index in node_gid */
};

void cellset_init(struct cellset *s, int dim);
void cellset_free(struct cellset *s);
void cellset_add_cell(struct cellset *s, int64_t gid, const int64_t *nodes, const int32_t *tags);
/* Adds the node unless a node with that id is already there. */
void cellset_add_node(struct cellset *s, int64_t gid, const double xyz[3]);
/* Coordinates of a node by global id, NULL when absent. */
const double *cellset_node_xyz(const struct cellset *s, int64_t gid);

/* Cell c's centre (the mean of its nodes' positions, geom_centre). */
void cellset_centre(const struct cellset *s, int64_t c, double centre[3]);

/* Append cells cells[0..n-1] (indices into s) and the nodes they use to a message. */
void cellset_pack(const struct cellset *s, const int32_t *cells, int64_t n, struct buf *b);
/* Read one packed block from a message and append it (duplicate nodes are merged). */
void cellset_unpack(struct cellset *s, struct buf *b);

/* Sort cells by global id (nodes stay as they are). */
void cellset_sort(struct cellset *s);

#endif
