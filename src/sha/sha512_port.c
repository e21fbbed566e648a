/*
 * sha512_port.c - portable SHA-512 compression function (FIPS 180-4,
 * 6.4.2), the "port" entry of the sha512 registry.  SHA-384, SHA-512/224
 * and SHA-512/256 use the same function with other initial values (5.3.4 -
 * 5.3.6) and truncate the output; the driver sha512.c does that.
 *
 * The 80 rounds are fully unrolled by the macros of sha2_rounds.h, shared
 * with sha256_port.c: working variables renamed per round by rotating the
 * macro arguments instead of being moved, and the message schedule in a
 * 16-word ring expanded in place.
 *
 * Constant time: only 64-bit add, and, xor and rotate; K is indexed by the
 * round number only.
 */
#include "sha/sha_impl.h"
#include "sha/sha2_rounds.h"


/* What sha2_rounds.h needs: the word, K, and the sigma functions of 4.1.3
 * (4.10)-(4.13). */
#define SHA2_WORD uint64_t
#define SHA2_K    ic_sha512_k
#define BSIG0(x) (ic_rotr64(x, 28) ^ ic_rotr64(x, 34) ^ ic_rotr64(x, 39))
#define BSIG1(x) (ic_rotr64(x, 14) ^ ic_rotr64(x, 18) ^ ic_rotr64(x, 41))
#define SSIG0(x) (ic_rotr64(x, 1) ^ ic_rotr64(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (ic_rotr64(x, 19) ^ ic_rotr64(x, 61) ^ ((x) >> 6))

static void sha512_port_compress(uint64_t state[8], const uint8_t *p, size_t nblocks)
{
    uint64_t W[16];

    for (; nblocks; nblocks--, p += IC_SHA512_BLOCK_SIZE) {
        uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint64_t e = state[4], f = state[5], g = state[6], h = state[7];

        for (int i = 0; i < 16; i++)
            W[i] = ic_load64_be(p + 8 * i);   /* 5.2.2: words are big-endian */
        ROUND8(0);  ROUND8(8);  ROUND8(16); ROUND8(24); ROUND8(32);
        ROUND8(40); ROUND8(48); ROUND8(56); ROUND8(64); ROUND8(72);

        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
    ic_wipe(W, sizeof W);
}

const ic_sha512_ops ic_sha512_port_ops = { sha512_port_compress };

IC_BACKEND(sha512, port, 0, &ic_sha512_port_ops);
