/* MPI test of the distributed dual graph and the METIS backend: the graph built from cells
 * scattered over the ranks (gid % P: every face between ranks) equals, row by row in global ids,
 * a brute-force serial graph (all face records sorted by key); boundary tags only save questions;
 * METIS's parts from the scattered graph (gathered on rank 0, or with target shares on the rank of
 * the largest) equal those of the whole graph on rank 0 (read in place); every backend's parts
 * are valid, balanced and repeatable. Usage: mpirun -np N dgraph_mpi [section.key=value ...]. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cartesian.h"
#include "check.h"
#include "comm.h"
#include "deck.h"
#include "dgraph.h"
#include "ghost.h"
#include "gmsh.h"
#include "partitioner.h"
#include "setup.h"
#include "tap.h"

static void whole_mesh(const struct config *cfg, struct cellset *cs)
{
    char err[512];
    cellset_init(cs, (int)cfg->dim);
    if (cfg->mesh_kind == MESH_GMSH) {
        if (gmsh_read(cfg->mesh_file, (int)cfg->dim, cs, err, sizeof err))
            hydro_fatal(MPI_COMM_WORLD, 1, "%s", err);
    } else {
        struct box b;
        setup_box(cfg, &b);
        int64_t lo[3] = {0, 0, 0};
        cartesian_generate(&b, lo, b.n, cs);
    }
}

/* Brute force: every cell face as a record sorted by key; a cell's neighbours are the other
 * cells of its faces, faces taken in key order. Rows [n + 1] offsets, nb neighbour gids. */
static void serial_rows(const struct cellset *cs, int64_t **off_out, int64_t **nb_out)
{
    const struct element *el = cs->el;
    const int64_t n = cs->ncells, nf = el->nfaces, nrec = n * nf > 0 ? n * nf : 1;
    struct face_rec *fr = xmalloc((size_t)nrec * sizeof *fr);
    for (int64_t c = 0; c < n; c++)
        for (int f = 0; f < nf; f++) {
            element_face_key(el, cs->nodes + c * el->nnodes, f, fr[c * nf + f].key);
            fr[c * nf + f].cell = cs->gid[c];
            fr[c * nf + f].side = f;
        }
    struct face_rec *sorted = xmalloc((size_t)nrec * sizeof *sorted);
    memcpy(sorted, fr, (size_t)(n * nf) * sizeof *fr);
    qsort(sorted, (size_t)(n * nf), sizeof *sorted, face_rec_cmp);
    int64_t *off = xcalloc((size_t)n + 1, sizeof *off), *nb = xmalloc((size_t)nrec * sizeof *nb);
    for (int64_t c = 0, len = 0; c < n; c++) { /* cs is in gid order from 0: cell c has gid c */
        struct face_rec mine[MAX_CELL_FACES];
        memcpy(mine, fr + c * nf, (size_t)nf * sizeof *mine);
        qsort(mine, (size_t)nf, sizeof *mine, face_rec_cmp);
        for (int f = 0; f < nf; f++) {
            struct face_rec *hit = bsearch(&mine[f], sorted, (size_t)(n * nf), sizeof *sorted, face_rec_cmp);
            while (hit > sorted && !memcmp(hit[-1].key, mine[f].key, sizeof mine[f].key))
                hit--;
            for (; hit < sorted + n * nf && !memcmp(hit->key, mine[f].key, sizeof hit->key); hit++)
                if (hit->cell != cs->gid[c])
                    nb[len++] = hit->cell;
        }
        off[c + 1] = len;
    }
    free(fr);
    free(sorted);
    *off_out = off;
    *nb_out = nb;
}

/* The cells of cs whose gid % P is this rank's, in ascending gid. */
static void scatter(const struct cellset *cs, int me, int P, struct cellset *mine)
{
    cellset_init(mine, cs->el->dim);
    const int nv = cs->el->nnodes;
    for (int64_t c = 0; c < cs->ncells; c++)
        if (cs->gid[c] % P == me) {
            cellset_add_cell(mine, cs->gid[c], cs->nodes + c * nv, cs->face_tag + c * cs->el->nfaces);
            for (int k = 0; k < nv; k++) /* their positions: the cells' centres for Zoltan's RCB */
                cellset_add_node(mine, cs->nodes[c * nv + k], cellset_node_xyz(cs, cs->nodes[c * nv + k]));
        }
}

/* Rows of g that differ from the serial ones (neighbour vertex numbers read as gids). */
static long long wrong_rows(MPI_Comm comm, const struct dgraph *g, const int64_t *off, const int64_t *nb)
{
    const int P = comm_size(comm);
    const int64_t N = g->vtxdist[P];
    int64_t *gid_of = xmalloc((size_t)(N ? N : 1) * sizeof *gid_of); /* every vertex number's gid */
    int *counts = xmalloc((size_t)P * sizeof *counts), *displs = xmalloc((size_t)P * sizeof *displs);
    for (int r = 0; r < P; r++) {
        counts[r] = (int)(g->vtxdist[r + 1] - g->vtxdist[r]);
        displs[r] = (int)g->vtxdist[r];
    }
    MPI_CHECK(MPI_Allgatherv(g->gid, g->nlocal, MPI_INT64_T, gid_of, counts, displs, MPI_INT64_T, comm));
    long long wrong = 0;
    for (int32_t i = 0; i < g->nlocal; i++) {
        int64_t c = g->gid[i];
        int same = g->xadj[i + 1] - g->xadj[i] == off[c + 1] - off[c];
        for (int32_t j = 0; same && j < g->xadj[i + 1] - g->xadj[i]; j++)
            same = gid_of[g->adjncy[g->xadj[i] + j]] == nb[off[c] + j];
        wrong += !same;
    }
    free(gid_of);
    free(counts);
    free(displs);
    return comm_sum_ll(comm, wrong);
}

/* Target shares 1 : 2 : ... : nparts, part q's (q + 1) / (1 + 2 + ... + nparts), malloc'd. */
static double *rising_shares(int nparts)
{
    double *share = xmalloc((size_t)nparts * sizeof *share);
    for (int q = 0; q < nparts; q++)
        share[q] = (q + 1) / (nparts * (nparts + 1) / 2.0);
    return share;
}

/* METIS's part of every cell, on rank 0 in gid order, from the graph of the cells in cs, parts
 * of target shares share (NULL: equal). */
static int *parts_by_gid(MPI_Comm comm, const struct cellset *cs, int64_t N, const double *share)
{
    struct dgraph g;
    dgraph_build(comm, cs->el, cs->ncells, cs->gid, cs->nodes, cs->face_tag, NULL, 1, &g);
    int *part = xmalloc((size_t)(cs->ncells + 1) * sizeof *part);
    partitioner_metis.partition(comm, &g, comm_size(comm) > 1 ? comm_size(comm) : 2, 0, share, part);
    int *all = comm_rank(comm) == 0 ? xmalloc((size_t)(N + 1) * sizeof *all) : NULL;
    for (int64_t i = 0; i < cs->ncells; i++) { /* to rank 0, by gid */
        int64_t rec[2] = {cs->gid[i], part[i]};
        if (comm_rank(comm) == 0) {
            all[rec[0]] = (int)rec[1];
        } else {
            MPI_CHECK(MPI_Send(rec, 2, MPI_INT64_T, 0, 7, comm));
        }
    }
    if (comm_rank(comm) == 0)
        for (int64_t k = cs->ncells; k < N; k++) {
            int64_t rec[2];
            MPI_CHECK(MPI_Recv(rec, 2, MPI_INT64_T, MPI_ANY_SOURCE, 7, comm, MPI_STATUS_IGNORE));
            all[rec[0]] = (int)rec[1];
        }
    free(part);
    dgraph_free(&g);
    return all;
}

/* One backend on the scattered graph into nparts parts (weighted 0: unweighted, 1: weights 1 or 5
 * in w, 2: two constraints in w2) of target shares share (NULL: equal): parts in range, every part
 * non-empty and the heaviest within 12% of its share of the weight (when there are 32 cells per
 * part or more), and the same parts from a second call. */
static void backend_check(MPI_Comm comm, struct tap *t, const struct cellset *mine, int64_t N, const char *name,
                          int weighted, const int32_t *w, const int32_t *w2, int nparts, const double *share)
{
    const struct partitioner *pt = partitioner_named(name);
    const int ncon = weighted == 2 ? 2 : 1, split = ncon == 2 && pt->multi_weight_max > 0; /* each constraint */
    const int32_t *wt = weighted == 2 ? w2 : weighted ? w : NULL;
    struct dgraph g;
    dgraph_build(comm, mine->el, mine->ncells, mine->gid, mine->nodes, mine->face_tag, wt, ncon, &g);
    dgraph_set_centres(&g, mine); /* as a rebalance's graph: Zoltan balances several weights by RCB phases */
    int *p1 = xmalloc((size_t)(mine->ncells + 1) * sizeof *p1), *p2 = xmalloc((size_t)(mine->ncells + 1) * sizeof *p2);
    int repart = weighted; /* a weighted call is a rebalance */
    pt->partition(comm, &g, nparts, repart, share, p1);
    pt->partition(comm, &g, nparts, repart, share, p2);
    const int nl = split ? 2 : 1; /* loads checked: each constraint's, or the total's */
    double *load = xcalloc((size_t)nparts * nl, sizeof *load);
    long long bad = 0, differ = 0;
    for (int64_t i = 0; i < mine->ncells; i++) {
        bad += p1[i] < 0 || p1[i] >= nparts;
        differ += p1[i] != p2[i];
        for (int k = 0; k < nl && p1[i] >= 0 && p1[i] < nparts; k++)
            load[(size_t)k * nparts + p1[i]] += split ? wt[2 * i + k] : dgraph_weight(&g, (int32_t)i);
    }
    comm_sum_doubles(comm, load, nparts * nl);
    double imb = 0, least = 1e300;
    for (int k = 0; k < nl; k++) {
        double total = 0, most = 0;
        for (int q = 0; q < nparts; q++) {
            double l = load[(size_t)k * nparts + q];
            total += l;
            least = l < least ? l : least;
        }
        for (int q = 0; q < nparts; q++) /* over its share of the total */
            most = fmax(most, load[(size_t)k * nparts + q] / (share ? share[q] * nparts : 1.0));
        imb = fmax(imb, most / (total / nparts));
    }
    bad = comm_sum_ll(comm, bad);
    differ = comm_sum_ll(comm, differ);
    /* METIS may leave parts empty in very small graphs: balance is checked on larger ones */
    int big = N >= 32 * nparts;
    tap_ok(t, bad == 0 && differ == 0 && (!big || (least > 0 && imb <= 1.12)),
           "%s, %s%s%s: %d parts of %lld cells, all in range (%lld not), none empty (least %g), heaviest %.3f x "
           "its share, a second call the same (%lld differ)", name,
           weighted == 2 ? (split ? "two constraints, each" : "two constraints, their sum")
           : weighted ? "weights 1 or 5" : "unweighted",
           repart ? ", repartition" : "", share ? ", shares 1 : 2 : ... : nparts" : "", nparts, (long long)N, bad,
           least, imb, differ);
    free(load);
    free(p1);
    free(p2);
    dgraph_free(&g);
}

/* Every backend from scratch and as a repartition, unweighted, with weights 1 or 5, and with two
 * constraints (1 or 5, and 1 or 3 on other cells: METIS and Zoltan balance each, PT-Scotch their sum);
 * the two constraints also into more parts than METIS bisects (its k-way; Zoltan: 9 parts). */
static void backends_check(MPI_Comm comm, struct tap *t, const struct cellset *mine, int64_t N)
{
    static const char *const names[] = {"metis", "zoltan", "ptscotch"};
    const int P = comm_size(comm), nparts = P > 1 ? P : 2;
    int32_t *w = xmalloc((size_t)(mine->ncells + 1) * sizeof *w), *w2 = xmalloc((size_t)(2 * mine->ncells + 1) * sizeof *w2);
    double *share = rising_shares(nparts);
    for (int64_t i = 0; i < mine->ncells; i++) {
        w[i] = w2[2 * i] = mine->gid[i] % 3 == 0 ? 5 : 1;
        w2[2 * i + 1] = mine->gid[i] % 2 == 0 ? 3 : 1;
    }
    for (size_t b = 0; b < sizeof names / sizeof *names; b++) {
        const struct partitioner *pt = partitioner_named(names[b]);
        if (!pt) /* a build without it (HYDRO_NO_ZOLTAN, HYDRO_NO_PTSCOTCH): nothing to check */
            continue;
        for (int weighted = 0; weighted < 3; weighted++)
            backend_check(comm, t, mine, N, names[b], weighted, w, w2, nparts, NULL);
        if (pt->multi_weight_max > 0)
            backend_check(comm, t, mine, N, names[b], 2, w, w2, pt->multi_weight_max + 1, NULL);
        for (int weighted = 1; weighted < 3; weighted++) /* a rebalance with target shares */
            backend_check(comm, t, mine, N, names[b], weighted, w, w2, nparts, share);
    }
    free(share);
    free(w);
    free(w2);
}

int main(int argc, char **argv)
{
    comm_init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    const int me = comm_rank(comm), P = comm_size(comm);
    struct tap t = {.quiet = me != 0};
    struct config cfg;
    char err[1024];
    if (deck_parse("", "(test)", argc - 1, argv + 1, DECK_CHECK_FILES, &cfg, err, sizeof err))
        hydro_fatal(comm, 2, "%s", err);
    struct cellset whole, mine, none;
    whole_mesh(&cfg, &whole);
    const int64_t N = whole.ncells;
    int64_t *off, *nb;
    serial_rows(&whole, &off, &nb);
    scatter(&whole, me, P, &mine);

    struct dgraph g;
    dgraph_build(comm, mine.el, mine.ncells, mine.gid, mine.nodes, mine.face_tag, NULL, 1, &g);
    long long bad = wrong_rows(comm, &g, off, nb);
    tap_ok(&t, g.vtxdist[P] == N && bad == 0, "%d ranks, %lld cells scattered by gid %% %d: every row of the "
           "distributed graph is the serial graph's (%lld differ)", P, (long long)N, P, bad);
    dgraph_free(&g);
    dgraph_build(comm, mine.el, mine.ncells, mine.gid, mine.nodes, NULL, NULL, 1, &g);
    bad = wrong_rows(comm, &g, off, nb);
    tap_ok(&t, bad == 0, "without boundary tags (every lone face asked of the directory): the same graph (%lld "
           "rows differ)", bad);
    dgraph_free(&g);

    /* a rebalance's graph: from the faces of the mesh built on these cells, 1 and 3 ghost layers */
    for (int layers = 1; layers <= 3; layers += 2) {
        char merr[1024];
        struct cellset own; /* mesh_build takes its arrays: a fresh copy of these cells, with positions */
        scatter(&whole, me, P, &own);
        struct mesh *m = mesh_build(comm, &own, layers, 0, merr, sizeof merr);
        cellset_free(&own);
        if (!m)
            hydro_fatal(comm, 1, "%s", merr);
        dgraph_from_mesh(comm, m, NULL, 1, &g);
        bad = wrong_rows(comm, &g, off, nb);
        tap_ok(&t, g.vtxdist[P] == N && bad == 0, "from the mesh's faces (%d ghost layer%s): the same graph, row by "
               "row, neighbours in face key order (%lld rows differ)", layers, layers > 1 ? "s" : "", bad);
        dgraph_free(&g);
        mesh_destroy(m);
    }

    /* METIS: the whole mesh on rank 0 (read in place) against the scattered cells (gathered on
     * rank 0; with target shares, on the rank of the largest, the last) */
    cellset_init(&none, whole.el->dim);
    const int nparts = P > 1 ? P : 2;
    double *share = rising_shares(nparts);
    for (int shared = 0; shared < 2; shared++) {
        int *a = parts_by_gid(comm, me == 0 ? &whole : &none, N, shared ? share : NULL);
        int *b = parts_by_gid(comm, &mine, N, shared ? share : NULL);
        if (me == 0) {
            int64_t differ = 0;
            for (int64_t c = 0; c < N; c++)
                differ += a[c] != b[c];
            tap_ok(&t, differ == 0, "METIS parts from the scattered graph (gathered on rank %d) equal those from the "
                   "whole graph on rank 0%s (%lld cells differ)", shared ? P - 1 : 0,
                   shared ? ", parts of shares 1 : 2 : ... : nparts" : "", (long long)differ);
        }
        free(a);
        free(b);
    }
    free(share);
    backends_check(comm, &t, &mine, N);
    free(off);
    free(nb);
    cellset_free(&none);
    cellset_free(&mine);
    cellset_free(&whole);
    int rc = me == 0 ? tap_done(&t) : t.failed != 0;
    comm_finalize();
    return rc;
}
