/* Counting sort by key (see bucket.h). */
#include "bucket.h"

#include <string.h>

void bucket_sort(const int32_t *key, int64_t n, int nkeys, int64_t *off, int32_t *order)
{
    memset(off, 0, ((size_t)nkeys + 1) * sizeof *off);
    for (int64_t i = 0; i < n; i++)
        if (key[i] >= 0)
            off[key[i] + 1]++;
    for (int k = 0; k < nkeys; k++)
        off[k + 1] += off[k];
    /* off[k] is the next free place of key k while filling, the end of k afterwards */
    for (int64_t i = 0; i < n; i++)
        if (key[i] >= 0)
            order[off[key[i]]++] = (int32_t)i;
    memmove(off + 1, off, (size_t)nkeys * sizeof *off);
    off[0] = 0;
}
