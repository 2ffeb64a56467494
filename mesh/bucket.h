/* Counting sort by a small integer key (a destination rank, a node): the one way items are grouped. */
#ifndef HYDRO_BUCKET_H
#define HYDRO_BUCKET_H

#include <stdint.h>

/* Items [0, n) grouped by key[i] in [0, nkeys), ascending inside a key; items with a negative
 * key are left out. The items of key k are order[off[k]] .. order[off[k + 1] - 1]; off has
 * nkeys + 1 entries, order room for n. O(n + nkeys), no scratch memory. */
void bucket_sort(const int32_t *key, int64_t n, int nkeys, int64_t *off, int32_t *order);

#endif
