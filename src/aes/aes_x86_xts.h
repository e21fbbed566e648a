/*
 * aes_x86_xts.h - the fused XTS block loop (the xts op of aes_impl.h) for
 * the x86 backends, written once for every register width like
 * aes_x86_modes.h: aes_x86_ni.c (XMM, 8 blocks per batch), aes_x86_vaes.c
 * (YMM, 16) and a 512-bit backend (ZMM, 32).  Not a normal header: include
 * it once, right after aes_x86_modes.h (whose macros and load_n / store_n
 * it uses), after defining besides those
 *
 *   AESX_LANES             blocks per register (1, 2, 4)
 *   AESX_SLLQ(v, n), AESX_SRLQ(v, n)
 *                          shift each 64-bit element left / right by n bits
 *   AESX_BSLLI(v, n), AESX_BSRLI(v, n)
 *                          shift each 128-bit lane left / right by n bytes
 *                          (n a constant)
 *
 * What XTS needs beyond ECB is the tweak of every block, T_j = T * x^j in
 * GF(2^128) modulo x^128 + x^7 + x^2 + x + 1 (IEEE 1619 5.2), with the
 * 16-byte value read as a little-endian number, which is exactly how a
 * 128-bit lane of an x86 register holds it.  Block i of a batch sits in
 * lane i % AESX_LANES of register i / AESX_LANES, so:
 *  - the first batch's tweaks: register 0 from AESX_LANES doublings of T
 *    in general registers, and register j = register 0 * x^(AESX_LANES*j)
 *    (xts_mul_xs; all independent, so they issue together);
 *  - each later batch: every register times x^AESX_NBLK (xts_next_batch).
 *    AESX_NBLK is a multiple of 8, so the shift is a whole number of bytes
 *    (one PSLLDQ per lane), and the AESX_NBLK bits that leave the top of the
 *    lane come back reduced: r * (x^7 + x^2 + x + 1) = r ^ r<<1 ^ r<<2 ^
 *    r<<7 in the bottom 64 bits (r < 2^32, so nothing overflows).  Shift
 *    and XOR only: no PCLMULQDQ, so every CPU that runs the backend runs
 *    this, and the work is spread over vector ports other than the AES
 *    units' (on Zen 4 the AES rounds issue on two pipes, shifts and XORs on
 *    the others);
 *  - the whitening XORs fold into the rounds: the first AddRoundKey takes
 *    in ^ T ^ rk0, and AESENCLAST / AESDECLAST end with "^ round key", so
 *    the last round key ^ T gives E(in ^ T) ^ T directly.
 * A last batch of 1..AESX_NBLK-1 blocks runs padded as in aes_x86_modes.h;
 * the tweak handed back is that of the block after the last one, read from
 * the batch's tweak array at that block's position.
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

/* Each 128-bit lane times x^s, 0 < s < 57: the lane shifted left by s bits
 * (64-bit shifts plus the low half's top bits carried into the high half),
 * and its top s bits reduced into the bottom. */
AESX_INLINE AESX_V xts_mul_xs(AESX_V v, int s)
{
    AESX_V c = AESX_SRLQ(v, 64 - s);
    AESX_V t = AESX_XOR(AESX_SLLQ(v, s), AESX_BSLLI(c, 8));
    return AESX_XOR(t, xts_reduce(AESX_BSRLI(c, 8)));
}

/* The same for s = AESX_NBLK, a whole number of bytes. */
AESX_INLINE AESX_V xts_mul_xnblk(AESX_V v)
{
    return AESX_XOR(AESX_BSLLI(v, AESX_NBLK / 8), xts_reduce(AESX_BSRLI(v, 16 - AESX_NBLK / 8)));
}

/* Tweaks of the first batch from T (16 bytes, little-endian). */
AESX_INLINE void xts_first_tweaks(AESX_V tw[AESX_NV], const uint8_t t[16])
{
    uint8_t lanes[16 * AESX_LANES];
    uint64_t lo = ic_load64_le(t), hi = ic_load64_le(t + 8);
    for (int l = 0; l < AESX_LANES; l++) {
        ic_store64_le(lanes + 16 * l, lo);
        ic_store64_le(lanes + 16 * l + 8, hi);
        uint64_t carry = hi >> 63;            /* T * x, as xts.c's xts_mulx */
        hi = hi << 1 | lo >> 63;
        lo = lo << 1 ^ (UINT64_C(0x87) & (0 - carry));
    }
    load_n(tw, lanes, AESX_LANES);            /* register 0 */
    for (int j = 1; j < AESX_NV; j++)
        tw[j] = xts_mul_xs(tw[0], AESX_LANES * j);
    ic_wipe(lanes, sizeof lanes);
}

AESX_INLINE void xts_next_batch(AESX_V tw[AESX_NV])
{
    for (int j = 0; j < AESX_NV; j++)
        tw[j] = xts_mul_xnblk(tw[j]);
}

/* Rounds 1..nr-1 on a batch (the first AddRoundKey and the last round are
 * the caller's, with the tweak folded in). */
#define XTS_MIDDLE(b, rk, nr, op) do { \
    ROUND_ALL(b, op, AESX_KEY(rk, 1)); ROUND_ALL(b, op, AESX_KEY(rk, 2)); \
    ROUND_ALL(b, op, AESX_KEY(rk, 3)); ROUND_ALL(b, op, AESX_KEY(rk, 4)); \
    ROUND_ALL(b, op, AESX_KEY(rk, 5)); ROUND_ALL(b, op, AESX_KEY(rk, 6)); \
    ROUND_ALL(b, op, AESX_KEY(rk, 7)); ROUND_ALL(b, op, AESX_KEY(rk, 8)); \
    ROUND_ALL(b, op, AESX_KEY(rk, 9)); \
    if ((nr) > 10) { ROUND_ALL(b, op, AESX_KEY(rk, 10)); ROUND_ALL(b, op, AESX_KEY(rk, 11)); } \
    if ((nr) > 12) { ROUND_ALL(b, op, AESX_KEY(rk, 12)); ROUND_ALL(b, op, AESX_KEY(rk, 13)); } \
} while (0)

/* One batch of n blocks (1 <= n <= AESX_NBLK): every load before the
 * first store, so out == in is fine. */
AESX_INLINE void xts_batch(const __m128i *rk, unsigned nr, const AESX_V tw[AESX_NV], uint8_t *out,
                           const uint8_t *in, size_t n, int decrypt)
{
    AESX_V b[AESX_NV] = {0};
    load_n(b, in, n);
    AESX_V k0 = AESX_KEY(rk, 0);
    for (int j = 0; j < AESX_NV; j++)
        b[j] = AESX_XOR(b[j], AESX_XOR(tw[j], k0));
    if (decrypt)
        XTS_MIDDLE(b, rk, nr, AESX_DEC);
    else
        XTS_MIDDLE(b, rk, nr, AESX_ENC);
    AESX_V kl = AESX_KEY(rk, nr);
    for (int j = 0; j < AESX_NV; j++)
        b[j] = decrypt ? AESX_DECLAST(b[j], AESX_XOR(kl, tw[j])) : AESX_ENCLAST(b[j], AESX_XOR(kl, tw[j]));
    store_n(out, b, n);
}

AESX_INLINE void xts_any(const ic_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                         int decrypt)
{
    const __m128i *rk = (const __m128i *)(decrypt ? aes_x86_dec_rk(k) : aes_x86_enc_rk(k));
    unsigned nr = k->rounds;
    AESX_V tw[AESX_NV];
    xts_first_tweaks(tw, t);
    for (; nblocks >= AESX_NBLK; nblocks -= AESX_NBLK, in += 16 * AESX_NBLK, out += 16 * AESX_NBLK) {
        xts_batch(rk, nr, tw, out, in, AESX_NBLK, decrypt);
        xts_next_batch(tw);
    }
    if (nblocks > 0)
        xts_batch(rk, nr, tw, out, in, nblocks, decrypt);
    /* the tweak of the block after the last: block `nblocks` of the batch
     * (block 0 of the next batch when the last batch was whole) */
    memcpy(t, (const uint8_t *)tw + 16 * nblocks, 16);
    ic_wipe(tw, sizeof tw);
}

static void AESX_FN(xts)(const ic_aes_key *k, uint8_t t[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                         int decrypt)
{
    if (decrypt)
        xts_any(k, t, out, in, nblocks, 1);
    else
        xts_any(k, t, out, in, nblocks, 0);
}

#endif
