/* Work accounting of the time loop's physics kernels, and the SMPI build's compute model. */
#ifndef HYDRO_KERNELS_H
#define HYDRO_KERNELS_H

#include <stdint.h>
#include <stdio.h>

#include "cycle.h"
#include "mesh.h"

const char *kernel_name(enum kernel k);

/* Sufficient statistics of the least-squares fit t = a n + b m over a kernel's calls. */
struct kernel_sums {
    long calls;
    double n, m, t;             /* items, active items, seconds */
    double nn, nm, mm, tn, tm;  /* products summed over calls */
};
void kernel_sums_add(struct kernel_sums *s, double n, double m, double t);
/* Pointers to its sums (every field but calls), to add them over ranks. */
enum { KERNEL_SUMS_FIELDS = 8 };
void kernel_sums_fields(struct kernel_sums *s, double *field[KERNEL_SUMS_FIELDS]);
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
    double part_dt[K_COUNT];        /* per kernel: measured time of its call's parts so far (the
                                     * parts of two kernels interleave) */
    int32_t *act_cells, *act_nodes; /* with on: prefix counts of active cells and moved nodes */
    uint32_t *cell_steps; /* with track: per local cell, remap steps it was active in since the last reset */
    int track;            /* count cell_steps (load balancing's cost model) */
    double pending;                 /* model: seconds of compute not yet charged (kernels_flush) */
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
/* The mesh a run computes on, with or without the remap (its kernels count active items). */
void kernels_attach(struct kernels *k, const struct mesh *m, int remap);
void kernels_detach(struct kernels *k);
/* Prefix counts of moved nodes and of cells with a moved node (moved: [nnodes] flags), after
 * the remap's targets; not part of any kernel's time (the accounting's own work). */
void kernels_count_active(struct kernels *k, const struct mesh *m, const unsigned char *moved);
/* The call measured last (kernels_begin ... kernels_stop) as kernel id over its items [0, n) of
 * m's cells or nodes; in the SMPI model its time is added to what this rank computes before its
 * next communication (kernels_flush). */
void kernels_account(struct kernels *k, const struct mesh *m, enum kernel id, int32_t n);
/* The same for a call made in two parts (struct item_split), after each: the measured times add
 * up and the call is counted once, at its last part; in the model each part charges share (its
 * fraction of the items) of the whole call's time before the next communication. */
void kernels_account_part(struct kernels *k, const struct mesh *m, enum kernel id, int32_t n, double share, int last);
/* SMPI model: charge the compute since the last communication in one piece, before the next one
 * (one simulated action per compute phase, as SMPI makes of measured time). */
void kernels_flush(struct kernels *k);

/* Load balancing: time every call (as for a report) and count each cell's active remap steps
 * (cell_steps), from the next attach on. */
void kernels_track(struct kernels *k);
/* What an active cell costs per remap step over what a quiet cell costs per cycle, from the fits
 * of every kernel's calls summed in sums (one rank's, or every rank's added): sum b m over active
 * owned cell-steps, against sum a n over owned cell-cycles (ghost work counted on the owned
 * cells). 0 before any remap step. *lagrange_share: the Lagrange phase's kernels' part of that
 * quiet cost (0.5 when nothing was measured). */
double kernels_active_ratio(const struct kernel_sums sums[K_COUNT], double *lagrange_share);
/* One line per kernel: name calls items active_items seconds a b (seconds per item and per active
 * item), after a comment header; the model reads a and b back. */
void kernels_write(const struct kernels *k, FILE *out, const char *what);

#endif
