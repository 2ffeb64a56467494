/* Unit tests of the serial mesh pieces: reference elements, generator, block split, Gmsh
 * reader (against the generator, and on malformed files), id map, cell packing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "cartesian.h"
#include "cellset.h"
#include "check.h"
#include "element.h"
#include "gidblocks.h"
#include "gmsh.h"
#include "idmap.h"
#include "tap.h"

static struct tap t;

static void cell_coords(const struct cellset *s, int64_t c, double x[8][3])
{
    for (int k = 0; k < s->el->nnodes; k++)
        memcpy(x[k], cellset_node_xyz(s, s->nodes[c * s->el->nnodes + k]), sizeof x[k]);
}

static void test_elements(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        const struct element *e = element_of_dim(dim);
        double x[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
        tap_ok(&t, fabs(element_corner_quality(e, (const double(*)[3])x) - 1.0) < 1e-15,
               "%dD unit cell: corner quality 1", dim);
        /* face normals (right-hand rule over the listed nodes) point outwards */
        int outward = 1;
        for (int f = 0; f < e->nfaces; f++) {
            const int *fn = e->face_nodes[f];
            double c[3] = {0, 0, 0}, n[3];
            for (int i = 0; i < e->nface_nodes; i++)
                for (int d = 0; d < 3; d++)
                    c[d] += x[fn[i]][d] / e->nface_nodes;
            if (dim == 2) { /* edge a->b: outward normal (dy, -dx) for counter-clockwise cells */
                n[0] = x[fn[1]][1] - x[fn[0]][1];
                n[1] = -(x[fn[1]][0] - x[fn[0]][0]);
                n[2] = 0;
            } else {
                double a[3], b[3];
                for (int d = 0; d < 3; d++) {
                    a[d] = x[fn[1]][d] - x[fn[0]][d];
                    b[d] = x[fn[3]][d] - x[fn[0]][d];
                }
                n[0] = a[1] * b[2] - a[2] * b[1];
                n[1] = a[2] * b[0] - a[0] * b[2];
                n[2] = a[0] * b[1] - a[1] * b[0];
            }
            double dot = 0;
            for (int d = 0; d < dim; d++)
                dot += n[d] * (c[d] - 0.5);
            outward &= dot > 0;
        }
        tap_ok(&t, outward, "%dD: every face lists its nodes with the normal pointing out", dim);
        double y[8][3];
        static const int mirror[8] = {0, 3, 2, 1, 4, 7, 6, 5};
        for (int k = 0; k < 8; k++)
            memcpy(y[k], x[mirror[k]], sizeof y[k]);
        tap_ok(&t, element_corner_quality(e, (const double(*)[3])y) < 0, "%dD: mirrored cell has negative quality", dim);
        memcpy(y, x, sizeof y);
        y[2][0] = -0.5; /* corner 2 pulled across: bow-tie / twisted */
        y[2][1] = -0.5;
        tap_ok(&t, element_corner_quality(e, (const double(*)[3])y) < 0, "%dD: twisted cell has negative quality", dim);
    }
}

/* element_face_key: each face's node ids in ascending order (quad edges: two, then -1, -1), for
 * every assignment of ids 0..3 to a face's corners (all 256: repeats included, as a degenerate
 * cell has them), each id offset by a large gid. */
static void test_face_keys(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        const struct element *e = element_of_dim(dim);
        const int nfn = e->nface_nodes;
        int bad = 0, tried = 0;
        for (int f = 0; f < e->nfaces; f++)
            for (int code = 0; code < 256; code++) {
                int64_t nodes[8] = {0}, key[4], want[4] = {-1, -1, -1, -1};
                for (int i = 0; i < nfn; i++)
                    want[i] = nodes[e->face_nodes[f][i]] = (int64_t)1 << 40 | (code >> (2 * i) & 3);
                for (int i = 1; i < nfn; i++) /* the expected key, sorted by insertion */
                    for (int j = i; j > 0 && want[j - 1] > want[j]; j--) {
                        int64_t x = want[j];
                        want[j] = want[j - 1];
                        want[j - 1] = x;
                    }
                element_face_key(e, nodes, f, key);
                bad += memcmp(key, want, sizeof key) != 0;
                tried++;
            }
        tap_ok(&t, bad == 0, "%dD: element_face_key sorts each face's ids, repeats included (%d of %d wrong)", dim,
               bad, tried);
    }
}

static struct box make_box(int dim, int64_t nx, int64_t ny, int64_t nz, double perturb)
{
    struct box b = {.dim = dim, .n = {nx, ny, dim == 3 ? nz : 1}, .x0 = {-1, 2, 0.5},
                    .len = {3, 1.5, dim == 3 ? 0.75 : 0}, .perturb = perturb, .seed = 77};
    return b;
}

static void test_generator(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        struct box b = make_box(dim, 5, 4, 3, 0);
        struct cellset s;
        cellset_init(&s, dim);
        int64_t lo[3] = {0, 0, 0};
        cartesian_generate(&b, lo, b.n, &s);
        int64_t want_cells = dim == 3 ? 60 : 20, want_nodes = dim == 3 ? 6 * 5 * 4 : 6 * 5;
        tap_ok(&t, s.ncells == want_cells && s.nnodes == want_nodes && cartesian_ncells(&b) == want_cells,
               "%dD generator: %lld cells, %lld nodes", dim, (long long)s.ncells, (long long)s.nnodes);
        int gid_ok = 1, valid = 1;
        long tagged[7] = {0};
        for (int64_t c = 0; c < s.ncells; c++) {
            gid_ok &= s.gid[c] == c;
            double x[8][3];
            cell_coords(&s, c, x);
            valid &= element_corner_quality(s.el, (const double(*)[3])x) > 0.999;
            for (int f = 0; f < s.el->nfaces; f++)
                tagged[s.face_tag[c * s.el->nfaces + f]]++;
        }
        tap_ok(&t, gid_ok, "%dD generator: cell (i,j,k) has gid i + nx (j + ny k)", dim);
        tap_ok(&t, valid, "%dD generator: unperturbed cells are rectangles", dim);
        int tags_ok = tagged[TAG_XMIN] == 4 * (dim == 3 ? 3 : 1) && tagged[TAG_XMAX] == tagged[TAG_XMIN] &&
                      tagged[TAG_YMIN] == 5 * (dim == 3 ? 3 : 1) && tagged[TAG_YMAX] == tagged[TAG_YMIN] &&
                      tagged[TAG_ZMIN] == (dim == 3 ? 20 : 0) && tagged[TAG_ZMAX] == tagged[TAG_ZMIN];
        tap_ok(&t, tags_ok, "%dD generator: boundary faces carry their box-side tags", dim);
        const double *last = cellset_node_xyz(&s, s.nnodes - 1);
        tap_ok(&t, last && last[0] == 2.0 && last[1] == 3.5 && (dim == 2 ? last[2] == 0 : last[2] == 1.25),
               "%dD generator: far corner exactly at origin + lengths", dim);
        cellset_free(&s);

        /* perturbed at the largest allowed amplitude: valid, boundary nodes unmoved, same node
         * from any block */
        struct box p = make_box(dim, 9, 8, 7, 0.3);
        struct cellset full, part;
        cellset_init(&full, dim);
        cellset_init(&part, dim);
        cartesian_generate(&p, lo, p.n, &full);
        int64_t plo[3] = {3, 2, dim == 3 ? 1 : 0}, phi[3] = {7, 8, dim == 3 ? 4 : 1};
        cartesian_generate(&p, plo, phi, &part);
        double worst = 1;
        int moved = 0, boundary_moved = 0;
        for (int64_t c = 0; c < full.ncells; c++) {
            double x[8][3];
            cell_coords(&full, c, x);
            double q = element_corner_quality(full.el, (const double(*)[3])x);
            worst = q < worst ? q : worst;
        }
        struct cellset flat;
        struct box f = p;
        f.perturb = 0;
        cellset_init(&flat, dim);
        cartesian_generate(&f, lo, f.n, &flat);
        for (int64_t i = 0; i < full.nnodes; i++) {
            int64_t g = full.node_gid[i], ii = g % 10, jj = (g / 10) % 9, kk = g / 90;
            int on_boundary = ii == 0 || ii == 9 || jj == 0 || jj == 8 || (dim == 3 && (kk == 0 || kk == 7));
            int differs = memcmp(full.xyz + 3 * i, cellset_node_xyz(&flat, g), 3 * sizeof(double)) != 0;
            moved += differs;
            boundary_moved += on_boundary && differs;
        }
        int same = 1;
        for (int64_t i = 0; i < part.nnodes; i++)
            same &= !memcmp(part.xyz + 3 * i, cellset_node_xyz(&full, part.node_gid[i]), 3 * sizeof(double));
        tap_ok(&t, worst > 0, "%dD perturb 0.3: every cell valid (worst corner quality %.3f)", dim, worst);
        tap_ok(&t, moved > 0 && boundary_moved == 0, "%dD perturb: %d interior nodes moved, %d boundary nodes moved",
               dim, moved, boundary_moved);
        tap_ok(&t, same, "%dD perturb: a block generates its nodes exactly as the whole box does", dim);
        cellset_free(&full);
        cellset_free(&part);
        cellset_free(&flat);
    }
}

/* The bound behind perturb <= 0.3: with every node of a cell moved by up to 0.15 cells per
 * axis, the worst corner of a hex stays positive. Sampled over many cells and seeds. */
static void test_perturb_bound(void)
{
    double worst = 1;
    long cells = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        struct box p = make_box(3, 40, 40, 40, 0.3);
        p.len[0] = p.len[1] = p.len[2] = 1; /* cubes: the worst case for the bound */
        p.seed = seed;
        struct cellset s;
        cellset_init(&s, 3);
        int64_t lo[3] = {0, 0, 0};
        cartesian_generate(&p, lo, p.n, &s);
        for (int64_t c = 0; c < s.ncells; c++) {
            double x[8][3];
            cell_coords(&s, c, x);
            double q = element_corner_quality(s.el, (const double(*)[3])x);
            worst = q < worst ? q : worst;
        }
        cells += s.ncells;
        cellset_free(&s);
    }
    tap_ok(&t, worst > 0, "perturb 0.3 over %ld cells and 6 seeds: every hex valid (worst corner quality %.3f)", cells,
           worst);
}

static void test_split(void)
{
    struct box b = make_box(3, 10, 6, 5, 0);
    int parts[3];
    tap_ok(&t, cartesian_split(&b, 12, parts) == 0 && parts[0] * parts[1] * parts[2] == 12,
           "split 10x6x5 in 12: %d x %d x %d", parts[0], parts[1], parts[2]);
    tap_ok(&t, parts[0] >= parts[1] && parts[1] >= parts[2], "split cuts the longest axis most");
    int covered = 1;
    char *seen = calloc(300, 1);
    for (int r = 0; r < 12; r++) {
        int64_t lo[3], hi[3];
        cartesian_block(&b, parts, r, lo, hi);
        for (int64_t k = lo[2]; k < hi[2]; k++)
            for (int64_t j = lo[1]; j < hi[1]; j++)
                for (int64_t i = lo[0]; i < hi[0]; i++)
                    seen[i + 10 * (j + 6 * k)]++;
    }
    for (int i = 0; i < 300; i++)
        covered &= seen[i] == 1;
    free(seen);
    tap_ok(&t, covered, "blocks cover every cell exactly once");
    tap_ok(&t, cartesian_split(&b, 301, parts) == -1, "no split of 300 cells in 301 blocks");
    tap_ok(&t, cartesian_split(&b, 7 * 11, parts) == -1, "no split when a prime factor exceeds every axis");
    struct box b2 = make_box(2, 8, 3, 1, 0);
    tap_ok(&t, cartesian_split(&b2, 6, parts) == 0 && parts[2] == 1 && parts[0] * parts[1] == 6,
           "2D split never cuts z");
}

/* Generator box and Gmsh file: same cells (as sets of node positions), same boundary tags. */
static void compare_with_gmsh(int dim, const char *path, struct box b)
{
    char err[512];
    struct cellset g, c;
    cellset_init(&g, dim);
    cellset_init(&c, dim);
    int rc = gmsh_read(path, dim, &g, err, sizeof err);
    tap_ok(&t, rc == 0, "%s reads (%s)", path, rc ? err : "ok");
    if (rc) {
        cellset_free(&g);
        cellset_free(&c);
        return;
    }
    int64_t lo[3] = {0, 0, 0};
    cartesian_generate(&b, lo, b.n, &c);
    tap_ok(&t, g.ncells == c.ncells && g.nnodes == c.nnodes, "%s: %lld cells and %lld nodes, as the generator",
           path, (long long)g.ncells, (long long)g.nnodes);
    /* node map by position: Gmsh's transfinite interior nodes are off by ~1e-12 */
    int64_t *map = malloc(sizeof *map * (size_t)c.nnodes), unmatched = 0;
    for (int64_t i = 0; i < c.nnodes; i++) {
        map[i] = -1;
        for (int64_t j = 0; j < g.nnodes; j++) {
            double d = 0;
            for (int k = 0; k < 3; k++)
                d += fabs(c.xyz[3 * i + k] - g.xyz[3 * j + k]);
            if (d < 1e-9)
                map[i] = g.node_gid[j];
        }
        unmatched += map[i] < 0;
    }
    int nv = c.el->nnodes, nf = c.el->nfaces;
    int64_t cells_missing = 0, tag_errors = 0, orient = 0;
    for (int64_t ci = 0; ci < c.ncells && !unmatched; ci++) {
        int64_t want[8];
        for (int k = 0; k < nv; k++)
            want[k] = map[idmap_get(&c.node_index, c.nodes[ci * nv + k])];
        int64_t found = -1;
        for (int64_t gi = 0; gi < g.ncells && found < 0; gi++) {
            int all = 1;
            for (int k = 0; k < nv && all; k++) {
                int in = 0;
                for (int q = 0; q < nv; q++)
                    in |= g.nodes[gi * nv + q] == want[k];
                all = in;
            }
            if (all)
                found = gi;
        }
        if (found < 0) {
            cells_missing++;
            continue;
        }
        double x[8][3];
        cell_coords(&g, found, x);
        orient += element_corner_quality(g.el, (const double(*)[3])x) <= 0;
        for (int f = 0; f < nf; f++) { /* same face (by nodes) has the same tag */
            int64_t kc[4], kg[4], mapped[8];
            for (int k = 0; k < nv; k++)
                mapped[k] = want[k];
            element_face_key(c.el, mapped, f, kc);
            int tagged = 0;
            for (int h = 0; h < nf; h++) {
                element_face_key(g.el, g.nodes + found * nv, h, kg);
                if (!memcmp(kc, kg, sizeof kc))
                    tagged = g.face_tag[found * nf + h] == c.face_tag[ci * nf + f];
            }
            tag_errors += !tagged;
        }
    }
    tap_ok(&t, !unmatched && !cells_missing, "%s: every generated cell is a Gmsh cell (%lld nodes unmatched, %lld "
           "cells missing)", path, (long long)unmatched, (long long)cells_missing);
    tap_ok(&t, !orient, "%s: Gmsh cells are positively oriented after reading", path);
    tap_ok(&t, !tag_errors, "%s: physical groups give the generator's boundary tags (%lld errors)", path,
           (long long)tag_errors);
    free(map);
    cellset_free(&g);
    cellset_free(&c);
}

static const char *good_2d =
    "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
    "$Entities\n0 1 1 0\n"
    "1 0 0 0 2 1 0 1 7 0\n"
    "1 0 0 0 2 1 0 1 10 0\n"
    "$EndEntities\n"
    "$Nodes\n1 6 1 6\n2 1 0 6\n1\n2\n3\n4\n5\n6\n"
    "0 0 0\n1 0 0\n2 0 0\n0 1 0\n1 1 0\n2 1 0\n$EndNodes\n"
    "$Elements\n2 4 1 4\n"
    "1 1 1 2\n1 1 2\n2 2 3\n"
    "2 1 3 2\n3 1 2 5 4\n4 2 3 6 5\n"
    "$EndElements\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* Apply one textual replacement to the good file and expect an error containing want. */
static void bad_gmsh(const char *from, const char *to, const char *want, const char *what)
{
    char text[4096];
    const char *at = strstr(good_2d, from);
    if (!at) {
        tap_ok(&t, 0, "%s: fixture does not contain '%s'", what, from);
        return;
    }
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good_2d), good_2d, to, at + strlen(from));
    write_file("/tmp/hydro_bad.msh", text);
    struct cellset s;
    cellset_init(&s, 2);
    char err[512] = "";
    int rc = gmsh_read("/tmp/hydro_bad.msh", 2, &s, err, sizeof err);
    tap_ok(&t, rc == -1 && strstr(err, want) != NULL, "%s: '%s' (got '%s')", what, want, err);
    cellset_free(&s);
}

static void test_gmsh(void)
{
    compare_with_gmsh(2, "inputs/meshes/box_2d.msh", (struct box){.dim = 2, .n = {6, 4, 1}, .len = {1.5, 1, 0}});
    compare_with_gmsh(3, "inputs/meshes/box_3d.msh", (struct box){.dim = 3, .n = {4, 3, 2}, .len = {1, 0.75, 0.5}});

    char err[512];
    struct cellset s;
    for (int k = 0; k < 2; k++) {
        const char *path = k ? "inputs/meshes/hex_block.msh" : "inputs/meshes/quarter_disc.msh";
        int dim = k ? 3 : 2;
        cellset_init(&s, dim);
        int rc = gmsh_read(path, dim, &s, err, sizeof err);
        double worst = 1;
        long boundary_tags = 0;
        for (int64_t c = 0; c < s.ncells; c++) {
            double x[8][3];
            cell_coords(&s, c, x);
            double q = element_corner_quality(s.el, (const double(*)[3])x);
            worst = q < worst ? q : worst;
            for (int f = 0; f < s.el->nfaces; f++)
                boundary_tags += s.face_tag[c * s.el->nfaces + f] != 0;
        }
        tap_ok(&t, rc == 0 && s.ncells > 100 && worst > 0 && boundary_tags > 0,
               "%s: %lld valid cells (worst quality %.2f), %ld tagged boundary faces", path, (long long)s.ncells,
               worst, boundary_tags);
        cellset_free(&s);
    }

    write_file("/tmp/hydro_good.msh", good_2d);
    cellset_init(&s, 2);
    int rc = gmsh_read("/tmp/hydro_good.msh", 2, &s, err, sizeof err);
    int tags = 0;
    for (int64_t i = 0; i < s.ncells * 4; i++)
        tags += s.face_tag[i] == 7;
    tap_ok(&t, rc == 0 && s.ncells == 2 && s.nnodes == 6 && tags == 2,
           "small file: 2 quads, 6 nodes, 2 faces tagged 7 (%s)", rc ? err : "ok");
    cellset_free(&s);
    cellset_init(&s, 3);
    rc = gmsh_read("/tmp/hydro_good.msh", 3, &s, err, sizeof err);
    tap_ok(&t, rc == -1 && strstr(err, "no hexahedra"), "2D file read as 3D: '%s'", err);
    cellset_free(&s);

    bad_gmsh("$MeshFormat\n", "hello\n", "hydro_bad.msh:1: not a Gmsh mesh", "not a mesh");
    bad_gmsh("4.1 0 8", "2.2 0 8", ":2: MSH version 2.2 is not supported", "old version");
    bad_gmsh("4.1 0 8", "4.1 1 8", ":2: binary MSH is not supported", "binary");
    bad_gmsh("2 1 3 2\n", "2 1 2 2\n", ":30: unsupported 2D element type 2", "triangles");
    bad_gmsh("2 1 3 2\n", "2 1 99 2\n", ":30: unknown element type 99", "unknown type");
    bad_gmsh("3 1 2 5 4\n", "3 1 2 5 9\n", ":31: element 3 uses undefined node 9", "undefined node");
    bad_gmsh("4\n5\n", "4\n4\n", "node tag 4 is defined twice", "duplicate node");
    bad_gmsh("4 2 3 6 5\n", "4 2 3 5 6\n", ":32: element 4 is degenerate or twisted", "twisted quad");
    bad_gmsh("\n1 1 2\n", "\n1 1 5\n", ":28: boundary element 1 is not a face of any cell", "stray boundary element");
    bad_gmsh("0 0 0\n1 0 0\n2 0 0\n", "0 0 0\n1 0", ":22: expected node coordinate, found '$EndNodes'", "short coordinates");
    bad_gmsh("$EndElements\n", "", "unexpected end of file, expected $EndElements", "truncated");
    bad_gmsh("$Elements\n2 4 1 4", "$Elementz\n2 4 1 4", "unexpected end of file, expected $EndElementz",
             "misspelt section");
    bad_gmsh("$Nodes\n1 6 1 6", "$Nodes\n1 7 1 7", ":23: 7 nodes announced, 6 found", "node count");
    bad_gmsh("3 1 2 5 4\n", "3 1 2 5 4\n9 1 2 5 4\n", ":33: expected $EndElements, found '4'", "extra element");
    cellset_init(&s, 2);
    rc = gmsh_read("/nonexistent.msh", 2, &s, err, sizeof err);
    tap_ok(&t, rc == -1 && strstr(err, "/nonexistent.msh: cannot open mesh: No such file"), "missing file: '%s'", err);
    cellset_free(&s);
}

/* Ranges of ids in proportion to weights (the ghost directory's homes, by owned cells): each
 * range within one id of its exact share, the ranges following each other, every id found in
 * the one range that holds it. */
static void ranges_ok(const long long *w, int P, int64_t n, const char *what)
{
    int64_t f[16];
    id_ranges_by_weight(w, P, n, f);
    long long total = 0, before = 0;
    for (int r = 0; r < P; r++)
        total += w[r];
    int ok = f[0] == 0 && f[P] == n;
    for (int r = 0; r < P; r++) {
        double exact = total > 0 ? (double)before * (double)n / (double)total : (double)r * (double)n / P;
        ok &= f[r] <= f[r + 1] && fabs((double)f[r] - exact) <= 1.0;
        ok &= w[r] != 0 || total == 0 || f[r] == f[r + 1]; /* weight 0: no id */
        before += w[r];
    }
    for (int64_t id = 0; id < n; id++) {
        int r = id_ranges_find(f, P, id);
        ok &= r >= 0 && r < P && f[r] <= id && id < f[r + 1];
    }
    tap_ok(&t, ok, "id ranges: %s", what);
}

static void test_id_ranges(void)
{
    ranges_ok((const long long[]){1, 2, 3, 4}, 4, 100, "1:2:3:4 of 100 ids");
    ranges_ok((const long long[]){0, 5, 0, 5}, 4, 10, "ranks of weight 0 hold no id");
    ranges_ok((const long long[]){0, 0, 0, 0}, 4, 10, "no weight at all: equal ranges");
    ranges_ok((const long long[]){3, 0, 1000, 1, 0, 17, 250}, 7, 1000, "7 uneven weights, 2 of them 0");
    ranges_ok((const long long[]){5, 7, 0, 0}, 4, 333, "the last ranks of weight 0");
    ranges_ok((const long long[]){0, 0, 9, 0, 0}, 5, 50, "every id on one rank");
    ranges_ok((const long long[]){4}, 1, 77, "one rank");
    ranges_ok((const long long[]){2, 3}, 2, 0, "no ids");
    int64_t f[5];
    id_ranges_by_weight((const long long[]){1, 2, 3, 4}, 4, 100, f);
    tap_ok(&t, f[1] >= 9 && f[1] <= 10 && f[2] >= 29 && f[2] <= 30 && f[3] >= 59 && f[3] <= 60,
           "id ranges 1:2:3:4 of 100 ids start near 10 30 60 (%lld %lld %lld)", (long long)f[1], (long long)f[2],
           (long long)f[3]);
}

static void test_idmap_and_pack(void)
{
    struct idmap m;
    idmap_init(&m, 4);
    int ok = 1;
    for (int64_t i = 0; i < 100000; i++)
        ok &= idmap_put(&m, i * 7919 % 1000003, i) == 1;
    ok &= idmap_put(&m, 7919, 5) == 0;
    for (int64_t i = 0; i < 100000; i++)
        ok &= idmap_get(&m, i * 7919 % 1000003) == i;
    ok &= idmap_get(&m, 3) == -1 && m.n == 100000;
    tap_ok(&t, ok, "idmap: 100000 keys through growth, no overwrite, absent key -1");
    idmap_free(&m);
    /* ids in a power-of-two stride and in runs that start a power of two apart (ranks' shares) */
    idmap_init(&m, 16);
    ok = 1;
    for (int64_t i = 0; i < 20000; i++)
        ok &= idmap_put(&m, i << 20, i) == 1 && idmap_put(&m, (i % 8 + 1) * ((int64_t)1 << 40) + i / 8, -i) == 1;
    int64_t sum = 0, seen = 0;
    for (size_t i = 0; i < m.cap; i++) /* every key once, by slot */
        if (m.keys[i] >= 0) {
            seen++;
            sum += m.vals[i];
        }
    for (int64_t i = 0; i < 20000; i++)
        ok &= idmap_get(&m, i << 20) == i && idmap_get(&m, (i % 8 + 1) * ((int64_t)1 << 40) + i / 8) == -i;
    tap_ok(&t, ok && seen == 40000 && sum == 0 && m.n == 40000 && idmap_get(&m, 1 << 19) == -1,
           "idmap: strided ids and runs of ids a power of two apart, each found and listed once");
    idmap_free(&m);

    struct box b = make_box(3, 3, 2, 2, 0.3);
    struct cellset s, r;
    cellset_init(&s, 3);
    cellset_init(&r, 3);
    int64_t lo[3] = {0, 0, 0};
    cartesian_generate(&b, lo, b.n, &s);
    int32_t pick[3] = {5, 0, 11};
    struct buf msg = {0};
    cellset_pack(&s, pick, 3, &msg);
    cellset_pack(&s, pick + 1, 1, &msg); /* a node seen twice is merged */
    cellset_unpack(&r, &msg);
    cellset_unpack(&r, &msg);
    int same = r.ncells == 4 && buf_done(&msg);
    for (int i = 0; i < 3 && same; i++) {
        same &= r.gid[i] == s.gid[pick[i]] && !memcmp(r.nodes + 8 * i, s.nodes + 8 * pick[i], 8 * sizeof(int64_t)) &&
                !memcmp(r.face_tag + 6 * i, s.face_tag + 6 * pick[i], 6 * sizeof(int32_t));
        for (int k = 0; k < 8; k++)
            same &= !memcmp(cellset_node_xyz(&r, r.nodes[8 * i + k]), cellset_node_xyz(&s, r.nodes[8 * i + k]),
                            3 * sizeof(double));
    }
    int64_t distinct = 0;
    for (int64_t i = 0; i < r.nnodes; i++)
        distinct += idmap_get(&r.node_index, r.node_gid[i]) == i;
    tap_ok(&t, same && distinct == r.nnodes, "cellset pack/unpack: cells, tags and node coordinates intact, nodes "
           "merged (%lld nodes)", (long long)r.nnodes);
    buf_free(&msg);
    cellset_free(&s);
    cellset_free(&r);
}

/* The message buffer's inline appends and reads: values of mixed sizes (constant, a zero-length
 * one, a run of bytes) through several growths, read back in order, and the cursor at the end. */
static void test_buf(void)
{
    struct buf b = {0};
    int ok = 1;
    for (int64_t i = 0; i < 5000; i++) {
        buf_put_i64(&b, i * 1000003 - 7);
        const int32_t small = (int32_t)(i ^ 0x5a5a);
        buf_put(&b, &small, sizeof small);
        buf_put(&b, NULL, 0);
        char run[13];
        for (int k = 0; k < 13; k++)
            run[k] = (char)(i + k);
        buf_put(&b, run, (size_t)(i % 14));
    }
    ok &= b.cap >= b.len && b.pos == 0;
    for (int64_t i = 0; i < 5000 && ok; i++) {
        ok &= buf_get_i64(&b) == i * 1000003 - 7;
        int32_t small;
        buf_get(&b, &small, sizeof small);
        ok &= small == (int32_t)(i ^ 0x5a5a);
        buf_get(&b, NULL, 0);
        char run[13];
        buf_get(&b, run, (size_t)(i % 14));
        for (int k = 0; k < (int)(i % 14); k++)
            ok &= run[k] == (char)(i + k);
    }
    tap_ok(&t, ok && buf_done(&b) && b.pos == b.len, "buf: 20000 values of mixed sizes through growth, read back "
           "in order to the end (%zu bytes)", b.len);
    buf_free(&b);
}

int main(void)
{
    test_buf();
    test_elements();
    test_face_keys();
    test_generator();
    test_perturb_bound();
    test_split();
    test_gmsh();
    test_idmap_and_pack();
    test_id_ranges();
    /* messages stay text: bytes outside valid UTF-8 are escaped, characters are kept */
    {
        char out[64];
        text_escape("10\xff", out, sizeof out);
        tap_ok(&t, !strcmp(out, "10\\xFF"), "text_escape: a stray byte becomes \\xFF (%s)", out);
        text_escape("caf\xc3\xa9 \xe6\x97\xa5", out, sizeof out);
        tap_ok(&t, !strcmp(out, "caf\xc3\xa9 \xe6\x97\xa5"), "text_escape keeps valid UTF-8 (%s)", out);
        text_escape("\xc0\xaf\xed\xa0\x80", out, sizeof out); /* overlong '/', a surrogate */
        tap_ok(&t, !strcmp(out, "\\xC0\\xAF\\xED\\xA0\\x80"), "text_escape escapes overlong forms and "
               "surrogates (%s)", out);
        char small[6];
        text_escape("ab\xff\xff", small, sizeof small);
        tap_ok(&t, !strcmp(small, "ab"), "text_escape never cuts an escape in half (%s)", small);
    }

    /* key_idx_sort: qsort's order with key_idx_cmp, for distinct ids (a mesh's face keys: layer
     * in the top bits) and for keys with repeats, negatives and extremes */
    {
        enum { N = 5000 };
        struct key_idx *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
        int same = 1;
        uint64_t r = 12345;
        for (int round = 0; round < 3; round++) {
            for (int64_t i = 0; i < N; i++) {
                r = r * 6364136223846793005ull + 1442695040888963407ull;
                int64_t k = round == 0   ? ((int64_t)(r >> 62) << 59) | (int64_t)((r >> 20) % 1000003) /* faces */
                            : round == 1 ? (int64_t)(r >> 40) % 7 - 3 /* repeats, negatives */
                                         : (i % 3 == 0 ? INT64_MIN : i % 3 == 1 ? INT64_MAX : (int64_t)r);
                a[i] = b[i] = (struct key_idx){k, (int64_t)((r >> 8) % N) - N / 2};
            }
            key_idx_sort(a, N);
            qsort(b, N, sizeof *b, key_idx_cmp);
            same = same && !memcmp(a, b, N * sizeof *a);
        }
        struct key_idx one = {7, 1};
        key_idx_sort(&one, 1);
        key_idx_sort(NULL, 0);
        tap_ok(&t, same && one.key == 7, "key_idx_sort gives qsort's order: distinct face keys, repeated and "
               "negative keys, INT64_MIN and INT64_MAX");
        free(a);
        free(b);
    }

    /* counting sort by key: stable inside a key, negative keys left out */
    {
        const int32_t key[8] = {2, 0, -1, 2, 1, 0, 2, -3};
        int64_t off[4];
        int32_t order[8] = {0};
        bucket_sort(key, 8, 3, off, order);
        const int64_t want_off[4] = {0, 2, 3, 6};
        const int32_t want[6] = {1, 5, 4, 0, 3, 6};
        tap_ok(&t, !memcmp(off, want_off, sizeof off) && !memcmp(order, want, sizeof want),
               "bucket_sort groups items by key, ascending inside a key, negative keys left out");
        bucket_sort(key, 0, 3, off, order);
        tap_ok(&t, off[0] == 0 && off[3] == 0, "bucket_sort of no item: every key empty");
    }

    return tap_done(&t);
}
