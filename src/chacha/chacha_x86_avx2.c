/*
 * chacha_x86_avx2.c - ChaCha20 (RFC 8439 section 2.3) on 256-bit AVX2
 * registers: the "avx2" entry of ic_impls_chacha20.
 *
 * Long runs go 8 blocks per pass with the state transposed across lanes:
 * register i holds state word i of 8 consecutive blocks (counters c..c+7 in
 * word 12), so each quarter round is 4 x 8-lane adds, xors and rotations
 * with no shuffling inside the rounds.  The rotations by 16 and 8 move
 * whole bytes, so they are one VPSHUFB each; 12 and 7 are shift, shift, or.
 * After the 20 rounds (and the feed-forward of the input state) an 8x16
 * word transpose (unpack 32/64 inside 128-bit lanes, then VPERM2I128)
 * turns the 16 registers back into 8 consecutive 64-byte blocks.  This is
 * the layout of Goll and Gueron's "Vectorization of ChaCha stream cipher"
 * (ITNG 2014) and of most AVX2 ChaCha code since.
 *
 * A run of 1-4 blocks (a short message, or what is left after the 8-block
 * passes) takes a second path that keeps one block per 128-bit lane in row
 * order, 4 registers = rows a, b, c, d of two blocks, two such sets for
 * 4 blocks; the diagonal round rotates rows b, c, d with VPSHUFD.  So a
 * 64-byte message costs one block's rounds on 4 registers, not a 512-byte
 * batch.
 *
 * Constant time: ChaCha is add, xor, rotate by constants; the only
 * branches are on the (public) block count.
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("avx2")
#include <immintrin.h>
#include "chacha/chacha_impl.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Byte shuffles that rotate every 32-bit word left by 16 and by 8. */
#define ROT16_MASK _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, \
                                    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)
#define ROT8_MASK _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, \
                                   3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14)

ALWAYS_INLINE __m256i rotl(__m256i x, int n)
{
    return _mm256_or_si256(_mm256_slli_epi32(x, n), _mm256_srli_epi32(x, 32 - n));
}

/* One quarter round on 8 lanes (RFC 8439 section 2.1). */
#define QR(a, b, c, d) do {                                                         \
        a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = _mm256_shuffle_epi8(d, r16); \
        c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = rotl(b, 12);    \
        a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = _mm256_shuffle_epi8(d, r8); \
        c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = rotl(b, 7);     \
    } while (0)

/* Out = in xor the keystream block held in words lo (0-7) and hi (8-15). */
ALWAYS_INLINE void xor_store(uint8_t *out, const uint8_t *in, __m256i lo, __m256i hi)
{
    __m256i a = _mm256_loadu_si256((const __m256i *)in);
    __m256i b = _mm256_loadu_si256((const __m256i *)(in + 32));
    _mm256_storeu_si256((__m256i *)out, _mm256_xor_si256(a, lo));
    _mm256_storeu_si256((__m256i *)(out + 32), _mm256_xor_si256(b, hi));
}

/* 4x4 transpose of 32-bit words inside each 128-bit lane.  In: a..d hold
 * state words w..w+3 of blocks 0-3 (low lane) and 4-7 (high lane).  Out:
 * register j (a = 0 .. d = 3) holds words w..w+3 of block j in its low
 * lane and of block 4 + j in its high lane. */
ALWAYS_INLINE void transpose4(__m256i *a, __m256i *b, __m256i *c, __m256i *d)
{
    __m256i t0 = _mm256_unpacklo_epi32(*a, *b), t1 = _mm256_unpackhi_epi32(*a, *b);
    __m256i t2 = _mm256_unpacklo_epi32(*c, *d), t3 = _mm256_unpackhi_epi32(*c, *d);
    *a = _mm256_unpacklo_epi64(t0, t2);
    *b = _mm256_unpackhi_epi64(t0, t2);
    *c = _mm256_unpacklo_epi64(t1, t3);
    *d = _mm256_unpackhi_epi64(t1, t3);
}

/* 8 blocks starting at counter input[12] + 0. */
static void chacha8(const uint32_t input[16], uint8_t *out, const uint8_t *in, uint32_t ctr)
{
    const __m256i r16 = ROT16_MASK, r8 = ROT8_MASK;
    __m256i s[16], x[16];
    for (int i = 0; i < 16; i++)
        s[i] = _mm256_set1_epi32((int)input[i]);
    s[12] = _mm256_add_epi32(_mm256_set1_epi32((int)ctr), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    for (int i = 0; i < 16; i++)
        x[i] = s[i];
    IC_CHACHA20_ROUNDS(QR, x);
    for (int i = 0; i < 16; i++)
        x[i] = _mm256_add_epi32(x[i], s[i]);
    /* words 4g..4g+3 of blocks j (low lane) and 4+j (high lane) in x[4g+j] */
    for (int g = 0; g < 4; g++)
        transpose4(&x[4 * g], &x[4 * g + 1], &x[4 * g + 2], &x[4 * g + 3]);
    for (int j = 0; j < 4; j++) {
        /* block j: words 0-7 = low lanes of x[j], x[4+j]; 8-15 of x[8+j], x[12+j] */
        xor_store(out + 64 * j, in + 64 * j, _mm256_permute2x128_si256(x[j], x[4 + j], 0x20),
                  _mm256_permute2x128_si256(x[8 + j], x[12 + j], 0x20));
        xor_store(out + 64 * (4 + j), in + 64 * (4 + j), _mm256_permute2x128_si256(x[j], x[4 + j], 0x31),
                  _mm256_permute2x128_si256(x[8 + j], x[12 + j], 0x31));
    }
}

/* ---- 1-4 blocks: rows of two blocks per register set ------------------- */

/* One double round on a row-ordered pair: a column round, then rows b, c,
 * d rotated by 1, 2, 3 words so the diagonals line up as columns, a
 * second column round, and the rotation undone. */
#define ROW_DOUBLE(a, b, c, d) do {                              \
        QR(a, b, c, d);                                          \
        a = _mm256_shuffle_epi32(a, 0x93);                       \
        c = _mm256_shuffle_epi32(c, 0x39);                       \
        d = _mm256_shuffle_epi32(d, 0x4e);                       \
        QR(a, b, c, d);                                          \
        a = _mm256_shuffle_epi32(a, 0x39);                       \
        c = _mm256_shuffle_epi32(c, 0x93);                       \
        d = _mm256_shuffle_epi32(d, 0x4e);                       \
    } while (0)

/* Out = in xor keystream for block 0 (low lanes) and, when two is set,
 * block 1 (high lanes) of a row-ordered pair. */
ALWAYS_INLINE void rows_store(uint8_t *out, const uint8_t *in, __m256i a, __m256i b, __m256i c, __m256i d,
                              int two)
{
    xor_store(out, in, _mm256_permute2x128_si256(a, b, 0x20), _mm256_permute2x128_si256(c, d, 0x20));
    if (two)
        xor_store(out + 64, in + 64, _mm256_permute2x128_si256(a, b, 0x31),
                  _mm256_permute2x128_si256(c, d, 0x31));
}

/* 1 <= n <= 4 blocks from counter ctr; two pairs run side by side when
 * n > 2 (independent chains fill the pipeline), one otherwise. */
static void chacha_rows(const uint32_t input[16], uint8_t *out, const uint8_t *in, size_t n, uint32_t ctr)
{
    const __m256i r16 = ROT16_MASK, r8 = ROT8_MASK;
    const __m256i sa = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)input));
    const __m256i sb = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(input + 4)));
    const __m256i sc = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(input + 8)));
    __m256i sd = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(input + 12)));
    sd = _mm256_blend_epi32(sd, _mm256_setr_epi32((int)ctr, 0, 0, 0, (int)(ctr + 1), 0, 0, 0), 0x11);
    const __m256i two = _mm256_setr_epi32(2, 0, 0, 0, 2, 0, 0, 0);
    if (n <= 2) {
        __m256i a = sa, b = sb, c = sc, d = sd;
        for (int i = 0; i < 10; i++)
            ROW_DOUBLE(a, b, c, d);
        rows_store(out, in, _mm256_add_epi32(a, sa), _mm256_add_epi32(b, sb), _mm256_add_epi32(c, sc),
                   _mm256_add_epi32(d, sd), n == 2);
        return;
    }
    const __m256i sd2 = _mm256_add_epi32(sd, two);
    __m256i a = sa, b = sb, c = sc, d = sd, a2 = sa, b2 = sb, c2 = sc, d2 = sd2;
    for (int i = 0; i < 10; i++) {
        ROW_DOUBLE(a, b, c, d);
        ROW_DOUBLE(a2, b2, c2, d2);
    }
    rows_store(out, in, _mm256_add_epi32(a, sa), _mm256_add_epi32(b, sb), _mm256_add_epi32(c, sc),
               _mm256_add_epi32(d, sd), 1);
    rows_store(out + 128, in + 128, _mm256_add_epi32(a2, sa), _mm256_add_epi32(b2, sb),
               _mm256_add_epi32(c2, sc), _mm256_add_epi32(d2, sd2), n == 4);
}

static void chacha20_avx2_xor_blocks(const uint32_t input[16], uint8_t *out, const uint8_t *in,
                                     size_t nblocks)
{
    uint32_t ctr = input[12];
    for (; nblocks >= 8; nblocks -= 8, in += 512, out += 512, ctr += 8)
        chacha8(input, out, in, ctr);
    while (nblocks != 0) {
        size_t n = nblocks < 4 ? nblocks : 4;
        chacha_rows(input, out, in, n, ctr);
        nblocks -= n;
        in += 64 * n;
        out += 64 * n;
        ctr += (uint32_t)n;
    }
}

/* HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2) on the row path: one
 * block in the low lanes, no feed-forward, words 0-3 and 12-15 out. */
static void chacha20_avx2_hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t in16[16])
{
    const __m256i r16 = ROT16_MASK, r8 = ROT8_MASK;
    __m256i a = _mm256_setr_epi32(0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, 0, 0, 0, 0);
    __m256i b = _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)key));
    __m256i c = _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)(key + 16)));
    __m256i d = _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)in16));
    for (int i = 0; i < 10; i++)
        ROW_DOUBLE(a, b, c, d);
    _mm_storeu_si128((__m128i *)subkey, _mm256_castsi256_si128(a));
    _mm_storeu_si128((__m128i *)(subkey + 16), _mm256_castsi256_si128(d));
}

static const ic_chacha20_ops avx2_ops = {
    .xor_blocks = chacha20_avx2_xor_blocks,
    .hchacha20 = chacha20_avx2_hchacha20,
};
IC_BACKEND(chacha20, avx2, IC_F(IC_CPU_AVX2), &avx2_ops);

IC_TARGET_END
#endif /* x86 */
