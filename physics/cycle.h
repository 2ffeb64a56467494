/* The hydro cycle as the algorithm: Lagrange phase, remap steps, time-step candidate, with its
 * synchronisation points named. Plain C: communication, timers and accounting are reached
 * through a small table of functions (struct cycle_ops, in the manner of CoMD's HaloExchange)
 * that the miniapp implements (miniapp/hydro_case.c). */
#ifndef HYDRO_CYCLE_H
#define HYDRO_CYCLE_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "hydro.h"
#include "remap.h"

/* The physics kernels, each timed and counted by the miniapp (HYDRO_KERNEL_REPORT, the SMPI
 * compute model): id, name, the items it loops over, what it does. "Active" items are those a
 * remap kernel really works on (cells with a node that moves, moved nodes): the remap skips the
 * rest, so its cost is a per-item part plus a per-active-item part. */
#define KERNEL_LIST(X)                                                                       \
    X(K_SAVE, "lagrange_save", ITEMS_CELLS, "cells: materials' level-n state")              \
    X(K_GEOMETRY, "lagrange_geometry", ITEMS_CELLS, "cells: volumes, corner forces")          \
    X(K_FORCES, "lagrange_forces", ITEMS_NODES, "nodes: sum of the corner forces")            \
    X(K_VELOCITY, "lagrange_velocity", ITEMS_NODES, "nodes: velocity, walls")                 \
    X(K_POSITIONS, "lagrange_positions", ITEMS_NODES, "nodes: move")                          \
    X(K_CELLS, "lagrange_cells", ITEMS_CELLS, "cells: volume, density, energy, EOS, viscosity") \
    X(K_DT, "lagrange_dt", ITEMS_CELLS, "owned cells: the time step candidate")               \
    X(K_R_TARGETS, "remap_targets", ITEMS_NODES, "nodes: targets of the sweep")              \
    X(K_R_VALUES, "remap_values", ITEMS_CELLS, "cells: values")                              \
    X(K_R_SWEPT, "remap_swept", ITEMS_CELLS, "cells: swept volumes of their faces")          \
    X(K_R_SLOPES, "remap_slopes", ITEMS_CELLS, "cells: least-squares slopes, limited")       \
    X(K_R_MSLOPES, "remap_material_slopes", ITEMS_CELLS, "cells along material boundaries: their materials' slopes") \
    X(K_R_CELLS, "remap_cells", ITEMS_CELLS, "cells: fluxes and new values")                 \
    X(K_R_NODES, "remap_nodes", ITEMS_NODES, "nodes: new velocity and mass")                 \
    X(K_R_FINISH, "remap_finish", ITEMS_CELLS, "cells: volume, density, energy at the targets") \
    X(K_R_MOVE, "remap_move", ITEMS_NODES, "nodes: back to the targets")

enum kernel_items { ITEMS_CELLS, ITEMS_NODES };
enum kernel {
#define X(id, name, items, help) id,
    KERNEL_LIST(X)
#undef X
        K_COUNT
};
/* The first remap kernel: from here on a kernel's work has an active part. */
#define K_FIRST_REMAP K_R_TARGETS

/* Where the cycle synchronises ghosts. A synchronisation pattern (miniapp/sync_points.c) says
 * which fields each point carries; a point of no field costs nothing. */
#define SYNC_POINT_LIST(X)                                                                          \
    X(SP_INIT, "init", "the initial state: every field the cycle reads on ghosts")                  \
    X(SP_SAVE, "save", "level n saved: viscosity, density, internal energy, volume, pressure")      \
    X(SP_VELOCITY, "velocity", "node velocities after the Lagrange update")                         \
    X(SP_POSITION, "position", "node positions after the move")                                     \
    X(SP_REMAP_VALUES, "remap_values", "the cell values the remap reconstructs")                    \
    X(SP_REMAP_SLOPES, "remap_slopes", "their limited slopes")                                      \
    X(SP_REMAP_CELLS, "remap_cells", "remapped cell mass, mean velocity, internal and kinetic energy") \
    X(SP_REMAP_NODES, "remap_nodes", "node velocities after the remap")                             \
    X(SP_STEP_END, "step_end", "after each remap step")                                             \
    X(SP_STEP_BETWEEN, "step_between", "between two remap steps (not after the last)")              \
    X(SP_END_LAGRANGE, "end_lagrange", "end of a cycle without remap, beside the dt reduction")     \
    X(SP_END_REMAP, "end_remap", "end of a cycle with remap, beside the dt reduction")

enum sync_point {
#define X(id, name, help) id,
    SYNC_POINT_LIST(X)
#undef X
        SP_COUNT
};

enum cycle_phase { PHASE_LAGRANGE, PHASE_REMAP };

/* A kernel call made in two parts around the end of a synchronisation (overlap): the inner
 * items, which read no ghost value it brings, then the outer ones. */
enum kernel_part { PART_ALL, PART_INNER, PART_OUTER };

/* A kernel's items in that order: item[0 .. ninner) inner, item[ninner .. n) outer, each part
 * ascending; or no list (item NULL) when [0, n) is all inner (ninner = n) or all outer (0): where
 * nothing stays in flight, or every item is inner (one rank). */
struct item_split {
    int32_t n, ninner;
    int32_t *item;
};

/* What the cycle needs from outside physics. ctx is passed back to every call. */
struct cycle_ops {
    void *ctx;
    /* Ghosts of the point's fields get their owners' values (returns when they have). */
    void (*sync)(void *ctx, enum sync_point p);
    /* The same in two halves, for the points the cycle computes across: start packs the owned
     * values it sends (later changes to them do not travel) and may leave the exchange in
     * flight; ghosts of the point's fields keep their old values until finish, and the cycle
     * computes nothing between that needs the new ones. */
    void (*sync_start)(void *ctx, enum sync_point p);
    void (*sync_finish)(void *ctx, enum sync_point p);
    /* The cycle's reduction, every value a min over ranks: v[0] the dt candidate, v[1] the
     * failure flag (-1 on a failing rank), v[2] minus the largest density ratio; started, then
     * finished after the end-of-cycle point. */
    void (*reduce_start)(void *ctx, const double v[3]);
    void (*reduce_finish)(void *ctx, double out[3]);
    /* Around each phase (timers), and around each kernel call (accounting: kernel_end comes
     * right after the call; its items are those of struct hydro's n[k], or with a part those of
     * hydro_split(h, k)). */
    void (*phase)(void *ctx, enum cycle_phase ph, int begin);
    void (*kernel_begin)(void *ctx);
    void (*kernel_end)(void *ctx, enum kernel k, enum kernel_part part);
    /* After the Lagrange phase, before the remap: the load balancer's extra work, if any. */
    void (*after_lagrange)(void *ctx);
    /* Where the kernels run on an accelerator (the offload build): the values point p sends back
     * from it (back) before the point, or the ghosts it writes over to it after; for a point left
     * in flight by sync_start, nothing over until sync_finish, which sends them over itself. */
    void (*device_point)(void *ctx, enum sync_point p, int back);
};

/* The scheme's state on one rank's mesh. */
struct hydro {
    const struct mesh *m;
    struct hydro_params hp;
    struct hydro_fields f;
    struct walls walls;
    struct remap_work rw; /* with hp.remap */
    int split;            /* directional remap: one step per axis, the first rotating */
    int remap_all;        /* every item active in the remap (HYDRO_REMAP_ALL, for tests): nothing skipped */
    int overlap;          /* exchanges stay in flight over kernels (hydro_splits_build) */
    int64_t remap_near, remap_owned; /* over the remap steps: owned cells computed, owned cells */
    int32_t n[K_COUNT];   /* items each kernel computes: [0, n[k]) of its cells or nodes */
    /* the kernels computed across a synchronisation, their n[k] items split (hydro_splits_build) */
    struct item_split values_split, nodes_split, finish_split;
    double *arena;        /* scratch one phase writes and the other overwrites (see hydro_fields_attach) */
    size_t narena;        /* its doubles */
    /* what the last cycle found */
    int failed;                   /* a cell failed on this rank */
    struct hydro_error err, err2; /* the first failure of the cycle, and a later one (ignored) */
    double cand;                  /* this rank's dt candidate, -1 when failed */
    double density_ratio;         /* microhydro: the largest (rho1 - rho0) / rho1 of the Lagrange phase */
    int32_t cand_cell;            /* the owned cell giving it */
    struct xsum removed[HYDRO_MAT_MAX]; /* mass of each material that left this rank's owned cells (threshold) */
    struct device_copy dev; /* the arrays on an accelerator (the offload build) */
};

/* After n[] is set on a new mesh: the item splits (remap_values', remap_nodes' and remap_finish's
 * items; only with the remap), lists only where overlap (exchanges left in flight) needs them.
 * Free them before the mesh changes. */
void hydro_splits_build(struct hydro *h, int overlap);
void hydro_splits_free(struct hydro *h);
/* The split of kernel k's items, or NULL for a kernel always called whole. */
const struct item_split *hydro_split(const struct hydro *h, enum kernel k);

/* The fields' latest values into the host's arrays: the offload build keeps them on the
 * accelerator from one cycle to the next; anything but the cycle reads them after this (the
 * accelerator's copies stay valid). Before the host writes them: hydro_to_host_for_writing (the
 * next cycle copies every field over). */
void hydro_to_host(struct hydro *h);
void hydro_to_host_for_writing(struct hydro *h);

/* One cycle (number cycle: the first sweep of a directional remap) with steps dt and dt_old:
 * the state goes from level n to n + 1, h->failed and the candidate are set, and out gets the
 * reduced candidate, failure flag (out[1] < 0: some rank failed) and minus the largest density
 * ratio (out[2]; 0 with MaHyCo's control). */
void hydro_cycle(struct hydro *h, const struct cycle_ops *ops, long cycle, double dt, double dt_old, double out[3]);

/* Owned totals, exact (xsum.h: the same bits whatever the partition and the order of the
 * terms): mass, internal + kinetic energy and, with several materials, each material's mass
 * then the mass each lost to the threshold (hydro_totals_count sums). */
int hydro_totals_count(const struct hydro *h);
void hydro_totals(const struct hydro *h, struct xsum *out);

#endif
