/*
 * gcm_x86_stitch.h - the stitched AES-GCM loop (counter mode and GHASH of
 * the ciphertext in one pass) written once for every x86 width: included
 * by gcm_x86_ni.c (AES-NI and PCLMULQDQ on 8 XMM registers = 8 blocks a
 * batch), gcm_x86_vaes.c (VAES and VPCLMULQDQ on 8 YMM registers = 16
 * blocks) and gcm_x86_vaes512.c (8 ZMM registers = 32 blocks; the one
 * that defines GX_GKEY).  Not a normal header: include it once, from
 * those files only, after defining
 *
 *   GX_V              the register type (__m128i, __m256i)
 *   GX_NBLK           blocks per batch (8 registers of GX_V)
 *   GX_ACC            the type of a sum of unreduced GHASH products
 *   GX_GKEY           optional: what gx_mul and gx_hash read the powers
 *                     of H from (default the key, ghash_x86_key)
 *
 * and these functions (GX_INLINE is provided below):
 *
 *   GX_V gx_key(const __m128i *rk, int r)      round key r in every lane
 *   GX_V gx_enc(GX_V, GX_V), gx_enclast(GX_V, GX_V), gx_xor(GX_V, GX_V)
 *   GX_V gx_loadu(const uint8_t *), void gx_storeu(uint8_t *, GX_V)
 *   (pub: the counter is public, IC_GCM_HOOK_CTR_PUBLIC; a constant)
 *   GX_V gx_ctr_init(const uint8_t ctr[16], int pub)   the counter as kept
 *   GX_V gx_ctr_w0(const uint8_t ctr[16], const __m128i *rk, int pub)
 *                                              what whitens the counter
 *                                              blocks (round key 0, or
 *                                              more), loop-invariant
 *   void gx_counters(GX_V s[8], GX_V c, GX_V w0, int pub)
 *                                              the batch's counter blocks,
 *                                              whitened with round key 0
 *   GX_V gx_ctr_next(GX_V c, int pub)          the counter one batch on
 *   void gx_ctr_done(uint8_t ctr[16], GX_V c, int pub)
 *                                              the counter back to ctr
 * (all by value, as plain vectors: a struct of them passed by pointer cost
 * the stitched loop 3 % in spills on Zen 4)
 *   void gx_acc_zero(GX_ACC *)
 *   void gx_mul(GX_ACC *, const GX_GKEY *, const uint8_t *p, int j, __m128i y)
 *                                              add register j of p (times
 *                                              its powers of H), plus y in
 *                                              its block 0 when j == 0
 *                                              (called for j = 1 .. GX_NV-1,
 *                                              then 0, in that order: the
 *                                              ZMM sums pair j-1 with j)
 *   void gx_pin(GX_ACC *)                      keep the sums in registers
 *   __m128i gx_finish(GX_ACC *)                reduce to the new y
 *   __m128i gx_hash(const GX_GKEY *, __m128i y, const uint8_t *p)
 *                                              GHASH of one batch of p
 *
 * What the loop does and why (each point measured on Zen 3, where
 * (V)PCLMULQDQ issues once per two cycles on a pipe that also runs
 * (V)AESENC, so the two compete and every extra vector instruction shows;
 * together about 10 % over the plain interleave):
 *  - one batch's AES rounds run with the GHASH of a batch of ciphertext
 *    interleaved, one register of products before each of the first eight
 *    rounds (Gueron and Krasnov's "stitching", as in the Linux kernel's
 *    and OpenSSL's AES-GCM).  Encrypting, that is the previous batch's
 *    ciphertext (the current one does not exist yet), and the last batch
 *    is hashed after the loop; decrypting, the current batch's input, all
 *    loaded before any output is stored, so out == in works;
 *  - register 0, the one that carries the previous batch's y, is
 *    multiplied last, so the chain from one batch's reduction to the next
 *    batch's products has a batch of rounds to hide in;
 *  - gx_pin (an empty asm) keeps each sum in a register as it grows:
 *    without it the compiler re-associates the XORs into a tree at the end
 *    of the batch and spills every product to the stack on the way;
 *  - the source of the GHASH is laundered through an asm, so encrypting
 *    reloads the previous batch's ciphertext from out (store-to-load
 *    forwarding) instead of keeping it live in eight registers;
 *  - the input is XORed into the last round key rather than into the
 *    result (AESENCLAST ends with AddRoundKey, so the two are the same):
 *    the XOR leaves the chain of dependent rounds.
 * The number of rounds is a constant in each of the three instances, so
 * the round loops unroll into straight-line code.  No branch depends on
 * the counter: for a GCM IV of any length but 12 bytes it is GHASH_H(IV),
 * a function of the key and secret, so the counter blocks of every batch
 * are made the same way (SP 800-38D inc32, the carry always propagated).
 */
#ifndef INCORE_GCM_X86_STITCH_H
#define INCORE_GCM_X86_STITCH_H

#ifndef GX_NV
#define GX_NV 8   /* registers per batch (the including file may choose fewer) */
#endif
#define GX_LANES (GX_NBLK / GX_NV)   /* blocks per register */
#ifndef GX_GKEY
#define GX_GKEY ghash_x86_key
#endif

/* Rounds 1 .. rounds of the batch in s (whitened counter blocks), the
 * input in XORed into the last round; with gsrc, the GHASH of its batch
 * into *y.  Returns the output blocks in s. */
GX_INLINE void gx_batch(GX_V s[GX_NV], const __m128i *rk, int rounds, const GX_GKEY *gk,
                        const uint8_t *gsrc, __m128i *y, const uint8_t *in)
{
    GX_ACC acc;
    gx_acc_zero(&acc);
    if (gsrc != NULL)
        __asm__("" : "+r"(gsrc));
#pragma GCC unroll 14
    for (int r = 1; r < rounds; r++) {
        GX_V key = gx_key(rk, r);
        if (gsrc != NULL && r <= GX_NV) {
            gx_mul(&acc, gk, gsrc, r % GX_NV, *y);
            gx_pin(&acc);
        }
#pragma GCC unroll 8
        for (int i = 0; i < GX_NV; i++)
            s[i] = gx_enc(s[i], key);
    }
    {
        GX_V key = gx_key(rk, rounds);
#pragma GCC unroll 8
        for (int i = 0; i < GX_NV; i++)
            s[i] = gx_enclast(s[i], gx_xor(key, gx_loadu(in + 16 * GX_LANES * i)));
    }
    if (gsrc != NULL)
        *y = gx_finish(&acc);
}

GX_INLINE void gx_store(uint8_t *out, const GX_V s[GX_NV])
{
#pragma GCC unroll 8
    for (int i = 0; i < GX_NV; i++)
        gx_storeu(out + 16 * GX_LANES * i, s[i]);
}

/* nb > 0 blocks, a multiple of GX_NBLK; ctr and yb as the hook's. */
/* rounds and pub are constants in each instance (gx_crypt's switch), so
 * the counter code of the other case is not in the loop at all. */
GX_INLINE void gx_crypt_rounds(const ic_aes_key *k, int rounds, int pub, const GX_GKEY *gk, unsigned flags,
                               uint8_t ctr[16], uint8_t yb[16], uint8_t *out, const uint8_t *in, size_t nb)
{
    const int encrypt = (flags & IC_GCM_HOOK_ENCRYPT) != 0;
    const __m128i *rk = (const __m128i *)(const void *)aes_x86_enc_rk(k);
    __m128i y = gh_load(yb);
    const GX_V w0 = gx_ctr_w0(ctr, rk, pub);
    GX_V c = gx_ctr_init(ctr, pub), s[GX_NV];

    if (encrypt) {
        gx_counters(s, c, w0, pub);
        gx_batch(s, rk, rounds, gk, NULL, &y, in);
        gx_store(out, s);
        c = gx_ctr_next(c, pub);
        for (size_t done = GX_NBLK; done < nb; done += GX_NBLK) {
            gx_counters(s, c, w0, pub);
            gx_batch(s, rk, rounds, gk, out + 16 * (done - GX_NBLK), &y, in + 16 * done);
            gx_store(out + 16 * done, s);
            c = gx_ctr_next(c, pub);
        }
        y = gx_hash(gk, y, out + 16 * (nb - GX_NBLK));
    } else {
        for (size_t done = 0; done < nb; done += GX_NBLK) {
            gx_counters(s, c, w0, pub);
            gx_batch(s, rk, rounds, gk, in + 16 * done, &y, in + 16 * done);
            gx_store(out + 16 * done, s);
            c = gx_ctr_next(c, pub);
        }
    }
    gx_ctr_done(ctr, c, pub);
    gh_store(yb, y);
}

/* The instances for a counter that may be secret (any IV but 12 bytes),
 * in a function of their own: with all six instances in one function GCC
 * laid out the public-counter loops 4 % slower (Zen 4, AES-128-GCM 16 KiB). */
static __attribute__((noinline)) void gx_crypt_secret(const ic_aes_key *k, const GX_GKEY *gk, unsigned flags,
                                                      uint8_t ctr[16], uint8_t y[16], uint8_t *out,
                                                      const uint8_t *in, size_t nb)
{
    switch (k->rounds) {
    case 10: gx_crypt_rounds(k, 10, 0, gk, flags, ctr, y, out, in, nb); break;
    case 12: gx_crypt_rounds(k, 12, 0, gk, flags, ctr, y, out, in, nb); break;
    default: gx_crypt_rounds(k, 14, 0, gk, flags, ctr, y, out, in, nb); break;
    }
}

/* The whole batches of nblocks, for a key in the x86 layout (checked by
 * the caller); returns how many blocks were done. */
static size_t gx_crypt(const ic_aes_key *k, const GX_GKEY *gk, unsigned flags, uint8_t ctr[16],
                       uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    size_t nb = nblocks - nblocks % GX_NBLK;
    if (nb == 0 || (k->rounds != 10 && k->rounds != 12 && k->rounds != 14))
        return 0;
    if (!(flags & IC_GCM_HOOK_CTR_PUBLIC)) {
        gx_crypt_secret(k, gk, flags, ctr, y, out, in, nb);
        return nb;
    }
    switch (k->rounds) {
    case 10: gx_crypt_rounds(k, 10, 1, gk, flags, ctr, y, out, in, nb); break;
    case 12: gx_crypt_rounds(k, 12, 1, gk, flags, ctr, y, out, in, nb); break;
    default: gx_crypt_rounds(k, 14, 1, gk, flags, ctr, y, out, in, nb); break;
    }
    return nb;
}

#endif
