/*
 * fuzz_xts.c - differential target for XTS-AES (incore/xts.h).
 *
 * The input picks the key size (32 or 64 bytes), the key, the tweak, the
 * direction, in place or not, a misalignment, and the data unit (any
 * length; under 16 bytes the call must refuse with IC_ERR_LENGTH and write
 * nothing).  The portable implementation (the table's last entry) is the
 * reference; every implementation available here, selected before
 * ic_aes_xts_key_init (a key keeps its backend), must give the same output,
 * must not write outside it, and its decryption must undo its encryption.
 * Keys whose halves are equal must be refused with IC_ERR_WEAKKEY.
 */
#include "fuzz_common.h"

static int xcall(int dec, const ic_aes_xts_key *k, const uint8_t tw[16], uint8_t *out, const uint8_t *in,
                 size_t len)
{
    return dec ? ic_aes_xts_decrypt(k, out, in, len, tw) : ic_aes_xts_encrypt(k, out, in, len, tw);
}

/* The data unit through the selected implementation into res; returns the
 * status of the call (IC_ERR_WEAKKEY from init is returned as is). */
static int run(int dec, const uint8_t *key, size_t keylen, const uint8_t tw[16], const uint8_t *msg, size_t len,
               unsigned off, int inplace, uint8_t *res, const char *impl)
{
    ic_aes_xts_key k;
    int rc = ic_aes_xts_key_init(&k, key, keylen);
    if (rc != IC_OK)
        return rc;
    uint8_t *base, *inbase = NULL;
    uint8_t *out = fz_alloc_at(len, off, &base);
    const uint8_t *in;
    if (inplace) {
        memcpy(out, msg, len);
        in = out;
    } else {
        uint8_t *cp = fz_alloc_at(len, off >> 6, &inbase);
        memcpy(cp, msg, len);
        in = cp;
    }
    rc = xcall(dec, &k, tw, out, in, len);
    if (rc != IC_OK && !inplace) {
        for (size_t i = 0; i < len; i++)
            FZ_CHECK(out[i] == FZ_CANARY, "xts %s: refused call wrote its output", impl);
    }
    fz_check_canary(base, off, len, "xts output");
    memcpy(res, out, len);
    free(base);
    free(inbase);
    ic_aes_xts_key_wipe(&k);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    uint8_t opt = fz_u8(&in);
    size_t keylen = opt & 1 ? 64 : 32;
    uint8_t key[64], tw[16];
    fz_take(&in, key, 64);
    if (opt & 2)   /* sometimes equal halves, which must be refused */
        memcpy(key + keylen / 2, key, keylen / 2);
    fz_take(&in, tw, 16);
    unsigned off = fz_u16(&in);
    size_t len;
    uint8_t *msg = fz_message(&in, &len);
    int dec = (opt >> 2) & 1, inplace = (opt >> 3) & 1;
    int want = ic_ct_equal(key, key + keylen / 2, keylen / 2) ? IC_ERR_WEAKKEY
             : len < IC_AES_XTS_MIN_LEN ? IC_ERR_LENGTH : IC_OK;

    const size_t port = fz_portable("aes");
    uint8_t *ref = malloc(len + 1), *got = malloc(len + 1), *back = malloc(len + 1);
    if (!ref || !got || !back)
        abort();
    fz_select("aes", port);
    int rc = run(dec, key, keylen, tw, msg, len, 0, 0, ref, "reference");
    FZ_CHECK(rc == want, "xts reference: status %d, want %d (keylen %zu, len %zu)", rc, want, keylen, len);
    if (rc == IC_OK) {
        FZ_CHECK(run(!dec, key, keylen, tw, ref, len, 0, 0, back, "reference") == IC_OK, "reference inverse");
        FZ_CHECK_MEM(back, msg, len, "portable XTS inverse(m) != m");
    }
    size_t n = ic_impl_count("aes");
    for (size_t i = 0; i < n; i++) {
        if (!ic_impl_available("aes", i))
            continue;
        const char *name = ic_impl_name("aes", i);
        fz_select("aes", i);
        int r = run(dec, key, keylen, tw, msg, len, off, inplace, got, name);
        FZ_CHECK(r == want, "xts %s: status %d, want %d", name, r, want);
        if (r != IC_OK)
            continue;
        if (memcmp(got, ref, len) != 0) {
            fprintf(stderr, "xts impl %s %s, keylen %zu, len %zu, %s\n", name, dec ? "dec" : "enc", keylen, len,
                    inplace ? "in place" : "out of place");
            FZ_CHECK_MEM(got, ref, len, "output differs from the portable one");
        }
        FZ_CHECK(run(!dec, key, keylen, tw, got, len, off >> 3, !inplace, back, name) == IC_OK, "inverse");
        FZ_CHECK_MEM(back, msg, len, "XTS inverse(m) != m");
    }
    fz_select_auto("aes");
    free(ref), free(got), free(back), free(msg);
    return 0;
}
