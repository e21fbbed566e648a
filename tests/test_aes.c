/*
 * test_aes.c - AES modes through the public API, for every implementation
 * this CPU can run:
 *
 *  1. known answers typed from FIPS 197 App. C and SP 800-38A App. F, plus
 *     counter-carry and partial-block cases (tests/vectors/aes_kat.txt):
 *     one-shot, in place and block by block, both directions, and the IV /
 *     counter left for chaining;
 *  2. differential: each implementation against a model of SP 800-38A built
 *     from single-block calls of the portable implementation (the table
 *     entry with needs == 0, selected explicitly), on random keys of all
 *     sizes, lengths 0..4096 and 65536+13, misaligned buffers with guard
 *     bytes, in place, and chained calls split at random block boundaries;
 *     the raw ctr / ctr32 block operations (used by GCM) around their
 *     carries;
 *  3. bad input: each rule of the API contract, with its exact status.
 */
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "aes/aes_impl.h"

enum { ECB, CBC, CFB, OFB, CTR, NMODES };
static const char *const mode_name[NMODES] = {"ECB", "CBC", "CFB128", "OFB", "CTR"};
static const size_t key_sizes[] = {16, 24, 32};

static int mode_call(int m, int enc, const ic_aes_key *k, uint8_t iv[16], uint8_t *out,
                     const uint8_t *in, size_t len)
{
    switch (m) {
    case ECB: return enc ? ic_aes_ecb_encrypt(k, out, in, len) : ic_aes_ecb_decrypt(k, out, in, len);
    case CBC: return enc ? ic_aes_cbc_encrypt(k, out, in, len, iv) : ic_aes_cbc_decrypt(k, out, in, len, iv);
    case CFB: return enc ? ic_aes_cfb128_encrypt(k, out, in, len, iv) : ic_aes_cfb128_decrypt(k, out, in, len, iv);
    case OFB: return ic_aes_ofb_crypt(k, out, in, len, iv);
    default:  return ic_aes_ctr_crypt(k, out, in, len, iv);
    }
}

static int whole_blocks_only(int m) { return m == ECB || m == CBC; }

/* ctr += n as a 128-bit (or, inc32, 32-bit) big-endian number. */
static void ctr_add(uint8_t ctr[16], uint64_t n, int inc32)
{
    int stop = inc32 ? 12 : 0;
    for (int i = 15; i >= stop && n; i--) {
        n += ctr[i];
        ctr[i] = (uint8_t)n;
        n >>= 8;
    }
}

/* ---- 1. known answers ------------------------------------------------------ */

static int mode_from_name(const char *s)
{
    for (int m = 0; m < NMODES; m++)
        if (s && strcmp(s, mode_name[m]) == 0)
            return m;
    return -1;
}

/* The register each mode must leave after a whole-block message (SP 800-38A
 * section 6): the last ciphertext block for CBC and CFB, the last output
 * block O_n = C_n ^ P_n for OFB, the next counter for CTR.              */
static void expected_chain(int m, const uint8_t iv0[16], const uint8_t *pt, const uint8_t *ct, size_t len,
                           uint8_t want[16])
{
    memcpy(want, iv0, 16);
    if (len == 0)
        return;
    if (m == CBC || m == CFB)
        memcpy(want, ct + len - 16, 16);
    else if (m == OFB)
        for (int i = 0; i < 16; i++)
            want[i] = ct[len - 16 + i] ^ pt[len - 16 + i];
    else if (m == CTR)
        ctr_add(want, len / 16, 0);
}

static void kat_record(const char *impl, const tl_rec *rec, const char *path)
{
    int m = mode_from_name(tl_get(rec, "MODE"));
    size_t klen = 0, plen = 0, clen = 0, ivlen = 16, nlen = 0;
    uint8_t *key = tl_hex_alloc(tl_get(rec, "KEY") ? tl_get(rec, "KEY") : "", &klen);
    uint8_t *pt = tl_hex_alloc(tl_get(rec, "PLAINTEXT") ? tl_get(rec, "PLAINTEXT") : "", &plen);
    uint8_t *ct = tl_hex_alloc(tl_get(rec, "CIPHERTEXT") ? tl_get(rec, "CIPHERTEXT") : "", &clen);
    uint8_t *iv = m == ECB ? calloc(1, 16) : tl_hex_alloc(tl_get(rec, "IV") ? tl_get(rec, "IV") : "", &ivlen);
    uint8_t *next = tl_has(rec, "NEXTIV") ? tl_hex_alloc(tl_get(rec, "NEXTIV"), &nlen) : NULL;
    if (!CHECK(m >= 0 && key && pt && ct && iv && plen == clen && ivlen == 16 && plen > 0,
               "%s:%ld: malformed record", path, rec->line))
        goto out;

    ic_aes_key k;
    uint8_t *got = malloc(plen), v[16], chain[16];
    CHECK(ic_aes_key_init(&k, key, klen) == IC_OK, "%s:%ld: init", path, rec->line);
    for (int enc = 1; enc >= 0; enc--) {
        const uint8_t *src = enc ? pt : ct, *want = enc ? ct : pt;
        const char *dir = enc ? "encrypt" : "decrypt";

        /* one shot */
        memcpy(v, iv, 16);
        CHECK(mode_call(m, enc, &k, v, got, src, plen) == IC_OK, "%s:%ld: call", path, rec->line);
        CHECK_MEM(got, want, plen, "%s:%ld %s %s one-shot (%s)", path, rec->line, rec->section, dir, impl);
        memcpy(chain, v, 16);
        if (plen % 16 == 0) {
            uint8_t w[16];
            expected_chain(m, iv, pt, ct, plen, w);
            CHECK_MEM(v, w, 16, "%s:%ld %s %s: IV left for chaining (%s)", path, rec->line, rec->section, dir, impl);
        }
        if (next)
            CHECK_MEM(v, next, 16, "%s:%ld %s: NEXTIV (%s)", path, rec->line, rec->section, impl);

        /* in place */
        memcpy(got, src, plen);
        memcpy(v, iv, 16);
        CHECK(mode_call(m, enc, &k, v, got, got, plen) == IC_OK, "%s:%ld: call", path, rec->line);
        CHECK_MEM(got, want, plen, "%s:%ld %s %s in place (%s)", path, rec->line, rec->section, dir, impl);
        CHECK_MEM(v, chain, 16, "%s:%ld %s in place IV (%s)", path, rec->line, rec->section, impl);

        /* block by block, the last call partial */
        memset(got, 0, plen);
        memcpy(v, iv, 16);
        for (size_t off = 0; off < plen; off += 16) {
            size_t n = plen - off < 16 ? plen - off : 16;
            CHECK(mode_call(m, enc, &k, v, got + off, src + off, n) == IC_OK, "%s:%ld: call", path, rec->line);
        }
        CHECK_MEM(got, want, plen, "%s:%ld %s %s block by block (%s)", path, rec->line, rec->section, dir, impl);
        CHECK_MEM(v, chain, 16, "%s:%ld %s block by block IV (%s)", path, rec->line, rec->section, impl);
    }
    ic_aes_key_wipe(&k);
    free(got);
out:
    free(key), free(pt), free(ct), free(iv), free(next);
}

static void kat_file(const char *impl, void *arg)
{
    (void)arg;
    tl_rsp *r = tl_rsp_openf("%s/aes_kat.txt", tl_data_dir());
    tl_rec rec;
    long n = 0;
    unsigned long f0 = tl_failed;
    while (tl_rsp_next(r, &rec)) {
        kat_record(impl, &rec, tl_rsp_path(r));
        n++;
    }
    tl_rsp_close(r);
    /* 3 FIPS 197 + 15 SP 800-38A + 4 counter carry + 4 partial block */
    CHECK(n == 26, "aes_kat.txt: %ld records, expected 26", n);
    CHECK(ic_kat_aes() == 0, "ic_kat_aes() failed with %s", impl);
    CHECK(ic_selftest("aes") == IC_OK, "ic_selftest(\"aes\") with %s", impl);
    printf("  known answers with %s: %ld records, %lu failed\n", impl, n, tl_failed - f0);
}

/* ---- 2. differential ------------------------------------------------------ */

/* The portable implementation: the last entry of the table, needs == 0. */
static const ic_impl *portable_entry(void)
{
    const ic_impl *e = &ic_impls_aes[ic_nimpls_aes - 1];
    CHECK(e->needs == 0, "last AES table entry %s needs CPU features", e->name);
    return e;
}

/* Expand key with the portable implementation, whatever impl is selected. */
static void ref_init(ic_aes_key *rk, const uint8_t *key, size_t klen, const char *impl)
{
    const ic_impl *p = portable_entry();
    CHECK(ic_impl_select("aes", p->name) == IC_OK, "select %s", p->name);
    CHECK(ic_aes_key_init(rk, key, klen) == IC_OK, "reference init");
    CHECK(ic_aes_key_ops(rk) == p->ops, "reference key is not portable");
    CHECK(ic_impl_select("aes", impl) == IC_OK, "reselect %s", impl);
}

static void ref_block(const ic_aes_key *rk, int enc, uint8_t out[16], const uint8_t in[16])
{
    int st = enc ? ic_aes_ecb_encrypt(rk, out, in, 16) : ic_aes_ecb_decrypt(rk, out, in, 16);
    CHECK(st == IC_OK, "reference block: %s", ic_status_str(st));
}

/* SP 800-38A section 6 written out block by block over the reference block
 * cipher.  A final partial block in CFB/OFB/CTR uses the leading bytes of
 * one keystream block; the register is left as a byte-wise mode would leave
 * it (CFB: keystream with its first bytes replaced by ciphertext; OFB: the
 * keystream block; CTR: counter + 1).  ctr32 = SP 800-38D inc32.         */
static void model(int m, int enc, int ctr32, const ic_aes_key *rk, uint8_t iv[16], uint8_t *out,
                  const uint8_t *in, size_t len)
{
    uint8_t x[16], ks[16];
    for (size_t off = 0; off < len; off += 16) {
        size_t n = len - off < 16 ? len - off : 16;
        memcpy(x, in + off, n);
        switch (m) {
        case ECB:
            ref_block(rk, enc, out + off, x);
            break;
        case CBC:
            if (enc) {
                for (int i = 0; i < 16; i++)
                    x[i] ^= iv[i];
                ref_block(rk, 1, iv, x);
                memcpy(out + off, iv, 16);
            } else {
                ref_block(rk, 0, ks, x);
                for (int i = 0; i < 16; i++)
                    out[off + i] = ks[i] ^ iv[i];
                memcpy(iv, x, 16);
            }
            break;
        case CFB:
            ref_block(rk, 1, ks, iv);
            memcpy(iv, ks, 16);
            for (size_t i = 0; i < n; i++) {
                out[off + i] = x[i] ^ ks[i];
                iv[i] = enc ? out[off + i] : x[i];
            }
            break;
        case OFB:
            ref_block(rk, 1, iv, iv);
            for (size_t i = 0; i < n; i++)
                out[off + i] = x[i] ^ iv[i];
            break;
        default:
            ref_block(rk, 1, ks, iv);
            for (size_t i = 0; i < n; i++)
                out[off + i] = x[i] ^ ks[i];
            ctr_add(iv, 1, ctr32);
            break;
        }
    }
}

#define GUARD 32
#define MAXLEN (65536 + 13)
#define BUFCAP (MAXLEN + 16 + 2 * GUARD)
static uint8_t *src_buf, *dst_buf, *want_buf, *work_buf;

/* IV for mode m: random, and for CTR often just below a carry out of the
 * low 64 bits or a wrap of the whole 128 bits.                            */
static void random_iv(int m, uint8_t iv[16])
{
    tl_rand_bytes(iv, 16);
    if (m == CTR && tl_rand_below(2)) {
        uint64_t lo = ~(uint64_t)tl_rand_below(6);
        for (int i = 0; i < 8; i++)
            iv[8 + i] = (uint8_t)(lo >> (56 - 8 * i));
        if (tl_rand_below(2))
            memset(iv, 0xff, 8);
    }
}

static int guards_intact(const uint8_t *buf, size_t start, size_t len)
{
    for (size_t i = 0; i < BUFCAP; i++)
        if ((i < start || i >= start + len) && buf[i] != 0xA5)
            return 0;
    return 1;
}

/* One message: model vs one-shot (misaligned, guarded), in place, and a
 * chain of calls split at random block boundaries. */
static void diff_message(const char *impl, int m, int enc, const ic_aes_key *k, const ic_aes_key *rk,
                         size_t len)
{
    uint8_t iv0[16], v[16], vm[16];
    size_t oi = tl_rand_below(16), oo = tl_rand_below(16);
    uint8_t *in = src_buf + GUARD + oi;

    if (whole_blocks_only(m))
        len -= len % 16;
    random_iv(m, iv0);
    tl_rand_bytes(in, len);

    memcpy(vm, iv0, 16);
    model(m, enc, 0, rk, vm, want_buf, in, len);

    memset(dst_buf, 0xA5, BUFCAP);
    memcpy(v, iv0, 16);
    CHECK(mode_call(m, enc, k, v, dst_buf + GUARD + oo, in, len) == IC_OK, "call");
    CHECK_MEM(dst_buf + GUARD + oo, want_buf, len, "%s %s len %zu misaligned %zu/%zu (%s)", mode_name[m],
              enc ? "enc" : "dec", len, oi, oo, impl);
    CHECK_MEM(v, vm, 16, "%s len %zu: IV after (%s)", mode_name[m], len, impl);
    CHECK(guards_intact(dst_buf, GUARD + oo, len), "%s len %zu wrote outside [out, out+len) (%s)", mode_name[m],
          len, impl);

    uint8_t *w = work_buf + GUARD + oo;
    memcpy(w, in, len);
    memcpy(v, iv0, 16);
    CHECK(mode_call(m, enc, k, v, w, w, len) == IC_OK, "call");
    CHECK_MEM(w, want_buf, len, "%s %s len %zu in place (%s)", mode_name[m], enc ? "enc" : "dec", len, impl);
    CHECK_MEM(v, vm, 16, "%s len %zu in place: IV after (%s)", mode_name[m], len, impl);

    memset(dst_buf, 0xA5, BUFCAP);
    memcpy(v, iv0, 16);
    int calls = 0;
    for (size_t off = 0; off < len || calls == 0; calls++) {
        size_t rest = len - off, n;
        if (rest < 16)
            n = rest;
        else if (tl_rand_below(8) == 0)
            n = 0;                              /* an empty call in between */
        else
            n = 16 * (1 + tl_rand_below((uint32_t)(rest / 16 < 80 ? rest / 16 : 80)));
        CHECK(mode_call(m, enc, k, v, dst_buf + GUARD + oo + off, in + off, n) == IC_OK, "call");
        off += n;
    }
    CHECK_MEM(dst_buf + GUARD + oo, want_buf, len, "%s %s len %zu in %d chained calls (%s)", mode_name[m],
              enc ? "enc" : "dec", len, calls, impl);
    CHECK_MEM(v, vm, 16, "%s len %zu chained: IV after (%s)", mode_name[m], len, impl);
    CHECK(guards_intact(dst_buf, GUARD + oo, len), "%s len %zu chained wrote outside (%s)", mode_name[m], len,
          impl);
}

/* The raw counter operations GCM uses: ctr32 must wrap the last 32 bits
 * and leave the first 96 alone; ctr carries through all 128 bits.       */
static void diff_ctr_ops(const char *impl, const ic_aes_key *k, const ic_aes_key *rk)
{
    const ic_aes_ops *ops = ic_aes_key_ops(k);
    if (!CHECK(ops != NULL, "no ops"))
        return;
    for (int t = 0; t < 40; t++) {
        int inc32 = t & 1;
        size_t nb = tl_rand_below(41), oi = tl_rand_below(16), oo = tl_rand_below(16);
        uint8_t c0[16], c[16], cm[16];
        uint8_t *in = src_buf + GUARD + oi, *out = dst_buf + GUARD + oo;
        tl_rand_bytes(c0, 16);
        if (tl_rand_below(4)) {
            memset(c0 + 12, 0xff, 4);           /* wrap of the 32-bit counter  */
            c0[15] -= (uint8_t)tl_rand_below(6);
            if (!inc32)
                memset(c0 + 8, 0xff, 4);        /* and carry into the high half */
        }
        tl_rand_bytes(in, 16 * nb);
        memcpy(cm, c0, 16);
        model(CTR, 1, inc32, rk, cm, want_buf, in, 16 * nb);
        memcpy(c, c0, 16);
        memset(dst_buf, 0xA5, BUFCAP);
        (inc32 ? ops->ctr32 : ops->ctr)(k, c, out, in, nb);
        CHECK_MEM(out, want_buf, 16 * nb, "raw %s, %zu blocks from %02x%02x%02x%02x (%s)", inc32 ? "ctr32" : "ctr",
                  nb, c0[12], c0[13], c0[14], c0[15], impl);
        CHECK_MEM(c, cm, 16, "raw %s counter after %zu blocks (%s)", inc32 ? "ctr32" : "ctr", nb, impl);
        CHECK(guards_intact(dst_buf, GUARD + oo, 16 * nb), "raw ctr wrote outside (%s)", impl);
    }
}

static void differential(const char *impl, void *arg)
{
    (void)arg;
    unsigned long f0 = tl_failed, p0 = tl_passed;
    for (size_t ks = 0; ks < 3; ks++) {
        size_t klen = key_sizes[ks];
        for (int m = 0; m < NMODES; m++) {
            for (int enc = 1; enc >= 0; enc--) {
                if ((m == OFB || m == CTR) && !enc)
                    continue;
                /* lengths: every one up to 300, 60 random ones up to 4096,
                 * the 4 KiB edges, and one large odd length */
                for (size_t i = 0; i < 301 + 60 + 3 + 1; i++) {
                    size_t len = i <= 300 ? i
                               : i < 361 ? 301 + tl_rand_below(4096 - 301)
                               : i < 364 ? 4095 + (i - 361)
                               : MAXLEN;
                    uint8_t key[32];
                    ic_aes_key k, rk;
                    tl_rand_bytes(key, klen);
                    CHECK(ic_aes_key_init(&k, key, klen) == IC_OK, "init");
                    ref_init(&rk, key, klen, impl);
                    diff_message(impl, m, enc, &k, &rk, len);
                }
            }
        }
        uint8_t key[32];
        ic_aes_key k, rk;
        tl_rand_bytes(key, klen);
        CHECK(ic_aes_key_init(&k, key, klen) == IC_OK, "init");
        ref_init(&rk, key, klen, impl);
        diff_ctr_ops(impl, &k, &rk);
        /* The key keeps the implementation that expanded it. */
        const void *ops = ic_aes_key_ops(&k);
        CHECK(ic_impl_select("aes", portable_entry()->name) == IC_OK, "select the portable aes");
        CHECK(ic_aes_key_ops(&k) == ops, "key changed implementation after a reselect");
        CHECK(ic_impl_select("aes", impl) == IC_OK, "select aes/%s", impl);
    }
    printf("  differential %s vs %s: %lu checks, %lu failed\n", impl, portable_entry()->name,
           tl_passed - p0 + tl_failed - f0, tl_failed - f0);
}

/* ---- 3. bad input ----------------------------------------------------------- */

static void bad_input(void)
{
    unsigned long f0 = tl_failed, p0 = tl_passed;
    static const uint8_t key[32] = {1, 2, 3};
    uint8_t buf[64] = {0}, iv[16] = {0}, out[64], ivc[16];
    ic_aes_key k, zero, wiped;
    memset(&zero, 0, sizeof zero);

    /* ic_aes_key_init */
    CHECK(ic_aes_key_init(NULL, key, 16) == IC_ERR_NULL, "init NULL key struct");
    CHECK(ic_aes_key_init(&k, NULL, 16) == IC_ERR_NULL, "init NULL key bytes");
    CHECK(ic_aes_key_init(&k, NULL, 0) == IC_ERR_KEYLEN, "init NULL, 0");
    static const size_t badlens[] = {0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64};
    for (size_t i = 0; i < sizeof badlens / sizeof badlens[0]; i++)
        CHECK(ic_aes_key_init(&k, key, badlens[i]) == IC_ERR_KEYLEN, "keylen %zu", badlens[i]);
    /* a failed init leaves no usable key behind */
    CHECK(ic_aes_key_init(&k, key, 16) == IC_OK, "init");
    CHECK(ic_aes_key_init(&k, key, 15) == IC_ERR_KEYLEN, "init 15");
    CHECK(ic_aes_ecb_encrypt(&k, out, buf, 16) == IC_ERR_STATE, "key usable after failed init");

    CHECK(ic_aes_key_init(&wiped, key, 32) == IC_OK, "init");
    ic_aes_key_wipe(&wiped);
    ic_aes_key_wipe(NULL);                      /* allowed, does nothing */
    CHECK(ic_aes_key_init(&k, key, 24) == IC_OK, "init");

    for (int m = 0; m < NMODES; m++) {
        for (int enc = 1; enc >= 0; enc--) {
            const char *mn = mode_name[m];
            uint8_t *ivp = m == ECB ? NULL : iv;
            CHECK(mode_call(m, enc, NULL, iv, out, buf, 16) == IC_ERR_NULL, "%s NULL key", mn);
            CHECK(mode_call(m, enc, &zero, iv, out, buf, 16) == IC_ERR_STATE, "%s uninitialised key", mn);
            CHECK(mode_call(m, enc, &wiped, iv, out, buf, 16) == IC_ERR_STATE, "%s wiped key", mn);
            CHECK(mode_call(m, enc, &k, iv, out, NULL, 16) == IC_ERR_NULL, "%s NULL in", mn);
            CHECK(mode_call(m, enc, &k, iv, NULL, buf, 16) == IC_ERR_NULL, "%s NULL out", mn);
            CHECK(mode_call(m, enc, &k, iv, NULL, NULL, 0) == IC_OK, "%s NULL, 0", mn);
            if (ivp)
                CHECK(mode_call(m, enc, &k, NULL, out, buf, 16) == IC_ERR_NULL, "%s NULL iv", mn);

            /* lengths that are not whole blocks: refused, nothing written */
            static const size_t odd[] = {1, 15, 17, 31, 63};
            for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
                memset(out, 0x5A, sizeof out);
                memcpy(ivc, iv, 16);
                int rc = mode_call(m, enc, &k, ivc, out, buf, odd[i]);
                if (whole_blocks_only(m)) {
                    CHECK(rc == IC_ERR_LENGTH, "%s len %zu: %d", mn, odd[i], rc);
                    CHECK(out[0] == 0x5A && memcmp(ivc, iv, 16) == 0, "%s len %zu wrote on error", mn, odd[i]);
                } else {
                    CHECK(rc == IC_OK, "%s len %zu: %d", mn, odd[i], rc);
                }
            }

            /* overlap: partial refused (and nothing written), exact and
             * adjacent fine */
            memset(buf, 0x33, sizeof buf);
            CHECK(mode_call(m, enc, &k, iv, buf + 1, buf, 32) == IC_ERR_OVERLAP, "%s out = in + 1", mn);
            CHECK(mode_call(m, enc, &k, iv, buf, buf + 16, 32) == IC_ERR_OVERLAP, "%s out = in - 16", mn);
            CHECK(mode_call(m, enc, &k, iv, buf + 31, buf, 32) == IC_ERR_OVERLAP, "%s out = in + 31", mn);
            CHECK(buf[0] == 0x33 && buf[63] == 0x33, "%s wrote on overlap error", mn);
            CHECK(mode_call(m, enc, &k, iv, buf + 32, buf, 32) == IC_OK, "%s adjacent", mn);
            CHECK(mode_call(m, enc, &k, iv, buf, buf, 32) == IC_OK, "%s in place", mn);
        }
    }
    CHECK(ic_aes_key_ops(NULL) == NULL && ic_aes_key_ops(&zero) == NULL && ic_aes_key_ops(&wiped) == NULL,
          "ic_aes_key_ops on unusable keys");
    CHECK(ic_aes_key_ops(&k) != NULL, "ic_aes_key_ops on a key");
    ic_aes_key_wipe(&k);
    printf("  bad input: %lu checks, %lu failed\n", tl_passed - p0 + tl_failed - f0, tl_failed - f0);
}

int main(void)
{
    src_buf = malloc(BUFCAP);
    dst_buf = malloc(BUFCAP);
    want_buf = malloc(BUFCAP);
    work_buf = malloc(BUFCAP);
    if (!src_buf || !dst_buf || !want_buf || !work_buf)
        return 2;

    int ran = tl_for_each_impl("aes", kat_file, NULL);
    CHECK(ran >= 1, "no AES implementation ran");
    tl_for_each_impl("aes", differential, NULL);
    bad_input();

    free(src_buf), free(dst_buf), free(want_buf), free(work_buf);
    return tl_finish();
}
