/* The hydro scheme's state and parameters: plain arrays (registry data), no communication. */
#ifndef HYDRO_HYDRO_H
#define HYDRO_HYDRO_H

#include <stdint.h>

#include "eos.h"
#include "geometry.h"
#include "matstore.h"
#include "mesh.h"

/* Materials a deck may declare. */
#define HYDRO_MAT_MAX 8

enum limiter_kind { LIMITER_MINMOD, LIMITER_SUPERBEE, LIMITER_VANLEER, LIMITER_COUNT };
/* How the next time step follows from the last: MaHyCo's (cfl min L / (c + |v|), growth bounded,
 * a step below dt_min stops the run) or MicroHydro's (cfl min L / c, growth and decrease
 * bounded, cut by the largest relative density change, clamped to [dt_min, dt_max]). */
enum dt_control { DT_MAHYCO, DT_MICROHYDRO, DT_COUNT };

struct hydro_params {
    int nmat;                       /* materials: material k uses eos[k] and q2[k] */
    double threshold;               /* a material whose volume fraction falls below this leaves the cell */
    int relax;                      /* 1: mixed cells relaxed to one pressure (materials.h) */
    struct eos eos[HYDRO_MAT_MAX];
    double cfl;       /* dt = cfl min L / (c + |v|) (MicroHydro's control: cfl min L / c) */
    double q1, q2[HYDRO_MAT_MAX]; /* artificial viscosity: q = rho (-q1 L c div u + q2 L^2 div u^2) in compression */
    double dt_init, dt_min, dt_max, dt_growth, final_time;
    enum dt_control dt_control;
    double dt_decrease;   /* microhydro: a step is at least (1 - dt_decrease) times the previous one */
    double density_ratio; /* microhydro: a cycle's relative density change above this cuts the next step */
    enum length_kind length;
    int remap; /* 1: Euler remap back to the initial mesh every cycle */
    int remap_heat; /* 1: kinetic energy the remap dissipates becomes internal energy (total energy conserved) */
    enum limiter_kind limiter;
};

/* Field arrays, indexed by local item (mesh numbering). Units: length L, mass M, time T.
 * Cells: rho M/L^3, e (specific internal energy) L^2/T^2, p and q M/(L T^2), c L/T, vol L^3,
 * mass M, len L. Nodes: x L (positions), v L/T (velocity, 3 components), nmass M, force M L/T^2. */
struct hydro_fields {
    double *rho, *e, *p, *c, *q, *vol, *mass, *len;
    /* materials (hydro_params.nmat > 1; NULL with one): a pure cell's values are the cell's
     * (mass, e, p; fraction 1), a mixed cell's in a slot of the store: volume fraction
     * f_k, mass m_k M, specific internal energy e_k L^2/T^2, pressure p_k, e_k and p_k at level
     * n, 0 where material k is absent. See matstore.h and materials.h. */
    struct matstore *ms;
    double *x, *v, *nmass, *force;
    double *x_init; /* the initial mesh, where the remap returns */
    double *corner; /* scratch: [ncells][nodes per cell][3] corner forces (p + q) C_cp */
};

/* Wall boundary conditions: per node, up to 3 orthonormal directions along which the
 * velocity is zero (one per distinct wall direction around the node). Node n's are
 * dir[walls_first(n) .. walls_first(n + 1)): an offset inside its block of WALLS_BLOCK nodes
 * (one byte per node) and each block's start, instead of a count and a start per node (5 bytes;
 * most nodes have none). */
enum { WALLS_BLOCK = 64 }; /* a block holds at most 3 x 64 directions: offsets below 256 */
struct walls {
    int32_t nnodes;
    uint8_t *off;  /* [nnodes + 1] directions of the nodes before n in n's block */
    int32_t *base; /* [nnodes / WALLS_BLOCK + 1] directions before each block */
    double *dir;   /* [all directions][3] unit normals: only boundary nodes take room */
};
static inline int32_t walls_first(const struct walls *w, int32_t n)
{
    return w->base[n / WALLS_BLOCK] + w->off[n];
}

/* Where a cycle failed: the local cell (or -1), what went wrong and the check that saw it. The
 * texts are held, not pointed to, so that a record an accelerator made reads the same on the host
 * (its string constants are in its own memory). */
enum { HYDRO_ERROR_WHAT = 112, HYDRO_ERROR_FILE = 24 };
struct hydro_error {
    int32_t cell;
    char what[HYDRO_ERROR_WHAT];
    char file[HYDRO_ERROR_FILE];
    int line;
};

/* s into to[n], cut to fit. */
static inline void hydro_error_text(char *to, int n, const char *s)
{
    int i = 0;
    for (; i < n - 1 && s[i]; i++)
        to[i] = s[i];
    to[i] = '\0';
}

/* Record a failure of cell c at this check; returns -1 for `return HYDRO_FAIL(...)`. */
#define HYDRO_FAIL(err, c, what) hydro_fail_at((err), (c), (what), __FILE__, __LINE__)
static inline int hydro_fail_at(struct hydro_error *err, int32_t c, const char *what, const char *file, int line)
{
    err->cell = c;
    hydro_error_text(err->what, HYDRO_ERROR_WHAT, what);
    hydro_error_text(err->file, HYDRO_ERROR_FILE, file);
    err->line = line;
    return -1;
}

/* No failure yet: a loop's error record before its cells are done (any failure's cell is smaller). */
#define HYDRO_NO_ERROR ((struct hydro_error){.cell = INT32_MAX})
/* A thread's first failure into its loop's: the smallest cell wins, whichever thread saw it, so
 * that the failure reported is the same for any thread count. */
static inline void hydro_error_merge(struct hydro_error *into, const struct hydro_error *mine)
{
    if (mine->cell < into->cell)
        *into = *mine;
}

#endif
