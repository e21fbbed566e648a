/*
 * sha512_ppc_p8.c - SHA-384/512/512-224/512-256 compression (FIPS 180-4,
 * 6.4.2) with the POWER8 vector crypto instructions, the "p8" entry of the
 * sha512 registry.
 *
 * The same strategy as sha256_ppc_p8.c (chapter 5 of
 * "POWER8 in-core Cryptography: The Unofficial Guide"):
 * working variables and the 16-word schedule ring each in a vector register,
 * vshasigmad for the four Sigma/sigma functions, vsel for Ch and Maj, the
 * round structure of sha2_rounds.h shared with the portable code.  Each
 * 64-bit word is splatted into both doubleword lanes, so nothing depends on
 * GCC's element numbering, which differs between ppc64 and ppc64le; the
 * round constants come pre-splatted (one aligned load per round).
 * The 64-bit additions are vaddudm (GCC's vector '+' on unsigned long long,
 * new in ISA 2.07 like the crypto instructions).
 *
 * Endianness: message bytes loaded with vec_xl as bytes, reinterpreted as
 * doublewords and, on little-endian, byte-reversed per doubleword with
 * vec_revb to give the big-endian words of 5.2.2.
 *
 * Constant time: no branch or index depends on the data.  Compiled for
 * POWER8; used only when AT_HWCAP2 reports vcrypto.
 */
#include "core/target.h"

#if defined(__powerpc64__)
IC_TARGET_BEGIN(IC_TARGET_POWER8)
#include "sha/sha_impl.h"
#include "sha/sha2_ppc_p8.h"

typedef __vector unsigned long long vu64;
typedef __vector unsigned char vu8;

/* 4.2.3 constants, each replicated into both lanes. */
#define K2(x) { UINT64_C(x), UINT64_C(x) }
static const vu64 K512V[80] = {
    K2(0x428a2f98d728ae22), K2(0x7137449123ef65cd),
    K2(0xb5c0fbcfec4d3b2f), K2(0xe9b5dba58189dbbc),
    K2(0x3956c25bf348b538), K2(0x59f111f1b605d019),
    K2(0x923f82a4af194f9b), K2(0xab1c5ed5da6d8118),
    K2(0xd807aa98a3030242), K2(0x12835b0145706fbe),
    K2(0x243185be4ee4b28c), K2(0x550c7dc3d5ffb4e2),
    K2(0x72be5d74f27b896f), K2(0x80deb1fe3b1696b1),
    K2(0x9bdc06a725c71235), K2(0xc19bf174cf692694),
    K2(0xe49b69c19ef14ad2), K2(0xefbe4786384f25e3),
    K2(0x0fc19dc68b8cd5b5), K2(0x240ca1cc77ac9c65),
    K2(0x2de92c6f592b0275), K2(0x4a7484aa6ea6e483),
    K2(0x5cb0a9dcbd41fbd4), K2(0x76f988da831153b5),
    K2(0x983e5152ee66dfab), K2(0xa831c66d2db43210),
    K2(0xb00327c898fb213f), K2(0xbf597fc7beef0ee4),
    K2(0xc6e00bf33da88fc2), K2(0xd5a79147930aa725),
    K2(0x06ca6351e003826f), K2(0x142929670a0e6e70),
    K2(0x27b70a8546d22ffc), K2(0x2e1b21385c26c926),
    K2(0x4d2c6dfc5ac42aed), K2(0x53380d139d95b3df),
    K2(0x650a73548baf63de), K2(0x766a0abb3c77b2a8),
    K2(0x81c2c92e47edaee6), K2(0x92722c851482353b),
    K2(0xa2bfe8a14cf10364), K2(0xa81a664bbc423001),
    K2(0xc24b8b70d0f89791), K2(0xc76c51a30654be30),
    K2(0xd192e819d6ef5218), K2(0xd69906245565a910),
    K2(0xf40e35855771202a), K2(0x106aa07032bbd1b8),
    K2(0x19a4c116b8d2d0c8), K2(0x1e376c085141ab53),
    K2(0x2748774cdf8eeb99), K2(0x34b0bcb5e19b48a8),
    K2(0x391c0cb3c5c95a63), K2(0x4ed8aa4ae3418acb),
    K2(0x5b9cca4f7763e373), K2(0x682e6ff3d6b2b8a3),
    K2(0x748f82ee5defb2fc), K2(0x78a5636f43172f60),
    K2(0x84c87814a1f0ab72), K2(0x8cc702081a6439ec),
    K2(0x90befffa23631e28), K2(0xa4506cebde82bde9),
    K2(0xbef9a3f7b2c67915), K2(0xc67178f2e372532b),
    K2(0xca273eceea26619c), K2(0xd186b8c721c0c207),
    K2(0xeada7dd6cde0eb1e), K2(0xf57d4f7fee6ed178),
    K2(0x06f067aa72176fba), K2(0x0a637dc5a2c898a6),
    K2(0x113f9804bef90dae), K2(0x1b710b35131c471b),
    K2(0x28db77f523047d84), K2(0x32caab7b40c72493),
    K2(0x3c9ebe0a15c9bebc), K2(0x431d67c49c100d4c),
    K2(0x4cc5d4becb3e42b6), K2(0x597f299cfc657e2a),
    K2(0x5fcb6fab3ad6faec), K2(0x6c44198c4a475817),
};

/* vshasigmad(x, ST, SIX): ST=1 the Sigma of 4.1.3 (4.10)/(4.11), ST=0 the
 * sigma (4.12)/(4.13); SIX picks function 0 (0x0) or 1 (0xf) in every lane. */
#define SHA2_WORD vu64
#define SHA2_K    K512V
#define BSIG0(x) __builtin_crypto_vshasigmad((x), 1, 0x0)
#define BSIG1(x) __builtin_crypto_vshasigmad((x), 1, 0xf)
#define SSIG0(x) __builtin_crypto_vshasigmad((x), 0, 0x0)
#define SSIG1(x) __builtin_crypto_vshasigmad((x), 0, 0xf)

static void sha512_p8_compress(uint64_t state[8], const uint8_t *p, size_t nblocks)
{
    for (; nblocks; nblocks--, p += IC_SHA512_BLOCK_SIZE) {
        /* The native uint64_t state read as bytes (no aliasing question:
         * uint64_t is unsigned long, vec_xl's 64-bit form takes unsigned
         * long long) and viewed as doublewords: element i = state[i] on
         * both byte orders. */
        const unsigned char *sb = (const unsigned char *)state;
        vu64 ab = (vu64)vec_xl(0, sb), cd = (vu64)vec_xl(16, sb);
        vu64 ef = (vu64)vec_xl(32, sb), gh = (vu64)vec_xl(48, sb);
        vu64 W[16], m;
        vu64 a = vec_splat(ab, 0), b = vec_splat(ab, 1);
        vu64 c = vec_splat(cd, 0), d = vec_splat(cd, 1);
        vu64 e = vec_splat(ef, 0), f = vec_splat(ef, 1);
        vu64 g = vec_splat(gh, 0), h = vec_splat(gh, 1);

        /* 6.4.2 step 1, t < 16. */
        for (int i = 0; i < 8; i++) {
            m = SHA2_P8_LOAD_BE(vu64, p + 16 * i);
            W[2 * i] = vec_splat(m, 0);
            W[2 * i + 1] = vec_splat(m, 1);
        }

        ROUND8(0);  ROUND8(8);  ROUND8(16); ROUND8(24); ROUND8(32);
        ROUND8(40); ROUND8(48); ROUND8(56); ROUND8(64); ROUND8(72);

        /* Step 4: {x,x},{y,y} -> {x,y} is one doubleword merge. */
        unsigned char *so = (unsigned char *)state;
        vec_xst((vu8)(ab + vec_mergeh(a, b)), 0, so);
        vec_xst((vu8)(cd + vec_mergeh(c, d)), 16, so);
        vec_xst((vu8)(ef + vec_mergeh(e, f)), 32, so);
        vec_xst((vu8)(gh + vec_mergeh(g, h)), 48, so);
    }
}

static const ic_sha512_ops p8_ops = { sha512_p8_compress };
IC_BACKEND(sha512, p8, IC_F(IC_CPU_PPC_VCRYPTO) | IC_F(IC_CPU_PPC_ARCH207) | IC_F(IC_CPU_PPC_VSX), &p8_ops);

IC_TARGET_END

#endif
