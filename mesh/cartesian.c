/* Built-in box generator and its geometric block split (see cartesian.h). */
#include "cartesian.h"

#include <math.h>

#include "mesh_local.h"

const char *const cartesian_tag_names[7] = {"none", "xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};

int64_t cartesian_ncells(const struct box *b) { return b->n[0] * b->n[1] * (b->dim == 3 ? b->n[2] : 1); }

/* Uniform in [0, 1) from (seed, node id, axis): splitmix64 of a combined key. */
static double hash01(uint64_t seed, int64_t gid, int axis)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)gid * 3 + (uint64_t)axis + 1;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (double)(x >> 11) * 0x1.0p-53;
}

static void node_position(const struct box *b, const int64_t ijk[3], int64_t gid, double x[3])
{
    int interior = 1;
    for (int d = 0; d < b->dim; d++)
        if (ijk[d] == 0 || ijk[d] == b->n[d])
            interior = 0;
    for (int d = 0; d < 3; d++) {
        if (d >= b->dim) {
            x[d] = 0.0;
            continue;
        }
        double h = b->len[d] / (double)b->n[d];
        x[d] = b->x0[d] + b->len[d] * ((double)ijk[d] / (double)b->n[d]);
        if (interior && b->perturb > 0)
            x[d] += b->perturb * h * (hash01(b->seed, gid, d) - 0.5);
    }
}

void cartesian_generate(const struct box *b, const int64_t lo[3], const int64_t hi[3], struct cellset *out)
{
    const int64_t nx = b->n[0], ny = b->n[1], nz = b->dim == 3 ? b->n[2] : 1;
    const int64_t kmax = b->dim == 3 ? hi[2] : 1, kmin = b->dim == 3 ? lo[2] : 0;
    /* corner offsets (di, dj, dk) in element.h order */
    static const int off[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                  {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    const struct element *el = out->el;
    if (hi[0] > lo[0] && hi[1] > lo[1] && kmax > kmin) /* the block's cells and nodes, at once */
        cellset_reserve(out, (hi[0] - lo[0]) * (hi[1] - lo[1]) * (kmax - kmin),
                        (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (kmax - kmin + (b->dim == 3)));
    for (int64_t k = kmin; k < kmax; k++)
        for (int64_t j = lo[1]; j < hi[1]; j++)
            for (int64_t i = lo[0]; i < hi[0]; i++) {
                int64_t nodes[8];
                int32_t tags[6];
                for (int c = 0; c < el->nnodes; c++) {
                    int64_t ijk[3] = {i + off[c][0], j + off[c][1], k + off[c][2]};
                    nodes[c] = ijk[0] + (nx + 1) * (ijk[1] + (ny + 1) * ijk[2]);
                    double x[3];
                    node_position(b, ijk, nodes[c], x);
                    cellset_add_node(out, nodes[c], x);
                }
                if (b->dim == 2) {
                    tags[0] = j == 0 ? TAG_YMIN : 0;
                    tags[1] = i == nx - 1 ? TAG_XMAX : 0;
                    tags[2] = j == ny - 1 ? TAG_YMAX : 0;
                    tags[3] = i == 0 ? TAG_XMIN : 0;
                } else {
                    tags[0] = k == 0 ? TAG_ZMIN : 0;
                    tags[1] = k == nz - 1 ? TAG_ZMAX : 0;
                    tags[2] = j == 0 ? TAG_YMIN : 0;
                    tags[3] = i == nx - 1 ? TAG_XMAX : 0;
                    tags[4] = j == ny - 1 ? TAG_YMAX : 0;
                    tags[5] = i == 0 ? TAG_XMIN : 0;
                }
                cellset_add_cell(out, i + nx * (j + ny * k), nodes, tags);
            }
}

void cartesian_generate_range(const struct box *b, int64_t first, int64_t end, struct cellset *out)
{
    const int64_t nx = b->n[0], ny = b->n[1], plane = nx * ny;
    for (int64_t g = first; g < end;) { /* at most 5 index blocks, each in ascending ids */
        int64_t i = g % nx, j = (g / nx) % ny, k = g / plane, left = end - g;
        int64_t lo[3] = {i, j, k}, hi[3] = {nx, j + 1, k + 1};
        if (i > 0 || left < nx)
            hi[0] = i + left < nx ? i + left : nx; /* the rest of a row */
        else if (j > 0 || left < plane)
            hi[1] = j + (left / nx < ny - j ? left / nx : ny - j); /* whole rows of a plane */
        else
            hi[1] = ny, hi[2] = k + left / plane; /* whole planes */
        cartesian_generate(b, lo, hi, out);
        g += (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    }
}

int cartesian_split(const struct box *b, int P, int parts[3])
{
    const double n0 = (double)b->n[0], n1 = (double)b->n[1], n2 = b->dim == 3 ? (double)b->n[2] : 1.0;
    double best = INFINITY;
    for (int px = 1; px <= P; px++) {
        if (P % px || px > b->n[0])
            continue;
        for (int py = 1; py <= P / px; py++) {
            if ((P / px) % py || py > b->n[1])
                continue;
            int pz = P / px / py;
            if (pz > (b->dim == 3 ? b->n[2] : 1))
                continue;
            double cut = (px - 1) * n1 * n2 + (py - 1) * n0 * n2 + (pz - 1) * n0 * n1;
            if (cut < best) {
                best = cut;
                parts[0] = px;
                parts[1] = py;
                parts[2] = pz;
            }
        }
    }
    return isinf(best) ? -1 : 0;
}

void cartesian_block(const struct box *b, const int parts[3], int rank, int64_t lo[3], int64_t hi[3])
{
    int idx[3] = {rank % parts[0], (rank / parts[0]) % parts[1], rank / parts[0] / parts[1]};
    for (int d = 0; d < 3; d++) {
        int64_t n = d < b->dim ? b->n[d] : 1;
        lo[d] = n * idx[d] / parts[d];
        hi[d] = n * (idx[d] + 1) / parts[d];
    }
}
