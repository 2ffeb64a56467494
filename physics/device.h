/* The hydro scheme's arrays in an accelerator's memory (the offload build, make offload): copies
 * made when the scheme attaches to a mesh, structures holding the copies' addresses that the
 * kernels are given (DEVICE_FOR, mesh/par.h), and the copies refreshed around what the host
 * computes. In other builds, or with no accelerator, nothing is copied and device_attach
 * leaves d->on 0: the kernels get the host's structures. Plain C and OpenMP, no MPI. */
#ifndef HYDRO_DEVICE_H
#define HYDRO_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "hydro.h"
#include "remap.h"

struct hydro;

enum { DEVICE_BLOCKS_MAX = 40 };

/* What a block holds: the mesh's connectivity (copied once), a field (over when the host has
 * changed it, back when the host reads it: device_fields_to and _from), scratch that neither side
 * reads across the cycles' ends (the arena, the remap's flags: only what the host reads moves,
 * device_array), the walls. */
enum device_kind { BLOCK_MESH, BLOCK_FIELDS, BLOCK_SCRATCH, BLOCK_WALLS };

/* One host array with its copy. */
struct device_block {
    void *host, *dev;
    size_t bytes;
    enum device_kind kind;
};

struct device_copy {
    int on;     /* the arrays are on the accelerator */
    int current; /* its copies hold the fields' latest values (the host's may be older) */
    int here;    /* with current: the host's arrays hold them too (brought back, no kernel since) */
    int device; /* its number: the rank's number modulo the node's devices */
    /* The host's structures with the copies' addresses in place of the arrays', themselves copied
     * to the accelerator; a member no kernel reads there is NULL (one that does fails at once). */
    struct mesh m;
    struct hydro_fields f;
    struct walls walls;
    struct remap_work rw; /* with the remap */
    const struct hydro_params *hp; /* the host's, copied as it is (no arrays) */
    struct device_block block[DEVICE_BLOCKS_MAX];
    int nblocks;
    /* item lists copied there (device_items), and the staging arrays of the values gathered */
    struct device_list {
        const int32_t *host;
        int32_t *dev;
        int n;
    } *lists;
    int nlists;
    double *stage, *stage_here; /* on the accelerator, on the host */
    size_t stage_cap;           /* doubles in each */
    double bytes_to, bytes_from; /* the fields' copies over the run (kept by device_attach) */
};

/* Copies of h's mesh connectivity, fields (the arena whole; the materials' store stays on the
 * host), parameters, walls and remap work arrays, and the structures that point to them, when
 * the build offloads and omp_get_num_devices() finds an accelerator. */
void device_attach(struct device_copy *d, const struct hydro *h);
void device_detach(struct device_copy *d);
/* The remap's sweep set on the host (h->rw.sweep) to the accelerator's copy. */
void device_sweep(struct device_copy *d, int sweep);
/* Every field's array (and the arena) to the accelerator, or back to the host. */
void device_fields_to(struct device_copy *d);
void device_fields_from(struct device_copy *d);
/* bytes of a field's array from host (a part of a copied block) to the accelerator, or back;
 * nothing for an array that has no copy there (no kernel there reads it). */
void device_array(struct device_copy *d, const void *host, size_t bytes, int back);
/* A field's array on the host: item i's ncomp values at data[i * stride]. */
struct device_var {
    double *data;
    int stride, ncomp;
};
enum device_move { DEVICE_OVER, DEVICE_BACK, DEVICE_COMPARE };
enum { DEVICE_STAGE_VARS = 8 }; /* the arrays one device_items call moves in one piece, at most */
/* The values of n items (in increasing order) of the arrays vars[nvars], nvars at most
 * DEVICE_STAGE_VARS, over to the accelerator (gathered here, placed there), back from it
 * (gathered there by one kernel, copied back in one piece, placed here), or compared (gathered
 * there and back, *differ counting the values that differ from the host's bit for bit; nothing
 * placed); an array with no copy there is left out (no kernel there reads it). The list items
 * is copied there at its first use and kept until detach (its owner keeps it unchanged till
 * then). 0, or -1 when the accelerator has no room for the list or the staging, or a copy fails
 * (or nvars is too many). */
int device_items(struct device_copy *d, const struct device_var *vars, int nvars, const int32_t *items, int n,
                 enum device_move how, long long *differ);
/* 1 in the offload build. */
int device_built(void);
/* 1 when OMP_TARGET_OFFLOAD is MANDATORY (any case): the user wants an accelerator or a stop.
 * (Kernels given host structures run on the host whatever the variable says, so the run checks.) */
int device_mandatory(void);
/* The walls anew (without the remap they follow the boundary at every cycle). */
void device_walls(struct device_copy *d, const struct walls *w);

#endif
