/*
 * gcm_x86_vaes.c - the stitched AES-GCM loop for VAES and VPCLMULQDQ on
 * 256-bit registers (Zen 3, Alder Lake and later, no AVX-512 needed), 16
 * blocks a batch: the stitched loop IC_STITCH_X86_YMM, which the "vaes"
 * and "vaes512" AES and the "vpclmul" and "vpclmul512" GHASH declare.
 * Compiled for AES-NI, PCLMULQDQ, SSSE3, AVX2, VAES and VPCLMULQDQ.
 *
 * Sixteen blocks in flight: eight YMM registers of two counter blocks each
 * go through the rounds together, so VAESENC's latency (4 cycles on Zen 3,
 * two issued per cycle) is covered, and the GHASH of sixteen ciphertext
 * blocks (eight VPCLMULQDQ Karatsuba triples against the powers H^16 ..
 * H^1, ghash_x86.h) is interleaved with the rounds, with one reduction per
 * batch.  The loop is gcm_x86_stitch.h, shared with the AES-NI version;
 * this file supplies the 256-bit registers.
 *
 * The 32-bit inc32 counters of SP 800-38D are kept as native dwords,
 * where VPADDD wraps them modulo 2^32 by itself, and one PSHUFB per
 * register puts them into their blocks (gx_counters).  Round keys are the
 * x86 layout of aes_x86.h, broadcast to both lanes.  gcm.c runs the loop
 * only for a key whose two backends both declare it (ghash_impl.h); an
 * AES-NI key gets the 8-block loop of gcm_x86_ni.c (the GHASH key holds
 * the powers both need), any other key the caller's plain path.  Whole
 * batches only.
 * Constant time: VAES, VPCLMULQDQ, no branch or index on data, key or
 * counter.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("aes,pclmul,ssse3,avx2,vaes,vpclmulqdq")
#include "gcm/ghash_x86.h"
#include "aes/aes_x86.h"
#include "core/ct.h"

#define GX_V __m256i
#define GX_NBLK 16
#define GX_ACC gh256_acc

GX_INLINE __m256i gx_key(const __m128i *rk, int r) { return _mm256_broadcastsi128_si256(_mm_load_si128(rk + r)); }
GX_INLINE __m256i gx_enc(__m256i s, __m256i k) { return _mm256_aesenc_epi128(s, k); }
GX_INLINE __m256i gx_enclast(__m256i s, __m256i k) { return _mm256_aesenclast_epi128(s, k); }
GX_INLINE __m256i gx_xor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
GX_INLINE __m256i gx_loadu(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
GX_INLINE void gx_storeu(uint8_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }

/* Counter blocks without a branch on the counter and at the cost of the
 * carry-free shortcut they replace (one PSHUFB and then a byte add and a
 * whitening XOR per register, valid only while the last byte does not
 * wrap in the batch - a test on the counter, which for a GCM IV of any
 * length but 12 bytes is GHASH_H(IV), a function of the key, and secret).
 *
 * Block j of a batch is J || BE32(n + j) (SP 800-38D inc32: the 32-bit
 * tail wraps mod 2^32, the 96 bits J stay), whitened with rk0.  The 32-bit
 * tails of the 16 blocks live as native dwords in two registers, v for
 * blocks 0..7 and v + 8 for blocks 8..15, ordered so that register i of
 * the batch (blocks 2i, 2i+1 in its two lanes) takes dword i of the
 * lane: lane 0 holds n, n+2, n+4, n+6 and lane 1 n+1, n+3, n+5, n+7.
 * One PSHUFB per register then moves dword i to bytes 12..15 of both
 * lanes, byte-reversed (big-endian, as the block wants), and zeroes bytes
 * 0..11; one XOR with p = (J || 0) ^ rk0 adds the fixed 96 bits and
 * whitens the whole block.  Per batch: two VPADDD (v + 8, v + 16), eight
 * VPSHUFB, eight VPXOR - one instruction more than the shortcut, seven
 * fewer than adding and swapping each register.  What is left of the cost
 * is that seven of those are shuffles, which share a pipe with VAESENC
 * (Zen 4: 16 KiB AES-128-GCM about 3 % slower than with the shortcut, 1 KiB
 * and shorter within 1-2 %; no branch-free form without a shuffle per
 * register is known here: the carry of a big-endian add runs the wrong
 * way through every native lane).                                      */
/*
 * With a 12-byte IV the counter is public (J0 = IV || 1) and the hook gets
 * IC_GCM_HOOK_CTR_PUBLIC: that loop is a separate instance (pub is a
 * compile-time constant, gcm_x86_stitch.h) running the carry-free shortcut,
 * which tests the public counter.  Its counter is kept byte-reversed in
 * both lanes (lane 1 one ahead), so the inc32 tail is the low dword of each lane; when the
 * last counter byte does not wrap in the batch (15 batches in 16) the
 * blocks differ from the first pair only in byte 15, and one shuffle, an
 * add on that byte (the top byte of dword 3 of a lane) and the whitening
 * XOR make them; otherwise each pair is added in that form and swapped.
 * The instance for every other IV length never looks at the counter.
 * Either way the state is two registers: a = v or the reflected counter,
 * b = p or round key 0.                                                   */
GX_INLINE __m256i gx_ctr_init(const uint8_t ctr[16], int pub)
{
    if (pub)   /* lane 0: the counter, lane 1: the counter + 1, reflected */
        return _mm256_add_epi32(_mm256_broadcastsi128_si256(gh_load(ctr)), _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
    uint32_t n = ic_load32_be(ctr + 12);
    return _mm256_set_epi32((int)(n + 7), (int)(n + 5), (int)(n + 3), (int)(n + 1),
                            (int)(n + 6), (int)(n + 4), (int)(n + 2), (int)n);
}

/* Round key 0 (pub), or p = (J || 0) ^ round key 0. */
GX_INLINE __m256i gx_ctr_w0(const uint8_t ctr[16], const __m128i *rk, int pub)
{
    if (pub)
        return _mm256_broadcastsi128_si256(_mm_load_si128(rk));
    __m128i j = _mm_insert_epi32(_mm_loadu_si128((const __m128i *)(const void *)ctr), 0, 3);
    return _mm256_broadcastsi128_si256(_mm_xor_si128(j, _mm_load_si128(rk)));
}

GX_INLINE __m256i gx_ctr_next(__m256i c, int pub)
{
    return pub ? _mm256_add_epi32(c, _mm256_set_epi32(0, 0, 0, GX_NBLK, 0, 0, 0, GX_NBLK))
               : _mm256_add_epi32(c, _mm256_set1_epi32(GX_NBLK));
}

/* The next batch's first counter: dword 0 of c, in either form. */
GX_INLINE void gx_ctr_done(uint8_t ctr[16], __m256i c, int pub)
{
    if (pub)
        gh_store(ctr, _mm256_castsi256_si128(c));
    else
        ic_store32_be(ctr + 12, (uint32_t)_mm256_extract_epi32(c, 0));
}

/* PSHUFB controls, row d: dword d of each lane to bytes 12..15, reversed,
 * and zeros.  Read from memory in each batch (the pointer is hidden from
 * the optimiser): kept in registers across the loop, they pushed the
 * GHASH sums onto the stack. */
#define GX_PICK_ROW(d) -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, \
                       4 * (d) + 3, 4 * (d) + 2, 4 * (d) + 1, 4 * (d)
static const int8_t gx_pick[4][32] __attribute__((aligned(32))) = {
    { GX_PICK_ROW(0), GX_PICK_ROW(0) }, { GX_PICK_ROW(1), GX_PICK_ROW(1) },
    { GX_PICK_ROW(2), GX_PICK_ROW(2) }, { GX_PICK_ROW(3), GX_PICK_ROW(3) },
};

/* The public counter's batch (the branch is on the IV's counter only). */
GX_INLINE void gx_counters_pub(__m256i s[8], __m256i c, __m256i rk0)
{
    const __m256i bs = _mm256_broadcastsi128_si256(gh_bswap_mask());
    if ((_mm_cvtsi128_si32(_mm256_castsi256_si128(c)) & 0xff) <= 0x100 - GX_NBLK) {
        __m256i base = _mm256_shuffle_epi8(c, bs);
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++) {
            __m256i d = _mm256_set_epi32(2 * i << 24, 0, 0, 0, 2 * i << 24, 0, 0, 0);
            s[i] = _mm256_xor_si256(_mm256_add_epi32(base, d), rk0);
        }
        return;
    }
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        __m256i ci = _mm256_add_epi32(c, _mm256_set_epi32(0, 0, 0, 2 * i, 0, 0, 0, 2 * i));
        s[i] = _mm256_xor_si256(_mm256_shuffle_epi8(ci, bs), rk0);
    }
}

GX_INLINE void gx_counters(__m256i s[8], __m256i c, __m256i w0, int pub)
{
    if (pub) {
        gx_counters_pub(s, c, w0);
        return;
    }
    const int8_t (*pick)[32] = gx_pick;
    __asm__("" : "+r"(pick));
    __m256i w = _mm256_add_epi32(c, _mm256_set1_epi32(8));
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        __m256i ctl = _mm256_load_si256((const __m256i *)(const void *)pick[i]);
        s[i] = _mm256_xor_si256(_mm256_shuffle_epi8(c, ctl), w0);
        s[i + 4] = _mm256_xor_si256(_mm256_shuffle_epi8(w, ctl), w0);
    }
}

GX_INLINE void gx_acc_zero(gh256_acc *a) { gh256_acc_zero(a); }
#if defined(IC_MSAN)       /* an asm would drop the taint (core/ct.h) */
GX_INLINE void gx_pin(gh256_acc *a) { (void)a; }
#else
GX_INLINE void gx_pin(gh256_acc *a) { __asm__("" : "+x"(a->lo), "+x"(a->hi), "+x"(a->mid)); }
#endif
GX_INLINE __m128i gx_hash(const ghash_x86_key *gk, __m128i y, const uint8_t *p) { return gh256_batch(gk, y, p, GX_NBLK); }

/* The reduction on both lanes at once, then one fold of the lanes (the
 * reduction is linear): 12 instructions where folding the three sums and
 * reducing one block took 19.  With LO, MI, HI the 256-bit product
 * HI X^128 + MI X^64 + LO (MI = mid ^ lo ^ hi, Karatsuba) and step(v) =
 * v / X^64 mod Q as in gh_mont_reduce, the product / X^128 is
 * HI + step(MI + step(LO)): the middle term needs no shifts into halves. */
GX_INLINE __m128i gx_finish(gh256_acc *a)
{
    const __m256i poly = _mm256_broadcastsi128_si256(_mm_set_epi64x((long long)0xC200000000000000ULL, 0));
    __m256i mi = _mm256_xor_si256(a->mid, _mm256_xor_si256(a->lo, a->hi));
    __m256i t = _mm256_clmulepi64_epi128(a->lo, poly, 0x10);
    mi = _mm256_xor_si256(mi, _mm256_xor_si256(_mm256_shuffle_epi32(a->lo, 0x4E), t));
    t = _mm256_clmulepi64_epi128(mi, poly, 0x10);
    return gh256_fold(_mm256_xor_si256(a->hi, _mm256_xor_si256(_mm256_shuffle_epi32(mi, 0x4E), t)));
}

/* Blocks 2j and 2j+1 of the batch at p times H^(16-2j) and H^(15-2j). */
GX_INLINE void gx_mul(gh256_acc *a, const ghash_x86_key *gk, const uint8_t *p, int j, __m128i y)
{
    __m256i x = gh256_load(p + 32 * j);
    if (j == 0)
        x = _mm256_xor_si256(x, _mm256_zextsi128_si256(y));
    gh256_mul_acc(a, x, gk->pow + 2 * j, gk->kar + 2 * j);
}

#include "gcm/gcm_x86_stitch.h"

/* k and hk are of backends that declare IC_STITCH_X86_YMM (gcm.c checks):
 * VAES keys in the x86 layout and H^16 .. H^1.  An AES-NI key with this
 * GHASH (e.g. under INCORE_CPU=-vaes) gets the 8-block loop of
 * gcm_x86_ni.c instead: "ni" declares only that one. */
size_t ic_gcm_x86_vaes_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                             uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    return gx_crypt(k, ghash_x86_key_of(hk), flags, ctr, y, out, in, nblocks);
}

IC_TARGET_END
#endif /* x86 */
