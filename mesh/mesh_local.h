/* Private to mesh/: what ghost.c hands to mesh.c to number and connect the local mesh; cellset sizing. */
#ifndef HYDRO_MESH_LOCAL_H
#define HYDRO_MESH_LOCAL_H

#include "cellset.h"
#include "idmap.h"
#include "mesh.h"

/* Makes room in s for `cells` more cells and `nodes` more nodes (exact sizes, node index
 * included), so that a set whose size is known grows once instead of by doubling. */
void cellset_reserve(struct cellset *s, int64_t cells, int64_t nodes);

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
 * in which case the mesh is unusable. own, ghosts and ghost_owner are freed (emptied) on the
 * way, as soon as they are used up, so that they never sit beside the face arrays. */
struct mesh *mesh_assemble(int me, struct cellset *own, struct cellset *ghosts, const int64_t *layer_end,
                           int nlayers, struct idmap *ghost_owner, const struct nodelists *known,
                           const struct cellset *beyond, long long *nonconforming);

#endif
