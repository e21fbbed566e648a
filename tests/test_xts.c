/*
 * test_xts.c - XTS-AES (IEEE 1619, SP 800-38E) through the public API, for
 * every AES implementation this CPU can run:
 *
 *  1. the NIST CAVP XTSGenAES128/256 files from cryptography-vectors, both
 *     tweak forms (128-bit hex tweak "i", and DataUnitSeqNumber through the
 *     sector call), ENCRYPT and DECRYPT sections.  Records whose
 *     DataUnitLen is not a multiple of 8 bits cannot be expressed in a
 *     byte API and are counted and printed as not applicable;
 *  2. the IEEE 1619 Annex B vectors (tests/vectors/xts_ieee1619.txt),
 *     including the ciphertext-stealing ones, one-shot and in place;
 *  3. differential: each implementation against a model of IEEE 1619
 *     section 5 written here over single-block ECB calls of the portable
 *     implementation, and against the portable XTS itself: every length
 *     16..300, random lengths up to 8 KiB and the 2^20-block maximum's
 *     neighbourhood (small tweak range), random keys of both sizes and
 *     tweaks (some with the top bit set so the first doubling reduces),
 *     misaligned buffers with guard bytes, in place, a buffer flush
 *     against a PROT_NONE page; the backend's raw xts op in chained calls;
 *  4. bad input: each rule of the API contract with its exact status.
 */
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "aes/aes_impl.h"

#define MAXLEN 8192
/* INCORE_TEST_EMULATED=1 (make test-x86emu, ~100x slower): every length
 * 16..300 and the NIST/IEEE files as natively, but 4 random lengths per
 * key size and direction instead of 40, and the largest-unit check on
 * 64 KiB instead of 2^20 blocks (printed). */
static int emulated;
#define GUARD 64
#define BUFCAP (MAXLEN + 2 * GUARD + 32)
static uint8_t src_buf[BUFCAP], dst_buf[BUFCAP], want_buf[BUFCAP], work_buf[BUFCAP];

/* ---- the model (IEEE 1619 section 5) ---------------------------------------- */

/* T * x: little-endian 128-bit number, x^128 = x^7 + x^2 + x + 1. */
static void model_mulx(uint8_t t[16])
{
    int carry = t[15] >> 7;
    for (int i = 15; i > 0; i--)
        t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
    t[0] = (uint8_t)(t[0] << 1);
    if (carry)
        t[0] ^= 0x87;
}

/* One block of XTS-AES-blockEnc / -blockDec (5.3.1, 5.4.1) with T given. */
static void model_block(const ic_aes_key *k1, int enc, const uint8_t t[16], uint8_t out[16], const uint8_t in[16])
{
    uint8_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = in[i] ^ t[i];
    if (enc)
        CHECK(ic_aes_ecb_encrypt(k1, x, x, 16) == IC_OK, "model ecb");
    else
        CHECK(ic_aes_ecb_decrypt(k1, x, x, 16) == IC_OK, "model ecb");
    for (int i = 0; i < 16; i++)
        out[i] = x[i] ^ t[i];
}

/* XTS-AES-Enc / -Dec of a whole data unit (5.3.2, 5.4.2). */
static void model(const ic_aes_key *k1, const ic_aes_key *k2, int enc, const uint8_t tweak[16], uint8_t *out,
                  const uint8_t *in, size_t len)
{
    uint8_t t[16], tm[16], cc[16], pp[16];
    size_t m = len / 16, b = len % 16;
    CHECK(ic_aes_ecb_encrypt(k2, t, tweak, 16) == IC_OK, "model tweak");
    size_t last = b ? m - 1 : m;
    for (size_t j = 0; j < last; j++) {
        model_block(k1, enc, t, out + 16 * j, in + 16 * j);
        model_mulx(t);
    }
    if (b == 0)
        return;
    /* t is T_{m-1}; tm is T_m */
    memcpy(tm, t, 16);
    model_mulx(tm);
    model_block(k1, enc, enc ? t : tm, cc, in + 16 * last);
    memcpy(pp, in + 16 * m, b);
    memcpy(pp + b, cc + b, 16 - b);
    memcpy(out + 16 * m, cc, b);
    model_block(k1, enc, enc ? tm : t, out + 16 * last, pp);
}

/* ---- helpers ------------------------------------------------------------------ */

static const ic_impl *portable_entry(void)
{
    const ic_impl *e = &ic_impls_aes[ic_nimpls_aes - 1];
    CHECK(e->needs == 0, "last AES table entry %s needs CPU features", e->name);
    return e;
}

static int xts_call(int enc, const ic_aes_xts_key *k, const uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                    size_t len)
{
    return enc ? ic_aes_xts_encrypt(k, out, in, len, tweak) : ic_aes_xts_decrypt(k, out, in, len, tweak);
}

static uint8_t *field(const tl_rec *rec, const char *name, size_t *len, const char *path)
{
    const char *v = tl_get(rec, name);
    uint8_t *p = v ? tl_hex_alloc(v, len) : NULL;
    CHECK(p != NULL, "%s:%ld: field %s missing or not hex", path, rec->line, name);
    return p;
}

/* ---- 1. NIST CAVP ------------------------------------------------------------ */

static long nist_na;

static long run_nist_file(const char *path, int seqno, const char *impl)
{
    tl_rsp *r = tl_rsp_open(path);
    tl_rec rec;
    long n = 0;
    while (tl_rsp_next(r, &rec)) {
        int enc = strstr(rec.section, "DECRYPT") == NULL;
        const char *dul = tl_get(&rec, "DataUnitLen");
        long bits = dul ? strtol(dul, NULL, 10) : -1;
        if (!CHECK(bits > 0, "%s:%ld: DataUnitLen", path, rec.line))
            continue;
        if (bits % 8 != 0) {
            nist_na++;
            continue;
        }
        size_t klen = 0, plen = 0, clen = 0, tlen = 16;
        uint8_t *key = field(&rec, "Key", &klen, path);
        uint8_t *pt = field(&rec, "PT", &plen, path);
        uint8_t *ct = field(&rec, "CT", &clen, path);
        uint8_t tweak[16] = {0};
        uint64_t sector = 0;
        if (seqno) {
            const char *s = tl_get(&rec, "DataUnitSeqNumber");
            CHECK(s != NULL, "%s:%ld: DataUnitSeqNumber", path, rec.line);
            sector = s ? strtoull(s, NULL, 10) : 0;
            for (int i = 0; i < 8; i++)
                tweak[i] = (uint8_t)(sector >> (8 * i));
        } else {
            uint8_t *t = field(&rec, "i", &tlen, path);
            if (t && tlen == 16)
                memcpy(tweak, t, 16);
            free(t);
        }
        if (key && pt && ct &&
            CHECK(plen == clen && plen == (size_t)bits / 8 && tlen == 16, "%s:%ld: lengths", path, rec.line)) {
            ic_aes_xts_key k;
            uint8_t *got = tl_xmalloc(plen);
            CHECK(ic_aes_xts_key_init(&k, key, klen) == IC_OK, "%s:%ld: init", path, rec.line);
            const uint8_t *src = enc ? pt : ct, *want = enc ? ct : pt;
            CHECK(xts_call(enc, &k, tweak, got, src, plen) == IC_OK, "%s:%ld: call", path, rec.line);
            CHECK_MEM(got, want, plen, "%s:%ld COUNT %s %s (%s)", path, rec.line, tl_get(&rec, "COUNT"),
                      enc ? "encrypt" : "decrypt", impl);
            if (seqno) {
                memset(got, 0, plen);
                CHECK((enc ? ic_aes_xts_encrypt_sector : ic_aes_xts_decrypt_sector)(&k, got, src, plen, sector) ==
                          IC_OK, "%s:%ld: sector call", path, rec.line);
                CHECK_MEM(got, want, plen, "%s:%ld COUNT %s sector call (%s)", path, rec.line,
                          tl_get(&rec, "COUNT"), impl);
            }
            /* the other direction, in place */
            memcpy(got, want, plen);
            CHECK(xts_call(!enc, &k, tweak, got, got, plen) == IC_OK, "%s:%ld: call", path, rec.line);
            CHECK_MEM(got, src, plen, "%s:%ld COUNT %s inverse in place (%s)", path, rec.line,
                      tl_get(&rec, "COUNT"), impl);
            ic_aes_xts_key_wipe(&k);
            free(got);
            n++;
        }
        free(key), free(pt), free(ct);
    }
    tl_rsp_close(r);
    return n;
}

static void nist(const char *impl)
{
    static const char *const forms[] = {"tweak-128hexstr", "tweak-dataunitseqno"};
    for (int f = 0; f < 2; f++) {
        for (int bits = 128; bits <= 256; bits += 128) {
            char path[1024];
            unsigned long f0 = tl_failed;
            nist_na = 0;
            snprintf(path, sizeof path, "%s/ciphers/AES/XTS/%s/XTSGenAES%d.rsp", tl_cavp_dir(), forms[f], bits);
            long n = run_nist_file(path, f, impl);
            /* 1000 records per file; DataUnitLen 130 (128-bit files) and
             * 140, 250 (256-bit files) are not whole bytes: 200 and 400. */
            long want_na = bits == 128 ? 200 : 400;
            CHECK(n == 1000 - want_na && nist_na == want_na, "%s: %ld records run, %ld not applicable (want %ld + %ld)",
                  path, n, nist_na, 1000 - want_na, want_na);
            printf("  NIST %-19s XTS-AES-%d: %4ld records, %lu failed, %ld not applicable (bit lengths) (%s)\n",
                   forms[f], bits, n, tl_failed - f0, nist_na, impl);
        }
    }
}

/* ---- 2. IEEE 1619 Annex B ------------------------------------------------------- */

static void ieee(const char *impl)
{
    tl_rsp *r = tl_rsp_openf("%s/xts_ieee1619.txt", tl_data_dir());
    const char *path = tl_rsp_path(r);
    tl_rec rec;
    long n = 0, na = 0;
    unsigned long f0 = tl_failed;
    while (tl_rsp_next(r, &rec)) {
        size_t l1 = 0, l2 = 0, tl = 0, pl = 0, cl = 0;
        uint8_t *k1 = field(&rec, "KEY1", &l1, path), *k2 = field(&rec, "KEY2", &l2, path);
        uint8_t *tw = field(&rec, "TWEAK", &tl, path);
        uint8_t *pt = field(&rec, "PLAINTEXT", &pl, path), *ct = field(&rec, "CIPHERTEXT", &cl, path);
        if (k1 && k2 && tw && pt && ct && CHECK(l1 == l2 && tl == 16 && pl == cl, "%s:%ld: lengths", path, rec.line)) {
            uint8_t key[64], *got = tl_xmalloc(pl);
            memcpy(key, k1, l1);
            memcpy(key + l1, k2, l2);
            ic_aes_xts_key k;
            int st = ic_aes_xts_key_init(&k, key, 2 * l1);
            if (tl_has(&rec, "EQUAL_HALVES")) {
                CHECK(st == IC_ERR_WEAKKEY, "%s:%ld: equal halves give %d", path, rec.line, st);
                na++;
            } else if (CHECK(st == IC_OK, "%s:%ld: init", path, rec.line)) {
                for (int enc = 1; enc >= 0; enc--) {
                    const uint8_t *src = enc ? pt : ct, *want = enc ? ct : pt;
                    memset(got, 0, pl);
                    CHECK(xts_call(enc, &k, tw, got, src, pl) == IC_OK, "call");
                    CHECK_MEM(got, want, pl, "IEEE 1619 vector %s %s (%s)", tl_get(&rec, "VECTOR"),
                              enc ? "encrypt" : "decrypt", impl);
                    memcpy(got, src, pl);
                    CHECK(xts_call(enc, &k, tw, got, got, pl) == IC_OK, "call");
                    CHECK_MEM(got, want, pl, "IEEE 1619 vector %s %s in place (%s)", tl_get(&rec, "VECTOR"),
                              enc ? "encrypt" : "decrypt", impl);
                }
                n++;
            }
            ic_aes_xts_key_wipe(&k);
            free(got);
        }
        free(k1), free(k2), free(tw), free(pt), free(ct);
    }
    tl_rsp_close(r);
    CHECK(n == 7 && na == 1, "%s: %ld vectors run, %ld not applicable (want 7 + 1)", path, n, na);
    printf("  IEEE 1619 Annex B: %ld vectors, %lu failed, %ld not applicable (equal key halves) (%s)\n", n,
           tl_failed - f0, na, impl);
}

/* ---- 3. differential ----------------------------------------------------------- */

/* Reference keys: the two AES halves expanded by the portable entry, and
 * an XTS key expanded by it. */
typedef struct {
    ic_aes_key k1, k2;
    ic_aes_xts_key xk;
} ref_keys;

static void ref_init(ref_keys *rk, const uint8_t *key, size_t klen, const char *impl)
{
    const ic_impl *p = portable_entry();
    CHECK(ic_impl_select("aes", p->name) == IC_OK, "select %s", p->name);
    CHECK(ic_aes_key_init(&rk->k1, key, klen / 2) == IC_OK, "reference init");
    CHECK(ic_aes_key_init(&rk->k2, key + klen / 2, klen / 2) == IC_OK, "reference init");
    CHECK(ic_aes_xts_key_init(&rk->xk, key, klen) == IC_OK, "reference xts init");
    CHECK(ic_impl_select("aes", impl) == IC_OK, "reselect %s", impl);
}

static int guards_intact(const uint8_t *buf, size_t start, size_t len)
{
    for (size_t i = 0; i < BUFCAP; i++)
        if ((i < start || i >= start + len) && buf[i] != 0xA5)
            return 0;
    return 1;
}

static void random_tweak(uint8_t tw[16])
{
    tl_rand_bytes(tw, 16);
    if (tl_rand_below(4) == 0)
        memset(tw + 5, 0, 11);      /* a small sector number */
}

static void diff_message(const char *impl, int enc, const ic_aes_xts_key *k, const ref_keys *rk, size_t len)
{
    uint8_t tw[16];
    size_t oi = tl_rand_below(32), oo = tl_rand_below(32);
    uint8_t *in = src_buf + GUARD + oi, *out = dst_buf + GUARD + oo;
    random_tweak(tw);
    tl_rand_bytes(in, len);
    model(&rk->k1, &rk->k2, enc, tw, want_buf, in, len);

    memset(dst_buf, 0xA5, BUFCAP);
    CHECK(xts_call(enc, k, tw, out, in, len) == IC_OK, "call");
    CHECK_MEM(out, want_buf, len, "%s len %zu misaligned %zu/%zu vs model (%s)", enc ? "enc" : "dec", len, oi, oo,
              impl);
    CHECK(guards_intact(dst_buf, GUARD + oo, len), "len %zu wrote outside [out, out+len) (%s)", len, impl);

    memset(dst_buf, 0xA5, BUFCAP);
    CHECK(xts_call(enc, &rk->xk, tw, out, in, len) == IC_OK, "call");
    CHECK_MEM(out, want_buf, len, "%s len %zu portable XTS vs model", enc ? "enc" : "dec", len);

    uint8_t *w = work_buf + GUARD + oo;
    memcpy(w, in, len);
    CHECK(xts_call(enc, k, tw, w, w, len) == IC_OK, "call");
    CHECK_MEM(w, want_buf, len, "%s len %zu in place (%s)", enc ? "enc" : "dec", len, impl);
    /* and back */
    CHECK(xts_call(!enc, k, tw, w, w, len) == IC_OK, "call");
    CHECK_MEM(w, in, len, "%s len %zu round trip (%s)", enc ? "enc" : "dec", len, impl);
}

/* The raw op in chained calls must equal one call: the tweak is left as
 * T_n; the first call gets the tweak key or the encrypted tweak.  Run on every backend, fused or not (generic when ops->xts is NULL,
 * through the public API only). */
static void diff_raw(const char *impl, const ic_aes_xts_key *k, const ref_keys *rk)
{
    const ic_aes_ops *ops = ic_aes_key_ops(&k->k1);
    if (!CHECK(ops != NULL, "no ops") || ops->xts == NULL)
        return;
    for (int t = 0; t < 40; t++) {
        int dec = t & 1;
        size_t nb = 1 + tl_rand_below(120), oi = tl_rand_below(16), oo = tl_rand_below(16);
        uint8_t tw[16], t0[16], tc[16];
        uint8_t *in = src_buf + GUARD + oi, *out = dst_buf + GUARD + oo;
        random_tweak(tw);
        tl_rand_bytes(in, 16 * nb);
        model(&rk->k1, &rk->k2, !dec, tw, want_buf, in, 16 * nb);
        CHECK(ic_aes_ecb_encrypt(&rk->k2, t0, tw, 16) == IC_OK, "T");
        /* the first call encrypts the tweak itself (k2 given), or not */
        int raw_tweak = t & 2;
        memcpy(tc, raw_tweak ? tw : t0, 16);
        memset(dst_buf, 0xA5, BUFCAP);
        for (size_t off = 0; off < nb;) {
            size_t n = 1 + tl_rand_below((uint32_t)(nb - off < 40 ? nb - off : 40));
            ops->xts(&k->k1, off == 0 && raw_tweak ? &k->k2 : NULL, tc, out + 16 * off, in + 16 * off, n, dec);
            off += n;
        }
        CHECK_MEM(out, want_buf, 16 * nb, "raw xts %s, %zu blocks chained (%s)", dec ? "dec" : "enc", nb, impl);
        for (size_t j = 0; j < nb; j++)
            model_mulx(t0);
        CHECK_MEM(tc, t0, 16, "raw xts: tweak left as T_n after %zu blocks (%s)", nb, impl);
        CHECK(guards_intact(dst_buf, GUARD + oo, 16 * nb), "raw xts wrote outside (%s)", impl);
    }
    /* The tweak handed back from every position: a first call of n blocks
     * (1..65 covers each register and lane of two 32-block batches and a
     * block more; 64..72 and 130 the `ni` path that makes tweaks in
     * general registers), then 3 blocks that start from it. */
    for (size_t n = 1; n <= 72 || n == 130; n = n == 72 ? 130 : n + 1) {
        int dec = (int)(n & 1);
        uint8_t tw[16], tc[16];
        uint8_t *in = src_buf + GUARD, *out = dst_buf + GUARD;
        random_tweak(tw);
        tl_rand_bytes(in, 16 * (n + 3));
        model(&rk->k1, &rk->k2, !dec, tw, want_buf, in, 16 * (n + 3));
        memcpy(tc, tw, 16);
        ops->xts(&k->k1, &k->k2, tc, out, in, n, dec);
        ops->xts(&k->k1, NULL, tc, out + 16 * n, in + 16 * n, 3, dec);
        CHECK_MEM(out, want_buf, 16 * (n + 3), "raw xts %s, %zu + 3 blocks (%s)", dec ? "dec" : "enc", n, impl);
    }
}

/* A data unit ending flush against a PROT_NONE page: no read or write past
 * in + len or out + len, in either direction, at stealing lengths too. */
static void guarded(const char *impl, const ic_aes_xts_key *k)
{
    static const size_t lens[] = {16, 17, 31, 32, 33, 255, 256, 257, 511, 512, 4096, 4111};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t len = lens[i];
        uint8_t tw[16], *a = tl_guarded_alloc(len, 0x11), *b = tl_guarded_alloc(len, 0);
        random_tweak(tw);
        CHECK(ic_aes_xts_encrypt(k, b, a, len, tw) == IC_OK, "guarded enc");
        CHECK(ic_aes_xts_decrypt(k, b, b, len, tw) == IC_OK, "guarded dec");
        CHECK(tl_all_byte(b, len, 0x11), "guarded round trip len %zu (%s)", len, impl);
        tl_guarded_free(a, len);
        tl_guarded_free(b, len);
    }
}

/* A random key of klen bytes expanded by impl (k) and by the portable
 * implementation (rk). */
static void fresh_keys(size_t klen, const char *impl, ic_aes_xts_key *k, ref_keys *rk)
{
    uint8_t key[64];
    tl_rand_bytes(key, klen);
    CHECK(ic_aes_xts_key_init(k, key, klen) == IC_OK, "init");
    ref_init(rk, key, klen, impl);
}

/* The sector-number calls against the tweak-buffer calls with the number
 * as 16 little-endian bytes (IEEE 1619 5.1), for numbers that fill every
 * byte of the first eight (the CAVP files' DataUnitSeqNumber stay below
 * 256), both directions, a whole and a stolen length. */
static void sector_numbers(const char *impl, const ic_aes_xts_key *k)
{
    static const uint64_t nums[] = {0, 255, 256, (UINT64_C(1) << 32) + 5, UINT64_C(0x0123456789abcdef),
                                    UINT64_C(0x8000000000000000), UINT64_MAX};
    uint8_t in[100], a[100], b[100], tw[16];
    tl_rand_bytes(in, sizeof in);
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        memset(tw, 0, sizeof tw);
        for (int j = 0; j < 8; j++)
            tw[j] = (uint8_t)(nums[i] >> (8 * j));
        for (size_t len = 96; len <= 100; len += 4) {
            CHECK(ic_aes_xts_encrypt_sector(k, a, in, len, nums[i]) == IC_OK &&
                      ic_aes_xts_encrypt(k, b, in, len, tw) == IC_OK && memcmp(a, b, len) == 0,
                  "%s: sector %llu, %zu bytes: encrypt_sector differs from the tweak call", impl,
                  (unsigned long long)nums[i], len);
            CHECK(ic_aes_xts_decrypt_sector(k, b, a, len, nums[i]) == IC_OK && memcmp(b, in, len) == 0,
                  "%s: sector %llu, %zu bytes: decrypt_sector does not invert", impl,
                  (unsigned long long)nums[i], len);
        }
    }
}

static void differential(const char *impl, void *arg)
{
    (void)arg;
    unsigned long f0 = tl_failed, p0 = tl_passed;
    for (size_t klen = 32; klen <= 64; klen += 32) {
        for (int enc = 1; enc >= 0; enc--) {
            /* every length 16..300, 40 random ones up to 8 KiB, the 4 KiB edges */
            size_t nrand = emulated ? 4 : 40;
            for (size_t i = 16; i < 301 + nrand + 3; i++) {
                size_t len = i <= 300 ? i : i < 301 + nrand ? 301 + tl_rand_below(MAXLEN - 301)
                                                            : 4095 + (i - 301 - nrand);
                ic_aes_xts_key k;
                ref_keys rk;
                fresh_keys(klen, impl, &k, &rk);
                diff_message(impl, enc, &k, &rk, len);
                ic_aes_xts_key_wipe(&k);
            }
        }
        ic_aes_xts_key k;
        ref_keys rk;
        fresh_keys(klen, impl, &k, &rk);
        diff_raw(impl, &k, &rk);
        guarded(impl, &k);
        sector_numbers(impl, &k);
        /* the key keeps its implementation after a reselect */
        const void *ops = ic_aes_key_ops(&k.k1);
        CHECK(ic_impl_select("aes", portable_entry()->name) == IC_OK, "select the portable aes");
        CHECK(ic_aes_key_ops(&k.k1) == ops, "xts key changed implementation after a reselect");
        uint8_t tw[16] = {1}, in[48] = {2}, o1[48], o2[48];
        CHECK(ic_aes_xts_encrypt(&k, o1, in, 40, tw) == IC_OK, "call after reselect");
        CHECK(ic_impl_select("aes", impl) == IC_OK, "select aes/%s", impl);
        CHECK(ic_aes_xts_encrypt(&k, o2, in, 40, tw) == IC_OK && memcmp(o1, o2, 40) == 0, "same after reselect");
    }
    /* the largest data unit (2^20 blocks) once, against the portable XTS
     * (64 KiB under an emulator: the portable 16 MiB alone takes minutes) */
    {
        size_t len = emulated ? 65536 : IC_AES_XTS_MAX_LEN;
        uint8_t key[32], tw[16];
        uint8_t *a = tl_xmalloc(len), *b = tl_xmalloc(len), *c = tl_xmalloc(len);
        ic_aes_xts_key k;
        ref_keys rk;
        tl_rand_bytes(key, 32);
        tl_rand_bytes(tw, 16);
        tl_rand_bytes(a, 4096);
        for (size_t off = 4096; off < len; off += 4096)
            memcpy(a + off, a, 4096);
        CHECK(ic_aes_xts_key_init(&k, key, 32) == IC_OK, "init");
        ref_init(&rk, key, 32, impl);
        CHECK(ic_aes_xts_encrypt(&k, b, a, len, tw) == IC_OK, "max len");
        CHECK(ic_aes_xts_encrypt(&rk.xk, c, a, len, tw) == IC_OK, "max len ref");
        CHECK(memcmp(b, c, len) == 0, "2^20 blocks differ from the portable XTS (%s)", impl);
        CHECK(ic_aes_xts_decrypt(&k, b, b, len, tw) == IC_OK && memcmp(a, b, len) == 0, "max len back (%s)", impl);
        CHECK(ic_aes_xts_encrypt(&k, b, a, IC_AES_XTS_MAX_LEN + 1, tw) == IC_ERR_TOOLONG,
              "2^20 blocks + 1 byte refused");
        free(a), free(b), free(c);
    }
    printf("  differential %s vs model and %s: %lu checks, %lu failed\n", impl, portable_entry()->name,
           tl_passed - p0 + tl_failed - f0, tl_failed - f0);
}

static void per_impl(const char *impl, void *arg)
{
    (void)arg;
    printf("XTS-AES with implementation %s:\n", impl);
    nist(impl);
    ieee(impl);
}

/* ---- 4. bad input ---------------------------------------------------------------- */

static void bad_input(void)
{
    unsigned long f0 = tl_failed, p0 = tl_passed;
    uint8_t key[64], tw[16] = {0}, buf[64] = {0}, out[64];
    ic_aes_xts_key k, zero, wiped;
    for (int i = 0; i < 64; i++)
        key[i] = (uint8_t)i;
    memset(&zero, 0, sizeof zero);

    /* init */
    CHECK(ic_aes_xts_key_init(NULL, key, 32) == IC_ERR_NULL, "init NULL key struct");
    CHECK(ic_aes_xts_key_init(&k, NULL, 32) == IC_ERR_NULL, "init NULL key");
    CHECK(ic_aes_xts_key_init(&k, NULL, 0) == IC_ERR_KEYLEN, "init NULL, 0");
    static const size_t bad_lens[] = {0, 16, 24, 31, 33, 48, 63, 65, 128};
    for (size_t i = 0; i < sizeof bad_lens / sizeof bad_lens[0]; i++)
        CHECK(ic_aes_xts_key_init(&k, key, bad_lens[i]) == IC_ERR_KEYLEN, "init keylen %zu", bad_lens[i]);
    uint8_t eq[64];
    memcpy(eq, key, 32);
    memcpy(eq + 32, key, 32);
    CHECK(ic_aes_xts_key_init(&k, eq, 64) == IC_ERR_WEAKKEY, "equal halves, 64");
    memcpy(eq + 16, key, 16);
    CHECK(ic_aes_xts_key_init(&k, eq, 32) == IC_ERR_WEAKKEY, "equal halves, 32");
    CHECK(ic_aes_xts_encrypt(&k, out, buf, 32, tw) == IC_ERR_STATE, "failed init leaves no usable key");
    eq[31] ^= 1;
    CHECK(ic_aes_xts_key_init(&k, eq, 32) == IC_OK, "halves differing in one bit");
    CHECK(ic_aes_xts_key_init(&k, eq, 33) == IC_ERR_KEYLEN, "re-init with a bad length");
    CHECK(ic_aes_xts_encrypt(&k, out, buf, 32, tw) == IC_ERR_STATE, "failed re-init wipes the old key");
    CHECK(strcmp(ic_status_str(IC_ERR_WEAKKEY), ic_status_str(IC_ERR_KEYLEN)) != 0, "WEAKKEY has its own text");

    /* calls: key, tweak, pointers, length, overlap */
    CHECK(ic_aes_xts_key_init(&k, key, 64) == IC_OK, "init");
    wiped = k;
    ic_aes_xts_key_wipe(&wiped);
    for (int enc = 1; enc >= 0; enc--) {
        const char *d = enc ? "enc" : "dec";
        CHECK(xts_call(enc, NULL, tw, out, buf, 32) == IC_ERR_NULL, "%s NULL key", d);
        CHECK(xts_call(enc, &zero, tw, out, buf, 32) == IC_ERR_STATE, "%s zero key", d);
        CHECK(xts_call(enc, &wiped, tw, out, buf, 32) == IC_ERR_STATE, "%s wiped key", d);
        CHECK(xts_call(enc, &zero, NULL, NULL, NULL, 3) == IC_ERR_STATE, "%s key checked first", d);
        CHECK(xts_call(enc, &k, NULL, out, buf, 32) == IC_ERR_NULL, "%s NULL tweak", d);
        CHECK(xts_call(enc, &k, tw, NULL, buf, 32) == IC_ERR_NULL, "%s NULL out", d);
        CHECK(xts_call(enc, &k, tw, out, NULL, 32) == IC_ERR_NULL, "%s NULL in", d);
        CHECK(xts_call(enc, &k, tw, NULL, NULL, 0) == IC_ERR_LENGTH, "%s NULL, 0", d);
        CHECK(xts_call(enc, &k, tw, NULL, NULL, 5) == IC_ERR_NULL, "%s NULL before length", d);
        for (size_t len = 0; len < 16; len++) {
            memset(out, 0x5a, sizeof out);
            CHECK(xts_call(enc, &k, tw, out, buf, len) == IC_ERR_LENGTH, "%s len %zu", d, len);
            CHECK(tl_all_byte(out, sizeof out, 0x5a), "%s len %zu wrote", d, len);
        }
        CHECK(xts_call(enc, &k, tw, out, buf, IC_AES_XTS_MAX_LEN + 1) == IC_ERR_TOOLONG, "%s too long", d);
        CHECK(xts_call(enc, &k, tw, buf + 1, buf, 40) == IC_ERR_OVERLAP, "%s overlap", d);
        CHECK(xts_call(enc, &k, tw, buf, buf + 15, 40) == IC_ERR_OVERLAP, "%s overlap", d);
        CHECK(xts_call(enc, &k, tw, buf, buf, 40) == IC_OK, "%s in place", d);
        CHECK(xts_call(enc, &k, tw, buf + 40, buf, 20) == IC_OK, "%s adjacent", d);
        CHECK((enc ? ic_aes_xts_encrypt_sector : ic_aes_xts_decrypt_sector)(NULL, out, buf, 32, 1) == IC_ERR_NULL,
              "%s sector NULL key", d);
        CHECK((enc ? ic_aes_xts_encrypt_sector : ic_aes_xts_decrypt_sector)(&k, out, buf, 15, 1) == IC_ERR_LENGTH,
              "%s sector short", d);
    }
    /* corrupted key struct: each field that is checked */
    struct { const char *what; size_t off; } fields[] = {
        {"check", offsetof(ic_aes_xts_key, check)}, {"impl", offsetof(ic_aes_xts_key, impl)},
        {"k1.check", offsetof(ic_aes_xts_key, k1) + offsetof(ic_aes_key, check)},
        {"k2.check", offsetof(ic_aes_xts_key, k2) + offsetof(ic_aes_key, check)},
        {"k1.impl", offsetof(ic_aes_xts_key, k1) + offsetof(ic_aes_key, impl)},
        {"k2.impl", offsetof(ic_aes_xts_key, k2) + offsetof(ic_aes_key, impl)},
        {"k1.rounds", offsetof(ic_aes_xts_key, k1) + offsetof(ic_aes_key, rounds)},
        {"k2.rounds", offsetof(ic_aes_xts_key, k2) + offsetof(ic_aes_key, rounds)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        static const uint32_t vals[] = {1, 2, 0x100, 0xffffffffu};
        for (size_t v = 0; v < 4; v++) {
            ic_aes_xts_key c = k;
            uint32_t x;
            memcpy(&x, (uint8_t *)&c + fields[i].off, 4);
            x ^= vals[v];
            memcpy((uint8_t *)&c + fields[i].off, &x, 4);
            memset(out, 0x5a, sizeof out);
            CHECK(ic_aes_xts_encrypt(&c, out, buf, 32, tw) == IC_ERR_STATE, "corrupt %s ^ %x", fields[i].what,
                  vals[v]);
            CHECK(tl_all_byte(out, sizeof out, 0x5a), "corrupt %s: out touched", fields[i].what);
        }
    }
    ic_aes_xts_key_wipe(&k);
    CHECK(tl_all_byte(&k, sizeof k, 0), "wipe zeroes the key");
    ic_aes_xts_key_wipe(NULL);
    printf("bad input: %lu checks, %lu failed\n", tl_passed - p0 + tl_failed - f0, tl_failed - f0);
}

int main(void)
{
    emulated = getenv("INCORE_TEST_EMULATED") != NULL;
    if (emulated)
        printf("INCORE_TEST_EMULATED: 4 random lengths per key size and direction, largest unit 64 KiB\n");
    int ran = tl_for_each_impl("aes", per_impl, NULL);
    CHECK(ran >= 1, "no AES implementation ran");
    tl_for_each_impl("aes", differential, NULL);
    bad_input();
    return tl_finish();
}
