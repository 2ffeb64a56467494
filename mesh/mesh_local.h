/* Private to mesh/: what ghost.c hands to mesh.c to number and connect the local mesh. */
#ifndef HYDRO_MESH_LOCAL_H
#define HYDRO_MESH_LOCAL_H

#include "cellset.h"
#include "idmap.h"
#include "mesh.h"

/* Cells around nodes over the whole mesh, each list in ascending cell gid, for the nodes
 * shared by several ranks and all nodes of ghost cells. */
struct nodelists {
    struct idmap index; /* node gid -> slot */
    int64_t nslots, cap_slots;
    int64_t *start;
    int32_t *count;
    int64_t nent, cap_ent;
    int64_t *cell;
    int32_t *owner;
};

/* The cell other than gid that holds all nodes of face f of a cell with node gids nodes,
 * from the lists: *nb = its gid and *owner its rank, or *nb = -1 on the boundary. */
void local_face_neighbour(const struct element *el, const int64_t *nodes, int f, int64_t gid,
                          const struct nodelists *known, int64_t *nb, int32_t *owner);

/* Ghost cells come in layers: ghosts cells [layer_end[l-1], layer_end[l]) form layer l
 * (layer_end[0] = 0); ghost_owner maps their gid to the owner rank. beyond holds cells
 * past the last layer whose numbering names a face of the last layer. *nonconforming gets
 * the smallest gid of a cell with a face shared by three cells or more (LLONG_MAX: none),
 * in which case the mesh is unusable. */
struct mesh *mesh_assemble(int me, const struct cellset *own, const struct cellset *ghosts,
                           const int64_t *layer_end, int nlayers, const struct idmap *ghost_owner,
                           const struct nodelists *known, const struct cellset *beyond, long long *nonconforming);

#endif
