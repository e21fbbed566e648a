/*
 * gcm_x86_vaes512.c - the stitched AES-GCM loop for VAES and VPCLMULQDQ on
 * 512-bit registers (AVX-512 CPUs: Ice Lake and later Intel, Zen 4 and
 * Zen 5), 32 blocks a batch: the stitched loop IC_STITCH_X86_ZMM, which
 * the "vaes512" AES and the "vpclmul512" GHASH declare.  Compiled for
 * those of gcm_x86_vaes.c and AVX-512F/VL/BW.
 *
 * Thirty-two blocks in flight: eight ZMM registers of four counter blocks
 * each go through the rounds together, and the GHASH of the 32 blocks of
 * ciphertext (eight VPCLMULQDQ Karatsuba triples, four products each) is
 * interleaved with the rounds.  The loop is gcm_x86_stitch.h, shared with
 * the AES-NI and 256-bit versions; this file supplies the registers.
 *
 * GHASH: a batch is one sum of 32 products against H^32 .. H^1 with one
 * reduction.  The key is the "vpclmul512" one (ghash_x86_key32: H^16 ..
 * H^1 in the layout the 256-bit and AES-NI loops read, then H^32 ..
 * H^17), all made once per key.  (Until the key had room for them, calls
 * of 64 blocks and more made H^32 .. H^17 on the stack and shorter ones
 * reduced each half-batch separately; a longer chain from one batch's y
 * to the next, which on Zen 5 (VPCLMULQDQ once per ~2 cycles, 5 of
 * latency) was the bound.)  y is needed only when register 0 is
 * multiplied, before round 8.
 *
 * Counter blocks as in gcm_x86_vaes.c: with a secret counter (any IV but
 * 12 bytes) the inc32 tails are native dwords, lane l of v holding
 * n + l, n + 4 + l, n + 8 + l, n + 12 + l (so register i of the batch,
 * blocks 4i .. 4i+3, takes dword i of each lane), and one PSHUFB and one
 * XOR with (J || 0) ^ rk0 per register make the whitened blocks, no branch
 * on the counter; with a public counter (IC_GCM_HOOK_CTR_PUBLIC) the
 * carry-free shortcut (a dword add on byte 15) while the last byte does
 * not wrap in the batch.  gcm.c runs the loop only for a key whose two
 * backends both declare it (ghash_impl.h); a "vaes" or "ni" key with this
 * GHASH gets the 256-bit or AES-NI loop (the GHASH key holds what they
 * need), any other key the caller's plain path.  Whole batches only.  Constant time: VAES, VPCLMULQDQ, no branch
 * or index on data, key or (secret) counter.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("aes,pclmul,ssse3,avx2,vaes,vpclmulqdq,avx512f,avx512vl,avx512bw")
#include "gcm/ghash_x86.h"
#include "aes/aes_x86.h"
#include "core/ct.h"

#define GX_V __m512i
#define GX_NBLK 32
#define GX_NV 8
#define GX_ACC gx512_acc
#define GX_GKEY ghash_x86_key32

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

/* The GHASH sums of a batch: lo, hi, mid as gh512_acc, and what the
 * register multiplied last left waiting: its two outer products (plo, phi)
 * and its reflected blocks (px).  The stitched loop multiplies registers
 * 1 .. 7 and then 0, so 1, 3, 5, 7 wait and 2, 4, 6, 0 complete the pair:
 *  - the outer products of both join the sums in one VPTERNLOGD each (2,
 *    the first, in a plain XOR), 12 instructions a batch instead of 24;
 *  - the two Karatsuba half sums come from one VPUNPCKLQDQ, one
 *    VPUNPCKHQDQ and one XOR (lane by lane: a0 ^ a1 in the low half, b0 ^
 *    b1 in the high one), against a VPSHUFD and a XOR per register, and two
 *    VPCLMULQDQ pick their halves (imm 0x00 and 0x11; the Karatsuba key
 *    holds its value in both halves), so 28 instructions a batch on the
 *    Karatsuba middles where there were 32.
 * On Intel every 512-bit vector instruction issues on one of the two ports
 * that also run VAESENC and VPCLMULQDQ, so each one counts; no multiply is
 * added (Zen 4 runs VPCLMULQDQ on its two AES pipes). */
typedef struct {
    __m512i lo, hi, mid, plo, phi, px;
} gx512_acc;

/* a ^ b ^ c: written as two XORs, which GCC and clang emit as one
 * VPTERNLOGD (the intrinsic itself is opaque to MemorySanitizer, which
 * would then report every secret operand of ct_msan as a use). */
GX_INLINE __m512i gx_xor3(__m512i a, __m512i b, __m512i c)
{
    return _mm512_xor_si512(a, _mm512_xor_si512(b, c));
}


GX_INLINE void gx_acc_zero(gx512_acc *a)
{
    a->lo = a->hi = a->mid = a->plo = a->phi = a->px = _mm512_setzero_si512();
}
#if defined(IC_MSAN)       /* an asm would drop the taint (core/ct.h) */
GX_INLINE void gx_pin(gx512_acc *a) { (void)a; }
#else
GX_INLINE void gx_pin(gx512_acc *a)
{
    __asm__("" : "+v"(a->lo), "+v"(a->hi), "+v"(a->mid), "+v"(a->plo), "+v"(a->phi), "+v"(a->px));
}
#endif

/* The reduction on the four lanes at once, then one fold of the lanes (the
 * reduction is linear): 11 instructions for the batch where folding the
 * three sums first and reducing one block took 22.  With LO, MI, HI the
 * 256-bit product HI X^128 + MI X^64 + LO (MI = mid ^ lo ^ hi, Karatsuba),
 * and step(v) = v / X^64 mod Q as in gh_mont_reduce (a swap of the halves
 * and one carry-less multiply), the product / X^128 is
 * HI + step(MI + step(LO)): the middle term needs no shifts into the halves. */
GX_INLINE __m128i gx_finish(gx512_acc *a)
{
    const __m512i poly = _mm512_broadcast_i32x4(_mm_set_epi64x((long long)0xC200000000000000ULL, 0));
    __m512i mi = gx_xor3(a->mid, a->lo, a->hi);
    __m512i t = _mm512_clmulepi64_epi128(a->lo, poly, 0x10);
    mi = gx_xor3(mi, _mm512_shuffle_epi32(a->lo, (_MM_PERM_ENUM)0x4E), t);
    t = _mm512_clmulepi64_epi128(mi, poly, 0x10);
    return gh512_fold(gx_xor3(a->hi, _mm512_shuffle_epi32(mi, (_MM_PERM_ENUM)0x4E), t));
}

/* The byte reflection of four blocks, read as a memory operand. */
static const uint8_t gx512_bswap[64] __attribute__((aligned(64))) = {
    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
};

/* Blocks 4j .. 4j+3 of the batch at p times H^(32-4j) .. H^(29-4j), y
 * added to block 0 (register 0 is multiplied last in every batch). */
GX_INLINE void gx_mul(gx512_acc *a, const ghash_x86_key32 *k, const uint8_t *p, int j, __m128i y)
{
    __m512i x = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(p + 64 * j)),
                                    _mm512_load_si512((const void *)gx512_bswap));
    if (j == 0)
        x = _mm512_xor_si512(x, _mm512_zextsi128_si512(y));
    __m512i pw = _mm512_loadu_si512((const void *)gh512_pow32(k, j));
    __m512i lo = _mm512_clmulepi64_epi128(x, pw, 0x00);
    __m512i hi = _mm512_clmulepi64_epi128(x, pw, 0x11);
    if (j & 1) {
        a->plo = lo;
        a->phi = hi;
        a->px = x;
        return;
    }
    /* the waiting register: j - 1, or 7 before register 0 */
    __m512i kw = _mm512_loadu_si512((const void *)gh512_kar32(k, j == 0 ? GX_NV - 1 : j - 1));
    __m512i kr = _mm512_loadu_si512((const void *)gh512_kar32(k, j));
    __m512i hs = _mm512_xor_si512(_mm512_unpacklo_epi64(a->px, x), _mm512_unpackhi_epi64(a->px, x));
    __m512i mw = _mm512_clmulepi64_epi128(hs, kw, 0x00), mid = _mm512_clmulepi64_epi128(hs, kr, 0x11);
    if (j == 2) {
        a->lo = _mm512_xor_si512(a->plo, lo);
        a->hi = _mm512_xor_si512(a->phi, hi);
        a->mid = _mm512_xor_si512(mw, mid);
    } else {
        a->lo = gx_xor3(a->lo, a->plo, lo);
        a->hi = gx_xor3(a->hi, a->phi, hi);
        a->mid = gx_xor3(a->mid, mw, mid);
    }
}

/* The encrypt loop's last batch, hashed after the loop: the loop's own
 * sums and reduction, registers in the loop's order (y's register last). */
GX_INLINE __m128i gx_hash(const ghash_x86_key32 *k, __m128i y, const uint8_t *p)
{
    gx512_acc a;
    gx_acc_zero(&a);
#pragma GCC unroll 8
    for (int r = 1; r <= GX_NV; r++)
        gx_mul(&a, k, p, r % GX_NV, y);
    return gx_finish(&a);
}

#include "gcm/gcm_x86_stitch.h"

/* k and hk are of backends that declare IC_STITCH_X86_ZMM (gcm.c checks),
 * and so the YMM loop too: the 32-block loop here, then a remaining 16
 * blocks (or a message of 16 .. 31) through the 16-block YMM loop on the
 * same keys, so a 256-byte message is stitched too.  Other x86 AES keys
 * with this GHASH (e.g. INCORE_IMPL=aes=vaes) get the YMM or XMM loop,
 * the widest their backend declares; the key holds the powers of both. */
size_t ic_gcm_x86_vaes512_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                                uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    size_t done = gx_crypt(k, ghash_x86_key32_of(hk), flags, ctr, y, out, in, nblocks);
    if (nblocks - done >= 16)
        done += ic_gcm_x86_vaes_crypt(k, hk, flags, ctr, y, out + 16 * done, in + 16 * done, 16);
    return done;
}

IC_TARGET_END
#endif /* x86 */
