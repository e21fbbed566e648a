/*
 * sha1_port.c - portable SHA-1 compression function (FIPS 180-4, 6.1.2),
 * the "port" entry of the sha1 registry.
 *
 * The 80 rounds are fully unrolled by macros.  The standard's shift of the
 * five working variables (e = d, d = c, c = ROTL30(b), b = a, a = T) is done
 * by renaming: round t is called with its arguments rotated, so a round only
 * adds into e (which becomes the next a) and rotates b in place (which
 * becomes the next c).  The schedule is a 16-word ring: W[t] of 6.1.2 step 1
 * needs W[t-3], W[t-8], W[t-14] and W[t-16], all still in the ring, and
 * overwrites W[t-16].
 *
 * SHA-1 is broken for collision resistance; it is here for HMAC-SHA-1,
 * HKDF-SHA-1 and interoperability.  Constant time: 32-bit add, boolean
 * operations and rotations only.
 */
#include "sha/sha_impl.h"

/* 4.1.1: Ch for rounds 0-19, Parity for 20-39 and 60-79, Maj for 40-59. */
#define CH(x, y, z)  ((z) ^ ((x) & ((y) ^ (z))))
#define PAR(x, y, z) ((x) ^ (y) ^ (z))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* 4.2.1 */
#define K0 UINT32_C(0x5a827999)
#define K1 UINT32_C(0x6ed9eba1)
#define K2 UINT32_C(0x8f1bbcdc)
#define K3 UINT32_C(0xca62c1d6)

#define SCHED(t) ((t) < 16 ? W[(t) & 15]                                        \
                  : (W[(t) & 15] = ic_rotl32(W[((t) - 3) & 15] ^ W[((t) - 8) & 15] \
                                             ^ W[((t) - 14) & 15] ^ W[(t) & 15], 1)))

#define ROUND(a, b, c, d, e, F, K, t) do {                                \
        e += ic_rotl32(a, 5) + F(b, c, d) + K + SCHED(t);                 \
        b = ic_rotl32(b, 30);                                             \
    } while (0)

#define ROUND5(F, K, t) do {                                              \
        ROUND(a, b, c, d, e, F, K, (t) + 0);                              \
        ROUND(e, a, b, c, d, F, K, (t) + 1);                              \
        ROUND(d, e, a, b, c, F, K, (t) + 2);                              \
        ROUND(c, d, e, a, b, F, K, (t) + 3);                              \
        ROUND(b, c, d, e, a, F, K, (t) + 4);                              \
    } while (0)

static void sha1_port_compress(uint32_t state[5], const uint8_t *p, size_t nblocks)
{
    uint32_t W[16];

    for (; nblocks; nblocks--, p += IC_SHA1_BLOCK_SIZE) {
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];

        for (int i = 0; i < 16; i++)
            W[i] = ic_load32_be(p + 4 * i);   /* 5.2.1: words are big-endian */
        ROUND5(CH, K0, 0);   ROUND5(CH, K0, 5);   ROUND5(CH, K0, 10);  ROUND5(CH, K0, 15);
        ROUND5(PAR, K1, 20); ROUND5(PAR, K1, 25); ROUND5(PAR, K1, 30); ROUND5(PAR, K1, 35);
        ROUND5(MAJ, K2, 40); ROUND5(MAJ, K2, 45); ROUND5(MAJ, K2, 50); ROUND5(MAJ, K2, 55);
        ROUND5(PAR, K3, 60); ROUND5(PAR, K3, 65); ROUND5(PAR, K3, 70); ROUND5(PAR, K3, 75);

        /* 6.1.2 step 4; after a multiple of 5 rounds the names line up. */
        state[0] += a; state[1] += b; state[2] += c; state[3] += d; state[4] += e;
    }
    ic_wipe(W, sizeof W);
}

const ic_sha1_ops ic_sha1_port_ops = { sha1_port_compress, NULL };

IC_BACKEND(sha1, port, 0, &ic_sha1_port_ops);
