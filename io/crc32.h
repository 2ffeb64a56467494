/* CRC-32 (IEEE 802.3, the polynomial of zlib, gzip and PNG) of byte ranges, and of their concatenation. */
#ifndef HYDRO_CRC32_H
#define HYDRO_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC of n more bytes after a range whose CRC is crc (0 for the empty range): the value
 * `python3 -c "import zlib; print(zlib.crc32(data))"` gives for the same bytes. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t n);

/* Whether this CPU computes the CRC by folding (x86-64 with PCLMULQDQ), zlib's tables otherwise. */
int crc32_folds(void);

/* CRC of A followed by B from crc(A), crc(B) and B's length: ranks checksum their own part of
 * a dataset and the parts combine into the checksum of the whole, in file order. */
uint32_t crc32_concat(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);

#endif
