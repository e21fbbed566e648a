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
 *   AESX_LANE128(v, l)     128-bit lane l of v as an __m128i (l < AESX_LANES,
 *                          public, not always a constant)
 *   AESX_XTS_REDUCE(r)     optional: r * 0x87 carry-less in each 64-bit
 *                          element, r < 2^57 (default: shifts and XORs;
 *                          a CPU with VPCLMULQDQ does it in one)
 *   AESX_XOR3(a, b, c)     optional: a ^ b ^ c (default two XORs; with
 *                          AVX-512VL one VPTERNLOGQ with imm8 0x96)
 *   AESX_XTS_PACKED        optional: the step of xts_next_batch on four
 *                          registers at a time with one shared reduction
 *                          (xts_next4; Zen 3 measured), which then needs
 *   AESX_UNPACKHI32(a, b), AESX_UNPACKHI64(a, b), AESX_SLLD(v, n),
 *   AESX_SRLD(v, n), AESX_SHUFB(v, c), AESX_BCAST128(x)
 *                          PUNPCKHDQ, PUNPCKHQDQ, PSLLD, PSRLD, PSHUFB on
 *                          each 128-bit lane, and an __m128i in every lane
 *   AESX_XTS_PACKED_WHEN() optional with AESX_XTS_PACKED: nonzero where the
 *                          packed step is the one to run (read once per
 *                          call, a public CPU property; default 1): the
 *                          loop of whole batches is then made with both
 *                          steps
 *   AESX_SLLVQ(v, c), AESX_SRLVQ(v, c), AESX_XTS_BCAST(t), AESX_XTS_KVEC(a, s)
 *                          optional (AVX2): per-element shifts, T in every
 *                          lane, and the counts a + s*l for lane l; the
 *                          first tweaks then come straight from T
 *                          (xts_first_tweaks)
 *   AESX_XTS_FOLDKL        optional: the tweak registers hold T ^ rk_last
 *                          (xts_keys; worth it with VPTERNLOG)
 *   AESX_XTS_GPR, AESX_XTS_GPR_MIN
 *                          optional: the tweaks of data units of at least
 *                          AESX_XTS_GPR_MIN blocks made in general
 *                          registers (see xts_gpr_batch; Zen 3 measured)
 *
 * What XTS needs beyond ECB is the tweak of every block, T_j = T * x^j in
 * GF(2^128) modulo x^128 + x^7 + x^2 + x + 1 (IEEE 1619 5.2), with the
 * 16-byte value read as a little-endian number, which is exactly how a
 * 128-bit lane of an x86 register holds it.  Block i of a batch sits in
 * lane i % AESX_LANES of register i / AESX_LANES, so:
 *  - T = E_key2(i) one block with AES-NI when the caller passes key2 (its
 *    latency is the only serial part of a data unit);
 *  - the first batch's tweaks: with AESX_SLLVQ every lane straight from T
 *    by per-element shifts and one reduction (xts_first_tweaks), else
 *    register 0 from T by AESX_LANES - 1 doublings, and register j =
 *    register 0 * x^(AESX_LANES*j) (xts_mul_xs; all independent, so they
 *    issue together);
 *  - each later batch: every register times x^AESX_NBLK (xts_next_batch).
 *    AESX_NBLK is a multiple of 8, so the shift is a whole number of bytes
 *    (one PSLLDQ per lane), and the AESX_NBLK bits r that leave the top of
 *    the lane come back reduced, r * (x^7 + x^2 + x + 1) in the bottom 64
 *    bits (r < 2^32, so nothing overflows): one carry-less multiply by 0x87
 *    where the backend may use VPCLMULQDQ (vaes512: 4 vector operations
 *    per register of tweaks, the Linux kernel's aes-xts-avx-x86_64.S does
 *    the same), else r ^ r<<1 ^ r<<2 ^ r<<7 (ni: 9 operations, no
 *    PCLMULQDQ).  With AESX_XTS_PACKED (vaes) four registers share one
 *    such shift-and-XOR reduction (xts_next4): on Zen 3 a VPCLMULQDQ takes
 *    the AES pipes about as long as eight shuffles or XORs;
 *  - the whitening XORs fold into the rounds: the first AddRoundKey takes
 *    in ^ T ^ rk0, and AESENCLAST / AESDECLAST end with "^ round key", so
 *    the last round key ^ T gives E(in ^ T) ^ T directly.
 * A last batch of 1..AESX_NBLK-1 blocks runs padded as in aes_x86_modes.h,
 * on the fewest registers that hold it (BATCH_FEWEST), and a data unit
 * that short computes only those registers' tweaks.  The last batch does
 * not advance the tweaks: the tweak handed back (that of the block after
 * the last) is the last block's, picked from the tweak registers by its
 * public position (xts_tweak_at), times x.
 *
 * No branch or memory index depends on the key, the tweak or the data;
 * the branches are on the public length and round count.  Wiping: the
 * tweaks are key-derived, but like the counter blocks of CTR and GCM they
 * are not wiped where the compiler spills them (every x86 mode loop
 * leaves its spills); only the arrays that AESX_XTS_GPR keeps in memory
 * by design are cleared.  The generic loop (xts.c) holds its tweaks in a
 * buffer it writes on purpose, and wipes it.
 */
#ifndef INCORE_AES_X86_XTS_H
#define INCORE_AES_X86_XTS_H

#include "core/ct.h"   /* IC_MSAN */
#include "core/x86_lanes.h"

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
#ifdef AESX_SLLVQ
    /* Every register straight from T: lane l of register j is T * x^k,
     * k = AESX_LANES*j + l < AESX_NBLK <= 32, as T shifted left by k bits
     * per 64-bit half (VPSLLVQ, a count per element), the low half's top
     * k bits carried into the high half, the high half's top k bits
     * reduced into the bottom (AESX_XTS_REDUCE).  6 operations a register,
     * all registers independent: about 10 cycles from T, where the
     * doublings of lanes 0 (three dependent T*x) and the two steps after
     * them took about 40, all of it on the latency of a data unit of one
     * batch (512 bytes on vaes512). */
    AESX_V tb = AESX_XTS_BCAST(t);
    for (int j = 0; j < nv; j++) {
        AESX_V hi = AESX_SRLVQ(tb, AESX_XTS_KVEC(64 - AESX_LANES * j, -1));
        AESX_V sh = AESX_SLLVQ(tb, AESX_XTS_KVEC(AESX_LANES * j, 1));
        tw[j] = AESX_XOR(AESX_XOR(sh, AESX_BSLLI(hi, 8)), AESX_XTS_REDUCE(AESX_BSRLI(hi, 8)));
    }
    return;
#endif
    tw[0] = AESX_XTS_LANES0(t);
    for (int j = 1; j < 4 && j < nv; j++)
        tw[j] = xts_mul_xs(tw[0], AESX_LANES * j);
    for (int j = 4; j < nv; j++)
        tw[j] = xts_mul_x4lanes(tw[j - 4]);
}

#if defined(AESX_XTS_PACKED) && !defined(AESX_XTS_PACKED_WHEN)
#define AESX_XTS_PACKED_WHEN() 1
#endif
#ifdef AESX_XTS_PACKED
/* Four registers of tweaks times x^16 (AESX_NBLK = 16), sharing one
 * reduction.  The top 16 bits of every lane of v[k] (the top half of its
 * dword 3) go to dword k of one register: PUNPCKHDQ pairs the dwords 3 of
 * v[0], v[1] and of v[2], v[3], PUNPCKHQDQ joins the pairs, PSRLD moves
 * each to the bottom of its dword.  There the four r * 0x87 (23 bits,
 * r ^ r<<1 ^ r<<2 ^ r<<7, each inside its dword) take 6 operations for
 * all four, and each register takes its 3 bytes back to the bottom of the
 * lane with one PSHUFB whose other control bytes (0x80) zero the rest.
 * 22 operations for four registers, none of them VPCLMULQDQ, against 16
 * with four VPCLMULQDQ: on Zen 3 (VAES on YMM) VPCLMULQDQ runs on the
 * pipes of VAESENC and took them about 1.2 cycles each (an AES loop with
 * independent VPCLMULQDQs added), a shuffle, shift or XOR 0.1-0.25, so
 * this made 4 KiB XTS 4-5 % faster there (docs/backends.md, XTS). */
AESX_INLINE AESX_V xts_slot(AESX_V r, int k)
{
    const __m128i c = _mm_set_epi32(-1, -1, -1, (int)(0x80000000u | (uint32_t)(4 * k + 2) << 16 |
                                                    (uint32_t)(4 * k + 1) << 8 | (uint32_t)(4 * k)));
    return AESX_SHUFB(r, AESX_BCAST128(c));
}

AESX_INLINE void xts_next4(AESX_V v[4], AESX_V d)
{
    AESX_V y = AESX_UNPACKHI64(AESX_UNPACKHI32(v[0], v[1]), AESX_UNPACKHI32(v[2], v[3]));
    AESX_V h = AESX_SRLD(y, 16);
    AESX_V r = AESX_XOR(AESX_XOR(h, AESX_SLLD(h, 1)), AESX_XOR(AESX_SLLD(h, 2), AESX_SLLD(h, 7)));
    for (int k = 0; k < 4; k++)
        v[k] = AESX_XOR(AESX_BSLLI(v[k], 2), AESX_XOR(xts_slot(r, k), d));
}
#endif

/* Every register of tweaks times x^AESX_NBLK, then ^ d (see xts_batch:
 * the registers hold T ^ rk_last, and d = rk_last * x^AESX_NBLK ^ rk_last
 * keeps them so; d = 0 for plain tweaks).  The XOR of d joins the step's
 * last XOR, one VPTERNLOG where the compiler has AVX-512VL. */
AESX_INLINE void xts_next_batch(AESX_V tw[AESX_NV], AESX_V d, int packed)
{
#ifdef AESX_XTS_PACKED
    _Static_assert(AESX_NBLK == 16 && AESX_NV == 8, "xts_next4: two bytes a lane, two groups");
    if (packed) {
        xts_next4(tw, d);
        xts_next4(tw + 4, d);
        return;
    }
#endif
    (void)packed;
    for (int j = 0; j < AESX_NV; j++)
        tw[j] = AESX_XOR(AESX_BSLLI(tw[j], AESX_NBLK / 8),
                         AESX_XOR(AESX_XTS_REDUCE(AESX_BSRLI(tw[j], 16 - AESX_NBLK / 8)), d));
}

/* The constants of a call's batches (xts_batch).  With AESX_XTS_FOLDKL
 * the tweak registers hold U = T ^ rk_last (u = rk_last): c = rk0 ^ rk_last
 * for the whitening, kt = 0 (U is the last round key as it is), d =
 * rk_last * x^AESX_NBLK ^ rk_last for the step.  Without it they hold T
 * (u = 0): c = rk0, kt = rk_last, d = 0; GCC folds the XORs with the zero
 * registers away, so the loop is the one before U existed. */
typedef struct {
    AESX_V c, kt, d, u;
    __m128i u128;
} xts_keys;

AESX_INLINE void xts_keys_init(xts_keys *x, const __m128i *rk, unsigned nr)
{
    AESX_V k0 = AESX_KEY(rk, 0), kl = AESX_KEY(rk, nr), z = AESX_XOR(k0, k0);
#ifdef AESX_XTS_FOLDKL
    x->c = AESX_XOR(k0, kl);
    x->kt = z;
    x->d = AESX_XOR(xts_mul_xnblk(kl), kl);
    x->u = kl;
    x->u128 = rk[nr];
#else
    x->c = k0;
    x->kt = kl;
    x->d = z;
    x->u = z;
    x->u128 = _mm_setzero_si128();
#endif
}

/* One batch of n blocks (1 <= n <= AESX_NBLK) on the first nv registers
 * (n fits; advance only with a whole batch, nv = AESX_NV).  tw holds T,
 * the first AddRoundKey takes in ^ T ^ rk0 and the last round key is
 * rk_last ^ T; or, with AESX_XTS_FOLDKL (xts_keys), U = T ^ rk_last, the
 * last round key with the tweak in it:
 * AESENCLAST / AESDECLAST end with "^ round key", so U as that key gives
 * E(in ^ T) ^ T with no XOR, and the whitening in ^ T ^ rk0 is
 * in ^ U ^ c with c = rk0 ^ rk_last (one VPTERNLOG with AVX-512VL, two
 * XORs without).  The multiplication by x^AESX_NBLK is linear, so the next
 * batch's U is U * x^AESX_NBLK ^ d with d = rk_last * x^AESX_NBLK ^
 * rk_last: one more XOR input to the step (free in a VPTERNLOG), and no
 * register of T ^ rk_last per block made each batch (docs/backends.md,
 * XTS: the operations per block).  Every load comes before the first
 * store, so out == in is fine.  With advance, the next batch's tweaks are
 * computed right after the whitening, ahead of the rounds in program
 * order: the out-of-order core then fits them between this batch's AES
 * rounds instead of running them after the batch, in front of the next
 * one (10% on Zen 4). */
AESX_INLINE void xts_batch(const __m128i *rk, unsigned nr, AESX_V tw[AESX_NV], const xts_keys *x, uint8_t *out,
                           const uint8_t *in, size_t n, int nv, int decrypt, int advance, int packed)
{
    AESX_V b[AESX_NV], kt[AESX_NV];
    AESX_FITS(n, nv);
    /* not "= {0}": no REP STOSQ (aes_x86_modes.h).  All AESX_NV registers,
     * not nv: with nv, GCC 12 warned that store_n might read an unset
     * register (it does not carry AESX_FITS into store_n's switch); in a
     * short batch the extra zeros are dead code. */
    ZERO_NV(b, AESX_NV);
    load_n(b, in, n);
    for (int j = 0; j < nv; j++) {
        b[j] = AESX_XOR3(b[j], tw[j], x->c);
        kt[j] = AESX_XOR(tw[j], x->kt);
    }
    if (advance)
        xts_next_batch(tw, x->d, packed);
    if (decrypt)
        MIDDLE_ROUNDS(b, rk, nr, AESX_DEC);
    else
        MIDDLE_ROUNDS(b, rk, nr, AESX_ENC);
    for (int j = 0; j < nv; j++)
        b[j] = decrypt ? AESX_DECLAST(b[j], kt[j]) : AESX_ENCLAST(b[j], kt[j]);
    store_n(out, b, n);
}

/* Clear nw registers' worth of tweaks in memory (the arrays of
 * AESX_XTS_GPR) with ZERO_NV's vector stores, made observable by the empty
 * asm (as ic_wipe does it); not memset, which GCC inlined as REP STOSQ
 * (~30 cycles to start, a tenth of a 1 KiB data unit on `ni`). */
AESX_INLINE void xts_done_wipe(AESX_V *tw, int nw)
{
    ZERO_NV(tw, nw);
    __asm__ __volatile__("" : : "r"(tw) : "memory");
}

/* Block i's tweak (i < AESX_NBLK, public) from the registers: the register
 * and the lane are picked by comparisons that unroll into selects, not by
 * an index, so tw need not be addressable (a tweak array read by index had
 * to live on the stack, and wiping it there took a REP STOSQ of ~30
 * cycles a call: 256-byte data units 10 % slower).  Where there are too
 * few registers (ni: 24 live values in 16 XMM) the compiler still spills
 * some; see the file comment on wiping. */
AESX_INLINE __m128i xts_tweak_at(const AESX_V tw[AESX_NV], size_t i)
{
    AESX_V v = tw[0];
    for (int j = 1; j < AESX_NV; j++)
        if (i / AESX_LANES == (size_t)j)
            v = tw[j];
    return AESX_LANE128(v, i % AESX_LANES);
}

/* After the last batch (n blocks): T_n, the tweak of the block after it,
 * is its last block's tweak times x. */
AESX_INLINE void xts_done(const AESX_V tw[AESX_NV], uint8_t t[16], size_t n)
{
    _mm_storeu_si128((__m128i *)t, xts_mulx128(xts_tweak_at(tw, n - 1)));
}

/* The same from registers of U = T ^ kl (xts_batch). */
AESX_INLINE void xts_done_u(const AESX_V tw[AESX_NV], __m128i kl, uint8_t t[16], size_t n)
{
    _mm_storeu_si128((__m128i *)t, xts_mulx128(_mm_xor_si128(xts_tweak_at(tw, n - 1), kl)));
}

/* The first nv registers of U = T ^ kl from T (xts_batch). */
AESX_INLINE void xts_first_u(AESX_V tw[AESX_NV], __m128i t, AESX_V kl, int nv)
{
    xts_first_tweaks(tw, t, nv);
    for (int j = 0; j < nv; j++)
        tw[j] = AESX_XOR(tw[j], kl);
}

#ifdef AESX_XTS_GPR
/* ---- the tweaks of the next batch in general registers (AESX_XTS_GPR) ----
 * On Zen 3 every vector instruction of the tweak step above takes time
 * from AESENC / VAESENC (the shuffles, shifts and VPCLMULQDQ issue on the
 * pipes that run it; docs/backends.md, XTS), while the four integer
 * ALUs idle.  A backend that defines AESX_XTS_GPR makes the tweaks of
 * batch k+1 there during batch k, into a stack array, and the batch XORs
 * them in from memory (loads take no vector ALU time), for data units of
 * AESX_XTS_GPR_MIN blocks or more:
 *  - T * x in two 64-bit halves: ADD + ADC shift the 128 bits left by one,
 *    and the bit shifted out of the top comes back as 0x87 through a mask
 *    made by an arithmetic shift (no branch, no table);
 *  - a chain of doublings costs ~2.5 cycles of latency a step, 16 steps
 *    about as long as 16 blocks of AES-128, so two chains run side by
 *    side: A makes the first half of the batch, B the second half; B's
 *    last step gives the next batch's first tweak (A's next start), and
 *    B's next start is that times x^(AESX_NBLK/2) (xts_gpr_mulxs: a shift
 *    by s bits and the s bits pushed out times x^7 + x^2 + x + 1);
 *  - two arrays alternate: batch k reads one (the whitening, and again for
 *    the last round key) while the chains fill the other;
 *  - the first batch's tweaks come from the vector code (xts_first_tweaks:
 *    short latency), stored into the first array.  The chains' tweaks for
 *    the second batch come later than the vector step's would (the batch
 *    then runs with less overlap), and the arrays are cleared at the end,
 *    so short data units keep the vector loop (AESX_XTS_GPR_MIN).
 * It is not free either: 8 instructions a tweak (6 ALU, 2 stores) take
 * dispatch slots; `ni`, whose vector step is 9 shifts and XORs a block,
 * gains 25-40 % on Zen 3, while for `vaes` two ways of measuring
 * disagreed (docs/backends.md, XTS), so it keeps the vector step. */
AESX_INLINE void xts_gpr_mulx(uint64_t *lo, uint64_t *hi)
{
    uint64_t m = (uint64_t)((int64_t)*hi >> 63) & 0x87;
#if defined(IC_MSAN) || !defined(__x86_64__)
    /* MSan marks an asm's outputs clean (core/ct.h), and 32-bit x86 has no
     * 64-bit registers: shifts here */
    *hi = *hi << 1 | *lo >> 63;
    *lo = *lo << 1;
#else
    /* the 128-bit shift as ADD + ADC: GCC makes SHLD and register copies
     * of the C forms (8 and more instructions a step, 6 with this) */
    __asm__("add %0, %0\n\tadc %1, %1" : "+r"(*lo), "+r"(*hi) : : "cc");
#endif
    *lo ^= m;
}

/* T * x^s, 0 < s < 57. */
AESX_INLINE void xts_gpr_mulxs(uint64_t *lo, uint64_t *hi, int s)
{
    uint64_t r = *hi >> (64 - s);
    *hi = *hi << s | *lo >> (64 - s);
    *lo = *lo << s ^ r ^ r << 1 ^ r << 2 ^ r << 7;
}

/* The chains' state: A = the first tweak of the batch to make, B = the
 * tweak AESX_NBLK/2 blocks after it. */
typedef struct {
    uint64_t alo, ahi, blo, bhi;
} xts_gpr;

AESX_INLINE void xts_gpr_start(xts_gpr *g, __m128i t)
{
    g->alo = ic_xmm_lo64(t);
    g->ahi = ic_xmm_hi64(t);
    xts_gpr_mulxs(&g->alo, &g->ahi, AESX_NBLK);   /* the second batch */
    g->blo = g->alo;
    g->bhi = g->ahi;
    xts_gpr_mulxs(&g->blo, &g->bhi, AESX_NBLK / 2);
}

/* The AESX_NBLK tweaks of one batch into tw (16 bytes each, little-endian
 * as the registers hold them), and the state moved on by one batch. */
AESX_INLINE void xts_gpr_batch(xts_gpr *g, uint64_t *tw)
{
    enum { H = AESX_NBLK / 2 };
    for (int i = 0; i < H; i++) {
        tw[2 * i] = g->alo;
        tw[2 * i + 1] = g->ahi;
        tw[2 * (i + H)] = g->blo;
        tw[2 * (i + H) + 1] = g->bhi;
        if (i < H - 1)
            xts_gpr_mulx(&g->alo, &g->ahi);
        xts_gpr_mulx(&g->blo, &g->bhi);
    }
    g->alo = g->blo;
    g->ahi = g->bhi;
    xts_gpr_mulxs(&g->blo, &g->bhi, H);
}

/* xts_batch with the tweaks read from memory (tw), and with g, the next
 * batch's tweaks made into next. */
AESX_INLINE void xts_batch_m(const __m128i *rk, unsigned nr, const AESX_V *tw, uint8_t *out,
                             const uint8_t *in, size_t n, int nv, int decrypt, xts_gpr *g, uint64_t *next)
{
    AESX_V b[AESX_NV];
    AESX_FITS(n, nv);
    ZERO_NV(b, AESX_NV);
    load_n(b, in, n);
    AESX_V k0 = AESX_KEY(rk, 0);
    for (int j = 0; j < nv; j++)
        b[j] = AESX_XOR3(b[j], tw[j], k0);
    if (g != NULL)
        xts_gpr_batch(g, next);
    if (decrypt)
        MIDDLE_ROUNDS(b, rk, nr, AESX_DEC);
    else
        MIDDLE_ROUNDS(b, rk, nr, AESX_ENC);
    AESX_V kl = AESX_KEY(rk, nr);
    for (int j = 0; j < nv; j++)
        b[j] = decrypt ? AESX_DECLAST(b[j], AESX_XOR(kl, tw[j])) : AESX_ENCLAST(b[j], AESX_XOR(kl, tw[j]));
    store_n(out, b, n);
}

/* A data unit of AESX_XTS_GPR_MIN blocks or more: two arrays of a batch's
 * tweaks, the first batch's from the vector code, then filled by the
 * chains in turn (see xts_gpr_batch); the chains' state stays in
 * registers, as the vector tweaks do. */
AESX_INLINE void xts_long(const __m128i *rk, unsigned nr, __m128i t0, uint8_t t[16], uint8_t *out,
                          const uint8_t *in, size_t nblocks, int decrypt)
{
    AESX_V twm[2][AESX_NV];
    xts_first_tweaks(twm[0], t0, AESX_NV);
    xts_gpr g;
    xts_gpr_start(&g, t0);
    int cur = 0;
    for (; nblocks > AESX_NBLK; nblocks -= AESX_NBLK, in += 16 * AESX_NBLK, out += 16 * AESX_NBLK) {
        xts_batch_m(rk, nr, twm[cur], out, in, AESX_NBLK, AESX_NV, decrypt, &g, (uint64_t *)twm[cur ^ 1]);
        cur ^= 1;
    }
#define XTS_LAST(n, nv) xts_batch_m(rk, nr, twm[cur], out, in, n, nv, decrypt, NULL, NULL)
    if (nblocks == AESX_NBLK)   /* a constant n: the loads and stores fold */
        XTS_LAST(AESX_NBLK, AESX_NV);
    else
        BATCH_FEWEST(nblocks, XTS_LAST);
#undef XTS_LAST
    xts_done(twm[cur], t, nblocks);
    xts_done_wipe(twm[0], AESX_NV);   /* both arrays */
    xts_done_wipe(twm[1], AESX_NV);
}
#endif

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
    xts_keys x;
    xts_keys_init(&x, rk, nr);
#define XTS_SHORT(n, nv) do { \
        xts_first_u(tw, t0, x.u, nv); \
        xts_batch(rk, nr, tw, &x, out, in, n, nv, decrypt, 0, 0); \
        xts_done_u(tw, x.u128, t, n); \
    } while (0)
    if (nblocks < AESX_NBLK) {
        BATCH_FEWEST(nblocks, XTS_SHORT);
        return;
    }
#undef XTS_SHORT
#ifdef AESX_XTS_GPR
    /* the chains pay off from AESX_XTS_GPR_MIN blocks (measured; a public
     * length) */
    if (nblocks >= AESX_XTS_GPR_MIN) {
        xts_long(rk, nr, t0, t, out, in, nblocks, decrypt);
        return;
    }
#endif
    xts_first_u(tw, t0, x.u, AESX_NV);
    /* the step chosen once per call (AESX_XTS_PACKED_WHEN: a public CPU
     * property); only the loop of whole batches is made twice */
#ifdef AESX_XTS_PACKED
    if (nblocks > AESX_NBLK && AESX_XTS_PACKED_WHEN()) {
        for (; nblocks > AESX_NBLK; nblocks -= AESX_NBLK, in += 16 * AESX_NBLK, out += 16 * AESX_NBLK)
            xts_batch(rk, nr, tw, &x, out, in, AESX_NBLK, AESX_NV, decrypt, 1, 1);
    }
#endif
    for (; nblocks > AESX_NBLK; nblocks -= AESX_NBLK, in += 16 * AESX_NBLK, out += 16 * AESX_NBLK)
        xts_batch(rk, nr, tw, &x, out, in, AESX_NBLK, AESX_NV, decrypt, 1, 0);
#define XTS_LAST(n, nv) xts_batch(rk, nr, tw, &x, out, in, n, nv, decrypt, 0, 0)
    if (nblocks == AESX_NBLK)   /* a constant n: the loads and stores fold */
        XTS_LAST(AESX_NBLK, AESX_NV);
    else
        BATCH_FEWEST(nblocks, XTS_LAST);
#undef XTS_LAST
    xts_done_u(tw, x.u128, t, nblocks);   /* the batches before set all of tw */
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
