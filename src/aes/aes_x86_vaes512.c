/*
 * aes_x86_vaes512.c - AES with VAES on 512-bit ZMM registers (Ice Lake,
 * Sapphire Rapids and later Intel server and client parts with AVX-512,
 * AMD Zen 4 and Zen 5): the "vaes512" entry of ic_impls_aes.  Compiled for
 * VAES, AVX-512F/VL/BW, AVX2, AES-NI and VPCLMULQDQ; run only where CPUID
 * reports VAES, AVX-512F/VL/BW, VPCLMULQDQ (and the AES-NI / SSSE3 the
 * shared key expansion uses).
 *
 * VAESENC on a ZMM register does one round on four independent blocks, one
 * per 128-bit lane.  Eight registers = 32 blocks go through the rounds
 * together, which covers VAESENC's latency (Ice Lake / Sapphire Rapids:
 * 5 cycles, one ZMM per cycle) with a quarter of the instructions of the
 * AES-NI code per block.  Zen 4 executes a ZMM operation as two 256-bit
 * halves, so there the AES rate per cycle is that of the "vaes" backend;
 * what this file saves there is front-end work (loads, stores, XORs,
 * counter arithmetic per four blocks instead of two).  Which CPU
 * families select it: docs/architecture.md, "Selection per CPU family".
 *
 * The batched modes (ECB, CBC and CFB decryption, CTR, ctr32) are
 * aes_x86_modes.h, shared with "ni" and "vaes": whole 32-block batches,
 * then a short batch on 1, 2, 3, 4 or 8 registers for the rest.  Partial
 * registers move with AVX-512 masked loads and stores, which neither read
 * nor write (nor fault on) the masked-out blocks, so nothing outside
 * [in, in+16n) and [out, out+16n) is touched.  Key expansion and the
 * chained modes (CBC and CFB encryption, OFB: one block in flight) are the
 * AES-NI functions; the round keys are the x86 layout of aes_x86.h, each
 * broadcast to the four lanes (VBROADCASTI32X4), so a "vaes512" key is a
 * "ni" key.
 *
 * No branch or memory index depends on key or data; the only branches are
 * on lengths and on the value of a CTR-mode counter (the caller's public
 * IV; never for GCM's ctr32, whose counter may be derived from the key).
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("vaes,avx2,aes,avx512f,avx512vl,avx512bw,vpclmulqdq")
#include <immintrin.h>
#include "aes/aes_x86.h"

#define AESX_V __m512i
#define AESX_NBLK 32
#define AESX_FN(name) vaes512_##name
#define AESX_KEY(rk, r) _mm512_broadcast_i32x4(_mm_load_si128((rk) + (r)))
#define AESX_XOR _mm512_xor_si512
#define AESX_ENC _mm512_aesenc_epi128
#define AESX_ENCLAST _mm512_aesenclast_epi128
#define AESX_DEC _mm512_aesdec_epi128
#define AESX_DECLAST _mm512_aesdeclast_epi128
/* ECB, CBC and CFB decryption: after the whole 32-block batches, a rest of
 * fewer than 8 or of 15 to 24 blocks runs the 256-bit code (aes_x86_vaes.c;
 * same key layout, and this entry's needs include its; aes_x86_modes.h's
 * AESX_REST_OPS): on Zen 5 the short ZMM batch with its masked registers
 * measured 3-10 % slower there, and 15-30 % slower from 15 to 24 blocks,
 * where the 256-bit code has a whole 16-block batch in eight registers
 * (docs/backends.md, "Short messages").  8 to 14
 * and 25 to 31 blocks stay here (up to 1.3x faster).  CTR is faster here
 * at every length but two. */
#define AESX_REST_OPS ic_aes_vaes_ops
#define AESX_REST_TO(rest) (((rest) > 0 && (rest) < 8) || ((rest) >= 15 && (rest) <= 24))
#include "aes/aes_x86_modes.h"

/* Register j holds blocks 4j .. 4j+3.  The mask of the 64-bit elements of
 * the first cnt (0..4) blocks of a register. */
AESX_INLINE __mmask8 blk_mask(size_t cnt)
{
    return (__mmask8)((1u << (2 * cnt)) - 1);
}

/* Blocks of register j among the n of the batch: 0 .. 4. */
AESX_INLINE size_t reg_count(size_t n, int j)
{
    size_t first = 4 * (size_t)j;
    return n <= first ? 0 : n - first >= 4 ? 4 : n - first;
}

/* The loops have a constant trip count and unroll, so every b[j] index is
 * a constant; with n a constant (a whole batch) every test folds away and
 * the loads are plain 512-bit ones. */
AESX_INLINE void load_n(__m512i b[AESX_NV], const uint8_t *p, size_t n)
{
#pragma GCC unroll 8
    for (int j = 0; j < AESX_NV; j++) {
        size_t cnt = reg_count(n, j);
        if (cnt == 4)
            b[j] = _mm512_loadu_si512((const void *)(p + 64 * j));
        else if (cnt == 1)   /* one or two blocks: no mask on the latency path */
            b[j] = _mm512_zextsi128_si512(_mm_loadu_si128((const __m128i *)(const void *)(p + 64 * j)));
        else if (cnt == 2)
            b[j] = _mm512_zextsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)(p + 64 * j)));
        else if (cnt != 0)
            b[j] = _mm512_maskz_loadu_epi64(blk_mask(cnt), (const void *)(p + 64 * j));
    }
}

/* Register j = blocks 4j-1 .. 4j+2: a load 16 bytes back, all within the
 * batch for j >= 1 (block 4j exists whenever register j holds a block); for
 * j = 0 the load starts at p - 16 with that first element masked out (no
 * access there), and `first` goes into lane 0. */
AESX_INLINE void load_prev_n(__m512i b[AESX_NV], __m128i first, const uint8_t *p, size_t n)
{
    const uint8_t *q = (const uint8_t *)((uintptr_t)p - 16);
#pragma GCC unroll 8
    for (int j = 0; j < AESX_NV; j++) {
        size_t cnt = reg_count(n, j);
        __mmask8 m = blk_mask(cnt);
        if (j == 0)
            m = (__mmask8)(m & 0xfc);
        if (cnt == 4 && j != 0)
            b[j] = _mm512_loadu_si512((const void *)(q + 64 * j));
        else if (cnt != 0)
            b[j] = _mm512_maskz_loadu_epi64(m, (const void *)(q + 64 * j));
    }
    b[0] = _mm512_inserti32x4(b[0], first, 0);
}

AESX_INLINE void store_n(uint8_t *out, const __m512i b[AESX_NV], size_t n)
{
#pragma GCC unroll 8
    for (int j = 0; j < AESX_NV; j++) {
        size_t cnt = reg_count(n, j);
        if (cnt == 4)
            _mm512_storeu_si512((void *)(out + 64 * j), b[j]);
        else if (cnt == 1)
            _mm_storeu_si128((__m128i *)(void *)(out + 64 * j), _mm512_castsi512_si128(b[j]));
        else if (cnt == 2)
            _mm256_storeu_si256((__m256i *)(void *)(out + 64 * j), _mm512_castsi512_si256(b[j]));
        else if (cnt != 0)
            _mm512_mask_storeu_epi64((void *)(out + 64 * j), blk_mask(cnt), b[j]);
    }
}

/* Register j = counter + 4j + lane.  The ways are those of
 * aes_x86_modes.h, CTR: ctr32 (GCM) always the VPADDD one, with no branch
 * on the counter's value. */
AESX_INLINE void ctr_blocks(__m512i b[AESX_NV], __m128i c, uint64_t hi, uint64_t lo, int inc32)
{
    const __m512i swap = _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    if (inc32) {
        __m512i cc = _mm512_broadcast_i32x4(c);
        for (int j = 0; j < AESX_NV; j++)
            b[j] = _mm512_shuffle_epi8(_mm512_add_epi32(cc, _mm512_set_epi32(0, 0, 0, 4 * j + 3, 0, 0, 0, 4 * j + 2,
                                                                             0, 0, 0, 4 * j + 1, 0, 0, 0, 4 * j)),
                                       swap);
    } else if (ctr_lastbyte_ok(c)) {
        __m512i be = _mm512_broadcast_i32x4(bswap128(c));
        for (int j = 0; j < AESX_NV; j++)   /* + 4j + lane in byte 15 of each lane */
            b[j] = _mm512_add_epi32(be, _mm512_set_epi32((4 * j + 3) << 24, 0, 0, 0, (4 * j + 2) << 24, 0, 0, 0,
                                                         (4 * j + 1) << 24, 0, 0, 0, (4 * j) << 24, 0, 0, 0));
    } else if (ctr_lo_ok(lo)) {
        __m512i cc = _mm512_broadcast_i32x4(c);
        for (int j = 0; j < AESX_NV; j++)
            b[j] = _mm512_shuffle_epi8(_mm512_add_epi64(cc, _mm512_set_epi64(0, 4 * j + 3, 0, 4 * j + 2,
                                                                             0, 4 * j + 1, 0, 4 * j)),
                                       swap);
    } else {
        for (int j = 0; j < AESX_NV; j++) {
            __m512i v = _mm512_castsi128_si512(ctr_block(hi, lo, 4 * (uint64_t)j));
            v = _mm512_inserti32x4(v, ctr_block(hi, lo, 4 * (uint64_t)j + 1), 1);
            v = _mm512_inserti32x4(v, ctr_block(hi, lo, 4 * (uint64_t)j + 2), 2);
            b[j] = _mm512_inserti32x4(v, ctr_block(hi, lo, 4 * (uint64_t)j + 3), 3);
        }
    }
}

/* ---- XTS: aes_x86_xts.h on four blocks per register ---------------------- */
#define AESX_SLLQ _mm512_slli_epi64
#define AESX_SRLQ _mm512_srli_epi64
#define AESX_BSLLI _mm512_bslli_epi128   /* AVX-512BW */
#define AESX_BSRLI _mm512_bsrli_epi128
/* T, T*x, T*x^2, T*x^3 in lanes 0..3 (the repeated doublings are CSE'd) */
#define AESX_XTS_LANES0(t)                                                                              \
    _mm512_inserti32x4(_mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(t), xts_mulx128(t), 1), \
                                          xts_mulx128(xts_mulx128(t)), 2),                              \
                       xts_mulx128(xts_mulx128(xts_mulx128(t))), 3)
/* lane l (0..3, public) of v: VEXTRACTI32X4 takes a constant */
static inline __m128i vaes512_lane128(__m512i v, size_t l)
{
    switch (l) {
    case 1: return _mm512_extracti32x4_epi32(v, 1);
    case 2: return _mm512_extracti32x4_epi32(v, 2);
    case 3: return _mm512_extracti32x4_epi32(v, 3);
    default: return _mm512_castsi512_si128(v);
    }
}
#define AESX_LANE128 vaes512_lane128
#define AESX_XTS_REDUCE(r) _mm512_clmulepi64_epi128((r), _mm512_set1_epi64(0x87), 0x00)
/* No AESX_XOR3 (VPTERNLOGQ): MemorySanitizer checks that intrinsic's operands
 * strictly, so ct_msan would report the secret data passing through it. */
/* the tweak registers hold T ^ rk_last (aes_x86_xts.h, xts_keys): one
 * VPTERNLOG a register for the whitening, none for the last round key */
#define AESX_XTS_FOLDKL
/* the first tweaks (xts_first_tweaks): lane l gets a + s*l in both halves */
#define AESX_SLLVQ _mm512_sllv_epi64
#define AESX_SRLVQ _mm512_srlv_epi64
#define AESX_XTS_BCAST(t) _mm512_broadcast_i32x4(t)
#define AESX_XTS_KVEC(a, s) \
    _mm512_set_epi64((a) + 3 * (s), (a) + 3 * (s), (a) + 2 * (s), (a) + 2 * (s), (a) + (s), (a) + (s), (a), (a))
#include "aes/aes_x86_xts.h"

const ic_aes_ops ic_aes_vaes512_ops = {
    ic_aes_x86_ni_setkey, vaes512_ecb_enc, vaes512_ecb_dec, ic_aes_x86_ni_cbc_enc, vaes512_cbc_dec,
    vaes512_ctr, vaes512_ctr32, ic_aes_x86_ni_cfb_enc, vaes512_cfb_dec, ic_aes_x86_ni_ofb, vaes512_xts,
    IC_STITCH_BIT(IC_STITCH_X86_XMM) | IC_STITCH_BIT(IC_STITCH_X86_YMM) | IC_STITCH_BIT(IC_STITCH_X86_ZMM),
    ic_aes_x86_ni_gcm_setkey,
};

#define VAES512_NEEDS (IC_F(IC_CPU_VAES) | IC_F(IC_CPU_VPCLMUL) | IC_F(IC_CPU_AVX512F) | IC_F(IC_CPU_AVX512VL) \
                       | IC_F(IC_CPU_AVX512BW) | IC_F(IC_CPU_AVX2) | IC_F(IC_CPU_AESNI) | IC_F(IC_CPU_SSSE3))
IC_BACKEND(aes, vaes512, VAES512_NEEDS, &ic_aes_vaes512_ops);

IC_TARGET_END
#endif /* x86 */
