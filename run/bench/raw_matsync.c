/* Material synchronisation benchmark: hydro's material syncs against a hand-written exchange.
 * hydro's persistent and basic syncs of material variables (mesh/sync.c) against a hand-written
 * MPI_Irecv/MPI_Isend/MPI_Waitall exchange of the same bytes with the same neighbours.
 * Usage: mpirun -np N raw_matsync [-r REPEATS] [-k SETS] [-w BAND] DECK [section.key=value ...]
 * The deck is a sync_only deck on a generated box (inputs/sync_only.ini): the mesh and the cell
 * plan are built through libhydro as raw_sync builds them; its [case] variables are not used.
 * Two materials, MaHyCo's level-n synchronisations with materials (sync_points.c, SAVED): four
 * groups of a plain cell variable and a material variable (density + material_mass,
 * internal_energy + material_internal_energy, volume + material_fraction, pressure +
 * material_pressure), material_fraction being the VAR_FRACTION variable; stored as hydro
 * stores them (mesh/matstore.h): a pure cell's value is its group's plain variable's (1 for the
 * fraction), a mixed cell's in a slot. Compositions as in the
 * bi-Sod case: cells whose centre lies within BAND/2 cells (default BAND 4) of the box's middle
 * in x are mixed (0.5/0.5), those left of it pure material 0, right of it pure material 1.
 * One "set sync" synchronises the four groups one after the other. Modes run interleaved
 * (persistent, basic, raw, raw_mpi, persistent, ...); each figure is the median over REPEATS of
 * the slowest rank's mean seconds per set sync over SETS set syncs.
 * raw: per group and neighbour, the message sync.c sends (the plain values, one composition
 * code per cell, the present materials' values), packed here by hand from the store,
 * MPI_Irecv/MPI_Isend/MPI_Waitall, unpacked (absent materials 0); raw_mpi: the same messages
 * without packing or unpacking (the MPI floor). Every mode but raw_mpi must leave every ghost
 * equal to its owner's values (exit 1 otherwise); the raw messages must have the lengths and
 * the bytes of hydro's. Rank 0 prints "key value" lines (see report). Exit 2 on bad usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "comm.h"
#include "deck.h"
#include "element.h"
#include "setup.h"
#include "sync.h"
#include "sync_only.h"
#include "vars.h"
#include "median.h"

enum { NMAT = 2, NGROUP = 4, RAW_WIDTH = 2 + NMAT /* plain value, code, every material at most */ };
_Static_assert(NMAT == 2, "raw_pack and raw_unpack are written out for two materials");
enum mode { M_PERSISTENT, M_BASIC, M_RAW, M_RAW_MPI, NMODES };
static const char *const mode_name[NMODES] = {"persistent", "basic", "raw", "raw_mpi"};
/* plain and material variable of each group; the third group's is the fraction */
static const char *const group_var[NGROUP][2] = {{"density", "material_mass"},
                                                 {"internal_energy", "material_internal_energy"},
                                                 {"volume", "material_fraction"},
                                                 {"pressure", "material_pressure"}};
enum { FRAC_GROUP = 2 };

/* The hand-written exchange of one group: its own buffers, requests and message lengths. */
struct raw_group {
    int plain, mat; /* registry ids */
    int tag;
    double *sbuf, *rbuf; /* neighbour i's message at send_off[i] (recv_off[i]) * RAW_WIDTH */
    int32_t *len;        /* doubles of each send message, as last packed */
    MPI_Request *req;    /* receives, then sends */
};

struct bench {
    MPI_Comm world, rcomm, gcomm[2];
    struct mesh *m;
    struct sync_plan cplan, nplan;
    struct registry reg;
    int frac;
    unsigned *code; /* every local cell's composition, from its centre */
    struct sync_group *groups[2][NGROUP];
    struct raw_group raw[NGROUP];
};

struct options {
    long repeats, sets, band;
};

static int bits_set(unsigned bits)
{
    int n = 0;
    for (; bits; bits >>= 1)
        n += bits & 1u;
    return n;
}

/* Compositions of every local cell (owned and ghosts) from the x of its centre. */
static void compositions(struct bench *b, const struct config *cfg, long band)
{
    const struct mesh *m = b->m;
    const double h = cfg->lx / (double)cfg->nx, mid = cfg->x0 + 0.5 * cfg->lx;
    b->code = xmalloc(((size_t)m->ncells + 1) * sizeof *b->code);
    for (int32_t c = 0; c < m->ncells; c++) {
        double xc[MAX_CELL_NODES][3], x = 0.0;
        mesh_cell_coords(m, m->node_xyz, c, xc);
        for (int k = 0; k < m->el->nnodes; k++)
            x += xc[k][0];
        x /= m->el->nnodes;
        b->code[c] = fabs(x - mid) < 0.5 * (double)band * h ? 3u : x < mid ? 1u : 2u;
    }
}

/* What the owner of cell c writes into component k of variable id in round stamp: a pure
 * cell's material value is its plain variable's (the fraction: 1), as the store keeps it. */
static double expected(const struct bench *b, int id, int32_t c, int k, long stamp)
{
    const unsigned bits = b->code[c];
    const int present = bits >> k & 1u, pure = bits_set(bits) == 1;
    const struct var *v = &b->reg.v[id];
    if (id == b->frac)
        return present ? 1.0 / bits_set(bits) : 0.0;
    if ((v->flags & VAR_MATERIAL) && !present)
        return 0.0;
    if ((v->flags & VAR_MATERIAL) && pure)
        return sync_case_value(b->m->cell_gid[c], v->pure, 0, stamp);
    return sync_case_value(b->m->cell_gid[c], id, k, stamp);
}

/* Owned cells get their compositions and values; ghosts every material and NaN: a ghost left
 * alone fails the check. */
static void fill(struct bench *b, long stamp)
{
    const struct mesh *m = b->m;
    for (int32_t c = 0; c < m->ncells; c++)
        matstore_compose(b->reg.mats, c, c < m->ncells_owned ? b->code[c] : 3u);
    for (int g = 0; g < NGROUP; g++)
        for (int w = 0; w < 2; w++) {
            const int id = w ? b->raw[g].mat : b->raw[g].plain;
            struct var *v = &b->reg.v[id];
            for (int32_t c = 0; c < m->ncells; c++) {
                double row[NMAT];
                for (int k = 0; k < v->ncomp; k++)
                    row[k] = c < m->ncells_owned ? expected(b, id, c, k, stamp) : NAN;
                if (!w) {
                    v->data[c] = row[0];
                } else if (b->reg.mats->cell[c] < 0) { /* pure cells: the plain value, set above */
                    double *dst = matstore_row(b->reg.mats, -1 - b->reg.mats->cell[c], (enum mat_quantity)v->mq);
                    for (int k = 0; k < NMAT; k++)
                        dst[k] = row[k];
                }
            }
        }
}

static void check_ghosts(const struct bench *b, enum mode mode, long stamp)
{
    const struct mesh *m = b->m;
    for (int32_t c = m->ncells_owned; c < m->ncells; c++)
        if (matstore_bits(b->reg.mats, c) != b->code[c])
            hydro_fatal(b->world, 1, "%s: ghost cell %lld holds materials %u, its owner %u", mode_name[mode],
                        (long long)m->cell_gid[c], matstore_bits(b->reg.mats, c), b->code[c]);
    for (int g = 0; g < NGROUP; g++)
        for (int w = 0; w < 2; w++) {
            const int id = w ? b->raw[g].mat : b->raw[g].plain;
            const struct var *v = &b->reg.v[id];
            for (int32_t c = m->ncells_owned; c < m->ncells; c++) {
                double row[NMAT];
                if (w)
                    registry_mat_row(&b->reg, id, c, row);
                else
                    row[0] = v->data[c];
                for (int k = 0; k < v->ncomp; k++)
                    if (row[k] != expected(b, id, c, k, stamp))
                        hydro_fatal(b->world, 1, "%s: ghost cell %lld of %s, component %d, holds %.17g, its owner "
                                    "wrote %.17g", mode_name[mode], (long long)m->cell_gid[c], v->name, k, row[k],
                                    expected(b, id, c, k, stamp));
            }
        }
}

/* sync.c's message, packed by hand from the store: plain values, composition codes, present
 * entries (a pure cell's from its plain variable, 1 for the fraction; a mixed cell's slot). */
static int32_t raw_pack(const struct bench *b, const struct raw_group *r, const int32_t *idx, int32_t n, double *dst)
{
    const struct matstore *ms = b->reg.mats;
    const double *plain = b->reg.v[r->plain].data;
    const int frac = r->mat == b->frac, q = b->reg.v[r->mat].mq;
    double *start = dst;
    for (int32_t k = 0; k < n; k++)
        *dst++ = plain[idx[k]];
    for (int32_t k = 0; k < n; k++)
        *dst++ = (double)ms->bits[idx[k]];
    for (int32_t k = 0; k < n; k++) {
        const int32_t cell = ms->cell[idx[k]];
        if (cell >= 0) {
            *dst++ = frac ? 1.0 : plain[idx[k]];
            continue;
        }
        const double *row = matstore_row(ms, -1 - cell, (enum mat_quantity)q);
        const unsigned bits = ms->bits[idx[k]];
        if (bits & 1u)
            *dst++ = row[0];
        if (bits & 2u)
            *dst++ = row[1];
    }
    return (int32_t)(dst - start);
}

static void raw_unpack(struct bench *b, const struct raw_group *r, const int32_t *idx, int32_t n, const double *src)
{
    struct matstore *ms = b->reg.mats;
    double *plain = b->reg.v[r->plain].data;
    const int frac = r->mat == b->frac, q = b->reg.v[r->mat].mq;
    for (int32_t k = 0; k < n; k++)
        plain[idx[k]] = *src++;
    const double *code = src;
    src += n;
    for (int32_t k = 0; k < n; k++)
        if (ms->bits[idx[k]] != (unsigned)code[k])
            matstore_compose(ms, idx[k], (unsigned)code[k]);
    for (int32_t k = 0; k < n; k++) {
        const int32_t cell = ms->cell[idx[k]];
        if (cell >= 0) {
            double x = *src++;
            if (!frac)
                plain[idx[k]] = x;
            continue;
        }
        double *row = matstore_row(ms, -1 - cell, (enum mat_quantity)q);
        const unsigned bits = (unsigned)code[k];
        row[0] = bits & 1u ? *src++ : 0.0;
        row[1] = bits & 2u ? *src++ : 0.0;
    }
}

/* Packs every send message of r (their lengths into r->len). */
static void raw_pack_all(const struct bench *b, struct raw_group *r)
{
    const struct sync_plan *p = &b->cplan;
    for (int i = 0; i < p->nsend; i++)
        r->len[i] = raw_pack(b, r, p->send_idx + p->send_off[i], p->send_off[i + 1] - p->send_off[i],
                             r->sbuf + (size_t)p->send_off[i] * RAW_WIDTH);
}

/* Receives posted for every material present (the receiver cannot know the compositions). */
static void raw_exchange(struct bench *b, struct raw_group *r, int pack)
{
    const struct sync_plan *p = &b->cplan;
    for (int i = 0; i < p->nrecv; i++)
        MPI_CHECK(MPI_Irecv(r->rbuf + (size_t)p->recv_off[i] * RAW_WIDTH,
                            (p->recv_off[i + 1] - p->recv_off[i]) * RAW_WIDTH, MPI_DOUBLE, p->recv_rank[i], r->tag,
                            b->rcomm, &r->req[i]));
    if (pack)
        raw_pack_all(b, r);
    for (int i = 0; i < p->nsend; i++)
        MPI_CHECK(MPI_Isend(r->sbuf + (size_t)p->send_off[i] * RAW_WIDTH, r->len[i], MPI_DOUBLE, p->send_rank[i],
                            r->tag, b->rcomm, &r->req[p->nrecv + i]));
    if (p->nrecv + p->nsend)
        MPI_CHECK(MPI_Waitall(p->nrecv + p->nsend, r->req, MPI_STATUSES_IGNORE));
    if (pack)
        for (int i = 0; i < p->nrecv; i++)
            raw_unpack(b, r, p->recv_idx + p->recv_off[i], p->recv_off[i + 1] - p->recv_off[i],
                       r->rbuf + (size_t)p->recv_off[i] * RAW_WIDTH);
}

/* The mesh, the plans, the variables, hydro's groups and the raw exchange's buffers. */
static void bench_setup(struct bench *b, const struct config *cfg, long band)
{
    char err[1024];
    b->world = MPI_COMM_WORLD;
    b->m = setup_mesh(b->world, cfg, NULL, NULL, err, sizeof err);
    if (!b->m)
        hydro_fatal(b->world, 1, "setup_mesh failed: %s", err);
    sync_plans_build(b->world, b->m, &b->cplan, &b->nplan);
    registry_init(&b->reg, b->m->ncells, b->m->nnodes);
    for (int g = 0; g < NGROUP; g++)
        b->raw[g].plain = registry_add(&b->reg, group_var[g][0], VAR_CELL, 1, VAR_SYNC, "1");
    registry_set_materials(&b->reg, NMAT);
    static const enum mat_quantity mq[NGROUP] = {MQ_MASS, MQ_E, MQ_FRAC, MQ_P};
    for (int g = 0; g < NGROUP; g++) /* a pure cell's value: its group's plain variable's */
        b->raw[g].mat = registry_add_material(&b->reg, group_var[g][1], mq[g], g == FRAC_GROUP ? -1 : b->raw[g].plain,
                                              VAR_SYNC | VAR_MATERIAL | (g == FRAC_GROUP ? VAR_FRACTION : 0u), "1");
    b->frac = b->raw[FRAC_GROUP].mat;
    compositions(b, cfg, band);
    /* hydro's groups, as sync_points.c records them, on their own communicators */
    for (int k = 0; k < 2; k++) {
        MPI_CHECK(MPI_Comm_dup(b->world, &b->gcomm[k]));
        for (int g = 0; g < NGROUP; g++) {
            const int ids[2] = {b->raw[g].plain, b->raw[g].mat};
            b->groups[k][g] = sync_group_create(b->gcomm[k], &b->cplan, &b->reg, ids, 2,
                                                k == 0 ? SYNC_KIND_PERSISTENT : SYNC_KIND_BASIC);
        }
    }
    MPI_CHECK(MPI_Comm_dup(b->world, &b->rcomm));
    const struct sync_plan *p = &b->cplan;
    fill(b, 0);
    for (int g = 0; g < NGROUP; g++) {
        struct raw_group *r = &b->raw[g];
        r->tag = 100 + g;
        r->sbuf = xmalloc(((size_t)p->send_off[p->nsend] * RAW_WIDTH + 1) * sizeof *r->sbuf);
        r->rbuf = xmalloc(((size_t)p->recv_off[p->nrecv] * RAW_WIDTH + 1) * sizeof *r->rbuf);
        r->len = xmalloc(((size_t)p->nsend + 1) * sizeof *r->len);
        r->req = xmalloc(((size_t)p->nsend + p->nrecv + 1) * sizeof *r->req);
        raw_pack_all(b, r); /* raw_mpi's lengths before any raw round */
    }
}

static void bench_free(struct bench *b)
{
    for (int g = 0; g < NGROUP; g++) {
        free(b->raw[g].sbuf);
        free(b->raw[g].rbuf);
        free(b->raw[g].len);
        free(b->raw[g].req);
    }
    for (int k = 0; k < 2; k++) {
        for (int g = 0; g < NGROUP; g++)
            sync_group_destroy(b->groups[k][g]);
        MPI_CHECK(MPI_Comm_free(&b->gcomm[k]));
    }
    MPI_CHECK(MPI_Comm_free(&b->rcomm));
    free(b->code);
    registry_free(&b->reg);
    sync_plan_free(&b->cplan);
    sync_plan_free(&b->nplan);
    mesh_destroy(b->m);
}

/* One timed round of a mode: the slowest rank's mean seconds per set sync. */
static double round_of(struct bench *b, enum mode mode, long sets)
{
    MPI_CHECK(MPI_Barrier(b->world));
    double t0 = comm_wtime();
    for (long s = 0; s < sets; s++)
        for (int g = 0; g < NGROUP; g++) { /* one after the other, as MaHyCo */
            if (mode == M_PERSISTENT || mode == M_BASIC) {
                sync_start(b->groups[mode == M_BASIC][g]);
                sync_finish(b->groups[mode == M_BASIC][g]);
            } else {
                raw_exchange(b, &b->raw[g], mode == M_RAW);
            }
        }
    double dt = (comm_wtime() - t0) / (double)sets, slowest;
    MPI_CHECK(MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, b->world));
    return slowest;
}

/* hydro's messages and the raw ones: the same lengths (every group of both kinds, as last
 * sent) and, packed from the same values, the same bytes (the persistent groups). */
static void check_same_messages(struct bench *b, long stamp)
{
    const struct sync_plan *p = &b->cplan;
    for (int k = 0; k < 2; k++)
        for (int g = 0; g < NGROUP; g++)
            for (int i = 0; i < p->nsend; i++)
                if (b->groups[k][g]->send_len[i] != b->raw[g].len[i])
                    hydro_fatal(b->world, 1, "%s group %d sends %d doubles to rank %d, the raw exchange %d",
                                mode_name[k], g, (int)b->groups[k][g]->send_len[i], p->send_rank[i],
                                (int)b->raw[g].len[i]);
    fill(b, stamp);
    for (int g = 0; g < NGROUP; g++) {
        const struct sync_group *sg = b->groups[0][g];
        sync_start(b->groups[0][g]);
        sync_finish(b->groups[0][g]);
        raw_pack_all(b, &b->raw[g]);
        for (int i = 0; i < p->nsend; i++)
            if (memcmp(p->sendbuf + (size_t)p->send_off[i] * sg->width,
                       b->raw[g].sbuf + (size_t)p->send_off[i] * RAW_WIDTH, (size_t)b->raw[g].len[i] * sizeof(double)))
                hydro_fatal(b->world, 1, "group %d: the raw message to rank %d differs from hydro's", g,
                            p->send_rank[i]);
    }
    check_ghosts(b, M_PERSISTENT, stamp);
}

/* Rank 0 prints the figures; every rank takes part in the reductions. */
static void report(const struct bench *b, const struct config *cfg, const struct options *o, double med[NMODES])
{
    const struct mesh *m = b->m;
    const struct sync_plan *p = &b->cplan;
    long long bytes = 0, mixed = 0, mixed_sent = 0, recorded = 0;
    for (int g = 0; g < NGROUP; g++) {
        for (int i = 0; i < p->nsend; i++)
            bytes += (long long)b->raw[g].len[i] * (long long)sizeof(double);
        recorded += b->groups[0][g]->recorded;
    }
    for (int32_t c = 0; c < m->ncells_owned; c++)
        mixed += bits_set(b->code[c]) > 1;
    for (int32_t k = 0; k < p->send_off[p->nsend]; k++)
        mixed_sent += bits_set(b->code[p->send_idx[k]]) > 1;
    long long most_bytes = comm_max_ll(b->world, bytes);
    long long most_msgs = comm_max_ll(b->world, (long long)NGROUP * p->nsend);
    long long sent_max = comm_max_ll(b->world, p->send_off[p->nsend]);
    long long mixed_sent_max = comm_max_ll(b->world, mixed_sent);
    long long owned_min = comm_min_ll(b->world, m->ncells_owned), owned_max = comm_max_ll(b->world, m->ncells_owned);
    long long all_mixed = comm_sum_ll(b->world, mixed), recorded_max = comm_max_ll(b->world, recorded);
    int neigh = comm_max_int(b->world, sync_plan_neighbours(p));
    if (comm_rank(b->world) != 0)
        return;
    printf("# raw_matsync: %d ranks, %lld cells (%lld..%lld owned per rank), %ld ghost layers, %d materials, %d "
           "material syncs per set (a cell variable and a material variable each), mixed band %ld cells wide in x "
           "(%lld mixed cells)\n", comm_size(b->world), (long long)m->global_ncells, owned_min, owned_max,
           cfg->ghost_layers, NMAT, NGROUP, o->band, all_mixed);
    printf("# seconds per set sync: median of %ld repeats of the slowest rank's mean over %ld set syncs; "
           "sent cells per set sync and group %lld, %lld of them mixed (largest rank)\n", o->repeats, o->sets,
           sent_max, mixed_sent_max);
    printf("ranks %d\n", comm_size(b->world));
    printf("cells %lld\n", (long long)m->global_ncells);
    printf("materials %d\n", NMAT);
    printf("material_syncs %d\n", NGROUP);
    printf("band_cells %ld\n", o->band);
    printf("mixed_cells %lld\n", all_mixed);
    printf("sent_cells_max %lld\n", sent_max);
    printf("mixed_sent_cells_max %lld\n", mixed_sent_max);
    printf("neighbours_max %d\n", neigh);
    printf("messages_per_set_max %lld\n", most_msgs);
    printf("bytes_per_set_max %lld\n", most_bytes);
    printf("recorded_max %lld\n", recorded_max);
    printf("same_messages ok\n");
    printf("ghosts_checked ok\n");
    for (int k = 0; k < NMODES; k++)
        printf("%s_s %.6e\n", mode_name[k], med[k]);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: mpirun -np N raw_matsync [-r REPEATS] [-k SETS] [-w BAND] DECK [section.key=value ...]\n"
               "  times hydro's persistent and basic synchronisations of 2 materials' variables (4 groups of a\n"
               "  cell and a material variable, mixed cells in a band BAND cells wide, default 4, in the middle\n"
               "  of the box in x) against a hand-written Irecv/Isend/Waitall exchange of the same bytes\n"
               "  (medians of REPEATS, default 9, of the mean over SETS set syncs, default 50); prints\n"
               "  'key value' lines. DECK: a sync_only deck on a generated box (inputs/sync_only.ini).\n");
}

/* A whole number >= min, or -1. */
static long count_arg(const char *s, long min)
{
    char *end;
    long v = strtol(s, &end, 10);
    return end == s || *end || v < min ? -1 : v;
}

/* Options and deck; returns 0, or the exit status (usage, help) after saying why. */
static int parse(int argc, char **argv, struct options *o, struct config *cfg)
{
    const int me = comm_rank(MPI_COMM_WORLD);
    int opt;
    *o = (struct options){9, 50, 4};
    while ((opt = getopt(argc, argv, "r:k:w:h")) != -1) {
        long *dst = opt == 'r' ? &o->repeats : opt == 'k' ? &o->sets : opt == 'w' ? &o->band : NULL;
        if (dst && (*dst = count_arg(optarg, opt == 'w' ? 0 : 1)) >= 0)
            continue;
        if (me == 0) {
            if (dst)
                fprintf(stderr, "raw_matsync: -%c needs a %s count, not '%s'\n", opt,
                        opt == 'w' ? "whole" : "positive", optarg);
            usage(opt == 'h' ? stdout : stderr);
        }
        return opt == 'h' ? -1 : 2;
    }
    if (optind >= argc) {
        if (me == 0) {
            fprintf(stderr, "raw_matsync: a deck is required\n");
            usage(stderr);
        }
        return 2;
    }
    char err[1024];
    const char *path = argv[optind];
    char *text = deck_read_file(path, err, sizeof err);
    int bad = !text || deck_parse(text, path, argc - optind - 1, argv + optind + 1, DECK_CHECK_FILES | DECK_FILE,
                                  cfg, err, sizeof err);
    free(text);
    if (!bad && (cfg->case_name != CASE_SYNC_ONLY || cfg->mesh_kind != MESH_CARTESIAN)) {
        snprintf(err, sizeof err, "%s: needs case.name = sync_only and mesh.kind = cartesian", path);
        bad = 1;
    }
    if (bad && me == 0)
        fprintf(stderr, "raw_matsync: %s\n", err);
    return bad ? 2 : 0;
}

int main(int argc, char **argv)
{
    comm_init(&argc, &argv);
    struct options o;
    struct config cfg;
    int st = parse(argc, argv, &o, &cfg);
    if (st) {
        comm_finalize();
        return st < 0 ? 0 : st;
    }
    struct bench b;
    memset(&b, 0, sizeof b);
    bench_setup(&b, &cfg, o.band);
    double *t[NMODES];
    for (int k = 0; k < NMODES; k++)
        t[k] = xmalloc((size_t)o.repeats * sizeof(double));
    long stamp = 0;
    for (long rep = -1; rep < o.repeats; rep++) /* rep -1: one untimed warm-up round */
        for (int mode = 0; mode < NMODES; mode++) {
            fill(&b, ++stamp);
            double s = round_of(&b, (enum mode)mode, o.sets);
            if (rep >= 0)
                t[mode][rep] = s;
            if (mode != M_RAW_MPI) /* raw_mpi moves bytes only: ghosts stay NaN */
                check_ghosts(&b, (enum mode)mode, stamp);
        }
    check_same_messages(&b, ++stamp);
    double med[NMODES];
    for (int k = 0; k < NMODES; k++) {
        med[k] = median(t[k], (size_t)o.repeats);
        free(t[k]);
    }
    report(&b, &cfg, &o, med);
    bench_free(&b);
    comm_finalize();
    return 0;
}
