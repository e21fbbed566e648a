/*
 * fuzz_hmac.c - differential target for HMAC and HKDF (incore/hmac.h) over
 * every hash of incore/sha.h and every implementation of that hash.
 *
 * The input picks the hash, a key / salt of 0..300 bytes (around and past
 * the block size, where HMAC hashes the key first), the message / IKM and
 * its cut points, an info string, a truncated tag length and an output
 * length up to 255 * HashLen.  The portable implementation's one-shot
 * ic_hmac and ic_hkdf are the reference; for every available
 * implementation:
 *   - ic_hmac, the streaming calls in pieces, and a copied keyed context
 *     give the reference MAC; a final with an output one byte short is
 *     IC_ERR_SIZE and leaves the context usable; a wiped copy is refused;
 *     final_verify and ic_hmac_verify accept the MAC truncated to any
 *     allowed length and refuse it with one bit flipped;
 *   - ic_hkdf, extract + expand, and expand with okm over prk (allowed:
 *     prk is read first) give the reference OKM, and a shorter expand is
 *     its prefix; nothing is written past okm + okmlen.
 */
#include "fuzz_common.h"

static const char *prim_of(ic_hash_alg a)
{
    return a == IC_HASH_SHA1 ? "sha1" : a <= IC_HASH_SHA256 ? "sha256" : "sha512";
}

#define OKM_MAX (255 * IC_HASH_MAX_DIGEST_SIZE)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    ic_hash_alg a = (ic_hash_alg)(fz_u8(&in) % IC_HASH_COUNT);
    size_t ds = ic_hash_digest_size(a);
    FZ_CHECK(ds > 0 && ds <= IC_HASH_MAX_DIGEST_SIZE, "digest size %zu", ds);
    uint8_t key[300], info[64];
    size_t keylen = fz_upto(&in, 300);
    fz_take(&in, key, keylen);
    size_t infolen = fz_upto(&in, 64);
    fz_take(&in, info, infolen);
    size_t taglen = IC_HMAC_MIN_TAG_SIZE + fz_u8(&in) % (ds - IC_HMAC_MIN_TAG_SIZE + 1);
    size_t okmlen = fz_u16(&in) % (255 * ds + 1);
    size_t shorter = okmlen ? fz_u16(&in) % okmlen : 0;
    uint32_t flip = fz_u16(&in);
    size_t len;
    fz_splits s;
    uint8_t *msg = fz_split_message(&in, &len, &s);

    const char *prim = prim_of(a);
    uint8_t ref_mac[IC_HASH_MAX_DIGEST_SIZE], mac[IC_HASH_MAX_DIGEST_SIZE];
    uint8_t prk[IC_HASH_MAX_DIGEST_SIZE], bad[IC_HASH_MAX_DIGEST_SIZE];
    uint8_t *ref_okm = malloc(OKM_MAX), *okm, *base;
    if (ref_okm == NULL)
        abort();
    /* keylen 0 is passed as NULL half of the time: valid (NULL with 0) */
    const uint8_t *k = keylen == 0 && (flip & 1) ? NULL : key;
    const uint8_t *inf = infolen == 0 && (flip & 2) ? NULL : info;

    fz_select(prim, fz_portable(prim));
    int rc = ic_hmac(a, ref_mac, sizeof ref_mac, msg, len, k, keylen);
    FZ_CHECK(rc == IC_OK, "reference hmac: %d", rc);
    rc = ic_hkdf(a, ref_okm, okmlen, inf, infolen, k, keylen, msg, len);
    FZ_CHECK(rc == IC_OK, "reference hkdf: %d", rc);

    size_t n = ic_impl_count(prim);
    for (size_t i = 0; i < n; i++) {
        if (!ic_impl_available(prim, i))
            continue;
        const char *impl = ic_impl_name(prim, i);
        fz_select(prim, i);
#define SAME(got, want, nb, how)                                                         \
        do {                                                                             \
            if (memcmp((got), (want), (nb)) != 0) {                                      \
                fprintf(stderr, "hmac-%s impl %s: %s, keylen %zu, len %zu\n",           \
                        ic_hash_name(a), impl, (how), keylen, len);                       \
                FZ_CHECK_MEM((got), (want), (nb), (how));                                \
            }                                                                            \
        } while (0)

        rc = ic_hmac(a, mac, sizeof mac, msg, len, k, keylen);
        FZ_CHECK(rc == IC_OK, "ic_hmac: %d", rc);
        SAME(mac, ref_mac, ds, "one-shot HMAC");

        ic_hmac_ctx c, keyed;
        rc = ic_hmac_init(&keyed, a, k, keylen);
        FZ_CHECK(rc == IC_OK, "ic_hmac_init: %d", rc);
        c = keyed;                      /* the header allows copying a keyed context */
        for (size_t j = 0; j <= s.n; j++) {
            rc = ic_hmac_update(&c, msg + FZ_PIECE_OFF(&s, j), FZ_PIECE_LEN(&s, j));
            FZ_CHECK(rc == IC_OK, "ic_hmac_update piece %zu: %d", j, rc);
        }
        ic_hmac_ctx c2 = c, c3 = c;
        rc = ic_hmac_final(&c, mac, ds - 1);
        FZ_CHECK(rc == IC_ERR_SIZE, "ic_hmac_final with outlen %zu: %d, want IC_ERR_SIZE", ds - 1, rc);
        rc = ic_hmac_final(&c, mac, ds);
        FZ_CHECK(rc == IC_OK, "ic_hmac_final: %d", rc);
        SAME(mac, ref_mac, ds, "streamed HMAC");
        rc = ic_hmac_final_verify(&c2, ref_mac, taglen);
        FZ_CHECK(rc == IC_OK, "ic_hmac_final_verify of the genuine tag (%zu bytes): %d", taglen, rc);
        rc = ic_hmac_update(&c2, msg, len);
        FZ_CHECK(rc == IC_ERR_STATE, "ic_hmac_update after final_verify: %d, want IC_ERR_STATE", rc);
        ic_hmac_wipe(&c3);
        rc = ic_hmac_final(&c3, mac, sizeof mac);
        FZ_CHECK(rc == IC_ERR_STATE, "ic_hmac_final after ic_hmac_wipe: %d, want IC_ERR_STATE", rc);
        rc = ic_hmac_update(&keyed, msg, len);
        FZ_CHECK(rc == IC_OK, "ic_hmac_update of the kept keyed context: %d", rc);
        rc = ic_hmac_final(&keyed, mac, sizeof mac);
        FZ_CHECK(rc == IC_OK, "ic_hmac_final: %d", rc);
        SAME(mac, ref_mac, ds, "HMAC of a copied keyed context");

        rc = ic_hmac_verify(a, ref_mac, taglen, msg, len, k, keylen);
        FZ_CHECK(rc == IC_OK, "ic_hmac_verify of the genuine tag: %d", rc);
        memcpy(bad, ref_mac, ds);
        bad[(flip >> 2) % taglen] ^= (uint8_t)(1u << (flip >> 13));
        rc = ic_hmac_verify(a, bad, taglen, msg, len, k, keylen);
        FZ_CHECK(rc == IC_ERR_AUTH, "ic_hmac_verify of a flipped tag: %d, want IC_ERR_AUTH", rc);

        /* HKDF */
        okm = fz_alloc_at(OKM_MAX, flip >> 4, &base);
        rc = ic_hkdf(a, okm, okmlen, inf, infolen, k, keylen, msg, len);
        FZ_CHECK(rc == IC_OK, "ic_hkdf: %d", rc);
        SAME(okm, ref_okm, okmlen, "ic_hkdf");
        fz_check_canary(base, flip >> 4, okmlen, "ic_hkdf okm");
        rc = ic_hkdf_extract(a, prk, flip & 4 ? ds : sizeof prk, k, keylen, msg, len);
        FZ_CHECK(rc == IC_OK, "ic_hkdf_extract: %d", rc);
        memset(base, FZ_CANARY, OKM_MAX + 64);
        rc = ic_hkdf_expand(a, okm, okmlen, inf, infolen, prk, ds);
        FZ_CHECK(rc == IC_OK, "ic_hkdf_expand: %d", rc);
        SAME(okm, ref_okm, okmlen, "extract + expand");
        fz_check_canary(base, flip >> 4, okmlen, "ic_hkdf_expand okm");
        memset(base, FZ_CANARY, OKM_MAX + 64);
        rc = ic_hkdf_expand(a, okm, shorter, inf, infolen, prk, ds);
        FZ_CHECK(rc == IC_OK, "ic_hkdf_expand (shorter): %d", rc);
        SAME(okm, ref_okm, shorter, "a shorter expand is a prefix");
        fz_check_canary(base, flip >> 4, shorter, "ic_hkdf_expand okm");
        if (okmlen >= ds) {
            /* okm over prk: prk is read before okm is written */
            memset(base, FZ_CANARY, OKM_MAX + 64);
            memcpy(okm, prk, ds);
            rc = ic_hkdf_expand(a, okm, okmlen, inf, infolen, okm, ds);
            FZ_CHECK(rc == IC_OK, "ic_hkdf_expand with okm == prk: %d", rc);
            SAME(okm, ref_okm, okmlen, "expand with okm == prk");
            fz_check_canary(base, flip >> 4, okmlen, "ic_hkdf_expand okm");
        }
        free(base);
#undef SAME
    }
    fz_select_auto(prim);
    free(ref_okm);
    free(msg);
    return 0;
}
