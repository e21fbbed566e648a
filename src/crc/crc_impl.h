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
} ic_crc_ops;

/* Portable slice-by-8 (crc_slice8.c), the last entry of both tables. */
extern const ic_crc_ops ic_crc32_slice8_ops;
extern const ic_crc_ops ic_crc32c_slice8_ops;

#endif
