/*
 * aes_arm_neon.c - constant-time AES-128/192/256 (FIPS 197) on NEON for ARM
 * cores without the crypto extensions (Cortex-A7 and A9 on 32-bit ARM;
 * Cortex-A53 and A72 parts without them, as on the Raspberry Pi 3 and 4).
 * Registry "aes", entry "neon", needs NEON; it sits after "ce", so it runs
 * only where the AES instructions are absent (or masked:
 * INCORE_CPU=-aes).  One source for AArch32 and AArch64: <arm_neon.h>
 * intrinsics both have; the table lookups (perm16, VP_LUT16, VP_LUT32)
 * have a TBL and a VTBL version.
 *
 * Bitsliced, eight blocks at a time (Kasper and Schwabe, "Faster and
 * Timing-Attack Resistant AES-GCM", CHES 2009, section 4, the layout of
 * their 128-bit SSE registers):
 *
 *  - eight 128-bit registers q[0..7]; q[b] holds bit b of all 8 x 16 state
 *    bytes.  Byte j of q[b] belongs to state byte j (FIPS 197 3.4: row
 *    j mod 4, column j / 4), and bit k of that byte to block k.  Loading is
 *    an 8x8 bit transpose per byte position across the eight block
 *    registers (three rounds of swapmove with byte-wise shifts), the same
 *    transpose as aes_ct64.c's, and its own inverse.
 *  - SubBytes is the Boyar-Peralta circuit of aes_ct64.c ("A depth-16
 *    circuit for the AES S-box", IACR ePrint 2011/332; 113 gates, 32 AND),
 *    one NEON instruction per gate doing 128 S-boxes, without its four NOTs:
 *    those add the constant 0x63 to every byte, which ShiftRows leaves in
 *    place and MixColumns maps to itself (02 ^ 03 ^ 01 ^ 01 = 01), so it is
 *    added to round keys 1..Nr once at key setup instead.  InvSubBytes is
 *    the same circuit between two copies of the linear part of the inverse
 *    affine map (as in aes_ct64.c); with 0x63 added to the byte before it
 *    (also folded into round keys 1..Nr: InvMixColumns maps 0x63 to itself
 *    too) the map's constant 0x05 cancels, so one folded schedule serves
 *    both directions and neither direction has a NOT.
 *  - ShiftRows is a byte permutation of each register (TBL on AArch64, two
 *    VTBL on AArch32).  MixColumns needs each column rotated by one and two
 *    bytes: on AArch64 the rotation by one is folded with ShiftRows into a
 *    second TBL from the same register; on AArch32 it is a 32-bit rotation
 *    (VSHL + VSRI).  The rotation by two is VREV32.16.  Multiplication by
 *    02 on bit planes moves plane i to i + 1 and folds plane 7 into planes
 *    0, 1, 3 and 4 (three XORs).  InvMixColumns is MixColumns after the
 *    pre-map of aes_ct64.c ((04 x^2 + 05) times MixColumns' polynomial).
 *  - Round keys are kept byte-wise (16 bytes a round, 0x63 folded in);
 *    the key storage (IC_AES_KEY_STORAGE) has no room for 128-byte
 *    bitsliced ones, so each round expands its key to bit planes with
 *    eight VTST against the constants 1, 2, .., 0x80 (0xFF in every byte
 *    whose bit b is set: the key bit for all eight blocks at once).
 *
 * Key expansion is ic_aes_key_words (aes_ct64.c: the FIPS 197 5.2
 * recurrence with SubWord through the bitsliced circuit, constant time).
 *
 * One block at a time, a vector-permute path after Hamburg
 * ("Accelerating AES with Vector Permute Instructions", CHES 2009): the
 * S-box as GF(2^4)^2 tower-field arithmetic, every step a 16-entry TBL /
 * VTBL lookup with a nibble as the index (vp_sub below).
 *
 * Modes: ECB, CTR, CBC and CFB decryption run eight blocks a bitsliced
 * pass; a batch of 5-7 takes the same pass with the unused lanes zero, one
 * of 1-4 the one-block path (NB_VP_MAX).  CBC and CFB encryption and OFB
 * are serial by definition and run the one-block path.  XTS and AES-GCM
 * run over ecb / ctr32 (xts.c, gcm.c), so their bulk is bitsliced; GCM
 * pairs with any GHASH, on these cores ghash/neon.  docs/backends.md ("AES
 * on NEON") has the instruction counts per block.
 *
 * Constant time.  Nothing branches on the key or the data, and no memory
 * address depends on them: loads and stores go to the caller's buffers and
 * the key storage at offsets given by the public block count and round
 * number.  TBL/VTBL take their index from a register and permute register
 * bytes; here the indices are constants anyway (ShiftRows), and the data
 * is the table, not the index.  VTST, VAND, VEOR, shifts and VREV take the
 * same time for any operands on the ARM cores (their latencies in the
 * Cortex-A7/A53/A72 optimisation guides have no operand-dependent case).
 * The one-block path does use secret indices, the state's nibbles, but
 * only as TBL/VTBL indices into tables held in registers: the tables are
 * loaded whole from fixed addresses once per call (on AArch32, with 16
 * Q registers, the compiler spills some to fixed stack slots and reloads
 * them whole: again no secret address), and a TBL's timing depends on the
 * number of table registers, never on the index values (an index past
 * the table gives 0 in the same time).  That is the vector-permute
 * argument of Hamburg's paper, and what sets it apart from a table-driven
 * AES, whose secret-indexed loads go through the data cache.
 * Intermediate state on the stack (partial batches, keystream) is wiped.
 */
#include "core/target.h"

#if IC_ARM_LE
IC_TARGET_BEGIN(IC_TARGET_ARM_NEON)
#include "aes/aes_impl.h"
#include "aes/aes_lanes.h"

#if !defined(__ARM_NEON) && !defined(__ARM_NEON__)
#error "aes_arm_neon.c needs NEON code generation (its IC_TARGET_BEGIN)"
#endif
#include <arm_neon.h>

#define NB_LANES 8 /* blocks per bitsliced pass */

typedef uint8x16_t v8;

/* What setkey keeps in k->storage: round key r (r >= 1 with 0x63 added to
 * every byte) as its 16 bytes in FIPS 197 order. */
typedef struct {
    uint8_t rk[15][16];
} neon_key;

_Static_assert(sizeof(neon_key) <= IC_AES_KEY_STORAGE, "neon AES key too large");

/* ---- byte permutations ---------------------------------------------------
 * Index tables, byte j of the result taking byte idx[j] of the input; state
 * byte j is row j % 4 of column j / 4.
 *   SR:     ShiftRows (5.1.2), row r of column c takes column c + r.
 *   ISR:    InvShiftRows (5.3.1), column c - r.
 *   SR_R8:  ShiftRows, then each column rotated by one byte (row r takes
 *           row r + 1): MixColumns' first rotation folded into ShiftRows. */
static const uint8_t idx_sr[16] = {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11};
static const uint8_t idx_isr[16] = {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3};
#if defined(__aarch64__)
static const uint8_t idx_sr_r8[16] = {5, 10, 15, 0, 9, 14, 3, 4, 13, 2, 7, 8, 1, 6, 11, 12};
static const uint8_t idx_r8[16] = {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12};
#endif

static inline v8 perm16(v8 x, v8 idx)
{
#if defined(__aarch64__)
    return vqtbl1q_u8(x, idx);
#else
    uint8x8x2_t t = {{vget_low_u8(x), vget_high_u8(x)}};
    return vcombine_u8(vtbl2_u8(t, vget_low_u8(idx)), vtbl2_u8(t, vget_high_u8(idx)));
#endif
}

/* Each column (32-bit lane, row 0 in the low byte) rotated so that row r
 * takes row r + 1: a right rotation by 8. */
static inline v8 rot_r8(v8 x)
{
#if defined(__aarch64__)
    return vqtbl1q_u8(x, vld1q_u8(idx_r8));
#else
    uint32x4_t w = vreinterpretq_u32_u8(x);
    return vreinterpretq_u8_u32(vsriq_n_u32(vshlq_n_u32(w, 24), w, 8));
#endif
}

/* Row r takes row r + 2. */
static inline v8 rot_r16(v8 x)
{
    return vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(x)));
}

/* ---- into and out of the bitsliced layout ------------------------------- */

#define SWAPMOVE(a, b, n, m)                                           \
    do {                                                               \
        v8 t_ = vandq_u8(veorq_u8(vshrq_n_u8((a), (n)), (b)), (m));    \
        (b) = veorq_u8((b), t_);                                       \
        (a) = veorq_u8((a), vshlq_n_u8(t_, (n)));                      \
    } while (0)

/* For every byte position, bit i of byte j of q[k] <-> bit k of byte j of
 * q[i]. */
static inline void transpose8(v8 q[8])
{
    const v8 m1 = vdupq_n_u8(0x55), m2 = vdupq_n_u8(0x33), m4 = vdupq_n_u8(0x0F);
    SWAPMOVE(q[0], q[1], 1, m1);
    SWAPMOVE(q[2], q[3], 1, m1);
    SWAPMOVE(q[4], q[5], 1, m1);
    SWAPMOVE(q[6], q[7], 1, m1);
    SWAPMOVE(q[0], q[2], 2, m2);
    SWAPMOVE(q[1], q[3], 2, m2);
    SWAPMOVE(q[4], q[6], 2, m2);
    SWAPMOVE(q[5], q[7], 2, m2);
    SWAPMOVE(q[0], q[4], 4, m4);
    SWAPMOVE(q[1], q[5], 4, m4);
    SWAPMOVE(q[2], q[6], 4, m4);
    SWAPMOVE(q[3], q[7], 4, m4);
}

/* ---- the round functions ------------------------------------------------ */

/* q ^= round key rk (16 bytes), each bit b spread to plane b: VTST gives
 * 0xFF in a byte whose bit b is set, i.e. the key bit in all eight lanes. */
static inline void add_round_key(v8 q[8], const uint8_t *rk)
{
    const v8 r = vld1q_u8(rk);
    q[0] = veorq_u8(q[0], vtstq_u8(r, vdupq_n_u8(0x01)));
    q[1] = veorq_u8(q[1], vtstq_u8(r, vdupq_n_u8(0x02)));
    q[2] = veorq_u8(q[2], vtstq_u8(r, vdupq_n_u8(0x04)));
    q[3] = veorq_u8(q[3], vtstq_u8(r, vdupq_n_u8(0x08)));
    q[4] = veorq_u8(q[4], vtstq_u8(r, vdupq_n_u8(0x10)));
    q[5] = veorq_u8(q[5], vtstq_u8(r, vdupq_n_u8(0x20)));
    q[6] = veorq_u8(q[6], vtstq_u8(r, vdupq_n_u8(0x40)));
    q[7] = veorq_u8(q[7], vtstq_u8(r, vdupq_n_u8(0x80)));
}

/* The S-box circuit of aes_ct64.c (Boyar-Peralta numbering: U0 is the most
 * significant input bit, S0 the most significant output bit) without the
 * NOTs of its output: the result is S(x) ^ 0x63 (header). */
static inline void sbox_nonot(v8 q[8])
{
#define BP_T v8
#include "aes/aes_sbox_bp.inc"
#undef BP_T
}

/* The linear part of the inverse affine map (FIPS 197 5.3.2),
 * b_i = b'_{i+2} ^ b'_{i+5} ^ b'_{i+7}; its constant 0x05 cancels against
 * the 0x63 folded into the round keys (header). */
static inline void inv_linear(v8 q[8])
{
    v8 a[8];
    for (int i = 0; i < 8; i++)
        a[i] = q[(i + 2) & 7] ^ q[(i + 5) & 7] ^ q[(i + 7) & 7];
    for (int i = 0; i < 8; i++)
        q[i] = a[i];
}

/* MixColumns (5.1.3) given s (the state) and n (s with every column
 * rotated so that row r holds row r + 1):
 * b_r = 2(a_r ^ a_{r+1}) ^ a_{r+1} ^ (a_{r+2} ^ a_{r+3}); with t = s ^ n
 * that is xtime(t) ^ n ^ rot16(t). */
static inline void mix_columns_sn(v8 q[8], const v8 s[8], const v8 n[8])
{
    v8 t[8];
    for (int i = 0; i < 8; i++)
        t[i] = s[i] ^ n[i];
    q[0] = t[7] ^ n[0] ^ rot_r16(t[0]);
    q[1] = t[0] ^ t[7] ^ n[1] ^ rot_r16(t[1]);
    q[2] = t[1] ^ n[2] ^ rot_r16(t[2]);
    q[3] = t[2] ^ t[7] ^ n[3] ^ rot_r16(t[3]);
    q[4] = t[3] ^ t[7] ^ n[4] ^ rot_r16(t[4]);
    q[5] = t[4] ^ n[5] ^ rot_r16(t[5]);
    q[6] = t[5] ^ n[6] ^ rot_r16(t[6]);
    q[7] = t[6] ^ n[7] ^ rot_r16(t[7]);
}

/* ShiftRows then MixColumns. */
static inline void shift_mix(v8 q[8])
{
    const v8 sr = vld1q_u8(idx_sr);
#if defined(__aarch64__)
    const v8 sr8 = vld1q_u8(idx_sr_r8);
#endif
    v8 s[8], n[8];
    for (int i = 0; i < 8; i++) {
        s[i] = perm16(q[i], sr);
#if defined(__aarch64__)
        n[i] = perm16(q[i], sr8);
#else
        n[i] = rot_r8(s[i]);
#endif
    }
    mix_columns_sn(q, s, n);
}

static inline void shift_rows(v8 q[8], const uint8_t idx[16])
{
    const v8 p = vld1q_u8(idx);
    for (int i = 0; i < 8; i++)
        q[i] = perm16(q[i], p);
}

/* InvMixColumns (5.3.3): MixColumns after a_r ^= 4(a_r ^ a_{r+2})
 * (aes_ct64.c, inv_mix_columns, has the derivation and the planes of 4u). */
static inline void inv_mix_columns(v8 q[8])
{
    v8 u[8], n[8];
    for (int i = 0; i < 8; i++)
        u[i] = q[i] ^ rot_r16(q[i]);
    q[0] ^= u[6];
    q[1] ^= u[6] ^ u[7];
    q[2] ^= u[0] ^ u[7];
    q[3] ^= u[1] ^ u[6];
    q[4] ^= u[2] ^ u[6] ^ u[7];
    q[5] ^= u[3] ^ u[7];
    q[6] ^= u[4];
    q[7] ^= u[5];
    for (int i = 0; i < 8; i++)
        n[i] = rot_r8(q[i]);
    mix_columns_sn(q, q, n);
}

/* Cipher (5.1) on eight bitsliced blocks. */
static void bs_encrypt(const neon_key *key, unsigned nr, v8 q[8])
{
    add_round_key(q, key->rk[0]);
    for (unsigned r = 1; r < nr; r++) {
        sbox_nonot(q);
        shift_mix(q);
        add_round_key(q, key->rk[r]);
    }
    sbox_nonot(q);
    shift_rows(q, idx_sr);
    add_round_key(q, key->rk[nr]);
}

/* InvCipher (5.3). */
static void bs_decrypt(const neon_key *key, unsigned nr, v8 q[8])
{
    add_round_key(q, key->rk[nr]);
    for (unsigned r = nr - 1; r > 0; r--) {
        shift_rows(q, idx_isr);
        inv_linear(q);
        sbox_nonot(q);
        inv_linear(q);
        add_round_key(q, key->rk[r]);
        inv_mix_columns(q);
    }
    shift_rows(q, idx_isr);
    inv_linear(q);
    sbox_nonot(q);
    inv_linear(q);
    add_round_key(q, key->rk[0]);
}

/* ---- one block: nibble lookups in a tower field --------------------------
 * For the serial modes (CBC and CFB encryption, OFB) and batches of up
 * to NB_VP_MAX blocks, where eight bitsliced lanes would do one block of
 * work each.  The vector-permute idea of Hamburg ("Accelerating AES with
 * Vector Permute Instructions", CHES 2009): map each byte of the state
 * into GF(2^4)[y]/(y^2 + y + lam), where inversion needs only GF(2^4)
 * operations, and do every one of those as a 16-entry table lookup with a
 * nibble as the index - a TBL (VTBL) with the table in registers.  The
 * field, the map and the inversion formula are this file's own (not
 * Hamburg's tables): aes_arm_neon_tables.py derives and checks them and
 * prints the initialisers below; its docstring has the algebra.  The
 * S-box then takes 13 lookups, one of them 32 entries wide (exp), and
 * comes out with 0x63 less, as the bitsliced one does, so both use the
 * same round keys.  InvSubBytes is the same inversion between other input
 * and output maps.  ShiftRows is one TBL before SubBytes (the two commute:
 * one moves bytes, the other maps each byte); MixColumns and its inverse
 * are the bitsliced formulas on bytes, xtime as a shift and a masked
 * 0x1b. */
typedef struct {
    uint8_t tlo[16], thi[16], dlo[16], dhi[16], log[16], linv[16], sql[16], sq[16];
    uint8_t ulo[16], uhi[16], olo[16], ohi[16], exp[32];
} vp_tables;

static const vp_tables vp_tab = {
    .tlo = {0x00, 0x01, 0x20, 0x21, 0x46, 0x47, 0x66, 0x67, 0x4c, 0x4d, 0x6c, 0x6d, 0x0a, 0x0b, 0x2a, 0x2b},
    .thi = {0x00, 0x3c, 0xd5, 0xe9, 0x34, 0x08, 0xe1, 0xdd, 0xe5, 0xd9, 0x30, 0x0c, 0xd1, 0xed, 0x04, 0x38},
    .dlo = {0x00, 0x58, 0x9f, 0xc7, 0x98, 0xc0, 0x07, 0x5f, 0x28, 0x70, 0xb7, 0xef, 0xb0, 0xe8, 0x2f, 0x77},
    .dhi = {0x00, 0x76, 0x79, 0x0f, 0xf9, 0x8f, 0x80, 0xf6, 0x92, 0xe4, 0xeb, 0x9d, 0x6b, 0x1d, 0x12, 0x64},
    .log = {0x20, 0x00, 0x01, 0x04, 0x02, 0x08, 0x05, 0x0a, 0x03, 0x0e, 0x09, 0x07, 0x06, 0x0d, 0x0b, 0x0c},
    .linv = {0x20, 0x00, 0x0e, 0x0b, 0x0d, 0x07, 0x0a, 0x05, 0x0c, 0x01, 0x06, 0x08, 0x09, 0x02, 0x04, 0x03},
    .sql = {0x00, 0x08, 0x06, 0x0e, 0x0b, 0x03, 0x0d, 0x05, 0x0a, 0x02, 0x0c, 0x04, 0x01, 0x09, 0x07, 0x0f},
    .sq = {0x00, 0x01, 0x04, 0x05, 0x03, 0x02, 0x07, 0x06, 0x0c, 0x0d, 0x08, 0x09, 0x0f, 0x0e, 0x0b, 0x0a},
    .ulo = {0x00, 0x1f, 0xb2, 0xad, 0xab, 0xb4, 0x19, 0x06, 0x36, 0x29, 0x84, 0x9b, 0x9d, 0x82, 0x2f, 0x30},
    .uhi = {0x00, 0x52, 0x3e, 0x6c, 0x65, 0x37, 0x5b, 0x09, 0x60, 0x32, 0x5e, 0x0c, 0x05, 0x57, 0x3b, 0x69},
    .olo = {0x00, 0x01, 0x5c, 0x5d, 0xe0, 0xe1, 0xbc, 0xbd, 0x50, 0x51, 0x0c, 0x0d, 0xb0, 0xb1, 0xec, 0xed},
    .ohi = {0x00, 0xa2, 0x02, 0xa0, 0xb8, 0x1a, 0xba, 0x18, 0xdb, 0x79, 0xd9, 0x7b, 0x63, 0xc1, 0x61, 0xc3},
    .exp = {0x01, 0x02, 0x04, 0x08, 0x03, 0x06, 0x0c, 0x0b, 0x05, 0x0a, 0x07, 0x0e, 0x0f, 0x0d, 0x09, 0x01, 0x02, 0x04, 0x08, 0x03, 0x06, 0x0c, 0x0b, 0x05, 0x0a, 0x07, 0x0e, 0x0f, 0x0d, 0x09, 0x00, 0x00},
};

/* The tables of one direction, in registers for a whole call.  On AArch32
 * a table is kept as the pair (four) of D registers VTBL names, so that no
 * lookup has to assemble its register list. */
#if defined(__aarch64__)
typedef v8 vp_t16;
typedef uint8x16x2_t vp_t32;
#define VP_T16(p) vld1q_u8(p)
static inline vp_t32 vp_t32_load(const uint8_t *p)
{
    vp_t32 t = {{vld1q_u8(p), vld1q_u8(p + 16)}};
    return t;
}
#define VP_LUT16(t, i) vqtbl1q_u8((t), (i))
#define VP_LUT32(t, i) vqtbl2q_u8((t), (i))
#else
typedef uint8x8x2_t vp_t16;
typedef uint8x8x4_t vp_t32;
static inline vp_t16 VP_T16(const uint8_t *p)
{
    vp_t16 t = {{vld1_u8(p), vld1_u8(p + 8)}};
    return t;
}
static inline vp_t32 vp_t32_load(const uint8_t *p)
{
    vp_t32 t = {{vld1_u8(p), vld1_u8(p + 8), vld1_u8(p + 16), vld1_u8(p + 24)}};
    return t;
}
static inline v8 VP_LUT16(vp_t16 t, v8 i)
{
    return vcombine_u8(vtbl2_u8(t, vget_low_u8(i)), vtbl2_u8(t, vget_high_u8(i)));
}
static inline v8 VP_LUT32(vp_t32 t, v8 i)
{
    return vcombine_u8(vtbl4_u8(t, vget_low_u8(i)), vtbl4_u8(t, vget_high_u8(i)));
}
#endif

typedef struct {
    vp_t16 inlo, inhi, log, linv, sql, sq, outlo, outhi;
    vp_t32 exp;   /* indices 32 and up give 0 (TBL and VTBL both) */
} vp_regs;

static inline void vp_load(vp_regs *t, int dec)
{
    t->inlo = VP_T16(dec ? vp_tab.dlo : vp_tab.tlo);
    t->inhi = VP_T16(dec ? vp_tab.dhi : vp_tab.thi);
    t->outlo = VP_T16(dec ? vp_tab.olo : vp_tab.ulo);
    t->outhi = VP_T16(dec ? vp_tab.ohi : vp_tab.uhi);
    t->log = VP_T16(vp_tab.log);
    t->linv = VP_T16(vp_tab.linv);
    t->sql = VP_T16(vp_tab.sql);
    t->sq = VP_T16(vp_tab.sq);
    t->exp = vp_t32_load(vp_tab.exp);
}

/* SubBytes less 0x63 (or InvSubBytes of x ^ 0x63, with the dec tables) on
 * all 16 bytes: into the tower field, (a1 y + a0 + a1) / D with
 * D = lam a1^2 + a1 a0 + a0^2 through logs, and out again. */
static inline v8 vp_sub(const vp_regs *t, v8 x)
{
    const v8 m = vdupq_n_u8(0x0F);
    const v8 a = VP_LUT16(t->inlo, vandq_u8(x, m)) ^ VP_LUT16(t->inhi, vshrq_n_u8(x, 4));
    const v8 a0 = vandq_u8(a, m), a1 = vshrq_n_u8(a, 4);
    const v8 l1 = VP_LUT16(t->log, a1), l0 = VP_LUT16(t->log, a0);
    const v8 d = VP_LUT16(t->sql, a1) ^ VP_LUT16(t->sq, a0) ^ VP_LUT32(t->exp, vaddq_u8(l1, l0));
    const v8 li = VP_LUT16(t->linv, d);
    const v8 b1 = VP_LUT32(t->exp, vaddq_u8(l1, li));
    const v8 b0 = VP_LUT32(t->exp, vaddq_u8(VP_LUT16(t->log, a0 ^ a1), li));
    return VP_LUT16(t->outlo, b0) ^ VP_LUT16(t->outhi, b1);
}

/* Multiplication by 02 of every byte. */
static inline v8 xtime(v8 x)
{
    const v8 hi = vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(x), 7));
    return vshlq_n_u8(x, 1) ^ vandq_u8(hi, vdupq_n_u8(0x1B));
}

static inline v8 vp_mix(v8 s)
{
    const v8 n = rot_r8(s), t = s ^ n;
    return xtime(t) ^ n ^ rot_r16(t);
}

static inline v8 vp_inv_mix(v8 s)
{
    return vp_mix(s ^ xtime(xtime(s ^ rot_r16(s))));
}

static inline v8 vp_encrypt(const vp_regs *t, const neon_key *key, unsigned nr, v8 s)
{
    const v8 sr = vld1q_u8(idx_sr);
    s ^= vld1q_u8(key->rk[0]);
    for (unsigned r = 1; r < nr; r++)
        s = vp_mix(vp_sub(t, perm16(s, sr))) ^ vld1q_u8(key->rk[r]);
    return vp_sub(t, perm16(s, sr)) ^ vld1q_u8(key->rk[nr]);
}

static inline v8 vp_decrypt(const vp_regs *t, const neon_key *key, unsigned nr, v8 s)
{
    const v8 isr = vld1q_u8(idx_isr);
    s ^= vld1q_u8(key->rk[nr]);
    for (unsigned r = nr - 1; r > 0; r--)
        s = vp_inv_mix(vp_sub(t, perm16(s, isr)) ^ vld1q_u8(key->rk[r]));
    return vp_sub(t, perm16(s, isr)) ^ vld1q_u8(key->rk[0]);
}

static inline const neon_key *nkey(const ic_aes_key *k)
{
    return (const neon_key *)(const void *)k->storage;
}

/* n blocks one at a time through the one-block path; out may equal in. */
static void vp_blocks(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t n, int dec)
{
    vp_regs t;
    vp_load(&t, dec);
    for (size_t i = 0; i < n; i++) {
        v8 s = vld1q_u8(in + 16 * i);
        s = dec ? vp_decrypt(&t, nkey(k), k->rounds, s) : vp_encrypt(&t, nkey(k), k->rounds, s);
        vst1q_u8(out + 16 * i, s);
    }
}

/* Batches of at most this many blocks take the one-block path: from
 * NB_VP_MAX + 1 blocks on, one bitsliced pass costs fewer instructions
 * than that many one-block passes (docs/backends.md, "AES on NEON"). */
#define NB_VP_MAX 4

/* n (1..8) blocks through the cipher (dec = 0) or its inverse; out may
 * equal in.  A short batch goes through a zero-padded copy. */
static void bs_blocks(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t n, int dec)
{
    v8 q[8];
    uint8_t buf[16 * NB_LANES];
    const uint8_t *src = in;
    if (n <= NB_VP_MAX) {
        vp_blocks(k, out, in, n, dec);
        return;
    }
    if (n < NB_LANES) {
        memset(buf, 0, sizeof buf);
        memcpy(buf, in, 16 * n);
        src = buf;
    }
    for (int i = 0; i < 8; i++)
        q[i] = vld1q_u8(src + 16 * i);
    transpose8(q);
    if (dec)
        bs_decrypt(nkey(k), k->rounds, q);
    else
        bs_encrypt(nkey(k), k->rounds, q);
    transpose8(q);
    if (n < NB_LANES) {
        for (int i = 0; i < 8; i++)
            vst1q_u8(buf + 16 * i, q[i]);
        memcpy(out, buf, 16 * n);
        ic_wipe(buf, sizeof buf);
    } else {
        for (int i = 0; i < 8; i++)
            vst1q_u8(out + 16 * i, q[i]);
    }
    for (int i = 0; i < 8; i++)
        q[i] = vdupq_n_u8(0);
}

/* ---- key schedule -------------------------------------------------------
 * KeyExpansion (FIPS 197 5.2) is ic_aes_key_words (aes_ct64.c: SubWord
 * through the bitsliced circuit on 64-bit words, constant time): 816
 * instructions for an AES-128 key on AArch64 under QEMU, where the same
 * recurrence with SubWord through vp_sub took 1566 (the lane moves in
 * and out of the vector unit cost more than the circuit).  Round keys
 * 1..Nr get 0x63 in every byte (header). */
static void neon_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    neon_key *nk = (neon_key *)(void *)k->storage;
    uint32_t w[4 * 15];
    const unsigned nr = (unsigned)(keylen / 4) + 6;
    ic_aes_key_words(w, key, keylen);
    k->rounds = nr;
    for (unsigned r = 0; r <= nr; r++)
        for (unsigned c = 0; c < 4; c++)
            ic_store32_le(nk->rk[r] + 4 * c, w[4 * r + c] ^ (r ? 0x63636363u : 0));
    ic_wipe(w, sizeof w);
}

/* ---- modes on whole blocks (argument checks and tails are in aes.c) ---- */


/* ECB, CBC/CFB decryption and CTR: eight bitsliced lanes (aes_lanes.h) */
AES_LANES_MODES(neon, bs_blocks, NB_LANES)

/* CBC (SP 800-38A 6.2) and CFB128 (6.3) encryption, serial, one block a
 * pass with the chaining value in a register:
 *   CBC: C_i = E(P_i ^ C_{i-1}),  CFB: C_i = P_i ^ E(C_{i-1}),  C_0 = IV. */
static void neon_serial_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks, int cfb)
{
    vp_regs t;
    v8 x = vld1q_u8(iv);
    vp_load(&t, 0);
    for (; nblocks; nblocks--, in += 16, out += 16) {
        const v8 p = vld1q_u8(in);
        if (cfb) {
            x = vp_encrypt(&t, nkey(k), k->rounds, x) ^ p;
        } else {
            x = vp_encrypt(&t, nkey(k), k->rounds, x ^ p);
        }
        vst1q_u8(out, x);
    }
    vst1q_u8(iv, x);
}

AES_LANES_SERIAL_MODES(neon, neon_serial_enc)

/* OFB (SP 800-38A 6.4), serial: O_i = E(O_{i-1}), C_i = P_i ^ O_i. */
static void neon_ofb(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                     size_t nblocks)
{
    vp_regs t;
    v8 o = vld1q_u8(iv);
    vp_load(&t, 0);
    for (; nblocks; nblocks--, in += 16, out += 16) {
        o = vp_encrypt(&t, nkey(k), k->rounds, o);
        vst1q_u8(out, vld1q_u8(in) ^ o);
    }
    vst1q_u8(iv, o);
}

static const ic_aes_ops neon_ops = {
    .setkey = neon_setkey,
    .ecb_enc = neon_ecb_enc,
    .ecb_dec = neon_ecb_dec,
    .cbc_enc = neon_cbc_enc,
    .cbc_dec = neon_cbc_dec,
    .ctr = neon_ctr,
    .ctr32 = neon_ctr32,
    .cfb_enc = neon_cfb_enc,
    .cfb_dec = neon_cfb_dec,
    .ofb = neon_ofb,
    .stitch = 0,
};

IC_BACKEND(aes, neon, IC_F(IC_CPU_NEON), &neon_ops);

IC_TARGET_END
#endif /* IC_ARM_LE */
