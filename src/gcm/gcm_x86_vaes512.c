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

/* ---- whole messages (gcm.c's seal and open with a 12-byte IV) ----------
 *
 * A message of up to 31 blocks (and the last up to 31 blocks of a longer
 * one) runs as one frame of R = 1..8 ZMM registers, with nothing between
 * the caller's buffers and the registers: the data is right-aligned in the
 * frame, so that its last block sits just before the lengths block, which
 * always takes the last lane of the last register.  Lane p of the frame
 * (p = 4r + l) then always meets psi(H^(4R - p)), whatever the length: a
 * whole register of fixed powers per register, the ciphertext, the GHASH
 * accumulator y (added to the lane of the first data block) and the
 * lengths block summed against them and reduced once.  The data is read
 * and written with byte-masked loads and stores (the lanes before the data
 * and the bytes after its end masked off; a masked-off byte is never
 * accessed, so the pointer of a register that starts before the buffer
 * does not matter), so a short tail costs nothing extra.  E(K, J0) runs on
 * one XMM register beside the frame's rounds.
 *
 * The counter blocks are J || BE32(t) with t a native dword (a VPADDD
 * wraps it modulo 2^32 as inc32 does), put in place by one VPSHUFB and
 * whitened by one XOR: no branch on the counter.
 *
 * Opening, the tag is compared in the registers (the first taglen bytes,
 * by a masked load of the caller's tag) and the plaintext is ANDed with
 * the verdict before it is stored: a forgery stores zeros, and nothing
 * branches on the verdict.  A longer message's leading whole batches run
 * through the stitched loop, decrypted and hashed in one pass like a
 * seal's; when the frame's compare fails they are overwritten with zeros
 * before the call returns (a branch on the verdict, public from there).  */

#define GF_MAXREG 8

/* Bits [lo, hi) for 0 <= lo < hi <= 64 (lengths, public): two shifts,
 * no clamps or branches. */
GX_INLINE uint64_t gf_span(ptrdiff_t lo, ptrdiff_t hi)
{
    return (~UINT64_C(0) << lo) & (~UINT64_C(0) >> (64 - hi));
}

/* p + d as a pointer for a masked access only (it may lie before p, and p
 * may be NULL with nothing to access). */
GX_INLINE const uint8_t *gf_at(const uint8_t *p, ptrdiff_t d)
{
    return (const uint8_t *)(uintptr_t)((uintptr_t)p + (uintptr_t)d);
}

/* The counter blocks' fixed part: J0 with its inc32 tail cleared, XORed
 * with round key 0, in every lane. */
GX_INLINE __m512i gf_base(__m128i j0, __m128i rk0)
{
    return _mm512_broadcast_i32x4(_mm_xor_si128(_mm_insert_epi32(j0, 0, 3), rk0));
}

/* Native tails t + l in dword 3 of lane l (the other dwords too, unused). */
GX_INLINE __m512i gf_tails(uint32_t t)
{
    return _mm512_add_epi32(_mm512_set1_epi32((int)t), _mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0));
}

/* The whitened counter blocks of lanes holding tails v (gf_tails). */
GX_INLINE __m512i gf_ctr(__m512i v, __m512i base)
{
    const __m512i ctl = _mm512_broadcast_i32x4(_mm_set_epi8(12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1,
                                                            -1, -1, -1, -1));
    return _mm512_xor_si512(_mm512_shuffle_epi8(v, ctl), base);
}

/* The verdict of an open as a mask: all ones when the tm bytes of the tag
 * and of the caller's etag agree, else zero; no branch. */
GX_INLINE __m128i gf_verdict(__m128i tag, __m128i etag, __mmask16 tm)
{
    __m128i d = _mm_maskz_mov_epi8(tm, _mm_xor_si128(tag, etag));
    return _mm_cmpeq_epi64(_mm_or_si128(d, _mm_shuffle_epi32(d, 0x4E)), _mm_setzero_si128());
}

/* The lanes of register 0 that the frame of a len-byte tail leaves free
 * before its first data block: 0 .. 3 (a frame of R registers holds
 * 4(R - 1) .. 4R - 1 data blocks and the lengths block). */
GX_INLINE size_t gf_free_lanes(size_t len)
{
    return 3 - (len + 15) / 16 % 4;
}

/* The frame's GHASH products into a: the AAD (a0, register 0) and the
 * ciphertext c (zero outside the data), y on lane yl (the first block
 * hashed; the lengths block's when there is neither), the lengths block
 * lb on the last lane; R registers against H^4R .. H^1. */
GX_INLINE void gf_hash(gh512_acc *a, const ghash_x86_key32 *gk, const int R, const __m512i *c, __m512i a0,
                       __m128i y, ptrdiff_t yl, __m128i lb)
{
    const __m512i bs = _mm512_broadcast_i32x4(gh_bswap_mask());
    const __m512i yb = _mm512_broadcast_i32x4(y);
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) {
        __m512i g = _mm512_shuffle_epi8(r == 0 ? _mm512_or_si512(c[r], a0) : c[r], bs);
        if (r == R - 1)
            g = _mm512_mask_xor_epi64(g, 0xC0, g, _mm512_broadcast_i32x4(lb));
        __mmask8 ym = (__mmask8)((yl >> 2) == r ? 3u << (2 * (yl & 3)) : 0u);
        g = _mm512_mask_xor_epi64(g, ym, g, yb);
        gh512_mul_acc(a, g, gh512_pow32(gk, 8 - R + r), gh512_kar32(gk, 8 - R + r));
    }
}

/* The frame: len <= 16 * (4R - 1) bytes of in to out with the counter
 * tails t, t + 1, ..., GHASH from y over the AAD (aadlen bytes, at most
 * the free lanes' 16 * gf_free_lanes(len), else 0 and y has it), the
 * ciphertext and the lengths block lb (phi form), E(K, J0) from j0; the
 * tag in the standard's byte order is returned.  Decrypting, etag/tm are
 * the caller's tag and the mask of its bytes, and *ok receives the
 * verdict as 0 or 1 (the caller zeroes a forgery's output).  R is a
 * constant in each instance. */
GX_INLINE __m128i gf_frame(const __m128i *rk, int rounds, const ghash_x86_key32 *gk, const int R, const int enc,
                           __m128i j0, uint32_t t, __m128i y, const uint8_t *aad, size_t aadlen,
                           const uint8_t *in, uint8_t *out, size_t len, __m128i lb, __m128i etag, __mmask16 tm,
                           int *ok)
{
    const ptrdiff_t nd = (ptrdiff_t)((len + 15) / 16), q = 4 * R - 1 - nd, off = 16 * q;
    const __m512i base = gf_base(j0, _mm_load_si128(rk));
    const __m512i v = gf_tails(t - (uint32_t)q);
    __m512i s[GF_MAXREG], x[GF_MAXREG];
    __mmask64 m[GF_MAXREG];
    __m128i e = _mm_xor_si128(j0, _mm_load_si128(rk));
    /* the AAD in the lanes just before the data, its last block's
     * padding zero (the mask): hashed with the data, one reduction for
     * the message instead of one more of its own before it */
    const ptrdiff_t ao = off - 16 * (ptrdiff_t)((aadlen + 15) / 16), yl = ao / 16;
    const __m512i a0 = aadlen != 0 ? _mm512_maskz_loadu_epi8(gf_span(ao, ao + (ptrdiff_t)aadlen), gf_at(aad, -ao))
                                   : _mm512_setzero_si512();
    /* no data (R is 1): no access at all (a masked access with a NULL
     * pointer completes only through a fault-suppression assist) */
    const int data = R > 1 || len != 0;

#pragma GCC unroll 8
    for (int r = 0; r < R; r++) {
        /* the data starts in register 0 and ends in register R - 1, 33 ..
         * 48 bytes into it (its last lanes: the last data block and the
         * lengths block); with no data, m[0] is 0 */
        m[r] = (r == 0 ? ~UINT64_C(0) << off : ~UINT64_C(0)) &
               (r == R - 1 ? ~UINT64_C(0) >> (64 - (off + (ptrdiff_t)len - 64 * r)) : ~UINT64_C(0));
        x[r] = data ? _mm512_maskz_loadu_epi8(m[r], gf_at(in, 64 * r - off)) : _mm512_setzero_si512();
        s[r] = gf_ctr(_mm512_add_epi32(v, _mm512_set1_epi32(4 * r)), base);
    }
    /* decrypting more than one register, the ciphertext is hashed first:
     * in program order before the rounds, its multiplies issue beside
     * them (Zen 4, 64 and 256 bytes: 4-5 % faster; with one register 8 %
     * slower) */
    const int hash_first = !enc && R > 1;
    gh512_acc a;
    gh512_acc_zero(&a);
    if (hash_first)
        gf_hash(&a, gk, R, x, a0, y, yl, lb);
    /* rounds 1 .. 9 written out, then AES-192's and AES-256's extra ones
     * (a branch on the key size, public): as one loop over a round count
     * only known at run time the registers were copied on every round,
     * a move in the dependency chain of each block */
    if (rounds < 10)
        __builtin_unreachable();   /* 10, 12 or 14: the caller checked the key */
#pragma GCC unroll 13
    for (int i = 1; i < 14; i++) {
        if (i >= rounds)
            break;
        const __m128i k1 = _mm_load_si128(rk + i);
        const __m512i k4 = _mm512_broadcast_i32x4(k1);
#pragma GCC unroll 8
        for (int r = 0; r < R; r++)
            s[r] = _mm512_aesenc_epi128(s[r], k4);
        e = _mm_aesenc_si128(e, k1);
    }
    {
        const __m128i k1 = _mm_load_si128(rk + rounds);
        const __m512i k4 = _mm512_broadcast_i32x4(k1);
#pragma GCC unroll 8
        for (int r = 0; r < R; r++)
            s[r] = _mm512_maskz_mov_epi8(m[r], _mm512_aesenclast_epi128(s[r], _mm512_xor_si512(k4, x[r])));
        e = _mm_aesenclast_si128(e, k1);
    }

    if (!hash_first)
        gf_hash(&a, gk, R, enc ? s : x, a0, y, yl, lb);
    gh_acc f;
    gh_acc_zero(&f);
    gh512_fold_into(&f, &a);
    __m128i tag = _mm_xor_si128(_mm_shuffle_epi8(gh_finish(&f), gh_bswap_mask()), e);

    if (!enc)
        *ok = _mm_cvtsi128_si32(gf_verdict(tag, etag, tm)) & 1;
#pragma GCC unroll 8
    for (int r = 0; r < R && data; r++)
        _mm512_mask_storeu_epi8((void *)(uintptr_t)gf_at(out, 64 * r - off), m[r], s[r]);
    return tag;
}

/* The frame for nd = 0 .. 31 data blocks: R = nd / 4 + 1 registers (the
 * lengths block takes a lane too), one instance per R and direction. */
GX_INLINE __m128i gf_frame_any(const __m128i *rk, int rounds, const ghash_x86_key32 *gk, int enc, __m128i j0,
                            uint32_t t, __m128i y, const uint8_t *aad, size_t aadlen, const uint8_t *in,
                            uint8_t *out, size_t len, __m128i lb, __m128i etag, __mmask16 tm, int *ok)
{
#define GF_CASE(R, E) \
    case R - 1: return gf_frame(rk, rounds, gk, R, E, j0, t, y, aad, aadlen, in, out, len, lb, etag, tm, ok)
#define GF_CASES(E)                                                                      \
    switch ((len + 15) / 16 / 4) {                                                       \
        GF_CASE(1, E); GF_CASE(2, E); GF_CASE(3, E); GF_CASE(4, E);                      \
        GF_CASE(5, E); GF_CASE(6, E); GF_CASE(7, E);                                     \
    default: return gf_frame(rk, rounds, gk, 8, E, j0, t, y, aad, aadlen, in, out, len, lb, etag, tm, ok); \
    }
    if (enc)
        GF_CASES(1)
    GF_CASES(0)
#undef GF_CASES
#undef GF_CASE
}


/* GHASH of the AAD from y: 64 bytes (four blocks against H^4 .. H^1)
 * and one reduction at a time, the last 1 .. 64 bytes right-aligned by
 * blocks as in the frame (the partial block's padding masked off). */
GX_INLINE __m128i gf_aad(const ghash_x86_key32 *gk, __m128i y, const uint8_t *aad, size_t len)
{
    const __m512i bs = _mm512_broadcast_i32x4(gh_bswap_mask());
    while (len != 0) {
        const size_t c = len < 64 ? len : 64;
        const ptrdiff_t q = 4 - (ptrdiff_t)((c + 15) / 16), off = 16 * q;
        __m512i x = _mm512_shuffle_epi8(_mm512_maskz_loadu_epi8(gf_span(off, off + (ptrdiff_t)c), gf_at(aad, -off)), bs);
        x = _mm512_mask_xor_epi64(x, (__mmask8)(3u << (2 * q)), x, _mm512_broadcast_i32x4(y));
        gh512_acc a;
        gh_acc f;
        gh512_acc_zero(&a);
        gh512_mul_acc(&a, x, gk->k.pow + 12, gk->k.kar + 12);
        gh_acc_zero(&f);
        gh512_fold_into(&f, &a);
        y = gh_finish(&f);
        aad += c;
        len -= c;
    }
    return y;
}

/* The lengths block of m (phi form). */
GX_INLINE __m128i gf_lengths(const ic_gcm_msg *m)
{
    return _mm_set_epi64x((long long)((uint64_t)m->aadlen * 8), (long long)((uint64_t)m->len * 8));
}

/* The mask of the caller's tag bytes (opening). */
GX_INLINE __mmask16 gf_tagmask(const ic_gcm_msg *m)
{
    return (__mmask16)((1u << m->taglen) - 1);
}

/* inc32(J0)'s native tail: the first data block's counter. */
GX_INLINE uint32_t gf_t0(const ic_gcm_msg *m)
{
    return ic_load32_be(m->j0 + 12) + 1;
}

/* The end of message m from byte done on, y the GHASH so far: with done
 * 0, the AAD too (a longer message's caller has hashed it; in the frame
 * when its free lanes hold it, else first), then the last 0 .. 31
 * blocks, E(K, J0) and the lengths block in the frame; the tag to m->tag
 * (sealing) or the verdict returned (opening).  A function of its own,
 * the only one holding the frame's instances, so that a short message
 * does not pay the prologue (spills, 64-byte stack alignment) of the
 * longer messages' code. */
static __attribute__((noinline)) int gf_tail(const __m128i *rk, int rounds, const ghash_x86_key32 *gk, int enc,
                                             const ic_gcm_msg *m, size_t done, __m128i y)
{
    int ok = 1;
    const __m128i j0 = _mm_loadu_si128((const __m128i *)(const void *)m->j0);
    const uint32_t t = gf_t0(m) + (uint32_t)(done / 16);
    /* in and out may be NULL with no data (then done is 0): no arithmetic on them then */
    const uint8_t *in = done != 0 ? m->in + done : m->in;
    uint8_t *out = done != 0 ? m->out + done : m->out;
    const size_t len = m->len - done;
    size_t alen = 0;
    if (done == 0 && m->aadlen <= 16 * gf_free_lanes(len))
        alen = m->aadlen;
    else if (done == 0)
        y = gf_aad(gk, y, m->aad, m->aadlen);
    if (enc) {
        _mm_storeu_si128((__m128i *)(void *)m->tag,
                         gf_frame_any(rk, rounds, gk, 1, j0, t, y, m->aad, alen, in, out, len, gf_lengths(m),
                                      _mm_setzero_si128(), 0, &ok));
        return 1;
    }
    const __mmask16 tm = gf_tagmask(m);
    (void)gf_frame_any(rk, rounds, gk, 0, j0, t, y, m->aad, alen, in, out, len, gf_lengths(m),
                       _mm_maskz_loadu_epi8(tm, m->etag), tm, &ok);
    /* a forgery's plaintext is zeroed before the call returns, stored
     * first so that the stores need not wait for the verdict */
    ic_ct_declassify(&ok, sizeof ok);
    if (!ok && len != 0)
        memset(out, 0, len);
    return ok;
}

/* E(K, J0) alone, on one XMM register. */
GX_INLINE __m128i gf_enc1(const __m128i *rk, int rounds, __m128i j0)
{
    __m128i e = _mm_xor_si128(j0, _mm_load_si128(rk));
    for (int i = 1; i < rounds; i++)
        e = _mm_aesenc_si128(e, _mm_load_si128(rk + i));
    return _mm_aesenclast_si128(e, _mm_load_si128(rk + rounds));
}

/* The tag of a message whose data ended on a batch: (y ^ lengths) H,
 * back in the standard's byte order, masked with E(K, J0) = e. */
GX_INLINE __m128i gf_close(const ghash_x86_key32 *gk, __m128i y, __m128i lb, __m128i e)
{
    gh_acc f;
    gh_acc_zero(&f);
    gh_mul_acc(&f, _mm_xor_si128(y, lb), gk->k.pow[GHASH_X86_MAXPOW - 1], gk->k.kar[GHASH_X86_MAXPOW - 1]);
    return _mm_xor_si128(_mm_shuffle_epi8(gh_finish(&f), gh_bswap_mask()), e);
}

/* A message of more than 31 blocks (the rest of ic_gcm_x86_vaes512_msg). */
static __attribute__((noinline)) int gf_long(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags,
                                             const ic_gcm_msg *m)
{
    const ghash_x86_key32 *gk = ghash_x86_key32_of(hk);
    const __m128i *rk = (const __m128i *)(const void *)aes_x86_enc_rk(k);
    const int rounds = k->rounds;
    const size_t len = m->len, whole = len / 16;
    size_t nb = whole - whole % 32;
    __m128i y = gf_aad(gk, _mm_setzero_si128(), m->aad, m->aadlen);
    const __m128i j0 = _mm_loadu_si128((const __m128i *)(const void *)m->j0);
    const int enc = (flags & IC_GCM_HOOK_ENCRYPT) != 0;
    int ok;

    /* Data that ends on a batch leaves the frame only the lengths block:
     * then E(K, J0) is made first, off the chain at the end, and the tag
     * is one 128-bit product (a frame after the loop: 1 KiB 5-10 % slower
     * than this). */
    const int empty = len == 16 * nb;
    const __m128i e = empty ? gf_enc1(rk, rounds, j0) : _mm_setzero_si128();

    if (whole % 32 == 31 && (len & 15) != 0)
        nb = whole - 15;   /* 31 whole blocks and a tail: 16 more than the batches of 32 */
    uint8_t ctr[16], yb[16];
    /* inc32(J0) in one 16-byte store, which the loop's 16-byte load of it
     * can forward (from two stores it could not) */
    _mm_storeu_si128((__m128i *)(void *)ctr,
                     _mm_insert_epi32(j0, (int)__builtin_bswap32(gf_t0(m)), 3));
    gh_store(yb, y);
    nb = ic_gcm_x86_vaes512_crypt(k, hk, flags, ctr, yb, m->out, m->in, nb);   /* the YMM loop takes a 16 */
    y = gh_load(yb);
    if (empty) {
        const __m128i full = gf_close(gk, y, gf_lengths(m), e);
        if (enc) {
            _mm_storeu_si128((__m128i *)(void *)m->tag, full);
            return 1;
        }
        const __mmask16 tm = gf_tagmask(m);
        ok = _mm_cvtsi128_si32(gf_verdict(full, _mm_maskz_loadu_epi8(tm, m->etag), tm)) & 1;
    } else {
        ok = gf_tail(rk, rounds, gk, enc, m, 16 * nb, y);
    }
    /* Opening: the batches were decrypted in the same pass as hashed; a
     * forgery's are zeroed here (gf_tail zeroed the rest). */
    ic_ct_declassify(&ok, sizeof ok);
    if (!ok)
        memset(m->out, 0, 16 * nb);
    return ok;
}

/* A whole message (ghash_impl.h, ic_gcm_msg_fn): the AAD hashed, whole
 * batches of 32 blocks through the stitched loop (encrypting) or hashed
 * (decrypting), the last 0 .. 31 blocks and the lengths block in the
 * frame, and, decrypting, the leading batches decrypted last.  The key's
 * round count is one ic_aes_gcm_key_init accepts (gcm.c checks). */
int ic_gcm_x86_vaes512_msg(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, const ic_gcm_msg *m)
{
    if (m->len > 16 * 31)
        return gf_long(k, hk, flags, m);
    return gf_tail((const __m128i *)(const void *)aes_x86_enc_rk(k), k->rounds, ghash_x86_key32_of(hk),
                   (flags & IC_GCM_HOOK_ENCRYPT) != 0, m, 0, _mm_setzero_si128());
}

IC_TARGET_END
#endif /* x86 */
