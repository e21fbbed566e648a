/*
 * aes_x86_xts.h - the fused XTS block loop (the xts op of aes_impl.h) for
 * the x86 backends, written once for every register width like
 * aes_x86_modes.h: aes_x86_ni.c (XMM, 8 blocks per batch), aes_x86_vaes.c
 * (YMM, 16) and a 512-bit backend (ZMM, 32).  Not a normal header: include
 * it once, right after aes_x86_modes.h (whose macros and load_n / store_n
 * it uses), after defining besides those
 *
 *   (AESX_LANES, blocks per register, comes from aes_x86_modes.h)
 *   AESX_SLLQ(v, n), AESX_SRLQ(v, n)
 *                          shift each 64-bit element left / right by n bits
 *   AESX_BSLLI(v, n), AESX_BSRLI(v, n)
 *                          shift each 128-bit lane left / right by n bytes
 *                          (n a constant; on ZMM, VPSLLDQ / VPSRLDQ need
 *                          AVX-512BW)
 *   AESX_XTS_LANES0(t)     the register holding T, T*x, ... (one lane each)
 *                          from T in an __m128i (xts_mulx128 helps)
 *   AESX_XTS_REDUCE(r)     optional: r * 0x87 carry-less in each 64-bit
 *                          element, r < 2^57 (default: shifts and XORs;
 *                          a CPU with VPCLMULQDQ does it in one)
 *   AESX_XOR3(a, b, c)     optional: a ^ b ^ c (default two XORs; with
 *                          AVX-512VL one VPTERNLOGQ with imm8 0x96)
 *
 * What XTS needs beyond ECB is the tweak of every block, T_j = T * x^j in
 * GF(2^128) modulo x^128 + x^7 + x^2 + x + 1 (IEEE 1619 5.2), with the
 * 16-byte value read as a little-endian number, which is exactly how a
 * 128-bit lane of an x86 register holds it.  Block i of a batch sits in
 * lane i % AESX_LANES of register i / AESX_LANES, so:
 *  - T = E_key2(i) one block with AES-NI when the caller passes key2 (its
 *    latency is the only serial part of a data unit);
 *  - the first batch's tweaks: register 0 from T by AESX_LANES - 1
 *    doublings, and register j = register 0 * x^(AESX_LANES*j)
 *    (xts_mul_xs; all independent, so they issue together);
 *  - each later batch: every register times x^AESX_NBLK (xts_next_batch).
 *    AESX_NBLK is a multiple of 8, so the shift is a whole number of bytes
 *    (one PSLLDQ per lane), and the AESX_NBLK bits r that leave the top of
 *    the lane come back reduced, r * (x^7 + x^2 + x + 1) in the bottom 64
 *    bits (r < 2^32, so nothing overflows): one carry-less multiply by 0x87
 *    where the backend may use VPCLMULQDQ (vaes: 4 vector operations per
 *    register of tweaks, the Linux kernel's aes-xts-avx-x86_64.S does the
 *    same), else r ^ r<<1 ^ r<<2 ^ r<<7 (ni: 9 operations, no PCLMULQDQ);
 *  - the whitening XORs fold into the rounds: the first AddRoundKey takes
 *    in ^ T ^ rk0, and AESENCLAST / AESDECLAST end with "^ round key", so
 *    the last round key ^ T gives E(in ^ T) ^ T directly.
 * A last batch of 1..AESX_NBLK-1 blocks runs padded as in aes_x86_modes.h,
 * on the fewest registers that hold it (BATCH_FEWEST), and a data unit
 * that short computes only those registers' tweaks.  The last batch does
 * not advance the tweaks: the tweak handed back (that of the block after
 * the last) is the last block's, read from the batch's tweak array at its
 * position, times x.
 *
 * No branch or memory index depends on the key, the tweak or the data;
 * the branches are on the public length and round count.
 */
#ifndef INCORE_AES_X86_XTS_H
#define INCORE_AES_X86_XTS_H

/* r * (x^7 + x^2 + x + 1) for r below 2^57 in each 64-bit element. */
AESX_INLINE AESX_V xts_reduce(AESX_V r)
{
    return AESX_XOR(AESX_XOR(r, AESX_SLLQ(r, 1)), AESX_XOR(AESX_SLLQ(r, 2), AESX_SLLQ(r, 7)));
}
#ifndef AESX_XTS_REDUCE
#define AESX_XTS_REDUCE xts_reduce
#endif
#ifndef AESX_XOR3
#define AESX_XOR3(a, b, c) AESX_XOR(AESX_XOR((a), (b)), (c))
#endif

/* T * x on one 128-bit register (for building the first lanes). */
AESX_INLINE __m128i xts_mulx128(__m128i t)
{
    __m128i c = _mm_srli_epi64(t, 63);                      /* bits 63 and 127 */
    __m128i r = _mm_bsrli_si128(c, 8);                      /* bit 127 at 0    */
    __m128i red = _mm_xor_si128(_mm_xor_si128(r, _mm_slli_epi64(r, 1)),
                                _mm_xor_si128(_mm_slli_epi64(r, 2), _mm_slli_epi64(r, 7)));
    return _mm_xor_si128(_mm_xor_si128(_mm_slli_epi64(t, 1), _mm_bslli_si128(c, 8)), red);
}

/* One block with AES-NI: the tweak encryption T = E_key2(i). */
AESX_INLINE __m128i xts_encrypt_tweak(const ic_aes_key *k2, __m128i x)
{
    const __m128i *rk = (const __m128i *)aes_x86_enc_rk(k2);
    unsigned nr = k2->rounds;
    x = _mm_xor_si128(x, rk[0]);
    for (unsigned r = 1; r < nr; r++)
        x = _mm_aesenc_si128(x, rk[r]);
    return _mm_aesenclast_si128(x, rk[nr]);
}

/* Each 128-bit lane times x^s, 0 < s < 57: the lane shifted left by s bits
 * (64-bit shifts plus the low half's top bits carried into the high half),
 * and its top s bits reduced into the bottom. */
AESX_INLINE AESX_V xts_mul_xs(AESX_V v, int s)
{
    AESX_V c = AESX_SRLQ(v, 64 - s);
    AESX_V t = AESX_XOR(AESX_SLLQ(v, s), AESX_BSLLI(c, 8));
    return AESX_XOR(t, AESX_XTS_REDUCE(AESX_BSRLI(c, 8)));
}

/* The same for s = AESX_NBLK, a whole number of bytes. */
AESX_INLINE AESX_V xts_mul_xnblk(AESX_V v)
{
    return AESX_XOR(AESX_BSLLI(v, AESX_NBLK / 8), AESX_XTS_REDUCE(AESX_BSRLI(v, 16 - AESX_NBLK / 8)));
}

/* Tweaks of the first batch from T: registers 1..3 from register 0, then
 * registers 4..7 from 0..3 by x^(4*LANES), a whole number of bytes when
 * LANES is 2 or 4 (the cheaper byte-shift step), else by xts_mul_xs. */
AESX_INLINE AESX_V xts_mul_x4lanes(AESX_V v)
{
    if ((4 * AESX_LANES) % 8 == 0)
        return AESX_XOR(AESX_BSLLI(v, (4 * AESX_LANES) / 8 % 16),
                        AESX_XTS_REDUCE(AESX_BSRLI(v, (16 - (4 * AESX_LANES) / 8) % 16)));
    return xts_mul_xs(v, 4 * AESX_LANES);
}

/* The first nv registers only: a short data unit (the padded batch of
 * 1 .. AESX_NBLK-1 blocks on nv registers) makes no tweaks it does not
 * use. */
AESX_INLINE void xts_first_tweaks(AESX_V tw[AESX_NV], __m128i t, int nv)
{
    tw[0] = AESX_XTS_LANES0(t);
    for (int j = 1; j < 4 && j < nv; j++)
        tw[j] = xts_mul_xs(tw[0], AESX_LANES * j);
    for (int j = 4; j < nv; j++)
        tw[j] = xts_mul_x4lanes(tw[j - 4]);
}

AESX_INLINE void xts_next_batch(AESX_V tw[AESX_NV])
{
    for (int j = 0; j < AESX_NV; j++)
        tw[j] = xts_mul_xnblk(tw[j]);
}


/* One batch of n blocks (1 <= n <= AESX_NBLK) on the first nv registers
 * (n fits; advance only with a whole batch, nv = AESX_NV): the first
 * AddRoundKey with the tweak, MIDDLE_ROUNDS of aes_x86_modes.h, the last
 * round with the tweak in its key; every load before the first store, so
 * out == in is fine.  With advance, the next batch's tweaks are computed
 * right after the whitening, ahead of the rounds in program order: the
 * out-of-order core then fits them between this batch's AES rounds
 * instead of running them after the batch, in front of the next one (10%
 * on Zen 4). */
AESX_INLINE void xts_batch(const __m128i *rk, unsigned nr, AESX_V tw[AESX_NV], uint8_t *out,
                           const uint8_t *in, size_t n, int nv, int decrypt, int advance)
{
    AESX_V b[AESX_NV], kt[AESX_NV];
    AESX_FITS(n, nv);
    /* not "= {0}": no REP STOSQ (aes_x86_modes.h).  All AESX_NV registers,
     * not nv: with nv, GCC 12 warned that store_n might read an unset
     * register (it does not carry AESX_FITS into store_n's switch); in a
     * short batch the extra zeros are dead code. */
    ZERO_NV(b, AESX_NV);
    load_n(b, in, n);
    AESX_V k0 = AESX_KEY(rk, 0), kl = AESX_KEY(rk, nr);
    for (int j = 0; j < nv; j++) {
        b[j] = AESX_XOR3(b[j], tw[j], k0);
        kt[j] = AESX_XOR(kl, tw[j]);
    }
    if (advance)
        xts_next_batch(tw);
    if (decrypt)
        MIDDLE_ROUNDS(b, rk, nr, AESX_DEC);
    else
        MIDDLE_ROUNDS(b, rk, nr, AESX_ENC);
    for (int j = 0; j < nv; j++)
        b[j] = decrypt ? AESX_DECLAST(b[j], kt[j]) : AESX_ENCLAST(b[j], kt[j]);
    store_n(out, b, n);
}

/* After the last batch (n blocks): T_n, the tweak of the block after it,
 * is its last block's tweak times x, read at a public position of the
 * tweak array; then the first nw registers of tweaks, all that held any
 * (key-derived), are cleared on the stack (inline, as ic_wipe does it:
 * the empty asm makes the zeroing observable; nw a constant, so no call). */
AESX_INLINE void xts_done(AESX_V tw[AESX_NV], uint8_t t[16], size_t n, int nw)
{
    __m128i last = _mm_loadu_si128((const __m128i *)((const uint8_t *)tw + 16 * (n - 1)));
    _mm_storeu_si128((__m128i *)t, xts_mulx128(last));
    memset(tw, 0, (size_t)nw * sizeof tw[0]);
    __asm__ __volatile__("" : : "r"(tw) : "memory");
}

AESX_INLINE void xts_any(const ic_aes_key *k, const ic_aes_key *k2, uint8_t t[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks, int decrypt)
{
    const __m128i *rk = (const __m128i *)(decrypt ? aes_x86_dec_rk(k) : aes_x86_enc_rk(k));
    unsigned nr = k->rounds;
    AESX_V tw[AESX_NV];
    __m128i t0 = _mm_loadu_si128((const __m128i *)t);
    if (k2 != NULL)
        t0 = xts_encrypt_tweak(k2, t0);
    /* Whole batches with more blocks after them advance the tweaks; the
     * last batch (1..AESX_NBLK blocks, nblocks >= 1 by the op's contract)
     * does not.  A last batch of fewer than AESX_NBLK blocks runs on the
     * fewest registers that hold it, and a data unit shorter than a batch
     * makes the tweaks of those registers only (the short path: 64 bytes
     * are two YMM registers, not eight). */
#define XTS_LAST(n, nv) do { \
        xts_batch(rk, nr, tw, out, in, n, nv, decrypt, 0); \
        xts_done(tw, t, n, AESX_NV);   /* the batches before set all of tw */ \
    } while (0)
#define XTS_SHORT(n, nv) do { \
        xts_first_tweaks(tw, t0, nv); \
        xts_batch(rk, nr, tw, out, in, n, nv, decrypt, 0); \
        xts_done(tw, t, n, nv); \
    } while (0)
    if (nblocks < AESX_NBLK) {
        BATCH_FEWEST(nblocks, XTS_SHORT);
        return;
    }
    xts_first_tweaks(tw, t0, AESX_NV);
    for (; nblocks > AESX_NBLK; nblocks -= AESX_NBLK, in += 16 * AESX_NBLK, out += 16 * AESX_NBLK)
        xts_batch(rk, nr, tw, out, in, AESX_NBLK, AESX_NV, decrypt, 1);
    if (nblocks == AESX_NBLK)   /* a constant n: the loads and stores fold */
        XTS_LAST(AESX_NBLK, AESX_NV);
    else
        BATCH_FEWEST(nblocks, XTS_LAST);
#undef XTS_SHORT
#undef XTS_LAST
}

static void AESX_FN(xts)(const ic_aes_key *k, const ic_aes_key *k2, uint8_t t[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks, int decrypt)
{
    if (decrypt)
        xts_any(k, k2, t, out, in, nblocks, 1);
    else
        xts_any(k, k2, t, out, in, nblocks, 0);
}

#endif
