/*
 * poly1305_x86_vec.h - the vector Poly1305 shared by poly1305_x86_avx2.c
 * (4 lanes) and poly1305_x86_avx512.c (8 lanes): complete L-decimation
 * Horner on five 26-bit limbs per lane, after Sarkar / Bhattacharyya,
 * "Improved SIMD Implementation of Poly1305" (M.Tech dissertation, ISI Kolkata).
 *
 * The math.  For a run of n blocks c_1..c_n and the accumulator h,
 *     h' = (h + c_1) r^n + c_2 r^(n-1) + ... + c_n r      (mod p = 2^130-5).
 * Prefix k = (-n) mod L zero blocks (a zero block in front contributes
 * nothing; the dissertation's section 4, "logically prepended zeros") and add h to c_1:
 * the run becomes G = (n + k) / L whole groups of L blocks, and lane j of
 * group g holds block gL + j.  Each lane then runs Horner in r^L,
 *     a_j = (((a_j + b_{0,j}) r^L + b_{1,j}) r^L + ... + b_{G-1,j}) r^(L-j)
 * where only the LAST multiplication uses the per-lane powers r^L, r^(L-1),
 * .., r^1, and h' is the sum of the lanes.  So every run, whatever its
 * length, is G vector multiply-accumulates and one horizontal sum: no
 * scalar head or tail, no re-packing of operands for a ragged end, which
 * is where 003 gains over Goll and Gueron's incomplete decimation (their
 * 4x130 multiply runs on whole groups, and a remainder of 1-3 blocks takes
 * a different path).  The powers r^1..r^L are computed once per key, at
 * the first run long enough to use them (a one-time AEAD key with a short
 * message never pays for them), with the vector multiply itself.
 *
 * Limbs.  A lane holds h (or a block) as five 26-bit limbs in 64-bit
 * words; VPMULUDQ multiplies the low 32 bits of each word, 26 x 29 bits
 * (r_j or s_j = 5 r_j: products at 2^130 and above fold with 2^130 = 5 mod
 * p).  Bounds: limbs of h stay < 2^26 + 2^11 after the carry chain below,
 * plus a block limb < 2^26 gives < 2^27.01; s_j < 2^28.33; five products
 * sum below 2^57.7, inside 64 bits.  The carry chain is the interleaved
 * one of Goll-Gueron (two chains, d0->d1->d2->d3 and d3->d4->d0*5->d1),
 * which leaves the limbs partially reduced, never exactly; the exact
 * reduction happens once, in finish.
 *
 * State.  The words 0..7 are those of the portable radix-2^64 code
 * (poly1305_c.c: h0 h1 h2 | r0 r1 s1 | s): runs shorter than PV_MIN_BLOCKS
 * go to that code, which is faster there (measured: docs/backends.md, Poly1305),
 * and the vector run converts h from and back to radix 2^64 at its ends.
 * Word 8 says which powers are ready (bit 0: r^1..r^L, bit 1: r^2L, for
 * the two-group steps of long runs); from byte 128: the limbs of r^L and
 * of r^2L (8 x 32 bits each) and from byte 192 the per-lane final powers
 * (5 limbs x L lanes x 32 bits, in lane order).
 *
 * Lane order.  Two loads of L/2 blocks each, unpacked 64-bit-wise inside
 * 128-bit lanes (VPUNPCK[LH]QDQ), give lane q the block at position
 * pos(q) = (q odd ? L/2 : 0) + q/2 of the group; rather than permute the
 * blocks, the final powers are stored in that lane order.
 *
 * Constant time: every run executes the same instructions for any key and
 * message of its length; the lane h goes into, the zero prefix and its
 * permutation table entry depend on n only; the final reduction is
 * poly1305_c.c's masked select.
 *
 * The includer defines PV (vector type), PV_L (lanes), PV_FN(name),
 * PV_MIN_BLOCKS and the operations on 64-bit lanes used below: PV_MSG
 * (a group split into 64-bit halves), PV_FIRST (the same for the first
 * group, moved k positions up with zeros below), PV_MASKED_SET1 (a value
 * in the lanes of a bit mask), PV_SELECT (lanes of a mask from one vector,
 * the rest from another), PV_BCAST0 / PV_LANE0 (lane 0 everywhere / as a
 * scalar), PV_STORE32 (the low 32 bits of each lane, packed), PV_HSUM
 * (sum of the lanes).
 */
#ifndef PV
#error "include from a backend that defines PV"
#endif

#include "poly1305/poly1305_impl.h"

#if !defined(IC_POLY1305_HAVE_C64)
#error "the x86-64 vector Poly1305 needs the radix-2^64 code (unsigned __int128)"
#endif

#define PV_INLINE static inline __attribute__((always_inline))
#define PV_M26 UINT64_C(0x3ffffff)

/* With PV_GG (the Goll-Gueron comparison entry, below) two more tables:
 * r^2, r in the lanes of positions 0, 1 and r in the lane of position 0. */
#if defined(PV_GG)
enum { PV_W_READY = 8, PV_B_RL = 128, PV_B_R2L = 160, PV_B_FIN = 192, PV_B_FIN2 = PV_B_FIN + 5 * 4 * PV_L,
       PV_B_FIN1 = PV_B_FIN2 + 5 * 4 * PV_L, PV_B_END = PV_B_FIN1 + 5 * 4 * PV_L };
#else
enum { PV_W_READY = 8, PV_B_RL = 128, PV_B_R2L = 160, PV_B_FIN = 192, PV_B_END = PV_B_FIN + 5 * 4 * PV_L };
#endif
_Static_assert(PV_B_END <= IC_POLY1305_STATE_SIZE, "state area too small");

typedef unsigned __int128 pv_u128;

/* ---- scalar helpers (once per key / per run) ------------------------------ */

/* 130-bit value h0 + h1 2^64 + h2 2^128 (h2 <= 3) as five 26-bit limbs. */
PV_INLINE void PV_FN(split)(uint64_t l[5], uint64_t h0, uint64_t h1, uint64_t h2)
{
    l[0] = h0 & PV_M26;
    l[1] = (h0 >> 26) & PV_M26;
    l[2] = (h0 >> 52 | h1 << 12) & PV_M26;
    l[3] = (h1 >> 14) & PV_M26;
    l[4] = h1 >> 40 | h2 << 24;
}

PV_INLINE unsigned PV_FN(pos)(unsigned q) { return (q & 1) * (PV_L / 2) + q / 2; }
PV_INLINE unsigned PV_FN(lane)(unsigned b) { return b < PV_L / 2 ? 2 * b : 2 * (b - PV_L / 2) + 1; }

/* ---- vector pieces ------------------------------------------------------- */

/* h += one group of L blocks split into 64-bit halves lo, hi (lane q:
 * block pos(q)); hib = the 2^128 bit as 1 << 24 in limb 4 (0 in a lane
 * that holds a prefixed zero). */
PV_INLINE void PV_FN(absorb)(PV h[5], PV lo, PV hi, PV hib)
{
    const PV m26 = PV_SET1(PV_M26);
    h[0] = PV_ADD(h[0], PV_AND(lo, m26));
    h[1] = PV_ADD(h[1], PV_AND(PV_SRL(lo, 26), m26));
    h[2] = PV_ADD(h[2], PV_AND(PV_OR(PV_SRL(lo, 52), PV_SLL(hi, 12)), m26));
    h[3] = PV_ADD(h[3], PV_AND(PV_SRL(hi, 14), m26));
    h[4] = PV_ADD(h[4], PV_OR(PV_SRL(hi, 40), hib));
}

/* h = h r lane by lane (r, and s = 5 r in s[1..4]), then the carry chain. */
PV_INLINE void PV_FN(mul)(PV h[5], const PV r[5], const PV s[5])
{
    PV d0 = PV_ADD(PV_ADD(PV_MUL(h[0], r[0]), PV_MUL(h[1], s[4])),
                   PV_ADD(PV_ADD(PV_MUL(h[2], s[3]), PV_MUL(h[3], s[2])), PV_MUL(h[4], s[1])));
    PV d1 = PV_ADD(PV_ADD(PV_MUL(h[0], r[1]), PV_MUL(h[1], r[0])),
                   PV_ADD(PV_ADD(PV_MUL(h[2], s[4]), PV_MUL(h[3], s[3])), PV_MUL(h[4], s[2])));
    PV d2 = PV_ADD(PV_ADD(PV_MUL(h[0], r[2]), PV_MUL(h[1], r[1])),
                   PV_ADD(PV_ADD(PV_MUL(h[2], r[0]), PV_MUL(h[3], s[4])), PV_MUL(h[4], s[3])));
    PV d3 = PV_ADD(PV_ADD(PV_MUL(h[0], r[3]), PV_MUL(h[1], r[2])),
                   PV_ADD(PV_ADD(PV_MUL(h[2], r[1]), PV_MUL(h[3], r[0])), PV_MUL(h[4], s[4])));
    PV d4 = PV_ADD(PV_ADD(PV_MUL(h[0], r[4]), PV_MUL(h[1], r[3])),
                   PV_ADD(PV_ADD(PV_MUL(h[2], r[2]), PV_MUL(h[3], r[1])), PV_MUL(h[4], r[0])));
    const PV m26 = PV_SET1(PV_M26);
    PV c;
    c = PV_SRL(d0, 26); d0 = PV_AND(d0, m26); d1 = PV_ADD(d1, c);
    c = PV_SRL(d3, 26); d3 = PV_AND(d3, m26); d4 = PV_ADD(d4, c);
    c = PV_SRL(d1, 26); d1 = PV_AND(d1, m26); d2 = PV_ADD(d2, c);
    c = PV_SRL(d4, 26); d4 = PV_AND(d4, m26); d0 = PV_ADD(d0, PV_ADD(c, PV_SLL(c, 2)));
    c = PV_SRL(d2, 26); d2 = PV_AND(d2, m26); d3 = PV_ADD(d3, c);
    c = PV_SRL(d0, 26); d0 = PV_AND(d0, m26); d1 = PV_ADD(d1, c);
    c = PV_SRL(d3, 26); d3 = PV_AND(d3, m26); d4 = PV_ADD(d4, c);
    h[0] = d0; h[1] = d1; h[2] = d2; h[3] = d3; h[4] = d4;
}

/* h = h R + b Q (R = r^2L, Q = r^L): two Horner steps with ONE carry
 * chain; each d_k sums ten products < 2^55.34, below 2^58.7, and the
 * chain leaves the limbs as mul does.  b (a group's limbs, added to
 * nothing) does not depend on h, so its products run ahead of the chain. */
PV_INLINE void PV_FN(mul2)(PV h[5], const PV b[5], const PV R[5], const PV SR[5], const PV Q[5], const PV SQ[5])
{
#define PV_DOT(x, r, s, a0, a1, a2, a3, a4) PV_ADD(PV_ADD(PV_MUL(x[0], a0), PV_MUL(x[1], a1)), \
                                                   PV_ADD(PV_ADD(PV_MUL(x[2], a2), PV_MUL(x[3], a3)), PV_MUL(x[4], a4)))
    PV d0 = PV_ADD(PV_DOT(b, Q, SQ, Q[0], SQ[4], SQ[3], SQ[2], SQ[1]), PV_DOT(h, R, SR, R[0], SR[4], SR[3], SR[2], SR[1]));
    PV d1 = PV_ADD(PV_DOT(b, Q, SQ, Q[1], Q[0], SQ[4], SQ[3], SQ[2]), PV_DOT(h, R, SR, R[1], R[0], SR[4], SR[3], SR[2]));
    PV d2 = PV_ADD(PV_DOT(b, Q, SQ, Q[2], Q[1], Q[0], SQ[4], SQ[3]), PV_DOT(h, R, SR, R[2], R[1], R[0], SR[4], SR[3]));
    PV d3 = PV_ADD(PV_DOT(b, Q, SQ, Q[3], Q[2], Q[1], Q[0], SQ[4]), PV_DOT(h, R, SR, R[3], R[2], R[1], R[0], SR[4]));
    PV d4 = PV_ADD(PV_DOT(b, Q, SQ, Q[4], Q[3], Q[2], Q[1], Q[0]), PV_DOT(h, R, SR, R[4], R[3], R[2], R[1], R[0]));
#undef PV_DOT
    const PV m26 = PV_SET1(PV_M26);
    PV c;
    c = PV_SRL(d0, 26); d0 = PV_AND(d0, m26); d1 = PV_ADD(d1, c);
    c = PV_SRL(d3, 26); d3 = PV_AND(d3, m26); d4 = PV_ADD(d4, c);
    c = PV_SRL(d1, 26); d1 = PV_AND(d1, m26); d2 = PV_ADD(d2, c);
    c = PV_SRL(d4, 26); d4 = PV_AND(d4, m26); d0 = PV_ADD(d0, PV_ADD(c, PV_SLL(c, 2)));
    c = PV_SRL(d2, 26); d2 = PV_AND(d2, m26); d3 = PV_ADD(d3, c);
    c = PV_SRL(d0, 26); d0 = PV_AND(d0, m26); d1 = PV_ADD(d1, c);
    c = PV_SRL(d3, 26); d3 = PV_AND(d3, m26); d4 = PV_ADD(d4, c);
    h[0] = d0; h[1] = d1; h[2] = d2; h[3] = d3; h[4] = d4;
}

/* r (broadcast or per lane) and s = 5 r from 32-bit limbs at p, lane-wise
 * (per_lane) or one value for all lanes. */
PV_INLINE void PV_FN(load_r)(PV r[5], PV s[5], const uint8_t *p, int per_lane)
{
    for (int i = 0; i < 5; i++) {
        if (per_lane)
            r[i] = PV_LOAD32(p + 4 * PV_L * i);
        else {
            uint32_t v;
            memcpy(&v, p + 4 * i, 4);
            r[i] = PV_SET1(v);
        }
        s[i] = PV_ADD(r[i], PV_SLL(r[i], 2));
    }
}

/* r^1..r^L, once per key, with the vector multiply itself: lane q needs
 * r^(L - pos(q)) (L = 4: lanes hold r^4 r^2 r^3 r; L = 8: r^8 r^4 r^7 r^3
 * r^6 r^2 r^5 r), which two (three) lane-wise multiplications by r, by 1
 * (the limbs 1,0,0,0,0) or by a power broadcast from lane 0 reach:
 *   L = 4: [2 2 2 1] -> [4 2 3 1]
 *   L = 8: [2 2 2 2 2 2 1 1] -> [4 4 3 3 2 2 1 1] -> [8 4 7 3 6 2 5 1]
 * (exponents per lane).  About 3x cheaper than scalar products: a one-time
 * AEAD key pays this before its first vector run, so it is on the path of
 * every medium-length message.  The powers stay partially reduced like h
 * (limbs < 2^26 + 2^11), which the bounds above allow (s_j < 2^28.33). */
PV_INLINE void PV_FN(vmul)(PV a[5], const PV b[5])
{
    PV s[5];
    for (int i = 0; i < 5; i++)
        s[i] = PV_ADD(b[i], PV_SLL(b[i], 2));
    PV_FN(mul)(a, b, s);
}

/* out = lanes in mask from a, the others from b */
PV_INLINE void PV_FN(vsel)(PV out[5], unsigned mask, const PV a[5], const PV b[5])
{
    for (int i = 0; i < 5; i++)
        out[i] = PV_SELECT(mask, a[i], b[i]);
}

static void PV_FN(powers)(uint64_t *st)
{
    uint64_t l[5];
    uint32_t rl[8] = { 0 };
    PV r[5], one[5], v[5], m[5], t[5];
    PV_FN(split)(l, st[3], st[4], 0);
    for (int i = 0; i < 5; i++) {
        r[i] = PV_SET1(l[i]);
        one[i] = PV_SET1(i == 0);
    }
#if PV_L == 4
    PV_FN(vsel)(m, 0x7, r, one);                  /* [2 2 2 1] */
    for (int i = 0; i < 5; i++) v[i] = r[i];
    PV_FN(vmul)(v, m);
#if defined(PV_GG)
    PV r2[5];
    for (int i = 0; i < 5; i++) r2[i] = PV_BCAST0(v[i]);
#endif
    for (int i = 0; i < 5; i++) t[i] = PV_BCAST0(v[i]);
    PV_FN(vsel)(m, 0x1, t, one);                  /* [4 2 3 1] */
    PV_FN(vsel)(m, 0x4, r, m);
    PV_FN(vmul)(v, m);
#elif PV_L == 8
    PV_FN(vsel)(m, 0x3f, r, one);                 /* [2 2 2 2 2 2 1 1] */
    for (int i = 0; i < 5; i++) v[i] = r[i];
    PV_FN(vmul)(v, m);
    for (int i = 0; i < 5; i++) t[i] = PV_BCAST0(v[i]);
    PV_FN(vsel)(m, 0x3, t, one);                  /* [4 4 3 3 2 2 1 1] */
    PV_FN(vsel)(m, 0xc, r, m);
    PV_FN(vmul)(v, m);
    for (int i = 0; i < 5; i++) t[i] = PV_BCAST0(v[i]);
    PV_FN(vsel)(m, 0x55, t, one);                 /* [8 4 7 3 6 2 5 1] */
    PV_FN(vmul)(v, m);
#else
#error "PV_L must be 4 or 8"
#endif
    for (int i = 0; i < 5; i++) {
        rl[i] = (uint32_t)PV_LANE0(v[i]);          /* position 0: r^L */
        PV_STORE32((uint8_t *)st + PV_B_FIN + 4 * PV_L * i, v[i]);
#if defined(PV_GG)
        /* r^2, r at positions 0, 1 (lanes 0, 2); r alone at position 0 */
        PV_STORE32((uint8_t *)st + PV_B_FIN2 + 4 * PV_L * i, PV_SELECT(0x1, r2[i], r[i]));
        PV_STORE32((uint8_t *)st + PV_B_FIN1 + 4 * PV_L * i, r[i]);
#endif
    }
    memcpy((uint8_t *)st + PV_B_RL, rl, sizeof rl);
    st[PV_W_READY] = 1;
    ic_wipe(l, sizeof l);
    ic_wipe(rl, sizeof rl);
}

/* r^2L = (r^L)^2 for the two-group steps, computed at the first run
 * that has two steps to pair (READY bit 1), so medium runs never pay. */
static void PV_FN(power2l)(uint64_t *st)
{
    PV t[5], u[5], s5[5];
    uint32_t r2l[8] = { 0 };
    PV_FN(load_r)(t, s5, (const uint8_t *)st + PV_B_RL, 0);
    for (int i = 0; i < 5; i++)
        u[i] = t[i];
    PV_FN(vmul)(t, u);
    for (int i = 0; i < 5; i++)
        r2l[i] = (uint32_t)PV_LANE0(t[i]);
    memcpy((uint8_t *)st + PV_B_R2L, r2l, sizeof r2l);
    ic_wipe(r2l, sizeof r2l);
    st[PV_W_READY] |= 2;
}

/* `steps` Horner steps h = h r^L + (next group at in), h holding the
 * groups so far (absorbed, not yet multiplied); pairs of steps as one
 * mul2 (h r^2L + group r^L, one carry chain).  Returns in past them. */
PV_INLINE const uint8_t *PV_FN(steps)(uint64_t *st, PV h[5], const uint8_t *in, size_t steps, PV hib,
                                      const PV rl[5], const PV sl[5])
{
    PV lo, hi;
    /* pairing needs r^2L, one more dependent product per key: worth it
     * from about six steps (measured), or when a run before computed it */
    if (steps < 6 && !(st[PV_W_READY] & 2)) {
        for (; steps != 0; steps--, in += 16 * PV_L) {
            PV_FN(mul)(h, rl, sl);
            PV_MSG(in, lo, hi);
            PV_FN(absorb)(h, lo, hi, hib);
        }
    }
    if (steps & 1) {
        PV_FN(mul)(h, rl, sl);
        PV_MSG(in, lo, hi);
        PV_FN(absorb)(h, lo, hi, hib);
        in += 16 * PV_L;
        steps--;
    }
    if (steps != 0) {
        PV r2[5], s2[5], b[5];
        if (!(st[PV_W_READY] & 2))
            PV_FN(power2l)(st);
        PV_FN(load_r)(r2, s2, (const uint8_t *)st + PV_B_R2L, 0);
        for (; steps != 0; steps -= 2) {
            for (int i = 0; i < 5; i++)
                b[i] = PV_SET1(0);
            PV_MSG(in, lo, hi);
            PV_FN(absorb)(b, lo, hi, hib);
            PV_FN(mul2)(h, b, r2, s2, rl, sl);
            PV_MSG(in + 16 * PV_L, lo, hi);
            PV_FN(absorb)(h, lo, hi, hib);
            in += 32 * PV_L;
        }
    }
    return in;
}

/* ---- the backend ops ------------------------------------------------------ */

static void PV_FN(init)(uint64_t *st, const uint8_t key[32])
{
    ic_poly1305_c64_ops.init(st, key);
    st[PV_W_READY] = 0;
}

/* A run shorter than one group (only with a crossover below L,
 * IC_POLY1305_AVX2_MIN): PV_FIRST would read past its end, so the
 * zero-prefixed group is built in a stack copy.  Out of line, so the
 * common path keeps a small stack frame. */
static __attribute__((noinline)) void PV_FN(short_first)(const uint8_t *in, size_t n, unsigned k, PV *lo, PV *hi)
{
    _Alignas(64) uint8_t first[16 * PV_L];
    PV a, b;
    memset(first, 0, 16 * k);
    memcpy(first + 16 * k, in, 16 * n);
    PV_MSG(first, a, b);
    *lo = a;
    *hi = b;
    ic_wipe(first, sizeof first);
}

/* Lane sums l (five radix-2^26 limbs, each below 2^30) to the radix-2^64
 * state words (ic_poly1305_fold_store). */
PV_INLINE void PV_FN(to64)(uint64_t *st, const uint64_t l[5])
{
    pv_u128 a = (pv_u128)l[0] + ((pv_u128)l[1] << 26) + ((pv_u128)l[2] << 52);
    uint64_t h0 = (uint64_t)a;
    a = (a >> 64) + ((pv_u128)l[3] << 14) + ((pv_u128)l[4] << 40);
    ic_poly1305_fold_store(st, h0, (uint64_t)a, (uint64_t)(a >> 64));
}

static void PV_FN(blocks)(uint64_t *st, const uint8_t *in, size_t n, unsigned hibit)
{
    if (n < PV_MIN_BLOCKS) {
        ic_poly1305_c64_ops.blocks(st, in, n, hibit);
        return;
    }
    if (!(st[PV_W_READY] & 1))
        PV_FN(powers)(st);

    size_t groups = (n + PV_L - 1) / PV_L;
    unsigned k = (unsigned)(groups * PV_L - n);       /* prefixed zero blocks */
    uint64_t l[5];
    PV h[5], rl[5], sl[5], rf[5], sf[5], lo, hi;

    PV_FN(load_r)(rl, sl, (const uint8_t *)st + PV_B_RL, 0);
    PV_FN(load_r)(rf, sf, (const uint8_t *)st + PV_B_FIN, 1);

    /* h goes into the lane of position k, the first real block; the lanes
     * of the prefixed zeros get neither data nor the 2^128 bit.  The first
     * group is the first L blocks of the run moved k positions up
     * (PV_FIRST: a lane permutation by a table indexed by k, public), so
     * nothing is copied and nothing before in is read. */
    PV_FN(split)(l, st[0], st[1], st[2]);
    const PV hib = PV_SET1((uint64_t)hibit << 24);
    if (k == 0) {
        /* no prefix: h in lane 0 (position 0), the first group as it is */
        for (int i = 0; i < 5; i++)
            h[i] = PV_MASKED_SET1(1u, l[i]);
        PV_MSG(in, lo, hi);
        PV_FN(absorb)(h, lo, hi, hib);
    } else {
        unsigned bmask = 0;
        for (unsigned b = k; b < PV_L; b++)
            bmask |= 1u << PV_FN(lane)(b);
        for (int i = 0; i < 5; i++)
            h[i] = PV_MASKED_SET1(1u << PV_FN(lane)(k), l[i]);
        if (n >= PV_L)
            PV_FIRST(in, k, lo, hi);
        else
            PV_FN(short_first)(in, n, k, &lo, &hi);
        PV_FN(absorb)(h, lo, hi, PV_MASKED_SET1(bmask, (uint64_t)hibit << 24));
    }
    in += 16 * (PV_L - k);
    /* groups - 1 Horner steps, then the per-lane final powers */
    in = PV_FN(steps)(st, h, in, groups - 1, hib, rl, sl);
    PV_FN(mul)(h, rf, sf);

    /* sum of the lanes (limbs < L (2^26 + 2^11) < 2^30), to radix 2^64 */
    for (int i = 0; i < 5; i++)
        l[i] = PV_HSUM(h[i]);
    PV_FN(to64)(st, l);
    ic_wipe(l, sizeof l);
}

#if defined(PV_GG)
/* ---- Goll-Gueron incomplete decimation, for comparison ----
 * "Vectorization of Poly1305 message authentication code" (Goll and
 * Gueron, ITNG 2015) as section 3.3 of the dissertation describes it: 4-decimation Horner
 * over the whole groups of four blocks from the start of the run (h added
 * to the first block), then the 1-3 blocks left over as separate,
 * freshly packed vector multiplications:
 *     2 left: P = (P + M1) r^2 + M2 r          (one packing)
 *     1 left: P = (P + M1) r                   (one packing)
 *     3 left: the 2 case, then the 1 case      (two packings)
 * Each packing is a horizontal sum of the lanes, a carry to radix 2^64
 * and back into limbs, a 64-byte stack copy of the blocks, and one more
 * vector multiply: the cost complete decimation removes.  Same limbs,
 * multiply, bounds and scalar crossover as the complete code above, so
 * the two differ only in what 003 compares.  Never the default: "avx2-gg"
 * is registered after "avx2", which needs the same features. */
/* P = (P + M_0) f_0 + ... + M_(c-1) f_(c-1) for c = 1 or 2 blocks at in,
 * f = the table at byte offset tab (positions 0 and 1). */
static void PV_FN(gg_tail)(uint64_t *st, const uint8_t *in, unsigned c, unsigned hibit, size_t tab)
{
    _Alignas(64) uint8_t buf[16 * PV_L];
    uint64_t l[5];
    PV h[5], rf[5], sf[5], lo, hi;
    memset(buf, 0, sizeof buf);
    memcpy(buf, in, 16 * c);
    PV_FN(load_r)(rf, sf, (const uint8_t *)st + tab, 1);
    PV_FN(split)(l, st[0], st[1], st[2]);
    for (int i = 0; i < 5; i++)
        h[i] = PV_MASKED_SET1(1u, l[i]);                 /* position 0 is lane 0 */
    unsigned bmask = 0;
    for (unsigned b = 0; b < c; b++)
        bmask |= 1u << PV_FN(lane)(b);
    PV_MSG(buf, lo, hi);
    PV_FN(absorb)(h, lo, hi, PV_MASKED_SET1(bmask, (uint64_t)hibit << 24));
    PV_FN(mul)(h, rf, sf);
    for (int i = 0; i < 5; i++)
        l[i] = PV_HSUM(h[i]);
    PV_FN(to64)(st, l);
    ic_wipe(buf, sizeof buf);
    ic_wipe(l, sizeof l);
}

static void PV_FN(blocks_gg)(uint64_t *st, const uint8_t *in, size_t n, unsigned hibit)
{
    if (n < PV_MIN_BLOCKS) {
        ic_poly1305_c64_ops.blocks(st, in, n, hibit);
        return;
    }
    if (!(st[PV_W_READY] & 1))
        PV_FN(powers)(st);
    size_t groups = n / PV_L;
    unsigned rem = (unsigned)(n % PV_L);
    if (groups != 0) {
        uint64_t l[5];
        PV h[5], rl[5], sl[5], rf[5], sf[5], lo, hi;
        const PV hib = PV_SET1((uint64_t)hibit << 24);
        PV_FN(load_r)(rl, sl, (const uint8_t *)st + PV_B_RL, 0);
        PV_FN(load_r)(rf, sf, (const uint8_t *)st + PV_B_FIN, 1);
        PV_FN(split)(l, st[0], st[1], st[2]);
        for (int i = 0; i < 5; i++)
            h[i] = PV_MASKED_SET1(1u, l[i]);
        PV_MSG(in, lo, hi);
        PV_FN(absorb)(h, lo, hi, hib);
        in = PV_FN(steps)(st, h, in + 16 * PV_L, groups - 1, hib, rl, sl);
        PV_FN(mul)(h, rf, sf);
        for (int i = 0; i < 5; i++)
            l[i] = PV_HSUM(h[i]);
        PV_FN(to64)(st, l);
        ic_wipe(l, sizeof l);
    }
    if (rem >= 2) {
        PV_FN(gg_tail)(st, in, 2, hibit, PV_B_FIN2);
        in += 32;
        rem -= 2;
    }
    if (rem == 1)
        PV_FN(gg_tail)(st, in, 1, hibit, PV_B_FIN1);
}
#endif

static void PV_FN(finish)(uint64_t *st, uint8_t tag[16])
{
    ic_poly1305_c64_ops.finish(st, tag);            /* wipes words 0..7 */
    /* the powers exist only if a vector run computed them (READY is set
     * by that, from the public length); a context is keyed only after a
     * wipe or a finish (ic_poly1305_setkey_clean), so otherwise there is
     * nothing of this key's to erase */
    if (st[PV_W_READY] != 0)
        ic_wipe(st + 8, PV_B_END - 64);
}
