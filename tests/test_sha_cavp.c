/*
 * test_sha_cavp.c - the NIST CAVP SHAVS vectors for SHA-1, SHA-224,
 * SHA-256, SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (ShortMsg,
 * LongMsg and the Monte Carlo test), from the cryptography-vectors package
 * (tl_cavp_dir()/hashes/SHA1 and hashes/SHA2), run with every available
 * implementation of the primitive serving each variant.
 *
 * Len in the files is in bits; the byte-oriented files only hold whole
 * bytes, and Len = 0 comes with "Msg = 00", meaning the empty message.
 * Every file must be present and hold exactly the expected number of
 * records, so a missing or truncated file fails rather than passes.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    ic_hash_alg alg;
    const char *dir, *file;   /* hashes/<dir>/<file>{ShortMsg,LongMsg,Monte}.rsp */
    const char *prim;
} variant;

static const variant VARIANTS[] = {
    { IC_HASH_SHA1,       "SHA1", "SHA1",       "sha1" },
    { IC_HASH_SHA224,     "SHA2", "SHA224",     "sha256" },
    { IC_HASH_SHA256,     "SHA2", "SHA256",     "sha256" },
    { IC_HASH_SHA384,     "SHA2", "SHA384",     "sha512" },
    { IC_HASH_SHA512,     "SHA2", "SHA512",     "sha512" },
    { IC_HASH_SHA512_224, "SHA2", "SHA512_224", "sha512" },
    { IC_HASH_SHA512_256, "SHA2", "SHA512_256", "sha512" },
};

/* ShortMsg / LongMsg: one-shot, and streamed in two pieces split at a
 * random point (checks the buffered path on the long messages). */
static int run_msg(const variant *v, const char *kind, const char *impl)
{
    tl_rsp *r = tl_rsp_openf("%s/hashes/%s/%s%s.rsp", tl_cavp_dir(), v->dir, v->file, kind);
    size_t dn = ic_hash_digest_size(v->alg);
    tl_rec rec;
    int n = 0;

    while (tl_rsp_next(r, &rec)) {
        const char *lens = tl_get(&rec, "Len"), *msgh = tl_get(&rec, "Msg"), *mdh = tl_get(&rec, "MD");
        uint8_t want[IC_HASH_MAX_DIGEST_SIZE], got[IC_HASH_MAX_DIGEST_SIZE];
        size_t mlen = 0;
        uint8_t *msg;

        if (!lens)
            continue;
        msg = msgh ? tl_hex_alloc(msgh, &mlen) : NULL;
        long bits = strtol(lens, NULL, 10);
        if (!CHECK(msg && mdh && bits % 8 == 0 && (size_t)(bits / 8) <= mlen
                   && tl_hex(want, sizeof want, mdh) == (long)dn,
                   "%s line %ld: bad record", tl_rsp_path(r), rec.line)) {
            free(msg);
            continue;
        }
        mlen = (size_t)bits / 8;   /* Len = 0: "Msg = 00" is the empty message */
        CHECK(ic_hash(v->alg, got, sizeof got, msg, mlen) == IC_OK, "ic_hash");
        CHECK_MEM(got, want, dn, "%s/%s %s%s Len=%ld", v->prim, impl, v->file, kind, bits);

        ic_hash_ctx c;
        size_t split = mlen ? tl_rand_below((uint32_t)mlen + 1) : 0;
        memset(got, 0, sizeof got);
        CHECK(ic_hash_init(&c, v->alg) == IC_OK && ic_hash_update(&c, msg, split) == IC_OK
              && ic_hash_update(&c, msg + split, mlen - split) == IC_OK
              && ic_hash_final(&c, got, sizeof got) == IC_OK, "streamed");
        CHECK_MEM(got, want, dn, "%s/%s %s%s Len=%ld split %zu", v->prim, impl, v->file, kind,
                  bits, split);
        free(msg);
        n++;
    }
    tl_rsp_close(r);
    return n;
}

/*
 * SHAVS Monte Carlo (SHAVS 6.4, the SHA-1 / SHA-2 form):
 *   for j = 0..99:
 *       MD0 = MD1 = MD2 = Seed
 *       for i = 3..1002:  MDi = SHA(MD(i-3) || MD(i-2) || MD(i-1))
 *       Seed = MD1002, which must equal the file's MD for COUNT = j
 * The window of the last three digests slides through one buffer.
 */
static int run_monte(const variant *v, const char *impl)
{
    tl_rsp *r = tl_rsp_openf("%s/hashes/%s/%sMonte.rsp", tl_cavp_dir(), v->dir, v->file);
    size_t dn = ic_hash_digest_size(v->alg);
    uint8_t seed[IC_HASH_MAX_DIGEST_SIZE], want[IC_HASH_MAX_DIGEST_SIZE];
    uint8_t win[3 * IC_HASH_MAX_DIGEST_SIZE], md[IC_HASH_MAX_DIGEST_SIZE];
    int have_seed = 0, n = 0;
    tl_rec rec;

    while (tl_rsp_next(r, &rec)) {
        if (tl_has(&rec, "Seed")) {
            have_seed = CHECK(tl_hex(seed, sizeof seed, tl_get(&rec, "Seed")) == (long)dn,
                              "%s: seed length", tl_rsp_path(r));
            continue;
        }
        const char *count = tl_get(&rec, "COUNT"), *mdh = tl_get(&rec, "MD");
        if (!CHECK(have_seed && count && mdh && atoi(count) == n
                   && tl_hex(want, sizeof want, mdh) == (long)dn,
                   "%s line %ld: bad Monte record", tl_rsp_path(r), rec.line))
            break;
        for (int k = 0; k < 3; k++)
            memcpy(win + k * dn, seed, dn);
        int st = IC_OK;
        for (int i = 3; st == IC_OK && i <= 1002; i++) {
            st = ic_hash(v->alg, md, sizeof md, win, 3 * dn);
            memmove(win, win + dn, 2 * dn);
            memcpy(win + 2 * dn, md, dn);
        }
        memcpy(seed, md, dn);
        if (!CHECK(st == IC_OK, "%s/%s %sMonte COUNT=%d: status %d", v->prim, impl, v->file, n, st)
            || !CHECK_MEM(md, want, dn, "%s/%s %sMonte COUNT=%d", v->prim, impl, v->file, n))
            break;   /* every later answer depends on this one */
        n++;
    }
    tl_rsp_close(r);
    return n;
}

static void run_impl(const char *impl, void *arg)
{
    const char *prim = arg;
    for (size_t i = 0; i < sizeof VARIANTS / sizeof VARIANTS[0]; i++) {
        const variant *v = &VARIANTS[i];
        int bs = (int)ic_hash_block_size(v->alg), n;
        if (strcmp(v->prim, prim) != 0)
            continue;
        /* ShortMsg: Len = 0, 8, ..., 8 * block size; LongMsg: block size records */
        n = run_msg(v, "ShortMsg", impl);
        CHECK(n == bs + 1, "%sShortMsg: %d records, expected %d", v->file, n, bs + 1);
        n = run_msg(v, "LongMsg", impl);
        CHECK(n == bs, "%sLongMsg: %d records, expected %d", v->file, n, bs);
        n = run_monte(v, impl);
        CHECK(n == 100, "%sMonte: %d records passed, expected 100", v->file, n);
    }
}

int main(void)
{
    CHECK(tl_for_each_impl("sha1", run_impl, "sha1") >= 1, "sha1: nothing ran");
    CHECK(tl_for_each_impl("sha256", run_impl, "sha256") >= 1, "sha256: nothing ran");
    CHECK(tl_for_each_impl("sha512", run_impl, "sha512") >= 1, "sha512: nothing ran");
    return tl_finish();
}
