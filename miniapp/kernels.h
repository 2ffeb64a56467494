/* Work accounting of the time loop's physics kernels, and the SMPI build's compute model. */
#ifndef HYDRO_KERNELS_H
#define HYDRO_KERNELS_H

#include <stdio.h>

/* The kernels the scheme times one by one. "items" are the cells or nodes a call loops over;
 * "active" items are those a remap kernel really works on (cells with a node that moves, moved
 * nodes): the remap skips the rest, so its cost is a per-item part plus a per-active-item part. */
#define KERNEL_LIST(X)                                                          \
    X(K_SAVE, "lagrange_save", "cells: copy the state at the start of the step") \
    X(K_GEOMETRY, "lagrange_geometry", "cells: corner vectors")                  \
    X(K_FORCES, "lagrange_forces", "nodes: corner forces")                       \
    X(K_VELOCITY, "lagrange_velocity", "nodes: velocity, walls")                 \
    X(K_POSITIONS, "lagrange_positions", "nodes: move")                          \
    X(K_CELLS, "lagrange_cells", "cells: volume, density, energy, EOS, viscosity") \
    X(K_DT, "lagrange_dt", "owned cells: the time step candidate")               \
    X(K_R_TARGETS, "remap_targets", "nodes: targets of the sweep")              \
    X(K_R_VALUES, "remap_values", "cells: values and centres")                  \
    X(K_R_SWEPT, "remap_swept", "cells: swept volumes of their faces")          \
    X(K_R_GRADIENTS, "remap_gradients", "cells: least-squares slopes")          \
    X(K_R_LIMIT, "remap_limit", "cells: slope limiter")                         \
    X(K_R_CELLS, "remap_cells", "cells: fluxes and new values")                 \
    X(K_R_NODES, "remap_nodes", "nodes: new velocity and mass")                 \
    X(K_R_FINISH, "remap_finish", "cells: volume, density, energy at the targets") \
    X(K_R_MOVE, "remap_move", "nodes: back to the targets")

enum kernel {
#define X(id, name, help) id,
    KERNEL_LIST(X)
#undef X
        K_COUNT
};
const char *kernel_name(enum kernel k);

/* Sufficient statistics of the least-squares fit t = a n + b m over a kernel's calls. */
struct kernel_sums {
    long calls;
    double n, m, t;             /* items, active items, seconds */
    double nn, nm, mm, tn, tm;  /* products summed over calls */
};
void kernel_sums_add(struct kernel_sums *s, double n, double m, double t);
/* Seconds per item (a) and per active item (b), both >= 0. Where m is always n, or too close to
 * a multiple of it to tell apart, b = 0 and a = sum(t n) / sum(n n). */
void kernel_fit(const struct kernel_sums *s, double *a, double *b);

/* Owned and ghost parts of a call's items (ghost work is scaled apart in the model). */
struct kernel_work {
    double n_own, n_ghost, m_own, m_ghost;
};

struct kernels {
    int on;     /* time and count every call (HYDRO_KERNEL_REPORT or the model) */
    int model;  /* SMPI build, HYDRO_COMPUTE_MODEL: each call costs its work, simulated */
    double scale_own, scale_ghost; /* model: work multipliers (s, s^((dim-1)/dim)) */
    double a[K_COUNT], b[K_COUNT]; /* model: seconds per item and per active item */
    const char *report;            /* HYDRO_KERNEL_REPORT: file written at the end, or NULL */
    struct kernel_sums sums[K_COUNT];
    double t0, dt;
};

/* From the environment: HYDRO_KERNEL_REPORT=FILE, HYDRO_COMPUTE_MODEL=FILE and
 * HYDRO_COMPUTE_SCALE=S. Returns 0, or -1 with a message in why (bad model file or scale, or a
 * model outside the SMPI build). */
int kernels_init(struct kernels *k, int dim, int smpi, char *why, size_t len);
/* A model file: the report format below. Returns 0 or -1 with "FILE:LINE: message" in why. */
int kernels_read_model(struct kernels *k, const char *path, char *why, size_t len);
/* Around a call: begin, stop right after it (measures), end once its work is counted (accounts
 * it; returns the model's seconds, 0 without the model). */
void kernels_begin(struct kernels *k);
void kernels_stop(struct kernels *k);
double kernels_end(struct kernels *k, enum kernel id, const struct kernel_work *w);
/* One line per kernel: name calls items active_items seconds a b (seconds per item and per active
 * item), after a comment header; the model reads a and b back. */
void kernels_write(const struct kernels *k, FILE *out, const char *what);

#endif
