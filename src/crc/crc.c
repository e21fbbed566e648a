/*
 * crc.c - public CRC-32 / CRC-32C API: the zlib-compatible drivers and
 * crc*_combine (the "crc32" and "crc32c" tables are in crc_impls.c).
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
#include "incore/crc.h"

#define CRC32_POLY  0xEDB88320u   /* x^32+x^26+...+1, reflected (ISO 3309) */
#define CRC32C_POLY 0x82F63B78u   /* Castagnoli, reflected (RFC 3720 B.4)  */
#define CRC_X0      0x80000000u   /* the polynomial 1 = x^0, reflected      */

/* ---- drivers ------------------------------------------------------------ */
/* Before the first selection has been published: out of line and reached
 * by a tail call, so that the fast path below saves no register for it (a
 * 16-byte CRC is a handful of cycles; the entry is part of them). */
static __attribute__((noinline)) uint32_t crc_run_first(ic_prim prim, uint32_t crc, const uint8_t *buf,
                                                        size_t len)
{
    const ic_crc_ops *ops = (const ic_crc_ops *)ic_ops(prim);
    return ~ops->update(~crc, buf, len);
}

static inline uint32_t crc_run(ic_prim prim, uint32_t crc, const uint8_t *buf, size_t len)
{
    /* zlib: crc32(anything, Z_NULL, anything) == 0, the initial value. */
    if (buf == NULL)
        return 0;
    const ic_crc_ops *ops = atomic_load_explicit(&ic_selected_ops[prim], memory_order_acquire);
    if (ops == NULL)
        return crc_run_first(prim, crc, buf, len);
    return ~ops->update(~crc, buf, len);
}

uint32_t ic_crc32(uint32_t crc, const uint8_t *buf, size_t len)
{
    return crc_run(IC_PRIM_CRC32, crc, buf, len);
}

uint32_t ic_crc32c(uint32_t crc, const uint8_t *buf, size_t len)
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

static uint32_t crc32_mulmod_port(uint32_t a, uint32_t b) { return crc_mulmod(a, b, CRC32_POLY); }
static uint32_t crc32c_mulmod_port(uint32_t a, uint32_t b) { return crc_mulmod(a, b, CRC32C_POLY); }

/* x^(8*n) mod P by square-and-multiply on the bits of n: at most 2 * 64
 * products, each 32 shift-and-xor steps here or a few carry-less
 * multiplications with the selected implementation's mulmod. */
static uint32_t crc_x8n(uint64_t n, uint32_t (*mul)(uint32_t, uint32_t))
{
    uint32_t r = CRC_X0;
    uint32_t sq = CRC_X0 >> 8;               /* x^8: one byte of zeros */
    while (n != 0) {
        if (n & 1)
            r = mul(r, sq);
        n >>= 1;
        if (n != 0)
            sq = mul(sq, sq);
    }
    return r;
}

static uint32_t crc_combine(ic_prim prim, uint32_t (*port)(uint32_t, uint32_t),
                            uint32_t crc1, uint32_t crc2, uint64_t len2)
{
    const ic_crc_ops *ops = (const ic_crc_ops *)ic_ops(prim);
    uint32_t (*mul)(uint32_t, uint32_t) = ops->mulmod ? ops->mulmod : port;
    return mul(crc_x8n(len2, mul), crc1) ^ crc2;
}

uint32_t ic_crc32_combine(uint32_t crc1, uint32_t crc2, uint64_t len2)
{
    return crc_combine(IC_PRIM_CRC32, crc32_mulmod_port, crc1, crc2, len2);
}

uint32_t ic_crc32c_combine(uint32_t crc1, uint32_t crc2, uint64_t len2)
{
    return crc_combine(IC_PRIM_CRC32C, crc32c_mulmod_port, crc1, crc2, len2);
}
