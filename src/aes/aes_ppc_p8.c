/*
 * aes_ppc_p8.c - AES-128/192/256 on the POWER8 (ISA 2.07) in-core crypto
 * instructions vcipher / vcipherlast / vncipher / vncipherlast, through
 * GCC's builtins.  Registry "aes", entry "p8"; needs AT_HWCAP2 vcrypto and
 * arch_2_07 (and VSX for the unaligned loads).  Runs on ppc64le and
 * big-endian ppc64 alike: every register holds its block in big-endian byte
 * order (see aes_ppc.h), which is the order the AES instructions use.
 *
 * The tricks:
 *  - eight blocks in flight.  vcipher has a latency of several cycles but
 *    issues every cycle, so one block at a time leaves the unit mostly idle;
 *    ECB, CTR, and CBC / CFB decryption (whose blocks are independent) run
 *    eight blocks through each round key before moving to the next one, as
 *    chapter 4 "Performance" of "POWER8 in-core Cryptography: The Unofficial Guide"
 *    and the 8-way pipeline of the wolfSSL pull request "POWER8 hardware
 *    AES" describe.  CBC / CFB encryption
 *    and OFB are serial by definition and go one block at a time.
 *  - the CTR counter never leaves the registers: block i of a batch gets
 *    counter + i with one vadduqm (full 128-bit add, carries included) or,
 *    for GCM's inc32, one vadduwm (the last 32-bit word wraps on its own).
 *  - round keys are stored in register order (aes_ppc.h), so a round key is
 *    one aligned load with no permute.
 *  - key expansion (FIPS 197 section 5.2) is the standard word recurrence;
 *    POWER8 has no key-generation instruction (chapter 4), so SubWord uses
 *    vsbox, the S-box instruction, on a word splatted across a register:
 *    no table, so nothing secret indexes memory.
 *
 * Every function loads all of a batch's input before it stores any output,
 * so out == in works.  Loads and stores are unaligned-safe (lxvw4x/stxvw4x).
 */
#include "core/target.h"

#if defined(__powerpc64__)
IC_TARGET_BEGIN(IC_TARGET_POWER8)
#include "aes/aes_ppc.h"

/* ---- key schedule ------------------------------------------------------- */

/* SubWord of FIPS 197 section 5.2: the S-box on each byte of w.  vsbox
 * substitutes all 16 bytes of a register; with w in every word, any word
 * of the result is SubWord(w), whatever the host byte order. */
static uint32_t p8_subword(uint32_t w)
{
    p8_u32 v = vec_splats(w);
    v = (p8_u32)__builtin_crypto_vsbox((p8_u64)v);
    return vec_extract(v, 0);
}

static void p8_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    /* Rcon[i] of section 5.2: x^(i-1) in GF(2^8), in the top byte. */
    static const uint8_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    const unsigned nk = (unsigned)(keylen / 4), nr = k->rounds, nw = 4 * (nr + 1);
    uint32_t w[60];
    uint8_t b[16];

    for (unsigned i = 0; i < nk; i++)
        w[i] = ic_load32_be(key + 4 * i);
    for (unsigned i = nk; i < nw; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0)
            t = p8_subword(ic_rotl32(t, 8)) ^ (uint32_t)rcon[i / nk - 1] << 24;
        else if (nk > 6 && i % nk == 4)
            t = p8_subword(t);
        w[i] = w[i - nk] ^ t;
    }
    /* Round key r is w[4r..4r+3], big-endian: into a register in the
     * byte order of aes_ppc.h, then stored as that register's image. */
    for (unsigned r = 0; r <= nr; r++) {
        for (unsigned j = 0; j < 4; j++)
            ic_store32_be(b + 4 * j, w[4 * r + j]);
        vec_st(p8_load_be(b), (int)(16 * r), (unsigned char *)k->storage);
    }
    ic_wipe(w, sizeof w);
    ic_wipe(b, sizeof b);
}

/* ---- ECB ---------------------------------------------------------------- */

static inline void p8_ecb_run(const ic_aes_key *k, uint8_t *out, const uint8_t *in, const size_t n, int dec)
{
    p8_u8 s[P8_LANES];
    P8_EACH(i, n) s[i] = p8_load_be(in + 16 * i);
    p8_cipher(k, s, n, dec);
    P8_EACH(i, n) p8_store_be(s[i], out + 16 * i);
}

static inline void p8_ecb(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks, int dec)
{
    for (; nblocks >= P8_LANES; nblocks -= P8_LANES, in += 16 * P8_LANES, out += 16 * P8_LANES)
        p8_ecb_run(k, out, in, P8_LANES, dec);
    for (; nblocks > 0; nblocks--, in += 16, out += 16)
        p8_ecb_run(k, out, in, 1, dec);
}

static void p8_ecb_enc(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_ecb(k, out, in, nblocks, 0);
}

static void p8_ecb_dec(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_ecb(k, out, in, nblocks, 1);
}

/* ---- CBC and CFB decryption: parallel ------------------------------------
 * Both only chain through ciphertext, which is all known up front
 * (SP 800-38A sections 6.2 and 6.3), with prev_0 = IV, prev_i = C_{i-1}:
 *   CBC: P_i = D(C_i) ^ prev_i        CFB: P_i = E(prev_i) ^ C_i
 * so n blocks go through the cipher together.  The register leaves as the
 * last ciphertext block in both. */
static inline p8_u8 p8_chain_dec_run(const ic_aes_key *k, p8_u8 prev, uint8_t *out, const uint8_t *in,
                                     const size_t n, int cfb)
{
    p8_u8 c[P8_LANES], s[P8_LANES];
    P8_EACH(i, n) c[i] = p8_load_be(in + 16 * i);
    P8_EACH(i, n) s[i] = cfb ? (i == 0 ? prev : c[i - 1]) : c[i];
    p8_cipher(k, s, n, !cfb);
    P8_EACH(i, n) p8_store_be(vec_xor(s[i], cfb ? c[i] : (i == 0 ? prev : c[i - 1])), out + 16 * i);
    return c[n - 1];
}

static inline void p8_chain_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                size_t nblocks, int cfb)
{
    p8_u8 v = p8_load_be(iv);
    for (; nblocks >= P8_LANES; nblocks -= P8_LANES, in += 16 * P8_LANES, out += 16 * P8_LANES)
        v = p8_chain_dec_run(k, v, out, in, P8_LANES, cfb);
    for (; nblocks > 0; nblocks--, in += 16, out += 16)
        v = p8_chain_dec_run(k, v, out, in, 1, cfb);
    p8_store_be(v, iv);
}

static void p8_cbc_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_chain_dec(k, iv, out, in, nblocks, 0);
}

static void p8_cfb_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_chain_dec(k, iv, out, in, nblocks, 1);
}

/* ---- CBC / CFB encryption and OFB: serial ---------------------------------
 * Each block needs the previous block's cipher output (SP 800-38A 6.2-6.4):
 *   CBC: v = E(v ^ P_i), C_i = v      CFB: v = E(v) ^ P_i, C_i = v
 *   OFB: v = E(v), C_i = P_i ^ v
 * so one block at a time; v stays in a register across the whole call. */
enum p8_serial { P8_CBC_ENC, P8_CFB_ENC, P8_OFB };

static inline void p8_serial(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                             size_t nblocks, enum p8_serial mode)
{
    p8_u8 v = p8_load_be(iv);
    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        p8_u8 x = p8_load_be(in);
        if (mode == P8_CBC_ENC)
            v = vec_xor(v, x);
        p8_cipher(k, &v, 1, 0);
        if (mode == P8_CFB_ENC)
            v = vec_xor(v, x);
        p8_store_be(mode == P8_OFB ? vec_xor(v, x) : v, out);
    }
    p8_store_be(v, iv);
}

static void p8_cbc_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_serial(k, iv, out, in, nblocks, P8_CBC_ENC);
}

static void p8_cfb_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_serial(k, iv, out, in, nblocks, P8_CFB_ENC);
}

static void p8_ofb(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_serial(k, iv, out, in, nblocks, P8_OFB);
}

/* ---- CTR: counters in registers (p8_counters, aes_ppc.h) ------------------ */

static inline void p8_ctr_run(const ic_aes_key *k, p8_u8 *ctr, p8_u8 one, p8_u8 two, uint8_t *out,
                              const uint8_t *in, const size_t n, int inc32)
{
    p8_u8 s[P8_LANES];
    p8_counters(s, n, ctr, one, two, inc32);
    p8_cipher(k, s, n, 0);
    P8_EACH(i, n) p8_store_be(vec_xor(s[i], p8_load_be(in + 16 * i)), out + 16 * i);
}

static inline void p8_ctr_blocks(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                 size_t nblocks, int inc32)
{
    const p8_u8 one = p8_word(1), two = p8_word(2);
    p8_u8 c = p8_load_be(ctr);
    for (; nblocks >= P8_LANES; nblocks -= P8_LANES, in += 16 * P8_LANES, out += 16 * P8_LANES)
        p8_ctr_run(k, &c, one, two, out, in, P8_LANES, inc32);
    for (; nblocks > 0; nblocks--, in += 16, out += 16)
        p8_ctr_run(k, &c, one, two, out, in, 1, inc32);
    p8_store_be(c, ctr);
}

static void p8_ctr(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_ctr_blocks(k, ctr, out, in, nblocks, 0);
}

static void p8_ctr32(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    p8_ctr_blocks(k, ctr, out, in, nblocks, 1);
}

const ic_aes_ops ic_aes_p8_ops = {
    .setkey = p8_setkey,
    .ecb_enc = p8_ecb_enc,
    .ecb_dec = p8_ecb_dec,
    .cbc_enc = p8_cbc_enc,
    .cbc_dec = p8_cbc_dec,
    .ctr = p8_ctr,
    .ctr32 = p8_ctr32,
    .cfb_enc = p8_cfb_enc,
    .cfb_dec = p8_cfb_dec,
    .ofb = p8_ofb,
    .stitch = IC_STITCH_BIT(IC_STITCH_PPC_P8),
};
IC_BACKEND(aes, p8, IC_F(IC_CPU_PPC_VCRYPTO) | IC_F(IC_CPU_PPC_ARCH207) | IC_F(IC_CPU_PPC_VSX), &ic_aes_p8_ops);

IC_TARGET_END
#endif /* __powerpc64__ */
