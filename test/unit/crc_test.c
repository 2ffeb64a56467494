/* Unit tests of io/crc32.c: the standard check value, any split combines into the whole, a
 * changed byte anywhere changes the checksum, and the folded CRC is zlib's for every length and
 * alignment. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "crc32.h"
#include "tap.h"

int main(void)
{
    struct tap t = {0};
    tap_ok(&t, crc32_update(0, "123456789", 9) == 0xCBF43926u, "CRC-32 of \"123456789\" is CBF43926");
    tap_ok(&t, crc32_update(0, "", 0) == 0, "empty range: 0");
    tap_ok(&t, crc32_update(0, "The quick brown fox jumps over the lazy dog", 43) == 0x414FA339u,
           "CRC-32 of the quick brown fox is 414FA339 (as zlib.crc32)");

    enum { N = 1000 };
    unsigned char *buf = malloc(N);
    unsigned s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        buf[i] = (unsigned char)(s >> 16);
    }
    uint32_t whole = crc32_update(0, buf, N);
    int split_ok = 1, stream_ok = 1;
    for (int a = 0; a <= N; a += 37) {
        uint32_t ca = crc32_update(0, buf, (size_t)a), cb = crc32_update(0, buf + a, (size_t)(N - a));
        split_ok &= crc32_concat(ca, cb, (uint64_t)(N - a)) == whole;
        stream_ok &= crc32_update(ca, buf + a, (size_t)(N - a)) == whole;
    }
    tap_ok(&t, split_ok, "crc(A) combined with crc(B) is crc(AB) for every split");
    tap_ok(&t, stream_ok, "updating crc(A) with B gives crc(AB)");
    /* three parts, one empty, as ranks owning nothing contribute */
    uint32_t c1 = crc32_update(0, buf, 300), c2 = crc32_update(0, buf + 300, 0),
             c3 = crc32_update(0, buf + 300, N - 300);
    tap_ok(&t, crc32_concat(crc32_concat(c1, c2, 0), c3, N - 300) == whole, "an empty part changes nothing");
    int flip_ok = 1;
    for (int i = 0; i < N; i += 7)
        for (int bit = 0; bit < 8; bit++) {
            buf[i] ^= (unsigned char)(1u << bit);
            flip_ok &= crc32_update(0, buf, N) != whole;
            buf[i] ^= (unsigned char)(1u << bit);
        }
    tap_ok(&t, flip_ok, "any single flipped bit changes the checksum");
    /* lengths around the folding's blocks (64 bytes, then 16, then the last bytes by zlib), from
     * any alignment and register */
    int zlib_ok = 1;
    for (size_t n = 0; n + 3 <= N; n += n < 300 ? 1 : 61)
        for (size_t a = 0; a < 3; a++) {
            s = s * 1103515245u + 12345u;
            zlib_ok &= crc32_update(s, buf + a, n) == (uint32_t)crc32_z(s, buf + a, n);
        }
    tap_ok(&t, zlib_ok, "lengths 0-299 and on to 971 bytes at 3 alignments, any starting value: zlib's crc32 (%s)",
           crc32_folds() ? "this CPU folds with PCLMULQDQ" : "this CPU uses zlib's tables: the folding not exercised");
    free(buf);
    return tap_done(&t);
}
