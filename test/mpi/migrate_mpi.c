/* MPI integration test of cell migration: several rounds of moves by formula (random, all to
 * rank 0 so that the others own nothing, back out of rank 0, a ring), each followed by the
 * rebuild hydro does; checks ownership, every variable value against its formula, ghosts after
 * a synchronisation, complete ghost layers, and the exchange's message splitting.
 * Usage: mpirun -np N migrate_mpi [--collective] [section.key=value ...]. Rank 0 prints TAP. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ghost.h"
#include "comm.h"
#include "deck.h"
#include "migrate.h"
#include "setup.h"
#include "sync.h"
#include "tap.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

/* The rank cell gid goes to in a round (every rank computes the same for a gid). */
static int dest_of(int round, int64_t gid, int P)
{
    switch (round) {
    case 0: return (int)(mix((uint64_t)gid + 17) % (uint64_t)P);
    case 1: return 0;
    case 2: return (int)(mix((uint64_t)gid * 3 + 5) % (uint64_t)P);
    default: return (int)((gid / 7 + round) % P);
    }
}

/* Exact in double: small integers. */
static double value(int var, int64_t gid, int comp) { return (double)gid * 16.0 + var * 4 + comp + 0.25; }

enum { V_C1, V_C3, V_N2, NV };
static const struct {
    const char *name;
    enum var_center center;
    int ncomp;
} vars[NV] = {{"c1", VAR_CELL, 1}, {"c3", VAR_CELL, 3}, {"n2", VAR_NODE, 2}};

static void fill(struct registry *reg, const int *id, const struct mesh *m, int ghosts_too)
{
    for (int v = 0; v < NV; v++) {
        int cell = vars[v].center == VAR_CELL;
        int32_t n = cell ? (ghosts_too ? m->ncells : m->ncells_owned) : (ghosts_too ? m->nnodes : m->nnodes_owned);
        const int64_t *gid = cell ? m->cell_gid : m->node_gid;
        for (int32_t i = 0; i < n; i++)
            for (int k = 0; k < vars[v].ncomp; k++)
                reg->v[id[v]].data[(size_t)i * vars[v].ncomp + k] = value(v, gid[i], k);
    }
}

/* Wrong values among the first n items of each family (all local items when ghosts_too). */
static long bad_values(const struct registry *reg, const int *id, const struct mesh *m, int ghosts_too)
{
    long bad = 0;
    for (int v = 0; v < NV; v++) {
        int cell = vars[v].center == VAR_CELL;
        int32_t n = cell ? (ghosts_too ? m->ncells : m->ncells_owned) : (ghosts_too ? m->nnodes : m->nnodes_owned);
        const int64_t *gid = cell ? m->cell_gid : m->node_gid;
        for (int32_t i = 0; i < n; i++)
            for (int k = 0; k < vars[v].ncomp; k++)
                bad += reg->v[id[v]].data[(size_t)i * vars[v].ncomp + k] != value(v, gid[i], k);
    }
    return bad;
}

/* Cartesian box: a node's cells in the whole mesh (1, 2, 4 or 8). The nodes of every cell
 * below the last layer must see all of them locally, or a ghost layer is incomplete. */
static long incomplete_layers(const struct mesh *m, const struct config *cfg)
{
    int64_t n[3] = {cfg->nx, cfg->ny, cfg->dim == 3 ? cfg->nz : 0};
    long bad = 0;
    for (int32_t c = 0; c < m->cell_layer_start[m->nlayers]; c++)
        for (int k = 0; k < m->el->nnodes; k++) {
            int32_t node = m->cell_nodes[(size_t)c * m->el->nnodes + k];
            int64_t g = m->node_gid[node], want = 1;
            for (int d = 0; d < cfg->dim; d++) {
                int64_t i = g % (n[d] + 1);
                g /= n[d] + 1;
                want *= (i > 0) + (i < n[d]);
            }
            bad += m->node_cell_off[node + 1] - m->node_cell_off[node] != want;
        }
    return bad;
}

static void sync_all(MPI_Comm comm, struct sync_plan *cp, struct sync_plan *np, struct registry *reg, const int *id)
{
    int cells[NV], nodes[NV], nc = 0, nn = 0;
    for (int v = 0; v < NV; v++) {
        if (vars[v].center == VAR_CELL)
            cells[nc++] = id[v];
        else
            nodes[nn++] = id[v];
    }
    struct sync_group *g = sync_group_create(comm, cp, reg, cells, nc, SYNC_KIND_BASIC);
    sync_start(g);
    sync_finish(g);
    sync_group_destroy(g);
    g = sync_group_create(comm, np, reg, nodes, nn, SYNC_KIND_BASIC);
    sync_start(g);
    sync_finish(g);
    sync_group_destroy(g);
}

/* Messages of random sizes split into 1000-byte pieces arrive whole, both transports, with
 * fresh buffers and with a pool reused by three exchanges in a row (its previous messages are
 * overwritten, the new ones must be intact); then the same from block outboxes (every message
 * packed into one block), in pieces and whole (MPI_Alltoallv straight from the block). */
static void test_chunks(MPI_Comm comm, struct tap *t)
{
    const int me = comm_rank(comm), P = comm_size(comm);
    struct comm_pool pool;
    memset(&pool, 0, sizeof pool);
    for (int mode = 0; mode < 16; mode++) {
        /* 0-7: per-rank buffers, fresh then a pool three times in a row; 8-15: block outboxes,
         * in pieces then whole, each fresh then pooled */
        int collective = mode & 1, block = mode >= 8, whole = mode >= 12, pooled = block ? (mode & 2) != 0 : mode >= 2;
        struct outbox out;
        if (block)
            outbox_init_block(&out, comm, pooled ? &pool : NULL);
        else if (pooled)
            outbox_init_pooled(&out, comm, &pool);
        else
            outbox_init(&out, comm);
        if (!whole)
            out.chunk = 1000;
        for (int r = 0; r < P; r++) {
            size_t n = (size_t)(mix((uint64_t)(me * 131 + r)) % 5000); /* sometimes under one piece */
            if (r == (me + 1) % P)
                n = 4321;
            for (size_t i = 0; i < n; i++) {
                unsigned char byte = (unsigned char)(mix((uint64_t)(me * 1000003 + r * 7919) + i) & 0xff);
                buf_put(outbox_to(&out, r), &byte, 1);
            }
        }
        struct inbox in;
        if (collective)
            comm_exchange_collective(comm, &out, &in);
        else
            comm_exchange(comm, &out, &in);
        long bad = 0;
        int expected = 0;
        for (int s = 0; s < P; s++)
            expected += (s == (me + P - 1) % P) || mix((uint64_t)(s * 131 + me)) % 5000 > 0;
        bad += in.n != expected;
        for (int i = 0; i < in.n; i++) {
            int s = in.src[i];
            size_t n = s == (me + P - 1) % P ? 4321 : (size_t)(mix((uint64_t)(s * 131 + me)) % 5000);
            bad += in.msg[i].len != n;
            for (size_t k = 0; k < n && k < in.msg[i].len; k++)
                bad += (unsigned char)in.msg[i].data[k] != (mix((uint64_t)(s * 1000003 + me * 7919) + k) & 0xff);
        }
        inbox_free(&in);
        outbox_free(&out);
        long all = comm_sum_ll(comm, bad);
        tap_ok(t, all == 0, "%s exchange of up to 5000 bytes per pair %s arrives intact%s%s (%ld bad)",
               collective ? "collective" : "point-to-point", whole ? "whole" : "in 1000-byte pieces",
               block ? ", one send block" : "", pooled ? ", pooled buffers" : "", all);
    }
    comm_pool_free(&pool);
}

int main(int argc, char **argv)
{
    comm_init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    const int me = comm_rank(comm), P = comm_size(comm);
    struct tap t = {.quiet = me != 0};
    int collective = argc > 1 && !strcmp(argv[1], "--collective");
    int skip = 1 + collective;
    struct config cfg;
    char err[1024];
    if (deck_parse("", "(test)", argc - skip, argv + skip, DECK_CHECK_FILES, &cfg, err, sizeof err))
        hydro_fatal(comm, 2, "%s", err);
    if (me == 0)
        printf("# migrate_mpi on %d ranks, %s\n", P, collective ? "MPI_Alltoallv" : "point to point");

    struct mesh *m = setup_mesh(comm, &cfg, NULL, NULL, err, sizeof err);
    if (!m)
        hydro_fatal(comm, 1, "setup_mesh failed: %s", err);
    const int64_t N = m->global_ncells;
    struct registry reg;
    registry_init(&reg, m->ncells, m->nnodes);
    int id[NV];
    for (int v = 0; v < NV; v++)
        id[v] = registry_add(&reg, vars[v].name, vars[v].center, vars[v].ncomp, VAR_SYNC | VAR_MIGRATE, "1");
    /* an external variable is not the registry's: migration must leave it alone */
    double *ext = xcalloc((size_t)m->nnodes * 3 + 1, sizeof *ext);
    int ext_id = registry_add_external(&reg, "ext", VAR_NODE, 3, VAR_SYNC, "m", ext);
    /* the registry's, but not migrating: resized for the new mesh, zero-filled */
    int still_id = registry_add(&reg, "still", VAR_CELL, 2, VAR_SYNC, "1");
    fill(&reg, id, m, 1);

    struct comm_pool pools[2];
    memset(pools, 0, sizeof pools);
    for (int round = 0; round < 4; round++) {
        int *dest = xmalloc((size_t)(m->ncells_owned + 1) * sizeof *dest);
        long long leaving = 0;
        for (int32_t c = 0; c < m->ncells_owned; c++) {
            dest[c] = dest_of(round, m->cell_gid[c], P);
            leaving += dest[c] != me;
        }
        struct migration mg;
        migration_run(comm, m, &reg, dest, collective, round >= 2 ? pools : NULL, &mg); /* fresh, then pooled */
        free(dest);
        const int nlayers = m->nlayers;
        const long long want_nodes = m->global_nnodes; /* the mesh's nodes, each owned once before */
        mesh_destroy(m); /* as hydro does: the old mesh is not needed any more */
        m = NULL;
        struct mesh *nm = mesh_build(comm, &mg.own, nlayers, 1, err, sizeof err);
        if (!nm)
            hydro_fatal(comm, 1, "round %d: mesh_build failed: %s", round, err);
        migration_finish(&mg, nm, &reg);
        registry_set_external(&reg, ext_id, ext);

        long long sent = comm_sum_ll(comm, mg.cells_sent), want_sent = comm_sum_ll(comm, leaving);
        long long owned = comm_sum_ll(comm, nm->ncells_owned), gid_sum = 0;
        long wrong_owner = 0;
        for (int32_t c = 0; c < nm->ncells_owned; c++) {
            gid_sum += nm->cell_gid[c];
            wrong_owner += dest_of(round, nm->cell_gid[c], P) != me;
        }
        gid_sum = comm_sum_ll(comm, gid_sum);
        long long wo = comm_sum_ll(comm, wrong_owner);
        long long empty = comm_sum_ll(comm, nm->ncells_owned == 0);
        tap_ok(&t, sent == want_sent && owned == N && gid_sum == N * (N - 1) / 2 && wo == 0,
               "round %d: %lld cells moved, every cell owned once by its destination (%lld owned of %lld, %lld "
               "misplaced), %lld ranks own none", round, sent, owned, (long long)N, wo, empty);

        long long nonzero = 0;
        for (int32_t i = 0; i < 2 * nm->ncells; i++) { /* the whole new array (ASan: its size too) */
            nonzero += reg.v[still_id].data[i] != 0;
            reg.v[still_id].data[i] = 1;
        }
        nonzero = comm_sum_ll(comm, nonzero);
        tap_ok(&t, reg.ncells == nm->ncells && nonzero == 0, "round %d: a variable without VAR_MIGRATE comes back "
               "zero-filled, at the new mesh's size (%lld nonzero)", round, nonzero);
        long long b_owned = comm_sum_ll(comm, bad_values(&reg, id, nm, 0));
        tap_ok(&t, b_owned == 0, "round %d: every owned cell and node arrives with its values (%lld wrong)", round,
               b_owned);
        struct sync_plan cp, np;
        sync_plans_build(comm, nm, &cp, &np);
        sync_all(comm, &cp, &np, &reg, id);
        long long b_all = comm_sum_ll(comm, bad_values(&reg, id, nm, 1));
        tap_ok(&t, b_all == 0, "round %d: after a synchronisation every ghost holds its owner's values (%lld wrong)",
               round, b_all);
        if (cfg.mesh_kind == MESH_CARTESIAN) {
            long long inc = comm_sum_ll(comm, incomplete_layers(nm, &cfg));
            tap_ok(&t, inc == 0, "round %d: the %d ghost layers are complete around the new subdomains (%lld nodes "
                   "short of cells)", round, nm->nlayers, inc);
        }
        long long nodes_owned = comm_sum_ll(comm, nm->nnodes_owned);
        tap_ok(&t, nodes_owned == want_nodes, "round %d: every node owned once (%lld of %lld)", round,
               nodes_owned, want_nodes);
        sync_plan_free(&cp);
        sync_plan_free(&np);
        migration_free(&mg);
        m = nm;
        ext = xrealloc(ext, ((size_t)m->nnodes * 3 + 1) * sizeof *ext);
        registry_set_external(&reg, ext_id, ext);
    }
    comm_pool_free(&pools[0]);
    comm_pool_free(&pools[1]);
    test_chunks(comm, &t);

    registry_free(&reg);
    free(ext);
    mesh_destroy(m);
    if (me == 0)
        printf("1..%d\n", t.n);
    int failed = comm_max_int(comm, t.failed);
    comm_finalize();
    return failed ? 1 : 0;
}
