/* libFuzzer harness of the Gmsh MSH 4.1 reader: the input is the mesh file, read as 2D and as 3D. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellset.h"
#include "element.h"
#include "fuzz.h"
#include "gmsh.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static _Noreturn void bad(const char *what, long long id)
{
    fprintf(stderr, "fuzz_gmsh: gmsh_read accepted a mesh with %s (%lld)\n", what, id);
    abort();
}

/* What gmsh.h promises of an accepted mesh: cells 0..n-1, every node used and numbered
 * 0..m-1, finite coordinates, valid (positive corner Jacobians) cells, tags >= 0. */
static void check_mesh(const struct cellset *s)
{
    const struct element *el = s->el;
    if (s->ncells < 1)
        bad("no cell", 0);
    char *used = calloc((size_t)(s->nnodes ? s->nnodes : 1), 1);
    if (!used)
        abort();
    for (int64_t c = 0; c < s->ncells; c++) {
        if (s->gid[c] != c)
            bad("cell ids out of order at cell", c);
        double x[MAX_CELL_NODES][3];
        for (int k = 0; k < el->nnodes; k++) {
            int64_t n = s->nodes[c * el->nnodes + k];
            const double *p = n >= 0 && n < s->nnodes ? cellset_node_xyz(s, n) : NULL;
            if (!p)
                bad("a cell using an unknown node, cell", c);
            used[n] = 1;
            memcpy(x[k], p, sizeof x[k]);
        }
        if (!(element_corner_quality(el, (const double(*)[3])x) > 0))
            bad("an inverted or degenerate cell", c);
        for (int f = 0; f < el->nfaces; f++)
            if (s->face_tag[c * el->nfaces + f] < 0)
                bad("a negative face tag on cell", c);
    }
    for (int64_t n = 0; n < s->nnodes; n++) {
        if (!used[n] || s->node_gid[n] != n)
            bad("an unused or misnumbered node", n);
        if (el->dim == 2 && s->xyz[3 * n + 2] != 0.0)
            bad("a 2D node off the xy plane", n);
    }
    free(used);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[4096];
    if (fuzz_write_temp("gmsh", data, size, path, sizeof path)) {
        perror("fuzz_gmsh: cannot write the temporary mesh file");
        abort();
    }
    for (int dim = 2; dim <= 3; dim++) {
        struct cellset s;
        cellset_init(&s, dim);
        char err[1024] = "";
        if (gmsh_read(path, dim, &s, err, sizeof err) == 0) {
            check_mesh(&s);
        } else if (!err[0] || strncmp(err, path, strlen(path)) || strchr(err, '\n')) {
            fprintf(stderr, "fuzz_gmsh: a refused mesh must give one line 'FILE:LINE: message', got '%s'\n", err);
            abort();
        }
        cellset_free(&s);
    }
    unlink(path);
    return 0;
}
