/*
 * test_hmac.c - HMAC: the project's RFC 2202 / RFC 4231 known answers
 * (tests/vectors/hmac_kat.txt, including the truncated test case 5s), a
 * check against the definition of FIPS 198-1 built from ic_hash on every
 * key length around the block size, streaming and keyed-context copies,
 * tag verification bounds, output capacities, ic_hmac_wipe, and bad input
 * with exact statuses.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

static const ic_hash_alg ALL[IC_HASH_COUNT] = {
    IC_HASH_SHA1, IC_HASH_SHA224, IC_HASH_SHA256, IC_HASH_SHA384,
    IC_HASH_SHA512, IC_HASH_SHA512_224, IC_HASH_SHA512_256,
};

static const char *prim_of(ic_hash_alg alg)
{
    return alg == IC_HASH_SHA1 ? "sha1"
           : alg == IC_HASH_SHA224 || alg == IC_HASH_SHA256 ? "sha256" : "sha512";
}

/* ---- known answers -------------------------------------------------------- */
static int kat_records;

static void kat_impl(const char *impl, void *arg)
{
    const char *prim = arg;
    tl_rsp *r = tl_rsp_openf("%s/hmac_kat.txt", tl_data_dir());
    tl_rec rec;

    while (tl_rsp_next(r, &rec)) {
        ic_hash_alg alg;
        uint8_t key[256], data[256], want[64], got[64], bad[64];
        const char *a = tl_get(&rec, "Alg"), *k = tl_get(&rec, "Key"), *d = tl_get(&rec, "Data"),
                   *m = tl_get(&rec, "MAC");
        long kl = k ? tl_hex(key, sizeof key, k) : -1, dl = d ? tl_hex(data, sizeof data, d) : -1;
        long ml = m ? tl_hex(want, sizeof want, m) : -1;
        if (!CHECK(a && ic_hash_from_name(&alg, a) == IC_OK && kl >= 0 && dl >= 0 && ml >= 10,
                   "hmac_kat.txt line %ld: bad record", rec.line))
            continue;
        if (strcmp(prim_of(alg), prim) != 0)
            continue;
        CHECK(ic_hmac(alg, got, sizeof got, data, (size_t)dl, key, (size_t)kl) == IC_OK, "ic_hmac");
        CHECK_MEM(got, want, (size_t)ml, "HMAC-%s/%s line %ld", ic_hash_name(alg), impl, rec.line);
        CHECK(ic_hmac_verify(alg, want, (size_t)ml, data, (size_t)dl, key, (size_t)kl) == IC_OK,
              "verify line %ld", rec.line);
        memcpy(bad, want, (size_t)ml);
        bad[ml - 1] ^= 0x01;
        CHECK(ic_hmac_verify(alg, bad, (size_t)ml, data, (size_t)dl, key, (size_t)kl) == IC_ERR_AUTH,
              "verify of a wrong tag, line %ld", rec.line);
        kat_records++;
    }
    tl_rsp_close(r);
}

/* ---- the definition -------------------------------------------------------
 * FIPS 198-1 section 4 written out with ic_hash on concatenated buffers:
 * K0 = K padded with zeros, or H(K) padded when K is longer than a block;
 * MAC = H((K0 ^ opad) || H((K0 ^ ipad) || text)). */
static void hmac_by_definition(ic_hash_alg alg, const uint8_t *key, size_t klen,
                               const uint8_t *msg, size_t mlen, uint8_t out[IC_HASH_MAX_DIGEST_SIZE])
{
    size_t bs = ic_hash_block_size(alg), dn = ic_hash_digest_size(alg);
    uint8_t k0[128] = {0}, inner[64];
    uint8_t *buf = tl_xmalloc(bs + (mlen > dn ? mlen : dn));
    int st = IC_OK;

    if (klen > bs)
        st = ic_hash(alg, k0, sizeof k0, key, klen);
    else if (klen)
        memcpy(k0, key, klen);
    for (size_t i = 0; i < bs; i++)
        buf[i] = k0[i] ^ 0x36;
    if (mlen)
        memcpy(buf + bs, msg, mlen);
    if (st == IC_OK)
        st = ic_hash(alg, inner, sizeof inner, buf, bs + mlen);
    for (size_t i = 0; i < bs; i++)
        buf[i] = k0[i] ^ 0x5c;
    memcpy(buf + bs, inner, dn);
    if (st == IC_OK)
        st = ic_hash(alg, out, IC_HASH_MAX_DIGEST_SIZE, buf, bs + dn);
    if (st != IC_OK)
        CHECK(0, "HMAC-%s by definition: status %d", ic_hash_name(alg), st);
    free(buf);
}

static void test_definition(void)
{
    uint8_t key[300], msg[700], want[64], got[64 + 16];

    for (int a = 0; a < IC_HASH_COUNT; a++) {
        ic_hash_alg alg = ALL[a];
        size_t bs = ic_hash_block_size(alg), dn = ic_hash_digest_size(alg);
        /* every key length from 0 to two blocks and a bit (crossing bs) */
        for (size_t kl = 0; kl <= 2 * bs + 3; kl++) {
            size_t ml = tl_rand_below(sizeof msg + 1);
            tl_rand_bytes(key, kl);
            tl_rand_bytes(msg, ml);
            hmac_by_definition(alg, key, kl, msg, ml, want);
            memset(got, 0xa5, sizeof got);
            CHECK(ic_hmac(alg, got, sizeof got, msg, ml, kl ? key : NULL, kl) == IC_OK, "ic_hmac");
            CHECK_MEM(got, want, dn, "HMAC-%s keylen %zu msglen %zu", ic_hash_name(alg), kl, ml);
            CHECK(tl_all_byte(got + dn, sizeof got - dn, 0xa5), "HMAC-%s wrote past the MAC",
                  ic_hash_name(alg));

            /* streamed at random points */
            ic_hmac_ctx c;
            size_t off = 0;
            CHECK(ic_hmac_init(&c, alg, key, kl) == IC_OK, "init");
            while (off < ml) {
                size_t k = tl_rand_below((uint32_t)(ml - off) + 1);
                CHECK(ic_hmac_update(&c, msg + off, k) == IC_OK, "update");
                off += k;
            }
            memset(got, 0xa5, sizeof got);
            CHECK(ic_hmac_final(&c, got, dn) == IC_OK, "final");
            CHECK_MEM(got, want, dn, "HMAC-%s streamed keylen %zu", ic_hash_name(alg), kl);
            CHECK(tl_all_byte(got + dn, sizeof got - dn, 0xa5), "HMAC-%s final wrote past the MAC",
                  ic_hash_name(alg));
        }

        /* a keyed context copied: two messages under one key */
        ic_hmac_ctx keyed, c1, c2;
        tl_rand_bytes(key, 40);
        tl_rand_bytes(msg, 200);
        CHECK(ic_hmac_init(&keyed, alg, key, 40) == IC_OK, "init");
        c1 = keyed;
        c2 = keyed;
        CHECK(ic_hmac_update(&c1, msg, 50) == IC_OK && ic_hmac_final(&c1, got, sizeof got) == IC_OK,
              "copy 1");
        hmac_by_definition(alg, key, 40, msg, 50, want);
        CHECK_MEM(got, want, dn, "HMAC-%s from a copied keyed context (1)", ic_hash_name(alg));
        CHECK(ic_hmac_update(&c2, msg, 200) == IC_OK && ic_hmac_final_verify(&c2, want, dn)
              == IC_ERR_AUTH, "copy 2 differs");
        c2 = keyed;
        hmac_by_definition(alg, key, 40, msg, 200, want);
        CHECK(ic_hmac_update(&c2, msg, 200) == IC_OK && ic_hmac_final_verify(&c2, want, dn) == IC_OK,
              "HMAC-%s final_verify from a copied keyed context", ic_hash_name(alg));
        CHECK(ic_hmac_final(&keyed, got, sizeof got) == IC_OK, "original");
        hmac_by_definition(alg, key, 40, msg, 0, want);
        CHECK_MEM(got, want, dn, "HMAC-%s keyed context untouched by its copies", ic_hash_name(alg));
    }
}

/* ---- verification bounds --------------------------------------------------- */
static void test_verify(void)
{
    uint8_t key[20], msg[33], mac[64], t[65];
    tl_rand_bytes(key, sizeof key);
    tl_rand_bytes(msg, sizeof msg);

    for (int a = 0; a < IC_HASH_COUNT; a++) {
        ic_hash_alg alg = ALL[a];
        size_t dn = ic_hash_digest_size(alg);
        CHECK(ic_hmac(alg, mac, sizeof mac, msg, sizeof msg, key, sizeof key) == IC_OK, "mac");
        memcpy(t, mac, dn);
        t[dn] = 0;
        CHECK(ic_hmac_verify(alg, t, 0, msg, sizeof msg, key, sizeof key) == IC_ERR_TAGLEN, "taglen 0");
        CHECK(ic_hmac_verify(alg, t, IC_HMAC_MIN_TAG_SIZE - 1, msg, sizeof msg, key, sizeof key)
              == IC_ERR_TAGLEN, "taglen 9");
        CHECK(ic_hmac_verify(alg, t, IC_HMAC_MIN_TAG_SIZE, msg, sizeof msg, key, sizeof key)
              == IC_OK, "taglen 10 (truncated)");
        CHECK(ic_hmac_verify(alg, t, dn, msg, sizeof msg, key, sizeof key) == IC_OK, "full tag");
        CHECK(ic_hmac_verify(alg, t, dn + 1, msg, sizeof msg, key, sizeof key) == IC_ERR_TAGLEN,
              "taglen digest + 1");
        for (size_t i = 0; i < dn; i += dn - 1) {   /* first and last byte */
            t[i] ^= 0x80;
            CHECK(ic_hmac_verify(alg, t, dn, msg, sizeof msg, key, sizeof key) == IC_ERR_AUTH,
                  "HMAC-%s flipped byte %zu", ic_hash_name(alg), i);
            t[i] ^= 0x80;
        }
        msg[0] ^= 1;
        CHECK(ic_hmac_verify(alg, t, dn, msg, sizeof msg, key, sizeof key) == IC_ERR_AUTH, "other message");
        msg[0] ^= 1;
        key[19] ^= 1;
        CHECK(ic_hmac_verify(alg, t, dn, msg, sizeof msg, key, sizeof key) == IC_ERR_AUTH, "other key");
        key[19] ^= 1;

        ic_hmac_ctx c;
        CHECK(ic_hmac_init(&c, alg, key, sizeof key) == IC_OK, "init");
        CHECK(ic_hmac_update(&c, msg, sizeof msg) == IC_OK, "update");
        CHECK(ic_hmac_final_verify(&c, t, 9) == IC_ERR_TAGLEN, "final_verify taglen 9");
        CHECK(ic_hmac_final_verify(&c, t, dn) == IC_OK, "a refused final_verify leaves the context as it was");
        CHECK(ic_hmac_update(&c, msg, 1) == IC_ERR_STATE, "final_verify consumes the context");
    }
}

/* ---- bad input ------------------------------------------------------------- */
static void test_bad_input(void)
{
    ic_hmac_ctx c;
    uint8_t key[16] = {1}, out[64], m[4] = {0};

    CHECK(ic_hmac_init(NULL, IC_HASH_SHA256, key, 16) == IC_ERR_NULL, "init(NULL ctx)");
    CHECK(ic_hmac_init(&c, (ic_hash_alg)IC_HASH_COUNT, key, 16) == IC_ERR_PARAM, "init(bad alg)");
    CHECK(ic_hmac_init(&c, (ic_hash_alg)-1, key, 16) == IC_ERR_PARAM, "init(alg -1)");
    CHECK(ic_hmac_init(&c, IC_HASH_SHA256, NULL, 16) == IC_ERR_NULL, "init(NULL key, 16)");
    CHECK(ic_hmac_init(&c, IC_HASH_SHA256, NULL, 0) == IC_OK, "init(NULL key, 0)");
    CHECK(ic_hmac_update(&c, NULL, 1) == IC_ERR_NULL, "update(NULL, 1)");
    CHECK(ic_hmac_update(&c, NULL, 0) == IC_OK, "update(NULL, 0)");
    CHECK(ic_hmac_update(NULL, m, 1) == IC_ERR_NULL, "update(NULL ctx)");
    CHECK(ic_hmac_final(&c, NULL, 32) == IC_ERR_NULL, "final(out NULL, 32)");
    CHECK(ic_hmac_final(&c, NULL, 0) == IC_ERR_SIZE, "final(out NULL, 0)");
    CHECK(ic_hmac_final(&c, out, 31) == IC_ERR_SIZE, "final(outlen 31)");
    CHECK(ic_hmac_final(&c, out, 0) == IC_ERR_SIZE, "final(outlen 0)");
    CHECK(ic_hmac_final(NULL, out, sizeof out) == IC_ERR_NULL, "final(NULL ctx)");
    CHECK(ic_hmac_final(&c, out, 32) == IC_OK, "final after refused ones");
    CHECK(ic_hmac_update(&c, m, 1) == IC_ERR_STATE, "update after final");
    CHECK(ic_hmac_final(&c, out, sizeof out) == IC_ERR_STATE, "final twice");
    CHECK(ic_hmac_final(&c, NULL, 0) == IC_ERR_STATE, "final twice: state before the pointers");
    CHECK(ic_hmac_final_verify(&c, out, 32) == IC_ERR_STATE, "final_verify after final");
    CHECK(ic_hmac_final_verify(NULL, out, 32) == IC_ERR_NULL, "final_verify(NULL ctx)");
    memset(&c, 0, sizeof c);
    CHECK(ic_hmac_update(&c, m, 1) == IC_ERR_STATE, "update uninitialised");
    CHECK(ic_hmac_final(&c, out, sizeof out) == IC_ERR_STATE, "final uninitialised");
    CHECK(ic_hmac_init(&c, IC_HASH_SHA256, key, 16) == IC_OK, "init");
    CHECK(ic_hmac_final_verify(&c, NULL, 32) == IC_ERR_NULL, "final_verify(NULL tag, 32)");
    CHECK(ic_hmac_final_verify(&c, NULL, 0) == IC_ERR_TAGLEN, "final_verify(NULL tag, 0)");

    CHECK(ic_hmac(IC_HASH_SHA256, NULL, 32, m, 4, key, 16) == IC_ERR_NULL, "ic_hmac(out NULL)");
    CHECK(ic_hmac(IC_HASH_SHA256, out, 32, NULL, 4, key, 16) == IC_ERR_NULL, "ic_hmac(in NULL, 4)");
    CHECK(ic_hmac(IC_HASH_SHA256, out, 32, m, 4, NULL, 16) == IC_ERR_NULL, "ic_hmac(key NULL, 16)");
    CHECK(ic_hmac((ic_hash_alg)99, out, 32, m, 4, key, 16) == IC_ERR_PARAM, "ic_hmac(bad alg)");
    CHECK(ic_hmac((ic_hash_alg)99, out, 0, m, 4, key, 16) == IC_ERR_PARAM, "ic_hmac(bad alg, outlen 0)");
    CHECK(ic_hmac(IC_HASH_SHA256, NULL, 0, m, 4, key, 16) == IC_ERR_SIZE, "ic_hmac(out NULL, 0)");
    memset(out, 0x5a, sizeof out);
    CHECK(ic_hmac(IC_HASH_SHA256, out, 31, m, 4, key, 16) == IC_ERR_SIZE, "ic_hmac(outlen 31)");
    CHECK(ic_hmac(IC_HASH_SHA512, out, 63, m, 4, key, 16) == IC_ERR_SIZE, "ic_hmac(SHA-512, outlen 63)");
    CHECK(tl_all_byte(out, sizeof out, 0x5a), "a refused ic_hmac writes nothing");
    CHECK(ic_hmac(IC_HASH_SHA256, out, 32, NULL, 0, key, 16) == IC_OK, "ic_hmac(in NULL, 0)");
    CHECK(ic_hmac_verify((ic_hash_alg)99, out, 32, m, 4, key, 16) == IC_ERR_PARAM, "verify(bad alg)");
    CHECK(ic_hmac_verify(IC_HASH_SHA256, NULL, 32, m, 4, key, 16) == IC_ERR_NULL, "verify(tag NULL)");
    CHECK(ic_hmac_verify(IC_HASH_SHA256, out, 32, NULL, 4, key, 16) == IC_ERR_NULL, "verify(in NULL)");
    CHECK(ic_hmac_verify(IC_HASH_SHA256, out, 32, m, 4, NULL, 16) == IC_ERR_NULL, "verify(key NULL)");
    CHECK(ic_hmac_verify(IC_HASH_SHA256, out, 9, m, 4, key, 16) == IC_ERR_TAGLEN, "verify(taglen 9)");
}

/* ic_hmac_wipe abandons a keyed context: nothing is left in it, and no call
 * accepts it until the next init. */
static void test_wipe(void)
{
    ic_hmac_ctx c;
    uint8_t key[32], out[IC_HASH_MAX_DIGEST_SIZE] = {0}, m[8] = {0};

    tl_rand_bytes(key, sizeof key);
    ic_hmac_wipe(NULL);   /* allowed: nothing to do */
    CHECK(ic_hmac_init(&c, IC_HASH_SHA384, key, sizeof key) == IC_OK, "init");
    CHECK(ic_hmac_update(&c, m, sizeof m) == IC_OK, "update");
    ic_hmac_wipe(&c);
    CHECK(tl_all_byte(&c, sizeof c, 0), "wipe leaves no key-derived byte");
    CHECK(ic_hmac_update(&c, m, 1) == IC_ERR_STATE, "update after wipe");
    CHECK(ic_hmac_final(&c, out, sizeof out) == IC_ERR_STATE, "final after wipe");
    CHECK(ic_hmac_final_verify(&c, out, 48) == IC_ERR_STATE, "final_verify after wipe");
    ic_hmac_wipe(&c);     /* twice is fine */
    CHECK(ic_hmac_init(&c, IC_HASH_SHA384, key, sizeof key) == IC_OK, "init after wipe");
    CHECK(ic_hmac_final(&c, out, sizeof out) == IC_OK, "final after re-init");
    ic_hmac_wipe(&c);     /* after final too */
    CHECK(tl_all_byte(&c, sizeof c, 0), "wipe after final");
}

/* A failed re-init must leave no usable key behind (the old one included). */
static void test_failed_reinit(void)
{
    ic_hmac_ctx c;
    uint8_t out[IC_HASH_MAX_DIGEST_SIZE];
    CHECK(ic_hmac_init(&c, IC_HASH_SHA256, (const uint8_t *)"key", 3) == IC_OK, "first init");
    CHECK(ic_hmac_init(&c, (ic_hash_alg)99, (const uint8_t *)"key", 3) == IC_ERR_PARAM, "bad alg");
    CHECK(ic_hmac_update(&c, (const uint8_t *)"x", 1) == IC_ERR_STATE, "no update after a failed re-init");
    CHECK(ic_hmac_final(&c, out, sizeof out) == IC_ERR_STATE, "no final after a failed re-init");
    CHECK(ic_hmac_init(&c, IC_HASH_SHA256, (const uint8_t *)"key", 3) == IC_OK, "init again");
    CHECK(ic_hmac_init(&c, IC_HASH_SHA256, NULL, 3) == IC_ERR_NULL, "NULL key");
    CHECK(ic_hmac_update(&c, (const uint8_t *)"x", 1) == IC_ERR_STATE, "no update after a NULL-key re-init");
}

int main(void)
{
    static const char *prims[] = { "sha1", "sha256", "sha512" };
    for (int i = 0; i < 3; i++)
        CHECK(tl_for_each_impl(prims[i], kat_impl, (void *)prims[i]) >= 1, "%s: nothing ran", prims[i]);
    /* RFC 2202: 7 cases; RFC 4231: 7 cases for each of 4 hashes */
    CHECK(kat_records >= 35, "hmac_kat.txt: %d records run, expected >= 35", kat_records);
    test_definition();
    test_verify();
    test_bad_input();
    test_wipe();
    test_failed_reinit();
    return tl_finish();
}
