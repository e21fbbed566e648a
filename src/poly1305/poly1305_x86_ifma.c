/*
 * poly1305_x86_ifma.c - Poly1305 with AVX-512 IFMA, 4 or 8 lanes of three
 * radix-2^44 limbs: the "avx512ifma" entry of ic_impls_poly1305.
 *
 * Same evaluation as poly1305_x86_vec.h (complete 8-decimation Horner on a
 * run logically prefixed with zero blocks, "Improved SIMD Implementation of
 * Poly1305" section 4; lanes in
 * VPUNPCK order), with the multiplication of OpenSSL's poly1305-x86_64
 * IFMA path in idea (radix 2^44, VPMADD52LUQ / VPMADD52HUQ; our code).
 * Three regimes, chosen by the run's length n (public):
 *   n < IFMA4_MIN_BLOCKS: the scalar radix-2^64 code;
 *   up to IFMA4_MAX_BLOCKS for a fresh key: 4 lanes on YMM (complete
 *     4-decimation), powers r^2..r^4 (r^8) from the scalar chain per run;
 *   longer, or any run of 8+ blocks once a key has them: 8 lanes on ZMM
 *     with r^1..r^8, r^16 computed once per key and kept in the state.
 * The crossovers were measured on Zen 4 (docs/backends.md, Poly1305):
 * the 8-lane powers cost one more dependent vector product and a fresh
 * key's first group is up to half zeros, which four lanes avoid until
 * about 2.5 KiB.
 *
 *   h = h0 + h1 2^44 + h2 2^88 (h0, h1 44 bits, h2 42 bits), r likewise;
 *   h r = h0r0 + (h0r1 + h1r0) 2^44 + (h0r2 + h1r1 + h2r0) 2^88
 *         + (h1r2 + h2r1) 2^132 + h2r2 2^176,
 *   and 2^132 = 4 2^130 = 20 (mod p), so with s_j = 20 r_j
 *   d0 = h0r0 + h1s2 + h2s1,  d1 = h0r1 + h1r0 + h2s2,  d2 = h0r2 + h1r1 + h2r0.
 *
 * VPMADD52LUQ adds bits 0..51 of a 52x52-bit product, VPMADD52HUQ bits
 * 52..103; the high half of a term of d_k sits at 2^(44k + 52) = 2^(44(k+1))
 * 2^8, so it goes into d_(k+1) shifted left by 8, and for d2 at 2^140 =
 * 2^130 2^10 = 5 2^10 (mod p) into d0 times 5120.  Nine products, 18
 * IFMA instructions per 8 blocks, against 25 VPMULUDQ and their adds in
 * radix 2^26.  Long runs take two groups per step, h r^16 + m r^8, with
 * one carry for both (mul2).
 *
 * Bounds: limbs of h < 2^44 + 2^15 after the carry step (h2 < 2^42 +
 * 2^10), plus a block limb (< 2^44, h2's < 2^41) stay < 2^45; r_j < 2^44
 * + 2^15 (powers partially reduced, computed with this multiply), s_j =
 * 20 r_j < 2^48.4: both inputs below 2^52 as IFMA needs.  Low sums < 3 2^52,
 * high halves < 2^41.4 each; d0 < 2^53.6 + 2^53.7, inside 64 bits.
 *
 * Constant time as the radix-2^26 code: the same instructions for every
 * key and message of a given length.
 */
#include "core/target.h"

#if defined(__x86_64__)
IC_TARGET_BEGIN("avx2,avx512f,avx512vl,avx512ifma")
#include <immintrin.h>
#include "poly1305/poly1305_impl.h"
#include "poly1305/poly1305_x86_first8.h"
#include "poly1305/poly1305_x86_pow.h"

#if defined(IC_POLY1305_HAVE_C64)

#define IFMA_INLINE static inline __attribute__((always_inline))
/* ic_wipe inline: the zeros are stored by the compiler's own code (no
 * call), the asm makes them observable so they are not dropped. */
#define WIPE_LOCAL(x) do { memset((x), 0, sizeof(x)); __asm__ __volatile__("" : : "r"(x) : "memory"); } while (0)
#define IFMA_MIN_BLOCKS 8
#ifndef IFMA4_MIN_BLOCKS
#define IFMA4_MIN_BLOCKS 14    /* below: scalar radix 2^64 */
#endif
#ifndef IFMA4_MAX_BLOCKS
#define IFMA4_MAX_BLOCKS 160   /* up to here a fresh key runs on four lanes (prefer-ymm) */
#endif
#ifndef IFMA4_MAX_BLOCKS_ZMM
#define IFMA4_MAX_BLOCKS_ZMM 24   /* the same where ZMM operations are whole (not prefer-ymm) */
#endif
_Static_assert(IFMA4_MIN_BLOCKS >= 4, "absorb4 reads 4 blocks");
_Static_assert(IFMA_MIN_BLOCKS >= 8, "the first-group permutation reads 8 blocks");
#define M44 ((UINT64_C(1) << 44) - 1)
#define M42 ((UINT64_C(1) << 42) - 1)

/* words 0..7: poly1305_c.c's radix 2^64 state; word 8: powers ready (all
 * of them, computed together by the first vector run of a key); from byte
 * 128: r^8 limbs (3 x 64 bits), r^16 limbs (3 x 64 bits), then 3 x 8
 * per-lane powers */
enum { W_READY = 8, B_R8 = 128, B_R16 = 160, B_FIN = 192, B_END = B_FIN + 3 * 8 * 8 };
_Static_assert(B_END <= IC_POLY1305_STATE_SIZE, "state area too small");

typedef unsigned __int128 u128;

static void split44(uint64_t l[3], uint64_t h0, uint64_t h1, uint64_t h2)
{
    l[0] = h0 & M44;
    l[1] = (h0 >> 44 | h1 << 20) & M44;
    l[2] = h1 >> 24 | h2 << 40;
}

static unsigned pos8(unsigned q) { return (q & 1) * 4 + q / 2; }

/* one group at p split into 64-bit halves, lane q = block pos(q) */
#define MSG(p, lo, hi) do {                                                        \
        __m512i x_ = _mm512_loadu_si512((const void *)(p));                        \
        __m512i y_ = _mm512_loadu_si512((const void *)((p) + 64));                 \
        lo = _mm512_unpacklo_epi64(x_, y_);                                        \
        hi = _mm512_unpackhi_epi64(x_, y_);                                        \
    } while (0)

IFMA_INLINE void absorb(__m512i h[3], __m512i lo, __m512i hi, __m512i hib)
{
    const __m512i m44 = _mm512_set1_epi64((long long)M44);
    h[0] = _mm512_add_epi64(h[0], _mm512_and_si512(lo, m44));
    h[1] = _mm512_add_epi64(h[1], _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44),
                                                                   _mm512_slli_epi64(hi, 20)), m44));
    h[2] = _mm512_add_epi64(h[2], _mm512_or_si512(_mm512_srli_epi64(hi, 24), hib));
}

/* The multiplication on either width (8 lanes in ZMM, 4 in YMM: the
 * 4-lane path below), written once.  P is the intrinsic prefix, V the
 * vector type, SI its suffix for the logic operations, SET1 a broadcast.
 *
 * prod_NAME(d, u, h, r, s) adds the low (d) and high (u) halves of the
 * nine products of h r (s = 20 r in s[1], s[2]) to the six sums; each sum
 * is one chain of three IFMAs.
 *
 * carry_NAME(h, d, u) joins the high halves to the low sums with a shift
 * and an add, then one parallel carry step: every limb gives its carry
 * to the next at once (the top one x5 to h0), which leaves limbs a few
 * bits over 44 (42) but well inside the 52 bits IFMA reads, and costs a
 * latency of two instructions instead of a serial chain.  With one
 * product: d0 < 3 2^52 + 5 2^52.4, d1, d2 < 3 2^52 + 2^49.4, carries c0 <
 * 2^12.6, c1 < 2^9.7, c2 < 2^11.7.  With two (mul2): low sums < 6 2^52,
 * high halves < 6 2^41.4, d0 < 2^57 with the x5120 fold, and the limbs
 * end < 2^44 + 2^15.4 as before.
 *
 * mul_NAME: h = h r.  mul2_NAME: h = h r2 + b r1, two Horner steps with
 * ONE carry; b (the limbs of a group, not yet added to anything) does not
 * depend on h, so its products run ahead of the chain. */
#define IFMA_MUL_FNS(NAME, V, P, SI, SET1)                                                              \
    IFMA_INLINE void prod_##NAME(V d[3], V u[3], const V h[3], const V r[3], const V s[3])             \
    {                                                                                                   \
        d[0] = P##_madd52lo_epu64(P##_madd52lo_epu64(P##_madd52lo_epu64(d[0], h[0], r[0]), h[1], s[2]), h[2], s[1]); \
        d[1] = P##_madd52lo_epu64(P##_madd52lo_epu64(P##_madd52lo_epu64(d[1], h[0], r[1]), h[1], r[0]), h[2], s[2]); \
        d[2] = P##_madd52lo_epu64(P##_madd52lo_epu64(P##_madd52lo_epu64(d[2], h[0], r[2]), h[1], r[1]), h[2], r[0]); \
        u[0] = P##_madd52hi_epu64(P##_madd52hi_epu64(P##_madd52hi_epu64(u[0], h[0], r[0]), h[1], s[2]), h[2], s[1]); \
        u[1] = P##_madd52hi_epu64(P##_madd52hi_epu64(P##_madd52hi_epu64(u[1], h[0], r[1]), h[1], r[0]), h[2], s[2]); \
        u[2] = P##_madd52hi_epu64(P##_madd52hi_epu64(P##_madd52hi_epu64(u[2], h[0], r[2]), h[1], r[1]), h[2], r[0]); \
    }                                                                                                   \
    IFMA_INLINE void carry_##NAME(V h[3], const V d[3], const V u[3])                                  \
    {                                                                                                   \
        V d0 = P##_add_epi64(d[0], P##_add_epi64(P##_slli_epi64(u[2], 12), P##_slli_epi64(u[2], 10)));   \
        V d1 = P##_add_epi64(d[1], P##_slli_epi64(u[0], 8));                                           \
        V d2 = P##_add_epi64(d[2], P##_slli_epi64(u[1], 8));                                           \
        const V m44 = SET1((long long)M44), m42 = SET1((long long)M42);                                 \
        V c0 = P##_srli_epi64(d0, 44), c1 = P##_srli_epi64(d1, 44), c2 = P##_srli_epi64(d2, 42);        \
        h[0] = P##_add_epi64(P##_and_##SI(d0, m44), P##_add_epi64(c2, P##_slli_epi64(c2, 2)));          \
        h[1] = P##_add_epi64(P##_and_##SI(d1, m44), c0);                                                \
        h[2] = P##_add_epi64(P##_and_##SI(d2, m42), c1);                                                \
    }                                                                                                   \
    IFMA_INLINE void mul_##NAME(V h[3], const V r[3], const V s[3])                                    \
    {                                                                                                   \
        V d[3], u[3];                                                                                   \
        d[0] = d[1] = d[2] = u[0] = u[1] = u[2] = P##_setzero_##SI();                                   \
        prod_##NAME(d, u, h, r, s);                                                                     \
        carry_##NAME(h, d, u);                                                                          \
    }                                                                                                   \
    IFMA_INLINE void mul2_##NAME(V h[3], const V b[3], const V r2[3], const V s2[3], const V r1[3],    \
                                 const V s1[3])                                                         \
    {                                                                                                   \
        V d[3], u[3];                                                                                   \
        d[0] = d[1] = d[2] = u[0] = u[1] = u[2] = P##_setzero_##SI();                                   \
        prod_##NAME(d, u, b, r1, s1);                                                                   \
        prod_##NAME(d, u, h, r2, s2);                                                                   \
        carry_##NAME(h, d, u);                                                                          \
    }

IFMA_MUL_FNS(z, __m512i, _mm512, si512, _mm512_set1_epi64)
IFMA_MUL_FNS(y, __m256i, _mm256, si256, _mm256_set1_epi64x)
#define mul mul_z
#define mul2 mul2_z

/* h = h b lane by lane, for the powers (b is a power of r: s = 20 b). */
static void vmul(__m512i a[3], const __m512i b[3])
{
    __m512i s[3];
    for (int i = 0; i < 3; i++)
        s[i] = _mm512_add_epi64(_mm512_slli_epi64(b[i], 4), _mm512_slli_epi64(b[i], 2));
    mul(a, b, s);
}

/* r in one 64-bit lane everywhere, and s = 20 r. */
IFMA_INLINE void bcast_r(__m512i r[3], __m512i s[3], const uint64_t v[3])
{
    for (int i = 0; i < 3; i++) {
        r[i] = _mm512_set1_epi64((long long)v[i]);
        s[i] = _mm512_add_epi64(_mm512_slli_epi64(r[i], 4), _mm512_slli_epi64(r[i], 2));
    }
}

/* The powers of a fresh key, in registers and in the state (for later
 * runs of a stream): r^2, r^3, r^4, r^8 and r^16 in scalar radix 2^44
 * (poly1305_x86_pow.h, on the integer multiplier, which the vector code
 * leaves idle), and the per-lane final powers with ONE vector product
 * [4 1 4 1 4 1 4 1] x [4 4 3 3 2 2 1 1] = [8 4 7 3 6 2 5 1] (exponents;
 * lane q gets r^(8 - pos(q))).  r^8 and r^16 come from the scalar chain
 * rather than out of the vector (a lane extract and a store/reload on
 * the critical path of every medium one-shot), and r^16 is computed
 * every time: its two squarings overlap the vector product, so the
 * two-group steps (mul2) serve every run with two or more steps.  All
 * partially reduced (limbs < 2^44 + 2^15): the bounds above allow it. */
IFMA_INLINE void powers(uint64_t *st, __m512i rf[3], uint64_t p8[3], uint64_t p16[3])
{
    uint64_t p[4][3];
    __m512i b[3];
    pow_r1234(p, 4, st[3], st[4]);
    for (int i = 0; i < 3; i++) {
        const long long one = i == 0, r4 = (long long)p[3][i];
        rf[i] = _mm512_setr_epi64(r4, one, r4, one, r4, one, r4, one);
        b[i] = _mm512_setr_epi64(r4, r4, (long long)p[2][i], (long long)p[2][i], (long long)p[1][i],
                                 (long long)p[1][i], (long long)p[0][i], (long long)p[0][i]);
    }
    vmul(rf, b);
    pow_mul(p8, p[3], p[3]);
    pow_mul(p16, p8, p8);
    for (int i = 0; i < 3; i++)
        _mm512_storeu_si512((void *)((uint8_t *)st + B_FIN + 64 * i), rf[i]);
    memcpy((uint8_t *)st + B_R8, p8, 3 * sizeof *p8);
    memcpy((uint8_t *)st + B_R16, p16, 3 * sizeof *p16);
    st[W_READY] = 1;
    WIPE_LOCAL(p);
}

static void load_r(__m512i r[3], __m512i s[3], const uint8_t *p, int per_lane)
{
    for (int i = 0; i < 3; i++) {
        if (per_lane)
            r[i] = _mm512_loadu_si512((const void *)(p + 64 * i));
        else {
            uint64_t v;
            memcpy(&v, p + 8 * i, 8);
            r[i] = _mm512_set1_epi64((long long)v);
        }
        /* 20 r = 16 r + 4 r */
        s[i] = _mm512_add_epi64(_mm512_slli_epi64(r[i], 4), _mm512_slli_epi64(r[i], 2));
    }
}

/* h = l0 + l1 2^44 + l2 2^88 (lane sums, each below 2^48) back into the
 * radix-2^64 words of the portable code (ic_poly1305_fold_store). */
static void store_h(uint64_t *st, uint64_t l0, uint64_t l1, uint64_t l2)
{
    u128 a = (u128)l0 + ((u128)l1 << 44);
    uint64_t h0 = (uint64_t)a;
    a = (a >> 64) + ((u128)l2 << 24);
    ic_poly1305_fold_store(st, h0, (uint64_t)a, (uint64_t)(a >> 64));
}

/* ---- 4 lanes on YMM, for runs of IFMA4_MIN..IFMA4_MAX blocks ----------
 * A fresh key's short run would pay the eight-lane powers (one more
 * dependent vector product) and a full-width product for every group,
 * half of it zeros when n mod 8 is 1..4.  Four lanes need only r^2, r^3,
 * r^4, which the scalar chain gives (two dependent products), the same
 * complete decimation with k = (-n) mod 4 zero blocks in front, lane q =
 * block q of a group (one VPERMQ of four blocks splits their 64-bit
 * halves and, in the first group, shifts them k lanes up), and YMM IFMA,
 * which has the throughput of ZMM per instruction on CPUs that split
 * 512-bit operations (Zen 4).  Same limbs, bounds and carry as mul(). */
/* VPERMQ indices per k: low half lane q <- qword 2(q - k) (the low half
 * of block q - k), high half lane q <- qword 2(q - k) + 1; lanes q < k
 * are zeroed by keep4[k]. */
static const int64_t first4_idx[4][8] __attribute__((aligned(64))) = {
    { 0, 2, 4, 6, 1, 3, 5, 7 }, { 0, 0, 2, 4, 0, 1, 3, 5 },
    { 0, 0, 0, 2, 0, 0, 1, 3 }, { 0, 0, 0, 0, 0, 0, 0, 1 },
};
static const uint8_t first4_keep[4] = { 0xff, 0xee, 0xcc, 0x88 };

/* The four blocks at p into the limbs h (added), lanes q < k left alone;
 * p has 64 readable bytes (the run has at least four blocks). */
IFMA_INLINE void absorb4(__m256i h[3], const uint8_t *p, unsigned k, uint64_t hib)
{
    const __m512i idx = _mm512_load_si512((const void *)first4_idx[k]);
    const __m512i x = _mm512_maskz_permutexvar_epi64((__mmask8)first4_keep[k], idx,
                                                     _mm512_loadu_si512((const void *)p));
    const __m256i lo = _mm512_castsi512_si256(x), hi = _mm512_extracti64x4_epi64(x, 1);
    const __m256i m44 = _mm256_set1_epi64x((long long)M44);
    const __m256i top = _mm256_maskz_set1_epi64((__mmask8)(first4_keep[k] & 15), (long long)hib);
    h[0] = _mm256_add_epi64(h[0], _mm256_and_si256(lo, m44));
    h[1] = _mm256_add_epi64(h[1], _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(lo, 44),
                                                                   _mm256_slli_epi64(hi, 20)), m44));
    h[2] = _mm256_add_epi64(h[2], _mm256_or_si256(_mm256_srli_epi64(hi, 24), top));
}

IFMA_INLINE void s20_4(__m256i s[3], const __m256i r[3])
{
    for (int i = 0; i < 3; i++)
        s[i] = _mm256_add_epi64(_mm256_slli_epi64(r[i], 4), _mm256_slli_epi64(r[i], 2));
}

static void blocks4(uint64_t *st, const uint8_t *in, size_t n, unsigned hibit)
{
    const size_t groups = (n + 3) / 4;
    const unsigned k = (unsigned)(groups * 4 - n);
    const uint64_t hib = (uint64_t)hibit << 40;
    uint64_t p[4][3], l[3];
    __m256i h[3], r4[3], s4[3], rf[3], sf[3];
    pow_r1234(p, 4, st[3], st[4]);
    split44(l, st[0], st[1], st[2]);
    for (int i = 0; i < 3; i++) {
        r4[i] = _mm256_set1_epi64x((long long)p[3][i]);
        /* lane q gets r^(4 - q) */
        rf[i] = _mm256_setr_epi64x((long long)p[3][i], (long long)p[2][i], (long long)p[1][i], (long long)p[0][i]);
        h[i] = _mm256_maskz_set1_epi64((__mmask8)(1u << k), (long long)l[i]);
    }
    s20_4(s4, r4);
    s20_4(sf, rf);
    absorb4(h, in, k, hib);
    in += 16 * (4 - k);
    /* groups - 1 steps "h = h r^4 + next group": one alone when their
     * number is odd, the others two at a time with r^8 (mul2) */
    size_t steps = groups - 1;
    if (steps & 1) {
        mul_y(h, r4, s4);
        absorb4(h, in, 0, hib);
        in += 64;
        steps--;
    }
    if (steps != 0) {
        uint64_t p8[3];
        __m256i r8[3], s8[3];
        pow_mul(p8, p[3], p[3]);
        for (int i = 0; i < 3; i++)
            r8[i] = _mm256_set1_epi64x((long long)p8[i]);
        s20_4(s8, r8);
        for (; steps != 0; steps -= 2, in += 128) {
            __m256i b[3];
            b[0] = b[1] = b[2] = _mm256_setzero_si256();
            absorb4(b, in, 0, hib);
            mul2_y(h, b, r8, s8, r4, s4);
            absorb4(h, in + 64, 0, hib);
        }
        WIPE_LOCAL(p8);
    }
    mul_y(h, rf, sf);
    /* lanes summed: limbs < 4 (2^44 + 2^15) */
    __m256i t = _mm256_unpacklo_epi64(h[0], h[1]), u = _mm256_unpackhi_epi64(h[0], h[1]);
    t = _mm256_add_epi64(t, u);                               /* h0 h1 sums of lanes 0+1 | 2+3 */
    __m128i a01 = _mm_add_epi64(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
    __m128i a2 = _mm_add_epi64(_mm256_castsi256_si128(h[2]), _mm256_extracti128_si256(h[2], 1));
    store_h(st, (uint64_t)_mm_cvtsi128_si64(a01), (uint64_t)_mm_extract_epi64(a01, 1),
            (uint64_t)(_mm_cvtsi128_si64(a2) + _mm_extract_epi64(a2, 1)));
    WIPE_LOCAL(p);
    WIPE_LOCAL(l);
}

static void poly1305_ifma_init(uint64_t *st, const uint8_t key[32])
{
    ic_poly1305_c64_ops.init(st, key);
    st[W_READY] = 0;
}

/* Runs of IFMA4_MIN_BLOCKS and more.  Out of line: its frame (six pushes,
 * a 64-byte aligned stack of ZMM spill slots) would otherwise be built
 * before the length test of every call, the scalar one-block calls of a
 * short message (its lengths block) too. */
static __attribute__((noinline)) void ifma_vec_blocks(uint64_t *st, const uint8_t *in, size_t n, unsigned hibit)
{
    /* a key whose eight-lane powers exist (a stream's later runs) keeps
     * to eight lanes from IFMA_MIN_BLOCKS.  Four lanes on YMM pay where a
     * ZMM operation is two YMM ones (prefer-ymm, Zen 4: 4 lanes faster up
     * to ~2.5 KiB); where it is one (Intel), eight lanes do twice the work
     * per IFMA and win from ~24 blocks (Xeon, AEAD MAC one-shots: 256 B
     * 274 vs 285 TSC ticks, 512 B 347 vs 327, 1 KiB 460 vs 392, 2 KiB 725
     * vs 522).  The CPU's trait is public. */
    const size_t max4 = (ic_cpu_enabled() & IC_F(IC_CPU_PREFER_YMM)) ? IFMA4_MAX_BLOCKS : IFMA4_MAX_BLOCKS_ZMM;
    if (n < IFMA_MIN_BLOCKS || (n <= max4 && !st[W_READY])) {
        blocks4(st, in, n, hibit);
        return;
    }
    size_t groups = (n + 7) / 8;
    unsigned k = (unsigned)(groups * 8 - n);
    uint64_t l[3];
    __m512i h[3], r8[3], s8[3], r16[3], s16[3], rf[3], sf[3], lo, hi;

    if (!st[W_READY]) {
        uint64_t p8[3], p16[3];
        powers(st, rf, p8, p16);
        for (int i = 0; i < 3; i++)
            sf[i] = _mm512_add_epi64(_mm512_slli_epi64(rf[i], 4), _mm512_slli_epi64(rf[i], 2));
        bcast_r(r8, s8, p8);
        bcast_r(r16, s16, p16);
        WIPE_LOCAL(p8);
        WIPE_LOCAL(p16);
    } else {
        load_r(rf, sf, (const uint8_t *)st + B_FIN, 1);
        load_r(r8, s8, (const uint8_t *)st + B_R8, 0);
        load_r(r16, s16, (const uint8_t *)st + B_R16, 0);
    }
    /* h into the lane of position k; the first group moved k positions up
     * with zeros below (poly1305_x86_first8.h), nothing copied */
    unsigned hmask = 0;
    for (unsigned q = 0; q < 8; q++)
        hmask |= (unsigned)(pos8(q) == k) << q;
    split44(l, st[0], st[1], st[2]);
    for (int i = 0; i < 3; i++)
        h[i] = _mm512_maskz_set1_epi64((__mmask8)hmask, (long long)l[i]);
    const __m512i hib = _mm512_set1_epi64((long long)((uint64_t)hibit << 40));

    const __m512i idx = _mm512_loadu_si512((const void *)ic_poly1305_first8_idx[k]);
    const __mmask8 keep = (__mmask8)ic_poly1305_first8_keep[k];
    MSG(in, lo, hi);
    lo = _mm512_maskz_permutexvar_epi64(keep, idx, lo);
    hi = _mm512_maskz_permutexvar_epi64(keep, idx, hi);
    absorb(h, lo, hi, _mm512_maskz_mov_epi64(keep, hib));
    in += 16 * (8 - k);
    /* groups - 1 Horner steps "h = h r^8 + next group": one alone when
     * their number is odd, the others two at a time (mul2) */
    size_t steps = groups - 1;
    if (steps & 1) {
        mul(h, r8, s8);
        MSG(in, lo, hi);
        absorb(h, lo, hi, hib);
        in += 128;
        steps--;
    }
    for (; steps != 0; steps -= 2) {
        __m512i b[3];
        b[0] = b[1] = b[2] = _mm512_setzero_si512();
        MSG(in, lo, hi);
        absorb(b, lo, hi, hib);
        mul2(h, b, r16, s16, r8, s8);
        MSG(in + 128, lo, hi);
        absorb(h, lo, hi, hib);
        in += 256;
    }
    mul(h, rf, sf);

    /* lanes summed: limbs < 8 (2^44 + 2^15) < 2^48 */
    store_h(st, (uint64_t)_mm512_reduce_add_epi64(h[0]), (uint64_t)_mm512_reduce_add_epi64(h[1]),
            (uint64_t)_mm512_reduce_add_epi64(h[2]));
}

static void poly1305_ifma_blocks(uint64_t *st, const uint8_t *in, size_t n, unsigned hibit)
{
    if (n < IFMA4_MIN_BLOCKS)
        ic_poly1305_c64_ops.blocks(st, in, n, hibit);
    else
        ifma_vec_blocks(st, in, n, hibit);
}

static void poly1305_ifma_finish(uint64_t *st, uint8_t tag[16])
{
    ic_poly1305_c64_ops.finish(st, tag);
    /* the powers exist only if a vector run computed them (READY is set
     * by that, from the public length); a context is keyed only after a
     * wipe or a finish (ic_poly1305_setkey_clean), so otherwise there is
     * nothing of this key's to erase */
    if (st[W_READY] != 0)
        ic_wipe(st + 8, B_END - 64);
}

static const ic_poly1305_ops ifma_ops = {
    .init = poly1305_ifma_init,
    .blocks = poly1305_ifma_blocks,
    .finish = poly1305_ifma_finish,
};
IC_BACKEND(poly1305, avx512ifma,
           IC_F(IC_CPU_AVX512F) | IC_F(IC_CPU_AVX512VL) | IC_F(IC_CPU_AVX512IFMA) | IC_F(IC_CPU_AVX2), &ifma_ops);

#endif /* IC_POLY1305_HAVE_C64 */
IC_TARGET_END
#endif /* __x86_64__ */
