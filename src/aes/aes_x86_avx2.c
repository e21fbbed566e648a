/*
 * aes_x86_avx2.c - constant-time AES-128/192/256 on x86-64 CPUs with AVX2
 * but without AES-NI: the "avx2" entry of ic_impls_aes, ranked below
 * every AES-instruction entry (vaes512, vaes, ni, padlock) and above
 * "ssse3".  Such CPUs exist where the AES instructions are switched off:
 * firmware settings that disable AES-NI, and hypervisors that hide it from
 * a guest (CPUID leaf 1 ECX bit 25 clear, AVX2 still shown).
 *
 * The parallel modes (CTR and ctr32, so the CTR half of AES-GCM; ECB
 * encryption, and with it XTS, whose generic loop in xts.c runs batches
 * of 16 blocks through ECB; CFB decryption) run the Kasper-Schwabe
 * bitsliced AES of aes_x86_bs.inc on YMM registers: 16 blocks at once,
 * blocks 0-7 in the low 128-bit lanes and 8-15 in the high lanes.  Every
 * instruction of that code works within a 128-bit lane, so each lane
 * computes what the ssse3 entry's XMM code computes for eight blocks, for
 * the same instruction count: twice the blocks per instruction.  The rest
 * of a call below 16 blocks goes to the ssse3 entry's functions (eight
 * blocks bitsliced on XMM, then the vector-permute code), and so does
 * everything that has no 16 independent blocks to work on: key expansion,
 * CBC and CFB encryption, OFB, ECB and CBC decryption
 * (ic_aes_x86_vp_*, aes_x86.h).  The key layout is therefore the ssse3
 * one, expanded by the same function.
 *
 * Constant time: the bitsliced rounds are ANDs, XORs, 64-bit shifts by
 * constants, PSHUFB and PSHUFD with constant indexes (the secret is the
 * data permuted, never the index) and PCMPEQB of key bytes against
 * constants: no memory address, no branch and no loop count depends on the
 * key or the data, and none of these instructions has an
 * operand-dependent latency.  Branches are on lengths, the round count and
 * whether the caller's block count is large enough to spread the round keys
 * once (public).  The counter blocks are built from the public counter, the
 * 128-bit carry without a branch.  The functions reused from aes_x86_ssse3.c
 * carry that file's argument (PSHUFB lookups with the secret as the index
 * in a register).  The bit-plane round keys on the stack are wiped.  The
 * constant-time check (tests/ct_check.c under valgrind memcheck and
 * MemorySanitizer) runs this entry in every mode, XTS, GCM and the
 * CTR_DRBG, with lengths reaching both key forms and the XMM tails.
 *
 * x86-64 only: every CPU with AVX2 runs it, and on 32-bit x86 the eight
 * YMM registers would spill the eight planes on every gate.
 */
#include "core/target.h"

#if defined(__x86_64__)
IC_TARGET_BEGIN("ssse3,avx2")
#include <immintrin.h>
#include "aes/aes_x86.h"

#define BS_V __m256i
#define BS_FN(name) bs16_##name
#define BS_XOR(a, b) _mm256_xor_si256((a), (b))
#define BS_AND(a, b) _mm256_and_si256((a), (b))
#define BS_CMPEQ8(a, b) _mm256_cmpeq_epi8((a), (b))
#define BS_ADD8(a, b) _mm256_add_epi8((a), (b))
#define BS_SRLI64(x, n) _mm256_srli_epi64((x), (n))
#define BS_SLLI64(x, n) _mm256_slli_epi64((x), (n))
#define BS_SHUF8(x, i) _mm256_shuffle_epi8((x), (i))
#define BS_ROT1(x) _mm256_shuffle_epi32((x), 0x39)
#define BS_ROT2(x) _mm256_shuffle_epi32((x), 0x4e)
#define BS_SET1_8(c) _mm256_set1_epi8((char)(c))
#define BS_ZERO() _mm256_setzero_si256()
#define BS_BCAST16(p) _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)(p)))
#define BS_BLOCKS 16
/* The spreading costs about two batches' worth of the per-round
 * spreading, as on XMM. */
#define BS_EXPAND_MIN 64
#define BS_LOAD(p) ld2(p)
#define BS_STORE(p, v) st2((p), (v))
#define BS_LOAD_FIRST(prev, p) \
    _mm256_inserti128_si256(_mm256_castsi128_si256(prev), _mm_loadu_si128((const __m128i *)(const void *)((p) + 112)), 1)
#define BS_LAST(v) _mm256_extracti128_si256((v), 1)

/* Register b of a group holds blocks b and b + 8: p and p + 128 bytes. */
static inline __m256i ld2(const uint8_t *p)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p)),
                                   _mm_loadu_si128((const __m128i *)(const void *)(p + 128)), 1);
}

static inline void st2(uint8_t *p, __m256i x)
{
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(x));
    _mm_storeu_si128((__m128i *)(void *)(p + 128), _mm256_extracti128_si256(x, 1));
}

/* The 16 counter blocks of a group (aes_impl.h: the whole block a 128-bit
 * big-endian integer for ctr, SP 800-38D inc32 for ctr32).  Each 128-bit
 * lane holds the counter byte-reversed, as two native 64-bit words (low,
 * high); adding j to the low word (ctr) or to its low 32 bits (ctr32,
 * which wraps mod 2^32 by itself) and reversing the bytes of each lane
 * gives block j.  The carry into the high word is an unsigned compare
 * (signed compare of both sides with the top bit flipped) moved up one
 * word: no branch, although the counter is public. */
static inline void bs16_counters(__m256i x[8], uint64_t *hi, uint64_t *lo, int inc32)
{
    const __m256i rev = _mm256_broadcastsi128_si256(_mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    const __m256i top = _mm256_set1_epi64x((long long)0x8000000000000000ull);
    const __m256i base = _mm256_set_epi64x((long long)*hi, (long long)*lo, (long long)*hi, (long long)*lo);
    for (int b = 0; b < 8; b++) {
        /* blocks b and b + 8; as 32-bit words, j is word 0 of the lane */
        const __m256i j = _mm256_set_epi64x(0, b + 8, 0, b);
        __m256i c;
        if (inc32) {
            c = _mm256_add_epi32(base, j);
        } else {
            c = _mm256_add_epi64(base, j);
            __m256i wrap = _mm256_cmpgt_epi64(_mm256_xor_si256(base, top), _mm256_xor_si256(c, top));
            c = _mm256_sub_epi64(c, _mm256_bslli_epi128(wrap, 8));   /* high word + 1 */
        }
        x[b] = _mm256_shuffle_epi8(c, rev);
    }
    if (inc32) {
        *lo = (*lo & UINT64_C(0xFFFFFFFF00000000)) | (uint32_t)(*lo + 16);
    } else {
        *lo += 16;
        *hi += (uint64_t)(*lo < 16);
    }
}

#include "aes/aes_x86_bs.inc"

/* Whole groups here, the rest (under 16 blocks) through the ssse3 entry's
 * functions: eight blocks bitsliced on XMM, then vector permute. */
static void avx2_ecb_enc(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    size_t done = bs16_ecb_groups(k, out, in, nblocks);
    if (nblocks > done)
        ic_aes_x86_vp_ecb_enc(k, out + 16 * done, in + 16 * done, nblocks - done);
}

static void avx2_cfb_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    __m128i prev = _mm_loadu_si128((const __m128i *)(const void *)iv);
    size_t done = bs16_cfb_dec_groups(k, &prev, out, in, nblocks);
    _mm_storeu_si128((__m128i *)(void *)iv, prev);
    if (nblocks > done)
        ic_aes_x86_vp_cfb_dec(k, iv, out + 16 * done, in + 16 * done, nblocks - done);
}

static void avx2_ctr_any(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                         int inc32)
{
    uint64_t hi = ic_load64_be(ctr), lo = ic_load64_be(ctr + 8);
    size_t done = bs16_ctr_groups(k, &hi, &lo, out, in, nblocks, inc32);
    ic_store64_be(ctr, hi);
    ic_store64_be(ctr + 8, lo);
    if (nblocks > done)
        (inc32 ? ic_aes_x86_vp_ctr32 : ic_aes_x86_vp_ctr)(k, ctr, out + 16 * done, in + 16 * done, nblocks - done);
}

static void avx2_ctr(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    avx2_ctr_any(k, ctr, out, in, nblocks, 0);
}

static void avx2_ctr32(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    avx2_ctr_any(k, ctr, out, in, nblocks, 1);
}

static const ic_aes_ops avx2_ops = {
    .setkey = ic_aes_x86_vp_setkey,
    .ecb_enc = avx2_ecb_enc,
    .ecb_dec = ic_aes_x86_vp_ecb_dec,
    .cbc_enc = ic_aes_x86_vp_cbc_enc,
    .cbc_dec = ic_aes_x86_vp_cbc_dec,
    .ctr = avx2_ctr,
    .ctr32 = avx2_ctr32,
    .cfb_enc = ic_aes_x86_vp_cfb_enc,
    .cfb_dec = avx2_cfb_dec,
    .ofb = ic_aes_x86_vp_ofb,
    .xts = NULL,   /* xts.c runs XTS over ecb_enc / ecb_dec in batches of 16 blocks */
    .stitch = 0,   /* GCM: CTR here, then GHASH by the ghash backend (gcm.c) */
};

IC_BACKEND(aes, avx2, IC_F(IC_CPU_AVX2) | IC_F(IC_CPU_SSSE3), &avx2_ops);

IC_TARGET_END
#endif
