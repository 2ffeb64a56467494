/* Ghost synchronisation: plans built once per partition, groups of variables replayed every cycle. */
#ifndef HYDRO_SYNC_H
#define HYDRO_SYNC_H

#include <stdint.h>
#include <mpi.h>

#include "mesh.h"
#include "vars.h"

/* For one item kind: per neighbour rank, the local items to send (owned, in the order the
 * neighbour stores them) and to receive (its ghosts owned by that rank). */
struct sync_plan {
    enum var_center center;
    int nsend, nrecv;
    int *send_rank, *recv_rank;
    int32_t *send_off, *recv_off; /* [n + 1] */
    int32_t *send_idx, *recv_idx;
    /* [n * SYNC_DEPTHS]: at [i * SYNC_DEPTHS + d] the items of neighbour i's list in layers <= d
     * (a list is in the receiver's local order, so by layer: those items are its first ones) */
    int32_t *send_upto, *recv_upto;
    int next_tag; /* tags handed to groups, the same sequence on every rank */
    /* One send and one receive buffer shared by the plan's groups, sized for the widest: a
     * plan has at most one synchronisation in flight (sync_start checks), and separate buffers
     * per group cost about 80 bytes per owned cell at the bench size for nothing. */
    double *sendbuf, *recvbuf;
    int width;       /* doubles per item the buffers hold */
    unsigned gen;    /* bumped when the buffers move: groups rebuild their persistent requests */
    int ngroups;     /* groups alive; the buffers go with the last one */
    const struct sync_group *active;
};

/* Layers a synchronisation may stop at: d refreshes the ghost cells of layers 1..d, the ghost
 * nodes of layers 0..d (mesh.h's numbering); SYNC_DEPTHS - 1 (MAX_LAYERS) refreshes them all. */
enum { SYNC_DEPTHS = MAX_LAYERS + 1 };

/* Collective: builds the cell and node plans of a mesh. */
void sync_plans_build(MPI_Comm comm, const struct mesh *m, struct sync_plan *cells, struct sync_plan *nodes);
void sync_plan_free(struct sync_plan *p);
/* Distinct ranks this plan exchanges with. */
int sync_plan_neighbours(const struct sync_plan *p);

enum sync_kind { SYNC_KIND_PERSISTENT, SYNC_KIND_BASIC };

/* A recorded synchronisation of fixed variables: all of them travel in one message per
 * neighbour, through the plan's buffers. persistent: MPI_Send_init/MPI_Recv_init once (again
 * only if a wider group made the plan's buffers move), MPI_Startall each time; basic:
 * MPI_Isend/MPI_Irecv each time.
 *
 * Material variables (VAR_MATERIAL) travel as the cells' compositions (one code per cell, the
 * bits of the materials it holds) then, variable after variable,
 * each cell's present materials only: a message's length follows the composition of the cells
 * it carries. Receives are posted for every material present; a send request is recorded
 * again only when its message's length changed. A ghost receives its owner's composition and
 * values, 0 for the materials it lacks. */
struct sync_group {
    MPI_Comm comm;
    struct sync_plan *plan;
    struct registry *reg;
    int nvars;
    int *vars;
    int width; /* doubles per item at most, summed over the variables (and the composition code) */
    int depth; /* the ghost layers it refreshes (sync_group_set_depth; all of them by default) */
    int nplain;      /* vars[0 .. nplain): the variables that are not material variables (those follow) */
    int nmat;        /* material groups: the registry's materials; 0 for the others */
    int32_t *send_len; /* doubles of each send message as recorded (material groups: packed) */
    enum sync_kind kind;
    int tag;
    MPI_Request *req; /* receives first, then sends */
    int has_req;      /* persistent requests exist, on the plan's buffers of generation gen */
    unsigned gen;
    int active;
    long long count;       /* synchronisations done */
    long long bytes_sent;  /* by this rank, all synchronisations */
    long long messages;    /* sent by this rank */
    long long recorded;    /* material groups: send requests recorded (at first, then per length change) */
    long long arcane_bytes; /* material groups: what Arcane's packing of the same cells would send */
};

/* Collective over the plan's neighbours (creation order must match across ranks). */
struct sync_group *sync_group_create(MPI_Comm comm, struct sync_plan *plan, struct registry *reg, const int *vars,
                                     int nvars, enum sync_kind kind);
void sync_group_destroy(struct sync_group *g);
/* Refresh only the ghosts of layers up to depth (cells 1..depth, nodes 0..depth), the first
 * items of each message: where the next kernels read no deeper, the outer layers' bytes are
 * not sent. Not collective: every rank sets the same depth on the same group. */
void sync_group_set_depth(struct sync_group *g, int depth);
/* Pack owned values and start the messages; ghosts are valid after sync_finish. */
void sync_start(struct sync_group *g);
void sync_finish(struct sync_group *g);

#endif
