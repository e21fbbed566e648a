/*
 * ghash_ppc.h - GHASH arithmetic with vpmsumd (POWER8, ISA 2.07), shared by
 * the "p8" GHASH (ghash_ppc_p8.c) and the stitched AES-GCM loop
 * (gcm_ppc_p8.c), and the layout of the hash key they both read.
 *
 * Registers follow aes_ppc.h: a block enters through p8_load_be(), so a
 * register holds it as a big-endian 128-bit number and vpmsumd, vsldoi and
 * the constants mean the same thing on ppc64 and ppc64le.  (The dword swap
 * that chapter 6 of "POWER8 in-core Cryptography: The Unofficial Guide" shows between the two is what
 * vpmsumd's result looks like in GCC's element numbering; in this
 * register-order view there is none.)
 *
 * The math.  GCM's bit order is reflected (SP 800-38D section 6.3: bit 0 of
 * byte 0, its MSB, is the coefficient of x^0), so the 128-bit number A of a
 * block holds the polynomial a backwards: A = y^127 a(1/y) as a polynomial
 * in y.  For two such numbers the carry-less product satisfies
 *     A*B = y^254 (ab)(1/y) == y^127 C  (mod G),  G(y) = y^128 g(1/y)
 * where C is the number of c = ab mod g and G = y^128 + y^127 + y^126 +
 * y^121 + 1 is g = x^128 + x^7 + x^2 + x + 1 reflected.  So C = A*B*y^-127
 * mod G.  Multiplying H by y once at key setup (Hy = H*y mod G: a one-bit
 * left shift, folding the carry back with G) leaves C = A*Hy*y^-128 mod G:
 * a Montgomery reduction by y^128, done as two steps of 64 bits:
 *     T -> (T + m*G) / y^64  with m = T mod y^64,
 * which is exact because G = 1 (mod y^64).  Since (G - 1 - y^128) / y^64 =
 * y^63 + y^62 + y^57, m*G/y^64 = m*0xC200000000000000 + m*y^64: one
 * vpmsumd by the constant and a dword swap per step.  Powers of H keep the
 * form: mont(H^i y, H y) = H^(i+1) y, so H^2..H^8 come from the same multiply.
 *
 * A 128x128 product is three vpmsumd, no Karatsuba: vpmsumd(a, b) is
 * a.hi*b.hi ^ a.lo*b.lo, so with b = [0 : H.lo], [H.lo : H.hi], [H.hi : 0]
 * (precomputed) it gives X.lo*H.lo, the middle term X.hi*H.lo ^ X.lo*H.hi,
 * and X.hi*H.hi.  The products of several blocks by different powers of H
 * add up before one reduction (aggregation: Y' = (Y^X1)H^n ^ X2 H^(n-1) ^
 * ... ^ Xn H, eight blocks per reduction).
 *
 * Hash-key layout ("p8" GHASH keys), in ic_ghash_key.storage (64-aligned):
 *   storage[48*(i-1) + 16*j], i = 1..8, j = 0, 1, 2: for P = H^i * y,
 *   the register images (vec_st) of [0 : P.lo], [P.lo : P.hi], [P.hi : 0].
 */
#ifndef INCORE_GHASH_PPC_H
#define INCORE_GHASH_PPC_H

#include "gcm/ghash_impl.h"
#include "aes/aes_ppc.h"

#if defined(__powerpc64__)

/* The stitched loop IC_STITCH_PPC_P8 (gcm_ppc_p8.c: whole batches of 8
 * blocks, p8 AES keys). */
size_t ic_gcm_p8_crypt(const ic_aes_key *k, const ic_ghash_key *hk, unsigned flags, uint8_t ctr[16],
                    uint8_t y[16], uint8_t *out, const uint8_t *in, size_t nblocks);

#if defined(__CRYPTO__) && defined(__VSX__)

#define GHASH_P8_POWERS 8   /* blocks per reduction, powers of H kept */

_Static_assert(48 * GHASH_P8_POWERS <= IC_GHASH_KEY_STORAGE, "p8 GHASH key too large");

P8_INLINE p8_u8 ghash_p8_pmsum(p8_u8 a, p8_u8 b)
{
    return (p8_u8)__builtin_crypto_vpmsumd((p8_u64)a, (p8_u64)b);
}

/* The unreduced sum of products: T = hi * y^128 + mid * y^64 + lo. */
typedef struct {
    p8_u8 lo, mid, hi;
} ghash_p8_acc;

P8_INLINE ghash_p8_acc ghash_p8_acc_zero(void)
{
    p8_u8 z = vec_splats((unsigned char)0);
    ghash_p8_acc a = {z, z, z};
    return a;
}

/* acc += x * H^i (i = 1..8, times y as the layout says), unreduced. */
P8_INLINE void ghash_p8_mulacc(ghash_p8_acc *a, p8_u8 x, const ic_ghash_key *hk, unsigned i)
{
    const unsigned char *p = hk->storage + 48 * (i - 1);
    a->lo = vec_xor(a->lo, ghash_p8_pmsum(x, vec_ld(0, p)));
    a->mid = vec_xor(a->mid, ghash_p8_pmsum(x, vec_ld(16, p)));
    a->hi = vec_xor(a->hi, ghash_p8_pmsum(x, vec_ld(32, p)));
}

/* T * y^-128 mod G, the two Montgomery steps of the file comment.  With
 * L = [T1 : T0] (lo plus the middle term's low half moved up) and
 * U = [T3 : T2] (hi plus the middle term's high half):
 *   step 1: L' = swap(L) ^ T0*K      (T0 cancelled, the rest moved down 64)
 *   step 2: C  = U ^ swap(L') ^ L'.lo*K
 * where K = 0xC200000000000000 and vpmsumd(L, [0 : K]) = L.lo * K.  Both
 * operands of a step's multiply are below 2^64 and T below 2^255, so C is
 * below 2^128: fully reduced. */
P8_INLINE p8_u8 ghash_p8_reduce(ghash_p8_acc a)
{
    static const uint8_t kbytes[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0xc2, 0, 0, 0, 0, 0, 0, 0};
    const p8_u8 z = vec_splats((unsigned char)0), kc = p8_load_be(kbytes);
    p8_u8 l = vec_xor(a.lo, vec_sld(a.mid, z, 8));  /* [T1 : T0]             */
    p8_u8 u = vec_xor(a.hi, vec_sld(z, a.mid, 8));  /* [T3 : T2]             */
    l = vec_xor(vec_sld(l, l, 8), ghash_p8_pmsum(l, kc));
    return vec_xor(u, vec_xor(vec_sld(l, l, 8), ghash_p8_pmsum(l, kc)));
}

/* Y' = (Y ^ x[0]) H^n ^ x[1] H^(n-1) ^ ... ^ x[n-1] H, for n = 1..8. */
P8_INLINE p8_u8 ghash_p8_update(const ic_ghash_key *hk, p8_u8 y, const p8_u8 x[], const size_t n)
{
    ghash_p8_acc a = ghash_p8_acc_zero();
    P8_EACH(i, n) ghash_p8_mulacc(&a, i == 0 ? vec_xor(y, x[0]) : x[i], hk, (unsigned)(n - i));
    return ghash_p8_reduce(a);
}

#endif /* __CRYPTO__ && __VSX__ */
#endif /* __powerpc64__ */
#endif
