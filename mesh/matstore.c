/* Material storage (see matstore.h). */
#include "matstore.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

struct matstore *matstore_create(int nmat, int32_t ncells)
{
    struct matstore *s = xcalloc(1, sizeof *s);
    s->nmat = nmat;
    s->ncells = ncells;
    s->cell = xcalloc((size_t)(ncells ? ncells : 1), sizeof *s->cell);
    s->bits = xmalloc((size_t)(ncells ? ncells : 1));
    memset(s->bits, 1, (size_t)(ncells ? ncells : 1));
    return s;
}

void matstore_destroy(struct matstore *s)
{
    if (!s)
        return;
    for (int q = 0; q < MQ_COUNT; q++)
        free(s->q[q]);
    free(s->owner);
    free(s->free_slot);
    free(s->cell);
    free(s->bits);
    free(s);
}

/* A free slot, its rows zeroed; the arrays grow by half when every slot is taken. */
static int32_t take_slot(struct matstore *s, int32_t c)
{
    if (!s->nfree) {
        int32_t cap = s->cap + s->cap / 2 + 16;
        for (int q = 0; q < MQ_COUNT; q++)
            s->q[q] = xrealloc(s->q[q], (size_t)cap * s->nmat * sizeof *s->q[q]);
        s->owner = xrealloc(s->owner, (size_t)cap * sizeof *s->owner);
        s->free_slot = xrealloc(s->free_slot, (size_t)cap * sizeof *s->free_slot);
        for (int32_t k = cap - 1; k >= s->cap; k--) { /* the lowest slots are taken first */
            s->owner[k] = -1;
            s->free_slot[s->nfree++] = k;
        }
        s->cap = cap;
    }
    int32_t slot = s->free_slot[--s->nfree];
    s->owner[slot] = c;
    for (int q = 0; q < MQ_COUNT; q++)
        memset(matstore_row(s, slot, (enum mat_quantity)q), 0, (size_t)s->nmat * sizeof(double));
    return slot;
}

void matstore_compose(struct matstore *s, int32_t c, unsigned bits)
{
    int was_mixed = s->cell[c] < 0, mixed = (bits & (bits - 1)) != 0;
    if (was_mixed && !mixed) {
        int32_t slot = -1 - s->cell[c];
        s->owner[slot] = -1;
        s->free_slot[s->nfree++] = slot;
    } else if (!was_mixed && mixed) {
        s->cell[c] = -1 - take_slot(s, c);
    }
    if (!mixed) {
        int k = 0;
        while (!(bits >> k & 1u))
            k++;
        s->cell[c] = k;
    }
    s->bits[c] = (uint8_t)bits;
}

void matstore_compose_fractions(struct matstore *s, int32_t c, const double *fractions)
{
    unsigned bits = 0;
    for (int k = 0; k < s->nmat; k++)
        bits |= (unsigned)(fractions[k] > 0) << k;
    if (!bits)
        hydro_fatal(MPI_COMM_WORLD, EXIT_RUNTIME, "internal error: local cell %d without material", (int)c);
    matstore_compose(s, c, bits);
}
