/*
 * chacha_c.c - portable ChaCha20 block function (RFC 8439 section 2.3) and
 * HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2).
 *
 * ChaCha is add, rotate-by-constant and xor on 32-bit words: no tables and
 * no data-dependent branch, so plain C is constant time as written.  The
 * block loop keeps the 16 state words in scalar locals, which compilers
 * hold in registers (x86-64 spills one or two): about 4.5 cycles per byte
 * at -O2.  Those spill slots are the only key-dependent words left behind;
 * C has no way to wipe them or the registers.  Message words are read and written through ic_load32_le /
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

/* A double round (RFC 8439 section 2.3 "inner_block"): a column round on
 * (0,4,8,12) .. (3,7,11,15), then a diagonal round on (0,5,10,15),
 * (1,6,11,12), (2,7,8,13), (3,4,9,14).  Ten of them are ChaCha20's 20
 * rounds.  A macro over 16 named words, so the block loop keeps the state
 * in scalar locals (registers) and HChaCha20 can run it on an array. */
#define CHACHA_DOUBLE_ROUND(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) \
    do {                                                                                          \
        CHACHA_QR(x0, x4, x8, x12);                                                               \
        CHACHA_QR(x1, x5, x9, x13);                                                               \
        CHACHA_QR(x2, x6, x10, x14);                                                              \
        CHACHA_QR(x3, x7, x11, x15);                                                              \
        CHACHA_QR(x0, x5, x10, x15);                                                              \
        CHACHA_QR(x1, x6, x11, x12);                                                              \
        CHACHA_QR(x2, x7, x8, x13);                                                               \
        CHACHA_QR(x3, x4, x9, x14);                                                               \
    } while (0)

/* One block at a time: keystream = rounds(state) + state (section 2.3),
 * serialised little-endian and xored into the message word by word, so in
 * and out may be the same buffer.  The counter is a local copy of word 12
 * advanced per block (section 2.4); the driver keeps it from wrapping. */
static void chacha20_c_xor_blocks(const uint32_t input[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks)
{
    uint32_t ctr = input[12];
    for (; nblocks != 0; nblocks--, in += 64, out += 64, ctr++) {
        uint32_t x0 = input[0], x1 = input[1], x2 = input[2], x3 = input[3];
        uint32_t x4 = input[4], x5 = input[5], x6 = input[6], x7 = input[7];
        uint32_t x8 = input[8], x9 = input[9], x10 = input[10], x11 = input[11];
        uint32_t x12 = ctr, x13 = input[13], x14 = input[14], x15 = input[15];
        for (int i = 0; i < 10; i++)
            CHACHA_DOUBLE_ROUND(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
#define OUT(i, v) ic_store32_le(out + 4 * (i), ic_load32_le(in + 4 * (i)) ^ ((v) + input[i]))
        OUT(0, x0); OUT(1, x1); OUT(2, x2); OUT(3, x3); OUT(4, x4); OUT(5, x5); OUT(6, x6); OUT(7, x7);
        OUT(8, x8); OUT(9, x9); OUT(10, x10); OUT(11, x11);
        ic_store32_le(out + 48, ic_load32_le(in + 48) ^ (x12 + ctr));
        OUT(13, x13); OUT(14, x14); OUT(15, x15);
#undef OUT
    }
}

/* HChaCha20: the ChaCha20 state with the 16-byte input in words 12..15
 * (where counter and nonce normally go), 20 rounds, no feed-forward, and
 * words 0..3 and 12..15 as the subkey.  Those positions held the public
 * constants and input, so a feed-forward there would add nothing an
 * attacker could not subtract again: HChaCha20 skips it (draft section
 * 2.2, after HSalsa20 in the XSalsa20 paper). */
void ic_chacha20_c_hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t in[16])
{
    uint32_t x[16];
    ic_chacha20_setup(x, key, in + 4, ic_load32_le(in));
    for (int i = 0; i < 10; i++)
        CHACHA_DOUBLE_ROUND(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12],
                            x[13], x[14], x[15]);
    for (int i = 0; i < 4; i++) {
        ic_store32_le(subkey + 4 * i, x[i]);
        ic_store32_le(subkey + 16 + 4 * i, x[12 + i]);
    }
    ic_wipe(x, sizeof x);
}

const ic_chacha20_ops ic_chacha20_c_ops = {
    .xor_blocks = chacha20_c_xor_blocks,
};

IC_BACKEND(chacha20, c, 0, &ic_chacha20_c_ops);
