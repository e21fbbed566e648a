/*
 * crc_x86_vpclmul512.c - CRC-32 and CRC-32C by 512-bit VPCLMULQDQ folding
 * (AVX-512F/VL + VPCLMULQDQ: Intel Ice Lake and later server cores, AMD Zen
 * 4 and later), the "vpclmul512" entries of the crc32 and crc32c
 * registries.
 *
 * The 128-bit fold of crc_x86_fold.h, four lanes per ZMM register.  From
 * ZMM_X4_MIN bytes on, four ZMM accumulators take 256 bytes per iteration
 * (fold distance 2048 bits).  When fewer than 64 bytes remain after them
 * (1 KiB, 64 KiB, ...), each of the sixteen lanes is folded straight onto
 * the last (one product step, constants lanes16) and the lanes are xored;
 * otherwise they are merged into one ZMM by folding by 1536, 1024 and 512
 * bits (VPTERNLOGQ xors the two products and the other operand in one
 * instruction).  Shorter inputs of 64 bytes or more start with one ZMM.  That one takes 64 bytes at a time, its four lanes are
 * folded by 384, 256 and 128 bits onto the last (one constant vector), and
 * the rest is crc_x86_finish (single chunks, partial tail, then Barrett, or
 * for CRC-32C two CRC32 instructions).  CRC-32 inputs of 16 to 63 bytes
 * run the 128-bit path (crc_x86_xmm); CRC-32C shorter than C32_FOLD runs
 * one chain of the CRC32 instruction, CRC-32 shorter than 16 bytes
 * slice-by-8.  An empty input returns the register without reading memory.
 * CRC-32C also runs the CRC32 instruction beside the folding: from MID_MIN
 * (1.5 KiB) on three stripes at the message's end (crc32c_mid), from
 * FUSE_MIN (11 KiB) on stripes after every 256 folded bytes
 * (crc32c_fused).
 *
 * Built with -mavx512f -mavx512vl -mvpclmulqdq -mavx2 -mpclmul -msse4.2
 * for this file only; selected when CPUID reports AVX-512F and VL (with the
 * OS saving ZMM state), VPCLMULQDQ, AVX2, PCLMULQDQ, SSSE3 and SSE4.2.
 * Without AVX-512 (INCORE_CPU=-avx512f, or Zen 3) the 256-bit "vpclmul"
 * entry is chosen instead.
 */
#include "crc/crc_impl.h"

#if defined(__x86_64__) && defined(__VPCLMULQDQ__) && defined(__AVX512F__) && defined(__AVX512VL__)
#include "crc/crc_x86_fold.h"

#define C32_FOLD 64
#define ZMM_X4_MIN 256

static inline __m512i zmm_k(const crc_x86_consts *c, int n)
{
    return _mm512_broadcast_i32x4(crc_x86_k(c, n));
}

/* y * k lane by lane, xored with d (VPTERNLOGQ 0x96: a ^ b ^ c). */
static inline __m512i zmm_fold_xor(__m512i z, __m512i k, __m512i d)
{
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z, k, 0x00),
                                     _mm512_clmulepi64_epi128(z, k, 0x11), d, 0x96);
}

static inline __m512i zmm_load(const uint8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}

/* Four accumulators whose lanes stand for the last 256 bytes: every lane
 * folded straight onto the last (sixteen distances, one product step
 * instead of four in a row), the result in lane 3, the other lanes zero. */
static inline __m512i zmm_spread(__m512i z0, __m512i z1, __m512i z2, __m512i z3, const crc_x86_consts *c)
{
    const __m512i *kl = (const __m512i *)c->lanes16;
    __m512i t = zmm_fold_xor(z0, _mm512_loadu_si512(kl), zmm_fold_xor(z1, _mm512_loadu_si512(kl + 1),
                             _mm512_maskz_mov_epi64(0xc0, z3)));
    return zmm_fold_xor(z2, _mm512_loadu_si512(kl + 2), zmm_fold_xor(z3, _mm512_loadu_si512(kl + 3), t));
}

/* Four accumulators over len >= 256 bytes, merged into one. */
static inline __m512i zmm_x4(__m512i z0, const uint8_t **pp, size_t *lenp, const crc_x86_consts *c,
                             int *spread)
{
    const uint8_t *p = *pp;
    size_t len = *lenp;
    __m512i z1 = zmm_load(p + 64), z2 = zmm_load(p + 128), z3 = zmm_load(p + 192);
    __m512i k16 = zmm_k(c, 16);
    for (p += 256, len -= 256; len >= 256; p += 256, len -= 256) {
        z0 = zmm_fold_xor(z0, k16, zmm_load(p));
        z1 = zmm_fold_xor(z1, k16, zmm_load(p + 64));
        z2 = zmm_fold_xor(z2, k16, zmm_load(p + 128));
        z3 = zmm_fold_xor(z3, k16, zmm_load(p + 192));
    }
    *pp = p;
    *lenp = len;
    if (len < 64) {   /* nothing for one ZMM to take */
        *spread = 1;
        return zmm_spread(z0, z1, z2, z3, c);
    }
    return zmm_fold_xor(z0, zmm_k(c, 12), zmm_fold_xor(z1, zmm_k(c, 8), zmm_fold_xor(z2, zmm_k(c, 4), z3)));
}

/* The four lanes of z, each already carried to the end (so they only
 * need xoring), as one XMM accumulator, then crc_x86_rest over the len
 * bytes left: the accumulator of the whole message. */
static inline __attribute__((always_inline))
__m128i zmm_xor_rest(__m512i z, const uint8_t *p, size_t len, const crc_x86_consts *c)
{
    __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(z), _mm512_extracti64x4_epi64(z, 1));
    __m128i x = _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
    return crc_x86_rest(x, p, len, c);
}

/* One ZMM accumulator that covers the message up to p: lanes 0, 1, 2
 * folded by 384, 256, 128 bits, lane 3 as it is (zero constant, zero
 * product, then lane 3 of z xored in), then the above. */
static inline __attribute__((always_inline))
__m128i zmm_rest(__m512i z, const uint8_t *p, size_t len, const crc_x86_consts *c)
{
    z = zmm_fold_xor(z, _mm512_loadu_si512((const void *)c->lanes), _mm512_maskz_mov_epi64(0xc0, z));
    return zmm_xor_rest(z, p, len, c);
}

/* len >= 64: one ZMM from the first 64 bytes (four accumulators from 256
 * bytes on), then 64 bytes at a time, then its lanes merged: the 128-bit
 * accumulator of the len bytes, not yet reduced. */
static inline __attribute__((always_inline))
__m128i crc_zmm_acc(uint32_t crc, const uint8_t *p, size_t len, const crc_x86_consts *c)
{
    __m512i z = _mm512_xor_si512(zmm_load(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
    int spread = 0;
    if (len >= ZMM_X4_MIN) {
        z = zmm_x4(z, &p, &len, c, &spread);
    } else {
        p += 64;
        len -= 64;
    }
    if (!spread) {
        __m512i k4 = zmm_k(c, 4);
        for (; len >= 64; p += 64, len -= 64)
            z = zmm_fold_xor(z, k4, zmm_load(p));
        return zmm_rest(z, p, len, c);
    }
    return zmm_xor_rest(z, p, len, c);
}

static inline __attribute__((always_inline))
uint32_t crc_zmm(uint32_t crc, const uint8_t *p, size_t len, const crc_x86_consts *c, int c32)
{
    return crc_x86_final(crc_zmm_acc(crc, p, len, c), c, c32);
}

/* ---- CRC-32C: the folding and the CRC32 instruction side by side ----------
 *
 * The carry-less multiplier is the bound of the folding loop (both here and
 * in ISA-L: about 15 bytes a cycle on Zen 5), and the integer side has a
 * CRC32 instruction (one a cycle, 3 cycles of latency) idle meanwhile.
 * From FUSE_MIN bytes on, n iterations each fold 256 bytes in four ZMM
 * accumulators and advance three CRC32 chains by 40 bytes each; the
 * folding covers the first 256 n bytes, the chains three stripes of 40 n
 * bytes after them (from a zero register each), and the parts join by the
 * linearity of the CRC (crc_x86_sse42.c):
 *
 *   crc(V || S1 || S2 || S3) = crc(V) x^(24 s) + crc'(S1) x^(16 s)
 *                              + crc'(S2) x^(8 s) + crc'(S3)  mod P,
 *
 * s = 40 n bytes, x^(8 s) from the powers x^(8 * 40 * 2^j) below (one
 * product per set bit of n).  The rest, fewer than 376 bytes, runs the
 * ordinary path. */
#ifndef FUSE_MIN
#define FUSE_MIN 11264
#endif
#define FUSE_Q 5                      /* CRC32 instructions a chain an iteration */
#define FUSE_STRIPE (8 * FUSE_Q)      /* bytes a chain an iteration */
#define FUSE_STEP (256 + 3 * FUSE_STRIPE)
/* At most 8191 steps (about 3 MiB) a call, so that 13 powers serve and a
 * test of that length (test_hash_diff) reaches every one of them; larger
 * inputs take several calls, each a join of a few hundred cycles. */
#define FUSE_MAX_ITER (((size_t)1 << 13) - 1)

/* x^(8 * 40 * 2^j) mod P (CRC-32C, reflected: bit 31 = x^0), j = 0..12:
 * crc.c's square-and-multiply (crc_x8n) run in Python. */
static const uint32_t fuse_x8s[13] = {
    0x19e65dde, 0x36c41f1c, 0x1fe0b5c3, 0x9030a49c, 0xb469724f, 0x71892b1b, 0xb5a50ab7,
    0x8eeafe04, 0x8778fbde, 0x5edcdeb9, 0x695a4c87, 0x99569602, 0xf5942afb,
};

/* x^(8 * 40 n) mod P for 1 <= n <= FUSE_MAX_ITER. */
static uint32_t fuse_shift(size_t n)
{
    uint32_t r = 0x80000000u;               /* 1 */
    for (int j = 0; n != 0; j++, n >>= 1)
        if (n & 1)
            r = ic_crc32c_clmul_mulmod(r, fuse_x8s[j]);
    return r;
}

/* FUSE_STEP n bytes at p (1 <= n <= FUSE_MAX_ITER): the register after
 * them, from crc. */
static uint32_t crc32c_fused(uint32_t crc, const uint8_t *p, size_t n, const crc_x86_consts *c)
{
    const uint8_t *s1 = p + 256 * n, *s2 = s1 + FUSE_STRIPE * n, *s3 = s2 + FUSE_STRIPE * n;
    uint64_t c1 = 0, c2 = 0, c3 = 0;
    __m512i z0 = _mm512_xor_si512(zmm_load(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
    __m512i z1 = zmm_load(p + 64), z2 = zmm_load(p + 128), z3 = zmm_load(p + 192);
    const __m512i k16 = zmm_k(c, 16);
    for (size_t i = 0;;) {
        for (int q = 0; q < FUSE_Q; q++) {
            c1 = _mm_crc32_u64(c1, ic_load64_le(s1 + 8 * q));
            c2 = _mm_crc32_u64(c2, ic_load64_le(s2 + 8 * q));
            c3 = _mm_crc32_u64(c3, ic_load64_le(s3 + 8 * q));
        }
        s1 += FUSE_STRIPE, s2 += FUSE_STRIPE, s3 += FUSE_STRIPE;
        if (++i == n)
            break;
        p += 256;
        z0 = zmm_fold_xor(z0, k16, zmm_load(p));
        z1 = zmm_fold_xor(z1, k16, zmm_load(p + 64));
        z2 = zmm_fold_xor(z2, k16, zmm_load(p + 128));
        z3 = zmm_fold_xor(z3, k16, zmm_load(p + 192));
    }
    __m512i z = zmm_fold_xor(z0, zmm_k(c, 12), zmm_fold_xor(z1, zmm_k(c, 8), zmm_fold_xor(z2, zmm_k(c, 4), z3)));
    uint32_t v = crc_x86_final(zmm_rest(z, p + 256, 0, c), c, 1);
    uint32_t x1 = fuse_shift(n), x2 = ic_crc32c_clmul_mulmod(x1, x1), x3 = ic_crc32c_clmul_mulmod(x2, x1);
    return ic_crc32c_clmul_mulmod(v, x3) ^ ic_crc32c_clmul_mulmod((uint32_t)c1, x2) ^
           ic_crc32c_clmul_mulmod((uint32_t)c2, x1) ^ (uint32_t)c3;
}

/* ---- CRC-32C of MID_MIN .. FUSE_MIN bytes: the end on the CRC32 instruction
 *
 * A message of len bytes is A || S0 || S1 || S2 with three stripes of s =
 * 8k bytes at its end, each a CRC32 chain from a zero register, while the
 * folding takes A (crc_zmm_acc).  The two sides use different units and
 * run at the same time; they meet at the end:
 *
 *   reg(M) = reg(A || 0^3s) + crc'(S0) x^(16 s) + crc'(S1) x^(8 s) + crc'(S2),
 *
 * the first term by folding A's 128-bit accumulator over 3s zero bytes
 * (one fold, constants mid[k]) before its two-instruction reduction, the
 * chains joined by crc_x86_c32_join.
 *
 * Sizes (a speed rule: crc_x86_rest takes a rest of any length): A =
 * 256m + r with r < 24, so that A is whole 256-byte steps of the four
 * accumulators, which then fold their lanes straight to the end
 * (zmm_spread), plus at most a chunk and a tail.  Folding
 * takes about 16 bytes a cycle on Zen 5 (two VPCLMULQDQ per 64 bytes at
 * one per two cycles), three chains 8 (one CRC32 a cycle), so both sides
 * take about as long with 256m : 24k = 2 : 1, m = len / 384. */
#ifndef MID_MIN
#define MID_MIN 1536
#endif
/* From 1024 bytes mid_stripes leaves A at least two 256-byte steps after
 * the first, and the loop below issues every chain instruction. */
_Static_assert(MID_MIN >= 1024, "crc32c_mid needs two folding steps");

/* k for len (MID_MIN <= len < FUSE_MIN): k <= CRC_X86_NMID with len - 24k
 * = 256m + r, m >= 3, r < 24 (k = 18..32 from 1536 bytes).  Past the
 * table (from 2072 bytes) the stripes take 504..768 bytes and A the
 * rest. */
static size_t mid_stripes(size_t len)
{
    size_t m = (len + 192) / 384;
    if ((len - 256 * m) / 24 > CRC_X86_NMID)
        m = (len - 24 * CRC_X86_NMID + 255) / 256;
    return (len - 256 * m) / 24;
}

/* Three CRC32 steps (8 bytes on each chain) at offset j of the stripes. */
static inline __attribute__((always_inline))
void mid_crc3(uint64_t *c0, uint64_t *c1, uint64_t *c2, const uint8_t *q, size_t s, size_t j)
{
    *c0 = _mm_crc32_u64(*c0, ic_load64_le(q + j));
    *c1 = _mm_crc32_u64(*c1, ic_load64_le(q + s + j));
    *c2 = _mm_crc32_u64(*c2, ic_load64_le(q + 2 * s + j));
}

/* The chains' instructions are spread over the folding loop, per steps
 * of 256 bytes: issued all before it, they filled the scheduler of the
 * one pipe that runs CRC32 while waiting on their 3-cycle chains, and
 * dispatch stalled, folding included (measured slower than folding
 * alone). */
static __attribute__((noinline)) uint32_t crc32c_mid(uint32_t crc, const uint8_t *p, size_t len)
{
    const crc_x86_consts *c = &ic_crc32c_x86_k;
    const size_t k = mid_stripes(len), s = 8 * k, a = len - 3 * s, steps = a / 256 - 1;
    const size_t per = 8 * ((k + steps - 1) / steps);   /* bytes a chain a step: steps * per >= s */
    const uint8_t *q = p + a;
    const uint64_t *m = c->mid[k];
    const __m512i k16 = zmm_k(c, 16);
    uint64_t c0 = 0, c1 = 0, c2 = 0;
    size_t j = 0;
    __m512i z0 = _mm512_xor_si512(zmm_load(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
    __m512i z1 = zmm_load(p + 64), z2 = zmm_load(p + 128), z3 = zmm_load(p + 192);
    for (size_t i = 0; i < steps; i++) {
        p += 256;
        z0 = zmm_fold_xor(z0, k16, zmm_load(p));
        z1 = zmm_fold_xor(z1, k16, zmm_load(p + 64));
        z2 = zmm_fold_xor(z2, k16, zmm_load(p + 128));
        z3 = zmm_fold_xor(z3, k16, zmm_load(p + 192));
        for (size_t e = j + per < s ? j + per : s; j < e; j += 8)
            mid_crc3(&c0, &c1, &c2, q, s, j);
    }
    p += 256;
    __m128i x = zmm_xor_rest(zmm_spread(z0, z1, z2, z3, c), p, (size_t)(q - p), c);
    x = crc_x86_fold(x, _mm_loadu_si128((const __m128i *)(const void *)m));
    return crc_x86_final(x, c, 1) ^ crc_x86_c32_join(c0, c1, c2, m[2], m[3]);
}

static uint32_t crc32_vpclmul512_update(uint32_t crc, const uint8_t *p, size_t len)
{
    if (len < 16)
        return ic_crc32_slice8_ops.update(crc, p, len);
    if (len < 64)
        return crc_x86_xmm(crc, p, len, &ic_crc32_x86_k, 0);
    return crc_zmm(crc, p, len, &ic_crc32_x86_k, 0);
}

static uint32_t crc32c_vpclmul512_update(uint32_t crc, const uint8_t *p, size_t len)
{
    while (len >= FUSE_MIN) {
        size_t n = len / FUSE_STEP;
        if (n > FUSE_MAX_ITER)
            n = FUSE_MAX_ITER;
        crc = crc32c_fused(crc, p, n, &ic_crc32c_x86_k);
        p += FUSE_STEP * n;
        len -= FUSE_STEP * n;
    }
    if (len < C32_FOLD)
        return crc_x86_c32_serial(crc, p, len);
    if (len >= MID_MIN)
        return crc32c_mid(crc, p, len);
    return crc_zmm(crc, p, len, &ic_crc32c_x86_k, 1);
}

const ic_crc_ops ic_crc32_vpclmul512_ops = { crc32_vpclmul512_update, ic_crc32_clmul_mulmod };
const ic_crc_ops ic_crc32c_vpclmul512_ops = { crc32c_vpclmul512_update, ic_crc32c_clmul_mulmod };

#endif
