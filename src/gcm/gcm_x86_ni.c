/*
 * gcm_x86_ni.c - the stitched AES-GCM loop for AES-NI and PCLMULQDQ on
 * 128-bit registers, 8 blocks a batch: the stitched loop IC_STITCH_X86_XMM,
 * which every x86 AES and GHASH backend declares (so gcm.c runs it for
 * "clmul", and for any pair without a wider loop in common, such as
 * "vpclmul" with "ni").  Compiled for AES-NI, PCLMULQDQ and SSSE3.
 *
 * Why stitch: counter mode keeps eight AESENC in flight per round and
 * GHASH eight independent PCLMULQDQ products per batch; run one after the
 * other, each leaves the other's units idle, interleaved in one loop the
 * out-of-order core fills the gaps (S. Gueron and V. Krasnov, "The
 * fragility of AES-GCM authentication algorithm", 2014; the Linux kernel's
 * aesni-intel GCM).  The loop itself is gcm_x86_stitch.h, shared with the
 * VAES version; this file supplies the 128-bit registers: one block per
 * register, its products by the powers H^8 .. H^1 of the GHASH key
 * (ghash_x86.h), one reduction per batch.
 *
 * The counter (SP 800-38D inc32) is kept with its bytes reversed, so its
 * 32-bit big-endian tail is the low dword of the register and PADDD adds
 * modulo 2^32 there without touching the 96 fixed bits - the wrap inc32
 * asks for.  Round keys come from the x86 AES layout (aes_x86.h).  Only
 * whole batches are done here; gcm.c does the rest.
 * Constant time: AES-NI and PCLMULQDQ, no data-dependent branch or index.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("aes,pclmul,ssse3")
#include "gcm/ghash_x86.h"
#include "aes/aes_x86.h"
#include "core/ct.h"

#define GX_V __m128i
#define GX_NBLK 8
#define GX_ACC gh_acc

GX_INLINE __m128i gx_key(const __m128i *rk, int r) { return _mm_load_si128(rk + r); }
GX_INLINE __m128i gx_enc(__m128i s, __m128i k) { return _mm_aesenc_si128(s, k); }
GX_INLINE __m128i gx_enclast(__m128i s, __m128i k) { return _mm_aesenclast_si128(s, k); }
GX_INLINE __m128i gx_xor(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }
GX_INLINE __m128i gx_loadu(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
GX_INLINE void gx_storeu(uint8_t *p, __m128i v) { _mm_storeu_si128((__m128i *)(void *)p, v); }

/* The counter, byte-reversed (see the top of the file); pub is not
 * needed: the 8-block batches add and swap every block anyway, with no
 * branch on the counter (gcm_x86_stitch.h). */
GX_INLINE __m128i gx_ctr_init(const uint8_t ctr[16], int pub) { (void)pub; return gh_load(ctr); }
GX_INLINE __m128i gx_ctr_w0(const uint8_t ctr[16], const __m128i *rk, int pub)
{
    (void)ctr;
    (void)pub;
    return _mm_load_si128(rk);
}
GX_INLINE __m128i gx_ctr_next(__m128i c, int pub) { (void)pub; return _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, GX_NBLK)); }
GX_INLINE void gx_ctr_done(uint8_t ctr[16], __m128i c, int pub) { (void)pub; gh_store(ctr, c); }

/* Counter blocks c + 0 .. c + 7 (reflected form), back in the standard
 * byte order and whitened with round key 0. */
GX_INLINE void gx_counters(__m128i s[8], __m128i c, __m128i rk0, int pub)
{
    (void)pub;
    const __m128i bs = gh_bswap_mask();
#pragma GCC unroll 8
    for (int i = 0; i < GX_NBLK; i++)
        s[i] = _mm_xor_si128(_mm_shuffle_epi8(_mm_add_epi32(c, _mm_set_epi32(0, 0, 0, i)), bs), rk0);
}

GX_INLINE void gx_acc_zero(gh_acc *a) { gh_acc_zero(a); }
#if defined(IC_MSAN)       /* an asm would drop the taint (core/ct.h) */
GX_INLINE void gx_pin(gh_acc *a) { (void)a; }
#else
GX_INLINE void gx_pin(gh_acc *a) { __asm__("" : "+x"(a->lo), "+x"(a->hi), "+x"(a->mid)); }
#endif
GX_INLINE __m128i gx_finish(gh_acc *a) { return gh_finish(a); }
GX_INLINE __m128i gx_hash(const ghash_x86_key *gk, __m128i y, const uint8_t *p) { return gh_batch(gk, y, p, GX_NBLK); }

/* Block j of the batch at p times H^(8-j). */
GX_INLINE void gx_mul(gh_acc *a, const ghash_x86_key *gk, const uint8_t *p, int j, __m128i y)
{
    const int i = GHASH_X86_MAXPOW - GX_NBLK + j;
    __m128i x = gh_load(p + 16 * j);
    if (j == 0)
        x = _mm_xor_si128(x, y);
    gh_mul_acc(a, x, gk->pow[i], gk->kar[i]);
}

#include "gcm/gcm_x86_stitch.h"

/* k and hk are of backends that declare IC_STITCH_X86_XMM (gcm.c checks):
 * an x86 key layout and H^8 .. H^1 in the x86 GHASH layout. */
size_t ic_gcm_x86_ni_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                           uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    return gx_crypt(k, ghash_x86_key_of(hk), flags, ctr, y, out, in, nblocks);
}

IC_TARGET_END
#endif /* x86 */
