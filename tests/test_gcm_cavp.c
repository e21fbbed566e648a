/*
 * test_gcm_cavp.c - the NIST CAVP AES-GCM sets (gcmEncryptExtIV{128,192,256}
 * and gcmDecrypt{128,192,256}.rsp from the pinned cryptography-vectors
 * package), every record, through every available (ghash, aes) pair.
 *
 * (Every record also goes through a reusable key object, ic_aes_gcm_key_*.)
 * Encrypt records: ic_aes_gcm_seal must give CT and Tag; the ciphertext must
 * then open and stream-decrypt back.  Decrypt records: ic_aes_gcm_open and
 * the streaming decrypt + verify must give PT, or IC_ERR_AUTH with a zeroed
 * output for the FAIL records.  The tag length comes from the [Taglen = n]
 * section (bits): a length our rules refuse (under 32 bits, not whole bytes,
 * or other than 4, 8, 12..16 bytes) must give IC_ERR_TAGLEN and counts as
 * correctly rejected.  Counts are printed per file.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    long records, sealed, opened, forged, taglen_refused;
} cavp_counts;

static int taglen_allowed(long bits)
{
    long n = bits / 8;
    return bits % 8 == 0 && (n == 4 || n == 8 || (n >= 12 && n <= 16));
}

/* The n of "[Taglen = n]" in the record's section string, -1 if absent. */
static long section_taglen(const char *section)
{
    const char *p = strstr(section, "Taglen = ");
    return p ? strtol(p + 9, NULL, 10) : -1;
}

static uint8_t *field(const tl_rec *rec, const char *name, size_t *len)
{
    const char *s = tl_get(rec, name);
    uint8_t *p = s ? tl_hex_alloc(s, len) : NULL;
    if (!p)
        *len = 0;
    return p;
}

/* Stream-decrypt ct in two pieces split at a random point, then verify. */
static int stream_open(const uint8_t *key, size_t kl, const uint8_t *iv, size_t ivl, const uint8_t *aad,
                       size_t al, const uint8_t *ct, size_t cl, uint8_t *out, const uint8_t *tag, size_t tl)
{
    ic_aes_gcm_key k;
    ic_aes_gcm_ctx c;
    size_t cut = tl_rand_below((uint32_t)cl + 1), acut = tl_rand_below((uint32_t)al + 1);
    int r = ic_aes_gcm_key_init(&k, key, kl);
    if (r == IC_OK) r = ic_aes_gcm_init(&c, &k, iv, ivl);
    if (r == IC_OK) r = ic_aes_gcm_aad(&c, aad, acut);
    if (r == IC_OK) r = ic_aes_gcm_aad(&c, aad + acut, al - acut);
    if (r == IC_OK) r = ic_aes_gcm_decrypt(&c, out, ct, cut);
    if (r == IC_OK) r = ic_aes_gcm_decrypt(&c, out + cut, ct + cut, cl - cut);
    if (r == IC_OK) r = ic_aes_gcm_final_verify(&c, tag, tl);
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&k);
    return r;
}

/* Seal / open through a reusable key object (ic_aes_gcm_key_*). */
static int key_seal(const uint8_t *key, size_t kl, const uint8_t *iv, size_t ivl, const uint8_t *aad, size_t al,
                    const uint8_t *pt, size_t pl, uint8_t *out, uint8_t *t, size_t tl)
{
    ic_aes_gcm_key k;
    int r = ic_aes_gcm_key_init(&k, key, kl);
    if (r == IC_OK)
        r = ic_aes_gcm_key_seal(&k, out, t, tl, pt, pl, aad, al, iv, ivl);
    ic_aes_gcm_key_wipe(&k);
    return r;
}

static int key_open(const uint8_t *key, size_t kl, const uint8_t *iv, size_t ivl, const uint8_t *aad, size_t al,
                    const uint8_t *ct, size_t cl, uint8_t *out, const uint8_t *tag, size_t tl)
{
    ic_aes_gcm_key k;
    int r = ic_aes_gcm_key_init(&k, key, kl);
    if (r == IC_OK)
        r = ic_aes_gcm_key_open(&k, out, tag, tl, ct, cl, aad, al, iv, ivl);
    ic_aes_gcm_key_wipe(&k);
    return r;
}

static void run_file(const char *name, int decrypt, const char *combo)
{
    tl_rsp *r = tl_rsp_openf("%s/ciphers/AES/GCM/%s", tl_cavp_dir(), name);
    cavp_counts n = {0};
    tl_rec rec;

    while (tl_rsp_next(r, &rec)) {
        size_t kl, ivl, al, pl, cl, tl;
        uint8_t *key = field(&rec, "Key", &kl), *iv = field(&rec, "IV", &ivl);
        uint8_t *aad = field(&rec, "AAD", &al), *pt = field(&rec, "PT", &pl);
        uint8_t *ct = field(&rec, "CT", &cl), *tag = field(&rec, "Tag", &tl);
        long bits = section_taglen(rec.section);
        int fail = tl_has(&rec, "FAIL");
        uint8_t *out = malloc(cl + 16), t[16];

        n.records++;
        if (!CHECK(key && iv && aad && ct && tag && out && (pt || fail) && (!pt || pl == cl) && bits > 0
                   && (long)tl * 8 == (bits + 7) / 8 * 8 && !(fail && !decrypt),
                   "%s line %ld: malformed record", name, rec.line))
            goto next;

        if (!taglen_allowed(bits)) {
            memset(out, 0x66, cl + 16);
            int want = IC_ERR_TAGLEN;
            int got = decrypt ? ic_aes_gcm_open(out, tag, tl, ct, cl, aad, al, iv, ivl, key, kl)
                              : ic_aes_gcm_seal(out, t, tl, pt, pl, aad, al, iv, ivl, key, kl);
            if (CHECK(got == want, "%s line %ld: %ld-bit tag: status %d, want IC_ERR_TAGLEN", name, rec.line,
                      bits, got) && CHECK(out[0] == 0x66, "%s line %ld: refused call wrote", name, rec.line))
                n.taglen_refused++;
            goto next;
        }

        if (!decrypt) {
            int ok = CHECK(ic_aes_gcm_seal(out, t, tl, pt, pl, aad, al, iv, ivl, key, kl) == IC_OK,
                           "%s line %ld %s: seal", name, rec.line, combo);
            ok &= CHECK_MEM(out, ct, cl, "%s line %ld %s: ciphertext", name, rec.line, combo);
            ok &= CHECK_MEM(t, tag, tl, "%s line %ld %s: tag", name, rec.line, combo);
            ok &= CHECK(ic_aes_gcm_open(out, tag, tl, ct, cl, aad, al, iv, ivl, key, kl) == IC_OK
                        && memcmp(out, pt, pl) == 0, "%s line %ld %s: open own output", name, rec.line, combo);
            ok &= CHECK(stream_open(key, kl, iv, ivl, aad, al, ct, cl, out, tag, tl) == IC_OK
                        && memcmp(out, pt, pl) == 0, "%s line %ld %s: streamed decrypt", name, rec.line, combo);
            ok &= CHECK(key_seal(key, kl, iv, ivl, aad, al, pt, pl, out, t, tl) == IC_OK && !memcmp(out, ct, cl)
                        && !memcmp(t, tag, tl), "%s line %ld %s: seal with a key object", name, rec.line, combo);
            n.sealed += ok;
        } else if (fail) {
            memset(out, 0x66, cl + 16);
            int ok = CHECK(ic_aes_gcm_open(out, tag, tl, ct, cl, aad, al, iv, ivl, key, kl) == IC_ERR_AUTH,
                           "%s line %ld %s: FAIL record accepted", name, rec.line, combo);
            uint8_t acc = 0;
            for (size_t i = 0; i < cl; i++)
                acc |= out[i];
            ok &= CHECK(acc == 0 && out[cl] == 0x66, "%s line %ld %s: out not zeroed (or written past)",
                        name, rec.line, combo);
            ok &= CHECK(stream_open(key, kl, iv, ivl, aad, al, ct, cl, out, tag, tl) == IC_ERR_AUTH,
                        "%s line %ld %s: FAIL record verified when streamed", name, rec.line, combo);
            memset(out, 0x66, cl + 16);
            ok &= CHECK(key_open(key, kl, iv, ivl, aad, al, ct, cl, out, tag, tl) == IC_ERR_AUTH
                        && (cl == 0 || (out[0] == 0 && out[cl - 1] == 0)) && out[cl] == 0x66,
                        "%s line %ld %s: FAIL record accepted by a key object", name, rec.line, combo);
            n.forged += ok;
        } else {
            int ok = CHECK(ic_aes_gcm_open(out, tag, tl, ct, cl, aad, al, iv, ivl, key, kl) == IC_OK,
                           "%s line %ld %s: open", name, rec.line, combo);
            ok &= CHECK_MEM(out, pt, pl, "%s line %ld %s: plaintext", name, rec.line, combo);
            memset(out, 0, cl);
            ok &= CHECK(stream_open(key, kl, iv, ivl, aad, al, ct, cl, out, tag, tl) == IC_OK,
                        "%s line %ld %s: streamed verify", name, rec.line, combo);
            ok &= CHECK_MEM(out, pt, pl, "%s line %ld %s: streamed plaintext", name, rec.line, combo);
            memset(out, 0, cl);
            ok &= CHECK(key_open(key, kl, iv, ivl, aad, al, ct, cl, out, tag, tl) == IC_OK,
                        "%s line %ld %s: open with a key object", name, rec.line, combo);
            ok &= CHECK_MEM(out, pt, pl, "%s line %ld %s: key object plaintext", name, rec.line, combo);
            n.opened += ok;
        }
    next:
        free(key); free(iv); free(aad); free(pt); free(ct); free(tag); free(out);
    }
    tl_rsp_close(r);
    printf("%s %s: %ld records: %ld sealed, %ld opened, %ld FAIL refused, %ld tag lengths refused\n",
           name, combo, n.records, n.sealed, n.opened, n.forged, n.taglen_refused);
    /* each file holds 7875 records; every one must have been accounted for */
    CHECK(n.records == 7875, "%s: %ld records read, expected 7875", name, n.records);
    CHECK(n.sealed + n.opened + n.forged + n.taglen_refused == n.records, "%s %s: %ld records not passed",
          name, combo, n.records - (n.sealed + n.opened + n.forged + n.taglen_refused));
    if (decrypt)
        CHECK(n.forged > 0 && n.opened > 0, "%s: both FAIL and good records seen", name);
}

static void per_aes(const char *aes, void *arg)
{
    static const char *enc[] = {"gcmEncryptExtIV128.rsp", "gcmEncryptExtIV192.rsp", "gcmEncryptExtIV256.rsp"};
    static const char *dec[] = {"gcmDecrypt128.rsp", "gcmDecrypt192.rsp", "gcmDecrypt256.rsp"};
    char combo[64];
    snprintf(combo, sizeof combo, "[ghash/%s aes/%s]", (const char *)arg, aes);
    for (int i = 0; i < 3; i++) {
        run_file(enc[i], 0, combo);
        run_file(dec[i], 1, combo);
    }
}

static void per_ghash(const char *ghash, void *arg)
{
    tl_for_each_impl("aes", per_aes, (void *)ghash);
    (void)arg;
}

int main(void)
{
    CHECK(tl_for_each_impl("ghash", per_ghash, NULL) >= 1, "at least one GHASH ran");
    return tl_finish();
}
