/* Hash map from a 64-bit global id (>= 0) to a 64-bit value: global-to-local lookups. */
#ifndef HYDRO_IDMAP_H
#define HYDRO_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct idmap {
    int64_t *keys; /* -1 marks an empty slot */
    int64_t *vals;
    size_t cap, n;
};

void idmap_init(struct idmap *m, size_t expected);
void idmap_free(struct idmap *m);
/* Insert key -> val unless key is present. Returns 1 when inserted, 0 when it was there. */
int idmap_put(struct idmap *m, int64_t key, int64_t val);
/* The value of key, inserting key -> val first when it is absent (one lookup for both). */
int64_t idmap_get_or_put(struct idmap *m, int64_t key, int64_t val);
/* Value of key, or -1 when absent. */
int64_t idmap_get(const struct idmap *m, int64_t key);

/* A (key, index) pair for sorting by global id: key_idx_cmp orders by key, then index. */
struct key_idx {
    int64_t key, idx;
};
int key_idx_cmp(const void *a, const void *b);
/* a[0 .. n) in key_idx_cmp's order, as qsort would sort them: a radix sort by bytes that skips
 * the bytes every key shares (a mesh's face or node keys take 4 passes instead of n log n
 * comparisons through a function pointer), then equal keys, if any, by index. */
void key_idx_sort(struct key_idx *a, int64_t n);

#endif
