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

/* One round on all registers of a batch. */
#define ROUND_ALL(b, op, key) do { \
    __m256i k_ = (key); \
    for (int j_ = 0; j_ < NV; j_++) \
        (b)[j_] = op((b)[j_], k_); \
} while (0)

/* The whole cipher on a batch, the rounds written out rather than looped
 * (a loop makes GCC rotate the eight states through register copies); the
 * only branches are on the public round count.                          */
#define CIPHER_BATCH(b, rk, nr, op, oplast) do { \
    ROUND_ALL(b, _mm256_xor_si256, rkey(rk, 0)); \
    ROUND_ALL(b, op, rkey(rk, 1)); ROUND_ALL(b, op, rkey(rk, 2)); \
    ROUND_ALL(b, op, rkey(rk, 3)); ROUND_ALL(b, op, rkey(rk, 4)); \
    ROUND_ALL(b, op, rkey(rk, 5)); ROUND_ALL(b, op, rkey(rk, 6)); \
    ROUND_ALL(b, op, rkey(rk, 7)); ROUND_ALL(b, op, rkey(rk, 8)); \
    ROUND_ALL(b, op, rkey(rk, 9)); \
    if ((nr) > 10) { ROUND_ALL(b, op, rkey(rk, 10)); ROUND_ALL(b, op, rkey(rk, 11)); } \
    if ((nr) > 12) { ROUND_ALL(b, op, rkey(rk, 12)); ROUND_ALL(b, op, rkey(rk, 13)); } \
    ROUND_ALL(b, oplast, rkey(rk, nr)); \
} while (0)

V_INLINE void enc_batch(const __m128i *rk, unsigned nr, __m256i b[NV])
{
    CIPHER_BATCH(b, rk, nr, _mm256_aesenc_epi128, _mm256_aesenclast_epi128);
}

V_INLINE void dec_batch(const __m128i *rk, unsigned nr, __m256i b[NV])
{
    CIPHER_BATCH(b, rk, nr, _mm256_aesdec_epi128, _mm256_aesdeclast_epi128);
}

/* Register j holds blocks 2j and 2j+1. */
#define LOAD2(p, j)     _mm256_loadu_si256((const __m256i *)((p) + 32 * (j)))
#define LOAD1(p, j)     _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)((p) + 32 * (j))))
#define STORE2(p, j, v) _mm256_storeu_si256((__m256i *)((p) + 32 * (j)), (v))
#define STORE1(p, j, v) _mm_storeu_si128((__m128i *)((p) + 32 * (j)), _mm256_castsi256_si128(v))

/* Load blocks 0..n-1 (0 <= n <= 16) into b; registers past them keep
 * their value.  Switches, not loops, so every b[j] index is a constant and
 * b stays in registers once inlined; with n a constant (a whole batch) the
 * switches disappear.  First the n/2 whole pairs, then an odd last block
 * into the low lane of register n/2.                                     */
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

/* The previous block of every block of a batch of n (1 <= n <= 16):
 * register j = (C_{2j-1}, C_{2j}) with C_{-1} = first.  Register 0 is
 * assembled from first and block 0; registers 1.. are 256-bit loads 16
 * bytes back, each within the batch (block 2j exists whenever register j
 * holds a block, i.e. 2j < n).                                           */
#define LOADP(p, j) _mm256_loadu_si256((const __m256i *)((p) + 32 * (j) - 16))
V_INLINE void load_prev_n(__m256i b[NV], __m128i first, const uint8_t *p, size_t n)
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

/* Store blocks 0..n-1 of b (0 < n <= 16). */
V_INLINE void store_n(uint8_t *out, const __m256i b[NV], size_t n)
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

V_INLINE void xor_batch(__m256i b[NV], const __m256i x[NV])
{
    for (int j = 0; j < NV; j++)
        b[j] = _mm256_xor_si256(b[j], x[j]);
}

/* Each mode is one batch function of n blocks (1 <= n <= 16), called with
 * n = NBLK (a constant: straight-line code) for every whole batch and once
 * with the remaining 1..15 blocks, padded with zero blocks whose results
 * are dropped.                                                           */
#define FOR_BATCHES(nblocks, in, out, BATCH) do { \
    for (; (nblocks) >= NBLK; (nblocks) -= NBLK, (in) += 16 * NBLK, (out) += 16 * NBLK) \
        BATCH(NBLK); \
    if ((nblocks) > 0) \
        BATCH(nblocks); \
} while (0)

/* ---- ECB ------------------------------------------------------------------ */

V_INLINE void ecb_batch(const __m128i *rk, unsigned nr, uint8_t *out, const uint8_t *in, size_t n,
                        int decrypt)
{
    __m256i b[NV] = {0};
    load_n(b, in, n);
    if (decrypt)
        dec_batch(rk, nr, b);
    else
        enc_batch(rk, nr, b);
    store_n(out, b, n);
}

static void vaes_ecb_enc(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const __m128i *rk = (const __m128i *)aes_x86_enc_rk(k);
    unsigned nr = k->rounds;
#define ECB_ENC(n) ecb_batch(rk, nr, out, in, n, 0)
    FOR_BATCHES(nblocks, in, out, ECB_ENC);
#undef ECB_ENC
}

static void vaes_ecb_dec(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const __m128i *rk = (const __m128i *)aes_x86_dec_rk(k);
    unsigned nr = k->rounds;
#define ECB_DEC(n) ecb_batch(rk, nr, out, in, n, 1)
    FOR_BATCHES(nblocks, in, out, ECB_DEC);
#undef ECB_DEC
}

/* ---- CBC and CFB decryption -------------------------------------------------
 * CBC: P_i = D(C_i) ^ C_{i-1};  CFB: P_i = E(C_{i-1}) ^ C_i  (SP 800-38A
 * 6.2, 6.3), C_{-1} = IV.  Register j holds (C_{2j}, C_{2j+1}); the
 * previous-block pairs (C_{2j-1}, C_{2j}) are loads 16 bytes back (see
 * load_prev_n), made where they are needed instead of being kept in
 * registers through the rounds.  Every load of a batch comes before its
 * first store, so out == in is safe.  Returns the batch's last ciphertext
 * block, the next IV.                                                    */
V_INLINE __m128i chain_batch(const __m128i *rk, unsigned nr, __m128i last, uint8_t *out,
                             const uint8_t *in, size_t n, int cfb)
{
    __m256i b[NV] = {0}, x[NV] = {0};
    if (cfb) {
        load_prev_n(b, last, in, n);     /* cipher inputs C_{i-1} */
        enc_batch(rk, nr, b);
        load_n(x, in, n);                /* C_i */
    } else {
        load_n(b, in, n);                /* cipher inputs C_i */
        dec_batch(rk, nr, b);
        load_prev_n(x, last, in, n);     /* C_{i-1} */
    }
    xor_batch(b, x);
    last = _mm_loadu_si128((const __m128i *)(in + 16 * (n - 1)));
    store_n(out, b, n);
    return last;
}

static void vaes_cbc_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const __m128i *rk = (const __m128i *)aes_x86_dec_rk(k);
    unsigned nr = k->rounds;
    __m128i last = _mm_loadu_si128((const __m128i *)iv);
#define CBC_DEC(n) last = chain_batch(rk, nr, last, out, in, n, 0)
    FOR_BATCHES(nblocks, in, out, CBC_DEC);
#undef CBC_DEC
    _mm_storeu_si128((__m128i *)iv, last);
}

static void vaes_cfb_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const __m128i *rk = (const __m128i *)aes_x86_enc_rk(k);
    unsigned nr = k->rounds;
    __m128i last = _mm_loadu_si128((const __m128i *)iv);
#define CFB_DEC(n) last = chain_batch(rk, nr, last, out, in, n, 1)
    FOR_BATCHES(nblocks, in, out, CFB_DEC);
#undef CFB_DEC
    _mm_storeu_si128((__m128i *)iv, last);
}

/* ---- CTR ------------------------------------------------------------------
 * As in aes_x86_ni.c: the counter c is kept byte-reversed (lane 0 = low
 * 64 bits as a native integer), and register j of a batch gets blocks
 * counter + 2j and + 2j + 1, made the cheapest way the (public) counter
 * value allows: when the last byte has room for +0..+15, the big-endian
 * block in both lanes plus 2j / 2j+1 in the last byte (VPADDB); ctr32
 * (inc32, SP 800-38D 6.2) by VPADDD on the low 32-bit lane, which wraps
 * mod 2^32, then VPSHUFB; a 128-bit counter whose low half does not wrap
 * in the batch by VPADDQ then VPSHUFB; otherwise add with carry in
 * general registers, block by block.                                     */

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

V_INLINE void ctr_batch(const __m128i *rk, unsigned nr, __m128i c, uint64_t hi, uint64_t lo,
                        uint8_t *out, const uint8_t *in, size_t n, int inc32)
{
    __m256i b[NV], x[NV] = {0};
    if ((_mm_cvtsi128_si32(c) & 0xff) <= 256 - NBLK) {
        __m256i be = _mm256_broadcastsi128_si256(bswap128(c));
        for (int j = 0; j < NV; j++)
            b[j] = _mm256_add_epi8(be, _mm256_set_epi8((char)(2 * j + 1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                       (char)(2 * j), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    } else if (inc32) {
        __m256i cc = _mm256_broadcastsi128_si256(c);
        for (int j = 0; j < NV; j++)
            b[j] = bswap256(_mm256_add_epi32(cc, _mm256_set_epi32(0, 0, 0, 2 * j + 1, 0, 0, 0, 2 * j)));
    } else if (lo <= UINT64_MAX - (NBLK - 1)) {
        __m256i cc = _mm256_broadcastsi128_si256(c);
        for (int j = 0; j < NV; j++)
            b[j] = bswap256(_mm256_add_epi64(cc, _mm256_set_epi64x(0, 2 * j + 1, 0, 2 * j)));
    } else {
        for (int j = 0; j < NV; j++)
            b[j] = _mm256_set_m128i(ctr_block(hi, lo, 2 * (uint64_t)j + 1), ctr_block(hi, lo, 2 * (uint64_t)j));
    }
    enc_batch(rk, nr, b);
    load_n(x, in, n);
    xor_batch(b, x);
    store_n(out, b, n);
}

V_INLINE void ctr_any(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                      size_t nblocks, int inc32)
{
    const __m128i *rk = (const __m128i *)aes_x86_enc_rk(k);
    unsigned nr = k->rounds;
    __m128i c = bswap128(_mm_loadu_si128((const __m128i *)ctr));    /* native lanes */
    uint64_t hi = ic_load64_be(ctr), lo = ic_load64_be(ctr + 8);
    /* one batch, then the counter advanced by its n blocks */
#define CTR_STEP(n) do { \
        ctr_batch(rk, nr, c, hi, lo, out, in, n, inc32); \
        if (inc32) { \
            c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, (int)(n))); \
        } else { \
            uint64_t l_ = lo + (n); \
            hi += l_ < lo; \
            lo = l_; \
            c = _mm_set_epi64x((long long)hi, (long long)lo); \
        } \
    } while (0)
    FOR_BATCHES(nblocks, in, out, CTR_STEP);
#undef CTR_STEP
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
