/*
 * ghash_x86_avx2.c - constant-time GHASH (SP 800-38D section 6.4) for x86
 * CPUs without PCLMULQDQ, on AVX2 integer multiplies.  Registry "ghash",
 * entry "avx2", needs AVX2; it sits after "clmul" in the table, so it runs
 * only where PCLMULQDQ is absent or masked (INCORE_CPU=-pclmul).
 *
 * Carry-less products from integer multiplies "with holes" (the method of
 * ghash_ct64.c, after T. Pornin's BearSSL ghash_ctmul), on VPMULUDQ: four
 * 32x32 -> 64 integer products per instruction, one per 64-bit lane.
 *
 * 1. A 32x32 carry-less product.  Each 32-bit operand is split into four
 *    classes of eight bits (bits i mod 4 = 0, 1, 2, 3; three-bit holes
 *    between them).  In the integer product of two classes a column sums
 *    at most 8 one-bit products, and everything below a column adds less
 *    than one unit of it (8 (1/16 + 1/256 + ...) < 1), so no carry reaches
 *    the next column of the class: the parity of each used column is the
 *    carry-less answer.  Output class r collects the four products of
 *    input classes i, j with i + j = r (mod 4), XORed; masking each sum to
 *    its class and ORing gives all 63 bits of the product.  Sixteen
 *    multiplies, and unlike the 64-bit version no bit reversal for the
 *    upper half.
 * 2. Karatsuba on two levels: a 128x128 product from three 64x64 ones,
 *    each from three 32x32 ones, so nine 32x32 products (144 lane
 *    multiplies) per block, against sixteen for schoolbook.  The nine
 *    operands of a block are w0, w1, w0^w1, w2, w3, w2^w3, w0^w2, w1^w3 and
 *    the XOR of all four (w0 the least significant word).
 * 3. Representation and reduction as in ghash_ct64.c and ghash_x86.h: a
 *    block loaded byte-reversed is phi(x), the bit-reflected polynomial
 *    (bit 127 - m holds the coefficient of x^m); the key holds
 *    psi(H^k) = X phi(H^k) mod Q with Q = X^128 + X^127 + X^126 + X^121 + 1
 *    (Gueron and Kounavis, "H << 1").  Then phi(a) psi(h) / X^128 mod Q =
 *    phi(a h), and that division is the fold of ghash_ct64.c (the low 128
 *    bits pushed up by right shifts 1, 2, 7 and left shifts 63, 62, 57)
 *    without its one-bit left shift of the product.
 * 4. Four lanes, four independent Horner chains.  Lane l of a step takes
 *    block l of each group of four and keeps its own accumulator Y_l;
 *    with two groups per step (eight blocks), Y_l <- (Y_l + x_l) H^8 +
 *    x_(4+l) H^4, one reduction per lane per step, the four reductions in
 *    the same instructions.  Every lane multiplies by the same power, so
 *    the H side of a product is a broadcast load from a 144-byte table
 *    (the nine operands of H^8, or H^4, already split into classes): no
 *    per-lane key material in the loop, no folding of lanes per step.
 *    The last step of a call multiplies lane l by H^(8-l) and H^(4-l)
 *    instead (operands made from the powers in the key), then the four
 *    lanes are XORed: that is sum_i x_i H^(n-i).  A call whose block count
 *    is not a multiple of four is padded in front with zero blocks (y
 *    goes with the first real block), which changes nothing in the sum.
 *    Per step the class masking, the Karatsuba recombination and the
 *    reduction are paid once for eight blocks.
 *
 * Constant time: nothing branches on or indexes memory by H or the data
 * (the only branches and offsets depend on the block count; a padded
 * first group goes through a stack buffer at offsets set by the count).
 * The instructions are VPMULUDQ, logical operations, shifts by constants,
 * byte shuffles by a constant pattern, unpacks and broadcasts.  VPMULUDQ's
 * timing does not depend on its operands on x86 cores with AVX2: the
 * vendors' optimization manuals and the published measured instruction
 * tables give one latency and one throughput for it per core (no operand-
 * dependent range, unlike division), the vector integer multiplier has no
 * early exit, and on this Intel Xeon a chain of dependent VPMULUDQ took the
 * same time per instruction (3.72-3.84 TSC ticks, run to run) with zero,
 * all-ones and sparse one-class operands.  The other instructions are
 * single-cycle ALU or shuffle operations whose timing is fixed.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("avx2")
#include "gcm/ghash_impl.h"
#include "core/ct.h"   /* IC_MSAN */
#include <immintrin.h>

#define GV_INLINE static inline __attribute__((always_inline))

/* ---- the vector type: four 64-bit lanes -------------------------------- */

typedef __m256i gv;

GV_INLINE gv gv_xor(gv a, gv b) { return _mm256_xor_si256(a, b); }
GV_INLINE gv gv_and(gv a, gv b) { return _mm256_and_si256(a, b); }
GV_INLINE gv gv_or(gv a, gv b) { return _mm256_or_si256(a, b); }
/* low 32 bits of each lane times low 32 bits of each lane, 64-bit result */
GV_INLINE gv gv_mul(gv a, gv b) { return _mm256_mul_epu32(a, b); }
#define gv_shl(a, n) _mm256_slli_epi64((a), (n))
#define gv_shr(a, n) _mm256_srli_epi64((a), (n))
GV_INLINE gv gv_bcast32(const uint32_t *p) { return _mm256_set1_epi32((int)*p); }
/* An empty asm that keeps a running sum in a register: without it GCC
 * computes a group's sixteen products first and XORs them in a tree,
 * spilling most of them (16 KiB: 1.93 TSC c/B against 1.70 pinned).
 * Left out of MemorySanitizer builds, where an asm would drop the
 * secrets' taint (core/ct.h). */
#if defined(IC_MSAN)
GV_INLINE void gv_pin(gv *x) { (void)x; }
#else
GV_INLINE void gv_pin(gv *x) { __asm__("" : "+x"(*x)); }
#endif
GV_INLINE gv gv_class_mask(int j) { return _mm256_set1_epi64x((long long)(UINT64_C(0x1111111111111111) << j)); }

/* Four 16-byte values at p (blocks if swap, else key powers stored as
 * little-endian 128-bit integers) as lanes: *u the low 64 bits, *v the
 * high 64 bits of phi.  Lane order is block 0, 2, 1, 3 (unpacking within
 * 128-bit halves); data and powers load alike, so they match. */
GV_INLINE void gv_load4(const uint8_t *p, int swap, gv *u, gv *v)
{
    const gv bswap = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                                      15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    gv a = _mm256_loadu_si256((const __m256i *)(const void *)p);
    gv b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    if (swap) {
        a = _mm256_shuffle_epi8(a, bswap);
        b = _mm256_shuffle_epi8(b, bswap);
    }
    *u = _mm256_unpacklo_epi64(a, b);
    *v = _mm256_unpackhi_epi64(a, b);
}

/* The XOR of the four lanes of (u, v) stored as a block (standard order). */
GV_INLINE void gv_store_sum(uint8_t *p, gv u, gv v)
{
    gv s = gv_xor(_mm256_unpacklo_epi64(u, v), _mm256_unpackhi_epi64(u, v));
    __m128i t = _mm_xor_si128(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    t = _mm_shuffle_epi8(t, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    _mm_storeu_si128((__m128i *)(void *)p, t);
}

/* ---- the multiply, generic in gv ------------------------------------- */

#define GH_NOPS 9   /* 32x32 products per 128x128 product */

/* The key: per-operand class tables of psi(H^8) and psi(H^4) (entry
 * [m][j] = operand m masked to class j), for the broadcasts, and
 * pw[j] = psi(H^(8-j)), the powers of the last step's lanes in block
 * order, as little-endian 128-bit integers (lo, hi). */
typedef struct {
    uint32_t t8[GH_NOPS][4];
    uint32_t t4[GH_NOPS][4];
    uint64_t pw[8][2];
} ghash_avx2_key;

_Static_assert(sizeof(ghash_avx2_key) <= IC_GHASH_KEY_STORAGE, "avx2 GHASH key too large");

/* The nine Karatsuba operands of (u, v) (each in the low 32 bits of its
 * lanes; the high halves are don't-care, VPMULUDQ ignores them). */
GV_INLINE void gv_operands(gv o[GH_NOPS], gv u, gv v)
{
    o[0] = u;
    o[1] = gv_shr(u, 32);
    o[2] = gv_xor(u, o[1]);
    o[3] = v;
    o[4] = gv_shr(v, 32);
    o[5] = gv_xor(v, o[4]);
    o[6] = gv_xor(u, v);
    o[7] = gv_xor(o[1], o[4]);
    o[8] = gv_xor(o[6], o[7]);
}

/* One step on g groups (1 or 2): lane by lane,
 *     (y + d[0]) P[0] + d[1] P[1]
 * reduced, into (*yl, *yh), where d[k] = (u[k], v[k]) and P[k] is
 * either the same power in every lane (tab[k], broadcast; hop == NULL) or
 * one per lane given by its operands hop[k] (the last step). */
GV_INLINE void gv_step(gv *yl, gv *yh, int g, gv u[2], gv v[2], const uint32_t (*const tab[2])[4],
                       const gv (*hop)[GH_NOPS])
{
    gv o[2][GH_NOPS], pr[GH_NOPS], msk[4];
    for (int j = 0; j < 4; j++)
        msk[j] = gv_class_mask(j);
    u[0] = gv_xor(u[0], *yl);
    v[0] = gv_xor(v[0], *yh);
    for (int k = 0; k < g; k++)
        gv_operands(o[k], u[k], v[k]);

    for (int m = 0; m < GH_NOPS; m++) {
        gv z[4];
        /* the group carrying y last: its products wait on the previous step */
        for (int k = g - 1; k >= 0; k--) {
            gv d[4], h[4];
            for (int j = 0; j < 4; j++) {
                d[j] = gv_and(o[k][m], msk[j]);
                h[j] = hop ? gv_and(hop[k][m], msk[j]) : gv_bcast32(&tab[k][m][j]);
            }
            for (int j = 0; j < 4; j++)
                for (int i = 0; i < 4; i++) {
                    gv p = gv_mul(d[i], h[j]);
                    int r = (i + j) & 3;
                    z[r] = (k == g - 1 && j == 0) ? p : gv_xor(z[r], p);
                    gv_pin(&z[r]);
                }
        }
        pr[m] = gv_or(gv_or(gv_and(z[0], msk[0]), gv_and(z[1], msk[1])),
                      gv_or(gv_and(z[2], msk[2]), gv_and(z[3], msk[3])));
    }

    /* Karatsuba, inner level: a 64x64 product from (lo, hi, mid) 32x32
     * ones, as two 64-bit words. */
    gv l0, l1, h0, h1, m0, m1, q;
    q = gv_xor(gv_xor(pr[0], pr[1]), pr[2]);
    l0 = gv_xor(pr[0], gv_shl(q, 32));
    l1 = gv_xor(pr[1], gv_shr(q, 32));
    q = gv_xor(gv_xor(pr[3], pr[4]), pr[5]);
    h0 = gv_xor(pr[3], gv_shl(q, 32));
    h1 = gv_xor(pr[4], gv_shr(q, 32));
    q = gv_xor(gv_xor(pr[6], pr[7]), pr[8]);
    m0 = gv_xor(pr[6], gv_shl(q, 32));
    m1 = gv_xor(pr[7], gv_shr(q, 32));
    /* outer level: the 256-bit product r3:r2:r1:r0 */
    gv r0 = l0, r1 = gv_xor(gv_xor(l1, l0), gv_xor(m0, h0));
    gv r2 = gv_xor(gv_xor(h0, h1), gv_xor(m1, l1)), r3 = h1;

    /* Divide by X^128 modulo Q (ghash_ct64.c, the file comment): fold r0
     * into r1, r2, then r1 into r2, r3. */
    r1 = gv_xor(r1, gv_xor(gv_xor(gv_shl(r0, 63), gv_shl(r0, 62)), gv_shl(r0, 57)));
    r2 = gv_xor(r2, gv_xor(gv_xor(r0, gv_shr(r0, 1)), gv_xor(gv_shr(r0, 2), gv_shr(r0, 7))));
    r2 = gv_xor(r2, gv_xor(gv_xor(gv_shl(r1, 63), gv_shl(r1, 62)), gv_shl(r1, 57)));
    r3 = gv_xor(r3, gv_xor(gv_xor(r1, gv_shr(r1, 1)), gv_xor(gv_shr(r1, 2), gv_shr(r1, 7))));
    *yl = r2;
    *yh = r3;
}

/* ---- key ---------------------------------------------------------------- */

/* The class table of a 128-bit value (lo, hi). */
static void gh_table(uint32_t t[GH_NOPS][4], uint64_t lo, uint64_t hi)
{
    uint32_t w0 = (uint32_t)lo, w1 = (uint32_t)(lo >> 32), w2 = (uint32_t)hi, w3 = (uint32_t)(hi >> 32);
    uint32_t op[GH_NOPS] = { w0, w1, w0 ^ w1, w2, w3, w2 ^ w3, w0 ^ w2, w1 ^ w3, w0 ^ w1 ^ w2 ^ w3 };
    for (int m = 0; m < GH_NOPS; m++)
        for (int j = 0; j < 4; j++)
            t[m][j] = op[m] & (UINT32_C(0x11111111) << j);
    ic_wipe(op, sizeof op);
}

/* Lanes (a[0], a[2], a[1], a[3]) of 16-byte values (lo, hi) times the
 * value whose table is t, psi form: psi(u) psi(v) / X^128 = psi(u v).
 * Results back into a. */
static void gh_mul_lanes(uint64_t a[4][2], const uint32_t t[GH_NOPS][4])
{
    const uint32_t (*const tab[2])[4] = { t, t };
    gv u[2], v[2], yl = _mm256_setzero_si256(), yh = _mm256_setzero_si256();
    uint64_t lo[4], hi[4];
    gv_load4((const uint8_t *)a, 0, &u[0], &v[0]);
    u[1] = v[1] = yl;
    gv_step(&yl, &yh, 1, u, v, tab, NULL);
    _mm256_storeu_si256((__m256i *)(void *)lo, yl);
    _mm256_storeu_si256((__m256i *)(void *)hi, yh);
    for (int i = 0; i < 4; i++) {   /* lane i holds value (0, 2, 1, 3)[i] */
        int b = (i == 1) ? 2 : (i == 2) ? 1 : i;
        a[b][0] = lo[i];
        a[b][1] = hi[i];
    }
    ic_wipe(lo, sizeof lo);
    ic_wipe(hi, sizeof hi);
}

static void ghash_avx2_init(ic_ghash_key *hk, const uint8_t h[16])
{
    ghash_avx2_key *k = (ghash_avx2_key *)(void *)hk->storage;
    uint64_t a[4][2], p1[2], p2[2], p4[2];
    uint32_t t[GH_NOPS][4];

    /* psi(H) = X phi(H) mod Q: shift left, subtract Q if X^128 appeared */
    uint64_t hi = ic_load64_be(h), lo = ic_load64_be(h + 8);
    uint64_t top = 0 - (hi >> 63);
    p1[1] = ((hi << 1) | (lo >> 63)) ^ (top & UINT64_C(0xC200000000000000));
    p1[0] = (lo << 1) ^ (top & 1);

    memset(hk->storage, 0, sizeof hk->storage);
    memset(a, 0, sizeof a);
    /* H^2 */
    gh_table(t, p1[0], p1[1]);
    memcpy(a[0], p1, 16);
    gh_mul_lanes(a, t);
    memcpy(p2, a[0], 16);
    /* H^3 = H^2 H, H^4 = H^2 H^2 */
    gh_table(t, p2[0], p2[1]);
    memcpy(a[0], p1, 16);
    memcpy(a[1], p2, 16);
    gh_mul_lanes(a, t);
    memcpy(k->pw[5], a[0], 16);   /* H^3 */
    memcpy(p4, a[1], 16);
    memcpy(k->pw[4], p4, 16);
    memcpy(k->pw[6], p2, 16);
    memcpy(k->pw[7], p1, 16);
    gh_table(k->t4, p4[0], p4[1]);
    /* H^5 .. H^8 = H^4 (H^1 .. H^4) */
    for (int i = 0; i < 4; i++)
        memcpy(a[i], k->pw[7 - i], 16);
    gh_mul_lanes(a, k->t4);
    for (int i = 0; i < 4; i++)
        memcpy(k->pw[3 - i], a[i], 16);
    gh_table(k->t8, k->pw[0][0], k->pw[0][1]);

    ic_wipe(a, sizeof a);
    ic_wipe(t, sizeof t);
    ic_wipe(p1, sizeof p1);
    ic_wipe(p2, sizeof p2);
    ic_wipe(p4, sizeof p4);
    hi = lo = top = 0;
}

/* ---- blocks ------------------------------------------------------------- */

/* The last step: g groups (1 or 2), lane l of group k times
 * H^(4g - 4k - l) (pw[8 - 4g + 4k ..]), lanes summed into y. */
GV_INLINE void gh_last(const ghash_avx2_key *k, gv *yl, gv *yh, int g, gv u[2], gv v[2])
{
    gv hop[2][GH_NOPS], pu, pv;
    const uint32_t (*const tab[2])[4] = { k->t8, k->t4 };
    for (int i = 0; i < g; i++) {
        gv_load4((const uint8_t *)k->pw[8 - 4 * g + 4 * i], 0, &pu, &pv);
        gv_operands(hop[i], pu, pv);
    }
    gv_step(yl, yh, g, u, v, tab, (const gv(*)[GH_NOPS])hop);
    ic_wipe(hop, sizeof hop);   /* operands of H's powers, spilled to the stack */
}

static void ghash_avx2_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    const ghash_avx2_key *k = (const ghash_avx2_key *)(const void *)hk->storage;
    const uint32_t (*const t8[2])[4] = { k->t8, k->t4 };
    const uint32_t (*const t4[2])[4] = { k->t4, k->t4 };
    uint8_t buf[64];
    const uint8_t *first = in;
    gv u[2], v[2], yl, yh;
    size_t groups, pad;

    if (nblocks == 0)
        return;
    groups = (nblocks + 3) / 4;
    pad = 4 * groups - nblocks;
    yl = yh = _mm256_setzero_si256();
    if (pad != 0) {
        /* zero blocks in front; y joins the first real block */
        memset(buf, 0, 16 * pad);
        memcpy(buf + 16 * pad, in, 16 * (4 - pad));
        for (int i = 0; i < 16; i++)
            buf[16 * pad + i] ^= y[i];
        first = buf;
        in += 16 * (4 - pad);
    } else {
        yl = _mm256_set_epi64x(0, 0, 0, (long long)ic_load64_be(y + 8));
        yh = _mm256_set_epi64x(0, 0, 0, (long long)ic_load64_be(y));
        in += 64;
    }
    /* groups: first, then in, in + 64, ... */
    gv_load4(first, 1, &u[0], &v[0]);
    if (groups == 1) {
        gh_last(k, &yl, &yh, 1, u, v);
    } else {
        if (groups % 2 == 1) {   /* an odd group first, times H^4 */
            gv_step(&yl, &yh, 1, u, v, t4, NULL);
            gv_load4(in, 1, &u[0], &v[0]);
            in += 64;
            groups--;
        }
        for (; groups > 2; groups -= 2, in += 128) {
            gv_load4(in, 1, &u[1], &v[1]);
            gv_step(&yl, &yh, 2, u, v, t8, NULL);
            gv_load4(in + 64, 1, &u[0], &v[0]);
        }
        gv_load4(in, 1, &u[1], &v[1]);
        gh_last(k, &yl, &yh, 2, u, v);
    }
    gv_store_sum(y, yl, yh);
    if (pad != 0)
        ic_wipe(buf, sizeof buf);
}

static const ic_ghash_ops avx2_ops = {
    .init = ghash_avx2_init,
    .blocks = ghash_avx2_blocks,
    .stitch = 0,   /* no stitched loop reads this key layout */
};

IC_BACKEND(ghash, avx2, IC_F(IC_CPU_AVX2), &avx2_ops);

IC_TARGET_END
#endif /* x86 */
