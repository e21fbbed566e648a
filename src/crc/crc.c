/*
 * crc.c - public CRC-32 / CRC-32C API: the zlib-compatible drivers, the
 * "crc32" and "crc32c" implementation tables, and crc*_combine.
 *
 * The drivers do zlib's pre/post inversion (~crc in, ~crc out) around the
 * selected implementation's update op, which sees only the raw reflected
 * register (crc_impl.h), so hardware backends (SSE4.2 crc32, ARMv8 CRC32,
 * PCLMUL / PMULL / vpmsumd folding) plug in without knowing the convention.
 *
 * Combine uses the linearity of the CRC over GF(2): with X = x^(8*len2)
 * mod P, CRC(A||B) = CRC(A)*X xor CRC(B).  (The finished CRC is the raw
 * register xor ~0; the ~0 terms of CRC(A)*X and of CRC(B) cancel, which is
 * why no inversion appears.)  X is found by square-and-multiply on the bits
 * of len2, so the cost is O(log len2) multiplications mod P.
 */
#include "crc/crc_impl.h"
#include "core/cpu_arm.h"
#include "incore/crc.h"

#define CRC32_POLY  0xEDB88320u   /* x^32+x^26+...+1, reflected (ISO 3309) */
#define CRC32C_POLY 0x82F63B78u   /* Castagnoli, reflected (RFC 3720 B.4)  */
#define CRC_X0      0x80000000u   /* the polynomial 1 = x^0, reflected      */

/* ---- implementation tables (best first, portable last with needs 0) ---- */
#if defined(__powerpc64__)
/* crc_ppc_p8.c: vpmsumd folding (ISA 2.07 vector crypto). */
extern const ic_crc_ops ic_crc32_p8_ops, ic_crc32c_p8_ops;
#define IC_CRC_P8_NEEDS (IC_F(IC_CPU_PPC_VCRYPTO) | IC_F(IC_CPU_PPC_ARCH207) | IC_F(IC_CPU_PPC_VSX))
#endif
#if IC_ARM_LE
/* crc_arm_v8.c: CRC32X/CRC32CX, three streams joined with PMULL, or one. */
extern const ic_crc_ops ic_crc32_armv8_ops, ic_crc32c_armv8_ops;
extern const ic_crc_ops ic_crc32_armv8s_ops, ic_crc32c_armv8s_ops;
#define IC_CRC_ARMV8_NEEDS (IC_F(IC_CPU_ARM_CRC32) | IC_F(IC_CPU_ARM_PMULL))
#endif

const ic_impl ic_impls_crc32[] = {
#if defined(__powerpc64__)
    { "p8", IC_CRC_P8_NEEDS, &ic_crc32_p8_ops },
#endif
#if IC_ARM_LE
    { "armv8", IC_CRC_ARMV8_NEEDS, &ic_crc32_armv8_ops },
    { "armv8-serial", IC_F(IC_CPU_ARM_CRC32), &ic_crc32_armv8s_ops },
#endif
    { "slice8", 0, &ic_crc32_slice8_ops },
};
const size_t ic_nimpls_crc32 = sizeof ic_impls_crc32 / sizeof ic_impls_crc32[0];

const ic_impl ic_impls_crc32c[] = {
#if defined(__powerpc64__)
    { "p8", IC_CRC_P8_NEEDS, &ic_crc32c_p8_ops },
#endif
#if IC_ARM_LE
    { "armv8", IC_CRC_ARMV8_NEEDS, &ic_crc32c_armv8_ops },
    { "armv8-serial", IC_F(IC_CPU_ARM_CRC32), &ic_crc32c_armv8s_ops },
#endif
    { "slice8", 0, &ic_crc32c_slice8_ops },
};
const size_t ic_nimpls_crc32c = sizeof ic_impls_crc32c / sizeof ic_impls_crc32c[0];

/* ---- drivers ------------------------------------------------------------ */
static uint32_t crc_run(ic_prim prim, uint32_t crc, const void *buf, size_t len)
{
    /* zlib: crc32(anything, Z_NULL, anything) == 0, the initial value. */
    if (buf == NULL)
        return 0;
    const ic_crc_ops *ops = (const ic_crc_ops *)ic_ops(prim);
    return ~ops->update(~crc, (const uint8_t *)buf, len);
}

uint32_t ic_crc32(uint32_t crc, const void *buf, size_t len)
{
    return crc_run(IC_PRIM_CRC32, crc, buf, len);
}

uint32_t ic_crc32c(uint32_t crc, const void *buf, size_t len)
{
    return crc_run(IC_PRIM_CRC32C, crc, buf, len);
}

/* ---- combine -------------------------------------------------------------
 * Reflected representation: bit 31 holds the coefficient of x^0, bit 0 that
 * of x^31.  Multiplying by x is a right shift; the x^31 term that falls off
 * becomes x^32 == P - x^32 (mod P), i.e. xor the reflected polynomial.     */
static uint32_t crc_mulmod(uint32_t a, uint32_t b, uint32_t poly)
{
    uint32_t p = 0;
    for (int i = 31; i >= 0; i--) {         /* coefficient of x^(31-i) of a */
        p ^= b & (0u - ((a >> i) & 1u));
        b = (b >> 1) ^ (poly & (0u - (b & 1u)));  /* b *= x mod P */
    }
    return p;
}

/* x^(8*n) mod P by square-and-multiply on the bits of n. */
static uint32_t crc_x8n(uint64_t n, uint32_t poly)
{
    uint32_t r = CRC_X0;
    uint32_t sq = CRC_X0 >> 8;               /* x^8: one byte of zeros */
    while (n != 0) {
        if (n & 1)
            r = crc_mulmod(r, sq, poly);
        n >>= 1;
        if (n != 0)
            sq = crc_mulmod(sq, sq, poly);
    }
    return r;
}

uint32_t ic_crc32_combine(uint32_t crc1, uint32_t crc2, uint64_t len2)
{
    return crc_mulmod(crc_x8n(len2, CRC32_POLY), crc1, CRC32_POLY) ^ crc2;
}

uint32_t ic_crc32c_combine(uint32_t crc1, uint32_t crc2, uint64_t len2)
{
    return crc_mulmod(crc_x8n(len2, CRC32C_POLY), crc1, CRC32C_POLY) ^ crc2;
}
