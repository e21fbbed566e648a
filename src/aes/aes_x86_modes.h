/*
 * aes_x86_modes.h - the batched AES modes (ECB, CBC and CFB decryption,
 * CTR, ctr32) written once for the three x86 backends: included by
 * aes_x86_ni.c (8 XMM registers = 8 blocks per batch), aes_x86_vaes.c
 * (8 YMM registers = 16 blocks) and aes_x86_vaes512.c (8 ZMM registers =
 * 32 blocks), which differ only in the register type, how blocks move
 * between memory and registers, and how a batch's counter blocks are made.
 * Not a normal header: include it once, from those files only, after
 * defining
 *
 *   AESX_V                 the register type (__m128i, __m256i, __m512i)
 *   AESX_NBLK              blocks per batch (8 registers of AESX_V)
 *   AESX_FN(name)          the name of the op functions (ni_##name)
 *   AESX_KEY(rk, r)        round key r in every lane of a register
 *   AESX_XOR, AESX_ENC, AESX_ENCLAST, AESX_DEC, AESX_DECLAST
 *                          the register XOR and AES round intrinsics
 *
 * and then defining, after the include, the primitives declared below
 * (load_n, load_prev_n, store_n, ctr_blocks).  Optionally, before the
 * include,
 *
 *   AESX_REST_OPS          the ic_aes_ops of a narrower backend on the same
 *                          key layout, and
 *   AESX_REST_TO(rest)     for which rests after the whole batches (0 <
 *                          rest < AESX_NBLK, public) ECB and CBC/CFB
 *                          decryption hand the rest to it instead of
 *                          running their own short batch (where that was
 *                          measured slower: vaes512, on Zen 5).
 *
 * How a batch runs: each mode is one batch function of n blocks
 * (1 <= n <= AESX_NBLK) on the first nv registers (nv = 1, 2, 3, 4 or 8),
 * called with n = AESX_NBLK, nv = 8 (constants, so every switch on n folds
 * away and the batch is straight-line code) for each whole batch.  The
 * remaining 1 .. AESX_NBLK-1 blocks (the tail, or the whole of a short
 * message) run as one batch on the fewest of those register counts that
 * holds them, padded with zero blocks whose results are dropped: its
 * latency is that of a single block, and it does at most twice the work of
 * its blocks rather than a whole batch's (64 bytes on VAES are two YMM
 * registers, not eight).  The loads and stores of the primitives never
 * touch memory outside the n blocks of in and out.
 */
#ifndef INCORE_AES_X86_MODES_H
#define INCORE_AES_X86_MODES_H

#define AESX_INLINE static inline __attribute__((always_inline))
#define AESX_NV 8   /* registers per batch */
#define AESX_LANES (AESX_NBLK / AESX_NV)   /* blocks per register */

/* ---- what the including file provides -------------------------------------- */

/* b[j] = register j of p for the registers holding blocks 0..n-1 (0 <= n <=
 * AESX_NBLK); the registers past them keep their value.                 */
AESX_INLINE void load_n(AESX_V b[AESX_NV], const uint8_t *p, size_t n);
/* The previous block of each of the n blocks (1 <= n <= AESX_NBLK):
 * block i of the result is block i-1 of p, and block 0 is `first`.      */
AESX_INLINE void load_prev_n(AESX_V b[AESX_NV], __m128i first, const uint8_t *p, size_t n);
/* Store blocks 0..n-1 of b (1 <= n <= AESX_NBLK). */
AESX_INLINE void store_n(uint8_t *out, const AESX_V b[AESX_NV], size_t n);
/* The batch's counter blocks, big-endian, from the counter c kept in
 * native lanes (see below) and its 64-bit halves hi:lo.                 */
AESX_INLINE void ctr_blocks(AESX_V b[AESX_NV], __m128i c, uint64_t hi, uint64_t lo, int inc32);

/* ---- rounds ------------------------------------------------------------------ */

/* A batch of n blocks on nv registers: n fits.  Said to the compiler, so
 * the loads and stores of a short batch (nv < 8) are not compiled for the
 * registers it does not use, and its registers stay out of memory. */
#define AESX_FITS(n, nv) do { if ((n) > (size_t)AESX_LANES * (size_t)(nv)) __builtin_unreachable(); } while (0)

/* One round on the first nv registers of a batch. */
#define ROUND_ALL(b, op, key) do { \
    AESX_V k_ = (key); \
    for (int j_ = 0; j_ < (nv); j_++) \
        (b)[j_] = op((b)[j_], k_); \
} while (0)

/* The whole cipher on a batch, the rounds written out rather than looped
 * (a loop makes GCC rotate the eight states through register copies); the
 * only branches are on the public round count.  MIDDLE_ROUNDS is rounds
 * 1..nr-1, also used by aes_x86_xts.h, which does the first and last
 * steps itself (with the tweak folded into their round keys).          */
#define MIDDLE_ROUNDS(b, rk, nr, op) do { \
    ROUND_ALL(b, op, AESX_KEY(rk, 1)); ROUND_ALL(b, op, AESX_KEY(rk, 2)); \
    ROUND_ALL(b, op, AESX_KEY(rk, 3)); ROUND_ALL(b, op, AESX_KEY(rk, 4)); \
    ROUND_ALL(b, op, AESX_KEY(rk, 5)); ROUND_ALL(b, op, AESX_KEY(rk, 6)); \
    ROUND_ALL(b, op, AESX_KEY(rk, 7)); ROUND_ALL(b, op, AESX_KEY(rk, 8)); \
    ROUND_ALL(b, op, AESX_KEY(rk, 9)); \
    if ((nr) > 10) { ROUND_ALL(b, op, AESX_KEY(rk, 10)); ROUND_ALL(b, op, AESX_KEY(rk, 11)); } \
    if ((nr) > 12) { ROUND_ALL(b, op, AESX_KEY(rk, 12)); ROUND_ALL(b, op, AESX_KEY(rk, 13)); } \
} while (0)
#define CIPHER_BATCH(b, rk, nr, op, oplast) do { \
    ROUND_ALL(b, AESX_XOR, AESX_KEY(rk, 0)); \
    MIDDLE_ROUNDS(b, rk, nr, op); \
    ROUND_ALL(b, oplast, AESX_KEY(rk, nr)); \
} while (0)

AESX_INLINE void enc_batch(const __m128i *rk, unsigned nr, AESX_V b[AESX_NV], int nv)
{
    CIPHER_BATCH(b, rk, nr, AESX_ENC, AESX_ENCLAST);
}

AESX_INLINE void dec_batch(const __m128i *rk, unsigned nr, AESX_V b[AESX_NV], int nv)
{
    CIPHER_BATCH(b, rk, nr, AESX_DEC, AESX_DECLAST);
}

/* Zero the first nv registers of a batch: the registers a padded short
 * batch computes on but does not load.  Not an "= {0}" initialiser of the
 * whole array: with a variable n GCC keeps such an array in memory and
 * cleared all 8 registers with REP STOSQ in every short batch (a quarter
 * of a 64-byte CTR call on Zen 4).  The zero goes through an empty asm so
 * that where the array does stay in memory (the 8-register batch of a
 * variable n) the stores are not merged into that memset either. */
#define ZERO_NV(b, nv) do { \
    AESX_V z_ = (AESX_V){0}; \
    __asm__("" : "+v"(z_)); \
    for (int j_ = 0; j_ < (nv); j_++) \
        (b)[j_] = z_; \
} while (0)

AESX_INLINE void xor_batch(AESX_V b[AESX_NV], const AESX_V x[AESX_NV], int nv)
{
    for (int j = 0; j < nv; j++)
        b[j] = AESX_XOR(b[j], x[j]);
}

/* Whole batches, then the rest as one padded batch on 1, 2, 3, 4 or 8
 * registers, the fewest that hold it (the short path; the branches are on
 * the public length only). */
#define FOR_BATCHES(nblocks, in, out, BATCH) do { \
    for (; (nblocks) >= AESX_NBLK; (nblocks) -= AESX_NBLK, (in) += 16 * AESX_NBLK, (out) += 16 * AESX_NBLK) \
        BATCH(AESX_NBLK, AESX_NV); \
    BATCH_FEWEST(nblocks, BATCH); \
} while (0)
/* One padded batch of 0 <= n < AESX_NBLK blocks (none for 0) on the
 * fewest of 1, 2, 3, 4 or 8 registers that hold it (3: five or six
 * blocks on VAES, such as the data and E(K, J0) of a 64-byte GCM message,
 * run on 3 YMM registers instead of 4). */
#define BATCH_FEWEST(n, BATCH) do { \
    if ((n) > 4 * AESX_LANES) \
        BATCH(n, AESX_NV); \
    else if ((n) == 4 * AESX_LANES) \
        BATCH(4 * AESX_LANES, 4); \
    else if ((n) > 3 * AESX_LANES) \
        BATCH(n, 4); \
    else if ((n) > 2 * AESX_LANES) \
        BATCH(n, 3); \
    else if ((n) > AESX_LANES) \
        BATCH(n, 2); \
    else if ((n) > 0) \
        BATCH(n, 1); \
} while (0)

/* How many of nblocks this backend runs itself: all, or only the whole
 * batches when AESX_REST_TO hands the rest on (rest_call runs it there). */
AESX_INLINE size_t rest_split(size_t nblocks)
{
#ifdef AESX_REST_OPS
    size_t whole = nblocks / AESX_NBLK * AESX_NBLK;
    if (AESX_REST_TO(nblocks - whole))
        return whole;
#endif
    return nblocks;
}
#ifdef AESX_REST_OPS
#define rest_call(op, ...) AESX_REST_OPS.op(__VA_ARGS__)
#else
#define rest_call(op, ...) ((void)0)
#endif

/* ---- ECB ------------------------------------------------------------------- */

AESX_INLINE void ecb_batch(const __m128i *rk, unsigned nr, uint8_t *out, const uint8_t *in, size_t n,
                           int nv, int decrypt)
{
    AESX_V b[AESX_NV];
    AESX_FITS(n, nv);
    /* all AESX_NV, not nv: with nv = 3, GCC 12 warned that store_n might
     * read an unset register (as in xts_batch); the extra zeros are dead */
    ZERO_NV(b, AESX_NV);
    load_n(b, in, n);
    if (decrypt)
        dec_batch(rk, nr, b, nv);
    else
        enc_batch(rk, nr, b, nv);
    store_n(out, b, n);
}

AESX_INLINE void ecb(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks, int decrypt)
{
    const __m128i *rk = (const __m128i *)(decrypt ? aes_x86_dec_rk(k) : aes_x86_enc_rk(k));
    unsigned nr = k->rounds;
#define ECB_BATCH(n, nv) ecb_batch(rk, nr, out, in, n, nv, decrypt)
    FOR_BATCHES(nblocks, in, out, ECB_BATCH);
#undef ECB_BATCH
}

static void AESX_FN(ecb_enc)(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    size_t mine = rest_split(nblocks);
    ecb(k, out, in, mine, 0);
    if (mine < nblocks)
        rest_call(ecb_enc, k, out + 16 * mine, in + 16 * mine, nblocks - mine);
}

static void AESX_FN(ecb_dec)(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    size_t mine = rest_split(nblocks);
    ecb(k, out, in, mine, 1);
    if (mine < nblocks)
        rest_call(ecb_dec, k, out + 16 * mine, in + 16 * mine, nblocks - mine);
}

/* ---- CBC and CFB decryption ---------------------------------------------------
 * CBC: P_i = D(C_i) ^ C_{i-1};  CFB: P_i = E(C_{i-1}) ^ C_i  (SP 800-38A
 * 6.2, 6.3), with C_{-1} = IV.  Every cipher input is known up front, so a
 * batch runs in parallel.  The blocks C_{i-1} are loaded again where they
 * are needed rather than kept in registers through the rounds (8 states,
 * 8 saved registers and a key do not fit in 16 vector registers); every
 * load of a batch comes before its first store, so out == in is safe.
 * Returns the batch's last ciphertext block, the next IV.                */
AESX_INLINE __m128i chain_batch(const __m128i *rk, unsigned nr, __m128i last, uint8_t *out,
                                const uint8_t *in, size_t n, int nv, int cfb)
{
    AESX_V b[AESX_NV], x[AESX_NV];
    AESX_FITS(n, nv);
    ZERO_NV(b, nv);
    ZERO_NV(x, nv);
    if (cfb) {
        load_prev_n(b, last, in, n);     /* cipher inputs C_{i-1} */
        enc_batch(rk, nr, b, nv);
        load_n(x, in, n);                /* C_i */
    } else {
        load_n(b, in, n);                /* cipher inputs C_i */
        dec_batch(rk, nr, b, nv);
        load_prev_n(x, last, in, n);     /* C_{i-1} */
    }
    xor_batch(b, x, nv);
    last = _mm_loadu_si128((const __m128i *)(in + 16 * (n - 1)));
    store_n(out, b, n);
    return last;
}

AESX_INLINE void chain_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                           size_t nblocks, int cfb)
{
    const __m128i *rk = (const __m128i *)(cfb ? aes_x86_enc_rk(k) : aes_x86_dec_rk(k));
    unsigned nr = k->rounds;
    __m128i last = _mm_loadu_si128((const __m128i *)iv);
#define CHAIN_BATCH(n, nv) last = chain_batch(rk, nr, last, out, in, n, nv, cfb)
    FOR_BATCHES(nblocks, in, out, CHAIN_BATCH);
#undef CHAIN_BATCH
    _mm_storeu_si128((__m128i *)iv, last);
}

/* A rest handed on continues from iv, which chain_dec leaves as the last
 * ciphertext block it read. */
static void AESX_FN(cbc_dec)(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                             size_t nblocks)
{
    size_t mine = rest_split(nblocks);
    chain_dec(k, iv, out, in, mine, 0);
    if (mine < nblocks)
        rest_call(cbc_dec, k, iv, out + 16 * mine, in + 16 * mine, nblocks - mine);
}

static void AESX_FN(cfb_dec)(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                             size_t nblocks)
{
    size_t mine = rest_split(nblocks);
    chain_dec(k, iv, out, in, mine, 1);
    if (mine < nblocks)
        rest_call(cfb_dec, k, iv, out + 16 * mine, in + 16 * mine, nblocks - mine);
}

/* ---- CTR ---------------------------------------------------------------------
 * The counter block is big-endian; x86 adds little-endian lanes.  The
 * counter is kept byte-reversed in a register c (lane 0 = low 64 bits,
 * lane 1 = high 64 bits, as native integers) and, for the carry, as hi:lo
 * in general registers.  ctr_blocks makes a batch's counter blocks:
 *  - ctr32 (GCM's inc32, SP 800-38D 6.2): always PADDD on the low 32-bit
 *    lane, which wraps mod 2^32 and leaves the other 96 bits alone, then
 *    PSHUFB.  No branch on the value: for a GCM IV that is not 12 bytes
 *    the first counter is GHASH_H(IV) with H = E(K, 0), so the counter is
 *    a function of the key, and secret.  The carry-free shortcut below would
 *    save one PSHUFB per register; for ctr32 it is not taken.
 *  - ctr (SP 800-38A, the whole block one 128-bit number), the cheapest way
 *    the counter's value allows:
 *    - the last byte has room for +0..+AESX_NBLK-1: the big-endian block
 *      once, plus j in its last byte (one PADDB per register, no carry);
 *    - the low 64 bits do not wrap in the batch: PADDQ on the low lane,
 *      then PSHUFB;
 *    - otherwise: add with carry in general registers, block by block.
 *    These branches are on the caller's CTR counter, which is the public
 *    IV of the mode (it travels with the ciphertext); no path of the
 *    library passes a key-derived value to ctr.                          */

AESX_INLINE __m128i bswap128(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* Big-endian counter block (hi, lo) + j, carrying into hi. */
AESX_INLINE __m128i ctr_block(uint64_t hi, uint64_t lo, uint64_t j)
{
    uint64_t l = lo + j;
    uint64_t h = hi + (l < lo);
    return bswap128(_mm_set_epi64x((long long)h, (long long)l));
}

/* Which way ctr_blocks may make a batch of ctr (not ctr32: see above). */
AESX_INLINE int ctr_lastbyte_ok(__m128i c)
{
    return (_mm_cvtsi128_si32(c) & 0xff) <= 256 - AESX_NBLK;
}
AESX_INLINE int ctr_lo_ok(uint64_t lo)
{
    return lo <= UINT64_MAX - (AESX_NBLK - 1);
}

AESX_INLINE void ctr_batch(const __m128i *rk, unsigned nr, __m128i c, uint64_t hi, uint64_t lo,
                           uint8_t *out, const uint8_t *in, size_t n, int nv, int inc32)
{
    AESX_V b[AESX_NV], x[AESX_NV];
    AESX_FITS(n, nv);
    ZERO_NV(x, nv);
    ctr_blocks(b, c, hi, lo, inc32);   /* the registers past nv are dead code */
    if (nv < AESX_NV) {   /* a short batch: the input after the rounds */
        enc_batch(rk, nr, b, nv);
        load_n(x, in, n);
        xor_batch(b, x, nv);
        store_n(out, b, n);
        return;
    }
    /* a whole batch: the input goes into the last round key (AESENCLAST
     * ends with AddRoundKey), as in the stitched GCM loop, so the XOR
     * leaves the chain of dependent rounds (Zen 3, 16 KiB: 0.89x -> 0.93x
     * libgcrypt; in a 4-block call it measured slower, 0.54 -> 0.58 c/B) */
    load_n(x, in, n);
    ROUND_ALL(b, AESX_XOR, AESX_KEY(rk, 0));
    MIDDLE_ROUNDS(b, rk, nr, AESX_ENC);
    AESX_V kl = AESX_KEY(rk, nr);
    for (int j = 0; j < nv; j++)
        b[j] = AESX_ENCLAST(b[j], AESX_XOR(kl, x[j]));
    store_n(out, b, n);
}

AESX_INLINE void ctr_any(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                         size_t nblocks, int inc32)
{
    const __m128i *rk = (const __m128i *)aes_x86_enc_rk(k);
    unsigned nr = k->rounds;
    __m128i c = bswap128(_mm_loadu_si128((const __m128i *)ctr));   /* native lanes */
    uint64_t hi = ic_load64_be(ctr), lo = ic_load64_be(ctr + 8);
    /* one batch, then the counter advanced by its n blocks */
#define CTR_STEP(n, nv) do { \
        ctr_batch(rk, nr, c, hi, lo, out, in, n, nv, inc32); \
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

static void AESX_FN(ctr)(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ctr_any(k, ctr, out, in, nblocks, 0);
}

static void AESX_FN(ctr32)(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ctr_any(k, ctr, out, in, nblocks, 1);
}

#endif
