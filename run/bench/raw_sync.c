/* Ghost synchronisation benchmark: hydro's persistent and basic syncs against a hand-written
 * MPI_Irecv/MPI_Isend/MPI_Waitall exchange of the same bytes with the same neighbours.
 * Usage: mpirun -np N raw_sync [-r REPEATS] [-k SETS] DECK [section.key=value ...]
 * The deck is a sync_only deck (cell_vars, node_vars, components; grouped = false): the mesh
 * and the plans are built through libhydro as the sync_only case builds them. One "set sync"
 * synchronises every variable, one after the other, as sync_only and MaHyCo do.
 * Modes run interleaved (persistent, basic, raw, raw_mpi, persistent, ...); each figure is
 * the median over REPEATS of the slowest rank's mean seconds per set sync over SETS set syncs.
 * raw: pack by the plan's indices, Irecv/Isend/Waitall, unpack (the whole job of a sync);
 * raw_mpi: the same messages without packing or unpacking (the MPI floor).
 * Rank 0 prints "key value" lines (see the end of main). Exit 2 on bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "comm.h"
#include "deck.h"
#include "setup.h"
#include "sync.h"
#include "sync_only.h"
#include "vars.h"
#include "median.h"

enum mode { M_PERSISTENT, M_BASIC, M_RAW, M_RAW_MPI, NMODES };
static const char *const mode_name[NMODES] = {"persistent", "basic", "raw", "raw_mpi"};

/* The hand-written exchange of one variable: its own buffers and requests. */
struct raw_var {
    const struct sync_plan *p;
    struct var *v;
    double *sbuf, *rbuf;
    MPI_Request *req;
};

static void raw_exchange(MPI_Comm comm, struct raw_var *r, int pack)
{
    const struct sync_plan *p = r->p;
    const int nc = r->v->ncomp;
    for (int i = 0; i < p->nrecv; i++)
        MPI_CHECK(MPI_Irecv(r->rbuf + (size_t)p->recv_off[i] * nc, (p->recv_off[i + 1] - p->recv_off[i]) * nc,
                            MPI_DOUBLE, p->recv_rank[i], 7, comm, &r->req[i]));
    if (pack) {
        double *dst = r->sbuf;
        for (int32_t k = 0; k < p->send_off[p->nsend]; k++)
            for (int c = 0; c < nc; c++)
                *dst++ = r->v->data[(size_t)p->send_idx[k] * nc + c];
    }
    for (int i = 0; i < p->nsend; i++)
        MPI_CHECK(MPI_Isend(r->sbuf + (size_t)p->send_off[i] * nc, (p->send_off[i + 1] - p->send_off[i]) * nc,
                            MPI_DOUBLE, p->send_rank[i], 7, comm, &r->req[p->nrecv + i]));
    if (p->nrecv + p->nsend)
        MPI_CHECK(MPI_Waitall(p->nrecv + p->nsend, r->req, MPI_STATUSES_IGNORE));
    if (pack) {
        const double *src = r->rbuf;
        for (int32_t k = 0; k < p->recv_off[p->nrecv]; k++)
            for (int c = 0; c < nc; c++)
                r->v->data[(size_t)p->recv_idx[k] * nc + c] = *src++;
    }
}

static void usage(FILE *f)
{
    fprintf(f, "usage: mpirun -np N raw_sync [-r REPEATS] [-k SETS] DECK [section.key=value ...]\n"
               "  times hydro's persistent and basic ghost synchronisations of the deck's sync_only variables\n"
               "  against a hand-written Irecv/Isend/Waitall exchange of the same bytes (medians of REPEATS,\n"
               "  default 9, of the mean over SETS set syncs, default 50); prints 'key value' lines.\n");
}

int main(int argc, char **argv)
{
    comm_init(&argc, &argv);
    MPI_Comm world = MPI_COMM_WORLD;
    const int me = comm_rank(world), P = comm_size(world);
    int repeats = 9, sets = 50, opt;
    while ((opt = getopt(argc, argv, "r:k:h")) != -1) {
        if (opt == 'r')
            repeats = atoi(optarg);
        else if (opt == 'k')
            sets = atoi(optarg);
        else {
            if (me == 0)
                usage(opt == 'h' ? stdout : stderr);
            comm_finalize();
            return opt == 'h' ? 0 : 2;
        }
    }
    if (optind >= argc || repeats < 1 || sets < 1) {
        if (me == 0) {
            fprintf(stderr, "raw_sync: %s\n", optind >= argc ? "a deck is required" : "-r and -k need positive counts");
            usage(stderr);
        }
        comm_finalize();
        return 2;
    }
    char err[1024];
    const char *path = argv[optind];
    char *text = deck_read_file(path, err, sizeof err);
    struct config cfg;
    if (!text || deck_parse(text, path, argc - optind - 1, argv + optind + 1, DECK_CHECK_FILES | DECK_FILE, &cfg, err, sizeof err)) {
        if (me == 0)
            fprintf(stderr, "raw_sync: %s\n", err);
        comm_finalize();
        return 2;
    }
    free(text);
    if (cfg.case_name != CASE_SYNC_ONLY || cfg.grouped) {
        if (me == 0) /* the raw exchange mirrors one message per variable and neighbour */
            fprintf(stderr, "raw_sync: %s: needs case.name = sync_only and case.grouped = false\n", path);
        comm_finalize();
        return 2;
    }

    struct mesh *m = setup_mesh(world, &cfg, NULL, NULL, err, sizeof err);
    if (!m)
        hydro_fatal(world, 1, "setup_mesh failed: %s", err);
    struct sync_plan cplan, nplan;
    sync_plans_build(world, m, &cplan, &nplan);
    struct registry reg;
    registry_init(&reg, m->ncells, m->nnodes);
    const int ncell = (int)cfg.cell_vars, nvar = (int)(cfg.cell_vars + cfg.node_vars);
    int *ids = xmalloc((size_t)(nvar ? nvar : 1) * sizeof *ids);
    for (int v = 0; v < nvar; v++) {
        char name[64];
        snprintf(name, sizeof name, "bench_%d", v);
        ids[v] = registry_add(&reg, name, v < ncell ? VAR_CELL : VAR_NODE, (int)cfg.components, VAR_SYNC, "1");
    }

    /* hydro's groups, as sync_case_attach records them, on their own communicators */
    MPI_Comm gcomm[2], rcomm;
    MPI_CHECK(MPI_Comm_dup(world, &gcomm[0]));
    MPI_CHECK(MPI_Comm_dup(world, &gcomm[1]));
    MPI_CHECK(MPI_Comm_dup(world, &rcomm));
    struct sync_group **groups[2];
    int ngroups = 0;
    for (int k = 0; k < 2; k++) {
        enum sync_kind kind = k == 0 ? SYNC_KIND_PERSISTENT : SYNC_KIND_BASIC;
        groups[k] = xmalloc((size_t)(nvar ? nvar : 1) * sizeof **groups);
        ngroups = 0;
        for (int v = 0; v < nvar; v++)
            groups[k][ngroups++] = sync_group_create(gcomm[k], v < ncell ? &cplan : &nplan, &reg, &ids[v], 1, kind);
    }
    /* the hand-written exchange, one per variable too */
    struct raw_var *raw = xcalloc((size_t)(nvar ? nvar : 1), sizeof *raw);
    long long bytes = 0, messages = 0;
    for (int v = 0; v < nvar; v++) {
        const struct sync_plan *p = v < ncell ? &cplan : &nplan;
        raw[v].p = p;
        raw[v].v = &reg.v[ids[v]];
        raw[v].sbuf = xmalloc(((size_t)p->send_off[p->nsend] * cfg.components + 1) * sizeof(double));
        raw[v].rbuf = xmalloc(((size_t)p->recv_off[p->nrecv] * cfg.components + 1) * sizeof(double));
        raw[v].req = xmalloc((size_t)(p->nsend + p->nrecv + 1) * sizeof(MPI_Request));
        bytes += (long long)p->send_off[p->nsend] * cfg.components * (long long)sizeof(double);
    }
    for (int g = 0; g < ngroups; g++)
        messages += groups[0][g]->plan->nsend;

    double *t[NMODES];
    for (int k = 0; k < NMODES; k++)
        t[k] = xmalloc((size_t)repeats * sizeof(double));
    long stamp = 0;
    for (int rep = -1; rep < repeats; rep++) { /* rep -1: one untimed warm-up round */
        for (int mode = 0; mode < NMODES; mode++) {
            stamp++;
            for (int v = 0; v < nvar; v++) {
                const int64_t *gid = v < ncell ? m->cell_gid : m->node_gid;
                int32_t n = v < ncell ? m->ncells_owned : m->nnodes_owned;
                struct var *var = &reg.v[ids[v]];
                for (int32_t i = 0; i < n; i++)
                    for (int c = 0; c < var->ncomp; c++)
                        var->data[(size_t)i * var->ncomp + c] = sync_case_value(gid[i], v, c, stamp);
            }
            MPI_CHECK(MPI_Barrier(world));
            double t0 = comm_wtime();
            for (int s = 0; s < sets; s++) {
                if (mode == M_PERSISTENT || mode == M_BASIC) {
                    struct sync_group **gs = groups[mode == M_BASIC];
                    for (int g = 0; g < ngroups; g++) { /* one after the other, as sync_only and MaHyCo */
                        sync_start(gs[g]);
                        sync_finish(gs[g]);
                    }
                } else {
                    for (int v = 0; v < nvar; v++)
                        raw_exchange(rcomm, &raw[v], mode == M_RAW);
                }
            }
            double dt = (comm_wtime() - t0) / sets, slowest;
            MPI_CHECK(MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, world));
            if (rep >= 0)
                t[mode][rep] = slowest;
            if (mode == M_RAW_MPI)
                continue; /* moves bytes only: ghosts keep older values */
            /* every ghost must now hold its owner's value: each mode does the whole job */
            for (int v = 0; v < nvar; v++) {
                const int64_t *gid = v < ncell ? m->cell_gid : m->node_gid;
                int32_t first = v < ncell ? m->ncells_owned : m->nnodes_owned, n = v < ncell ? m->ncells : m->nnodes;
                const struct var *var = &reg.v[ids[v]];
                for (int32_t i = first; i < n; i++)
                    for (int c = 0; c < var->ncomp; c++)
                        if (var->data[(size_t)i * var->ncomp + c] != sync_case_value(gid[i], v, c, stamp))
                            hydro_fatal(world, 1, "%s: ghost %lld of variable %d is wrong", mode_name[mode],
                                        (long long)gid[i], v);
            }
        }
    }
    int neigh = sync_plan_neighbours(&cplan), nneigh = sync_plan_neighbours(&nplan);
    neigh = comm_max_int(world, neigh > nneigh ? neigh : nneigh);
    long long most_bytes = comm_max_ll(world, bytes), most_msgs = comm_max_ll(world, messages);
    long long owned_min = comm_min_ll(world, m->ncells_owned), owned_max = comm_max_ll(world, m->ncells_owned);
    double med[NMODES];
    for (int k = 0; k < NMODES; k++)
        med[k] = median(t[k], (size_t)repeats);
    if (me == 0) {
        printf("# raw_sync: %d ranks, %lld cells (%lld..%lld owned per rank), %ld ghost layers, %d cell + %d node "
               "variables, %ld doubles per item each, one synchronisation per variable\n",
               P, (long long)m->global_ncells, owned_min, owned_max, cfg.ghost_layers, ncell, nvar - ncell,
               cfg.components);
        printf("# seconds per set sync: median of %d repeats of the slowest rank's mean over %d set syncs\n", repeats,
               sets);
        printf("ranks %d\n", P);
        printf("cells %lld\n", (long long)m->global_ncells);
        printf("variables %d\n", nvar);
        printf("neighbours_max %d\n", neigh);
        printf("messages_per_set_max %lld\n", most_msgs);
        printf("bytes_per_set_max %lld\n", most_bytes);
        printf("ghosts_checked ok\n");
        for (int k = 0; k < NMODES; k++)
            printf("%s_s %.6e\n", mode_name[k], med[k]);
    }
    for (int k = 0; k < NMODES; k++)
        free(t[k]);
    for (int v = 0; v < nvar; v++) {
        free(raw[v].sbuf);
        free(raw[v].rbuf);
        free(raw[v].req);
    }
    free(raw);
    for (int k = 0; k < 2; k++) {
        for (int g = 0; g < ngroups; g++)
            sync_group_destroy(groups[k][g]);
        free(groups[k]);
        MPI_CHECK(MPI_Comm_free(&gcomm[k]));
    }
    MPI_CHECK(MPI_Comm_free(&rcomm));
    free(ids);
    registry_free(&reg);
    sync_plan_free(&cplan);
    sync_plan_free(&nplan);
    mesh_destroy(m);
    comm_finalize();
    return 0;
}
