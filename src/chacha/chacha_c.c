/*
 * chacha_c.c - portable ChaCha20 block function (RFC 8439 section 2.3) and
 * HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2).
 *
 * ChaCha is add, rotate-by-constant and xor on 32-bit words: no tables and
 * no data-dependent branch, so plain C is constant time as written.  The 16
 * state words are locals with constant indices, which compilers keep in
 * registers (x86-64 spills one or two), giving about 4 cycles per byte at
 * -O2.  Message words are read and written through ic_load32_le /
 * ic_store32_le, so the byte order of RFC 8439 section 2.3 ("serialized in
 * little-endian order") holds on big-endian POWER too.
 */
#include "chacha/chacha_impl.h"

/* RFC 8439 section 2.1: the quarter round, rotations 16, 12, 8, 7. */
#define CHACHA_QR(a, b, c, d) do {                 \
        a += b; d ^= a; d = ic_rotl32(d, 16);      \
        c += d; b ^= c; b = ic_rotl32(b, 12);      \
        a += b; d ^= a; d = ic_rotl32(d, 8);       \
        c += d; b ^= c; b = ic_rotl32(b, 7);       \
    } while (0)

/* The 20 rounds (RFC 8439 section 2.3 "inner_block" ten times): a column
 * round on (0,4,8,12) .. (3,7,11,15), then a diagonal round on (0,5,10,15),
 * (1,6,11,12), (2,7,8,13), (3,4,9,14).  No feed-forward here: ChaCha20
 * adds the input afterwards, HChaCha20 does not. */
static inline void chacha20_c_rounds(uint32_t x[16])
{
    for (int i = 0; i < 10; i++) {
        CHACHA_QR(x[0], x[4], x[8], x[12]);
        CHACHA_QR(x[1], x[5], x[9], x[13]);
        CHACHA_QR(x[2], x[6], x[10], x[14]);
        CHACHA_QR(x[3], x[7], x[11], x[15]);
        CHACHA_QR(x[0], x[5], x[10], x[15]);
        CHACHA_QR(x[1], x[6], x[11], x[12]);
        CHACHA_QR(x[2], x[7], x[8], x[13]);
        CHACHA_QR(x[3], x[4], x[9], x[14]);
    }
}

/* One block at a time: keystream = rounds(state) + state (section 2.3),
 * serialised little-endian and xored into the message word by word, so in
 * and out may be the same buffer.  The counter is a local copy of word 12
 * advanced per block (section 2.4); the driver keeps it from wrapping. */
static void chacha20_c_xor_blocks(const uint32_t input[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks)
{
    uint32_t x[16], j[16];
    memcpy(j, input, sizeof j);
    for (; nblocks != 0; nblocks--, in += 64, out += 64) {
        memcpy(x, j, sizeof x);
        chacha20_c_rounds(x);
        for (int i = 0; i < 16; i++)
            ic_store32_le(out + 4 * i, ic_load32_le(in + 4 * i) ^ (x[i] + j[i]));
        j[12]++;
    }
    ic_wipe(x, sizeof x);
    ic_wipe(j, sizeof j);
}

/* HChaCha20: the ChaCha20 state with the 16-byte input in words 12..15
 * (where counter and nonce normally go), 20 rounds, no feed-forward, and
 * words 0..3 and 12..15 as the subkey.  Those are the words an attacker
 * could subtract the known constants and input from if the feed-forward
 * were done, which is why it is skipped (draft section 2.2). */
void chacha20_c_hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t in[16])
{
    uint32_t x[16];
    ic_chacha20_setup(x, key, in + 4, ic_load32_le(in));
    chacha20_c_rounds(x);
    for (int i = 0; i < 4; i++) {
        ic_store32_le(subkey + 4 * i, x[i]);
        ic_store32_le(subkey + 16 + 4 * i, x[12 + i]);
    }
    ic_wipe(x, sizeof x);
}

const ic_chacha20_ops ic_chacha20_c_ops = {
    .xor_blocks = chacha20_c_xor_blocks,
};
