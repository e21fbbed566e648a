/*
 * gcm_x86_vaes512.c - the stitched AES-GCM loop for VAES and VPCLMULQDQ on
 * 512-bit registers (AVX-512 CPUs: Ice Lake and later Intel, Zen 4 and
 * Zen 5), 32 blocks a batch: the gcm_crypt hook of the "vpclmul512"
 * GHASH.  Built with -maes -mpclmul -mssse3 -mavx2 -mvaes -mvpclmulqdq
 * -mavx512f -mavx512vl -mavx512bw.
 *
 * Thirty-two blocks in flight: eight ZMM registers of four counter blocks
 * each go through the rounds together, and the GHASH of the 32 blocks of
 * ciphertext (eight VPCLMULQDQ Karatsuba triples, four products each) is
 * interleaved with the rounds.  The loop is gcm_x86_stitch.h, shared with
 * the AES-NI and 256-bit versions; this file supplies the registers.
 *
 * GHASH with 32 blocks a batch but 16 powers of H: the GHASH key is the
 * "vpclmul" one (H^16 .. H^1 and their Karatsuba halves fill the 512 bytes
 * of ic_ghash_key, so there is no room for H^32 .. H^17, and keeping the
 * layout lets the 256-bit and AES-NI loops run on the same key).  So:
 *  - from GX512_ONE_MIN blocks a call, H^32 .. H^17 are made on the stack
 *    for the call (gh512_hi_powers: 20 VPCLMULQDQ, made while the first
 *    batch encrypts; wiped at the end), blocks 0..15 of a batch are summed
 *    against them and blocks 16..31 against the key's, and a batch is one
 *    sum with one reduction;
 *  - shorter calls sum the two halves separately, A = blocks 0..15 (with
 *    y in block 0) and B = blocks 16..31, each against H^16 .. H^1, and
 *    y' = reduce(A) H^16 + B: three PCLMULQDQ and a reduction more per 32
 *    blocks, and a longer chain from one batch's y to the next (on Zen 5,
 *    where VPCLMULQDQ issues once per ~2.4 cycles with 5 of latency, that
 *    chain was the bound: 16 KiB 0.138 -> 0.108 TSC c/B with one sum).
 * y is needed only when register 0 is multiplied, before round 8.
 *
 * Counter blocks as in gcm_x86_vaes.c: with a secret counter (any IV but
 * 12 bytes) the inc32 tails are native dwords, lane l of v holding
 * n + l, n + 4 + l, n + 8 + l, n + 12 + l (so register i of the batch,
 * blocks 4i .. 4i+3, takes dword i of each lane), and one PSHUFB and one
 * XOR with (J || 0) ^ rk0 per register make the whitened blocks, no branch
 * on the counter; with a public counter (IC_GCM_HOOK_CTR_PUBLIC) the
 * carry-free shortcut (a dword add on byte 15) while the last byte does
 * not wrap in the batch.  The loop runs only for keys of the "vaes512" AES
 * backend; a "vaes" or "ni" key goes to the 256-bit or AES-NI loop (the
 * GHASH key holds what they need), any other key to the caller's plain
 * path.  Whole batches only.  Constant time: VAES, VPCLMULQDQ, no branch
 * or index on data, key or (secret) counter.
 */
#include "gcm/ghash_x86.h"
#include "aes/aes_x86.h"
#include "core/ct.h"

#if defined(__x86_64__)

#define GX_V __m512i
#define GX_NBLK 32
#define GX_NV 8
/* From this many blocks a call makes H^32 .. H^17 (20 VPCLMULQDQ, about
 * as many as one batch's GHASH) and reduces once a batch instead of
 * twice, with a shorter chain from one batch's y to the next. */
#define GX512_ONE_MIN 64

/* The two half-batch sums (see the top of the file). */
typedef struct {
    gh512_acc a, b;
    __m128i h16, k16;   /* psi(H^16) and its Karatsuba half */
    int one;            /* A against H^32 .. H^17: y' = reduce(A + B) */
} gx512_acc;
#define GX_ACC gx512_acc

/* Where a batch's powers come from: blocks 16..31 always take the key's
 * H^16 .. H^1; blocks 0..15 take hp / hk, which are the same (two sums,
 * two reductions a batch) or, for a message of GX512_ONE_MIN blocks or
 * more, H^32 .. H^17 computed on the stack for the call (one sum, one
 * reduction: see ic_gcm_x86_vaes512_crypt). */
typedef struct {
    const ghash_x86_key *k;
    const __m128i *hp, *hk;
    int one;
} gx512_key;
#define GX_GKEY gx512_key

GX_INLINE __m512i gx_key(const __m128i *rk, int r) { return _mm512_broadcast_i32x4(_mm_load_si128(rk + r)); }
GX_INLINE __m512i gx_enc(__m512i s, __m512i k) { return _mm512_aesenc_epi128(s, k); }
GX_INLINE __m512i gx_enclast(__m512i s, __m512i k) { return _mm512_aesenclast_epi128(s, k); }
GX_INLINE __m512i gx_xor(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
GX_INLINE __m512i gx_loadu(const uint8_t *p) { return _mm512_loadu_si512((const void *)p); }
GX_INLINE void gx_storeu(uint8_t *p, __m512i v) { _mm512_storeu_si512((void *)p, v); }

/* Public: lane l = the counter + l, reflected (its inc32 tail in dword 0 of
 * the lane).  Secret: dword i of lane l = n + 4i + l, native. */
GX_INLINE __m512i gx_ctr_init(const uint8_t ctr[16], int pub)
{
    if (pub)
        return _mm512_add_epi32(_mm512_broadcast_i32x4(gh_load(ctr)),
                                _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));
    return _mm512_add_epi32(_mm512_set1_epi32((int)ic_load32_be(ctr + 12)),
                            _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0));
}

/* Round key 0 (pub), or p = (J || 0) ^ round key 0. */
GX_INLINE __m512i gx_ctr_w0(const uint8_t ctr[16], const __m128i *rk, int pub)
{
    if (pub)
        return _mm512_broadcast_i32x4(_mm_load_si128(rk));
    __m128i j = _mm_insert_epi32(_mm_loadu_si128((const __m128i *)(const void *)ctr), 0, 3);
    return _mm512_broadcast_i32x4(_mm_xor_si128(j, _mm_load_si128(rk)));
}

GX_INLINE __m512i gx_ctr_next(__m512i c, int pub)
{
    return pub ? _mm512_add_epi32(c, _mm512_set_epi32(0, 0, 0, GX_NBLK, 0, 0, 0, GX_NBLK,
                                                      0, 0, 0, GX_NBLK, 0, 0, 0, GX_NBLK))
               : _mm512_add_epi32(c, _mm512_set1_epi32(GX_NBLK));
}

/* The next batch's first counter: dword 0 of c, in either form. */
GX_INLINE void gx_ctr_done(uint8_t ctr[16], __m512i c, int pub)
{
    if (pub)
        gh_store(ctr, _mm512_castsi512_si128(c));
    else
        ic_store32_be(ctr + 12, (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(c)));
}

/* PSHUFB controls, row d: dword d of the lane to bytes 12..15, reversed,
 * and zeros; broadcast to the four lanes at use (as in gcm_x86_vaes.c they
 * are loaded in each batch, the pointer hidden from the optimiser). */
static const int8_t gx512_pick[4][16] __attribute__((aligned(16))) = {
    { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 3, 2, 1, 0 },
    { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 7, 6, 5, 4 },
    { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 11, 10, 9, 8 },
    { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 15, 14, 13, 12 },
};

/* The public counter's batch (the branch is on the IV's counter only). */
GX_INLINE void gx_counters_pub(__m512i s[GX_NV], __m512i c, __m512i rk0)
{
    const __m512i bs = _mm512_broadcast_i32x4(gh_bswap_mask());
    if ((_mm_cvtsi128_si32(_mm512_castsi512_si128(c)) & 0xff) <= 0x100 - GX_NBLK) {
        __m512i base = _mm512_shuffle_epi8(c, bs);
#pragma GCC unroll 8
        for (int i = 0; i < GX_NV; i++) {
            __m512i d = _mm512_set_epi32(4 * i << 24, 0, 0, 0, 4 * i << 24, 0, 0, 0,
                                         4 * i << 24, 0, 0, 0, 4 * i << 24, 0, 0, 0);
            s[i] = _mm512_xor_si512(_mm512_add_epi32(base, d), rk0);
        }
        return;
    }
#pragma GCC unroll 8
    for (int i = 0; i < GX_NV; i++) {
        __m512i ci = _mm512_add_epi32(c, _mm512_set_epi32(0, 0, 0, 4 * i, 0, 0, 0, 4 * i,
                                                          0, 0, 0, 4 * i, 0, 0, 0, 4 * i));
        s[i] = _mm512_xor_si512(_mm512_shuffle_epi8(ci, bs), rk0);
    }
}

GX_INLINE void gx_counters(__m512i s[GX_NV], __m512i c, __m512i w0, int pub)
{
    if (pub) {
        gx_counters_pub(s, c, w0);
        return;
    }
    const int8_t (*pick)[16] = gx512_pick;
    __asm__("" : "+r"(pick));
    __m512i w = _mm512_add_epi32(c, _mm512_set1_epi32(16));   /* blocks 16..31 */
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        __m512i ctl = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)(const void *)pick[i]));
        s[i] = _mm512_xor_si512(_mm512_shuffle_epi8(c, ctl), w0);
        s[i + 4] = _mm512_xor_si512(_mm512_shuffle_epi8(w, ctl), w0);
    }
}

GX_INLINE void gx_acc_zero(gx512_acc *a)
{
    gh512_acc_zero(&a->a);
    gh512_acc_zero(&a->b);
}
#if defined(IC_MSAN)       /* an asm would drop the taint (core/ct.h) */
GX_INLINE void gx_pin(gx512_acc *a) { (void)a; }
#else
GX_INLINE void gx_pin(gx512_acc *a)
{
    __asm__("" : "+v"(a->a.lo), "+v"(a->a.hi), "+v"(a->a.mid), "+v"(a->b.lo), "+v"(a->b.hi), "+v"(a->b.mid));
}
#endif

/* y' = reduce(A) H^16 + B, reduced; or reduce(A + B) when A was summed
 * against H^32 .. H^17 (the branch is on the message length). */
GX_INLINE __m128i gx_finish(gx512_acc *a)
{
    gh_acc f, g;
    gh_acc_zero(&f);
    gh512_fold_into(&f, &a->a);
    if (a->one) {
        gh512_fold_into(&f, &a->b);
        return gh_finish(&f);
    }
    gh_acc_zero(&g);
    gh512_fold_into(&g, &a->b);
    gh_mul_acc(&g, gh_finish(&f), a->h16, a->k16);
    return gh_finish(&g);
}

/* Blocks 4j .. 4j+3 of the batch at p times H^(16-4m) .. H^(13-4m), m = j
 * mod 4 (or H^(32-4m) .. from hp), into A (j < 4, y added to block 0) or
 * B; register 0 (multiplied last in every batch) also fetches H^16 for
 * gx_finish. */
GX_INLINE void gx_mul(gx512_acc *a, const gx512_key *gk, const uint8_t *p, int j, __m128i y)
{
    __m512i x = gh512_load(p + 64 * j);
    const int m = j % 4;
    if (j == 0) {
        x = _mm512_xor_si512(x, _mm512_zextsi128_si512(y));
        a->h16 = gk->k->pow[0];
        a->k16 = gk->k->kar[0];
        a->one = gk->one;
    }
    if (j < 4)
        gh512_mul_acc(&a->a, x, gk->hp + 4 * m, gk->hk + 4 * m);
    else
        gh512_mul_acc(&a->b, x, gk->k->pow + 4 * m, gk->k->kar + 4 * m);
}

/* The encrypt loop's last batch, hashed after the loop: as one 32-block
 * sum with H^32 .. H^1, or two 16-block batches, one reduction each. */
GX_INLINE __m128i gx_hash(const gx512_key *gk, __m128i y, const uint8_t *p)
{
    if (gk->one)
        return gh512_batch32(gk->k, gk->hp, gk->hk, y, p);
    y = gh512_batch(gk->k, y, p, 16);
    return gh512_batch(gk->k, y, p + 256, 16);
}

#include "gcm/gcm_x86_stitch.h"

/* VAES-512 keys: the 32-block loop here, then a remaining 16 blocks (or a
 * message of 16 .. 31) through the 16-block YMM loop on the same keys, so
 * a 256-byte message is stitched too; "vaes" and "ni" keys (ghash
 * "vpclmul512" with another x86 AES backend, e.g. INCORE_IMPL=aes=vaes):
 * the 16-block YMM or 8-block AES-NI loop, whose powers this key holds. */
size_t ic_gcm_x86_vaes512_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                                uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    const ghash_x86_key *key = ghash_x86_key_of(hk);
    gx512_key gk = { key, key->pow, key->kar, 0 };
    __m128i hi[2][16];
    size_t done;
    if (ic_aes_ops_of(k) != &ic_aes_vaes512_ops)   /* k checked by gcm.c */
        return ic_gcm_x86_vaes_crypt(k, hk, flags, ctr, y, out, in, nblocks);
    if (nblocks >= GX512_ONE_MIN) {
        gh512_hi_powers(hi[0], hi[1], key);
        gk.hp = hi[0];
        gk.hk = hi[1];
        gk.one = 1;
    }
    done = gx_crypt(k, &gk, flags, ctr, y, out, in, nblocks);
    if (gk.one)
        ic_wipe(hi, sizeof hi);
    if (nblocks - done >= 16)
        done += ic_gcm_x86_vaes_crypt(k, hk, flags, ctr, y, out + 16 * done, in + 16 * done, 16);
    return done;
}

#endif /* __x86_64__ */
