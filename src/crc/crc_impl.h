/*
 * crc_impl.h - what every CRC-32 / CRC-32C implementation provides to the
 * driver in crc.c, through the "crc32" and "crc32c" registry tables.
 *
 * The op works on the RAW reflected register: no pre- or post-inversion.
 * crc.c inverts on the way in and out (zlib's ~crc ... ~crc), so the value
 * a backend sees is exactly the 32-bit remainder register of the standard:
 * what the SSE4.2 / ARMv8 crc32c/crc32 instructions take and return, and
 * what a PCLMUL / PMULL / vpmsumd folding loop starts from and reduces to.
 * The register is kept in reflected order (bit 31 = coefficient of x^0).
 *
 * buf is any byte pointer (no alignment promised) and is read as bytes in
 * order, so a backend must not depend on the host byte order.  len may be 0.
 * A backend may delegate short inputs or tails to the portable op.
 */
#ifndef INCORE_CRC_IMPL_H
#define INCORE_CRC_IMPL_H

#include "core/internal.h"

typedef struct ic_crc_ops {
    uint32_t (*update)(uint32_t crc, const uint8_t *buf, size_t len);
    /* Optional (NULL: crc.c's portable loop): a * b mod P for
     * ic_crc*_combine, both operands and the result reflected 32-bit
     * polynomials (bit 31 = x^0), e.g. by carry-less multiplication. */
    uint32_t (*mulmod)(uint32_t a, uint32_t b);
} ic_crc_ops;

/* Portable slice-by-8 (crc_slice8.c), the last entry of both tables. */
extern const ic_crc_ops ic_crc32_slice8_ops;
extern const ic_crc_ops ic_crc32c_slice8_ops;

#if defined(__x86_64__) || defined(__i386__)
/* crc_x86_sse42.c: the CRC32 instruction, three streams joined by
 * PCLMULQDQ, then one; the short-input path of the crc32c folding
 * backends.  Only to be called when the CPU has SSE4.2 and PCLMULQDQ. */
uint32_t ic_crc32c_sse42_update(uint32_t crc, const uint8_t *buf, size_t len);
/* crc_x86_clmul.c: a * b mod P by PCLMULQDQ and Barrett, the mulmod op of
 * every x86 entry (they all require PCLMULQDQ). */
uint32_t ic_crc32_clmul_mulmod(uint32_t a, uint32_t b);
uint32_t ic_crc32c_clmul_mulmod(uint32_t a, uint32_t b);
#endif

#endif
