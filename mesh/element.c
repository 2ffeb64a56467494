/* Reference quad and hex tables (see element.h). */
#include "element.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

static const struct element quad = {
    .dim = 2,
    .nnodes = 4,
    .nfaces = 4,
    .nface_nodes = 2,
    .face_nodes = {{0, 1}, {1, 2}, {2, 3}, {3, 0}},
    .corner = {{1, 3}, {2, 0}, {3, 1}, {0, 2}},
};

static const struct element hex = {
    .dim = 3,
    .nnodes = 8,
    .nfaces = 6,
    .nface_nodes = 4,
    .face_nodes = HEX_FACE_NODES,
    .corner = {{1, 3, 4}, {2, 0, 5}, {3, 1, 6}, {0, 2, 7}, {7, 5, 0}, {4, 6, 1}, {5, 7, 2}, {6, 4, 3}},
};

const struct element *element_of_dim(int dim) { return dim == 2 ? &quad : dim == 3 ? &hex : NULL; }

double element_corner_quality(const struct element *e, const double (*x)[3])
{
    double worst = 1.0;
    for (int c = 0; c < e->nnodes; c++) {
        double a[3][3], len = 1.0;
        for (int k = 0; k < e->dim; k++) {
            for (int d = 0; d < 3; d++)
                a[k][d] = x[e->corner[c][k]][d] - x[c][d];
            len *= sqrt(a[k][0] * a[k][0] + a[k][1] * a[k][1] + a[k][2] * a[k][2]);
        }
        double j;
        if (e->dim == 2)
            j = a[0][0] * a[1][1] - a[0][1] * a[1][0];
        else
            j = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
        double q = len > 0 ? j / len : -1.0;
        if (!(q < worst)) /* keeps NaN out */
            continue;
        worst = q;
    }
    for (int c = 0; c < e->nnodes; c++)
        for (int d = 0; d < 3; d++)
            if (!isfinite(x[c][d]))
                return -1.0;
    return worst;
}

/* key[i] and key[j] in order, without a branch (the mesh's ids compare at random) */
static inline void order2(int64_t *key, int i, int j)
{
    const int64_t a = key[i], b = key[j];
    key[i] = a < b ? a : b;
    key[j] = a < b ? b : a;
}

void element_face_key(const struct element *e, const int64_t *cell_nodes, int face, int64_t key[4])
{
    const int *fn = e->face_nodes[face];
    if (e->nface_nodes == 4) { /* a hex face: a sorting network of 4, 5 compare-exchanges (the face
                                * pairing's and the dual graph's most frequent step) */
        for (int i = 0; i < 4; i++)
            key[i] = cell_nodes[fn[i]];
        order2(key, 0, 1);
        order2(key, 2, 3);
        order2(key, 0, 2);
        order2(key, 1, 3);
        order2(key, 1, 2);
        return;
    }
    key[0] = cell_nodes[fn[0]]; /* a quad's edge */
    key[1] = cell_nodes[fn[1]];
    order2(key, 0, 1);
    key[2] = key[3] = -1;
}

int face_rec_cmp(const void *a, const void *b)
{
    const struct face_rec *x = a, *y = b;
    for (int i = 0; i < 4; i++)
        if (x->key[i] != y->key[i])
            return x->key[i] < y->key[i] ? -1 : 1;
    return (x->cell > y->cell) - (x->cell < y->cell);
}
