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
 * on lengths and on the public counter value.
 */
#if defined(__x86_64__)

#include <immintrin.h>
#include "aes/aes_x86.h"

#define V_INLINE static inline __attribute__((always_inline))

#define NV 8              /* YMM registers per batch */
#define NBLK (2 * NV)     /* blocks per batch */

/* Round key r in both lanes. */
V_INLINE __m256i rkey(const __m128i *rk, unsigned r)
{
    return _mm256_broadcastsi128_si256(_mm_load_si128(rk + r));
}

V_INLINE void enc_batch(const __m128i *rk, unsigned nr, __m256i b[NV])
{
    __m256i key = rkey(rk, 0);
    for (int j = 0; j < NV; j++)
        b[j] = _mm256_xor_si256(b[j], key);
    for (unsigned r = 1; r < nr; r++) {
        key = rkey(rk, r);
        for (int j = 0; j < NV; j++)
            b[j] = _mm256_aesenc_epi128(b[j], key);
    }
    key = rkey(rk, nr);
    for (int j = 0; j < NV; j++)
        b[j] = _mm256_aesenclast_epi128(b[j], key);
}

V_INLINE void dec_batch(const __m128i *rk, unsigned nr, __m256i b[NV])
{
    __m256i key = rkey(rk, 0);
    for (int j = 0; j < NV; j++)
        b[j] = _mm256_xor_si256(b[j], key);
    for (unsigned r = 1; r < nr; r++) {
        key = rkey(rk, r);
        for (int j = 0; j < NV; j++)
            b[j] = _mm256_aesdec_epi128(b[j], key);
    }
    key = rkey(rk, nr);
    for (int j = 0; j < NV; j++)
        b[j] = _mm256_aesdeclast_epi128(b[j], key);
}

/* Register j holds blocks 2j and 2j+1. */
#define LOAD2(p, j)     _mm256_loadu_si256((const __m256i *)((p) + 32 * (j)))
#define LOAD1(p, j)     _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)((p) + 32 * (j))))
#define STORE2(p, j, v) _mm256_storeu_si256((__m256i *)((p) + 32 * (j)), (v))
#define STORE1(p, j, v) _mm_storeu_si128((__m128i *)((p) + 32 * (j)), _mm256_castsi256_si128(v))

/* Load blocks 0..n-1 (0 < n <= 16) into b; registers past them keep their
 * value.  Switches, not loops, so every b[j] index is a constant and b
 * stays in registers once inlined.  First the n/2 whole pairs, then an odd
 * last block into the low lane of register n/2.                          */
V_INLINE void load_n(__m256i b[NV], const uint8_t *p, size_t n)
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

/* out block i = b's block i ^ in block i for i < n (in NULL: no XOR). */
V_INLINE void store_n(uint8_t *out, const uint8_t *in, const __m256i b[NV], size_t n)
{
#define ST2(j) STORE2(out, j, in ? _mm256_xor_si256(b[j], LOAD2(in, j)) : b[j])
#define ST1(j) STORE1(out, j, in ? _mm256_xor_si256(b[j], LOAD1(in, j)) : b[j])
    switch (n / 2) {
    default: ST2(7); /* fall through */
    case 7: ST2(6);  /* fall through */
    case 6: ST2(5);  /* fall through */
    case 5: ST2(4);  /* fall through */
    case 4: ST2(3);  /* fall through */
    case 3: ST2(2);  /* fall through */
    case 2: ST2(1);  /* fall through */
    case 1: ST2(0);  /* fall through */
    case 0: break;
    }
    if (n & 1) {
        switch (n / 2) {
        case 0: ST1(0); break;
        case 1: ST1(1); break;
        case 2: ST1(2); break;
        case 3: ST1(3); break;
        case 4: ST1(4); break;
        case 5: ST1(5); break;
        case 6: ST1(6); break;
        default: ST1(7); break;
        }
    }
#undef ST2
#undef ST1
}

/* ---- ECB ------------------------------------------------------------------ */

V_INLINE void ecb(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks, int decrypt)
{
    const __m128i *rk = (const __m128i *)(decrypt ? aes_x86_dec_rk(k) : aes_x86_enc_rk(k));
    unsigned nr = k->rounds;
    while (nblocks > 0) {
        size_t n = nblocks < NBLK ? nblocks : NBLK;
        __m256i b[NV] = {0};
        load_n(b, in, n);
        if (decrypt)
            dec_batch(rk, nr, b);
        else
            enc_batch(rk, nr, b);
        store_n(out, NULL, b, n);
        in += 16 * n, out += 16 * n, nblocks -= n;
    }
}

static void vaes_ecb_enc(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ecb(k, out, in, nblocks, 0);
}

static void vaes_ecb_dec(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ecb(k, out, in, nblocks, 1);
}

/* ---- CBC and CFB decryption -------------------------------------------------
 * CBC: P_i = D(C_i) ^ C_{i-1};  CFB: P_i = E(C_{i-1}) ^ C_i  (SP 800-38A
 * 6.2, 6.3), C_{-1} = IV.  Register j holds (C_{2j}, C_{2j+1}); the
 * previous-block pairs (C_{2j-1}, C_{2j}) are VPERM2I128 of registers j-1
 * and j (high lane of the first, low lane of the second), with "register
 * -1" carrying the IV or the last ciphertext of the previous batch in its
 * high lane.  The whole batch is in registers before anything is stored,
 * so out == in is safe.                                                   */
V_INLINE void chain_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                        size_t nblocks, int cfb)
{
    const __m128i *rk = (const __m128i *)(cfb ? aes_x86_enc_rk(k) : aes_x86_dec_rk(k));
    unsigned nr = k->rounds;
    __m128i last = _mm_loadu_si128((const __m128i *)iv);
    while (nblocks > 0) {
        size_t n = nblocks < NBLK ? nblocks : NBLK;
        __m256i c[NV] = {0}, p[NV], b[NV];
        load_n(c, in, n);
        p[0] = _mm256_permute2x128_si256(_mm256_broadcastsi128_si256(last), c[0], 0x21);
        for (int j = 1; j < NV; j++)
            p[j] = _mm256_permute2x128_si256(c[j - 1], c[j], 0x21);
        last = _mm_loadu_si128((const __m128i *)(in + 16 * (n - 1)));
        if (cfb) {
            for (int j = 0; j < NV; j++)
                b[j] = p[j];
            enc_batch(rk, nr, b);
            for (int j = 0; j < NV; j++)
                b[j] = _mm256_xor_si256(b[j], c[j]);
        } else {
            for (int j = 0; j < NV; j++)
                b[j] = c[j];
            dec_batch(rk, nr, b);
            for (int j = 0; j < NV; j++)
                b[j] = _mm256_xor_si256(b[j], p[j]);
        }
        store_n(out, NULL, b, n);
        in += 16 * n, out += 16 * n, nblocks -= n;
    }
    _mm_storeu_si128((__m128i *)iv, last);
}

static void vaes_cbc_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    chain_dec(k, iv, out, in, nblocks, 0);
}

static void vaes_cfb_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    chain_dec(k, iv, out, in, nblocks, 1);
}

/* ---- CTR ------------------------------------------------------------------
 * As in aes_x86_ni.c: the counter is kept byte-reversed (lane 0 = low 64
 * bits as a native integer) in both halves of a YMM register, register j
 * gets +2j in its low lane and +2j+1 in its high lane (VPADDQ, or VPADDD
 * for ctr32, which wraps mod 2^32 as SP 800-38D inc32 does), and VPSHUFB
 * restores the big-endian blocks.  When the low 64 bits would wrap inside
 * the batch the 128-bit counter takes the carry-aware path in general
 * registers instead (the counter is public, so this branch leaks nothing). */

V_INLINE __m128i bswap128(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

V_INLINE __m256i bswap256(__m256i x)
{
    return _mm256_shuffle_epi8(x, _mm256_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                                  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* Big-endian counter block (hi, lo) + j, carrying into hi. */
V_INLINE __m128i ctr_block(uint64_t hi, uint64_t lo, uint64_t j)
{
    uint64_t l = lo + j;
    uint64_t h = hi + (l < lo);
    return bswap128(_mm_set_epi64x((long long)h, (long long)l));
}

V_INLINE void ctr_any(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                      size_t nblocks, int inc32)
{
    const __m128i *rk = (const __m128i *)aes_x86_enc_rk(k);
    unsigned nr = k->rounds;
    __m128i c = bswap128(_mm_loadu_si128((const __m128i *)ctr));    /* native lanes */
    uint64_t hi = ic_load64_be(ctr), lo = ic_load64_be(ctr + 8);
    while (nblocks > 0) {
        size_t n = nblocks < NBLK ? nblocks : NBLK;
        __m256i b[NV], cc = _mm256_broadcastsi128_si256(c);
        if (inc32) {
            for (int j = 0; j < NV; j++)
                b[j] = bswap256(_mm256_add_epi32(cc, _mm256_set_epi32(0, 0, 0, 2 * j + 1, 0, 0, 0, 2 * j)));
        } else if (lo <= UINT64_MAX - (NBLK - 1)) {
            for (int j = 0; j < NV; j++)
                b[j] = bswap256(_mm256_add_epi64(cc, _mm256_set_epi64x(0, 2 * j + 1, 0, 2 * j)));
        } else {
            for (int j = 0; j < NV; j++)
                b[j] = _mm256_set_m128i(ctr_block(hi, lo, 2 * (uint64_t)j + 1), ctr_block(hi, lo, 2 * (uint64_t)j));
        }
        enc_batch(rk, nr, b);
        store_n(out, in, b, n);
        if (inc32) {
            c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, (int)n));
        } else {
            uint64_t l = lo + n;
            hi += l < lo;
            lo = l;
            c = _mm_set_epi64x((long long)hi, (long long)lo);
        }
        in += 16 * n, out += 16 * n, nblocks -= n;
    }
    _mm_storeu_si128((__m128i *)ctr, bswap128(c));
}

static void vaes_ctr(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ctr_any(k, ctr, out, in, nblocks, 0);
}

static void vaes_ctr32(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ctr_any(k, ctr, out, in, nblocks, 1);
}

const ic_aes_ops ic_aes_vaes_ops = {
    aes_x86_ni_setkey, vaes_ecb_enc, vaes_ecb_dec, aes_x86_ni_cbc_enc, vaes_cbc_dec,
    vaes_ctr, vaes_ctr32, aes_x86_ni_cfb_enc, vaes_cfb_dec, aes_x86_ni_ofb,
};

#endif /* __x86_64__ */
