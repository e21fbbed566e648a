/*
 * crc_ppc_p8.c - CRC-32 and CRC-32C by carry-less folding with vpmsumd and
 * a Barrett reduction, the "p8" entries of the crc32 / crc32c registries.
 *
 * POWER has no CRC instruction; chapter 6 of "POWER8 in-core Cryptography: The Unofficial Guide" points
 * to Anton Blanchard's crc32-vpmsum, which computes CRCs with vpmsumd, the
 * POWER8 carry-less multiply.  The math is that of Gopal et al., "Fast CRC
 * Computation for Generic Polynomials Using PCLMULQDQ Instruction" (Intel,
 * 2009): a CRC is the remainder of M(x) * x^32 mod P(x), and the remainder
 * of a long message can be folded forward 128 bits at a time, because
 *   X(x) * x^D  ==  H(x) * (x^(64+D) mod P)  +  L(x) * (x^D mod P)  (mod P)
 * for a 128-bit chunk X = H * x^64 + L: two 64 x 32-bit carry-less products,
 * which is exactly one vpmsumd (it multiplies both doubleword lanes and xors
 * the two products).  The result (at most 96 bits) is xored onto the chunk
 * D bits further on.  Eight chunks are kept in flight (D = 1024 bits, 128
 * bytes per iteration) so the vpmsumd latency is hidden; at the end the
 * eight accumulators are folded into one, leftover 16-byte chunks are folded
 * in one by one, and the last 128 bits are reduced to 32 with two more
 * folds and a Barrett reduction (mu = floor(x^64 / P)), all with vpmsumd.
 *
 * Bit order.  These CRCs are reflected: the first message bit is the least
 * significant bit of the first byte, and it is the highest power of x.  So
 * a 16-byte chunk read as one little-endian 128-bit integer has bit j =
 * coefficient of x^(127-j) ("frame 127").  A 64-bit operand in frame 63 (bit
 * j = x^(63-j)) times a 64-bit constant in frame 63 gives a product whose
 * bit j is x^(126-j): one short of frame 127.  So every constant is stored
 * as x^(n-1) mod P, reflected in 64 bits, and the product, read in frame
 * 127, is the wanted term times x^n.  The Barrett constants mu and P are
 * 33-bit, reflected in frame 32.
 *
 * Endianness (chapters 4 and 6).  vpmsumd sees a register as one 128-bit
 * big-endian quantity: doubleword 0 is the high half, and its product is
 * returned the same way.  We want the register to hold the little-endian
 * 128-bit integer of the chunk.  On ppc64le a plain vec_xl of 16 bytes gives
 * exactly that (the register is loaded byte-reversed); on big-endian ppc64
 * the bytes must be reversed first (one vperm).  After that the code is the
 * same on both, except for how GCC numbers the doubleword lanes: element 0
 * is the low half on little-endian and the high half on big-endian - the
 * "two halves come out swapped" of the guide - which CRC_P8_LO/HI and
 * crc_p8_pair() absorb.
 *
 * Constants: generated with exact GF(2) polynomial arithmetic (x^n mod P by
 * repeated doubling; mu by long division), see the comment at each table.
 * Input shorter than CRC_P8_MIN, the bytes before the first 16-byte
 * boundary and the tail after the last whole chunk go through the portable
 * slice-by-8 op, as crc_impl.h allows.
 *
 * Compiled for POWER8; used only when AT_HWCAP2 reports vcrypto (vpmsumd
 * is part of the ISA 2.07 crypto category).
 */
#include "core/target.h"

#if defined(__powerpc64__)
IC_TARGET_BEGIN(IC_TARGET_POWER8)
#include "crc/crc_impl.h"
#include <altivec.h>

typedef __vector unsigned long long vu64;
typedef __vector unsigned char vu8;

/* GCC element numbers of the low and high 64 bits of the 128-bit register. */
#if defined(__LITTLE_ENDIAN__)
#define CRC_P8_LO 0
#define CRC_P8_HI 1
#else
#define CRC_P8_LO 1
#define CRC_P8_HI 0
#endif

/* Below this many bytes slice-by-8 is as fast and the setup is not worth it. */
#define CRC_P8_MIN 64
#define CRC_P8_LANES 8        /* 16-byte chunks in flight */

typedef struct {
    /* fold[k]: the pair (x^(64+D-1) mod P, x^(D-1) mod P), reflected into
     * the top 32 bits of 64, for D = 128 * (k + 1) bits.  fold[7] (D = 1024)
     * drives the 8-lane loop, fold[6..0] merge lane i into lane 7, and
     * fold[0] (D = 128) folds single chunks. */
    uint64_t fold[CRC_P8_LANES][2];
    uint64_t k95, k63;        /* x^95, x^63 mod P: the 128 -> 96 -> 64 steps */
    uint64_t mu, poly;        /* floor(x^64 / P) and P, reflected, 33 bits */
} crc_p8_consts;

static const crc_p8_consts crc32_p8_consts = {
    .fold = {
        { UINT64_C(0x65673b4600000000), UINT64_C(0x9ba54c6f00000000) },
        { UINT64_C(0x9570d49500000000), UINT64_C(0x01b5fd1d00000000) },
        { UINT64_C(0x69ccfc0d00000000), UINT64_C(0x2a28386200000000) },
        { UINT64_C(0x653d982200000000), UINT64_C(0xcad38e8f00000000) },
        { UINT64_C(0x5a03a0cf00000000), UINT64_C(0x8e42b13e00000000) },
        { UINT64_C(0x759fc69d00000000), UINT64_C(0x101a233100000000) },
        { UINT64_C(0x019866e800000000), UINT64_C(0xc64ac0b800000000) },
        { UINT64_C(0x7d657a1000000000), UINT64_C(0x7406fa9500000000) },
    },
    .k95 = UINT64_C(0xccaa009e00000000), .k63 = UINT64_C(0xb8bc676500000000),
    .mu = UINT64_C(0x1f7011641), .poly = UINT64_C(0x1db710641),
};

static const crc_p8_consts crc32c_p8_consts = {
    .fold = {
        { UINT64_C(0x3743f7bd00000000), UINT64_C(0x3171d43000000000) },
        { UINT64_C(0x33ccbbbc00000000), UINT64_C(0xa2158b3400000000) },
        { UINT64_C(0xa46ef4aa00000000), UINT64_C(0x6051243f00000000) },
        { UINT64_C(0x1c19243b00000000), UINT64_C(0x75bba45b00000000) },
        { UINT64_C(0x1c42da4300000000), UINT64_C(0x6d883e3800000000) },
        { UINT64_C(0xc92f998d00000000), UINT64_C(0x3365346a00000000) },
        { UINT64_C(0x169472b600000000), UINT64_C(0x963e61cd00000000) },
        { UINT64_C(0x6577b24500000000), UINT64_C(0x7417153f00000000) },
    },
    .k95 = UINT64_C(0x493c7d2700000000), .k63 = UINT64_C(0xdd45aab800000000),
    .mu = UINT64_C(0x0dea713f1), .poly = UINT64_C(0x105ec76f1),
};

/* The register holding lo in its low 64 bits and hi in its high 64 bits. */
static inline vu64 crc_p8_pair(uint64_t lo, uint64_t hi)
{
    vu64 v;
    v[CRC_P8_LO] = lo;
    v[CRC_P8_HI] = hi;
    return v;
}

/* The 16 bytes at p as one little-endian 128-bit integer (frame 127). */
static inline vu64 crc_p8_load(const uint8_t *p)
{
    vu8 b = vec_xl(0, p);
#if !defined(__LITTLE_ENDIAN__)
    const vu8 rev = { 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };
    b = vec_perm(b, b, rev);
#endif
    return (vu64)b;
}

/* X * x^D mod-equivalent, at most 96 bits: the low half of X (its high
 * powers, H) meets x^(64+D-1), the high half (L) meets x^(D-1). */
static inline vu64 crc_p8_fold(vu64 x, vu64 k)
{
    return __builtin_crypto_vpmsumd(x, k);
}

static inline vu64 crc_p8_kvec(const uint64_t k[2])
{
    return crc_p8_pair(k[0], k[1]);
}

/* 64 x 64 -> 128-bit carry-less product: vpmsumd with one lane zero. */
static inline void crc_p8_clmul(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
    vu64 r = __builtin_crypto_vpmsumd(crc_p8_pair(a, 0), crc_p8_pair(b, 0));
    *lo = r[CRC_P8_LO];
    *hi = r[CRC_P8_HI];
}

/*
 * The 128-bit remainder X (frame 127) to the 32-bit reflected CRC register
 * X(x) * x^32 mod P:
 *  1. A = H * x^96 + L * x^32: H meets x^95 (frame shift), L is shifted up
 *     32 bits; A has 96 significant bits, at bits 32..127.
 *  2. B = A_hi * x^64 + A_lo with A_hi (bits 32..63, 32 bits) meeting x^63:
 *     the product lands in the high 64 bits, onto A_lo.  B has 64 bits,
 *     B(x) == X(x) * x^32 mod P.
 *  3. Barrett: with B = B1 * x^32 + B0, q = floor(B1 * mu / x^32) is
 *     floor(B / P), and B mod P = (B + q * P) mod x^32.  B1 is the low 32
 *     bits of B (frame 31), q the low 32 bits of B1*mu (frame 63), and the
 *     remainder the high 32 bits of B ^ q*P, already the reflected register.
 */
static uint32_t crc_p8_reduce(const crc_p8_consts *c, vu64 x)
{
    uint64_t xl = x[CRC_P8_LO], xh = x[CRC_P8_HI];
    uint64_t alo, ahi, tlo, thi;

    crc_p8_clmul(xl, c->k95, &alo, &ahi);
    alo ^= xh << 32;
    ahi ^= xh >> 32;
    crc_p8_clmul(alo, c->k63, &tlo, &thi);
    uint64_t b = thi ^ ahi;
    crc_p8_clmul(b & 0xffffffffu, c->mu, &tlo, &thi);
    crc_p8_clmul(tlo & 0xffffffffu, c->poly, &tlo, &thi);
    return (uint32_t)((b ^ tlo) >> 32);
}

static uint32_t crc_p8_update(const crc_p8_consts *c, const ic_crc_ops *port,
                              uint32_t crc, const uint8_t *p, size_t len)
{
    if (len < CRC_P8_MIN)
        return port->update(crc, p, len);

    /* Bytes up to the 16-byte boundary, so every vector load is aligned. */
    size_t head = (size_t)(-(uintptr_t)p & 15);
    crc = port->update(crc, p, head);
    p += head;
    len -= head;

    /* The register enters as the first 32 message bits xored with it. */
    vu64 x = crc_p8_load(p) ^ crc_p8_pair(crc, 0);
    p += 16;
    len -= 16;

    if (len >= 16 * (CRC_P8_LANES - 1)) {
        vu64 acc[CRC_P8_LANES];
        acc[0] = x;
        for (int i = 1; i < CRC_P8_LANES; i++)
            acc[i] = crc_p8_load(p + 16 * (i - 1));
        p += 16 * (CRC_P8_LANES - 1);
        len -= 16 * (CRC_P8_LANES - 1);

        /* Eight independent chains: lane i folds over the 128 bytes to its
         * next chunk. */
        const vu64 k1024 = crc_p8_kvec(c->fold[CRC_P8_LANES - 1]);
        while (len >= 16 * CRC_P8_LANES) {
            for (int i = 0; i < CRC_P8_LANES; i++)
                acc[i] = crc_p8_fold(acc[i], k1024) ^ crc_p8_load(p + 16 * i);
            p += 16 * CRC_P8_LANES;
            len -= 16 * CRC_P8_LANES;
        }
        /* Lane i is 7 - i chunks before lane 7: fold it that far. */
        x = acc[CRC_P8_LANES - 1];
        for (int i = 0; i < CRC_P8_LANES - 1; i++)
            x ^= crc_p8_fold(acc[i], crc_p8_kvec(c->fold[CRC_P8_LANES - 2 - i]));
    }

    const vu64 k128 = crc_p8_kvec(c->fold[0]);
    while (len >= 16) {
        x = crc_p8_fold(x, k128) ^ crc_p8_load(p);
        p += 16;
        len -= 16;
    }
    crc = crc_p8_reduce(c, x);
    return port->update(crc, p, len);
}

static uint32_t crc32_p8_update(uint32_t crc, const uint8_t *p, size_t len)
{
    return crc_p8_update(&crc32_p8_consts, &ic_crc32_slice8_ops, crc, p, len);
}

static uint32_t crc32c_p8_update(uint32_t crc, const uint8_t *p, size_t len)
{
    return crc_p8_update(&crc32c_p8_consts, &ic_crc32c_slice8_ops, crc, p, len);
}

static const ic_crc_ops crc32_p8_ops = { .update = crc32_p8_update };
static const ic_crc_ops crc32c_p8_ops = { .update = crc32c_p8_update };

#define P8_NEEDS (IC_F(IC_CPU_PPC_VCRYPTO) | IC_F(IC_CPU_PPC_ARCH207) | IC_F(IC_CPU_PPC_VSX))
IC_BACKEND(crc32, p8, P8_NEEDS, &crc32_p8_ops);
IC_BACKEND(crc32c, p8, P8_NEEDS, &crc32c_p8_ops);

IC_TARGET_END
#endif
