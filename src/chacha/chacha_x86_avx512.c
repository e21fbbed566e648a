/*
 * chacha_x86_avx512.c - ChaCha20 (RFC 8439 section 2.3) on 512-bit AVX-512
 * registers: the "avx512" entry of ic_impls_chacha20 (AVX-512F + VL).
 *
 * Long runs go 16 blocks per pass, state transposed across lanes as in the
 * AVX2 file (register i = word i of 16 consecutive blocks), and every
 * rotation, 16, 12, 8 and 7, is one VPROLD.  The 16x16 word transpose back
 * to blocks is two steps: a 4x4 word transpose inside each 128-bit lane
 * (unpack 32/64) for each group of four words, then a 4x4 transpose of
 * 128-bit lanes across four registers (two rounds of VSHUFI32X4).  A last
 * pass of 9-15 blocks runs the same code and stores only the blocks asked
 * for.
 *
 * A run of 16q + 1 blocks takes its odd block in scalar registers inside
 * the first pass (pass16, "extra"), not alone on the row path.  Every pass
 * with a scalar 17th block measured 3 % SLOWER on Zen 4 at 16 KiB than
 * 16-block passes (docs/backends.md, ChaCha20), so only that
 * case uses it.
 *
 * Runs of 1-8 blocks take the row path: one block per 128-bit lane, rows
 * a, b, c, d of four blocks in four ZMM registers (two YMM for 1-2
 * blocks, whose latency is shorter), diagonals lined up by VPSHUFD; a block is exactly one ZMM register, so only the blocks
 * present are loaded and stored, and a 64-byte message costs the rounds
 * of one register set and no stack copy.
 * HChaCha20 runs on the same row code (XMM width, VPROLD).
 *
 * Constant time: add, xor, rotate by constants; branches and masks depend
 * only on the (public) block count.
 */
#include "core/target.h"

/* x86-64 only: GCC 12 stops with an internal compiler error on this
 * file in 32-bit mode (sse.md, a masked 512-bit move with eight ZMM
 * registers); the 32-bit build keeps chacha20/avx2. */
#if defined(__x86_64__)
IC_TARGET_BEGIN("avx2,avx512f,avx512vl,avx512bw")
#include <immintrin.h>
#include "chacha/chacha_impl.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

#define QR(a, b, c, d) do {                                                                      \
        a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a); d = _mm512_rol_epi32(d, 16);     \
        c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c); b = _mm512_rol_epi32(b, 12);     \
        a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a); d = _mm512_rol_epi32(d, 8);      \
        c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c); b = _mm512_rol_epi32(b, 7);      \
    } while (0)

/* The four quarter rounds of a column (or diagonal) round in lockstep,
 * step by step across the four, the order OpenSSL's AVX-512 code also
 * issues them in: each step's four operations are independent, so the
 * scheduler always has work for both 512-bit pipe pairs (2 % faster on
 * Zen 4 than four QRs one after the other, which leaves the reordering to
 * the out-of-order window). */
#define ADD4(a0, b0, a1, b1, a2, b2, a3, b3) do {                                              \
        a0 = _mm512_add_epi32(a0, b0); a1 = _mm512_add_epi32(a1, b1);                          \
        a2 = _mm512_add_epi32(a2, b2); a3 = _mm512_add_epi32(a3, b3);                          \
    } while (0)
#define XROL4(d0, a0, d1, a1, d2, a2, d3, a3, n) do {                                          \
        d0 = _mm512_rol_epi32(_mm512_xor_si512(d0, a0), n);                                    \
        d1 = _mm512_rol_epi32(_mm512_xor_si512(d1, a1), n);                                    \
        d2 = _mm512_rol_epi32(_mm512_xor_si512(d2, a2), n);                                    \
        d3 = _mm512_rol_epi32(_mm512_xor_si512(d3, a3), n);                                    \
    } while (0)
#define QR4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3) do {               \
        ADD4(a0, b0, a1, b1, a2, b2, a3, b3); XROL4(d0, a0, d1, a1, d2, a2, d3, a3, 16);      \
        ADD4(c0, d0, c1, d1, c2, d2, c3, d3); XROL4(b0, c0, b1, c1, b2, c2, b3, c3, 12);      \
        ADD4(a0, b0, a1, b1, a2, b2, a3, b3); XROL4(d0, a0, d1, a1, d2, a2, d3, a3, 8);       \
        ADD4(c0, d0, c1, d1, c2, d2, c3, d3); XROL4(b0, c0, b1, c1, b2, c2, b3, c3, 7);       \
    } while (0)

ALWAYS_INLINE void transpose4(__m512i *a, __m512i *b, __m512i *c, __m512i *d)
{
    __m512i t0 = _mm512_unpacklo_epi32(*a, *b), t1 = _mm512_unpackhi_epi32(*a, *b);
    __m512i t2 = _mm512_unpacklo_epi32(*c, *d), t3 = _mm512_unpackhi_epi32(*c, *d);
    *a = _mm512_unpacklo_epi64(t0, t2);
    *b = _mm512_unpackhi_epi64(t0, t2);
    *c = _mm512_unpacklo_epi64(t1, t3);
    *d = _mm512_unpackhi_epi64(t1, t3);
}

/* 4x4 transpose of 128-bit lanes: lane l of a, b, c, d (in that order)
 * into o[l]. */
ALWAYS_INLINE void lanes4x4(__m512i o[4], __m512i a, __m512i b, __m512i c, __m512i d)
{
    __m512i t0 = _mm512_shuffle_i32x4(a, b, 0x44);      /* a.0 a.1 b.0 b.1 */
    __m512i t1 = _mm512_shuffle_i32x4(c, d, 0x44);      /* c.0 c.1 d.0 d.1 */
    __m512i t2 = _mm512_shuffle_i32x4(a, b, 0xee);      /* a.2 a.3 b.2 b.3 */
    __m512i t3 = _mm512_shuffle_i32x4(c, d, 0xee);
    o[0] = _mm512_shuffle_i32x4(t0, t1, 0x88);
    o[1] = _mm512_shuffle_i32x4(t0, t1, 0xdd);
    o[2] = _mm512_shuffle_i32x4(t2, t3, 0x88);
    o[3] = _mm512_shuffle_i32x4(t2, t3, 0xdd);
}

/* Scalar quarter round (RFC 8439 section 2.1) for pass16's extra block. */
#define SQR(a, b, c, d) do {                                 \
        a += b; d ^= a; d = ic_rotl32(d, 16);                \
        c += d; b ^= c; b = ic_rotl32(b, 12);                \
        a += b; d ^= a; d = ic_rotl32(d, 8);                 \
        c += d; b ^= c; b = ic_rotl32(b, 7);                 \
    } while (0)

/* out = in xor keystream block k; only the first len bytes (1..64) when
 * len < 64, by byte-masked moves, so nothing past them is read or written
 * (len is public). */
ALWAYS_INLINE void put_block(uint8_t *out, const uint8_t *in, __m512i k, size_t len)
{
    if (len >= 64) {
        _mm512_storeu_si512((void *)out, _mm512_xor_si512(k, _mm512_loadu_si512((const void *)in)));
    } else {
        const __mmask64 m = ((__mmask64)1 << len) - 1;
        _mm512_mask_storeu_epi8(out, m, _mm512_xor_si512(k, _mm512_maskz_loadu_epi8(m, in)));
    }
}

/* Where pass16's scalar block goes (a constant after inlining). */
enum { X_NONE, X_DATA, X_KEY };

/* 16 blocks from counter ctr in ZMM lanes; only the first n (1..16) are
 * stored, the last of them only its first last (1..64) bytes.  With extra
 * (a constant after inlining) one more block runs in general-purpose
 * registers inside the same round loop: X_DATA, block ctr + 16 xored into
 * out + 1024, for a run of 16q + 1 blocks, where that block would
 * otherwise take the row path's latency chain on its own (~250 cycles);
 * X_KEY, the first 32 bytes of block ctr - 1 into k0, the AEAD's one-time key
 * (chacha20_avx512_crypt).  The integer ALUs are idle here, so it costs
 * about 3 % of the pass.  Not for every pass: the scalar instructions take
 * room in the out-of-order window the vector chains need, and 17-block
 * passes measured 3 % slower than 16-block ones at 16 KiB on Zen 4
 * (docs/backends.md, ChaCha20). */
ALWAYS_INLINE void pass16(const uint32_t input[16], uint8_t *out, const uint8_t *in, uint32_t ctr, size_t n,
                          size_t last, int extra, uint8_t *k0)
{
    __m512i s[16], x[16];
    uint32_t y[16];
    const uint32_t yctr = extra == X_KEY ? ctr - 1 : ctr + 16;
    for (int i = 0; i < 16; i++) {
        s[i] = _mm512_set1_epi32((int)input[i]);
        y[i] = input[i];
    }
    s[12] = _mm512_add_epi32(_mm512_set1_epi32((int)ctr),
                             _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    y[12] = yctr;
    for (int i = 0; i < 16; i++)
        x[i] = s[i];
    for (int i = 0; i < 10; i++) {
        QR4(x[0], x[4], x[8], x[12], x[1], x[5], x[9], x[13], x[2], x[6], x[10], x[14], x[3], x[7], x[11], x[15]);
        if (extra) {
            SQR(y[0], y[4], y[8], y[12]);
            SQR(y[1], y[5], y[9], y[13]);
            SQR(y[2], y[6], y[10], y[14]);
            SQR(y[3], y[7], y[11], y[15]);
        }
        QR4(x[0], x[5], x[10], x[15], x[1], x[6], x[11], x[12], x[2], x[7], x[8], x[13], x[3], x[4], x[9], x[14]);
        if (extra) {
            SQR(y[0], y[5], y[10], y[15]);
            SQR(y[1], y[6], y[11], y[12]);
            SQR(y[2], y[7], y[8], y[13]);
            SQR(y[3], y[4], y[9], y[14]);
        }
    }
    if (extra == X_DATA) {
        for (int i = 0; i < 16; i++) {
            uint32_t k = y[i] + (i == 12 ? yctr : input[i]);
            ic_store32_le(out + 1024 + 4 * i, ic_load32_le(in + 1024 + 4 * i) ^ k);
        }
    } else if (extra == X_KEY) {
        /* the key's 32 bytes in 8-byte stores: Poly1305's key set-up reads
         * them back at once as 8-byte loads, which a store of the same
         * width can forward */
        for (int i = 0; i < 8; i += 2)
            ic_store64_le(k0 + 4 * i, (uint64_t)(y[i] + (i == 12 ? yctr : input[i])) |
                                          (uint64_t)(y[i + 1] + input[i + 1]) << 32);
    }
    for (int i = 0; i < 16; i++)
        x[i] = _mm512_add_epi32(x[i], s[i]);
    /* x[4g+j], 128-bit lane l: words 4g..4g+3 of block 4l + j */
    for (int g = 0; g < 4; g++)
        transpose4(&x[4 * g], &x[4 * g + 1], &x[4 * g + 2], &x[4 * g + 3]);
    for (int j = 0; j < 4; j++) {
        /* lanes l of x[j], x[4+j], x[8+j], x[12+j] make block 4l + j */
        __m512i o[4];
        lanes4x4(o, x[j], x[4 + j], x[8 + j], x[12 + j]);
        for (int l = 0; l < 4; l++) {
            size_t b = 4 * (size_t)l + (size_t)j;
            if (b < n)
                put_block(out + 64 * b, in + 64 * b, o[l], b + 1 == n ? last : 64);
        }
    }
}

static void chacha16(const uint32_t input[16], uint8_t *out, const uint8_t *in, uint32_t ctr, size_t n)
{
    pass16(input, out, in, ctr, n, 64, X_NONE, NULL);
}

static void chacha17(const uint32_t input[16], uint8_t *out, const uint8_t *in, uint32_t ctr)
{
    pass16(input, out, in, ctr, 16, 64, X_DATA, NULL);
}

/* ---- 1-8 blocks: one block per 128-bit lane ----------------------------- */

#define ROW_DOUBLE(a, b, c, d) do {                              \
        QR(a, b, c, d);                                          \
        a = _mm512_shuffle_epi32(a, (_MM_PERM_ENUM)0x93);        \
        c = _mm512_shuffle_epi32(c, (_MM_PERM_ENUM)0x39);        \
        d = _mm512_shuffle_epi32(d, (_MM_PERM_ENUM)0x4e);        \
        QR(a, b, c, d);                                          \
        a = _mm512_shuffle_epi32(a, (_MM_PERM_ENUM)0x39);        \
        c = _mm512_shuffle_epi32(c, (_MM_PERM_ENUM)0x93);        \
        d = _mm512_shuffle_epi32(d, (_MM_PERM_ENUM)0x4e);        \
    } while (0)

/* Where the row path's blocks go: block l of the run to out + 64 l,
 * xored with in (put_block); or, for the AEAD's first call (k0 not NULL),
 * the first 32 bytes of block 0 into k0 and block l >= 1 to out + 64 (l - 1).  The last
 * block to out takes only last (1..64) bytes. */
typedef struct {
    uint8_t *k0, *out;
    const uint8_t *in;
    size_t n, last;   /* blocks in the run, bytes of its last one */
} rows_sink;

ALWAYS_INLINE void row_out(const rows_sink *s, size_t l, __m512i k)
{
    if (s->k0 != NULL && l == 0)   /* the key: rows_key, from the rows themselves */
        return;
    size_t j = s->k0 != NULL ? l - 1 : l;
    put_block(s->out + 64 * j, s->in + 64 * j, k, l + 1 == s->n ? s->last : 64);
}

/* put_block for a block in two YMM halves (bytes 0-31, 32-63). */
ALWAYS_INLINE void put_block2(uint8_t *out, const uint8_t *in, __m256i k0, __m256i k1, size_t len)
{
    if (len >= 64) {
        _mm256_storeu_si256((__m256i *)out, _mm256_xor_si256(k0, _mm256_loadu_si256((const __m256i *)in)));
        _mm256_storeu_si256((__m256i *)(out + 32),
                            _mm256_xor_si256(k1, _mm256_loadu_si256((const __m256i *)(in + 32))));
    } else {
        const __mmask32 m0 = len >= 32 ? ~(__mmask32)0 : ((__mmask32)1 << len) - 1;
        const __mmask32 m1 = len > 32 ? ((__mmask32)1 << (len - 32)) - 1 : 0;
        _mm256_mask_storeu_epi8(out, m0, _mm256_xor_si256(k0, _mm256_maskz_loadu_epi8(m0, in)));
        _mm256_mask_storeu_epi8(out + 32, m1, _mm256_xor_si256(k1, _mm256_maskz_loadu_epi8(m1, in + 32)));
    }
}

ALWAYS_INLINE void row_out2(const rows_sink *s, size_t l, __m256i k0, __m256i k1)
{
    size_t j = s->k0 != NULL ? l - 1 : l;
    put_block2(s->out + 64 * j, s->in + 64 * j, k0, k1, l + 1 == s->n ? s->last : 64);
}

/* The one-time key of a sink with k0: the first 32 bytes of block 0,
 * rows a and b of lane 0 as they are (no lane shuffle on its way to
 * Poly1305, whose set-up waits for it: 16 B and 64 B seals 10-13 % faster
 * than through the block transposes). */
ALWAYS_INLINE void rows_key(const rows_sink *s, __m128i a, __m128i b)
{
    if (s->k0 != NULL) {
        _mm_storeu_si128((__m128i *)s->k0, a);
        _mm_storeu_si128((__m128i *)(s->k0 + 16), b);
    }
}

/* Rows a..d of four blocks (block l in 128-bit lane l) back to blocks
 * first .. first + 3 of the sink, as many of them as it has. */
ALWAYS_INLINE void rows_store(const rows_sink *s, size_t first, __m512i a, __m512i b, __m512i c, __m512i d)
{
    __m512i o[4];
    lanes4x4(o, a, b, c, d);
    for (size_t l = 0; l < 4 && first + l < s->n; l++)
        row_out(s, first + l, o[l]);
}

/* 1 or 2 blocks on YMM registers (one block per 128-bit lane, AVX-512VL
 * VPROLD): a single block is a latency chain of 200-odd dependent
 * instructions, and 256-bit operations have the shorter latency on CPUs
 * that split 512-bit ones (Zen 4: a 64-byte run 17 % faster than on ZMM). */
#define QR256(a, b, c, d) do {                                                                    \
        a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = _mm256_rol_epi32(d, 16);     \
        c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = _mm256_rol_epi32(b, 12);     \
        a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = _mm256_rol_epi32(d, 8);      \
        c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = _mm256_rol_epi32(b, 7);      \
    } while (0)

ALWAYS_INLINE void rows2_body(const uint32_t input[16], uint32_t ctr, const rows_sink *s)
{
    const __m256i sa = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)input));
    const __m256i sb = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(input + 4)));
    const __m256i sc = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(input + 8)));
    __m256i sd = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(input + 12)));
    sd = _mm256_blend_epi32(sd, _mm256_setr_epi32((int)ctr, 0, 0, 0, (int)(ctr + 1), 0, 0, 0), 0x11);
    __m256i a = sa, b = sb, c = sc, d = sd;
    for (int i = 0; i < 10; i++) {
        QR256(a, b, c, d);
        a = _mm256_shuffle_epi32(a, 0x93);
        c = _mm256_shuffle_epi32(c, 0x39);
        d = _mm256_shuffle_epi32(d, 0x4e);
        QR256(a, b, c, d);
        a = _mm256_shuffle_epi32(a, 0x39);
        c = _mm256_shuffle_epi32(c, 0x93);
        d = _mm256_shuffle_epi32(d, 0x4e);
    }
    a = _mm256_add_epi32(a, sa);
    b = _mm256_add_epi32(b, sb);
    c = _mm256_add_epi32(c, sc);
    d = _mm256_add_epi32(d, sd);
    /* block 0: the low lanes of a, b | c, d; block 1: the high lanes */
    rows_key(s, _mm256_castsi256_si128(a), _mm256_castsi256_si128(b));
    if (s->k0 == NULL)
        row_out2(s, 0, _mm256_permute2x128_si256(a, b, 0x20), _mm256_permute2x128_si256(c, d, 0x20));
    if (s->n == 2)
        row_out2(s, 1, _mm256_permute2x128_si256(a, b, 0x31), _mm256_permute2x128_si256(c, d, 0x31));
}

/* 3 <= n <= 8 blocks from counter ctr: one register set for up to four
 * blocks, two interleaved sets for five to eight. */
ALWAYS_INLINE void rows_body(const uint32_t input[16], uint32_t ctr, const rows_sink *s)
{
    const __m512i sa = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)input));
    const __m512i sb = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(input + 4)));
    const __m512i sc = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(input + 8)));
    __m512i sd = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(input + 12)));
    sd = _mm512_mask_mov_epi32(sd, 0x1111,
                               _mm512_add_epi32(_mm512_set1_epi32((int)ctr),
                                                _mm512_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0)));
    if (s->n <= 4) {
        __m512i a = sa, b = sb, c = sc, d = sd;
        for (int i = 0; i < 10; i++)
            ROW_DOUBLE(a, b, c, d);
        a = _mm512_add_epi32(a, sa);
        b = _mm512_add_epi32(b, sb);
        rows_key(s, _mm512_castsi512_si128(a), _mm512_castsi512_si128(b));
        rows_store(s, 0, a, b, _mm512_add_epi32(c, sc), _mm512_add_epi32(d, sd));
        return;
    }
    const __m512i sd2 = _mm512_add_epi32(sd, _mm512_setr_epi32(4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0));
    __m512i a = sa, b = sb, c = sc, d = sd, a2 = sa, b2 = sb, c2 = sc, d2 = sd2;
    for (int i = 0; i < 10; i++) {
        ROW_DOUBLE(a, b, c, d);
        ROW_DOUBLE(a2, b2, c2, d2);
    }
    a = _mm512_add_epi32(a, sa);
    b = _mm512_add_epi32(b, sb);
    rows_key(s, _mm512_castsi512_si128(a), _mm512_castsi512_si128(b));
    rows_store(s, 0, a, b, _mm512_add_epi32(c, sc), _mm512_add_epi32(d, sd));
    rows_store(s, 4, _mm512_add_epi32(a2, sa), _mm512_add_epi32(b2, sb), _mm512_add_epi32(c2, sc),
               _mm512_add_epi32(d2, sd2));
}

static void chacha_rows2(const uint32_t input[16], uint8_t *out, const uint8_t *in, size_t n, uint32_t ctr)
{
    const rows_sink s = {NULL, out, in, n, 64};
    rows2_body(input, ctr, &s);
}

static void chacha_rows(const uint32_t input[16], uint8_t *out, const uint8_t *in, size_t n, uint32_t ctr)
{
    const rows_sink s = {NULL, out, in, n, 64};
    rows_body(input, ctr, &s);
}

static void chacha20_avx512_xor_blocks(const uint32_t input[16], uint8_t *out, const uint8_t *in,
                                       size_t nblocks)
{
    uint32_t ctr = input[12];
    if (nblocks % 16 == 1 && nblocks > 16) {
        chacha17(input, out, in, ctr);
        nblocks -= 17, in += 1088, out += 1088, ctr += 17;
    }
    for (; nblocks >= 16; nblocks -= 16, in += 1024, out += 1024, ctr += 16)
        chacha16(input, out, in, ctr, 16);
    if (nblocks > 8)
        chacha16(input, out, in, ctr, nblocks);
    else if (nblocks > 2)
        chacha_rows(input, out, in, nblocks, ctr);
    else if (nblocks != 0)
        chacha_rows2(input, out, in, nblocks, ctr);
}

/* Any len bytes in one call (chacha_impl.h), the last block's partial
 * bytes by masked moves inside the last pass instead of a call of their
 * own; with k0, block input[12] first into k0 (ChaCha20-Poly1305's key
 * block): from eight data blocks the first 16-lane pass takes up to 16 of
 * them and the key block runs in its scalar slot (X_KEY), so it costs
 * nothing on top of the data; below, the key is block 0 of the row path. */
static void chacha20_avx512_crypt(const uint32_t input[16], uint8_t *k0, uint8_t *out, const uint8_t *in,
                                  size_t len)
{
    uint32_t ctr = input[12];
    size_t n = (len + 63) / 64;
    const size_t last = len - 64 * (n - (n != 0));   /* bytes of the last block */
    if (k0 != NULL) {
        if (n < 8) {
            const rows_sink s = {k0, out, in, n + 1, last};
            if (n >= 2)
                rows_body(input, ctr, &s);
            else
                rows2_body(input, ctr, &s);
            return;
        }
        const size_t m = n < 16 ? n : 16;
        pass16(input, out, in, ctr + 1, m, m == n ? last : 64, X_KEY, k0);
        n -= m, in += 1024, out += 1024, ctr += 17;
    }
    /* the scalar 17th block stores whole blocks only */
    if (n % 16 == 1 && (n > 17 || (n == 17 && last == 64))) {
        chacha17(input, out, in, ctr);
        n -= 17, in += 1088, out += 1088, ctr += 17;
    }
    for (; n > 16; n -= 16, in += 1024, out += 1024, ctr += 16)
        chacha16(input, out, in, ctr, 16);
    if (n > 8) {
        pass16(input, out, in, ctr, n, last, X_NONE, NULL);
    } else if (n > 2) {
        const rows_sink s = {NULL, out, in, n, last};
        rows_body(input, ctr, &s);
    } else if (n != 0) {
        const rows_sink s = {NULL, out, in, n, last};
        rows2_body(input, ctr, &s);
    }
}

/* HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2): one block in row
 * order on XMM registers, no feed-forward, words 0-3 and 12-15 out. */
#define QR128(a, b, c, d) do {                                                            \
        a = _mm_add_epi32(a, b); d = _mm_xor_si128(d, a); d = _mm_rol_epi32(d, 16);      \
        c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c); b = _mm_rol_epi32(b, 12);      \
        a = _mm_add_epi32(a, b); d = _mm_xor_si128(d, a); d = _mm_rol_epi32(d, 8);       \
        c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c); b = _mm_rol_epi32(b, 7);       \
    } while (0)

static void chacha20_avx512_hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t in16[16])
{
    __m128i a = _mm_setr_epi32(0x61707865, 0x3320646e, 0x79622d32, 0x6b206574);
    __m128i b = _mm_loadu_si128((const __m128i *)key);
    __m128i c = _mm_loadu_si128((const __m128i *)(key + 16));
    __m128i d = _mm_loadu_si128((const __m128i *)in16);
    for (int i = 0; i < 10; i++) {
        QR128(a, b, c, d);
        a = _mm_shuffle_epi32(a, 0x93);
        c = _mm_shuffle_epi32(c, 0x39);
        d = _mm_shuffle_epi32(d, 0x4e);
        QR128(a, b, c, d);
        a = _mm_shuffle_epi32(a, 0x39);
        c = _mm_shuffle_epi32(c, 0x93);
        d = _mm_shuffle_epi32(d, 0x4e);
    }
    _mm_storeu_si128((__m128i *)subkey, a);
    _mm_storeu_si128((__m128i *)(subkey + 16), d);
}

static const ic_chacha20_ops avx512_ops = {
    .xor_blocks = chacha20_avx512_xor_blocks,
    .crypt = chacha20_avx512_crypt,
    .hchacha20 = chacha20_avx512_hchacha20,
};
IC_BACKEND(chacha20, avx512, IC_F(IC_CPU_AVX512F) | IC_F(IC_CPU_AVX512VL) | IC_F(IC_CPU_AVX512BW) | IC_F(IC_CPU_AVX2),
           &avx512_ops);

IC_TARGET_END
#endif /* __x86_64__ */
