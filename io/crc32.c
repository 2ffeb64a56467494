/* CRC-32 (see crc32.h): table-driven, eight bytes per step; combination by polynomial arithmetic. */
#include "crc32.h"

#include <string.h>

/* Reflected form of x^32 + x^26 + x^23 + ... + 1: bit 31 is x^0, bit 0 is x^31. */
#define POLY 0xEDB88320u

void crc32_tables_init(struct crc32_tables *tb)
{
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
        tb->t[0][b] = c;
    }
    /* t[k][b]: the CRC step for byte b followed by k zero bytes */
    for (int k = 1; k < 8; k++)
        for (int b = 0; b < 256; b++)
            tb->t[k][b] = (tb->t[k - 1][b] >> 8) ^ tb->t[0][tb->t[k - 1][b] & 0xff];
}

uint32_t crc32_update(const struct crc32_tables *tb, uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = data;
    uint32_t c = ~crc;
    for (; n >= 8; n -= 8, p += 8) { /* bytes assembled explicitly: the same on any byte order */
        uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        c = tb->t[7][lo & 0xff] ^ tb->t[6][(lo >> 8) & 0xff] ^ tb->t[5][(lo >> 16) & 0xff] ^ tb->t[4][lo >> 24] ^
            tb->t[3][p[4]] ^ tb->t[2][p[5]] ^ tb->t[1][p[6]] ^ tb->t[0][p[7]];
    }
    while (n--)
        c = (c >> 8) ^ tb->t[0][(c ^ *p++) & 0xff];
    return ~c;
}

/* a * b modulo the polynomial, both in reflected form. */
static uint32_t mulmod(uint32_t a, uint32_t b)
{
    uint32_t prod = 0;
    for (uint32_t m = 1u << 31; m; m >>= 1) {
        if (a & m)
            prod ^= b;
        b = b & 1 ? (b >> 1) ^ POLY : b >> 1; /* b * x */
    }
    return prod;
}

uint32_t crc32_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
{
    /* crc(AB) = crc(A) * x^(8 len_b) + crc(B) (the pre- and post-inversions cancel out) */
    uint32_t xn = 1u << 31, sq = 1u << 23; /* x^0, then x^8 squared on the way up */
    for (uint64_t n = len_b; n; n >>= 1) {
        if (n & 1)
            xn = mulmod(xn, sq);
        sq = mulmod(sq, sq);
    }
    return mulmod(xn, crc_a) ^ crc_b;
}
