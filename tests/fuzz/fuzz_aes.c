/*
 * fuzz_aes.c - differential target for the AES modes of incore/aes.h.
 *
 * The input picks a mode (ECB, CBC, CFB128, OFB, CTR), a key size (16, 24,
 * 32), key, IV / counter (so the 128-bit counter can be started just below
 * a carry out of its low 8, 32 or 64 bits), a misalignment, in-place or
 * not, the cut points of a streamed message, and the message.  The
 * portable implementation (the table's last entry) run in one call is the
 * reference; every implementation available here, selected before
 * ic_aes_key_init (a key keeps the backend it was expanded by), must give the
 * same output and leave the same IV / counter, in both directions, when
 * the message comes in pieces (all but the last whole blocks, as aes.h
 * requires for chaining), and must not write past the output.
 */
#include "fuzz_common.h"

enum { M_ECB, M_CBC, M_CFB, M_OFB, M_CTR, M_COUNT };
static const char *const mode_name[M_COUNT] = { "ecb", "cbc", "cfb128", "ofb", "ctr" };

static int crypt_call(int mode, int dec, const ic_aes_key *k, uint8_t iv[16], uint8_t *out,
                      const uint8_t *in, size_t len)
{
    switch (mode) {
    case M_ECB: return dec ? ic_aes_ecb_decrypt(k, out, in, len) : ic_aes_ecb_encrypt(k, out, in, len);
    case M_CBC: return dec ? ic_aes_cbc_decrypt(k, out, in, len, iv) : ic_aes_cbc_encrypt(k, out, in, len, iv);
    case M_CFB: return dec ? ic_aes_cfb128_decrypt(k, out, in, len, iv)
                           : ic_aes_cfb128_encrypt(k, out, in, len, iv);
    case M_OFB: return ic_aes_ofb_crypt(k, out, in, len, iv);
    default:    return ic_aes_ctr_crypt(k, out, in, len, iv);
    }
}

/* The whole message through the selected implementation, in the pieces of
 * s, out of place at misalignment off or in place; the result into res,
 * the final IV into iv_out. */
static void run(int mode, int dec, const uint8_t *key, size_t keylen, const uint8_t iv0[16],
                const uint8_t *msg, size_t len, const fz_splits *s, unsigned off, int inplace,
                uint8_t *res, uint8_t iv_out[16], const char *impl)
{
    ic_aes_key k;
    uint8_t iv[16], *base, *inbase = NULL;
    int rc = ic_aes_key_init(&k, key, keylen);
    FZ_CHECK(rc == IC_OK, "aes %s init: %d", impl, rc);
    memcpy(iv, iv0, 16);
    uint8_t *out = fz_alloc_at(len, off, &base);
    const uint8_t *in = msg;
    if (inplace) {
        memcpy(out, msg, len);
        in = out;
    } else {
        uint8_t *cp = fz_alloc_at(len, off >> 6, &inbase);
        memcpy(cp, msg, len);
        in = cp;
    }
    for (size_t i = 0; i <= s->n; i++) {
        size_t o = FZ_PIECE_OFF(s, i), n = FZ_PIECE_LEN(s, i);
        rc = crypt_call(mode, dec, &k, iv, out + o, in + o, n);
        FZ_CHECK(rc == IC_OK, "aes %s %s %s piece %zu (%zu bytes at %zu): status %d", impl,
                 mode_name[mode], dec ? "dec" : "enc", i, n, o, rc);
    }
    fz_check_canary(base, off, len, "aes output");
    memcpy(res, out, len);
    memcpy(iv_out, iv, 16);
    free(base);
    free(inbase);
    ic_aes_key_wipe(&k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    int mode = fz_u8(&in) % M_COUNT;
    static const size_t klens[3] = { 16, 24, 32 };
    size_t keylen = klens[fz_u8(&in) % 3];
    uint8_t key[32], iv[16];
    fz_take(&in, key, 32);
    fz_take(&in, iv, 16);
    uint8_t opt = fz_u8(&in);
    unsigned off = fz_u16(&in);
    fz_splits s;
    /* the cuts are read before the message, whose length they need: read
     * their raw values against the maximum and scale after */
    uint8_t cutbytes[1 + 4 * FZ_MAX_CUTS];
    fz_take(&in, cutbytes, sizeof cutbytes);
    size_t len;
    uint8_t *msg = fz_message(&in, &len);
    if (mode == M_ECB || mode == M_CBC)
        len -= len % 16;
    fz_in cin = { cutbytes, sizeof cutbytes };
    fz_read_splits(&cin, &s, len, 16);

    const size_t port = fz_portable("aes");
    uint8_t *ref = malloc(len + 1), *got = malloc(len + 1), *back = malloc(len + 1);
    uint8_t ref_iv[16], got_iv[16];
    fz_splits whole = { { 0, len }, 0 };
    if (!ref || !got || !back)
        abort();

    for (int dec = 0; dec <= 1; dec++) {
        fz_select("aes", port);
        run(mode, dec, key, keylen, iv, msg, len, &whole, 0, 0, ref, ref_iv, "reference");
        if (dec == 0) {
            /* the reference itself must invert */
            uint8_t back_iv[16];
            int inv = mode == M_OFB || mode == M_CTR ? 0 : 1;
            run(mode, inv, key, keylen, iv, ref, len, &whole, 0, 0, back, back_iv, "reference");
            FZ_CHECK_MEM(back, msg, len, "portable decrypt(encrypt(m)) != m");
        }
        size_t n = ic_impl_count("aes");
        for (size_t i = 0; i < n; i++) {
            if (!ic_impl_available("aes", i))
                continue;
            const char *name = ic_impl_name("aes", i);
            fz_select("aes", i);
            run(mode, dec, key, keylen, iv, msg, len, &s, off, opt & 1, got, got_iv, name);
            if (memcmp(got, ref, len) != 0 || memcmp(got_iv, ref_iv, 16) != 0) {
                fprintf(stderr, "aes impl %s, mode %s %s, keylen %zu, len %zu, %zu cuts, %s\n", name,
                        mode_name[mode], dec ? "dec" : "enc", keylen, len, s.n,
                        opt & 1 ? "in place" : "out of place");
                FZ_CHECK_MEM(got, ref, len, "output differs from the portable one");
                FZ_CHECK_MEM(got_iv, ref_iv, 16, "final IV / counter differs from the portable one");
            }
        }
    }
    fz_select_auto("aes");
    free(ref);
    free(got);
    free(back);
    free(msg);
    return 0;
}
