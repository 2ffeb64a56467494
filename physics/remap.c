/* Euler remap by swept faces (see remap.h). */
#include "remap.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "materials.h"
#include "lagrange.h"
#include "par.h"

enum { P_RHO, P_E, P_K, P_U };

/* Cell c's row of w->phi: its columns but the density, column k at row[k - 1] (the density is
 * f->rho itself). */
static inline double *row_of(const struct remap_work *w, int32_t c)
{
    return w->phi + (size_t)c * (size_t)(w->nphi - 1);
}

/* Cell c's value of column k. */
static inline double column_of(const struct remap_work *w, const double *rho, int32_t c, int k)
{
    return k == P_RHO ? rho[c] : row_of(w, c)[k - 1];
}

/* Zeroed and touched now: calloc leaves fresh heap pages untouched, so their page faults
 * would land in the first remap steps (and in the loop's timers) instead of the set-up. */
static void *zeroed(size_t n, size_t size)
{
    void *p = xmalloc(n * size);
    memset(p, 0, n * size);
    return p;
}

_Static_assert(REMAP_NPHI_MAX <= 32, "slopes_limit keeps one bit per column in an unsigned");

static int nphi_of(int nmat) { return REMAP_NPHI + (nmat > 1 ? MAT_NPHI * nmat : 0); }

size_t remap_work_size(const struct mesh *m, int nmat)
{
    size_t nc = (size_t)(m->ncells ? m->ncells : 1), nf = (size_t)(m->nfaces ? m->nfaces : 1);
    size_t nphi = (size_t)nphi_of(nmat);
    /* the density (f->rho), the materials' slopes and the centres are not kept, the swept volumes
     * as one byte each */
    return nc * (nphi - 1 + REMAP_NPHI * 3 + 3 + 1) + (nf + sizeof(double) - 1) / sizeof(double);
}

void remap_work_init(struct remap_work *w, const struct mesh *m, double *scratch, int nmat)
{
    memset(w, 0, sizeof *w);
    size_t nc = (size_t)(m->ncells ? m->ncells : 1), nn = (size_t)(m->nnodes ? m->nnodes : 1);
    w->ncells = m->ncells;
    w->nfaces = m->nfaces;
    w->nmat = nmat;
    w->nphi = nphi_of(nmat);
    const size_t nphi = (size_t)w->nphi;
    double *p = scratch; /* in remap_work_size's order */
    w->phi = p;
    p += nc * (nphi - 1);
    w->grad = p;
    p += nc * REMAP_NPHI * 3;
    w->unew = p;
    p += nc * 3;
    w->knew = p;
    p += nc;
    w->swept = (signed char *)p;
    w->moved = zeroed(nn, sizeof *w->moved);
    w->node_near = zeroed(nn, sizeof *w->node_near);
    w->cell_moves = zeroed(nc, sizeof *w->cell_moves);
    w->cell_near = zeroed(nc, sizeof *w->cell_near);
    w->upwind = zeroed(nc, sizeof *w->upwind);
    if (nmat > 1)
        w->mslot = zeroed(nc, sizeof *w->mslot);
}

void remap_work_free(struct remap_work *w)
{
    free(w->moved);
    free(w->node_near);
    free(w->cell_moves);
    free(w->cell_near);
    free(w->upwind);
    free(w->mslot);
    free(w->mgrad);
    memset(w, 0, sizeof *w);
}

double limiter(enum limiter_kind lim, double r)
{
    if (!(r > 0))
        return 0;
    switch (lim) {
    case LIMITER_MINMOD:
        return r < 1 ? r : 1;
    case LIMITER_SUPERBEE:
        return 2 * r < 1 ? 2 * r : 1;
    case LIMITER_VANLEER:
        return 2 * r / (1 + r) < 1 ? 2 * r / (1 + r) : 1;
    case LIMITER_COUNT: /* not a limiter */
        break;
    }
    return 0;
}

/* Target position of node n (what remap_targets chose; x is unchanged until remap_move). */
static inline void target(const struct hydro_fields *f, const struct remap_work *w, size_t n, double t[3])
{
    for (int d = 0; d < 3; d++)
        t[d] = w->sweep < 0 || w->sweep == d ? f->x_init[3 * n + d] : f->x[3 * n + d];
}

void remap_targets(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w, int sweep)
{
    w->sweep = sweep; /* the targets themselves are computed where used: 24 bytes per node less */
    int64_t moved = 0; /* an integer sum: the same in any order */
    DEVICE_FOR_SUM(m->nnodes, m, moved)
    for (int32_t n = 0; n < m->nnodes; n++) {
        double t[3];
        target(f, w, (size_t)n, t);
        w->moved[n] = (unsigned char)(t[0] != f->x[3 * (size_t)n] || t[1] != f->x[3 * (size_t)n + 1] ||
                                      t[2] != f->x[3 * (size_t)n + 2]);
        moved += w->moved[n];
    }
    w->nmoved = moved;
}

/* Whether any of cell c's nv nodes is flagged in flag[]. */
static inline unsigned char any_node(const struct mesh *m, int32_t c, const unsigned char *flag, int nv)
{
    const int32_t *nodes = m->cell_nodes + (size_t)c * nv;
    unsigned char any = 0;
    for (int j = 0; j < nv; j++)
        any |= flag[nodes[j]];
    return any;
}

/* Node j is near: so is every cell around it. */
static void mark_near(const struct mesh *m, struct remap_work *w, int32_t j)
{
    w->node_near[j] = 1;
    for (int32_t k = m->node_cell_off[j]; k < m->node_cell_off[j + 1]; k++)
        w->cell_near[mesh_nc_cell(m->node_cells[k])] = 1;
}

/* remap_active from the moved nodes outwards, serially: a step that moves few nodes (the bench's
 * Sod problem: 2% of them) touches only the items around them, instead of three passes over every
 * cell and node. The flags are those of the passes (remap_active_dense): a cell moves when one of
 * its nodes moved, and every cell is in the lists of its nodes. */
static void remap_active_sparse(const struct mesh *m, struct remap_work *w, int32_t complete)
{
    const int nv = m->el->nnodes;
    memset(w->cell_moves, 0, (size_t)m->ncells);
    memset(w->node_near, 0, (size_t)m->nnodes);
    memset(w->cell_near, 0, (size_t)m->ncells);
    for (int32_t j = complete; j < m->nnodes; j++)
        mark_near(m, w, j);
    for (int32_t n = 0; n < m->nnodes; n++)
        for (int32_t k = m->node_cell_off[n]; w->moved[n] && k < m->node_cell_off[n + 1]; k++) {
            int32_t c = mesh_nc_cell(m->node_cells[k]);
            if (w->cell_moves[c])
                continue;
            w->cell_moves[c] = 1;
            for (int i = 0; i < nv; i++) {
                int32_t j = m->cell_nodes[(size_t)c * nv + i];
                if (!w->node_near[j])
                    mark_near(m, w, j);
            }
        }
}

/* The same in three passes over every item, in parallel: for steps that move many nodes. */
static void remap_active_dense(const struct mesh *m, struct remap_work *w, int32_t complete, int all)
{
    const int dim = m->el->dim;
    DEVICE_FOR(m->ncells, m)
    for (int32_t c = 0; c < m->ncells; c++)
        w->cell_moves[c] = all || BY_ELEMENT(dim, any_node(m, c, w->moved, 4), any_node(m, c, w->moved, 8));
    DEVICE_FOR(m->nnodes, m)
    for (int32_t n = 0; n < m->nnodes; n++) {
        unsigned char near = n >= complete;
        for (int32_t k = m->node_cell_off[n]; k < m->node_cell_off[n + 1]; k++)
            near |= w->cell_moves[mesh_nc_cell(m->node_cells[k])]; /* no early exit: fewer branches, no fewer loads */
        w->node_near[n] = near;
    }
    DEVICE_FOR(m->ncells, m)
    for (int32_t c = 0; c < m->ncells; c++)
        w->cell_near[c] = BY_ELEMENT(dim, any_node(m, c, w->node_near, 4), any_node(m, c, w->node_near, 8));
}

int64_t remap_active(const struct mesh *m, struct remap_work *w, int all)
{
    /* nodes with all their cells here; with all, none: every node near, so every cell */
    const int32_t complete = all ? 0 : m->node_layer_start[m->nlayers];
    const int64_t moved = all ? 0 : w->nmoved;
    /* sparse below one node in 16 moving (or last-layer): either gives the same flags (the
     * threshold chosen on one thread; the sparse path is serial, the passes are not, and they
     * alone run on an accelerator) */
    if (!all && !device_has(m) && 16 * (moved + (m->nnodes - complete)) < m->nnodes)
        remap_active_sparse(m, w, complete);
    else
        remap_active_dense(m, w, complete, all);
    int64_t near = 0;
    DEVICE_FOR_SUM(m->ncells_owned, m, near)
    for (int32_t c = 0; c < m->ncells_owned; c++)
        near += w->cell_near[c];
    return near;
}

void remap_values(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w, const int32_t *cells,
                  int32_t nc)
{
    const int nv = m->el->nnodes;
    const double inv_nv = 1.0 / nv; /* exact (4 or 8): multiplying is dividing, only faster */
    DEVICE_FOR(nc, m)
    for (int32_t i = 0; i < nc; i++) {
        const int32_t c = cells ? cells[i] : i;
        if (!w->cell_near[c])
            continue;
        double u[3] = {0, 0, 0}, k = 0;
        for (int j = 0; j < nv; j++) {
            const double *v = f->v + 3 * (size_t)m->cell_nodes[(size_t)c * nv + j];
            for (int d = 0; d < 3; d++)
                u[d] += v[d] * inv_nv;
            k += 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * inv_nv;
        }
        double *row = row_of(w, c);
        row[P_E - 1] = f->e[c];
        row[P_K - 1] = k;
        for (int d = 0; d < 3; d++)
            row[P_U - 1 + d] = u[d];
        if (w->nmat > 1)
            mat_remap_values(w->nmat, f, c, row + REMAP_NPHI - 1);
    }
}

/* The volume face gains for its first cell face_cells[2 face] (side a_side) when it moves to the
 * targets: 0 for a boundary face and a face none of whose nodes moves. remap_swept keeps its sign,
 * remap_cell computes it again where something crosses (the same arithmetic, the same bits): one
 * byte per face instead of a double, for a second evaluation of the faces that carry a flux. */
static double face_swept(const struct mesh *m, const struct hydro_fields *f, const struct remap_work *w,
                         int32_t face, int a_side)
{
    const struct element *el = m->el;
    const int nfn = el->nface_nodes, nv = el->nnodes;
    const int32_t a = m->face_cells[2 * (size_t)face];
    if (m->face_cells[2 * (size_t)face + 1] < 0)
        return 0;
    const int *fn = el->face_nodes[a_side];
    int moving = 0;
    for (int i = 0; i < nfn; i++)
        moving |= w->moved[m->cell_nodes[(size_t)a * nv + fn[i]]];
    if (!moving) /* a face that stays put sweeps nothing (most faces of a directional sweep) */
        return 0;
    double x[8][3], move = 0;
    for (int i = 0; i < nfn; i++) {
        int32_t node = m->cell_nodes[(size_t)a * nv + fn[i]];
        const double *from = f->x + 3 * (size_t)node;
        double to[3];
        target(f, w, (size_t)node, to);
        if (el->dim == 2) { /* quad (n0, n0', n1', n1): counter-clockwise when a gains */
            memcpy(x[i == 0 ? 0 : 3], from, sizeof x[0]);
            memcpy(x[i == 0 ? 1 : 2], to, sizeof x[0]);
        } else { /* hex: the face at x below, the face at xt above */
            memcpy(x[i], from, sizeof x[0]);
            memcpy(x[i + 4], to, sizeof x[0]);
        }
        for (int d = 0; d < 3; d++)
            move = fabs(to[d] - from[d]) > move ? fabs(to[d] - from[d]) : move;
    }
    double vol = geom_volume(el, (const double(*)[3])x), nrm[3]; /* a cell of the mesh's own kind */
    /* the face at x (nodes 0 and 3 of the swept quad, 0-3 of the swept hex), with
     * geom_face_normal's arithmetic, without gathering the whole cell */
    if (el->dim == 2) {
        nrm[0] = x[3][1] - x[0][1];
        nrm[1] = -(x[3][0] - x[0][0]);
        nrm[2] = 0;
    } else {
        double d1[3], d2[3];
        for (int d = 0; d < 3; d++) {
            d1[d] = x[2][d] - x[0][d];
            d2[d] = x[3][d] - x[1][d];
        }
        nrm[0] = 0.5 * (d1[1] * d2[2] - d1[2] * d2[1]);
        nrm[1] = 0.5 * (d1[2] * d2[0] - d1[0] * d2[2]);
        nrm[2] = 0.5 * (d1[0] * d2[1] - d1[1] * d2[0]);
    }
    double area = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    /* a face sliding along itself sweeps round-off only: exactly nothing, or the sign of
     * that round-off would pick upwind cells and limiters at random */
    return fabs(vol) > 1e-9 * move * area ? vol : 0.0;
}

void remap_swept(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w, int32_t nc)
{
    const int nf = m->el->nfaces;
    /* the faces of the near cells below nc (the others' faces sweep nothing and are not read),
     * each written from one cell alone: its first, or the other when the first is not one of them */
    DEVICE_FOR(nc, m)
    for (int32_t c = 0; c < nc; c++)
        for (int s = 0; s < nf && w->cell_near[c]; s++) {
            int32_t face = m->cell_faces[(size_t)c * nf + s];
            int32_t a = m->face_cells[2 * (size_t)face], b = m->face_cells[2 * (size_t)face + 1];
            if (c != a && a < nc && w->cell_near[a])
                continue; /* done from cell a */
            /* a's side of the face: s, or the first one in a (degenerate) cell holding it twice */
            double vol = face_swept(m, f, w, face, c == a && b != a ? s : mesh_face_side(m, face, 0));
            w->swept[face] = vol > 0 ? SWEPT_GAINS : vol < 0 ? SWEPT_LOSES : SWEPT_NONE;
        }
}

/* Centre of the region face sweeps from x to the targets: the mean of its nodes at both
 * positions, taken from its first cell. Computed where it is used instead of stored per face
 * (only faces that sweep something need it, one or two per cell in a directional sweep). */
static void face_point(const struct mesh *m, const struct hydro_fields *f, const struct remap_work *w, int32_t face,
                       double p[3])
{
    const struct element *el = m->el;
    const int nfn = el->nface_nodes, nv = el->nnodes;
    const double inv_2nfn = 1.0 / (2 * nfn); /* exact (1/4 or 1/8) */
    const int32_t a = m->face_cells[2 * (size_t)face];
    const int *fn = el->face_nodes[mesh_face_side(m, face, 0)];
    p[0] = p[1] = p[2] = 0;
    for (int i = 0; i < nfn; i++) {
        size_t node = (size_t)m->cell_nodes[(size_t)a * nv + fn[i]];
        const double *from = f->x + 3 * node;
        double to[3];
        target(f, w, node, to);
        for (int d = 0; d < 3; d++)
            p[d] += (from[d] + to[d]) * inv_2nfn;
    }
}

/* Cell c's centre at x, the mean of its nodes with geom_centre's arithmetic (the sum, then times
 * 1/nv). Computed where it is read instead of kept per cell: 3 doubles per cell less in the
 * arena, for a few more reads of node positions in the cells the remap computes. */
static inline void centre_of(const struct mesh *m, const double *x, int32_t c, double xc[3])
{
    const int nv = m->el->nnodes;
    const double inv_nv = 1.0 / nv; /* exact (4 or 8) */
    double sum[3] = {0, 0, 0};
    for (int j = 0; j < nv; j++) {
        const double *xn = x + 3 * (size_t)m->cell_nodes[(size_t)c * nv + j];
        for (int d = 0; d < 3; d++)
            sum[d] += xn[d];
    }
    for (int d = 0; d < 3; d++)
        xc[d] = sum[d] * inv_nv;
}

/* The neighbour across face s of cell c (centre xc): its centre and the cell whose values it has
 * (a wall mirrors the cell). Returns 0 when there is none (face cut by the last ghost layer). */
static int neighbour(const struct mesh *m, const double *x, int32_t c, int s, const double xc[3], double xj[3],
                     int32_t *cj)
{
    int32_t face = m->cell_faces[(size_t)c * m->el->nfaces + s];
    int32_t a = m->face_cells[2 * (size_t)face], b = m->face_cells[2 * (size_t)face + 1];
    if (b >= 0) {
        *cj = c == a ? b : a;
        centre_of(m, x, *cj, xj);
        return 1;
    }
    if (b == FACE_CUT)
        return 0;
    double xcell[MAX_CELL_NODES][3], n[3], fc[3] = {0, 0, 0};
    mesh_cell_coords(m, x, c, xcell);
    geom_face_normal(m->el, (const double(*)[3])xcell, s, n);
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int i = 0; i < m->el->nface_nodes; i++)
        for (int d = 0; d < 3; d++)
            fc[d] += xcell[m->el->face_nodes[s][i]][d] / m->el->nface_nodes;
    double dist = ((fc[0] - xc[0]) * n[0] + (fc[1] - xc[1]) * n[1] + (fc[2] - xc[2]) * n[2]) / len;
    for (int d = 0; d < 3; d++)
        xj[d] = xc[d] + 2 * dist * n[d] / len;
    *cj = c;
    return 1;
}

/* A cell's centre and its face neighbours as its slopes see them, in face order: centres, the
 * cells whose values they have, and (around_values) the values of the columns a slope is fitted
 * to, the cell's own and the neighbours', side by side. */
struct around {
    int n;
    int32_t c;
    double xc[3];
    double x[MAX_CELL_FACES][3];
    int32_t cell[MAX_CELL_FACES];
    double v0[REMAP_NPHI_MAX], v[MAX_CELL_FACES][REMAP_NPHI_MAX];
};

static void around_of(const struct mesh *m, const double *x, int32_t c, struct around *a)
{
    a->n = 0;
    a->c = c;
    centre_of(m, x, c, a->xc);
    for (int s = 0; s < m->el->nfaces; s++)
        a->n += neighbour(m, x, c, s, a->xc, a->x[a->n], &a->cell[a->n]);
}

/* The values of columns col[0 .. nk) into a->v0[k] and a->v[j][k]. */
static void around_values(const struct remap_work *w, const double *rho, struct around *a, const int *col, int nk)
{
    for (int k = 0; k < nk; k++)
        a->v0[k] = column_of(w, rho, a->c, col[k]);
    for (int j = 0; j < a->n; j++)
        for (int k = 0; k < nk; k++)
            a->v[j][k] = column_of(w, rho, a->cell[j], col[k]);
}

/* Solve the symmetric dim x dim system A g_k = b_k for the nk right-hand sides with one
 * inverse (adjugate over determinant); g = 0 when A is (nearly) singular. */
static void solve(int dim, int nk, const double A[3][3], const double (*b)[3], double *g)
{
    double inv[3][3] = {{0}}, det, scale;
    if (dim == 2) {
        det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
        scale = A[0][0] * A[1][1];
        inv[0][0] = A[1][1];
        inv[0][1] = -A[0][1];
        inv[1][0] = -A[1][0];
        inv[1][1] = A[0][0];
    } else {
        inv[0][0] = A[1][1] * A[2][2] - A[1][2] * A[2][1];
        inv[0][1] = A[0][2] * A[2][1] - A[0][1] * A[2][2];
        inv[0][2] = A[0][1] * A[1][2] - A[0][2] * A[1][1];
        inv[1][0] = A[1][2] * A[2][0] - A[1][0] * A[2][2];
        inv[1][1] = A[0][0] * A[2][2] - A[0][2] * A[2][0];
        inv[1][2] = A[0][2] * A[1][0] - A[0][0] * A[1][2];
        inv[2][0] = A[1][0] * A[2][1] - A[1][1] * A[2][0];
        inv[2][1] = A[0][1] * A[2][0] - A[0][0] * A[2][1];
        inv[2][2] = A[0][0] * A[1][1] - A[0][1] * A[1][0];
        det = A[0][0] * inv[0][0] + A[0][1] * inv[1][0] + A[0][2] * inv[2][0];
        scale = A[0][0] * A[1][1] * A[2][2];
    }
    if (!(fabs(det) > 1e-12 * scale)) {
        memset(g, 0, (size_t)nk * 3 * sizeof *g);
        return;
    }
    for (int k = 0; k < nk; k++)
        for (int i = 0; i < 3; i++)
            g[3 * k + i] = (inv[i][0] * b[k][0] + inv[i][1] * b[k][1] + inv[i][2] * b[k][2]) / det;
}

/* Is cell c the upwind cell of face (the one whose material crosses it)? */
static int upwind_is(const struct mesh *m, const struct remap_work *w, int32_t face, int32_t c)
{
    int s = w->swept[face];
#ifdef __SANITIZE_ADDRESS__ /* the arena is NaN there: a face remap_swept did not reach (kernel depths) */
    assert(s >= SWEPT_LOSES && s <= SWEPT_GAINS && "a swept volume read before remap_swept computed it");
#endif
    if (s == SWEPT_NONE || m->face_cells[2 * (size_t)face + 1] < 0)
        return 0;
    return s == SWEPT_GAINS ? m->face_cells[2 * (size_t)face + 1] == c : m->face_cells[2 * (size_t)face] == c;
}

/* Is cell c upwind of any of its faces? Only then are its slopes used (in a directional sweep
 * most faces sweep nothing). The answer depends on the cell's own faces only, so it is the
 * same on every rank that holds the cell. */
static int upwind_somewhere(const struct mesh *m, const struct remap_work *w, int32_t c)
{
    const int nf = m->el->nfaces;
    for (int s = 0; s < nf; s++)
        if (upwind_is(m, w, m->cell_faces[(size_t)c * nf + s], c))
            return 1;
    return 0;
}

/* g . (a - b): a slope's change from point b to point a. */
static inline double along(const double g[3], const double a[3], const double b[3])
{
    return g[0] * (a[0] - b[0]) + g[1] * (a[1] - b[1]) + g[2] * (a[2] - b[2]);
}

/* v reconstructed at point a from b with slope g: v plus each term of along() in turn, which
 * rounds otherwise than v + along() (the dumps' bits). */
static inline double at_point(double v, const double g[3], const double a[3], const double b[3])
{
    return v + g[0] * (a[0] - b[0]) + g[1] * (a[1] - b[1]) + g[2] * (a[2] - b[2]);
}

/* Least-squares slopes of the nk columns whose values a holds (around_values) into g[nk][3]. Each
 * column's slope depends on that column only: any subset of the columns gets the same bits. */
static void slopes_fit(int dim, const struct around *a, int nk, double *g)
{
    double A[3][3] = {{0}}, b[REMAP_NPHI_MAX][3] = {{0}};
    const double *xc = a->xc;
    for (int j = 0; j < a->n; j++) {
        double d[3];
        for (int i = 0; i < 3; i++)
            d[i] = a->x[j][i] - xc[i];
        double wgt = 1.0 / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 3; l++)
                A[i][l] += wgt * d[i] * d[l];
        for (int k = 0; k < nk; k++)
            for (int i = 0; i < 3; i++)
                b[k][i] += wgt * d[i] * (a->v[j][k] - a->v0[k]);
    }
    solve(dim, nk, (const double(*)[3])A, (const double(*)[3])b, g);
}

/* Limit the slopes g[nk][3] of the columns whose values a holds: ratios against every neighbour,
 * then no flux value out of the range of the cell and its neighbours (no new extrema). */
static void slopes_limit(const struct mesh *m, const struct hydro_fields *f, const struct remap_work *w,
                         const struct around *a, enum limiter_kind lim, int nk, double *g)
{
    const int nf = m->el->nfaces;
    const int32_t c = a->c;
    const double *xc = a->xc;
    double alpha[REMAP_NPHI_MAX], lo[REMAP_NPHI_MAX], hi[REMAP_NPHI_MAX], dl[MAX_CELL_FACES];
    for (int k = 0; k < nk; k++) {
        alpha[k] = 1;
        lo[k] = hi[k] = a->v0[k];
    }
    for (int j = 0; j < a->n; j++) {
        const double *x = a->x[j];
        dl[j] = sqrt((x[0] - xc[0]) * (x[0] - xc[0]) + (x[1] - xc[1]) * (x[1] - xc[1]) +
                     (x[2] - xc[2]) * (x[2] - xc[2]));
    }
    unsigned flat = 0; /* columns without a slope (zero fit, or a singular system): nothing to limit */
    for (int k = 0; k < nk; k++)
        flat |= (unsigned)(g[3 * k] == 0 && g[3 * k + 1] == 0 && g[3 * k + 2] == 0) << k;
    for (int k = 0; k < nk; k++) { /* slope ratios against every neighbour */
        if (flat >> k & 1u)
            continue;
        const double *gk = g + 3 * k, pc = a->v0[k];
        double gl = sqrt(gk[0] * gk[0] + gk[1] * gk[1] + gk[2] * gk[2]);
        double scale = 0; /* the local variation: ratios of round-off are not slopes */
        for (int j = 0; j < a->n; j++) {
            double dphi = fabs(a->v[j][k] - pc);
            scale = dphi > scale ? dphi : scale;
        }
        for (int j = 0; j < a->n; j++) {
            const double pj = a->v[j][k], *xj = a->x[j];
            double dphi = pj - pc;
            double pred = along(gk, xj, xc);
            lo[k] = pj < lo[k] ? pj : lo[k];
            hi[k] = pj > hi[k] ? pj : hi[k];
            /* ratios only along the slope: across it the prediction is round-off or noise, and
             * limiting on it would flip the slope on and off between identical cells */
            if (fabs(pred) > 1e-10 * scale && fabs(pred) > 0.2 * gl * dl[j]) {
                double r = limiter(lim, dphi / pred);
                alpha[k] = r < alpha[k] ? r : alpha[k];
            }
        }
    }
    for (int s = 0; s < nf; s++) { /* no flux value out of [lo, hi]: no new extrema */
        int32_t face = m->cell_faces[(size_t)c * nf + s];
        if (!upwind_is(m, w, face, c))
            continue;
        double p[3];
        face_point(m, f, w, face, p);
        for (int k = 0; k < nk; k++) {
            if (flat >> k & 1u)
                continue;
            const double *gk = g + 3 * k;
            double dv = along(gk, p, xc);
            double pc = a->v0[k];
            double bound = dv > 0 ? (hi[k] - pc) / dv : dv < 0 ? (lo[k] - pc) / dv : 1;
            alpha[k] = bound < alpha[k] ? bound : alpha[k];
        }
    }
    for (int k = 0; k < nk; k++) {
        double r = alpha[k] > 0 ? alpha[k] : 0;
        for (int i = 0; i < 3; i++)
            g[3 * k + i] *= r;
    }
}

/* The cell's own columns, the ones whose slopes are kept in w->grad. */
DEVICE_BEGIN
static const int plain[REMAP_NPHI] = {0, 1, 2, 3, 4, 5};
DEVICE_END

void remap_slopes(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w, enum limiter_kind lim,
                  int32_t nc)
{
    DEVICE_FOR(nc, m)
    for (int32_t c = 0; c < nc; c++) {
        double *g = w->grad + (size_t)c * REMAP_NPHI * 3;
        w->upwind[c] = w->cell_moves[c] && upwind_somewhere(m, w, c); /* only a moving cell's faces sweep */
        if (!w->cell_moves[c])
            continue; /* nothing reads its slopes */
        if (!w->upwind[c]) { /* slopes never used: zero, the same everywhere */
            memset(g, 0, REMAP_NPHI * 3 * sizeof *g);
            continue;
        }
        struct around a; /* gathered once for the fit and the limiter */
        around_of(m, f->x, c, &a);
        around_values(w, f->rho, &a, plain, REMAP_NPHI);
        slopes_fit(m->el->dim, &a, REMAP_NPHI, g);
        slopes_limit(m, f, w, &a, lim, REMAP_NPHI, g);
    }
}

/* The material that cell c and all its face neighbours hold alone (their fraction columns
 * exactly 1 for it and 0 for the others), or -1. Decided from the remap's values, which every
 * rank holding c has the same (computed or synchronised), so every rank decides the same. */
static int alone_around(const struct mesh *m, const struct remap_work *w, int32_t c)
{
    const int nf = m->el->nfaces, nm = w->nmat;
    const double *own = row_of(w, c) + REMAP_NPHI - 1;
    int k = -1;
    for (int l = 0; l < nm; l++)
        if (own[MAT_NPHI * l] == 1.0)
            k = l;
        else if (own[MAT_NPHI * l] != 0.0)
            return -1;
    for (int s = 0; s < nf && k >= 0; s++) {
        int32_t face = m->cell_faces[(size_t)c * nf + s];
        int32_t a = m->face_cells[2 * (size_t)face], b = m->face_cells[2 * (size_t)face + 1];
        if (b < 0) /* a wall mirrors the cell; a cut face is beyond what the remap reads */
            continue;
        const double *nb = row_of(w, c == a ? b : a) + REMAP_NPHI - 1;
        for (int l = 0; l < nm; l++)
            if (nb[MAT_NPHI * l] != (l == k ? 1.0 : 0.0))
                return -1;
    }
    return k;
}

/* mslot of a cell that no face takes values from (not upwind, or beyond the kernel's cells) */
#define MSLOT_NONE INT32_MIN

/* The limited slopes of cell c's material columns into g[MAT_NPHI nmat][3]: the same arithmetic
 * per column as the cell's own; a column that is the same in the cell and its neighbours (an
 * absent material) has none. */
static void material_slopes(const struct mesh *m, const struct hydro_fields *f, const struct remap_work *w,
                            enum limiter_kind lim, int32_t c, double *g)
{
    const int ncol = w->nphi - REMAP_NPHI;
    struct around a;
    around_of(m, f->x, c, &a);
    int col[REMAP_NPHI_MAX], nk = 0;
    for (int k = REMAP_NPHI; k < w->nphi; k++) {
        const double own = column_of(w, f->rho, c, k);
        int varies = 0;
        for (int j = 0; j < a.n; j++)
            varies |= column_of(w, f->rho, a.cell[j], k) != own;
        if (varies)
            col[nk++] = k;
    }
    memset(g, 0, (size_t)ncol * 3 * sizeof *g);
    if (!nk)
        return;
    double gk[REMAP_NPHI_MAX * 3];
    around_values(w, f->rho, &a, col, nk);
    slopes_fit(m->el->dim, &a, nk, gk);
    slopes_limit(m, f, w, &a, lim, nk, gk);
    for (int j = 0; j < nk; j++)
        memcpy(g + 3 * (col[j] - REMAP_NPHI), gk + 3 * j, 3 * sizeof *g);
}

void remap_material_slopes(const struct mesh *m, const struct hydro_fields *f, struct remap_work *w,
                           enum limiter_kind lim, int32_t nc)
{
    if (w->nmat < 2)
        return;
    const size_t row = (size_t)(w->nphi - REMAP_NPHI) * 3;
    PAR_FOR(w->ncells) /* which cells need a row: marked 0 for now, numbered below in cell order */
    for (int32_t c = 0; c < w->ncells; c++) {
        w->mslot[c] = MSLOT_NONE;
        if (c >= nc || !w->cell_moves[c] || !upwind_somewhere(m, w, c))
            continue;
        int alone = alone_around(m, w, c);
        w->mslot[c] = alone >= 0 ? -1 - alone : 0;
    }
    int32_t rows = 0;
    for (int32_t c = 0; c < nc; c++)
        if (w->mslot[c] >= 0)
            w->mslot[c] = rows++;
    /* grows with the cells along material boundaries (an eighth more, so that a boundary that
     * moves does not reallocate every step), never shrinks */
    if ((size_t)rows * row > w->mcap) {
        w->mcap = ((size_t)rows + (size_t)rows / 8 + 1) * row;
        free(w->mgrad); /* every row is rewritten below: nothing to copy */
        w->mgrad = xmalloc(w->mcap * sizeof *w->mgrad);
    }
    PAR_FOR(nc)
    for (int32_t c = 0; c < nc; c++)
        if (w->mslot[c] >= 0)
            material_slopes(m, f, w, lim, c, w->mgrad + (size_t)w->mslot[c] * row);
}

/* The upwind cell's reconstructed values at face point p: its own columns into val[0 ..
 * REMAP_NPHI). With materials, returns the material it and its neighbours hold alone (its flux is
 * then the cell's: remap_cells), or -1 after putting the materials' values into the rest of val. */
static int upwind_values(const struct mesh *m, const struct hydro_fields *f, const struct remap_work *w, int32_t up,
                         const double p[3], double *val)
{
    double xu[3];
    centre_of(m, f->x, up, xu);
    for (int k = 0; k < REMAP_NPHI; k++)
        val[k] = at_point(column_of(w, f->rho, up, k), w->grad + ((size_t)up * REMAP_NPHI + k) * 3, p, xu);
    if (w->nmat < 2)
        return -1;
    const int32_t slot = w->mslot[up];
#ifdef __SANITIZE_ADDRESS__
    assert(slot != MSLOT_NONE && "material values of a cell remap_material_slopes did not reach");
#endif
    if (slot < 0)
        return -1 - slot;
    const double *gm = w->mgrad + (size_t)slot * (size_t)(w->nphi - REMAP_NPHI) * 3;
    for (int k = REMAP_NPHI; k < w->nphi; k++)
        val[k] = at_point(column_of(w, f->rho, up, k), gm + 3 * (k - REMAP_NPHI), p, xu);
    return -1;
}

/* What crossed cell c's faces, added to what it held: mass, momentum, internal and kinetic
 * energies, and with materials each one's volume, mass and internal energy gained (negative:
 * lost). */
struct cell_sums {
    double mass, mom[3], eint, ekin;
    double dv[HYDRO_MAT_MAX], dm[HYDRO_MAT_MAX], de[HYDRO_MAT_MAX];
};

/* Cell c's fluxes into *t; returns whether anything crossed its faces. */
static int cell_fluxes(const struct mesh *m, const struct hydro_fields *f, const struct remap_work *w, int32_t c,
                       struct cell_sums *t)
{
    const int nf = m->el->nfaces, nm = w->nmat > 1 ? w->nmat : 0;
    const double *rowc = row_of(w, c), *uc = rowc + P_U - 1;
    *t = (struct cell_sums){.mass = f->mass[c], .eint = f->mass[c] * rowc[P_E - 1], .ekin = f->mass[c] * rowc[P_K - 1]};
    for (int d = 0; d < 3; d++)
        t->mom[d] = f->mass[c] * uc[d];
    int flux = 0;
    for (int s = 0; s < nf; s++) {
        int32_t face = m->cell_faces[(size_t)c * nf + s];
        int32_t a = m->face_cells[2 * (size_t)face], b = m->face_cells[2 * (size_t)face + 1];
        if (b < 0 || w->swept[face] == SWEPT_NONE)
            continue;
        double vol = face_swept(m, f, w, face, c == a && b != a ? s : mesh_face_side(m, face, 0)); /* as remap_swept */
        flux = 1;
        int32_t up = vol > 0 ? b : a; /* the gaining cell takes the other's material */
        double p[3], val[REMAP_NPHI_MAX];
        face_point(m, f, w, face, p);
        int alone = upwind_values(m, f, w, up, p, val);
        double sv = c == a ? vol : -vol, dmass = sv * val[P_RHO];
        if (alone >= 0) { /* a material alone around the upwind cell carries the cell's flux */
            t->dv[alone] += sv;
            t->dm[alone] += dmass;
            t->de[alone] += dmass * val[P_E];
        } else if (nm) { /* the mass flux is the sum of the materials' */
            dmass = 0;
            for (int k = 0; k < nm; k++) {
                const double *vk = val + REMAP_NPHI + MAT_NPHI * k;
                t->dv[k] += sv * vk[0];
                t->dm[k] += sv * vk[1];
                t->de[k] += sv * vk[2];
                dmass += sv * vk[1];
            }
        }
        t->mass += dmass;
        for (int d = 0; d < 3; d++)
            t->mom[d] += dmass * val[P_U + d];
        t->eint += dmass * val[P_E];
        t->ekin += dmass * val[P_K];
    }
    return flux;
}

/* Cell c's new mean velocity and kinetic energy per unit mass from *t and its new mass; through a
 * cell that nothing crossed (t NULL), its values as they were (not m e / m, which rounds). */
static void cell_velocity(struct remap_work *w, int32_t c, const struct cell_sums *t, double mass)
{
    const double *rowc = row_of(w, c);
    for (int d = 0; d < 3; d++)
        w->unew[3 * (size_t)c + d] = t ? t->mom[d] / mass : rowc[P_U - 1 + d];
    w->knew[c] = t ? t->ekin / mass : rowc[P_K - 1];
}

/* Cell c's fluxes and new mass, mean velocity and internal and kinetic energies, one material
 * (the kernel an accelerator runs: no material store). */
static void remap_cell_pure(const struct mesh *m, struct hydro_fields *f, struct remap_work *w, int32_t c)
{
    struct cell_sums t;
    if (!cell_fluxes(m, f, w, c, &t)) {
        cell_velocity(w, c, NULL, 0);
        return;
    }
    f->mass[c] = t.mass;
    f->e[c] = t.eint / t.mass;
    cell_velocity(w, c, &t, t.mass);
}

/* The same with materials, each one's share (a change of slot waits in *change, removed mass goes
 * to removed[]); the cell's mass and energy are their sums. */
static void remap_cell_mixed(const struct mesh *m, struct hydro_fields *f, const struct hydro_params *hp,
                             struct remap_work *w, int32_t c, struct xsum *removed, struct mat_change *change)
{
    struct cell_sums t;
    change->cell = -1;
    if (!cell_fluxes(m, f, w, c, &t)) {
        cell_velocity(w, c, NULL, 0);
        return;
    }
    double mass = mat_remap_cell(hp, f, c, f->vol[c], t.dv, t.dm, t.de, &t.eint, removed, change);
    if (change->cell < 0) { /* else mat_apply_change writes them */
        f->mass[c] = mass;
        f->e[c] = t.eint / mass;
    }
    cell_velocity(w, c, &t, mass);
}

static int change_cmp(const void *a, const void *b)
{
    const struct mat_change *x = a, *y = b;
    return (x->cell > y->cell) - (x->cell < y->cell);
}

/* remap_cells with materials: on the host, whose threads collect the changes of composition */
static void remap_cells_mixed(const struct mesh *m, struct hydro_fields *f, const struct hydro_params *hp,
                              struct remap_work *w, int32_t nc)
{
    struct mat_change *all = NULL; /* the cells turning pure or mixed, from every thread */
    size_t nall = 0;
    PAR_REGION(nc)
    {
        struct xsum removed[HYDRO_MAT_MAX];
        for (int k = 0; k < w->nmat; k++)
            xsum_init(&removed[k]);
        struct mat_change *mine = NULL, change;
        size_t n = 0, cap = 0;
        PAR_LOOP
        for (int32_t c = 0; c < nc; c++) {
            if (!w->cell_near[c])
                continue;
            remap_cell_mixed(m, f, hp, w, c, removed, &change);
            if (change.cell < 0)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                mine = xrealloc(mine, cap * sizeof *mine);
            }
            mine[n++] = change;
        }
        PAR_CRITICAL
        {
            for (int k = 0; k < w->nmat; k++) /* exact sums: the same total in any order */
                xsum_merge(&w->removed[k], &removed[k]);
            if (n) {
                all = xrealloc(all, (nall + n) * sizeof *all);
                memcpy(all + nall, mine, n * sizeof *mine);
                nall += n;
            }
        }
        free(mine);
    }
    if (nall)
        qsort(all, nall, sizeof *all, change_cmp);
    for (size_t i = 0; i < nall; i++)
        mat_apply_change(f, &all[i]);
    free(all);
}

void remap_cells(const struct mesh *m, struct hydro_fields *f, const struct hydro_params *hp, struct remap_work *w,
                 int32_t nc)
{
    if (w->nmat > 1) {
        remap_cells_mixed(m, f, hp, w, nc);
        return;
    }
    DEVICE_FOR(nc, m)
    for (int32_t c = 0; c < nc; c++)
        if (w->cell_near[c])
            remap_cell_pure(m, f, w, c);
}

void remap_nodes(const struct mesh *m, struct hydro_fields *f, const struct remap_work *w, const struct walls *walls,
                 const int32_t *nodes, int32_t nn)
{
    const int nv = m->el->nnodes;
    const double inv_nv = 1.0 / nv; /* exact */
    DEVICE_FOR(nn, m)
    for (int32_t i = 0; i < nn; i++) {
        const int32_t n = nodes ? nodes[i] : i;
        if (!w->node_near[n])
            continue;
        double mass = 0, du[3] = {0, 0, 0};
        for (int32_t k = m->node_cell_off[n]; k < m->node_cell_off[n + 1]; k++) {
            int32_t c = mesh_nc_cell(m->node_cells[k]);
            double share = f->mass[c] * inv_nv;
            mass += share;
            for (int d = 0; d < 3; d++)
                du[d] += share * (w->unew[3 * (size_t)c + d] - row_of(w, c)[P_U - 1 + d]);
        }
        f->nmass[n] = mass;
        if (du[0] == 0 && du[1] == 0 && du[2] == 0)
            continue; /* unchanged, and already on its walls: projecting again would round */
        double *v = f->v + 3 * (size_t)n;
        for (int d = 0; d < m->el->dim; d++)
            v[d] += du[d] / mass;
        walls_apply(walls, n, v);
    }
}

/* Cell c at the targets: volume, length, density and, with remap_heat, the dissipated kinetic
 * energy as heat. Returns 0, or -1 with err naming what is wrong with the cell. */
static int finish_cell(const struct mesh *m, struct hydro_fields *f, const struct remap_work *w,
                       const struct hydro_params *hp, int32_t c, struct hydro_error *err)
{
    const int nv = m->el->nnodes;
    const double inv_nv = 1.0 / nv; /* exact */
    double xc[MAX_CELL_NODES][3], k = 0;
    int moving = 0;
    for (int i = 0; i < nv; i++) {
        int32_t n = m->cell_nodes[(size_t)c * nv + i];
        const double *v = f->v + 3 * (size_t)n;
        k += 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * inv_nv;
        moving |= w->moved[n];
    }
    /* a cell none of whose nodes moves keeps its volume and length, computed from the
     * same coordinates by the same functions (lagrange_cells or the previous sweep) */
    double vol = f->vol[c];
    if (moving) {
        for (int i = 0; i < nv; i++)
            target(f, w, (size_t)m->cell_nodes[(size_t)c * nv + i], xc[i]);
        vol = geom_volume(m->el, (const double(*)[3])xc);
        f->len[c] = geom_length(m->el, (const double(*)[3])xc, vol, hp->length);
    }
    f->vol[c] = vol;
    f->rho[c] = f->mass[c] / vol;
    double heated = f->e[c] + (w->knew[c] - k); /* dissipated kinetic energy becomes heat */
    if (hp->nmat > 1 && hp->remap_heat)
        mat_heat(hp, f, c, w->knew[c] - k); /* the cell's mean energy: its EOS next (remap_finish) */
    else if (hp->remap_heat && eos_energy_admissible(&hp->eos[0], heated))
        f->e[c] = heated;
    if (!(f->mass[c] > 0))
        return HYDRO_FAIL(err, c, "the remap left no mass in the cell (time step too large for the mesh motion)");
    int admissible = hp->nmat > 1 ? mat_admissible(hp, f, c) : eos_energy_admissible(&hp->eos[0], f->e[c]);
    return admissible ? 0 : HYDRO_FAIL(err, c, "the remap made the internal energy negative");
}

void remap_finish(const struct mesh *m, struct hydro_fields *f, const struct remap_work *w,
                  const struct hydro_params *hp, const int32_t *cells, int32_t nc, struct hydro_error err[2])
{
    /* every cell is finished, even after a failure: mass and energy are already the remapped ones
     * (remap_cells), so the failure dump stays one state */
    DEVICE_FOR_REDUCE(nc, m, , err[0:2])
    for (int32_t i = 0; i < nc; i++) {
        const int32_t c = cells ? cells[i] : i;
        struct hydro_error e;
        if (!w->cell_near[c])
            continue;
        if (finish_cell(m, f, w, hp, c, &e)) {
            PAR_CRITICAL /* failures only: the smallest cell wins, whichever thread saw it */
            hydro_error_merge(&err[0], &e);
        }
        if (lagrange_eos_cell(hp, f, c, &e)) {
            PAR_CRITICAL
            hydro_error_merge(&err[1], &e);
        }
    }
}

void remap_move(const struct mesh *m, struct hydro_fields *f, const struct remap_work *w)
{
    DEVICE_FOR(m->nnodes, m)
    for (int32_t n = 0; n < m->nnodes; n++)
        target(f, w, (size_t)n, f->x + 3 * (size_t)n); /* in place: each coordinate reads itself or x_init */
}
