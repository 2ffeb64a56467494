/* Material storage as MaHyCo's: a pure cell's values are its cell arrays', a mixed cell's in a slot of partial arrays. */
#ifndef HYDRO_MATSTORE_H
#define HYDRO_MATSTORE_H

#include <stddef.h>
#include <stdint.h>

/* The per-material quantities a slot holds: volume fraction, mass, specific internal energy,
 * pressure, and the energy and pressure at level n. */
enum mat_quantity { MQ_FRAC, MQ_MASS, MQ_E, MQ_P, MQ_E0, MQ_P0, MQ_COUNT };
/* Materials a store holds at most (a cell's composition is one byte of bits). */
enum { MATSTORE_MAX = 8 };

/* Cell c is pure (one material k: cell[c] = k, its values are the cell's own mass, e and p, its
 * fraction 1) or mixed (cell[c] = -1 - s: slot s holds nmat values of each quantity, 0
 * for the absent materials). Memory: 5 bytes per cell plus 6 nmat doubles per mixed cell. */
struct matstore {
    int nmat;
    int32_t ncells;
    int32_t *cell;   /* [ncells] */
    uint8_t *bits;   /* [ncells] the materials present, bit k for material k */
    int32_t cap, nfree;
    int32_t *owner;  /* [cap] the cell of each slot, -1 when free */
    int32_t *free_slot; /* [cap] free slots (a stack) */
    double *q[MQ_COUNT]; /* [cap][nmat] */
};

/* Where a pure cell's values live: the cell arrays of mass, e, p and of its level-n e and p
 * ([MQ_FRAC] unused: a pure cell's fraction is 1). NULL entries: not given (matstore_set then leaves them). */
typedef double *const mat_pure[MQ_COUNT];

/* ncells cells, every one pure material 0 until composed. */
struct matstore *matstore_create(int nmat, int32_t ncells);
void matstore_destroy(struct matstore *s);
static inline unsigned matstore_bits(const struct matstore *s, int32_t c) { return s->bits[c]; }
/* Cell c now holds the materials of bits (not 0): a cell turning mixed takes a slot (its rows
 * 0), one turning pure gives it back. */
void matstore_compose(struct matstore *s, int32_t c, unsigned bits);
/* The same from a row of volume fractions: the materials whose fraction is positive (at least
 * one, else the job stops: a cell without material). */
void matstore_compose_fractions(struct matstore *s, int32_t c, const double *fractions);
/* Slot s's row of quantity q, for loops over the mixed cells. */
static inline double *matstore_row(const struct matstore *s, int32_t slot, enum mat_quantity q)
{
    return s->q[q] + (size_t)slot * s->nmat;
}
/* Quantity q of cell c's materials as a row of nmat values (0 where a material is absent).
 * Inline: the physics calls it for every cell. */
static inline void matstore_get(const struct matstore *s, mat_pure pure, int32_t c, enum mat_quantity q, double *row)
{
    const int32_t k = s->cell[c];
    if (k < 0) {
        const double *src = matstore_row(s, -1 - k, q);
        for (int j = 0; j < s->nmat; j++)
            row[j] = src[j];
        return;
    }
    for (int j = 0; j < s->nmat; j++)
        row[j] = 0.0;
    row[k] = q == MQ_FRAC ? 1.0 : pure[q][c];
}
/* The present materials' values from row (the cell's composition unchanged); a pure cell's
 * value goes to pure[q][c] when given, nowhere for MQ_FRAC. */
static inline void matstore_set(struct matstore *s, mat_pure pure, int32_t c, enum mat_quantity q, const double *row)
{
    const int32_t k = s->cell[c];
    if (k < 0) {
        double *dst = matstore_row(s, -1 - k, q);
        for (int j = 0; j < s->nmat; j++)
            dst[j] = s->bits[c] >> j & 1u ? row[j] : 0.0;
    } else if (q != MQ_FRAC && pure[q]) {
        pure[q][c] = row[k];
    }
}

#endif
