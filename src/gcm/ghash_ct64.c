/*
 * ghash_ct64.c - portable constant-time GHASH (SP 800-38D section 6.4) on
 * 64-bit integer multiplies.  Registry "ghash", entry "ct64", needs nothing.
 *
 * The trick: a carry-less (GF(2)[x]) product is an integer product in which
 * no carry ever crosses a column.  Splitting each 64-bit operand into four
 * interleaved slices (bits 0,4,8,.. / 1,5,9,.. / 2,6,.. / 3,7,..) leaves
 * three-bit "holes" between the bits of a slice, so an ordinary integer
 * product of two slices sums at most 15 one-bit products per column (16 only
 * at columns 60..63, whose carry falls off the top): the carries pile up in
 * the holes and never reach the next used column.  Each column's parity
 * (its lowest bit) is the carry-less answer; 16 multiplies plus masks give
 * the low 64 bits of a 64x64 carry-less product.  This is the method of
 * T. Pornin's BearSSL ghash_ctmul64 ("multiplication with holes").
 *
 * The high 64 bits come from the same routine applied to bit-reversed
 * operands: rev(a)*rev(b) = rev(a*b) over 127 bits, so the low half of the
 * reversed product, reversed back, is bits 63..126 of a*b.
 *
 * A 128x128 product takes three 64x64 ones (Karatsuba: a0b0, a1b1 and
 * (a0^a1)(b0^b1)), i.e. six low-half calls; the operands derived from H are
 * precomputed once.  GHASH's reflected bit order (the MSB of byte 0 is the
 * coefficient of x^0) is handled by working on the bit-reversed integers
 * directly: loading the block big-endian gives rev128 of the polynomial, the
 * integer product of two such values is rev255 of the polynomial product, one
 * left shift makes it rev256, and the reduction modulo
 * x^128 + x^7 + x^2 + x + 1 then becomes right shifts by 1, 2 and 7.
 *
 * Constant time: no branch and no memory index depends on H or the data;
 * it assumes the CPU's 64x64 multiplier takes the same time for any
 * operands, which holds for x86-64, AArch64 and POWER8+ cores (not for some
 * small embedded cores with early-terminating multipliers).  Byte order is
 * explicit through ic_load64_be / ic_store64_be, so big-endian hosts give
 * the same answers.
 */
#include "gcm/ghash_impl.h"

/* What init keeps in hk->storage: native-endian words written and read only
 * by this file through memcpy (so the storage's alignment and the host byte
 * order do not matter).  Index 0 = low word of H as an integer (bytes 8..15
 * big-endian), 1 = high word (bytes 0..7), 2 = their XOR for Karatsuba. */
typedef struct {
    uint64_t h[3];    /* H words                                   */
    uint64_t hr[3];   /* the same words bit-reversed (upper halves) */
} ghash_ct64_key;

_Static_assert(sizeof(ghash_ct64_key) <= IC_GHASH_KEY_STORAGE, "ct64 GHASH key too large");

/* Low 64 bits of the carry-less product of x and y (see the file comment).
 * Slice r of the result gets the products x_i*y_j with i + j = r (mod 4). */
static inline uint64_t clmul_lo(uint64_t x, uint64_t y)
{
    const uint64_t m0 = UINT64_C(0x1111111111111111);
    const uint64_t m1 = m0 << 1, m2 = m0 << 2, m3 = m0 << 3;
    uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

/* Bit reversal by swapping ever larger groups (branch-free). */
static inline uint64_t rev64(uint64_t x)
{
    x = ((x >> 1) & UINT64_C(0x5555555555555555)) | ((x & UINT64_C(0x5555555555555555)) << 1);
    x = ((x >> 2) & UINT64_C(0x3333333333333333)) | ((x & UINT64_C(0x3333333333333333)) << 2);
    x = ((x >> 4) & UINT64_C(0x0F0F0F0F0F0F0F0F)) | ((x & UINT64_C(0x0F0F0F0F0F0F0F0F)) << 4);
    x = ((x >> 8) & UINT64_C(0x00FF00FF00FF00FF)) | ((x & UINT64_C(0x00FF00FF00FF00FF)) << 8);
    x = ((x >> 16) & UINT64_C(0x0000FFFF0000FFFF)) | ((x & UINT64_C(0x0000FFFF0000FFFF)) << 16);
    return (x >> 32) | (x << 32);
}

/* (*y1:*y0) = (*y1:*y0) * H in GF(2^128), both in the reflected
 * representation (y1 = first 8 bytes big-endian). */
static inline void gf128_mul(uint64_t *y1, uint64_t *y0, const ghash_ct64_key *k)
{
    uint64_t a0 = *y0, a1 = *y1, a2 = a0 ^ a1;
    uint64_t a0r = rev64(a0), a1r = rev64(a1), a2r = a0r ^ a1r;

    /* Low and (reversed) high halves of a0*h0, a1*h1, (a0^a1)*(h0^h1). */
    uint64_t l0 = clmul_lo(a0, k->h[0]), l1 = clmul_lo(a1, k->h[1]), l2 = clmul_lo(a2, k->h[2]);
    uint64_t r0 = clmul_lo(a0r, k->hr[0]), r1 = clmul_lo(a1r, k->hr[1]), r2 = clmul_lo(a2r, k->hr[2]);

    /* Karatsuba middle term: (a0^a1)(h0^h1) ^ a0h0 ^ a1h1 = a0h1 ^ a1h0.
     * Bit reversal is linear, so the reversed halves combine the same way. */
    l2 ^= l0 ^ l1;
    r2 ^= r0 ^ r1;
    r0 = rev64(r0) >> 1;
    r1 = rev64(r1) >> 1;
    r2 = rev64(r2) >> 1;

    /* The 255-bit product as four words, w3 the most significant. */
    uint64_t w0 = l0, w1 = r0 ^ l2, w2 = l1 ^ r2, w3 = r1;

    /* Shift left by one so bit 255 - m holds the coefficient of x^m. */
    w3 = (w3 << 1) | (w2 >> 63);
    w2 = (w2 << 1) | (w1 >> 63);
    w1 = (w1 << 1) | (w0 >> 63);
    w0 <<= 1;

    /* Reduce: the coefficient of x^m, m >= 128, sits at bit p = 255 - m and
     * x^m = x^(m-128) (1 + x + x^2 + x^7), i.e. it is added at bits p+128,
     * p+127, p+126 and p+121.  Fold w0 first (its images land in w1 and w2),
     * then the updated w1 (into w2 and w3); w3:w2 is the result. */
    w1 ^= (w0 << 63) ^ (w0 << 62) ^ (w0 << 57);
    w2 ^= w0 ^ (w0 >> 1) ^ (w0 >> 2) ^ (w0 >> 7);
    w2 ^= (w1 << 63) ^ (w1 << 62) ^ (w1 << 57);
    w3 ^= w1 ^ (w1 >> 1) ^ (w1 >> 2) ^ (w1 >> 7);

    *y1 = w3;
    *y0 = w2;
}

static void ghash_ct64_init(ic_ghash_key *hk, const uint8_t h[16])
{
    ghash_ct64_key k;
    k.h[1] = ic_load64_be(h);
    k.h[0] = ic_load64_be(h + 8);
    k.h[2] = k.h[0] ^ k.h[1];
    for (int i = 0; i < 3; i++)
        k.hr[i] = rev64(k.h[i]);
    memcpy(hk->storage, &k, sizeof k);
    ic_wipe(&k, sizeof k);
}

static void ghash_ct64_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in,
                              size_t nblocks)
{
    ghash_ct64_key k;
    uint64_t y1 = ic_load64_be(y), y0 = ic_load64_be(y + 8);

    memcpy(&k, hk->storage, sizeof k);
    for (; nblocks > 0; nblocks--, in += 16) {
        y1 ^= ic_load64_be(in);
        y0 ^= ic_load64_be(in + 8);
        gf128_mul(&y1, &y0, &k);
    }
    ic_store64_be(y, y1);
    ic_store64_be(y + 8, y0);
    ic_wipe(&k, sizeof k);
}

static const ic_ghash_ops ct64_ops = {
    .init = ghash_ct64_init,
    .blocks = ghash_ct64_blocks,
    .stitch = 0,   /* no stitched loop reads this key layout */
};

IC_BACKEND(ghash, ct64, 0, &ct64_ops);
