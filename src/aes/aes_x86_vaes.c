/*
 * aes_x86_vaes.c - AES with VAES on 256-bit YMM registers (Zen 3, Ice Lake
 * and later, Alder Lake and other CPUs without AVX-512): the "vaes" entry
 * of ic_impls_aes.
 *
 * VAESENC on a YMM register does one round on two independent blocks, one
 * per 128-bit lane, at the issue rate of AESENC (Zen 3: two per cycle,
 * latency 4).  Keeping 8 registers = 16 blocks in flight therefore covers
 * the latency with twice the work per instruction of the 8-block AES-NI
 * code (Drucker, Gueron and Krasnov, "Making AES great again", 2018, put
 * the limit of such code near 0.16 cycles/byte for CTR).  The same round
 * key goes into both lanes (VBROADCASTI128 from the AES-NI schedule, whose
 * layout aes_x86.h documents), so a "vaes" key is a "ni" key.
 *
 * ECB, CBC and CFB decryption and CTR / ctr32 run here.  A last batch of
 * 1..15 blocks runs as one padded batch (its latency is that of a single
 * block): whole pairs move with 256-bit loads and stores, an odd last block
 * with a 128-bit one, so nothing outside [in, in+16n) and [out, out+16n) is
 * touched.  Key expansion and the chained modes (CBC and CFB encryption,
 * OFB), where only one block can be in flight, are the AES-NI functions.
 *
 * No branch or memory index depends on key or data; the only branches are
 * on lengths and on the value of a CTR-mode counter (the caller's public
 * IV; never for GCM's ctr32, whose counter may be derived from the key).
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("vaes,avx2,aes,vpclmulqdq")
#include <immintrin.h>
#include "aes/aes_x86.h"

/* The batched modes are aes_x86_modes.h; here are the YMM register type,
 * the VAES rounds with each round key broadcast to both lanes, and how
 * blocks move: register j holds blocks 2j and 2j+1.                      */
#define AESX_V __m256i
#define AESX_NBLK 16
#define AESX_FN(name) vaes_##name
#define AESX_KEY(rk, r) _mm256_broadcastsi128_si256(_mm_load_si128((rk) + (r)))
#define AESX_XOR _mm256_xor_si256
#define AESX_ENC _mm256_aesenc_epi128
#define AESX_ENCLAST _mm256_aesenclast_epi128
#define AESX_DEC _mm256_aesdec_epi128
#define AESX_DECLAST _mm256_aesdeclast_epi128
#include "aes/aes_x86_modes.h"

#define LOAD2(p, j)     _mm256_loadu_si256((const __m256i *)((p) + 32 * (j)))
#define LOAD1(p, j)     _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)((p) + 32 * (j))))
#define STORE2(p, j, v) _mm256_storeu_si256((__m256i *)((p) + 32 * (j)), (v))
#define STORE1(p, j, v) _mm_storeu_si128((__m128i *)((p) + 32 * (j)), _mm256_castsi256_si128(v))

/* Switches, not loops, so every b[j] index is a constant and b stays in
 * registers once inlined; with n a constant (a whole batch) they fold
 * away.  First the n/2 whole pairs, then an odd last block into the low
 * lane of register n/2 with a 128-bit load.                              */
AESX_INLINE void load_n(__m256i b[AESX_NV], const uint8_t *p, size_t n)
{
    switch (n / 2) {
    default: b[7] = LOAD2(p, 7); /* fall through */
    case 7: b[6] = LOAD2(p, 6);  /* fall through */
    case 6: b[5] = LOAD2(p, 5);  /* fall through */
    case 5: b[4] = LOAD2(p, 4);  /* fall through */
    case 4: b[3] = LOAD2(p, 3);  /* fall through */
    case 3: b[2] = LOAD2(p, 2);  /* fall through */
    case 2: b[1] = LOAD2(p, 1);  /* fall through */
    case 1: b[0] = LOAD2(p, 0);  /* fall through */
    case 0: break;
    }
    if (n & 1) {
        switch (n / 2) {
        case 0: b[0] = LOAD1(p, 0); break;
        case 1: b[1] = LOAD1(p, 1); break;
        case 2: b[2] = LOAD1(p, 2); break;
        case 3: b[3] = LOAD1(p, 3); break;
        case 4: b[4] = LOAD1(p, 4); break;
        case 5: b[5] = LOAD1(p, 5); break;
        case 6: b[6] = LOAD1(p, 6); break;
        default: b[7] = LOAD1(p, 7); break;
        }
    }
}

/* Register j = (block 2j-1, block 2j): register 0 is assembled from first
 * and block 0; registers 1.. are 256-bit loads 16 bytes back, each within
 * the batch (block 2j exists whenever register j holds a block: 2j < n). */
#define LOADP(p, j) _mm256_loadu_si256((const __m256i *)((p) + 32 * (j) - 16))
AESX_INLINE void load_prev_n(__m256i b[AESX_NV], __m128i first, const uint8_t *p, size_t n)
{
    switch ((n + 1) / 2) {
    default: b[7] = LOADP(p, 7); /* fall through */
    case 7: b[6] = LOADP(p, 6);  /* fall through */
    case 6: b[5] = LOADP(p, 5);  /* fall through */
    case 5: b[4] = LOADP(p, 4);  /* fall through */
    case 4: b[3] = LOADP(p, 3);  /* fall through */
    case 3: b[2] = LOADP(p, 2);  /* fall through */
    case 2: b[1] = LOADP(p, 1);  /* fall through */
    case 1: b[0] = _mm256_inserti128_si256(_mm256_castsi128_si256(first),
                                           _mm_loadu_si128((const __m128i *)p), 1);
    }
}

AESX_INLINE void store_n(uint8_t *out, const __m256i b[AESX_NV], size_t n)
{
    switch (n / 2) {
    default: STORE2(out, 7, b[7]); /* fall through */
    case 7: STORE2(out, 6, b[6]);  /* fall through */
    case 6: STORE2(out, 5, b[5]);  /* fall through */
    case 5: STORE2(out, 4, b[4]);  /* fall through */
    case 4: STORE2(out, 3, b[3]);  /* fall through */
    case 3: STORE2(out, 2, b[2]);  /* fall through */
    case 2: STORE2(out, 1, b[1]);  /* fall through */
    case 1: STORE2(out, 0, b[0]);  /* fall through */
    case 0: break;
    }
    if (n & 1) {
        switch (n / 2) {
        case 0: STORE1(out, 0, b[0]); break;
        case 1: STORE1(out, 1, b[1]); break;
        case 2: STORE1(out, 2, b[2]); break;
        case 3: STORE1(out, 3, b[3]); break;
        case 4: STORE1(out, 4, b[4]); break;
        case 5: STORE1(out, 5, b[5]); break;
        case 6: STORE1(out, 6, b[6]); break;
        default: STORE1(out, 7, b[7]); break;
        }
    }
}

/* Register j = counter + 2j (low lane), counter + 2j + 1 (high lane); the
 * ways are those of aes_x86_modes.h, CTR: ctr32 (GCM) always the VPADDD
 * one, with no branch on the counter's value.                           */
AESX_INLINE void ctr_blocks(__m256i b[AESX_NV], __m128i c, uint64_t hi, uint64_t lo, int inc32)
{
    const __m256i swap = _mm256_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                         0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    if (inc32) {
        __m256i cc = _mm256_broadcastsi128_si256(c);
        for (int j = 0; j < AESX_NV; j++)
            b[j] = _mm256_shuffle_epi8(_mm256_add_epi32(cc, _mm256_set_epi32(0, 0, 0, 2 * j + 1, 0, 0, 0, 2 * j)), swap);
    } else if (ctr_lastbyte_ok(c)) {
        __m256i be = _mm256_broadcastsi128_si256(bswap128(c));
        for (int j = 0; j < AESX_NV; j++)
            b[j] = _mm256_add_epi8(be, _mm256_set_epi8((char)(2 * j + 1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                       (char)(2 * j), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    } else if (ctr_lo_ok(lo)) {
        __m256i cc = _mm256_broadcastsi128_si256(c);
        for (int j = 0; j < AESX_NV; j++)
            b[j] = _mm256_shuffle_epi8(_mm256_add_epi64(cc, _mm256_set_epi64x(0, 2 * j + 1, 0, 2 * j)), swap);
    } else {
        for (int j = 0; j < AESX_NV; j++)
            b[j] = _mm256_set_m128i(ctr_block(hi, lo, 2 * (uint64_t)j + 1), ctr_block(hi, lo, 2 * (uint64_t)j));
    }
}

/* ---- XTS: aes_x86_xts.h on two blocks per register ----------------------- */
#define AESX_SLLQ _mm256_slli_epi64
#define AESX_SRLQ _mm256_srli_epi64
#define AESX_BSLLI _mm256_bslli_epi128
#define AESX_BSRLI _mm256_bsrli_epi128
#define AESX_XTS_LANES0(t) _mm256_set_m128i(xts_mulx128(t), (t))
#define AESX_LANE128(v, l) ((l) ? _mm256_extracti128_si256((v), 1) : _mm256_castsi256_si128(v))
#define AESX_XTS_REDUCE(r) _mm256_clmulepi64_epi128((r), _mm256_set1_epi64x(0x87), 0x00)
/* The loop's step, chosen per CPU (AESX_XTS_PACKED_WHEN, read once per
 * call; a public property):
 *  - AMD (Zen 3, Zen 4): without VPCLMULQDQ (AESX_XTS_PACKED,
 *    aes_x86_xts.h), which there runs on the pipes of VAESENC and costs
 *    them more than the six shifts and XORs of one reduction shared by four
 *    registers (Zen 3, 4 KiB: 4-5 % faster in a min-of-trials harness,
 *    1.08-1.11x -> 1.16-1.26x libgcrypt in `incore speed`);
 *  - Intel: one VPCLMULQDQ a register (4 operations a register against
 *    5.5), which runs on port 5, away from VAESENC's ports 0 and 1, where
 *    the packed step's shifts run (Emerald Rapids class Xeon, AES-128
 *    16 KiB: 1.14x CTR's c/B against 1.35x).
 * No CPUID bit tells the two apart; GFNI does by proxy: every Intel CPU
 * with VAES has it (Ice Lake, Tiger Lake, Rocket Lake, Alder Lake and
 * later with their E-cores, Sapphire Rapids and later), Zen 3 does not.
 * Zen 4 has GFNI and would take the multiply here, but it selects
 * vaes512 (docs/architecture.md, "Selection per CPU family"), whose step
 * is the multiply everywhere.  docs/backends.md, XTS.  The first tweaks of
 * a data unit (once per call, latency rather than throughput) keep
 * AESX_XTS_REDUCE either way. */
#define AESX_XTS_PACKED
#define AESX_XTS_PACKED_WHEN() ((ic_cpu_enabled() & IC_F(IC_CPU_GFNI)) == 0)
#define AESX_UNPACKHI32 _mm256_unpackhi_epi32
#define AESX_UNPACKHI64 _mm256_unpackhi_epi64
#define AESX_SLLD _mm256_slli_epi32
#define AESX_SRLD _mm256_srli_epi32
#define AESX_SHUFB _mm256_shuffle_epi8
#define AESX_BCAST128 _mm256_broadcastsi128_si256
/* No AESX_XTS_GPR (aes_x86_xts.h) here: on Zen 3 a min-of-trials harness
 * had AES-256 4 KiB 10 % faster with it, but `incore speed` (medians, in
 * place) 10 % slower, and AES-128 within +-5 % (docs/backends.md, XTS) */
/* the first tweaks (xts_first_tweaks): lane l gets a + s*l in both halves */
#define AESX_SLLVQ _mm256_sllv_epi64
#define AESX_SRLVQ _mm256_srlv_epi64
#define AESX_XTS_BCAST(t) _mm256_broadcastsi128_si256(t)
#define AESX_XTS_KVEC(a, s) _mm256_set_epi64x((a) + (s), (a) + (s), (a), (a))
#include "aes/aes_x86_xts.h"

const ic_aes_ops ic_aes_vaes_ops = {
    ic_aes_x86_ni_setkey, vaes_ecb_enc, vaes_ecb_dec, ic_aes_x86_ni_cbc_enc, vaes_cbc_dec,
    vaes_ctr, vaes_ctr32, ic_aes_x86_ni_cfb_enc, vaes_cfb_dec, ic_aes_x86_ni_ofb, vaes_xts,
    IC_STITCH_BIT(IC_STITCH_X86_XMM) | IC_STITCH_BIT(IC_STITCH_X86_YMM), ic_aes_x86_ni_gcm_setkey,
};

/* VPCLMULQDQ: the XTS tweak reduction; every CPU with VAES has it (Ice
 * Lake, Zen 3 and later) */
IC_BACKEND(aes, vaes, IC_F(IC_CPU_VAES) | IC_F(IC_CPU_VPCLMUL) | IC_F(IC_CPU_AVX2) | IC_F(IC_CPU_AESNI) | IC_F(IC_CPU_SSSE3),
           &ic_aes_vaes_ops);

IC_TARGET_END
#endif /* x86 */
