/*
 * aes_x86_ssse3.c - constant-time AES-128/192/256 on x86 CPUs without
 * AES-NI, with SSE2 and the SSSE3 byte permute PSHUFB: the "ssse3" entry
 * of ic_impls_aes (Core 2, Atoms before Silvermont, VIA Nano, Pentium and
 * Celeron models sold without AES-NI, virtual machines that hide it).
 *
 * The method is Hamburg's vector-permute AES ("Accelerating AES with
 * Vector Permute Instructions", CHES 2009).  PSHUFB is a 16-entry table
 * lookup per byte, done in registers: result byte b is T[idx_b & 15], or
 * 0 when bit 7 of idx_b is set.  A whole S-box does not fit in 16 entries,
 * but inversion in GF(2^8) can be written over GF(2^4), whose elements are
 * nibbles:
 *
 *   GF(2^8) = F(beta) with F = GF(2^4) the subfield of the AES field,
 *   beta^2 + beta + nu = 0 (nu = 8 in the nibble encoding below, a value
 *   of absolute trace 1, so the polynomial is irreducible over F), and
 *   {beta, beta^16} a normal basis: x = i*beta + j*beta^16 with i, j in F.
 *   Then N = x * x^16 = nu*k^2 + i*j with k = i + j, and
 *   x^-1 = x^16 / N = (j/N)*beta + (i/N)*beta^16.
 *
 * With only one-input functions of a nibble (a PSHUFB each) and XORs:
 *
 *   io = 1/(1/i + a/k) + j = N / (nu*k + i)      (a = 1/nu)
 *   jo = 1/(1/j + a/k) + i = N / (nu*k + j)
 *
 * so 1/io = ((nu+1)*i + nu*j)/N and 1/jo = (nu*i + (nu+1)*j)/N are linear
 * in the coordinates of x^-1 (the matrix [[nu+1, nu], [nu, nu+1]] has
 * determinant 1), and x^-1 = P(io) ^ Q(jo) for two nibble-indexed tables
 * (P(n) = pi1/n, Q(n) = pi2/n in the AES field, pi1 = nu*beta +
 * (nu+1)*beta^16, pi2 = (nu+1)*beta + nu*beta^16).  Zeros need no branch:
 * "1/0" is stored as 0x80 (bit 7 set), for which PSHUFB returns 0, the
 * right value of 1/infinity; the one case where two such values meet
 * (x = 0: 1/i and a/k both 0x80) XORs them to 0, whose inverse is 0x80
 * again, and x^-1 = 0 comes out of P and Q as 0 + 0.  The tables come
 * from src/aes/gen_ssse3_tables.py, which checks this inversion on all 256
 * inputs and runs FIPS 197 C.1 through a model of the code below.
 *
 * The state between rounds is kept in the coordinates the inversion
 * wants, byte = (i << 4) | k: a GF(2)-linear map T of the AES byte,
 * applied to the input with two nibble lookups.  Everything after the
 * inversion is linear too, so the output tables fold in the affine map of
 * SubBytes (its linear part), MixColumns' doubling and the map T back into
 * the state's coordinates: P and Q become s1 = T(A(z)) and s2 = T(2*A(z))
 * (z = x^-1, A the linear part of FIPS 197 5.1.1).  Constants do not
 * survive a table (PSHUFB gives 0 for 0x80, so no table can add one):
 * the 0x63 of the affine map is in the round keys instead (MixColumns maps
 * a column of four equal bytes c to itself, 2c+3c+c+c = c).  Decryption is
 * the Equivalent Inverse Cipher (FIPS 197 5.3.5), with the state held as
 * T(A^-1(y)) (the inverse affine map before the inversion), 0x05 of A^-1
 * in the round keys, and tables of 14z, 11z, 13z and 9z for
 * InvMixColumns.  MixColumns and InvMixColumns are three PSHUFB each, and
 * ShiftRows none (a rotating frame, at vp_enc below).  An encryption round
 * is 12 PSHUFB, a decryption round 16.
 *
 * Constant time: every lookup is a PSHUFB whose table is a constant in a
 * register and whose index is the secret, also in a register; no memory
 * address, branch or loop count depends on the key or the data (the only
 * branches are on lengths and the round count).  PSHUFB's latency and
 * throughput do not depend on its operands (a fixed-latency shuffle; the
 * instruction tables of Intel and of Agner Fog list one value per core).
 * The bitsliced path has no lookup at all.  The constant-time check
 * (tests/ct_check.c, under valgrind memcheck and MemorySanitizer) runs
 * this backend in every mode, and the bitsliced path with both of its key
 * forms.
 *
 * A round is one long dependency chain of PSHUFBs and XORs, so the modes
 * whose blocks are independent (ECB, CBC and CFB decryption, CTR, and XTS
 * through the generic driver's ECB batches) run four blocks interleaved.
 * CTR, ECB encryption and CFB decryption take eight blocks at a time
 * through a bitsliced path instead (bs_enc below): on the machine of
 * docs/backends.md it is as fast as the four interleaved blocks (2-3 %
 * ahead), and it needs one PSHUFB per bit plane and round where the
 * vector-permute round needs twelve per block, which is what counts on
 * the older cores where PSHUFB is several micro-ops.
 *
 * Only SSE2 and SSSE3 intrinsics on 128-bit registers: the file builds
 * for 32-bit x86 as it is (eight XMM registers there, so the compiler
 * spills the tables to the stack more, which costs loads, not safety).
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("ssse3")
#include <tmmintrin.h>
#include "aes/aes_x86.h"
#include "core/ct.h"

/* ---- tables ---------------------------------------------------------------
 * Nibble-indexed, computed from the definitions above by
 * src/aes/gen_ssse3_tables.py (field GF(2)[x] / (x^8+x^4+x^3+x+1) of
 * FIPS 197 4.2; F encoded in the basis 1, g, g^2, g^3 with g = 0x5c, a
 * root of z^4 + z + 1; nu = 8, beta = 0xa2).                               */
#define T16(...) { __VA_ARGS__ }
enum {
    TB_ENC_LO, TB_ENC_HI,      /* T(x) = enc_lo[x & 15] ^ enc_hi[x >> 4]          */
    TB_DEC_LO, TB_DEC_HI,      /* T(A^-1 x) without the 0x05: the decryption input  */
    TB_INV, TB_G,              /* 1/n and a/n in F, 0x80 for 1/0                   */
    TB_S1P, TB_S1Q, TB_S2P, TB_S2Q, /* T(A z), T(2 A z): encryption rounds      */
    TB_SOP, TB_SOQ,            /* A z in the AES basis: the last encryption round   */
    TB_D14P, TB_D14Q, TB_D11P, TB_D11Q, TB_D13P, TB_D13Q, TB_D9P, TB_D9Q,
                               /* T(A^-1 (m z)) for InvMixColumns                  */
    TB_DOP, TB_DOQ,            /* z in the AES basis: the last decryption round    */
    TB_SRPOW,                  /* 4 entries: ShiftRows to the power m = 0..3        */
    TB_CONJ = TB_SRPOW + 4,    /* 12 entries, 4(k - 1) + m: SR^-m o rot_k o SR^m      */
    TB_COUNT = TB_CONJ + 12
};
static const uint8_t vp_tab[TB_COUNT][16] __attribute__((aligned(16))) = {
    /* enc_lo */ T16(0x00, 0x10, 0x22, 0x32, 0x24, 0x34, 0x06, 0x16, 0x84, 0x94, 0xa6, 0xb6, 0xa0, 0xb0, 0x82, 0x92),
    /* enc_hi */ T16(0x00, 0xf3, 0x8d, 0x7e, 0x73, 0x80, 0xfe, 0x0d, 0xbe, 0x4d, 0x33, 0xc0, 0xcd, 0x3e, 0x40, 0xb3),
    /* dec_lo */ T16(0x00, 0xd5, 0x69, 0xbc, 0x19, 0xcc, 0x70, 0xa5, 0xa2, 0x77, 0xcb, 0x1e, 0xbb, 0x6e, 0xd2, 0x07),
    /* dec_hi */ T16(0x00, 0x17, 0xe7, 0xf0, 0x6f, 0x78, 0x88, 0x9f, 0xb9, 0xae, 0x5e, 0x49, 0xd6, 0xc1, 0x31, 0x26),
    /* inv    */ T16(0x80, 0x01, 0x09, 0x0e, 0x0d, 0x0b, 0x07, 0x06, 0x0f, 0x02, 0x0c, 0x05, 0x0a, 0x04, 0x03, 0x08),
    /* g      */ T16(0x80, 0x0f, 0x0e, 0x05, 0x07, 0x03, 0x0b, 0x04, 0x0a, 0x0d, 0x08, 0x06, 0x0c, 0x09, 0x02, 0x01),
    /* s1p    */ T16(0x00, 0xbb, 0xc0, 0xce, 0xe8, 0x5d, 0x0e, 0xb5, 0x75, 0x9d, 0x53, 0x93, 0xe6, 0x28, 0x26, 0x7b),
    /* s1q    */ T16(0x00, 0xda, 0xd9, 0xd1, 0x74, 0xa6, 0x08, 0xd2, 0x0b, 0x7f, 0xae, 0x77, 0x7c, 0xad, 0xa5, 0x03),
    /* s2p    */ T16(0x00, 0xb5, 0xbb, 0xab, 0x4f, 0xea, 0x10, 0xa5, 0x1e, 0x51, 0xfa, 0x41, 0x5f, 0xf4, 0xe4, 0x0e),
    /* s2q    */ T16(0x00, 0x49, 0x19, 0xa9, 0x2e, 0xd7, 0xb0, 0xf9, 0xe0, 0xce, 0x67, 0x7e, 0x9e, 0x37, 0x87, 0x50),
    /* sop    */ T16(0x00, 0x7b, 0xb0, 0x3d, 0x67, 0x91, 0x8d, 0xf6, 0x46, 0x21, 0x1c, 0xac, 0xea, 0xd7, 0x5a, 0xcb),
    /* soq    */ T16(0x00, 0x64, 0x99, 0x12, 0xe5, 0x0a, 0x8b, 0xef, 0x76, 0x93, 0x81, 0x18, 0x6e, 0x7c, 0xf7, 0xfd),
    /* d14p   */ T16(0x00, 0x1a, 0x15, 0x76, 0x12, 0x6b, 0x63, 0x79, 0x6c, 0x7e, 0x08, 0x1d, 0x71, 0x07, 0x64, 0x0f),
    /* d14q   */ T16(0x00, 0xc8, 0xc6, 0xee, 0x94, 0x74, 0x28, 0xe0, 0x26, 0xb2, 0x5c, 0x9a, 0xbc, 0x52, 0x7a, 0x0e),
    /* d11p   */ T16(0x00, 0x64, 0x0f, 0x1a, 0x07, 0x76, 0x15, 0x71, 0x7e, 0x79, 0x63, 0x6c, 0x12, 0x08, 0x1d, 0x6b),
    /* d11q   */ T16(0x00, 0x7a, 0x0e, 0xc8, 0x52, 0xee, 0xc6, 0xbc, 0xb2, 0xe0, 0x28, 0x26, 0x94, 0x5c, 0x9a, 0x74),
    /* d13p   */ T16(0x00, 0xc8, 0xc6, 0xee, 0x94, 0x74, 0x28, 0xe0, 0x26, 0xb2, 0x5c, 0x9a, 0xbc, 0x52, 0x7a, 0x0e),
    /* d13q   */ T16(0x00, 0xa6, 0x8f, 0x96, 0x66, 0xd9, 0x19, 0xbf, 0x30, 0x56, 0xc0, 0x4f, 0x7f, 0xe9, 0xf0, 0x29),
    /* d9p    */ T16(0x00, 0x2c, 0xa8, 0xf8, 0xdd, 0xa1, 0x50, 0x7c, 0xd4, 0x09, 0xf1, 0x59, 0x8d, 0x75, 0x25, 0x84),
    /* d9q    */ T16(0x00, 0x5b, 0x9e, 0x40, 0x60, 0xe5, 0xde, 0x85, 0x1b, 0x7b, 0x3b, 0xa5, 0xbe, 0xfe, 0x20, 0xc5),
    /* dop    */ T16(0x00, 0xf3, 0xc8, 0xdc, 0x2c, 0xcb, 0x14, 0xe7, 0x2f, 0x03, 0xdf, 0x17, 0x38, 0xe4, 0xf0, 0x3b),
    /* doq    */ T16(0x00, 0xf2, 0x99, 0x30, 0x9d, 0xc6, 0xa9, 0x5b, 0xc2, 0x5f, 0x6f, 0xf6, 0x34, 0x04, 0xad, 0x6b),
    /* Byte permutations, as PSHUFB indexes (result byte d = source byte
     * idx[d]); byte 4c+r of the state is row r of column c (FIPS 197 3.4).
     * SR^m, m = 0..3 (SR^1 is ShiftRows, SR^3 InvShiftRows): */
    T16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    T16(0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11),
    T16(0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12, 5, 14, 7),
    T16(0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3),
    /* rot_k (column rotated by k rows: byte r of a column gets byte r+k)
     * seen in the frame SR^m: SR^-m o rot_k o SR^m, entry 4(k - 1) + m
     * for k = 1..3, m = 0..3 */
    T16(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12),
    T16(5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0),
    T16(9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4),
    T16(13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8),
    T16(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13),
    T16(10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5),
    T16(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13),
    T16(10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5),
    T16(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14),
    T16(15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10),
    T16(11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6),
    T16(7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2),
};
/* T(0x63) and T(0x05): the affine constants, folded into the round keys */
#define VP_T63 0xcc
#define VP_T05 0x34

#define VP_INLINE static inline __attribute__((always_inline))
/* An empty asm on v: the compiler must take v as computed here, not
 * regroup the XORs around it.  Left out of MemorySanitizer builds, where an
 * asm would drop the secrets' taint (core/ct.h). */
#if defined(IC_MSAN)
#define VP_PIN(v) ((void)0)
#else
#define VP_PIN(v) __asm__("" : "+x"(v))
#endif
#define TAB(i) _mm_load_si128((const __m128i *)vp_tab[i])
#define SHUF(t, x) _mm_shuffle_epi8((t), (x))
#define XOR(a, b) _mm_xor_si128((a), (b))

/* Storage of an ic_aes_key: aes_x86.h (AES_X86_VP_*). */
#define VP_DK_OFF AES_X86_VP_DK_OFF

/* The linear map of a byte given by a (lo, hi) pair of nibble tables. */
VP_INLINE __m128i vp_map(__m128i x, __m128i lo, __m128i hi, __m128i m0f)
{
    return XOR(SHUF(lo, _mm_and_si128(x, m0f)), SHUF(hi, _mm_and_si128(_mm_srli_epi16(x, 4), m0f)));
}

/* The GF(2^8) inversion of the header: s holds (i << 4) | k per byte;
 * io, jo come back as nibbles, or with bit 7 set for "infinity". */
VP_INLINE void vp_inv(__m128i s, __m128i inv, __m128i g, __m128i m0f, __m128i *io, __m128i *jo)
{
    __m128i k = _mm_and_si128(s, m0f);
    /* (s & 0xf0) >> 4: no bits from the next byte, so no second mask; the
     * empty asm keeps the compiler from rewriting j = i ^ k below as
     * ((s ^ (s >> 4)) & 0x0f), one more operation */
    __m128i i = _mm_srli_epi32(_mm_andnot_si128(m0f, s), 4);
    VP_PIN(i);
    __m128i ak = SHUF(g, k);
    __m128i j = XOR(i, k);
    __m128i iak = XOR(SHUF(inv, i), ak);
    __m128i jak = XOR(SHUF(inv, j), ak);
    *io = XOR(SHUF(inv, iak), j);
    *jo = XOR(SHUF(inv, jak), i);
}

/* ShiftRows without a permute per round.  The state after round r is kept
 * in the frame SR^r: the register holds s' with s = SR^r(s') (Hamburg
 * keeps a rotating frame too).  The S-box is byte-wise, so it commutes
 * with any frame, and a round
 *     s_r = MC(SR(S(s_(r-1)))) ^ k_r,  MC(A) = 2A ^ rot1(3A) ^ rot2(A) ^ rot3(A)
 * becomes, with A, D = S(s'), 2 S(s') from the tables and M_k the rotation
 * rot_k seen in the frame SR^r (SR^-r o rot_k o SR^r, four sets by r mod 4):
 *     X = D ^ M_1(A),  s'_r = X ^ M_1(X) ^ M_3(A) ^ SR^-r(k_r)
 * (M_1(X) = 2 M_1(A) ^ M_2(A), since M_1 o M_1 = M_2: MC(A) = 2A ^ 3B ^
 * C ^ D with B, C, D the three rotations, as in Hamburg's code).  Three
 * permutes and six XORs after the four lookups: the fewest operations
 * found for a round, which is what counts on the cores measured (CBC
 * encryption, one block in flight, was slower with a shorter chain of
 * more operations: 3A from two more lookups, or the next block's input
 * map taken off the chain, docs/backends.md).  The round keys are stored
 * in their round's frame; the last round puts the state back with SR^Nr.
 * Decryption does the same with InvShiftRows (SR^-1) and InvMixColumns =
 * 14z ^ rot1(11z) ^ rot2(13z) ^ rot3(9z).
 *
 * n blocks (n a constant 1..4 after inlining), interleaved round by round. */

/* One middle round of vp_enc on n blocks; m1, m3 the rotations of the
 * round's frame. */
VP_INLINE void vp_enc_round(__m128i *x, int n, __m128i k, __m128i m1, __m128i m3, __m128i m0f, __m128i inv,
                            __m128i g)
{
    for (int b = 0; b < n; b++) {
        __m128i io, jo;
        vp_inv(x[b], inv, g, m0f, &io, &jo);
        __m128i a = XOR(SHUF(TAB(TB_S1P), io), SHUF(TAB(TB_S1Q), jo));
        __m128i d = XOR(SHUF(TAB(TB_S2P), io), SHUF(TAB(TB_S2Q), jo));
        __m128i xx = XOR(d, SHUF(a, m1));
        /* y first, M_1(X) last (the compiler would otherwise regroup the
         * XORs to end on M_1(X) ^ M_3(A), one step longer) */
        __m128i y = XOR(xx, XOR(SHUF(a, m3), k));
        VP_PIN(y);
        x[b] = XOR(y, SHUF(xx, m1));
    }
}

VP_INLINE void vp_enc(const ic_aes_key *key, __m128i *x, int n)
{
    const __m128i *rk = (const __m128i *)key->storage;
    const unsigned nr = key->rounds;
    const __m128i m0f = _mm_set1_epi8(0x0f), inv = TAB(TB_INV), g = TAB(TB_G);
    __m128i k = _mm_load_si128(rk);
    for (int b = 0; b < n; b++)
        x[b] = XOR(vp_map(x[b], TAB(TB_ENC_LO), TAB(TB_ENC_HI), m0f), k);
    const uint8_t *conj = vp_tab[TB_CONJ];
    for (unsigned r = 1, off = 16; r < nr; r++, off = (off + 16) & 48)
        vp_enc_round(x, n, _mm_load_si128(rk + r), _mm_load_si128((const __m128i *)(conj + off)),
                     _mm_load_si128((const __m128i *)(conj + 128 + off)), m0f, inv, g);
    const __m128i out = TAB(TB_SRPOW + (nr & 3));
    k = _mm_load_si128(rk + nr);
    for (int b = 0; b < n; b++) {
        __m128i io, jo;
        vp_inv(x[b], inv, g, m0f, &io, &jo);
        x[b] = XOR(SHUF(XOR(SHUF(TAB(TB_SOP), io), SHUF(TAB(TB_SOQ), jo)), out), k);
    }
}

/* Decryption's frame is SR^-r = SR^(4-r): its rotations are the encryption
 * ones of index (4 - r) mod 4. */
VP_INLINE void vp_dec(const ic_aes_key *key, __m128i *x, int n)
{
    const __m128i *rk = (const __m128i *)(key->storage + VP_DK_OFF);
    const unsigned nr = key->rounds;
    const __m128i m0f = _mm_set1_epi8(0x0f), inv = TAB(TB_INV), g = TAB(TB_G);
    __m128i k = _mm_load_si128(rk);
    for (int b = 0; b < n; b++)
        x[b] = XOR(vp_map(x[b], TAB(TB_DEC_LO), TAB(TB_DEC_HI), m0f), k);
    for (unsigned r = 1; r < nr; r++) {
        const unsigned m = (4 - r) & 3;
        const __m128i m1 = TAB(TB_CONJ + m), m2 = TAB(TB_CONJ + 4 + m), m3 = TAB(TB_CONJ + 8 + m);
        k = _mm_load_si128(rk + r);
        for (int b = 0; b < n; b++) {
            __m128i io, jo;
            vp_inv(x[b], inv, g, m0f, &io, &jo);
            __m128i t9 = XOR(SHUF(TAB(TB_D9P), io), SHUF(TAB(TB_D9Q), jo));
            __m128i t13 = XOR(SHUF(TAB(TB_D13P), io), SHUF(TAB(TB_D13Q), jo));
            __m128i t11 = XOR(SHUF(TAB(TB_D11P), io), SHUF(TAB(TB_D11Q), jo));
            __m128i t14 = XOR(SHUF(TAB(TB_D14P), io), SHUF(TAB(TB_D14Q), jo));
            __m128i t = XOR(SHUF(t11, m1), SHUF(t13, m2));
            x[b] = XOR(XOR(t, SHUF(t9, m3)), XOR(t14, k));
        }
    }
    const __m128i out = TAB(TB_SRPOW + ((4 - nr) & 3));
    k = _mm_load_si128(rk + nr);
    for (int b = 0; b < n; b++) {
        __m128i io, jo;
        vp_inv(x[b], inv, g, m0f, &io, &jo);
        x[b] = XOR(SHUF(XOR(SHUF(TAB(TB_DOP), io), SHUF(TAB(TB_DOQ), jo)), out), k);
    }
}

/* Counter blocks: the whole block as a 128-bit big-endian integer (ctr,
 * OpenSSL's CTR) or inc32 (SP 800-38D 6.2, GCM).  The counter is public
 * (the IV of the mode), and the carry is computed without a branch. */
VP_INLINE __m128i vp_counter_block(uint64_t *hi, uint64_t *lo, int inc32)
{
    /* byte 0 of the block is the most significant byte of hi */
    __m128i x = _mm_set_epi64x((long long)__builtin_bswap64(*lo), (long long)__builtin_bswap64(*hi));
    if (inc32) {
        *lo = (*lo & UINT64_C(0xFFFFFFFF00000000)) | (uint32_t)(*lo + 1);
    } else {
        *lo += 1;
        *hi += (uint64_t)(*lo == 0);
    }
    return x;
}

/* ---- bitsliced encryption of eight blocks ---------------------------------
 * For CTR, ECB encryption and CFB decryption of eight blocks or more: the
 * Kasper-Schwabe bitsliced AES of aes_x86_bs.inc on XMM registers (bs_enc,
 * bs_keys, bs_expand_keys).  About 25 vector instructions per block and
 * round, where the vector-permute round takes about 45 (with its register
 * copies). */
#define BS_V __m128i
#define BS_FN(name) bs_##name
#define BS_XOR(a, b) _mm_xor_si128((a), (b))
#define BS_AND(a, b) _mm_and_si128((a), (b))
#define BS_CMPEQ8(a, b) _mm_cmpeq_epi8((a), (b))
#define BS_ADD8(a, b) _mm_add_epi8((a), (b))
#define BS_SRLI64(x, n) _mm_srli_epi64((x), (n))
#define BS_SLLI64(x, n) _mm_slli_epi64((x), (n))
#define BS_SHUF8(x, i) _mm_shuffle_epi8((x), (i))
#define BS_ROT1(x) _mm_shuffle_epi32((x), 0x39)
#define BS_ROT2(x) _mm_shuffle_epi32((x), 0x4e)
#define BS_SET1_8(c) _mm_set1_epi8((char)(c))
#define BS_ZERO() _mm_setzero_si128()
#define BS_BCAST16(p) _mm_load_si128((const __m128i *)(const void *)(p))
#define BS_BLOCKS 8
/* Spreading the keys once costs about as much as two batches' worth of
 * spreading round by round; from four batches on it pays. */
#define BS_EXPAND_MIN 32
#define BS_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define BS_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define BS_LOAD_FIRST(prev, p) (prev)
#define BS_LAST(v) (v)
VP_INLINE void bs_counters(__m128i x[8], uint64_t *hi, uint64_t *lo, int inc32)
{
    for (int b = 0; b < 8; b++)
        x[b] = vp_counter_block(hi, lo, inc32);
}
#include "aes/aes_x86_bs.inc"

/* ---- key expansion (FIPS 197 5.2) -------------------------------------- */

/* SubWord of a word, through the S-box above (T, inversion, A, 0x63). */
static uint32_t vp_sub_word(uint32_t w)
{
    const __m128i m0f = _mm_set1_epi8(0x0f);
    __m128i io, jo;
    __m128i s = vp_map(_mm_cvtsi32_si128((int)w), TAB(TB_ENC_LO), TAB(TB_ENC_HI), m0f);
    vp_inv(s, TAB(TB_INV), TAB(TB_G), m0f, &io, &jo);
    s = XOR(XOR(SHUF(TAB(TB_SOP), io), SHUF(TAB(TB_SOQ), jo)), _mm_set1_epi8(0x63));
    return (uint32_t)_mm_cvtsi128_si32(s);
}

/* Doubling in GF(2^8) of each byte of a word, without a branch. */
static inline uint32_t vp_xtime4(uint32_t w)
{
    return ((w & 0x7f7f7f7fu) << 1) ^ (((w >> 7) & 0x01010101u) * 0x1bu);
}

static inline uint32_t vp_rotr(uint32_t w, unsigned n)
{
    return (w >> n) | (w << (32 - n));
}

/* InvMixColumns (FIPS 197 5.3.3) of one column, byte r of the column in
 * bits 8r..8r+7.  InvMixColumns = MixColumns o V with V adding 4*(a_r +
 * a_(r+2)) to a_r: the matrix {0e 0b 0d 09} is {02 03 01 01} times
 * {05 00 04 00}. */
static uint32_t vp_inv_mix_column(uint32_t w)
{
    w ^= vp_xtime4(vp_xtime4(w ^ vp_rotr(w, 16)));
    uint32_t r1 = vp_rotr(w, 8);
    return vp_xtime4(w ^ r1) ^ r1 ^ vp_rotr(w, 16) ^ vp_rotr(w, 24);
}

void ic_aes_x86_vp_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    uint32_t w[4 * 15];
    const unsigned nk = (unsigned)(keylen / 4), nr = nk + 6, nw = 4 * (nr + 1);
    uint32_t rcon = 1;
    for (unsigned i = 0; i < nk; i++)
        w[i] = ic_load32_le(key + 4 * i);
    for (unsigned i = nk; i < nw; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            /* RotWord moves byte 1 to byte 0: a right rotation here */
            t = vp_sub_word(vp_rotr(t, 8)) ^ rcon;
            rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11bu);
        } else if (nk > 6 && i % nk == 4) {
            t = vp_sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    k->rounds = nr;

    const __m128i m0f = _mm_set1_epi8(0x0f);
    const __m128i t63 = _mm_set1_epi8((char)VP_T63), t05 = _mm_set1_epi8((char)VP_T05);
    __m128i *ek = (__m128i *)k->storage, *dk = (__m128i *)(k->storage + VP_DK_OFF);
    /* encryption: T(w_0); T(w_r) ^ T(0x63) for the middle rounds, whose
     * S-box outputs come without the affine constant; w_Nr ^ 0x63 last */
    for (unsigned r = 0; r <= nr; r++) {
        __m128i rk = _mm_loadu_si128((const __m128i *)&w[4 * r]);
        if (r == nr)
            ek[r] = XOR(rk, _mm_set1_epi8(0x63));
        else   /* in the frame SR^r: SR^-r = SR^(4 - r) */
            ek[r] = SHUF(XOR(vp_map(rk, TAB(TB_ENC_LO), TAB(TB_ENC_HI), m0f), r ? t63 : _mm_setzero_si128()),
                         TAB(TB_SRPOW + ((4 - r) & 3)));
    }
    /* the bitsliced code's: w_r row by row, ^ 0x63 after the first */
    __m128i *bk = (__m128i *)(k->storage + AES_X86_VP_BS_OFF);
    for (unsigned r = 0; r <= nr; r++)
        bk[r] = XOR(SHUF(_mm_loadu_si128((const __m128i *)&w[4 * r]), _mm_load_si128((const __m128i *)bs_x86_perm[0])),
                    r ? _mm_set1_epi8(0x63) : _mm_setzero_si128());
    /* decryption (the Equivalent Inverse Cipher): the state is T(A^-1 y),
     * so a round key is T(A^-1 InvMixColumns(w_r)) plus T(0x05) for the
     * constant of A^-1; the first is w_Nr without InvMixColumns, the last
     * w_0 as it is, since the last tables give the plain byte */
    for (unsigned r = 0; r <= nr; r++) {
        const uint32_t *src = &w[4 * (nr - r)];
        if (r == nr) {
            dk[r] = _mm_loadu_si128((const __m128i *)src);
            continue;
        }
        uint32_t c[4];
        for (unsigned j = 0; j < 4; j++)
            c[j] = r ? vp_inv_mix_column(src[j]) : src[j];
        __m128i rk = _mm_loadu_si128((const __m128i *)c);
        /* in the frame SR^-r: (SR^-r)^-1 = SR^r */
        dk[r] = SHUF(XOR(vp_map(rk, TAB(TB_DEC_LO), TAB(TB_DEC_HI), m0f), t05), TAB(TB_SRPOW + (r & 3)));
        ic_wipe(c, sizeof c);
    }
    ic_wipe(w, sizeof w);
}

/* ---- modes on whole blocks (checks and tails are in aes.c) ------------- */

#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define ST(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))

/* The batches of the parallel modes: four blocks, then two, then one;
 * the body (the macro's argument) sees the batch size as the constant N. */
#define VP_BATCHES(...) \
    for (; nblocks >= 4; nblocks -= 4, in += 64, out += 64) { enum { N = 4 }; __VA_ARGS__ } \
    if (nblocks >= 2) { enum { N = 2 }; __VA_ARGS__ nblocks -= 2; in += 32; out += 32; } \
    if (nblocks) { enum { N = 1 }; __VA_ARGS__ }

void ic_aes_x86_vp_ecb_enc(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    size_t done = bs_ecb_groups(k, out, in, nblocks);
    nblocks -= done;
    in += 16 * done;
    out += 16 * done;
    VP_BATCHES({
        __m128i x[N];
        for (int b = 0; b < N; b++) x[b] = LD(in + 16 * b);
        vp_enc(k, x, N);
        for (int b = 0; b < N; b++) ST(out + 16 * b, x[b]);
    })
}

void ic_aes_x86_vp_ecb_dec(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    VP_BATCHES({
        __m128i x[N];
        for (int b = 0; b < N; b++) x[b] = LD(in + 16 * b);
        vp_dec(k, x, N);
        for (int b = 0; b < N; b++) ST(out + 16 * b, x[b]);
    })
}

/* SP 800-38A 6.2, serial: C_i = E(P_i ^ C_{i-1}), C_0 = IV. */
void ic_aes_x86_vp_cbc_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    __m128i x = LD(iv);
    for (; nblocks; nblocks--, in += 16, out += 16) {
        x = XOR(x, LD(in));
        vp_enc(k, &x, 1);
        ST(out, x);
    }
    ST(iv, x);
}

/* P_i = D(C_i) ^ C_{i-1}: parallel.  All ciphertext of a batch is loaded
 * before anything is stored, so out == in works. */
void ic_aes_x86_vp_cbc_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    __m128i prev = LD(iv);
    VP_BATCHES({
        __m128i x[N], c[N];
        for (int b = 0; b < N; b++) c[b] = x[b] = LD(in + 16 * b);
        vp_dec(k, x, N);
        ST(out, XOR(x[0], prev));
        for (int b = 1; b < N; b++) ST(out + 16 * b, XOR(x[b], c[b - 1]));
        prev = c[N - 1];
    })
    ST(iv, prev);
}

/* CFB128 (SP 800-38A 6.3): C_i = P_i ^ E(C_{i-1}); serial to encrypt,
 * parallel to decrypt. */
void ic_aes_x86_vp_cfb_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    __m128i x = LD(iv);
    for (; nblocks; nblocks--, in += 16, out += 16) {
        vp_enc(k, &x, 1);
        x = XOR(x, LD(in));
        ST(out, x);
    }
    ST(iv, x);
}

void ic_aes_x86_vp_cfb_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    __m128i prev = LD(iv);
    size_t done = bs_cfb_dec_groups(k, &prev, out, in, nblocks);
    nblocks -= done;
    in += 16 * done;
    out += 16 * done;
    VP_BATCHES({
        __m128i x[N], c[N];
        x[0] = prev;
        for (int b = 0; b < N; b++) c[b] = LD(in + 16 * b);
        for (int b = 1; b < N; b++) x[b] = c[b - 1];
        vp_enc(k, x, N);
        for (int b = 0; b < N; b++) ST(out + 16 * b, XOR(x[b], c[b]));
        prev = c[N - 1];
    })
    ST(iv, prev);
}

/* OFB (SP 800-38A 6.4), serial: O_i = E(O_{i-1}), C_i = P_i ^ O_i. */
void ic_aes_x86_vp_ofb(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    __m128i x = LD(iv);
    for (; nblocks; nblocks--, in += 16, out += 16) {
        vp_enc(k, &x, 1);
        ST(out, XOR(x, LD(in)));
    }
    ST(iv, x);
}

static void vp_ctr_any(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                       int inc32)
{
    uint64_t hi = ic_load64_be(ctr), lo = ic_load64_be(ctr + 8);
    size_t done = bs_ctr_groups(k, &hi, &lo, out, in, nblocks, inc32);
    nblocks -= done;
    in += 16 * done;
    out += 16 * done;
    VP_BATCHES({
        __m128i x[N];
        for (int b = 0; b < N; b++)
            x[b] = vp_counter_block(&hi, &lo, inc32);
        vp_enc(k, x, N);
        for (int b = 0; b < N; b++) ST(out + 16 * b, XOR(x[b], LD(in + 16 * b)));
    })
    ic_store64_be(ctr, hi);
    ic_store64_be(ctr + 8, lo);
}

void ic_aes_x86_vp_ctr(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    vp_ctr_any(k, ctr, out, in, nblocks, 0);
}

void ic_aes_x86_vp_ctr32(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    vp_ctr_any(k, ctr, out, in, nblocks, 1);
}

static const ic_aes_ops ssse3_ops = {
    .setkey = ic_aes_x86_vp_setkey,
    .ecb_enc = ic_aes_x86_vp_ecb_enc,
    .ecb_dec = ic_aes_x86_vp_ecb_dec,
    .cbc_enc = ic_aes_x86_vp_cbc_enc,
    .cbc_dec = ic_aes_x86_vp_cbc_dec,
    .ctr = ic_aes_x86_vp_ctr,
    .ctr32 = ic_aes_x86_vp_ctr32,
    .cfb_enc = ic_aes_x86_vp_cfb_enc,
    .cfb_dec = ic_aes_x86_vp_cfb_dec,
    .ofb = ic_aes_x86_vp_ofb,
    .xts = NULL,   /* xts.c runs XTS over ecb_enc / ecb_dec, four blocks at a time here */
    .stitch = 0,   /* GCM: CTR here, then GHASH by the ghash backend (gcm.c) */
};

IC_BACKEND(aes, ssse3, IC_F(IC_CPU_SSSE3), &ssse3_ops);

IC_TARGET_END
#endif
