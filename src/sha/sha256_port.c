/*
 * sha256_port.c - portable SHA-256 compression function (FIPS 180-4,
 * 6.2.2), the "port" entry of the sha256 registry.  SHA-224 uses the same
 * function with another initial value (5.3.2), set by the driver sha256.c.
 *
 * The 64 rounds are fully unrolled by the macros of sha2_rounds.h: the
 * working variables are renamed per round by rotating the macro arguments
 * instead of being moved, and the message schedule is a 16-word ring
 * expanded in place.
 *
 * Constant time: only 32-bit add, and, xor and rotate; the one table, K, is
 * indexed by the round number, never by data.
 */
#include "sha/sha_impl.h"
#include "sha/sha2_rounds.h"

/* 4.2.2: first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* What sha2_rounds.h needs: the word, K, and the sigma functions of 4.1.2
 * (4.4)-(4.7). */
#define SHA2_WORD uint32_t
#define SHA2_K    K256
#define BSIG0(x) (ic_rotr32(x, 2) ^ ic_rotr32(x, 13) ^ ic_rotr32(x, 22))
#define BSIG1(x) (ic_rotr32(x, 6) ^ ic_rotr32(x, 11) ^ ic_rotr32(x, 25))
#define SSIG0(x) (ic_rotr32(x, 7) ^ ic_rotr32(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ic_rotr32(x, 17) ^ ic_rotr32(x, 19) ^ ((x) >> 10))

static void sha256_port_compress(uint32_t state[8], const uint8_t *p, size_t nblocks)
{
    uint32_t W[16];

    for (; nblocks; nblocks--, p += IC_SHA256_BLOCK_SIZE) {
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];

        for (int i = 0; i < 16; i++)
            W[i] = ic_load32_be(p + 4 * i);   /* 5.2.1: words are big-endian */
        ROUND8(0);  ROUND8(8);  ROUND8(16); ROUND8(24);
        ROUND8(32); ROUND8(40); ROUND8(48); ROUND8(56);

        /* 6.2.2 step 4; after a multiple of 8 rounds the names line up again. */
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
    ic_wipe(W, sizeof W);
}

const ic_sha256_ops ic_sha256_port_ops = { sha256_port_compress };
