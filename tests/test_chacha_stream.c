/*
 * test_chacha_stream.c - the streaming ChaCha20-Poly1305 / XChaCha20-Poly1305
 * API (ic_chacha20_poly1305_init / ic_xchacha20_poly1305_init from a key
 * object, then _aad / _encrypt / _decrypt / _final / _final_verify).
 *
 *  1. known answers through the streaming calls: the [AEAD] and [XAEAD]
 *     records of tests/vectors/chacha_kat.txt (RFC 8439 2.8.2 and A.5, the
 *     XChaCha draft A.3.1), whole, one byte at a time, and cut in two at
 *     every position; final_verify accepts the tag and refuses each flipped
 *     bit; two contexts on one key object, interleaved; no copy of the key
 *     in a context, and nothing at all in one after final;
 *  2. differential, every implementation of chacha20 and of poly1305: the
 *     reference is built here from other public calls (ic_hchacha20,
 *     ic_chacha20_xor for the one-time key and the payload, ic_poly1305 over
 *     the RFC 8439 2.8 MAC input) with the portable implementations (the
 *     tables' last entries) selected, so it shares no code with
 *     chacha20_poly1305.c.  Every length 0..130, random lengths to 4096 and
 *     65536+13 and 300000+7, both AEADs, random AAD; the one-shot seal,
 *     streaming in random pieces (empty ones and NULL with 0 included),
 *     misaligned in and out, in place, decrypt in other random pieces,
 *     a message abandoned half way and the context begun again with a new
 *     nonce, a flipped tag bit refused by final_verify;
 *  3. bad input: each rule with its exact status, nothing written on
 *     refusal and the message still correct after refused calls, the
 *     length limit exactly at IC_CHACHA20_POLY1305_MAX_LEN, a key object
 *     never initialised or wiped in the middle of a message;
 *  4. call order: aad after data, encrypt and decrypt mixed, final after
 *     decrypt, final_verify after encrypt, anything after final /
 *     final_verify, a zeroed or wiped context.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

#define NCASES 260
#define BIGLEN (300000 + 7)
#define RND_SIZE (BIGLEN + 1024)

typedef ic_chacha20_poly1305_ctx cpctx;
typedef ic_chacha20_poly1305_key cpkey;

static uint8_t *rnd;   /* RND_SIZE random bytes: plaintexts and AADs */

/* ---- helpers ------------------------------------------------------------ */

static void put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* RFC 8439 section 2.8 from other public calls: one-time key = first 32
 * bytes of block 0, payload from block 1, tag = Poly1305 over
 * aad || pad16 || ct || pad16 || le64(alen) || le64(len); XChaCha under
 * HChaCha20(key, nonce[0..15]) and nonce 0^4 || nonce[16..23]. */
static void ref_seal(int x, const uint8_t key[32], const uint8_t *nonce, const uint8_t *aad, size_t alen,
                     const uint8_t *pt, size_t len, uint8_t *ct, uint8_t tag[16])
{
    uint8_t sub[32], n12[12], otk[32] = { 0 };
    const uint8_t *k = key, *n = nonce;
    if (x) {
        CHECK(ic_hchacha20(sub, nonce, key) == IC_OK, "reference subkey");
        memset(n12, 0, 4);
        memcpy(n12 + 4, nonce + 16, 8);
        k = sub;
        n = n12;
    }
    CHECK(ic_chacha20_xor(otk, otk, 32, n, 0, k) == IC_OK, "reference one-time key");
    CHECK(ic_chacha20_xor(ct, pt, len, n, 1, k) == IC_OK, "reference payload");
    size_t pa = (16 - alen % 16) % 16, pc = (16 - len % 16) % 16, m = alen + pa + len + pc + 16;
    uint8_t *mac = tl_xmalloc(m);
    memset(mac, 0, m);
    memcpy(mac, aad, alen);
    memcpy(mac + alen + pa, ct, len);
    put_le64(mac + m - 16, alen);
    put_le64(mac + m - 8, len);
    CHECK(ic_poly1305(tag, mac, m, otk) == IC_OK, "reference tag");
    free(mac);
}

/* A random piece of at most left bytes: often empty or short (to end and
 * start pieces inside keystream and Poly1305 blocks), sometimes long. */
static size_t piece(size_t left)
{
    uint32_t r = tl_rand_below(8);
    if (r == 0 || left == 0)
        return 0;
    if (r < 6)
        return tl_rand_below((uint32_t)(left < 130 ? left : 130) + 1);
    return left <= 0xffffffffu ? tl_rand_below((uint32_t)left + 1) : left;
}

/* Begin a message of either AEAD under key object k. */
static int begin(cpctx *c, const cpkey *k, int x, const uint8_t *nonce)
{
    return x ? ic_xchacha20_poly1305_init(c, k, nonce) : ic_chacha20_poly1305_init(c, k, nonce);
}

/* 1 when the n bytes of needle occur anywhere in the n2 bytes at hay. */
static int contains(const void *hay, size_t n2, const uint8_t *needle, size_t n)
{
    for (size_t i = 0; i + n <= n2; i++)
        if (memcmp((const uint8_t *)hay + i, needle, n) == 0)
            return 1;
    return 0;
}

/* All of aad in random pieces; an empty piece is sometimes passed as NULL. */
static int aad_pieces(cpctx *c, const uint8_t *aad, size_t alen)
{
    int rc = IC_OK;
    for (size_t off = 0; rc == IC_OK && off < alen;) {
        size_t n = piece(alen - off);
        rc = ic_chacha20_poly1305_aad(c, n || tl_rand_below(2) ? aad + off : NULL, n);
        off += n;
    }
    return rc;
}

/* in -> out in random pieces with encrypt (dec 0) or decrypt (dec 1). */
static int data_pieces(cpctx *c, int dec, uint8_t *out, const uint8_t *in, size_t len)
{
    int rc = IC_OK;
    for (size_t off = 0; rc == IC_OK && off < len;) {
        size_t n = piece(len - off);
        int null = n == 0 && tl_rand_below(2);
        uint8_t *o = null ? NULL : out + off;
        const uint8_t *i = null ? NULL : in + off;
        rc = dec ? ic_chacha20_poly1305_decrypt(c, o, i, n) : ic_chacha20_poly1305_encrypt(c, o, i, n);
        off += n;
    }
    return rc;
}

/* One whole streamed message under k: init, aad and data in pieces, final
 * (dec 0, tag written) or final_verify (dec 1, tag read).  The first
 * failing status. */
static int stream_msg(cpctx *c, const cpkey *k, int x, int dec, const uint8_t *nonce, const uint8_t *aad,
                      size_t alen, uint8_t *out, const uint8_t *in, size_t len, uint8_t *tag)
{
    int rc = begin(c, k, x, nonce);
    if (rc == IC_OK)
        rc = aad_pieces(c, aad, alen);
    if (rc == IC_OK)
        rc = data_pieces(c, dec, out, in, len);
    if (rc == IC_OK)
        rc = dec ? ic_chacha20_poly1305_final_verify(c, tag) : ic_chacha20_poly1305_final(c, tag);
    return rc;
}

/* ---- 1. known answers --------------------------------------------------- */

static void kat_record(const char *impl, const char *where, int x, const uint8_t *key, const uint8_t *nonce,
                       const uint8_t *aad, size_t alen, const uint8_t *pt, const uint8_t *ct, size_t len,
                       const uint8_t *tag)
{
    cpctx c, c2;
    cpkey k;
    uint8_t *out = tl_xmalloc(len + 1), *out2 = tl_xmalloc(len + 1), got[16], got2[16], bad[16];
    CHECK(ic_chacha20_poly1305_key_init(&k, key) == IC_OK, "%s key init", where);
    /* whole; the context holds no copy of the key (for XChaCha20 only the
     * subkey), and nothing at all once final has run */
    out[len] = 0xa5;
    CHECK(begin(&c, &k, x, nonce) == IC_OK, "%s %s whole: init", impl, where);
    CHECK(!contains(&c, sizeof c, key, 32), "%s %s: the key was copied into the context", impl, where);
    CHECK(ic_chacha20_poly1305_aad(&c, aad, alen) == IC_OK && ic_chacha20_poly1305_encrypt(&c, out, pt, len) == IC_OK &&
              ic_chacha20_poly1305_final(&c, got) == IC_OK,
          "%s %s whole: statuses", impl, where);
    CHECK_MEM(out, ct, len, "%s %s whole: ciphertext", impl, where);
    CHECK_MEM(got, tag, 16, "%s %s whole: tag", impl, where);
    CHECK(out[len] == 0xa5, "%s %s: nothing written past out+len", impl, where);
    CHECK(tl_all_byte(&c, sizeof c, 0), "%s %s: final wipes the context", impl, where);
    /* one byte per call, aad and data */
    int ok = begin(&c, &k, x, nonce) == IC_OK;
    for (size_t i = 0; i < alen; i++)
        ok &= ic_chacha20_poly1305_aad(&c, aad + i, 1) == IC_OK;
    for (size_t i = 0; i < len; i++)
        ok &= ic_chacha20_poly1305_encrypt(&c, out + i, pt + i, 1) == IC_OK;
    ok &= ic_chacha20_poly1305_final(&c, got) == IC_OK;
    CHECK(ok, "%s %s bytewise: statuses", impl, where);
    CHECK_MEM(out, ct, len, "%s %s bytewise: ciphertext", impl, where);
    CHECK_MEM(got, tag, 16, "%s %s bytewise: tag", impl, where);
    /* two contexts on one key object, call by call in turn: one seals while
     * the other opens */
    ok = begin(&c, &k, x, nonce) == IC_OK && begin(&c2, &k, x, nonce) == IC_OK;
    for (size_t i = 0; i < alen; i++)
        ok &= ic_chacha20_poly1305_aad(&c, aad + i, 1) == IC_OK && ic_chacha20_poly1305_aad(&c2, aad + i, 1) == IC_OK;
    for (size_t i = 0; i < len; i += 7) {
        size_t n = len - i < 7 ? len - i : 7;
        ok &= ic_chacha20_poly1305_encrypt(&c, out + i, pt + i, n) == IC_OK &&
              ic_chacha20_poly1305_decrypt(&c2, out2 + i, ct + i, n) == IC_OK;
    }
    ok &= ic_chacha20_poly1305_final(&c, got2) == IC_OK && ic_chacha20_poly1305_final_verify(&c2, tag) == IC_OK;
    CHECK(ok, "%s %s two contexts on one key: statuses", impl, where);
    CHECK_MEM(out, ct, len, "%s %s two contexts: ciphertext", impl, where);
    CHECK_MEM(out2, pt, len, "%s %s two contexts: plaintext", impl, where);
    CHECK_MEM(got2, tag, 16, "%s %s two contexts: tag", impl, where);
    /* cut in two at every position: encrypt in place, then decrypt in place */
    for (size_t cut = 0; cut <= len; cut++) {
        memcpy(out, pt, len);
        ok = begin(&c, &k, x, nonce) == IC_OK && ic_chacha20_poly1305_aad(&c, aad, alen) == IC_OK &&
             ic_chacha20_poly1305_encrypt(&c, out, out, cut) == IC_OK &&
             ic_chacha20_poly1305_encrypt(&c, out + cut, out + cut, len - cut) == IC_OK &&
             ic_chacha20_poly1305_final(&c, got) == IC_OK;
        if (!CHECK(ok && memcmp(out, ct, len) == 0 && memcmp(got, tag, 16) == 0,
                   "%s %s encrypt cut at %zu", impl, where, cut))
            break;
        ok = begin(&c, &k, x, nonce) == IC_OK && ic_chacha20_poly1305_aad(&c, aad, alen) == IC_OK &&
             ic_chacha20_poly1305_decrypt(&c, out, out, len - cut) == IC_OK &&
             ic_chacha20_poly1305_decrypt(&c, out + len - cut, out + len - cut, cut) == IC_OK;
        if (!CHECK(ok && memcmp(out, pt, len) == 0 && ic_chacha20_poly1305_final_verify(&c, tag) == IC_OK,
                   "%s %s decrypt cut at %zu", impl, where, len - cut))
            break;
    }
    /* every single flipped tag bit is refused, and the context ends anyway */
    int refused = 0;
    for (int bit = 0; bit < 128; bit++) {
        memcpy(bad, tag, 16);
        bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        refused += begin(&c, &k, x, nonce) == IC_OK && ic_chacha20_poly1305_aad(&c, aad, alen) == IC_OK &&
                   ic_chacha20_poly1305_decrypt(&c, out, ct, len) == IC_OK &&
                   ic_chacha20_poly1305_final_verify(&c, bad) == IC_ERR_AUTH && tl_all_byte(&c, sizeof c, 0);
    }
    CHECK(refused == 128, "%s %s: %d of 128 flipped tag bits refused", impl, where, refused);
    ic_chacha20_poly1305_wipe(&c);
    ic_chacha20_poly1305_key_wipe(&k);
    free(out);
    free(out2);
}

static void kat_impl(const char *impl, void *arg)
{
    (void)arg;
    int naead = 0, nxaead = 0, saw_282 = 0;
    uint8_t tag282[16];
    tl_hex(tag282, 16, "1ae10b594f09e26a7e902ecbd0600691");   /* RFC 8439 section 2.8.2 */
    tl_rsp *r = tl_rsp_openf("%s/chacha_kat.txt", tl_data_dir());
    tl_rec rec;
    while (r && tl_rsp_next(r, &rec)) {
        int x = strcmp(rec.section, "[XAEAD]") == 0;
        if (!x && strcmp(rec.section, "[AEAD]") != 0)
            continue;
        char where[64];
        snprintf(where, sizeof where, "chacha_kat.txt:%ld", rec.line);
        size_t klen = 0, nlen = 0, alen = 0, plen = 0, clen = 0, tlen = 0;
        const char *f[6] = { tl_get(&rec, "KEY"), tl_get(&rec, "NONCE"), tl_get(&rec, "AAD"),
                             tl_get(&rec, "PLAINTEXT"), tl_get(&rec, "CIPHERTEXT"), tl_get(&rec, "TAG") };
        if (!CHECK(f[0] && f[1] && f[2] && f[3] && f[4] && f[5], "%s: fields present", where))
            continue;
        uint8_t *key = tl_hex_alloc(f[0], &klen), *nonce = tl_hex_alloc(f[1], &nlen);
        uint8_t *aad = tl_hex_alloc(f[2], &alen), *pt = tl_hex_alloc(f[3], &plen);
        uint8_t *ct = tl_hex_alloc(f[4], &clen), *tag = tl_hex_alloc(f[5], &tlen);
        if (CHECK(klen == 32 && nlen == (x ? 24u : 12u) && plen == clen && tlen == 16, "%s: sizes", where)) {
            kat_record(impl, where, x, key, nonce, aad, alen, pt, ct, plen, tag);
            saw_282 |= !x && memcmp(tag, tag282, 16) == 0;
            naead += !x;
            nxaead += x;
        }
        free(key); free(nonce); free(aad); free(pt); free(ct); free(tag);
    }
    if (r)
        tl_rsp_close(r);
    CHECK(naead == 2 && nxaead == 1 && saw_282, "%s: %d [AEAD] (2.8.2 %s), %d [XAEAD] records", impl, naead,
          saw_282 ? "among them" : "MISSING", nxaead);
}

/* ---- 2. differential ---------------------------------------------------- */

typedef struct {
    int x;
    uint8_t key[32], nonce[24], tag[16];
    size_t alen, len, aoff, ioff;   /* aad at rnd + aoff, plaintext at rnd + ioff */
    uint8_t *ct;
} cp_case;
static cp_case cases[NCASES];

static void cases_make(void)
{
    const char *pc = ic_impl_name("chacha20", ic_impl_count("chacha20") - 1);
    const char *pp = ic_impl_name("poly1305", ic_impl_count("poly1305") - 1);
    CHECK(ic_impl_select("chacha20", pc) == IC_OK && ic_impl_select("poly1305", pp) == IC_OK,
          "select the portable implementations (%s, %s) for the reference", pc, pp);
    for (int i = 0; i < NCASES; i++) {
        cp_case *k = &cases[i];
        k->x = i & 1;
        tl_rand_bytes(k->key, 32);
        tl_rand_bytes(k->nonce, 24);
        k->len = i <= 130 ? (size_t)i : i < NCASES - 2 ? tl_rand_below(4097) : i == NCASES - 2 ? 65536 + 13 : BIGLEN;
        k->alen = i % 7 == 0 ? 0 : tl_rand_below(i % 3 ? 40 : 300);
        k->ioff = tl_rand_below(16);
        k->aoff = RND_SIZE - 320 + tl_rand_below(16);
        k->ct = tl_xmalloc(k->len);
        ref_seal(k->x, k->key, k->nonce, rnd + k->aoff, k->alen, rnd + k->ioff, k->len, k->ct, k->tag);
    }
    CHECK(ic_impl_select("chacha20", NULL) == IC_OK, "chacha20: back to automatic selection");
    CHECK(ic_impl_select("poly1305", NULL) == IC_OK, "poly1305: back to automatic selection");
}

static void diff_impl(const char *impl, void *arg)
{
    const char *prim = arg;
    uint8_t *buf = tl_xmalloc(BIGLEN + 32), *buf2 = tl_xmalloc(BIGLEN + 32);
    uint8_t tag[16];
    cpctx c;
    cpkey key;
    unsigned long bad_before = tl_failed;
    for (int i = 0; i < NCASES && tl_failed - bad_before < 10; i++) {
        const cp_case *k = &cases[i];
        const uint8_t *aad = rnd + k->aoff, *pt = rnd + k->ioff;
        const char *name = k->x ? "xchacha20-poly1305" : "chacha20-poly1305";
        size_t len = k->len, ooff = tl_rand_below(16);
        uint8_t *out = buf + ooff;
        int rc;

        /* one-shot, on the same message code as the streaming calls */
        memset(buf, 0x5c, len + 32);
        rc = (k->x ? ic_xchacha20_poly1305_seal : ic_chacha20_poly1305_seal)(out, tag, pt, len, aad,
                                                                              k->alen, k->nonce, k->key);
        CHECK(rc == IC_OK, "%s/%s %s one-shot seal len %zu", prim, impl, name, len);
        CHECK_MEM(out, k->ct, len, "%s/%s %s one-shot ciphertext len %zu", prim, impl, name, len);
        CHECK_MEM(tag, k->tag, 16, "%s/%s %s one-shot tag len %zu aad %zu", prim, impl, name, len, k->alen);

        /* streaming, misaligned, out of place; i % 5 == 0 first abandons
         * a message under another nonce half way */
        CHECK(ic_chacha20_poly1305_key_init(&key, k->key) == IC_OK, "key init");
        if (i % 5 == 0) {
            uint8_t other[24];
            memcpy(other, k->nonce, 24);
            other[3] ^= 1;
            CHECK(begin(&c, &key, k->x, other) == IC_OK && ic_chacha20_poly1305_aad(&c, aad, k->alen) == IC_OK &&
                      ic_chacha20_poly1305_encrypt(&c, buf2, pt, len / 2) == IC_OK,
                  "abandoned message");
        }
        memset(buf, 0x5c, len + 32);
        rc = stream_msg(&c, &key, k->x, 0, k->nonce, aad, k->alen, out, pt, len, tag);
        CHECK(rc == IC_OK, "%s/%s %s streamed seal len %zu: %d", prim, impl, name, len, rc);
        CHECK_MEM(out, k->ct, len, "%s/%s %s streamed ciphertext len %zu in +%zu out +%zu", prim, impl, name, len,
                  k->ioff, ooff);
        CHECK_MEM(tag, k->tag, 16, "%s/%s %s streamed tag len %zu aad %zu", prim, impl, name, len, k->alen);
        CHECK(tl_all_byte(buf, ooff, 0x5c) && tl_all_byte(out + len, 32 - ooff, 0x5c),
              "%s/%s streamed seal len %zu: nothing written outside out", prim, impl, len);

        /* streaming in place, the same context again */
        memcpy(out, pt, len);
        rc = stream_msg(&c, &key, k->x, 0, k->nonce, aad, k->alen, out, out, len, tag);
        CHECK(rc == IC_OK && memcmp(out, k->ct, len) == 0 && memcmp(tag, k->tag, 16) == 0,
              "%s/%s %s streamed seal in place len %zu", prim, impl, name, len);

        /* decrypt in place, other pieces, final_verify */
        memcpy(tag, k->tag, 16);
        rc = stream_msg(&c, &key, k->x, 1, k->nonce, aad, k->alen, out, out, len, tag);
        CHECK(rc == IC_OK, "%s/%s %s streamed open in place len %zu: %d", prim, impl, name, len, rc);
        CHECK_MEM(out, pt, len, "%s/%s %s streamed plaintext in place len %zu", prim, impl, name, len);

        /* decrypt out of place (misaligned) with a flipped tag bit */
        memcpy(tag, k->tag, 16);
        tag[tl_rand_below(16)] ^= (uint8_t)(1u << tl_rand_below(8));
        uint8_t *out2 = buf2 + tl_rand_below(16);
        rc = stream_msg(&c, &key, k->x, 1, k->nonce, aad, k->alen, out2, k->ct, len, tag);
        CHECK(rc == IC_ERR_AUTH, "%s/%s %s flipped tag bit len %zu: %d, want IC_ERR_AUTH", prim, impl, name, len, rc);
        CHECK_MEM(out2, pt, len, "%s/%s %s streamed plaintext (released before final_verify) len %zu", prim, impl,
                  name, len);
        ic_chacha20_poly1305_wipe(&c);
        ic_chacha20_poly1305_key_wipe(&key);
    }
    free(buf);
    free(buf2);
}

/* ---- 3. bad input -------------------------------------------------------- */

/* A context in the middle of case k's message under key object kk
 * (encrypting: aad given, `done` bytes of data encrypted into out). */
static void mid_message(cpctx *c, cpkey *kk, const cp_case *k, uint8_t *out, size_t done)
{
    CHECK(ic_chacha20_poly1305_key_init(kk, k->key) == IC_OK && begin(c, kk, k->x, k->nonce) == IC_OK &&
              ic_chacha20_poly1305_aad(c, rnd + k->aoff, k->alen) == IC_OK &&
              ic_chacha20_poly1305_encrypt(c, out, rnd + k->ioff, done) == IC_OK,
          "mid-message setup");
}

/* The NULL and dead-key-object rules of both inits. */
static void bad_init(int x)
{
    uint8_t nonce[24] = { 2 }, key[32] = { 1 }, buf[8];
    const char *nm = x ? "xchacha20 init" : "init";
    cpkey kk, dead;
    cpctx c;
    memset(&dead, 0, sizeof dead);
    CHECK(ic_chacha20_poly1305_key_init(&kk, key) == IC_OK, "key init");
    CHECK(begin(NULL, &kk, x, nonce) == IC_ERR_NULL, "%s NULL ctx", nm);
    CHECK(begin(&c, NULL, x, nonce) == IC_ERR_NULL, "%s NULL key object", nm);
    CHECK(begin(&c, &kk, x, NULL) == IC_ERR_NULL, "%s NULL nonce", nm);
    CHECK(begin(&c, NULL, x, NULL) == IC_ERR_NULL, "%s NULL key object and nonce", nm);
    CHECK(begin(&c, &dead, x, nonce) == IC_ERR_STATE, "%s key object never initialised", nm);
    CHECK(begin(&c, &dead, x, NULL) == IC_ERR_STATE, "%s dead key object and NULL nonce: step 1 first", nm);
    memset(&dead, 0xa5, sizeof dead);
    CHECK(begin(&c, &dead, x, nonce) == IC_ERR_STATE, "%s key object of garbage", nm);
    CHECK(ic_chacha20_poly1305_key_init(&dead, key) == IC_OK, "key init");
    ic_chacha20_poly1305_key_wipe(&dead);
    CHECK(begin(&c, &dead, x, nonce) == IC_ERR_STATE, "%s wiped key object", nm);
    /* a refused init wipes the context first: the earlier message is gone */
    CHECK(begin(&c, &kk, x, nonce) == IC_OK && begin(&c, &dead, x, nonce) == IC_ERR_STATE, "%s refused", nm);
    CHECK(tl_all_byte(&c, sizeof c, 0), "%s: a refused init leaves the context wiped", nm);
    CHECK(ic_chacha20_poly1305_aad(&c, buf, 1) == IC_ERR_STATE, "%s: no message after a refused init", nm);
    ic_chacha20_poly1305_key_wipe(&kk);
}

/* The key object wiped in the middle of a message: every call of every
 * context on it refused with IC_ERR_STATE, nothing written, the contexts
 * unchanged; wiping the contexts still works. */
static void key_wiped_mid_message(int x)
{
    uint8_t nonce[24] = { 5 }, key[32] = { 6 }, buf[64], tag[16];
    cpkey kk;
    cpctx enc, dec, snap_enc, snap_dec;
    memset(buf, 0x11, sizeof buf);
    CHECK(ic_chacha20_poly1305_key_init(&kk, key) == IC_OK && begin(&enc, &kk, x, nonce) == IC_OK &&
              begin(&dec, &kk, x, nonce) == IC_OK && ic_chacha20_poly1305_aad(&enc, nonce, 3) == IC_OK &&
              ic_chacha20_poly1305_encrypt(&enc, buf, buf, 10) == IC_OK,
          "setup of two messages on one key object");
    ic_chacha20_poly1305_key_wipe(&kk);
    snap_enc = enc;
    snap_dec = dec;
    memset(buf, 0x33, sizeof buf);
    memset(tag, 0x33, sizeof tag);
    CHECK(ic_chacha20_poly1305_aad(&dec, buf, 3) == IC_ERR_STATE, "aad after the key object was wiped");
    CHECK(ic_chacha20_poly1305_aad(&dec, NULL, 0) == IC_ERR_STATE, "empty aad after the key object was wiped");
    CHECK(ic_chacha20_poly1305_decrypt(&dec, buf, buf, 5) == IC_ERR_STATE, "decrypt after the key object was wiped");
    CHECK(ic_chacha20_poly1305_decrypt(&dec, NULL, buf, 5) == IC_ERR_STATE, "dead key object before NULL out");
    CHECK(ic_chacha20_poly1305_final_verify(&dec, tag) == IC_ERR_STATE, "final_verify after the key object was wiped");
    CHECK(ic_chacha20_poly1305_encrypt(&enc, buf, buf, 5) == IC_ERR_STATE, "encrypt after the key object was wiped");
    CHECK(ic_chacha20_poly1305_encrypt(&enc, buf, buf, 0) == IC_ERR_STATE, "empty encrypt after the key object was wiped");
    CHECK(ic_chacha20_poly1305_final(&enc, tag) == IC_ERR_STATE, "final after the key object was wiped");
    CHECK(tl_all_byte(buf, sizeof buf, 0x33) && tl_all_byte(tag, sizeof tag, 0x33),
          "nothing written after the key object was wiped");
    CHECK(memcmp(&enc, &snap_enc, sizeof enc) == 0 && memcmp(&dec, &snap_dec, sizeof dec) == 0,
          "refused calls left the contexts unchanged");
    ic_chacha20_poly1305_wipe(&enc);
    ic_chacha20_poly1305_wipe(&dec);
    CHECK(tl_all_byte(&enc, sizeof enc, 0) && tl_all_byte(&dec, sizeof dec, 0), "wipe after the key object was wiped");
}

static void test_bad_input(void)
{
    const cp_case *k = &cases[NCASES - 2];   /* 65536 + 13 bytes */
    const uint8_t *pt = rnd + k->ioff;
    uint8_t key[32] = { 1 }, nonce[24] = { 2 }, tag[16], buf[256], *out = tl_xmalloc(k->len + 64);
    cpctx c;
    cpkey kk;

    for (int x = 0; x < 2; x++) {
        bad_init(x);
        key_wiped_mid_message(x);
    }

    /* NULL context / data / tag */
    CHECK(ic_chacha20_poly1305_key_init(&kk, key) == IC_OK && ic_chacha20_poly1305_init(&c, &kk, nonce) == IC_OK,
          "init");
    CHECK(ic_chacha20_poly1305_aad(NULL, buf, 1) == IC_ERR_NULL, "aad NULL ctx");
    CHECK(ic_chacha20_poly1305_aad(&c, NULL, 1) == IC_ERR_NULL, "aad NULL with len 1");
    CHECK(ic_chacha20_poly1305_aad(&c, NULL, 0) == IC_OK, "aad NULL with len 0");
    CHECK(ic_chacha20_poly1305_encrypt(NULL, buf, buf, 1) == IC_ERR_NULL, "encrypt NULL ctx");
    CHECK(ic_chacha20_poly1305_encrypt(&c, NULL, buf, 1) == IC_ERR_NULL, "encrypt NULL out");
    CHECK(ic_chacha20_poly1305_encrypt(&c, buf, NULL, 1) == IC_ERR_NULL, "encrypt NULL in");
    CHECK(ic_chacha20_poly1305_decrypt(NULL, buf, buf, 1) == IC_ERR_NULL, "decrypt NULL ctx");
    CHECK(ic_chacha20_poly1305_decrypt(&c, NULL, buf, 1) == IC_ERR_NULL, "decrypt NULL out");
    CHECK(ic_chacha20_poly1305_decrypt(&c, buf, NULL, 1) == IC_ERR_NULL, "decrypt NULL in");
    CHECK(ic_chacha20_poly1305_final(NULL, tag) == IC_ERR_NULL, "final NULL ctx");
    CHECK(ic_chacha20_poly1305_final(&c, NULL) == IC_ERR_NULL, "final NULL tag");
    CHECK(ic_chacha20_poly1305_final_verify(NULL, tag) == IC_ERR_NULL, "final_verify NULL ctx");
    CHECK(ic_chacha20_poly1305_final_verify(&c, NULL) == IC_ERR_NULL, "final_verify NULL tag");
    ic_chacha20_poly1305_wipe(NULL);   /* must not crash */

    /* refused calls in the middle of a message write nothing and leave it
     * intact: the finished message still equals the reference */
    mid_message(&c, &kk, k, out, 37);
    memcpy(buf, rnd, sizeof buf);
    CHECK(ic_chacha20_poly1305_encrypt(&c, buf + 1, buf, 16) == IC_ERR_OVERLAP, "encrypt out = in + 1");
    CHECK(ic_chacha20_poly1305_encrypt(&c, buf, buf + 15, 16) == IC_ERR_OVERLAP, "encrypt in = out + 15");
    CHECK(ic_chacha20_poly1305_encrypt(&c, buf + 16, buf, 17) == IC_ERR_OVERLAP, "encrypt overlap of 1 byte");
    CHECK(ic_chacha20_poly1305_encrypt(&c, buf + 16, buf, 16) == IC_OK, "encrypt adjacent buffers");
    CHECK(ic_chacha20_poly1305_encrypt(&c, NULL, NULL, 0) == IC_OK, "encrypt NULL with len 0");
    CHECK(ic_chacha20_poly1305_aad(&c, buf, 1) == IC_ERR_STATE, "aad after data");
    CHECK(ic_chacha20_poly1305_aad(&c, NULL, 0) == IC_ERR_STATE, "empty aad after data");
    CHECK(ic_chacha20_poly1305_decrypt(&c, buf, buf, 1) == IC_ERR_STATE, "decrypt after encrypt");
    CHECK(ic_chacha20_poly1305_final_verify(&c, tag) == IC_ERR_STATE, "final_verify after encrypt");
#if SIZE_MAX / 64 > UINT32_MAX
    CHECK(ic_chacha20_poly1305_encrypt(&c, buf, buf, (size_t)IC_CHACHA20_POLY1305_MAX_LEN + 1) == IC_ERR_TOOLONG,
          "encrypt over the limit in one call (small buffer, checked first)");
    CHECK(ic_chacha20_poly1305_encrypt(&c, buf + 1, buf, (size_t)IC_CHACHA20_POLY1305_MAX_LEN) == IC_ERR_TOOLONG,
          "the limit counts the message so far (37 + 16 bytes), and comes before the overlap test");
#endif
    CHECK(memcmp(buf, rnd, sizeof buf) != 0 && memcmp(buf, rnd, 16) == 0 && memcmp(buf + 32, rnd + 32, sizeof buf - 32) == 0,
          "refused calls wrote nothing (only the accepted 16 bytes changed)");
    /* the same refusals on a message that is then completed normally */
    mid_message(&c, &kk, k, out, 37);
    CHECK(ic_chacha20_poly1305_encrypt(&c, buf + 1, buf, 16) == IC_ERR_OVERLAP, "overlap (2)");
    CHECK(ic_chacha20_poly1305_encrypt(&c, NULL, pt, 5) == IC_ERR_NULL, "NULL out (2)");
    CHECK(ic_chacha20_poly1305_aad(&c, buf, 3) == IC_ERR_STATE, "aad after data (2)");
    CHECK(ic_chacha20_poly1305_decrypt(&c, out + 37, pt + 37, 5) == IC_ERR_STATE, "decrypt after encrypt (2)");
    CHECK(ic_chacha20_poly1305_final_verify(&c, k->tag) == IC_ERR_STATE, "final_verify after encrypt (2)");
    CHECK(ic_chacha20_poly1305_encrypt(&c, out + 37, pt + 37, k->len - 37) == IC_OK &&
              ic_chacha20_poly1305_final(&c, tag) == IC_OK,
          "rest of the message after refused calls");
    CHECK_MEM(out, k->ct, k->len, "ciphertext unaffected by refused calls");
    CHECK_MEM(tag, k->tag, 16, "tag unaffected by refused calls");

    /* decrypt side: overlap, limit, and refused calls leave the message */
    CHECK(begin(&c, &kk, k->x, k->nonce) == IC_OK && ic_chacha20_poly1305_aad(&c, rnd + k->aoff, k->alen) == IC_OK,
          "decrypt setup");
    memcpy(out, k->ct, k->len);
    CHECK(ic_chacha20_poly1305_decrypt(&c, out + 1, out, 8) == IC_ERR_OVERLAP, "decrypt out = in + 1");
    CHECK(ic_chacha20_poly1305_decrypt(&c, out, out + 1, 8) == IC_ERR_OVERLAP, "decrypt in = out + 1");
    CHECK(memcmp(out, k->ct, k->len) == 0, "refused decrypt wrote nothing");
    CHECK(ic_chacha20_poly1305_decrypt(&c, out, out, 10) == IC_OK, "decrypt first 10");
    CHECK(ic_chacha20_poly1305_encrypt(&c, out + 10, out + 10, 1) == IC_ERR_STATE, "encrypt after decrypt");
    CHECK(ic_chacha20_poly1305_final(&c, tag) == IC_ERR_STATE, "final after decrypt");
    CHECK(ic_chacha20_poly1305_decrypt(&c, out + 10, out + 10, k->len - 10) == IC_OK &&
              ic_chacha20_poly1305_final_verify(&c, k->tag) == IC_OK,
          "decrypt the rest and final_verify");
    CHECK_MEM(out, pt, k->len, "plaintext unaffected by refused calls");

    /* the limit exactly: the context is a public struct, so move its byte
     * count to 10 below the limit (the keystream is then wrong, the
     * statuses are what is tested) */
    CHECK(ic_chacha20_poly1305_key_init(&kk, key) == IC_OK, "key init");
    for (int dec = 0; dec < 2; dec++) {
        int (*crypt)(cpctx *, uint8_t *, const uint8_t *, size_t) =
            dec ? ic_chacha20_poly1305_decrypt : ic_chacha20_poly1305_encrypt;
        CHECK(ic_chacha20_poly1305_init(&c, &kk, nonce) == IC_OK && crypt(&c, buf, buf, 1) == IC_OK, "limit setup");
        c.datalen = IC_CHACHA20_POLY1305_MAX_LEN - 10;
        memset(buf, 0x33, sizeof buf);
        CHECK(crypt(&c, buf, buf, 11) == IC_ERR_TOOLONG, "%s 1 byte over the limit", dec ? "decrypt" : "encrypt");
        CHECK(tl_all_byte(buf, sizeof buf, 0x33), "over the limit: nothing written");
        CHECK(crypt(&c, buf, buf, 10) == IC_OK, "%s up to the limit exactly", dec ? "decrypt" : "encrypt");
        CHECK(crypt(&c, buf, buf, 1) == IC_ERR_TOOLONG, "%s 1 byte past the limit", dec ? "decrypt" : "encrypt");
        CHECK(crypt(&c, buf, buf, 0) == IC_OK, "%s 0 bytes at the limit", dec ? "decrypt" : "encrypt");
    }
    /* AAD: le64(aadlen) must hold the total */
    CHECK(ic_chacha20_poly1305_init(&c, &kk, nonce) == IC_OK, "aad limit setup");
    c.aadlen = UINT64_MAX - 1;
    CHECK(ic_chacha20_poly1305_aad(&c, buf, 2) == IC_ERR_TOOLONG, "aad total over 2^64 - 1");
    CHECK(ic_chacha20_poly1305_aad(&c, buf, 1) == IC_OK, "aad total 2^64 - 1");
    ic_chacha20_poly1305_wipe(&c);
    ic_chacha20_poly1305_key_wipe(&kk);
    free(out);
}

/* ---- 4. call order ------------------------------------------------------- */

/* Every call on a context with no message (zeroed, ended or wiped) refuses
 * with IC_ERR_STATE and writes nothing. */
static void expect_no_message(cpctx *c, const char *when)
{
    uint8_t buf[64], tag[16];
    memset(buf, 0x44, sizeof buf);
    memset(tag, 0x44, sizeof tag);
    CHECK(ic_chacha20_poly1305_aad(c, buf, 1) == IC_ERR_STATE, "aad %s", when);
    CHECK(ic_chacha20_poly1305_encrypt(c, buf, buf, 64) == IC_ERR_STATE, "encrypt %s", when);
    CHECK(ic_chacha20_poly1305_decrypt(c, buf, buf, 64) == IC_ERR_STATE, "decrypt %s", when);
    CHECK(ic_chacha20_poly1305_final(c, tag) == IC_ERR_STATE, "final %s", when);
    CHECK(ic_chacha20_poly1305_final_verify(c, tag) == IC_ERR_STATE, "final_verify %s", when);
    CHECK(tl_all_byte(buf, sizeof buf, 0x44) && tl_all_byte(tag, sizeof tag, 0x44), "nothing written %s", when);
}

static void test_order(void)
{
    const cp_case *k = &cases[0];   /* empty message, empty aad */
    uint8_t key[32] = { 3 }, nonce[24] = { 4 }, tag[16], buf[64];
    cpctx c;
    cpkey kk, kc;

    memset(&c, 0, sizeof c);
    expect_no_message(&c, "on a zeroed context");
    CHECK(ic_chacha20_poly1305_key_init(&kk, key) == IC_OK, "key init");

    /* an empty message may end either way; ending wipes the context */
    CHECK(k->len == 0 && k->alen == 0, "case 0 is the empty message");
    CHECK(ic_chacha20_poly1305_key_init(&kc, k->key) == IC_OK && begin(&c, &kc, k->x, k->nonce) == IC_OK &&
              ic_chacha20_poly1305_final(&c, tag) == IC_OK,
          "empty message: final");
    CHECK_MEM(tag, k->tag, 16, "empty message tag");
    CHECK(tl_all_byte(&c, sizeof c, 0), "final wipes the context");
    expect_no_message(&c, "after final");
    CHECK(begin(&c, &kc, k->x, k->nonce) == IC_OK && ic_chacha20_poly1305_final_verify(&c, k->tag) == IC_OK,
          "empty message: final_verify right after init");
    CHECK(tl_all_byte(&c, sizeof c, 0), "final_verify wipes the context");
    expect_no_message(&c, "after final_verify");
    tag[0] ^= 1;
    CHECK(begin(&c, &kc, k->x, k->nonce) == IC_OK && ic_chacha20_poly1305_final_verify(&c, tag) == IC_ERR_AUTH,
          "empty message: wrong tag");
    CHECK(tl_all_byte(&c, sizeof c, 0), "a failed final_verify wipes the context");
    expect_no_message(&c, "after a failed final_verify");

    /* direction fixed by the first data call, also an empty one */
    CHECK(begin(&c, &kk, 0, nonce) == IC_OK && ic_chacha20_poly1305_encrypt(&c, NULL, NULL, 0) == IC_OK,
          "empty encrypt");
    CHECK(ic_chacha20_poly1305_decrypt(&c, buf, buf, 1) == IC_ERR_STATE, "decrypt after empty encrypt");
    CHECK(ic_chacha20_poly1305_aad(&c, buf, 1) == IC_ERR_STATE, "aad after empty encrypt");
    CHECK(ic_chacha20_poly1305_final_verify(&c, tag) == IC_ERR_STATE, "final_verify after empty encrypt");
    CHECK(begin(&c, &kk, 1, nonce) == IC_OK && ic_chacha20_poly1305_decrypt(&c, NULL, NULL, 0) == IC_OK,
          "empty decrypt");
    CHECK(ic_chacha20_poly1305_encrypt(&c, buf, buf, 1) == IC_ERR_STATE, "encrypt after empty decrypt");
    CHECK(ic_chacha20_poly1305_final(&c, tag) == IC_ERR_STATE, "final after empty decrypt");
    CHECK(ic_chacha20_poly1305_aad(&c, NULL, 0) == IC_ERR_STATE, "aad after empty decrypt");

    /* wipe abandons the message */
    ic_chacha20_poly1305_wipe(&c);
    CHECK(tl_all_byte(&c, sizeof c, 0), "wipe zeroes the context");
    expect_no_message(&c, "after wipe");
    ic_chacha20_poly1305_key_wipe(&kk);
    ic_chacha20_poly1305_key_wipe(&kc);
    CHECK(tl_all_byte(&kk, sizeof kk, 0), "key wipe zeroes the key object");
}

int main(void)
{
    rnd = tl_xmalloc(RND_SIZE);
    tl_rand_bytes(rnd, RND_SIZE);
    CHECK(tl_for_each_impl("chacha20", kat_impl, NULL) >= 1, "known answers ran");
    cases_make();
    CHECK(tl_for_each_impl("chacha20", diff_impl, "chacha20") >= 1, "differential (chacha20) ran");
    CHECK(tl_for_each_impl("poly1305", diff_impl, "poly1305") >= 1, "differential (poly1305) ran");
    test_bad_input();
    test_order();
    for (int i = 0; i < NCASES; i++)
        free(cases[i].ct);
    free(rnd);
    return tl_finish();
}
