/* The cell dual graph (cells sharing a face) distributed over the ranks in ParMETIS's layout
 * (vtxdist, xadj, adjncy, vertex weights) with hydro's integer types: a backend taking idx_t or
 * SCOTCH_Num converts where they differ. Built from each rank's cells without gathering them:
 * faces are matched among a rank's own cells, and the rest through a directory of faces. */
#ifndef HYDRO_DGRAPH_H
#define HYDRO_DGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

#include "element.h"
#include "mesh.h"

struct cellset;

struct dgraph {
    int nranks;
    int64_t *vtxdist;   /* [nranks + 1]: rank r holds the vertices [vtxdist[r], vtxdist[r + 1]) */
    int32_t nlocal;     /* this rank's vertices, its cells in the caller's order */
    const int64_t *gid; /* [nlocal] their cells' global ids, ascending (the caller's array) */
    int32_t *xadj;      /* [nlocal + 1] */
    int32_t *adjncy;    /* [xadj[nlocal]] global vertex numbers of the neighbours */
    int ncon;            /* weights per vertex (balance constraints), 1 or more */
    const int32_t *vwgt; /* [nlocal][ncon] vertex weights (the caller's array), or NULL: all 1 */
    double *xyz;         /* [nlocal][3] the vertices' positions (their cells' centres, the mean of the
                          * nodes, length units), or NULL: for the geometric methods (part_zoltan.c),
                          * given where the partitioner uses them (struct partitioner's multi_how) */
};

/* Collective. The graph of the n cells this rank holds (global ids gid, ascending; node ids
 * nodes[n][el->nnodes]; face tags tags[n][el->nfaces] or NULL, a tagged face lying on the
 * domain's boundary; weights [n][ncon] or NULL). A vertex's neighbours come in the order of the keys of
 * the faces it shares with them (element_face_key); the cells of a face that three cells or
 * more share (a mesh that mesh_build refuses later) are chained in ascending global id. This
 * is, in global id order, the graph a serial build of the whole mesh gives. */
void dgraph_build(MPI_Comm comm, const struct element *el, int64_t n, const int64_t *gid, const int64_t *nodes,
                  const int32_t *tags, const int32_t *weight, int ncon, struct dgraph *g);
/* Collective. The same graph, for the owned cells of a built mesh (at least one ghost layer):
 * each owned cell's face neighbours are local, found through the mesh's faces instead of node ids
 * and a directory; the first ghost layer's vertex numbers are asked of their owners. What a
 * rebalance partitions. */
void dgraph_from_mesh(MPI_Comm comm, const struct mesh *m, const int32_t *weight, int ncon, struct dgraph *g);
/* The cells' centres as the graph's positions: of the owned cells of the mesh the graph was
 * built from (dgraph_from_mesh), or of the cell set (the cells in the same order). */
void dgraph_mesh_centres(struct dgraph *g, const struct mesh *m);
void dgraph_set_centres(struct dgraph *g, const struct cellset *s);
/* Vertex i's total weight over its constraints (1 without weights). */
int32_t dgraph_weight(const struct dgraph *g, int32_t i);
void dgraph_free(struct dgraph *g);

#endif
