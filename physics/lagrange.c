/* Lagrange phase (see lagrange.h). */
#include "lagrange.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "materials.h"
#include "par.h"

/* A cell's level-n density, energy and pressure need no copy: lagrange_cell reads them before it
 * replaces them, and nothing changes them in between. Mixed cells' materials have theirs. */
void lagrange_save(int nmat, struct hydro_fields *f, int32_t nc)
{
    if (nmat > 1)
        mat_save(nmat, f, nc);
}

/* The corner forces are the corner vectors times p + q here, in the cell loop, which reads p and q
 * in order: the node gather then reads the corners alone (an indirect read of p and q per corner
 * less; the same product, so the same bits). */
static inline void cell_corner_forces(const struct mesh *m, struct hydro_fields *f, int32_t c, int nv)
{
    double *C = f->corner + (size_t)c * nv * 3;
    f->vol[c] = geom_corners_at(m->el, f->x, m->cell_nodes + (size_t)c * nv, (double(*)[3])C);
    const double pq = f->p[c] + f->q[c];
    for (int i = 0; i < 3 * nv; i++)
        C[i] *= pq;
}

void lagrange_geometry(const struct mesh *m, struct hydro_fields *f, int32_t nc)
{
    const int dim = m->el->dim;
    DEVICE_FOR(nc, m)
    for (int32_t c = 0; c < nc; c++)
        BY_ELEMENT(dim, cell_corner_forces(m, f, c, 4), cell_corner_forces(m, f, c, 8));
}

void lagrange_node_mass(const struct mesh *m, struct hydro_fields *f, int32_t nn)
{
    int nv = m->el->nnodes;
    PAR_FOR(nn)
    for (int32_t n = 0; n < nn; n++) {
        double s = 0;
        for (int32_t k = m->node_cell_off[n]; k < m->node_cell_off[n + 1]; k++)
            s += f->mass[mesh_nc_cell(m->node_cells[k])];
        f->nmass[n] = s / nv;
    }
}

/* The force on node n; the loops below run per element kind (BY_ELEMENT, geometry.h). */
static inline void node_force(const struct mesh *m, struct hydro_fields *f, int32_t n, int nv, int dim)
{
    double F[3] = {0, 0, 0};
    for (int32_t k = m->node_cell_off[n]; k < m->node_cell_off[n + 1]; k++) {
        const int32_t e = m->node_cells[k];
        const double *C = f->corner + ((size_t)mesh_nc_cell(e) * nv + (size_t)mesh_nc_corner(e)) * 3;
        for (int d = 0; d < dim; d++)
            F[d] += C[d];
    }
    memcpy(f->force + 3 * (size_t)n, F, sizeof F);
}

void lagrange_forces(const struct mesh *m, struct hydro_fields *f, int32_t nn)
{
    const int dim = m->el->dim;
    DEVICE_FOR(nn, m)
    for (int32_t n = 0; n < nn; n++)
        BY_ELEMENT(dim, node_force(m, f, n, 4, 2), node_force(m, f, n, 8, 3));
}

void walls_apply(const struct walls *w, int32_t node, double v[3])
{
    for (int32_t k = walls_first(w, node); k < walls_first(w, node + 1); k++) {
        const double *n = w->dir + (size_t)k * 3;
        double vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
        for (int d = 0; d < 3; d++)
            v[d] -= vn * n[d];
    }
}

void lagrange_velocity(struct hydro_fields *f, const struct walls *w, int32_t nn, int dim, double dt_half)
{
    DEVICE_FOR(nn, f)
    for (int32_t n = 0; n < nn; n++) {
        double *v = f->v + 3 * (size_t)n;
        const double *F = f->force + 3 * (size_t)n;
        const double s = dt_half / f->nmass[n];
        for (int d = 0; d < dim; d++)
            v[d] += s * F[d];
        walls_apply(w, n, v);
    }
}

void lagrange_positions(struct hydro_fields *f, int32_t nn, int dim, double dt)
{
    DEVICE_FOR(nn, f)
    for (int32_t n = 0; n < nn; n++)
        for (int d = 0; d < dim; d++)
            f->x[3 * (size_t)n + d] += dt * f->v[3 * (size_t)n + d];
}

int lagrange_eos_cell(const struct hydro_params *hp, struct hydro_fields *f, int32_t c, struct hydro_error *err)
{
    if (hp->nmat > 1)
        return mat_eos_cell(hp, f, c) ? HYDRO_FAIL(err, c, "a material's equation of state has no sound speed (NaN "
                                                  "or negative pressure)")
                                      : 0;
    const struct eos *q = &hp->eos[0];
    f->p[c] = eos_pressure(q, f->rho[c], f->e[c]);
    f->c[c] = eos_sound_speed(q, f->rho[c], f->p[c]);
    if (!isfinite(f->p[c]) || !isfinite(f->c[c]))
        return HYDRO_FAIL(err, c, "the equation of state has no sound speed (NaN or negative pressure)");
    return 0;
}

int lagrange_eos(const struct hydro_params *hp, struct hydro_fields *f, int32_t nc, struct hydro_error *err)
{
    struct hydro_error first = HYDRO_NO_ERROR; /* every cell is done: a failure dump holds no stale pressures */
    PAR_REGION(nc)
    {
        struct hydro_error mine = HYDRO_NO_ERROR, e;
        PAR_LOOP
        for (int32_t c = 0; c < nc; c++)
            if (lagrange_eos_cell(hp, f, c, &e) && c < mine.cell)
                mine = e;
        PAR_CRITICAL
        hydro_error_merge(&first, &mine);
    }
    if (first.cell == INT32_MAX)
        return 0;
    *err = first;
    return -1;
}

/* Cell c from level n to n + 1: volume, length, density, viscosity, energy and EOS. Returns 0, or
 * -1 with err naming the check that failed. *change: its relative density change (rho1 - rho0) / rho1. */
static inline int lagrange_cell(const struct mesh *m, struct hydro_fields *f, const struct hydro_params *hp,
                                int32_t c, double dt, double *change, struct hydro_error *err, int nv)
{
    const struct element *el = m->el;
    /* the volume only: the next cycle computes its corner vectors */
    double V = f->vol[c] = geom_volume_at(el, f->x, m->cell_nodes + (size_t)c * nv);
    if (!(V > 0))
        return HYDRO_FAIL(err, c, V <= 0 ? "non-positive volume" : "volume is NaN");
    if (hp->length == LENGTH_VOLUME) /* no positions needed */
        f->len[c] = geom_length(el, NULL, V, hp->length);
    else { /* nv given, not read from the element: otherwise GCC stops inlining this body (+5% 2D) */
        double xc[MAX_CELL_NODES][3];
        mesh_cell_coords_n(m, f->x, c, xc, nv);
        f->len[c] = geom_length(el, (const double(*)[3])xc, V, hp->length);
    }
    double rho1 = f->mass[c] / V, rho0 = f->rho[c]; /* level n until replaced below */
    double dtau = 1.0 / rho1 - 1.0 / rho0;
    double tau = 0.5 * (1.0 / rho0 + 1.0 / rho1);
    double divu = dtau / (dt * tau);
    *change = (rho1 - rho0) / rho1;
    if (hp->nmat > 1) { /* each material's viscosity and energy, the cell's means */
        const char *what;
        f->rho[c] = rho1;
        return mat_lagrange_cell(hp, f, c, rho0, rho1, divu, &what) ? HYDRO_FAIL(err, c, what) : 0;
    }
    double q = 0;
    const struct eos *eos = &hp->eos[0];
    if (divu < 0) /* compression only */
        q = (1.0 / tau) * (-hp->q1 * f->len[c] * f->c[c] * divu + hp->q2[0] * f->len[c] * f->len[c] * divu * divu);
    f->q[c] = q;
    f->rho[c] = rho1;
    double e1;
    if (eos_energy_update(eos, f->e[c], f->p[c], q, rho1, dtau, &e1) < 0) /* level n e and p */
        return HYDRO_FAIL(err, c, "the energy update's Newton iteration did not converge");
    f->e[c] = e1;
    f->p[c] = eos_pressure(eos, rho1, e1);
    f->c[c] = eos_sound_speed(eos, rho1, f->p[c]);
    if (!isfinite(e1) || !isfinite(f->p[c]) || !isfinite(f->c[c]) || !isfinite(q))
        return HYDRO_FAIL(err, c, "NaN in the energy or pressure");
    return 0;
}

int lagrange_cells(const struct mesh *m, struct hydro_fields *f, const struct hydro_params *hp, int32_t nc, double dt,
                   double *ratio, struct hydro_error *err)
{
    struct hydro_error first = HYDRO_NO_ERROR; /* every cell is done, the smallest failing one reported */
    double largest = 0;
    DEVICE_FOR_REDUCE(nc, m, reduction(max : largest), first, largest)
    for (int32_t c = 0; c < nc; c++) {
        double change = 0;
        struct hydro_error e;
        if (BY_ELEMENT(m->el->dim, lagrange_cell(m, f, hp, c, dt, &change, &e, 4),
                       lagrange_cell(m, f, hp, c, dt, &change, &e, 8))) {
            PAR_CRITICAL /* failures only: the smallest cell wins, whichever thread saw it */
            hydro_error_merge(&first, &e);
        }
        largest = change > largest ? change : largest; /* a NaN change never counts, in any order */
    }
    if (ratio)
        *ratio = largest;
    if (first.cell == INT32_MAX)
        return 0;
    *err = first;
    return -1;
}

/* The largest squared node speed of cell c. */
static inline double cell_v2max(const struct mesh *m, const double *v, int32_t c, int nv, int dim)
{
    double v2max = 0;
    const int32_t *nodes = m->cell_nodes + (size_t)c * nv;
    for (int k = 0; k < nv; k++) {
        const double *vk = v + 3 * (size_t)nodes[k];
        double s = vk[0] * vk[0] + vk[1] * vk[1];
        if (dim == 3)
            s += vk[2] * vk[2];
        v2max = s > v2max ? s : v2max;
    }
    return v2max;
}

/* Cell c's time step candidate: sqrt is monotonic, so one per cell gives the same maximum. */
static inline double cell_dt(const struct mesh *m, const struct hydro_fields *f, const struct hydro_params *hp,
                             int32_t c, int dim)
{
    double v2max = BY_ELEMENT(dim, cell_v2max(m, f->v, c, 4, 2), cell_v2max(m, f->v, c, 8, 3));
    double flow = hp->dt_control == DT_MICROHYDRO ? 0.0 : sqrt(v2max); /* MicroHydro: sound alone */
    return hp->cfl * f->len[c] / (f->c[c] + flow);
}

/* A candidate and its cell: the smaller step wins, and among equal ones the smaller cell, in any
 * order of the cells (a NaN step never wins). */
struct dt_cand {
    double dt;
    int32_t cell;
};
PAR_PRAGMA(omp declare reduction(dt_min : struct dt_cand : omp_out = omp_in.dt < omp_out.dt || \
           (omp_in.dt == omp_out.dt && omp_in.cell < omp_out.cell) ? omp_in : omp_out) \
           initializer(omp_priv = (struct dt_cand){INFINITY, INT32_MAX}))

double lagrange_dt_candidate(const struct mesh *m, const struct hydro_fields *f, const struct hydro_params *hp,
                             int32_t nc, int32_t *cell)
{
    const int dim = m->el->dim;
    struct dt_cand best = {INFINITY, 0};
#ifdef HYDRO_OFFLOAD /* GCC's NVIDIA back end lacks the 16-byte atomics of the pair's reduction: the step, then its cell */
    double step = INFINITY;
    int32_t at = INT32_MAX;
    DEVICE_FOR_REDUCE(nc, m, reduction(min : step), step)
    for (int32_t c = 0; c < nc; c++) {
        const double dt = cell_dt(m, f, hp, c, dim);
        step = dt < step ? dt : step;
    }
    DEVICE_FOR_REDUCE(nc, m, reduction(min : at), at)
    for (int32_t c = 0; c < nc; c++)
        at = cell_dt(m, f, hp, c, dim) == step && c < at ? c : at;
    best = (struct dt_cand){step, at == INT32_MAX ? 0 : at};
#else
    DEVICE_FOR_REDUCE(nc, m, reduction(dt_min : best), best)
    for (int32_t c = 0; c < nc; c++) {
        const double dt = cell_dt(m, f, hp, c, dim);
        if (dt < best.dt || (dt == best.dt && c < best.cell))
            best = (struct dt_cand){dt, c};
    }
#endif
    *cell = best.cell;
    return best.dt;
}

/* Whether face f of local cell c is on the domain boundary. */
static int boundary_face(const struct mesh *m, int32_t c, int f)
{
    return m->face_cells[2 * (size_t)m->cell_faces[(size_t)c * m->el->nfaces + f] + 1] == FACE_BOUNDARY;
}

/* Wall directions at node n: the unit normals of the boundary faces around it, in the node's
 * cell order (ascending gid) and each cell's face order, grouped when within 30 degrees of
 * each other (a curved wall), each group's summed normal made orthonormal to the previous.
 * Returns how many (at most the dimension) and puts them in dir. */
static int node_walls(const struct mesh *m, const double *x, int32_t n, double dir[3][3])
{
    const struct element *el = m->el;
    const int nf = el->nfaces;
    double group[8][3];
    int ngroup = 0, count = 0;
    for (int32_t k = m->node_cell_off[n]; k < m->node_cell_off[n + 1]; k++) {
        int32_t c = mesh_nc_cell(m->node_cells[k]);
        int corner = mesh_nc_corner(m->node_cells[k]);
        for (int f = 0; f < nf; f++) {
            if (!boundary_face(m, c, f))
                continue;
            int on = 0;
            for (int i = 0; i < el->nface_nodes; i++)
                on |= el->face_nodes[f][i] == corner;
            if (!on)
                continue;
            double xc[MAX_CELL_NODES][3], nrm[3];
            mesh_cell_coords(m, x, c, xc);
            geom_face_normal(el, (const double(*)[3])xc, f, nrm);
            double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
            if (!(len > 0))
                continue;
            int g;
            for (g = 0; g < ngroup; g++) {
                double gl = sqrt(group[g][0] * group[g][0] + group[g][1] * group[g][1] + group[g][2] * group[g][2]);
                if ((group[g][0] * nrm[0] + group[g][1] * nrm[1] + group[g][2] * nrm[2]) / (gl * len) > 0.866)
                    break;
            }
            if (g == ngroup) {
                if (ngroup == 8)
                    continue;
                memset(group[ngroup++], 0, sizeof group[0]);
            }
            for (int d = 0; d < 3; d++)
                group[g][d] += nrm[d] / len;
        }
    }
    for (int g = 0; g < ngroup && count < el->dim; g++) { /* Gram-Schmidt */
        double u[3] = {group[g][0], group[g][1], group[g][2]};
        for (int k = 0; k < count; k++) {
            double dot = u[0] * dir[k][0] + u[1] * dir[k][1] + u[2] * dir[k][2];
            for (int d = 0; d < 3; d++)
                u[d] -= dot * dir[k][d];
        }
        double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        double glen = sqrt(group[g][0] * group[g][0] + group[g][1] * group[g][1] + group[g][2] * group[g][2]);
        if (len <= 0.1 * glen)
            continue; /* (almost) in the span of the previous walls */
        for (int d = 0; d < 3; d++)
            dir[count][d] = u[d] / len;
        count++;
    }
    return count;
}

/* 1 in on[n] for each node n < nn of a boundary face: the only nodes node_walls can give a
 * direction (it looks at every face of every cell around a node, 48 per hex node). */
static void mark_wall_nodes(const struct mesh *m, int32_t nn, uint8_t *on)
{
    const struct element *el = m->el;
    const int nf = el->nfaces, nv = el->nnodes;
    memset(on, 0, (size_t)nn);
    for (int32_t c = 0; c < m->ncells; c++)
        for (int f = 0; f < nf; f++) {
            if (!boundary_face(m, c, f))
                continue;
            for (int i = 0; i < el->nface_nodes; i++) {
                int32_t n = m->cell_nodes[(size_t)c * nv + el->face_nodes[f][i]];
                if (n < nn)
                    on[n] = 1;
            }
        }
}

/* Two threaded passes over the nodes of boundary faces, the first counting each node's
 * directions (where its first goes), the second writing them: one node's directions do not
 * depend on the others'. */
void walls_build(const struct mesh *m, const double *x, int32_t nn, struct walls *w)
{
    w->nnodes = nn;
    w->off = xmalloc((size_t)nn + 1);
    w->base = xmalloc(((size_t)nn / WALLS_BLOCK + 1) * sizeof *w->base);
    uint8_t *count = xmalloc((size_t)(nn ? nn : 1));
    mark_wall_nodes(m, nn, count);
    PAR_FOR(nn)
    for (int32_t n = 0; n < nn; n++) {
        double dir[3][3];
        if (count[n])
            count[n] = (uint8_t)node_walls(m, x, n, dir);
    }
    int32_t ndir = 0;
    for (int32_t n = 0; n <= nn; n++) {
        if (n % WALLS_BLOCK == 0)
            w->base[n / WALLS_BLOCK] = ndir;
        w->off[n] = (uint8_t)(ndir - w->base[n / WALLS_BLOCK]);
        ndir += n < nn ? count[n] : 0;
    }
    w->dir = xmalloc((size_t)(ndir ? ndir : 1) * 3 * sizeof *w->dir);
    PAR_FOR(nn)
    for (int32_t n = 0; n < nn; n++) {
        if (!count[n])
            continue;
        double dir[3][3];
        node_walls(m, x, n, dir);
        memcpy(w->dir + (size_t)walls_first(w, n) * 3, dir, (size_t)count[n] * 3 * sizeof(double));
    }
    free(count);
}

void walls_free(struct walls *w)
{
    free(w->off);
    free(w->base);
    free(w->dir);
    memset(w, 0, sizeof *w);
}
