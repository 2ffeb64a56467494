/* MPI integration test of the distributed mesh: ghost layers against a brute-force serial
 * computation, node ownership, faces, node->cells order, and ghost synchronisation.
 * Usage: mpirun -np N mesh_mpi [section.key=value ...] (deck overrides). Rank 0 prints TAP. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cartesian.h"
#include "check.h"
#include "comm.h"
#include "deck.h"
#include "ghostcheck.h"
#include "gmsh.h"
#include "setup.h"
#include "spread.h"
#include "sync.h"
#include "sync_only.h"
#include "tap.h"

/* Gather variable-length int64 arrays on rank 0: returns concatenation, counts per rank. */
static int64_t *gather64(MPI_Comm comm, const int64_t *v, int n, int **counts_out, int **displs_out)
{
    int P = comm_size(comm), me = comm_rank(comm);
    int *counts = me == 0 ? malloc(sizeof(int) * P) : NULL, *displs = me == 0 ? malloc(sizeof(int) * (P + 1)) : NULL;
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    int64_t *all = NULL;
    if (me == 0) {
        displs[0] = 0;
        for (int r = 0; r < P; r++)
            displs[r + 1] = displs[r] + counts[r];
        all = malloc(sizeof(int64_t) * (displs[P] + 1));
    }
    MPI_Gatherv(v, n, MPI_INT64_T, all, counts, displs, MPI_INT64_T, 0, comm);
    *counts_out = counts;
    *displs_out = displs;
    return all;
}

/* Serial global mesh with node -> cells (CSR by node gid). */
struct global {
    struct cellset cs;
    int64_t nnodes;
    int64_t *nc_off, *nc; /* cells of node, ascending */
};

static void global_build(const struct config *cfg, struct global *g)
{
    char err[512];
    cellset_init(&g->cs, (int)cfg->dim);
    if (cfg->mesh_kind == MESH_GMSH) {
        if (gmsh_read(cfg->mesh_file, (int)cfg->dim, &g->cs, err, sizeof err))
            hydro_fatal(MPI_COMM_WORLD, 1, "%s", err);
    } else {
        struct box b;
        setup_box(cfg, &b);
        int64_t lo[3] = {0, 0, 0};
        cartesian_generate(&b, lo, b.n, &g->cs);
    }
    cellset_sort(&g->cs);
    int nv = g->cs.el->nnodes;
    int64_t maxn = 0;
    for (int64_t i = 0; i < g->cs.ncells * nv; i++)
        if (g->cs.nodes[i] + 1 > maxn)
            maxn = g->cs.nodes[i] + 1;
    g->nnodes = maxn;
    g->nc_off = calloc((size_t)maxn + 1, sizeof *g->nc_off);
    for (int64_t i = 0; i < g->cs.ncells * nv; i++)
        g->nc_off[g->cs.nodes[i] + 1]++;
    for (int64_t i = 0; i < maxn; i++)
        g->nc_off[i + 1] += g->nc_off[i];
    g->nc = malloc(sizeof *g->nc * (size_t)(g->nc_off[maxn] + 1));
    int64_t *fill = malloc(sizeof *fill * (size_t)(maxn + 1));
    memcpy(fill, g->nc_off, sizeof *fill * (size_t)maxn);
    for (int64_t c = 0; c < g->cs.ncells; c++) /* cells ascending: lists come out sorted */
        for (int k = 0; k < nv; k++)
            g->nc[fill[g->cs.nodes[c * nv + k]]++] = c;
    free(fill);
}

static void global_free(struct global *g)
{
    cellset_free(&g->cs);
    free(g->nc_off);
    free(g->nc);
}

/* The materials cell gid holds at a cycle: 1 to 7 of 3 (the same at cycles 3 and 4). */
static unsigned mat_bits(int64_t gid, int cycle) { return 1u + (unsigned)((gid * 5 + (cycle < 4 ? cycle : 3) * 3) % 7); }

/* The expected value of component k of variable id in cell gid at a cycle: positive, 0 for a
 * material the cell lacks. */
static double mat_value(const struct registry *reg, int id, int64_t gid, int k, int cycle)
{
    unsigned bits = mat_bits(gid, cycle);
    if ((reg->v[id].flags & VAR_MATERIAL) && !(bits >> k & 1u))
        return 0.0;
    if ((reg->v[id].flags & VAR_FRACTION) && !(bits & (bits - 1)))
        return 1.0; /* a pure cell's */
    return 1.0 + fabs(sync_case_value(gid, id, k, cycle));
}

/* Owned cells: their composition and the values of the variables ids[0..2] (the fractions, a
 * plain variable, an energy-like material variable whose pure cells keep their value in the
 * cell variable ids[3]); ghosts: every material present, NaN everywhere. */
static void fill_materials(const struct mesh *m, struct registry *reg, const int *ids, int cycle)
{
    for (int32_t i = 0; i < m->ncells; i++) {
        int owned = i < m->ncells_owned;
        double row[MATSTORE_MAX];
        matstore_compose(reg->mats, i, owned ? mat_bits(m->cell_gid[i], cycle) : 7u);
        for (int v = 0; v < 3; v++) {
            const struct var *var = &reg->v[ids[v]];
            for (int k = 0; k < var->ncomp; k++)
                row[k] = owned ? mat_value(reg, ids[v], m->cell_gid[i], k, cycle) : NAN;
            if (var->flags & VAR_MATERIAL) {
                double *pure[MQ_COUNT] = {0};
                pure[var->mq] = reg->v[var->pure >= 0 ? var->pure : ids[3]].data;
                matstore_set(reg->mats, pure, i, (enum mat_quantity)var->mq, row);
            } else {
                memcpy(var->data + (size_t)i * var->ncomp, row, (size_t)var->ncomp * sizeof *row);
            }
        }
        if (!owned)
            reg->v[ids[3]].data[i] = NAN;
    }
}

/* Ghosts' values and compositions that differ from the expected ones at a cycle. */
static long long material_errors(const struct mesh *m, const struct registry *reg, const int *ids, int cycle)
{
    long long wrong = 0;
    for (int32_t i = m->ncells_owned; i < m->ncells; i++) {
        wrong += matstore_bits(reg->mats, i) != mat_bits(m->cell_gid[i], cycle);
        for (int v = 0; v < 3; v++) {
            const struct var *var = &reg->v[ids[v]];
            double row[MATSTORE_MAX];
            if (var->flags & VAR_MATERIAL)
                registry_mat_row(reg, ids[v], i, row);
            else
                memcpy(row, var->data + (size_t)i * var->ncomp, (size_t)var->ncomp * sizeof *row);
            for (int k = 0; k < var->ncomp; k++)
                wrong += row[k] != mat_value(reg, ids[v], m->cell_gid[i], k, cycle);
        }
    }
    return wrong;
}

/* Groups holding material variables (the registry's matstore: pure cells' values in a cell
 * variable, mixed cells' in slots): every ghost receives its owner's composition and values (0
 * for the materials it lacks), each message holds the composition codes and the present
 * entries only, a persistent send is recorded again only when its length changed, and the
 * ghost check agrees, then finds a ghost spoilt on purpose. */
static void material_sync_tests(struct tap *t, MPI_Comm comm, const struct mesh *m, struct sync_plan *cp,
                                struct registry *reg, const char *desc)
{
    enum { NM = 3 };
    int me = comm_rank(comm), ids[4];
    registry_set_materials(reg, NM);
    ids[3] = registry_add(reg, "pure_e", VAR_CELL, 1, VAR_SYNC, "1");
    ids[0] = registry_add_material(reg, "mat_frac", MQ_FRAC, -1, VAR_SYNC | VAR_MATERIAL | VAR_FRACTION, "1");
    ids[1] = registry_add(reg, "plain", VAR_CELL, 2, VAR_SYNC, "1");
    ids[2] = registry_add_material(reg, "mat_e", MQ_E, ids[3], VAR_SYNC | VAR_MATERIAL, "1");
    for (int kind = 0; kind < 2; kind++) {
        struct sync_group *g = sync_group_create(comm, cp, reg, ids, 3, kind ? SYNC_KIND_BASIC : SYNC_KIND_PERSISTENT);
        long long wrong = 0, bytes_wrong = 0, rec3 = 0, changed = 0;
        for (int cycle = 1; cycle <= 4; cycle++) {
            fill_materials(m, reg, ids, cycle);
            long long before = g->bytes_sent, want = 0;
            for (int32_t k = 0; k < cp->send_off[cp->nsend]; k++) /* plain 2, code 1, 2 per material */
                want += 8 * (3 + 2 * __builtin_popcount(mat_bits(m->cell_gid[cp->send_idx[k]], cycle)));
            for (int32_t k = 0; k < cp->send_off[cp->nsend] && cycle > 1; k++)
                changed += mat_bits(m->cell_gid[cp->send_idx[k]], cycle) != mat_bits(m->cell_gid[cp->send_idx[k]], cycle - 1);
            sync_start(g);
            sync_finish(g);
            bytes_wrong += g->bytes_sent - before != want;
            if (cycle == 3)
                rec3 = g->recorded;
            wrong += material_errors(m, reg, ids, cycle);
        }
        long long compared = 0;
        char what[512];
        long long agree = ghost_check_group(comm, m, g, &compared, what, sizeof what);
        int spoilt = m->ncells > m->ncells_owned;
        if (spoilt) { /* the first ghost's first present material's energy, one ulp off */
            int32_t c = m->ncells_owned;
            double row[MATSTORE_MAX];
            registry_mat_row(reg, ids[2], c, row);
            int k = 0;
            while (!(matstore_bits(reg->mats, c) >> k & 1u))
                k++;
            row[k] = nextafter(row[k], INFINITY);
            registry_mat_set_row(reg, ids[2], c, row, 1);
        }
        long long found = ghost_check_group(comm, m, g, &compared, what, sizeof what);
        long long rec4 = g->recorded - rec3;
        sync_group_destroy(g);
        long long sums[6] = {wrong, bytes_wrong, agree, found != spoilt, kind == 0 && rec4 != 0, changed};
        MPI_Allreduce(MPI_IN_PLACE, sums, 6, MPI_LONG_LONG, MPI_SUM, comm);
        const char *k = kind ? "basic" : "persistent";
        if (me == 0) {
            tap_ok(t, sums[0] == 0, "%s: %s sync of material variables (3 materials, compositions changing): every "
                   "ghost holds its owner's materials and values, 0 for the others (%lld wrong)", desc, k, sums[0]);
            tap_ok(t, sums[1] == 0, "%s: %s: each message holds the plain values, a composition code per cell and "
                   "the present materials' values only (%lld syncs of another length)", desc, k, sums[1]);
            tap_ok(t, sums[2] == 0 && sums[3] == 0, "%s: %s: the ghost check finds every ghost equal to its owner, "
                   "then the one spoilt ghost of each rank (%lld, %lld wrong)", desc, k, sums[2], sums[3]);
            if (kind == 0)
                tap_ok(t, sums[4] == 0, "%s: persistent: no send recorded again when no composition changed (%lld "
                       "ranks did; %lld send cells changed before)", desc, sums[4], sums[5]);
        }
    }
}

/* ---------- synchronisations that stop at a ghost layer (sync_group_set_depth) ---------- */

/* At each depth, for the cell and the node plan: the ghosts of the layers up to it (cells 1..d,
 * nodes 0..d) get their owners' values, the deeper ones keep theirs, exactly the refreshed
 * items' bytes are sent, and the ghost check compares those and finds none wrong. */
static void depth_tests(struct tap *t, MPI_Comm comm, const struct mesh *m, struct sync_plan *plans[2],
                        struct registry *reg, const char *desc)
{
    for (int center = 0; center < 2; center++) {
        const int cells = center == 0;
        const int64_t *gid = cells ? m->cell_gid : m->node_gid;
        const int32_t nown = cells ? m->ncells_owned : m->nnodes_owned, n = cells ? m->ncells : m->nnodes;
        const int32_t *start = cells ? m->cell_layer_start : m->node_layer_start;
        char name[32];
        snprintf(name, sizeof name, "depth_%d", center);
        const int id = registry_add(reg, name, cells ? VAR_CELL : VAR_NODE, 2, VAR_SYNC, "1");
        double *x = reg->v[id].data;
        long long wrong = 0, kept = 0, bytes_wrong = 0, checked_wrong = 0;
        for (int depth = 0; depth <= m->nlayers; depth++) {
            struct sync_group *g = sync_group_create(comm, plans[center], reg, &id, 1, SYNC_KIND_PERSISTENT);
            sync_group_set_depth(g, depth);
            const int32_t end = start[depth + 1] < n ? start[depth + 1] : n; /* the refreshed ghosts' end */
            for (int32_t i = 0; i < n; i++)
                for (int c = 0; c < 2; c++)
                    x[2 * (size_t)i + c] = i < nown ? sync_case_value(gid[i], id, c, depth + 1) : -1.0;
            sync_start(g);
            sync_finish(g);
            long long got = 0;
            for (int32_t i = nown; i < n; i++) {
                got += i < end;
                for (int c = 0; c < 2; c++) {
                    const double v = x[2 * (size_t)i + c];
                    wrong += i < end && v != sync_case_value(gid[i], id, c, depth + 1);
                    kept += i >= end && v != -1.0;
                }
            }
            long long sums[2] = {g->bytes_sent, 16 * got}; /* sent over all ranks = received over all */
            MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_LONG_LONG, MPI_SUM, comm);
            bytes_wrong += sums[0] != sums[1];
            long long compared = 0;
            char what[256];
            checked_wrong += ghost_check_group(comm, m, g, &compared, what, sizeof what);
            sync_group_destroy(g);
        }
        long long sums[4] = {wrong, kept, bytes_wrong, checked_wrong};
        MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_LONG_LONG, MPI_SUM, comm);
        if (comm_rank(comm) == 0)
            tap_ok(t, !sums[0] && !sums[1] && !sums[2] && !sums[3], "%s: %s sync stopping at each ghost layer "
                   "0-%d: the layers up to it refreshed (%lld wrong), the deeper ones untouched (%lld changed), their "
                   "bytes only sent (%lld depths wrong), the ghost check agrees (%lld)", desc, cells ? "cell" : "node",
                   m->nlayers, sums[0], sums[1], sums[2], sums[3]);
    }
}

/* ---------- cells_spread against a breadth-first search of the global mesh ---------- */
/* Two sources of distinct powers of two, so that a cell's value tells which one reached it and
 * from how far; the rest 0. */
static double spread_source(int64_t gid) { return gid == 5 ? 4.0 : gid == 61 ? 2.0 : 0.0; }

static int cmp64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* want[N]: each global cell's largest (1 - d / reach) v of the sources d < reach layers away, a
 * layer being the cells sharing a node with the previous one (breadth-first through the nodes). */
static void spread_expected(const struct global *g, double reach, double *want)
{
    const int64_t N = g->cs.ncells;
    const int nv = g->cs.el->nnodes;
    int64_t *dist = malloc(sizeof *dist * (size_t)(N + 1)), *queue = malloc(sizeof *queue * (size_t)(N + 1));
    for (int64_t s = 0; s < N; s++) {
        const double vs = spread_source(g->cs.gid[s]);
        want[s] = fmax(want[s], vs);
        if (vs == 0)
            continue;
        for (int64_t i = 0; i < N; i++)
            dist[i] = -1;
        int64_t head = 0, tail = 0;
        dist[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            const int64_t c = queue[head++];
            if (dist[c] + 1 >= reach)
                continue;
            for (int k = 0; k < nv; k++) {
                const int64_t node = g->cs.nodes[c * nv + k];
                for (int64_t j = g->nc_off[node]; j < g->nc_off[node + 1]; j++) {
                    const int64_t o = g->nc[j];
                    if (dist[o] >= 0)
                        continue;
                    dist[o] = dist[c] + 1;
                    want[o] = fmax(want[o], (1.0 - (double)dist[o] / reach) * vs);
                    queue[tail++] = o;
                }
            }
        }
    }
    free(dist);
    free(queue);
}

/* reach 7.5: 7 layers, 3 synchronisations with 3 ghost layers and 7 with 1; 4: an integer reach
 * (its last layer weighs 0); 1: nothing moves. */
static void spread_tests(struct tap *t, MPI_Comm comm, const struct config *cfg, const struct mesh *m,
                         struct sync_plan *cp, struct registry *reg, const char *desc)
{
    struct global g;
    global_build(cfg, &g);
    const int id = registry_add_external(reg, "spread", VAR_CELL, 1, VAR_SYNC, "1", NULL);
    const double reaches[] = {7.5, 4.0, 1.0};
    for (int r = 0; r < 3; r++) {
        double *want = calloc((size_t)g.cs.ncells + 1, sizeof *want);
        spread_expected(&g, reaches[r], want);
        double *v = malloc(sizeof *v * (size_t)(m->ncells_owned + 1));
        for (int32_t c = 0; c < m->ncells_owned; c++)
            v[c] = spread_source(m->cell_gid[c]);
        cells_spread(comm, m, cp, reg, id, v, reaches[r]);
        int wrong = reg->v[id].data != NULL, reached = 0;
        for (int32_t c = 0; c < m->ncells_owned; c++) {
            const int64_t *at = bsearch(&m->cell_gid[c], g.cs.gid, (size_t)g.cs.ncells, sizeof *g.cs.gid, cmp64);
            wrong += !at || v[c] != want[at - g.cs.gid];
            reached += v[c] > 0 && spread_source(m->cell_gid[c]) == 0;
        }
        int sums[2] = {0, 0}, mine[2] = {wrong, reached}, want_reached = 0;
        for (int64_t i = 0; i < g.cs.ncells; i++)
            want_reached += want[i] > 0 && spread_source(g.cs.gid[i]) == 0;
        MPI_Reduce(mine, sums, 2, MPI_INT, MPI_SUM, 0, comm);
        if (comm_rank(comm) == 0)
            tap_ok(t, sums[0] == 0 && sums[1] == want_reached, "%s: cells_spread over %.1f layers equals a "
                   "breadth-first search of the whole mesh in every owned cell, to the last bit (%d wrong, %d cells "
                   "reached of %d)", desc, reaches[r], sums[0], sums[1], want_reached);
        free(v);
        free(want);
    }
    global_free(&g);
}

int main(int argc, char **argv)
{
    comm_init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    int me = comm_rank(comm), P = comm_size(comm);
    struct tap t = {.quiet = me != 0};
    struct config cfg;
    char err[1024];
    if (deck_parse("", "(test)", argc - 1, argv + 1, DECK_CHECK_FILES, &cfg, err, sizeof err))
        hydro_fatal(comm, 2, "%s", err);
    const char *desc = argc > 1 ? argv[1] : "defaults";
    if (me == 0) {
        printf("# mesh_mpi on %d ranks:", P);
        for (int i = 1; i < argc; i++)
            printf(" %s", argv[i]);
        printf("\n");
    }

    struct mesh *m = setup_mesh(comm, &cfg, NULL, NULL, err, sizeof err);
    if (!m)
        hydro_fatal(comm, 1, "setup_mesh failed: %s", err);
    const struct element *el = m->el;
    const int nv = el->nnodes, nf = el->nfaces, L = m->nlayers;

    /* ---------- gather owned cells and ghosts (gid, layer, owner) ---------- */
    int *cnt, *dsp;
    int64_t *owned_all = gather64(comm, m->cell_gid, m->ncells_owned, &cnt, &dsp);
    int nghost = m->ncells - m->ncells_owned;
    int64_t *gh = malloc(sizeof *gh * (size_t)(3 * nghost + 1));
    for (int l = 1; l <= L; l++)
        for (int32_t c = m->cell_layer_start[l]; c < m->cell_layer_start[l + 1]; c++) {
            int32_t i = c - m->ncells_owned;
            gh[3 * i] = m->cell_gid[c];
            gh[3 * i + 1] = l;
            gh[3 * i + 2] = mesh_cell_owner(m, c);
        }
    int *gcnt, *gdsp;
    int64_t *ghost_all = gather64(comm, gh, 3 * nghost, &gcnt, &gdsp);
    free(gh);

    /* local nodes: (gid, owner, layer, x, y, z as bits) */
    int64_t *nd = malloc(sizeof *nd * (size_t)(6 * m->nnodes + 1));
    for (int32_t i = 0; i < m->nnodes; i++) {
        int layer = 0;
        while (layer < L && i >= m->node_layer_start[layer + 1])
            layer++;
        nd[6 * i] = m->node_gid[i];
        nd[6 * i + 1] = mesh_node_owner(m, i);
        nd[6 * i + 2] = layer;
        memcpy(&nd[6 * i + 3], &m->node_xyz[3 * i], 3 * sizeof(double));
    }
    int *ncnt, *ndsp;
    int64_t *node_all = gather64(comm, nd, 6 * m->nnodes, &ncnt, &ndsp);
    free(nd);

    /* local faces: (sorted node gids x4, kind, tag) */
    int64_t *fd = malloc(sizeof *fd * (size_t)(6 * m->nfaces + 1));
    for (int32_t f = 0; f < m->nfaces; f++) {
        int32_t c = m->face_cells[2 * f];
        int64_t ng[MAX_CELL_NODES];
        for (int k = 0; k < nv; k++)
            ng[k] = m->node_gid[m->cell_nodes[c * nv + k]];
        element_face_key(el, ng, mesh_face_side(m, f, 0), &fd[6 * f]);
        fd[6 * f + 4] = m->face_cells[2 * f + 1] >= 0 ? 0 : m->face_cells[2 * f + 1];
        fd[6 * f + 5] = mesh_face_tag(m, f);
    }
    int *fcnt, *fdsp;
    int64_t *face_all = gather64(comm, fd, 6 * m->nfaces, &fcnt, &fdsp);
    free(fd);

    /* ---------- local checks on every rank ---------- */
    int bad_nc = 0, bad_order = 0, bad_faces = 0, bad_cf = 0;
    for (int32_t i = 0; i < m->nnodes; i++)
        for (int32_t k = m->node_cell_off[i] + 1; k < m->node_cell_off[i + 1]; k++)
            bad_order += m->cell_gid[mesh_nc_cell(m->node_cells[k - 1])] >=
                         m->cell_gid[mesh_nc_cell(m->node_cells[k])];
    for (int32_t c = 0; c < m->ncells; c++)
        for (int k = 0; k < nv; k++) {
            int32_t n = m->cell_nodes[c * nv + k], found = 0;
            for (int32_t j = m->node_cell_off[n]; j < m->node_cell_off[n + 1]; j++)
                found |= mesh_nc_cell(m->node_cells[j]) == c &&
                         m->cell_nodes[c * nv + mesh_nc_corner(m->node_cells[j])] == n;
            bad_nc += !found;
        }
    for (int32_t c = 0; c < m->ncells; c++)
        for (int f = 0; f < nf; f++) {
            int32_t face = m->cell_faces[c * nf + f];
            int side = m->face_cells[2 * face] == c ? 0 : m->face_cells[2 * face + 1] == c ? 1 : -1;
            int seen = 0; /* a face once in each of its cells' lists (twice in a cell paired with itself) */
            for (int g = 0; g < nf; g++)
                seen += m->cell_faces[c * nf + g] == face;
            bad_cf += side < 0 || seen != (m->face_cells[2 * face] == m->face_cells[2 * face + 1] ? 2 : 1) ||
                      m->cell_faces[c * nf + mesh_face_side(m, face, side)] != face;
            /* owned cells and inner layers never see a cut face */
            if (c < m->cell_layer_start[L] && m->face_cells[2 * face + 1] == FACE_CUT)
                bad_faces++;
        }
    for (int32_t f = 0; f < m->nfaces; f++) {
        int32_t a = m->face_cells[2 * f], b = m->face_cells[2 * f + 1];
        if (b >= 0 && m->cell_gid[a] >= m->cell_gid[b])
            bad_faces++;
    }
    /* numbering: each cell layer ascending; owned nodes, then each node layer, ascending */
    int bad_numbering = 0;
    for (int l = 0; l <= L; l++)
        for (int32_t c = m->cell_layer_start[l] + 1; c < m->cell_layer_start[l + 1]; c++)
            bad_numbering += m->cell_gid[c - 1] >= m->cell_gid[c];
    bad_numbering += m->cell_layer_start[0] != 0 || m->cell_layer_start[1] != m->ncells_owned ||
                     m->cell_layer_start[L + 1] != m->ncells;
    for (int32_t i = 1; i < m->nnodes; i++) {
        int starts_class = i == m->nnodes_owned;
        for (int l = 1; l <= L; l++)
            starts_class |= i == m->node_layer_start[l];
        if (!starts_class)
            bad_numbering += m->node_gid[i - 1] >= m->node_gid[i];
    }
    for (int32_t i = 0; i < m->nnodes; i++)
        bad_numbering += (i < m->nnodes_owned) != (mesh_node_owner(m, i) == me);
    int bad_local[5] = {bad_nc, bad_order, bad_faces, bad_cf, bad_numbering}, bad_sum[5];
    MPI_Reduce(bad_local, bad_sum, 5, MPI_INT, MPI_SUM, 0, comm);
    if (me == 0) {
        tap_ok(&t, bad_sum[0] == 0, "%s: node_cells holds every local cell of each node (%d missing)", desc, bad_sum[0]);
        tap_ok(&t, bad_sum[1] == 0, "%s: node_cells lists are in ascending cell gid (%d out of order)", desc,
               bad_sum[1]);
        tap_ok(&t, bad_sum[2] == 0, "%s: faces: smaller gid first, no cut face below the last layer "
               "(%d bad)", desc, bad_sum[2]);
        tap_ok(&t, bad_sum[3] == 0, "%s: every face once in each of its cells' cell_faces, and found there (%d bad)",
               desc, bad_sum[3]);
        tap_ok(&t, bad_sum[4] == 0, "%s: owned cells then layers, owned nodes then node layers, each in ascending "
               "gid (%d out of order)", desc, bad_sum[4]);
    }

    /* ---------- brute force on rank 0 ---------- */
    if (me == 0) {
        struct global g;
        global_build(&cfg, &g);
        int64_t N = g.cs.ncells;
        int64_t *owner = malloc(sizeof *owner * (size_t)N);
        for (int64_t c = 0; c < N; c++)
            owner[c] = -1;
        int dup = 0, range = 0;
        for (int r = 0; r < P; r++)
            for (int i = dsp[r]; i < dsp[r + 1]; i++) {
                int64_t c = owned_all[i];
                if (c < 0 || c >= N) {
                    range++;
                    continue;
                }
                dup += owner[c] >= 0;
                owner[c] = r;
            }
        int64_t unowned = 0;
        for (int64_t c = 0; c < N; c++)
            unowned += owner[c] < 0;
        tap_ok(&t, !dup && !range && !unowned, "%s: owned cells partition the %lld cells (dup %d, out of range %d, "
               "unowned %lld)", desc, (long long)N, dup, range, (long long)unowned);

        /* layers by breadth-first search through shared nodes */
        int *layer = malloc(sizeof *layer * (size_t)N);
        int64_t *front = malloc(sizeof *front * (size_t)N), *next = malloc(sizeof *next * (size_t)N);
        int layer_errors = 0, owner_errors = 0;
        int64_t total_ghosts = 0;
        for (int r = 0; r < P; r++) {
            for (int64_t c = 0; c < N; c++)
                layer[c] = -1;
            int64_t nfront = 0;
            for (int i = dsp[r]; i < dsp[r + 1]; i++) {
                layer[owned_all[i]] = 0;
                front[nfront++] = owned_all[i];
            }
            for (int l = 1; l <= L; l++) {
                int64_t nnext = 0;
                for (int64_t i = 0; i < nfront; i++)
                    for (int k = 0; k < nv; k++) {
                        int64_t node = g.cs.nodes[front[i] * nv + k];
                        for (int64_t j = g.nc_off[node]; j < g.nc_off[node + 1]; j++)
                            if (layer[g.nc[j]] < 0) {
                                layer[g.nc[j]] = l;
                                next[nnext++] = g.nc[j];
                            }
                    }
                int64_t *tmp = front;
                front = next;
                next = tmp;
                nfront = nnext;
            }
            /* compare with what rank r built */
            int64_t expected = 0;
            for (int64_t c = 0; c < N; c++)
                expected += layer[c] > 0;
            int64_t got = (gdsp[r + 1] - gdsp[r]) / 3;
            total_ghosts += got;
            if (got != expected)
                layer_errors++;
            for (int i = gdsp[r]; i < gdsp[r + 1]; i += 3) {
                int64_t c = ghost_all[i];
                if (c < 0 || c >= N || layer[c] != ghost_all[i + 1]) {
                    layer_errors++;
                    continue;
                }
                layer[c] = -2; /* seen once */
                owner_errors += owner[c] != ghost_all[i + 2];
            }
        }
        tap_ok(&t, layer_errors == 0, "%s: ghost layers 1..%d of every rank equal the brute-force layers (%lld ghosts, "
               "%d errors)", desc, L, (long long)total_ghosts, layer_errors);
        tap_ok(&t, owner_errors == 0, "%s: every ghost cell names its real owner (%d errors)", desc, owner_errors);

        /* nodes: each local node is a node of a local cell, one owner per node, the rule */
        int64_t *node_owner = malloc(sizeof *node_owner * (size_t)g.nnodes);
        int node_errors = 0, owner_rule = 0, coord_errors = 0;
        for (int64_t n = 0; n < g.nnodes; n++)
            node_owner[n] = -1;
        int64_t owned_nodes = 0;
        for (int r = 0; r < P; r++)
            for (int i = ndsp[r]; i < ndsp[r + 1]; i += 6) {
                int64_t n = node_all[i], o = node_all[i + 1];
                if (n < 0 || n >= g.nnodes) {
                    node_errors++;
                    continue;
                }
                /* owner: owner of the node's smallest-gid cell */
                owner_rule += o != owner[g.nc[g.nc_off[n]]];
                if (o == r) {
                    owned_nodes++;
                    node_errors += node_owner[n] >= 0;
                    node_owner[n] = r;
                    owner_rule += node_all[i + 2] != 0;
                }
                double x[3];
                memcpy(x, &node_all[i + 3], sizeof x);
                const double *gx = cellset_node_xyz(&g.cs, n);
                coord_errors += !gx || memcmp(x, gx, sizeof x) != 0;
            }
        int64_t orphan = 0;
        for (int64_t n = 0; n < g.nnodes; n++)
            orphan += node_owner[n] < 0;
        tap_ok(&t, node_errors == 0 && orphan == 0 && owned_nodes == g.nnodes,
               "%s: every one of the %lld nodes has exactly one owner (%d duplicates, %lld orphans)", desc,
               (long long)g.nnodes, node_errors, (long long)orphan);
        tap_ok(&t, owner_rule == 0, "%s: node owner = owner of its smallest-gid cell, owned nodes in layer 0 (%d errors)",
               desc, owner_rule);
        tap_ok(&t, coord_errors == 0, "%s: local node coordinates equal the global ones bit for bit (%d errors)", desc,
               coord_errors);

        /* faces: the ranks' faces are the serial mesh's, each of one kind wherever it is seen */
        int64_t nrec = fdsp[P] / 6;
        struct frec {
            int64_t key[4], kind, tag;
        } *fr = malloc(sizeof *fr * (size_t)(nrec + 1));
        for (int64_t i = 0; i < nrec; i++)
            memcpy(&fr[i], &face_all[6 * i], sizeof fr[i]);
        int face_errors = 0;
        int cmpkey(const void *a, const void *b);
        qsort(fr, (size_t)nrec, sizeof *fr, cmpkey); /* by node key (first member) */
        int64_t distinct = 0, boundary = 0;
        for (int64_t i = 0; i < nrec; i++) {
            if (i > 0 && !memcmp(fr[i].key, fr[i - 1].key, sizeof fr[i].key)) {
                face_errors += fr[i].kind != FACE_CUT && fr[i - 1].kind != FACE_CUT && fr[i].kind != fr[i - 1].kind;
                face_errors += fr[i].tag != fr[i - 1].tag;
                continue;
            }
            distinct++;
            boundary += fr[i].kind == FACE_BOUNDARY;
        }
        /* serial faces: sort all cell-face keys */
        int64_t nkeys = N * nf;
        int64_t(*keys)[4] = malloc(sizeof *keys * (size_t)nkeys);
        for (int64_t c = 0; c < N; c++)
            for (int f = 0; f < nf; f++)
                element_face_key(el, g.cs.nodes + c * nv, f, keys[c * nf + f]);
        qsort(keys, (size_t)nkeys, sizeof *keys, cmpkey);
        int64_t serial_faces = 0, serial_boundary = 0;
        for (int64_t i = 0; i < nkeys; i++) {
            int same_prev = i > 0 && !memcmp(keys[i], keys[i - 1], sizeof keys[i]);
            int same_next = i + 1 < nkeys && !memcmp(keys[i], keys[i + 1], sizeof keys[i]);
            serial_faces += !same_prev;
            serial_boundary += !same_prev && !same_next;
        }
        tap_ok(&t, face_errors == 0 && distinct == serial_faces,
"%s: the ranks' faces are the mesh's, of one kind and tag wherever seen (%lld faces, %lld serial, %d errors)", desc,
               (long long)distinct, (long long)serial_faces, face_errors);
        tap_ok(&t, boundary == serial_boundary, "%s: the ranks' boundary faces are exactly the mesh's (%lld of %lld)",
               desc, (long long)boundary, (long long)serial_boundary);
        /* tags: every local face carries the tag the serial mesh gives that face (0 inside) */
        int64_t(*tagged)[5] = malloc(sizeof *tagged * (size_t)nkeys);
        for (int64_t c = 0; c < N; c++)
            for (int f = 0; f < nf; f++) {
                element_face_key(el, g.cs.nodes + c * nv, f, tagged[c * nf + f]);
                tagged[c * nf + f][4] = g.cs.face_tag[c * nf + f];
            }
        qsort(tagged, (size_t)nkeys, sizeof *tagged, cmpkey);
        int tag_errors = 0;
        int64_t nonzero = 0;
        for (int64_t i = 0; i < nrec; i++) {
            const int64_t(*s)[5] = bsearch(fr[i].key, tagged, (size_t)nkeys, sizeof *tagged, cmpkey);
            tag_errors += !s || (*s)[4] != fr[i].tag;
            nonzero += fr[i].tag != 0;
        }
        free(tagged);
        tap_ok(&t, tag_errors == 0, "%s: face boundary tags are the serial mesh's (%lld local faces tagged, %d errors)",
               desc, (long long)nonzero, tag_errors);
        if (P == 1) {
            int64_t nn_cells = 0;
            for (int64_t n = 0; n < g.nnodes; n++)
                nn_cells += g.nc_off[n + 1] - g.nc_off[n];
            tap_ok(&t, m->nfaces == serial_faces && boundary == serial_boundary && nn_cells == (int64_t)N * nv &&
                       m->node_cell_off[m->nnodes] == N * nv,
                   "%s: one rank: %d faces (%lld boundary), node->cells holds %d entries", desc, m->nfaces,
                   (long long)boundary, m->node_cell_off[m->nnodes]);
            if (cfg.mesh_kind == MESH_CARTESIAN) {
                int64_t nx = cfg.nx, ny = cfg.ny, nz = cfg.dim == 3 ? cfg.nz : 1;
                int64_t want = cfg.dim == 3 ? (nx + 1) * ny * nz + nx * (ny + 1) * nz + nx * ny * (nz + 1)
                                            : (nx + 1) * ny + nx * (ny + 1);
                int64_t want_b = cfg.dim == 3 ? 2 * (nx * ny + ny * nz + nx * nz) : 2 * (nx + ny);
                tap_ok(&t, serial_faces == want && serial_boundary == want_b,
                       "%s: cartesian face counts match the formula (%lld faces, %lld boundary)", desc,
                       (long long)want, (long long)want_b);
            }
        }
        free(keys);
        free(fr);
        free(node_owner);
        free(layer);
        free(front);
        free(next);
        free(owner);
        global_free(&g);
    }
    free(owned_all);
    free(ghost_all);
    free(node_all);
    free(face_all);
    free(cnt);
    free(dsp);
    free(gcnt);
    free(gdsp);
    free(ncnt);
    free(ndsp);
    free(fcnt);
    free(fdsp);

    /* ---------- synchronisation: cell and node, 1 and 3 components, both kinds ---------- */
    struct sync_plan cp, np;
    sync_plans_build(comm, m, &cp, &np);
    struct registry reg;
    registry_init(&reg, m->ncells, m->nnodes);
    for (int kind = 0; kind < 2; kind++)
        for (int ncomp = 1; ncomp <= 3; ncomp += 2)
            for (int center = 0; center < 2; center++) {
                char name[64];
                snprintf(name, sizeof name, "v%d_%d_%d", kind, ncomp, center);
                int id = registry_add(&reg, name, center == 0 ? VAR_CELL : VAR_NODE, ncomp, VAR_SYNC, "1");
                struct var *v = &reg.v[id];
                const int64_t *gid = center == 0 ? m->cell_gid : m->node_gid;
                int32_t nown = center == 0 ? m->ncells_owned : m->nnodes_owned;
                int32_t n = center == 0 ? m->ncells : m->nnodes;
                struct sync_group *grp = sync_group_create(comm, center == 0 ? &cp : &np, &reg, &id, 1,
                                                           kind == 0 ? SYNC_KIND_PERSISTENT : SYNC_KIND_BASIC);
                int wrong = 0;
                for (int cycle = 1; cycle <= 3; cycle++) { /* replayed: persistent requests reused */
                    for (int32_t i = 0; i < n; i++)
                        for (int c = 0; c < ncomp; c++)
                            v->data[(size_t)i * ncomp + c] =
                                i < nown ? sync_case_value(gid[i], id, c, cycle) : NAN;
                    sync_start(grp);
                    sync_finish(grp);
                    for (int32_t i = nown; i < n; i++)
                        for (int c = 0; c < ncomp; c++)
                            wrong += v->data[(size_t)i * ncomp + c] != sync_case_value(gid[i], id, c, cycle);
                }
                sync_group_destroy(grp);
                int total = 0;
                MPI_Reduce(&wrong, &total, 1, MPI_INT, MPI_SUM, 0, comm);
                if (me == 0)
                    tap_ok(&t, total == 0, "%s: %s sync of %s variable, %d component(s): every ghost equals its owner "
                           "(%d wrong)", desc, kind == 0 ? "persistent" : "basic", center == 0 ? "cell" : "node", ncomp,
                           total);
            }
    { /* a view: columns 1-3 of a [cells][5] array, synchronised in place; columns 0 and 4 untouched */
        enum { W = 5 };
        int id = registry_add_external(&reg, "view", VAR_CELL, 3, VAR_SYNC, "1", NULL);
        double *wide = malloc((size_t)(m->ncells ? m->ncells : 1) * W * sizeof *wide);
        registry_set_view(&reg, id, wide + 1, W);
        struct sync_group *grp = sync_group_create(comm, &cp, &reg, &id, 1, SYNC_KIND_PERSISTENT);
        int wrong = 0;
        for (int cycle = 1; cycle <= 2; cycle++) {
            for (int32_t i = 0; i < m->ncells; i++)
                for (int c = 0; c < W; c++)
                    wide[(size_t)i * W + c] = c == 0 || c == W - 1 ? -1.0
                                              : i < m->ncells_owned ? sync_case_value(m->cell_gid[i], id, c - 1, cycle)
                                                                    : NAN;
            sync_start(grp);
            sync_finish(grp);
            for (int32_t i = 0; i < m->ncells; i++)
                for (int c = 0; c < W; c++)
                    wrong += wide[(size_t)i * W + c] != (c == 0 || c == W - 1 ? -1.0
                                                          : sync_case_value(m->cell_gid[i], id, c - 1, cycle));
        }
        sync_group_destroy(grp);
        free(wide);
        int total = 0;
        MPI_Reduce(&wrong, &total, 1, MPI_INT, MPI_SUM, 0, comm);
        if (me == 0)
            tap_ok(&t, total == 0, "%s: sync of a strided view (3 of 5 columns): ghosts equal their owners, the "
                   "other columns are untouched (%d wrong)", desc, total);
    }
    struct sync_plan *plans[2] = {&cp, &np};
    depth_tests(&t, comm, m, plans, &reg, desc);
    material_sync_tests(&t, comm, m, &cp, &reg, desc);
    spread_tests(&t, comm, &cfg, m, &cp, &reg, desc);
    registry_free(&reg);
    sync_plan_free(&cp);
    sync_plan_free(&np);
    mesh_destroy(m);
    int failed = 0;
    if (me == 0)
        failed = tap_done(&t);
    MPI_Bcast(&failed, 1, MPI_INT, 0, comm);
    comm_finalize();
    return failed;
}

int cmpkey(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    for (int i = 0; i < 4; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}
