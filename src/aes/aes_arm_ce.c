/*
 * aes_arm_ce.c - AES-128/192/256 with the ARMv8 Cryptographic Extension
 * (AESE / AESMC / AESD / AESIMC) through <arm_neon.h> intrinsics.
 * Registry "aes", entry "ce"; needs HWCAP_AES (AArch64) or HWCAP2_AES
 * (32-bit ARM), IC_CPU_ARM_AES.  One source for both: compiled for the
 * crypto extension (IC_TARGET_ARM_CE: AArch64 +crypto, or the AArch32
 * state of an ARMv8 core), for this file only, so the rest of the library
 * runs on any core of the architecture; compiles to nothing elsewhere.
 *
 * The tricks:
 *  - eight blocks in flight.  AESE+AESMC has a latency of 2-4 cycles on
 *    current cores but issues every cycle (often two per cycle), so ECB,
 *    CTR, and CBC / CFB decryption (whose blocks are independent) run eight
 *    blocks through each round key before the next one.  The 1-7 blocks
 *    left after the 8-block batches go as at most three batches of 4, 2
 *    and 1 (CE_TAIL), not one by one: a 7-block tail has its blocks in
 *    flight together in three passes over the round keys instead of seven
 *    serial ones.  CBC / CFB encryption and OFB are serial by definition,
 *    one block at a time.
 *  - the CTR counter never leaves the registers and is advanced by vector
 *    adds that always propagate the carry (aes_arm.h, ce_ctr_add): no
 *    branch on the counter's value.
 *  - key expansion (FIPS 197 section 5.2) is the word recurrence in C with
 *    SubWord done by AESE on a zero round key: with the word in all four
 *    columns, ShiftRows only moves equal bytes, so every column of the
 *    result is SubWord(w).  No table, nothing secret indexes memory.  The
 *    decryption keys of the equivalent inverse cipher (5.3.5) are the
 *    encryption keys backwards, AESIMC applied to the inner ones.
 *
 * Every function loads all of a batch's input before it stores any output,
 * so out == in works.  vld1q_u8 / vst1q_u8 take any alignment.
 */
#include "core/target.h"

#if IC_ARM_LE
IC_TARGET_BEGIN(IC_TARGET_ARM_CE)
#include "aes/aes_arm.h"
#if !IC_ARM_HAVE_CRYPTO
#error "aes_arm_ce.c needs the crypto extension (its IC_TARGET_BEGIN)"
#endif

/* The n < 8 blocks after the 8-block batches as batches of 4, 2, 1 (the
 * bits of n, public): RUN(len) does len blocks (a constant, so each
 * instance is unrolled) and advances in / out by 16 * len. */
#define CE_TAIL(n, RUN) do {                     \
        if ((n) & 4) { RUN(4); }                 \
        if ((n) & 2) { RUN(2); }                 \
        if ((n) & 1) { RUN(1); }                 \
    } while (0)

/* ---- key schedule ------------------------------------------------------- */

static uint32_t ce_subword(uint32_t w)
{
    uint8x16_t v = vreinterpretq_u8_u32(vdupq_n_u32(w));
    v = vaeseq_u8(v, vdupq_n_u8(0));
    return vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
}

static void ce_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    /* Rcon[i] of section 5.2: x^(i-1) in GF(2^8), in the top byte. */
    static const uint8_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    const unsigned nk = (unsigned)(keylen / 4), nr = k->rounds, nw = 4 * (nr + 1);
    uint32_t w[60];

    for (unsigned i = 0; i < nk; i++)
        w[i] = ic_load32_be(key + 4 * i);
    for (unsigned i = nk; i < nw; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0)
            t = ce_subword(ic_rotl32(t, 8)) ^ (uint32_t)rcon[i / nk - 1] << 24;
        else if (nk > 6 && i % nk == 4)
            t = ce_subword(t);
        w[i] = w[i - nk] ^ t;
    }
    for (unsigned i = 0; i < nw; i++)
        ic_store32_be(k->storage + 4 * i, w[i]);
    /* dk[0] = ek[Nr], dk[i] = InvMixColumns(ek[Nr - i]), dk[Nr] = ek[0]. */
    for (unsigned i = 0; i <= nr; i++) {
        uint8x16_t e = ce_rk(k, nr - i);
        if (i != 0 && i != nr)
            e = vaesimcq_u8(e);
        vst1q_u8(k->storage + CE_DEC_OFF + 16 * i, e);
    }
    ic_wipe(w, sizeof w);
}

/* ---- ECB ---------------------------------------------------------------- */

CE_INLINE void ce_ecb_run(const ic_aes_key *k, uint8_t *out, const uint8_t *in, const size_t n, int dec)
{
    uint8x16_t s[CE_LANES];
    CE_EACH(i, n) s[i] = vld1q_u8(in + 16 * i);
    if (dec)
        ce_decrypt(k, s, n);
    else
        ce_encrypt(k, s, n);
    CE_EACH(i, n) vst1q_u8(out + 16 * i, s[i]);
}

CE_INLINE void ce_ecb(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks, int dec)
{
    for (; nblocks >= CE_LANES; nblocks -= CE_LANES, in += 16 * CE_LANES, out += 16 * CE_LANES)
        ce_ecb_run(k, out, in, CE_LANES, dec);
#define RUN(len) ce_ecb_run(k, out, in, len, dec), in += 16 * (len), out += 16 * (len)
    CE_TAIL(nblocks, RUN);
#undef RUN
}

static void ce_ecb_enc(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ce_ecb(k, out, in, nblocks, 0);
}

static void ce_ecb_dec(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ce_ecb(k, out, in, nblocks, 1);
}

/* ---- CBC and CFB decryption: parallel ------------------------------------
 * Both only chain through ciphertext, all known up front (SP 800-38A 6.2,
 * 6.3), with prev_0 = IV, prev_i = C_{i-1}:
 *   CBC: P_i = D(C_i) ^ prev_i        CFB: P_i = E(prev_i) ^ C_i
 * The register leaves as the last ciphertext block in both. */
CE_INLINE uint8x16_t ce_chain_dec_run(const ic_aes_key *k, uint8x16_t prev, uint8_t *out, const uint8_t *in,
                                      const size_t n, int cfb)
{
    uint8x16_t c[CE_LANES], s[CE_LANES];
    CE_EACH(i, n) c[i] = vld1q_u8(in + 16 * i);
    CE_EACH(i, n) s[i] = cfb ? (i == 0 ? prev : c[i - 1]) : c[i];
    if (cfb)
        ce_encrypt(k, s, n);
    else
        ce_decrypt(k, s, n);
    CE_EACH(i, n) vst1q_u8(out + 16 * i, veorq_u8(s[i], cfb ? c[i] : (i == 0 ? prev : c[i - 1])));
    return c[n - 1];
}

CE_INLINE void ce_chain_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks, int cfb)
{
    uint8x16_t v = vld1q_u8(iv);
    for (; nblocks >= CE_LANES; nblocks -= CE_LANES, in += 16 * CE_LANES, out += 16 * CE_LANES)
        v = ce_chain_dec_run(k, v, out, in, CE_LANES, cfb);
#define RUN(len) v = ce_chain_dec_run(k, v, out, in, len, cfb), in += 16 * (len), out += 16 * (len)
    CE_TAIL(nblocks, RUN);
#undef RUN
    vst1q_u8(iv, v);
}

static void ce_cbc_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ce_chain_dec(k, iv, out, in, nblocks, 0);
}

static void ce_cfb_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ce_chain_dec(k, iv, out, in, nblocks, 1);
}

/* ---- CBC / CFB encryption and OFB: serial ---------------------------------
 *   CBC: v = E(v ^ P_i), C_i = v      CFB: v = E(v) ^ P_i, C_i = v
 *   OFB: v = E(v), C_i = P_i ^ v
 * (SP 800-38A 6.2-6.4); v stays in a register across the call. */
enum ce_serial { CE_CBC_ENC, CE_CFB_ENC, CE_OFB };

CE_INLINE void ce_serial(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                         size_t nblocks, enum ce_serial mode)
{
    uint8x16_t v = vld1q_u8(iv);
    for (; nblocks > 0; nblocks--, in += 16, out += 16) {
        uint8x16_t x = vld1q_u8(in);
        if (mode == CE_CBC_ENC)
            v = veorq_u8(v, x);
        ce_encrypt(k, &v, 1);
        if (mode == CE_CFB_ENC)
            v = veorq_u8(v, x);
        vst1q_u8(out, mode == CE_OFB ? veorq_u8(v, x) : v);
    }
    vst1q_u8(iv, v);
}

static void ce_cbc_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ce_serial(k, iv, out, in, nblocks, CE_CBC_ENC);
}

static void ce_cfb_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ce_serial(k, iv, out, in, nblocks, CE_CFB_ENC);
}

static void ce_ofb(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ce_serial(k, iv, out, in, nblocks, CE_OFB);
}

/* ---- CTR: counters in registers (ce_counters, aes_arm.h) ------------------ */

CE_INLINE void ce_ctr_run(const ic_aes_key *k, uint64x2_t *num, uint8_t *out, const uint8_t *in,
                          const size_t n, int inc32)
{
    uint8x16_t s[CE_LANES];
    ce_counters(s, n, num, inc32);
    ce_encrypt(k, s, n);
    CE_EACH(i, n) vst1q_u8(out + 16 * i, veorq_u8(s[i], vld1q_u8(in + 16 * i)));
}

CE_INLINE void ce_ctr_blocks(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                             size_t nblocks, int inc32)
{
    uint64x2_t num = ce_num(vld1q_u8(ctr));
    for (; nblocks >= CE_LANES; nblocks -= CE_LANES, in += 16 * CE_LANES, out += 16 * CE_LANES)
        ce_ctr_run(k, &num, out, in, CE_LANES, inc32);
#define RUN(len) ce_ctr_run(k, &num, out, in, len, inc32), in += 16 * (len), out += 16 * (len)
    CE_TAIL(nblocks, RUN);
#undef RUN
    vst1q_u8(ctr, ce_block(num));
}

static void ce_ctr(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ce_ctr_blocks(k, ctr, out, in, nblocks, 0);
}

static void ce_ctr32(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ce_ctr_blocks(k, ctr, out, in, nblocks, 1);
}

const ic_aes_ops ic_aes_ce_ops = {
    .setkey = ce_setkey,
    .ecb_enc = ce_ecb_enc,
    .ecb_dec = ce_ecb_dec,
    .cbc_enc = ce_cbc_enc,
    .cbc_dec = ce_cbc_dec,
    .ctr = ce_ctr,
    .ctr32 = ce_ctr32,
    .cfb_enc = ce_cfb_enc,
    .cfb_dec = ce_cfb_dec,
    .ofb = ce_ofb,
    .stitch = IC_STITCH_BIT(IC_STITCH_ARM_CE),
};
IC_BACKEND(aes, ce, IC_F(IC_CPU_ARM_AES), &ic_aes_ce_ops);

IC_TARGET_END
#endif /* IC_ARM_LE */
