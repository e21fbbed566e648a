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


/* What sha2_rounds.h needs: the word, K, and the sigma functions of 4.1.2
 * (4.4)-(4.7). */
#define SHA2_WORD uint32_t
#define SHA2_K    ic_sha256_k
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

const ic_sha256_ops ic_sha256_port_ops = { sha256_port_compress, NULL };

IC_BACKEND(sha256, port, 0, &ic_sha256_port_ops);
