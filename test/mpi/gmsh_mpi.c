/* MPI test of the Gmsh reader by shares (gmsh_read_share) against the whole read (gmsh_read):
 * the union of the ranks' shares is the whole mesh (ids, nodes, positions, boundary tags), each
 * rank holds a contiguous block of cell ids of its share's size and not much more than its share
 * of nodes; on a bad file every rank fails and rank 0 gives gmsh_read's message.
 * Usage: mpirun -np N gmsh_mpi DIM FILE [bad | untagged] (untagged: a mesh without boundary
 * elements, which skips the check that the file has some). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "gmsh.h"
#include "tap.h"

/* The share against the whole read on every rank. */
static void compare(struct tap *t, MPI_Comm comm, const struct cellset *whole, const struct cellset *part,
                    const char *path, int untagged)
{
    const int me = comm_rank(comm), P = comm_size(comm);
    const struct element *el = whole->el;
    const int nv = el->nnodes, nf = el->nfaces;
    const int64_t N = whole->ncells;
    long long total = comm_sum_ll(comm, part->ncells);
    long long lo = part->ncells ? part->gid[0] : -1, expect = N * (me + 1) / P - N * me / P;
    int bad_ids = 0, bad_nodes = 0, bad_xyz = 0, bad_tags = 0;
    for (int64_t c = 0; c < part->ncells; c++) {
        int64_t g = part->gid[c];
        bad_ids += g != lo + c || g < 0 || g >= N;
        if (g < 0 || g >= N)
            continue;
        for (int k = 0; k < nv; k++) {
            int64_t n = part->nodes[c * nv + k];
            bad_nodes += n != whole->nodes[g * nv + k];
            const double *a = cellset_node_xyz(part, n), *b = cellset_node_xyz(whole, n);
            bad_xyz += !a || !b || memcmp(a, b, 3 * sizeof *a);
        }
        for (int s = 0; s < nf; s++)
            bad_tags += part->face_tag[c * nf + s] != whole->face_tag[g * nf + s];
    }
    /* nodes held: those of this rank's cells only */
    int64_t used = 0;
    for (int64_t i = 0; i < part->nnodes; i++) {
        int found = 0;
        for (int64_t c = 0; c < part->ncells * nv && !found; c++)
            found = part->nodes[c] == part->node_gid[i];
        used += found;
    }
    tap_ok(t, total == N, "%s: the shares hold %lld cells, the file %lld", path, total, (long long)N);
    tap_ok(t, comm_max_ll(comm, bad_ids) == 0 && comm_max_ll(comm, part->ncells != expect) == 0,
           "%s: each rank holds its block of cell ids, N r/P to N (r+1)/P", path);
    tap_ok(t, comm_sum_ll(comm, bad_nodes) == 0, "%s: cells have gmsh_read's nodes, in its order", path);
    tap_ok(t, comm_sum_ll(comm, bad_xyz) == 0, "%s: nodes have gmsh_read's positions, bit for bit", path);
    tap_ok(t, comm_sum_ll(comm, bad_tags) == 0, "%s: faces have gmsh_read's boundary tags", path);
    tap_ok(t, comm_sum_ll(comm, used != part->nnodes) == 0, "%s: a rank holds only its cells' nodes", path);
    double avg = (double)whole->nnodes / P, most = (double)comm_max_ll(comm, part->nnodes);
    tap_ok(t, P == 1 || most <= 2.5 * avg + 8, "%s: the most nodes a rank holds, %.0f, is %.2f x the average",
           path, most, most / avg);
    long long tagged = 0;
    for (int64_t i = 0; i < whole->ncells * nf; i++)
        tagged += whole->face_tag[i] != 0;
    if (!untagged)
        tap_ok(t, tagged > 0, "%s: the mesh has tagged boundary faces (%lld): the test sees them", path, tagged);
}

int main(int argc, char **argv)
{
    comm_init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    if (argc < 3)
        hydro_fatal(comm, 2, "usage: gmsh_mpi DIM FILE [bad]");
    const int dim = atoi(argv[1]), bad = argc > 3 && !strcmp(argv[3], "bad"), me = comm_rank(comm);
    const char *path = argv[2];
    struct tap t = {.quiet = me != 0};
    char err[1024], err_whole[1024];
    struct cellset whole, part;
    cellset_init(&whole, dim);
    cellset_init(&part, dim);
    int rc_whole = gmsh_read(path, dim, &whole, err_whole, sizeof err_whole);
    int rc = gmsh_read_share(comm, path, dim, &part, err, sizeof err);
    if (bad) {
        tap_ok(&t, rc_whole != 0, "%s: gmsh_read refuses it: %s", path, rc_whole ? err_whole : "");
        tap_ok(&t, comm_max_int(comm, rc == 0) == 0, "%s: every rank's share read fails", path);
        long long spoke = comm_sum_ll(comm, err[0] != '\0');
        tap_ok(&t, spoke == 1 && (me != 0 || err[0]), "%s: rank 0, and only rank 0, has a message", path);
        if (me == 0) {
            tap_ok(&t, !strcmp(err, err_whole), "%s: the message is gmsh_read's", path);
            if (strcmp(err, err_whole))
                printf("# share: '%s'; whole: '%s'\n", err, err_whole);
        }
    } else {
        if (rc_whole || comm_max_int(comm, rc != 0))
            hydro_fatal(comm, 1, "%s: %s", path, rc_whole ? err_whole : err);
        compare(&t, comm, &whole, &part, path, argc > 3 && !strcmp(argv[3], "untagged"));
    }
    cellset_free(&whole);
    cellset_free(&part);
    int rc_test = me == 0 ? tap_done(&t) : t.failed != 0;
    comm_finalize();
    return rc_test;
}
