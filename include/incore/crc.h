/*
 * incore/crc.h - CRC-32 (the zlib / Ethernet / PNG CRC, reflected polynomial
 * 0xEDB88320) and CRC-32C (Castagnoli, iSCSI RFC 3720 / ext4 / SSE4.2
 * crc32 instruction, reflected polynomial 0x82F63B78).
 *
 * Both follow zlib's crc32() conventions exactly, so code written for zlib
 * can switch by renaming:
 *   - the value passed in and returned is the finished CRC (pre- and
 *     post-inverted), so calls chain: ic_crc32(ic_crc32(0, a, n), b, m)
 *     == ic_crc32(0, ab, n + m);
 *   - start with 0 (the CRC of the empty message);
 *   - buf == NULL returns 0 whatever crc and len are, as zlib does, so
 *     `crc = ic_crc32(0, NULL, 0)` is the idiomatic initialisation.
 * Neither is a cryptographic checksum: they detect accidents, not attacks.
 *
 * A CRC cannot fail, so these return the new CRC (uint32_t) rather than a
 * status, and keep zlib's argument order and values.  In the calling
 * convention (common.h, docs/api.md) this is the CRCs' exception: there is
 * no output pointer, and the running CRC value takes the place of the
 * object, first; then the bytes (const uint8_t *, as zlib's const Bytef *)
 * and their length.
 *
 * ic_crc32_combine(crc1, crc2, len2) is the CRC of A||B given crc1 = CRC(A),
 * crc2 = CRC(B) and len2 = |B| in bytes, without B itself; O(log len2).
 * Same values as zlib's crc32_combine64().
 */
#ifndef INCORE_CRC_H
#define INCORE_CRC_H

#include "incore/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_CRC32_SIZE 4            /* bytes in a CRC value                 */
#define IC_CRC32_CHECK  0xCBF43926u /* CRC-32 of the ASCII "123456789"     */
#define IC_CRC32C_CHECK 0xE3069283u /* CRC-32C of the ASCII "123456789"    */

IC_API uint32_t ic_crc32(uint32_t crc, const uint8_t *buf, size_t len);
IC_API uint32_t ic_crc32c(uint32_t crc, const uint8_t *buf, size_t len);

IC_API uint32_t ic_crc32_combine(uint32_t crc1, uint32_t crc2, uint64_t len2);
IC_API uint32_t ic_crc32c_combine(uint32_t crc1, uint32_t crc2, uint64_t len2);

#ifdef __cplusplus
}
#endif
#endif
