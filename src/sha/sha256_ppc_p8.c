/*
 * sha256_ppc_p8.c - SHA-224/256 compression (FIPS 180-4, 6.2.2) with the
 * POWER8 vector crypto instructions, the "p8" entry of the sha256 registry.
 *
 * Strategy (chapter 5 of "POWER8 in-core Cryptography: The Unofficial Guide"): everything stays in vector registers.  Each working
 * variable a..h and each of the 16 words of the message schedule gets its
 * own register; the schedule is the 16-entry ring of FIPS 180-4 6.2.2 step 1
 * rolled in place (W[t mod 16] overwritten just before round t), so no
 * W[64] array exists.  The Sigma/sigma functions are one vshasigmaw each,
 * Ch and Maj one vsel each (Ch(e,f,g) = e ? f : g bitwise; Maj(a,b,c) = c
 * where a and b differ, else b), and the round structure is the one the
 * portable code uses (sha2_rounds.h: arguments rotated instead of the eight
 * variables moved).
 *
 * Lane layout.  The guide keeps the value of interest in element 0 and lets
 * the other three lanes carry garbage.  We instead keep every 32-bit word
 * SPLATTED across all four lanes: vshasigmaw, vsel and vadduwm work lane by
 * lane, so the four lanes compute the same round, and no instruction ever
 * depends on which lane is "element 0" - the one thing that differs between
 * big-endian ppc64 and little-endian ppc64le in GCC's element numbering.
 * The cost is the same as the guide's shifts: one vspltw per message word,
 * and the round constants come pre-splatted from memory (K256V, one aligned
 * load per round instead of a load and a splat, freeing a vector ALU slot).
 *
 * Endianness: the message is loaded as bytes with vec_xl (any alignment,
 * element i = byte i on both byte orders) and reinterpreted as words; on
 * little-endian the words then hold the bytes reversed, and vec_revb turns
 * them into the big-endian words of 5.2.1.  The chaining value is
 * native uint32_t, loaded and stored with vec_xl/vec_xst (element i = h[i]).
 *
 * Constant time: no branch or index depends on the data.
 *
 * Compiled for POWER8; the registry runs it only when AT_HWCAP2 reports
 * vcrypto.
 */
#include "core/target.h"

#if defined(__powerpc64__)
IC_TARGET_BEGIN(IC_TARGET_POWER8)
#include "sha/sha_impl.h"
#include "sha/sha2_ppc_p8.h"

typedef __vector unsigned int vu32;

/* 4.2.2 constants, each replicated into the four lanes. */
#define K4(x) { x, x, x, x }
static const vu32 K256V[64] = {
    K4(0x428a2f98), K4(0x71374491), K4(0xb5c0fbcf), K4(0xe9b5dba5),
    K4(0x3956c25b), K4(0x59f111f1), K4(0x923f82a4), K4(0xab1c5ed5),
    K4(0xd807aa98), K4(0x12835b01), K4(0x243185be), K4(0x550c7dc3),
    K4(0x72be5d74), K4(0x80deb1fe), K4(0x9bdc06a7), K4(0xc19bf174),
    K4(0xe49b69c1), K4(0xefbe4786), K4(0x0fc19dc6), K4(0x240ca1cc),
    K4(0x2de92c6f), K4(0x4a7484aa), K4(0x5cb0a9dc), K4(0x76f988da),
    K4(0x983e5152), K4(0xa831c66d), K4(0xb00327c8), K4(0xbf597fc7),
    K4(0xc6e00bf3), K4(0xd5a79147), K4(0x06ca6351), K4(0x14292967),
    K4(0x27b70a85), K4(0x2e1b2138), K4(0x4d2c6dfc), K4(0x53380d13),
    K4(0x650a7354), K4(0x766a0abb), K4(0x81c2c92e), K4(0x92722c85),
    K4(0xa2bfe8a1), K4(0xa81a664b), K4(0xc24b8b70), K4(0xc76c51a3),
    K4(0xd192e819), K4(0xd6990624), K4(0xf40e3585), K4(0x106aa070),
    K4(0x19a4c116), K4(0x1e376c08), K4(0x2748774c), K4(0x34b0bcb5),
    K4(0x391c0cb3), K4(0x4ed8aa4a), K4(0x5b9cca4f), K4(0x682e6ff3),
    K4(0x748f82ee), K4(0x78a5636f), K4(0x84c87814), K4(0x8cc70208),
    K4(0x90befffa), K4(0xa4506ceb), K4(0xbef9a3f7), K4(0xc67178f2),
};

/* What sha2_rounds.h needs, in vector form.  vshasigmaw(x, ST, SIX): ST=1
 * gives the "big" Sigma of 4.1.2 (4.4)/(4.5) used on the working variables,
 * ST=0 the "small" sigma (4.6)/(4.7) of the schedule; SIX selects function 0
 * or 1 per lane (0x0: all lanes 0, 0xf: all lanes 1).  The additions
 * (mod 2^32 per lane) use GCC's vector '+', i.e. vadduwm. */
#define SHA2_WORD vu32
#define SHA2_K    K256V
#define BSIG0(x) __builtin_crypto_vshasigmaw((x), 1, 0x0)
#define BSIG1(x) __builtin_crypto_vshasigmaw((x), 1, 0xf)
#define SSIG0(x) __builtin_crypto_vshasigmaw((x), 0, 0x0)
#define SSIG1(x) __builtin_crypto_vshasigmaw((x), 0, 0xf)

/* Four splatted words {x,x,x,x}.. back into one vector {a,b,c,d}: merging
 * pairs gives {a,b,a,b} and {c,d,c,d}; their first doublewords are {a,b}
 * and {c,d}. */
static inline vu32 sha256_p8_pack(vu32 a, vu32 b, vu32 c, vu32 d)
{
    __vector unsigned long long ab = (__vector unsigned long long)vec_mergeh(a, b);
    __vector unsigned long long cd = (__vector unsigned long long)vec_mergeh(c, d);
    return (vu32)vec_mergeh(ab, cd);
}

static void sha256_p8_compress(uint32_t state[8], const uint8_t *p, size_t nblocks)
{
    for (; nblocks; nblocks--, p += IC_SHA256_BLOCK_SIZE) {
        /* The chaining value goes through memory between blocks: two
         * registers fewer live across the 64 rounds, which need 16 + 8 of
         * the 32 vector registers for W and a..h alone. */
        vu32 abcd = vec_xl(0, state), efgh = vec_xl(16, state);
        vu32 W[16], m;
        vu32 a = vec_splat(abcd, 0), b = vec_splat(abcd, 1);
        vu32 c = vec_splat(abcd, 2), d = vec_splat(abcd, 3);
        vu32 e = vec_splat(efgh, 0), f = vec_splat(efgh, 1);
        vu32 g = vec_splat(efgh, 2), h = vec_splat(efgh, 3);

        /* 6.2.2 step 1, t < 16: the block's words, one per register. */
#define SHA256_P8_LOAD4(i) do {                                          \
            m = SHA2_P8_LOAD_BE(vu32, p + 16 * (i));                      \
            W[4 * (i) + 0] = vec_splat(m, 0); W[4 * (i) + 1] = vec_splat(m, 1); \
            W[4 * (i) + 2] = vec_splat(m, 2); W[4 * (i) + 3] = vec_splat(m, 3); \
        } while (0)
        SHA256_P8_LOAD4(0); SHA256_P8_LOAD4(1); SHA256_P8_LOAD4(2); SHA256_P8_LOAD4(3);
#undef SHA256_P8_LOAD4

        ROUND8(0);  ROUND8(8);  ROUND8(16); ROUND8(24);
        ROUND8(32); ROUND8(40); ROUND8(48); ROUND8(56);

        /* Step 4. */
        vec_xst(abcd + sha256_p8_pack(a, b, c, d), 0, state);
        vec_xst(efgh + sha256_p8_pack(e, f, g, h), 16, state);
    }
}

static const ic_sha256_ops p8_ops = { sha256_p8_compress, NULL };
IC_BACKEND(sha256, p8, IC_F(IC_CPU_PPC_VCRYPTO) | IC_F(IC_CPU_PPC_ARCH207) | IC_F(IC_CPU_PPC_VSX), &p8_ops);

IC_TARGET_END

#endif
