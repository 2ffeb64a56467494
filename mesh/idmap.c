/* Open-addressing hash map from global ids (see idmap.h). */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* Home slot of key: its block of 8 consecutive ids goes to a pseudo-random block of 8 slots, the
 * id to its own slot in it, so that nearby ids (a cell's nodes, a run of cells, both looked up
 * in order) share the table's cache lines instead of costing a miss each. */
static inline size_t slot_of(int64_t key, size_t mask)
{
    return (size_t)((mix((uint64_t)key >> 3) << 3) | ((uint64_t)key & 7)) & mask;
}

static void alloc_table(struct idmap *m, size_t cap)
{
    m->cap = cap;
    m->n = 0;
    m->keys = xmalloc(cap * sizeof *m->keys);
    m->vals = xmalloc(cap * sizeof *m->vals);
    memset(m->keys, 0xff, cap * sizeof *m->keys); /* all -1 */
}

void idmap_init(struct idmap *m, size_t expected)
{
    size_t cap = 16;
    while (cap < 2 * expected)
        cap *= 2;
    alloc_table(m, cap);
}

void idmap_free(struct idmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static void grow(struct idmap *m)
{
    struct idmap old = *m;
    alloc_table(m, old.cap * 2);
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i] >= 0)
            idmap_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
}

int64_t idmap_get_or_put(struct idmap *m, int64_t key, int64_t val)
{
    if (2 * (m->n + 1) > m->cap)
        grow(m);
    size_t mask = m->cap - 1, i = slot_of(key, mask);
    while (m->keys[i] >= 0) {
        if (m->keys[i] == key)
            return m->vals[i];
        i = (i + 1) & mask;
    }
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
    return val;
}

int idmap_put(struct idmap *m, int64_t key, int64_t val)
{
    const size_t before = m->n;
    idmap_get_or_put(m, key, val);
    return m->n > before;
}

int64_t idmap_get(const struct idmap *m, int64_t key)
{
    if (!m->cap)
        return -1;
    size_t mask = m->cap - 1, i = slot_of(key, mask);
    while (m->keys[i] >= 0) {
        if (m->keys[i] == key)
            return m->vals[i];
        i = (i + 1) & mask;
    }
    return -1;
}

void key_idx_sort(struct key_idx *a, int64_t n)
{
    if (n < 2)
        return;
    enum { DIGITS = 8, RADIX = 256 };
    int64_t(*count)[RADIX] = xcalloc(DIGITS, sizeof *count);
    for (int64_t i = 0; i < n; i++) { /* every byte's histogram in one pass */
        uint64_t k = (uint64_t)a[i].key ^ ((uint64_t)1 << 63); /* signed order as unsigned */
        for (int d = 0; d < DIGITS; d++)
            count[d][(k >> (8 * d)) & 0xff]++;
    }
    struct key_idx *tmp = xmalloc((size_t)n * sizeof *tmp), *src = a, *dst = tmp;
    for (int d = 0; d < DIGITS; d++) {
        uint64_t first = ((uint64_t)src[0].key ^ ((uint64_t)1 << 63)) >> (8 * d) & 0xff;
        if (count[d][first] == n) /* a byte every key shares: no pass */
            continue;
        int64_t pos[RADIX], sum = 0;
        for (int b = 0; b < RADIX; b++) {
            pos[b] = sum;
            sum += count[d][b];
        }
        for (int64_t i = 0; i < n; i++) {
            uint64_t k = (uint64_t)src[i].key ^ ((uint64_t)1 << 63);
            dst[pos[(k >> (8 * d)) & 0xff]++] = src[i];
        }
        struct key_idx *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, (size_t)n * sizeof *a);
    free(tmp);
    free(count);
    for (int64_t i = 0, j; i < n; i = j) { /* equal keys (none among global ids) by index */
        for (j = i + 1; j < n && a[j].key == a[i].key; j++)
            ;
        if (j - i > 1)
            qsort(a + i, (size_t)(j - i), sizeof *a, key_idx_cmp);
    }
}

int key_idx_cmp(const void *a, const void *b)
{
    const struct key_idx *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}
