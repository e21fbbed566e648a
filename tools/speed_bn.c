/*
 * speed_bn.c - the modular exponentiation rows of `incore speed`
 * (modexp1024 .. modexp4096): incore's ic_mont_modexp and the peers
 * GMP (mpz_powm_sec) and OpenSSL (BN_mod_exp_mont_consttime), both opened
 * at run time like the other peers (speed_peers.c), prototypes written out
 * here from gmp.h 6.2 and openssl/bn.h 3.0.  Both OpenSSL peers (openssl,
 * openssl-latest) run the same code, each with its own library's calls
 * (speed_ossl_sym).
 *
 * One operation is one constant-time exponentiation base^e mod n with an
 * odd modulus and an exponent both of the row's bit length, done in place
 * on the message buffer (the base, which stays below n: speed.c's message
 * pattern starts with byte 0x07 and n with its top bit set).  The
 * modulus's Montgomery set-up is done once per job by every provider
 * (ic_mont_init, BN_MONT_CTX_set; GMP's mpz_powm_sec has none to keep),
 * as a key is.  speed.c reports these rows in operations per second.
 *
 * rsa2048-verify (same kind, told apart by its name): one operation is
 * one RSASSA-PKCS1-v1_5 SHA-256 verification of a fixed valid signature
 * of a 4-byte message (Wycheproof rsa_signature_2048_sha256_test.json
 * tcId 3, e = 65537), message hash included: ic_rsa_verify_pkcs1v15, and
 * OpenSSL's SHA256 + RSA_verify (deprecated in 3.0 but exported; the key
 * built once with RSA_set0_key).  GMP has no such call.  Every provider
 * writes its verdict over the buffer (all 1 bytes for a good signature),
 * so speed.c's output comparison checks the verdicts.
 *
 * rsa2048-sign, rsa3072-sign, rsa4096-sign: one operation is one
 * RSASSA-PKCS1-v1_5 SHA-256 signature of the same 4-byte message with the
 * row's private key (speed_rsakeys.h), message hash included:
 * ic_rsa_sign_pkcs1v15 (CRT, blinding, the result checked with e), and
 * OpenSSL's SHA256 + EVP_PKEY_sign on an EVP_PKEY_CTX set up once per job
 * (PKCS #1 padding, SHA-256; the key built from its parts with
 * RSA_set0_key / _factors / _crt_params, so OpenSSL's CRT and blinding
 * run too).  The signature is deterministic: speed.c's output comparison
 * checks that both providers wrote the same one.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "incore/incore.h"
#include "tools.h"
#include "speed_rsakeys.h"

/* The row's modulus and exponent (a->param bits each): fixed patterns, the
 * modulus odd with its top bit set, the exponent with its top bit set. */
static void bn_operands(const speed_alg *a, uint8_t *n, uint8_t *e)
{
    size_t len = a->param / 8;
    for (size_t i = 0; i < len; i++) {
        n[i] = (uint8_t)(i * 73 + 11);
        e[i] = (uint8_t)(i * 197 + 3);
    }
    n[0] |= 0x80;
    n[len - 1] |= 1;
    e[0] |= 0x80;
}

/* rsa_signature_2048_sha256_test.json tcId 3 */
static const uint8_t rv_n[256] = {
    0xa2, 0xb4, 0x51, 0xa0, 0x7d, 0x0a, 0xa5, 0xf9, 0x6e, 0x45, 0x56, 0x71, 0x51, 0x35, 0x50, 0x51,
    0x4a, 0x8a, 0x5b, 0x46, 0x2e, 0xbe, 0xf7, 0x17, 0x09, 0x4f, 0xa1, 0xfe, 0xe8, 0x22, 0x24, 0xe6,
    0x37, 0xf9, 0x74, 0x6d, 0x3f, 0x7c, 0xaf, 0xd3, 0x18, 0x78, 0xd8, 0x03, 0x25, 0xb6, 0xef, 0x5a,
    0x17, 0x00, 0xf6, 0x59, 0x03, 0xb4, 0x69, 0x42, 0x9e, 0x89, 0xd6, 0xea, 0xc8, 0x84, 0x50, 0x97,
    0xb5, 0xab, 0x39, 0x31, 0x89, 0xdb, 0x92, 0x51, 0x2e, 0xd8, 0xa7, 0x71, 0x1a, 0x12, 0x53, 0xfa,
    0xcd, 0x20, 0xf7, 0x9c, 0x15, 0xe8, 0x24, 0x7f, 0x3d, 0x3e, 0x42, 0xe4, 0x6e, 0x48, 0xc9, 0x8e,
    0x25, 0x4a, 0x2f, 0xe9, 0x76, 0x53, 0x13, 0xa0, 0x3e, 0xff, 0x8f, 0x17, 0xe1, 0xa0, 0x29, 0x39,
    0x7a, 0x1f, 0xa2, 0x6a, 0x8d, 0xce, 0x26, 0xf4, 0x90, 0xed, 0x81, 0x29, 0x96, 0x15, 0xd9, 0x81,
    0x4c, 0x22, 0xda, 0x61, 0x04, 0x28, 0xe0, 0x9c, 0x7d, 0x96, 0x58, 0x59, 0x42, 0x66, 0xf5, 0xc0,
    0x21, 0xd0, 0xfc, 0xec, 0xa0, 0x8d, 0x94, 0x5a, 0x12, 0xbe, 0x82, 0xde, 0x4d, 0x1e, 0xce, 0x6b,
    0x4c, 0x03, 0x14, 0x5b, 0x5d, 0x34, 0x95, 0xd4, 0xed, 0x54, 0x11, 0xeb, 0x87, 0x8d, 0xaf, 0x05,
    0xfd, 0x7a, 0xfc, 0x3e, 0x09, 0xad, 0xa0, 0xf1, 0x12, 0x64, 0x22, 0xf5, 0x90, 0x97, 0x5a, 0x19,
    0x69, 0x81, 0x6f, 0x48, 0x69, 0x8b, 0xcb, 0xba, 0x1b, 0x4d, 0x9c, 0xae, 0x79, 0xd4, 0x60, 0xd8,
    0xf9, 0xf8, 0x5e, 0x79, 0x75, 0x00, 0x5d, 0x9b, 0xc2, 0x2c, 0x4e, 0x5a, 0xc0, 0xf7, 0xc1, 0xa4,
    0x5d, 0x12, 0x56, 0x9a, 0x62, 0x80, 0x7d, 0x3b, 0x9a, 0x02, 0xe5, 0xa5, 0x30, 0xe7, 0x73, 0x06,
    0x6f, 0x45, 0x3d, 0x1f, 0x5b, 0x4c, 0x2e, 0x9c, 0xf7, 0x82, 0x02, 0x83, 0xf7, 0x42, 0xb9, 0xd5,
};
static const uint8_t rv_msg[4] = {
    0x54, 0x65, 0x73, 0x74,
};
static const uint8_t rv_sig[256] = {
    0x26, 0x44, 0x91, 0xe8, 0x44, 0xc1, 0x19, 0xf1, 0x4e, 0x42, 0x5c, 0x03, 0x28, 0x21, 0x39, 0xa5,
    0x58, 0xdc, 0xda, 0xeb, 0x82, 0xa4, 0x62, 0x81, 0x73, 0xcd, 0x40, 0x7f, 0xd3, 0x19, 0xf9, 0x07,
    0x6e, 0xae, 0xbc, 0x0d, 0xd8, 0x7a, 0x1c, 0x22, 0xe4, 0xd1, 0x78, 0x39, 0x09, 0x68, 0x86, 0xd5,
    0x8a, 0x9d, 0x5b, 0x7f, 0x7a, 0xeb, 0x63, 0xef, 0xec, 0x56, 0xc4, 0x5a, 0xc7, 0xbe, 0xad, 0x42,
    0x03, 0xb6, 0x88, 0x6e, 0x1f, 0xaa, 0x90, 0xe0, 0x28, 0xec, 0x0a, 0xe0, 0x94, 0xd4, 0x6b, 0xf3,
    0xf9, 0x7e, 0xfd, 0xd1, 0x90, 0x45, 0xcf, 0xbc, 0x25, 0xa1, 0xab, 0xda, 0x24, 0x32, 0x63, 0x9f,
    0x98, 0x76, 0x40, 0x5c, 0x0d, 0x68, 0xf8, 0xed, 0xbf, 0x04, 0x7c, 0x12, 0xa4, 0x54, 0xf7, 0x68,
    0x1d, 0x5d, 0x5a, 0x2b, 0x54, 0xbd, 0x37, 0x23, 0xd1, 0x93, 0xdb, 0xad, 0x43, 0x38, 0xba, 0xad,
    0x75, 0x32, 0x64, 0x00, 0x6e, 0x2d, 0x08, 0x93, 0x1c, 0x4b, 0x8b, 0xb7, 0x9a, 0xa1, 0xc9, 0xca,
    0xd1, 0x0e, 0xb6, 0x60, 0x5f, 0x87, 0xc5, 0x83, 0x1f, 0x6e, 0x2b, 0x08, 0xe0, 0x02, 0xf9, 0xc6,
    0xf2, 0x11, 0x41, 0xf5, 0x84, 0x1d, 0x92, 0x72, 0x7d, 0xd3, 0xe1, 0xd9, 0x9c, 0x36, 0xbc, 0x56,
    0x0d, 0xa3, 0xc9, 0x06, 0x7d, 0xf9, 0x9f, 0xca, 0xf8, 0x18, 0x94, 0x1f, 0x72, 0x58, 0x8b, 0xe3,
    0x30, 0x32, 0xba, 0xd2, 0x2c, 0xaf, 0x67, 0x04, 0x22, 0x3b, 0xb1, 0x14, 0xd5, 0x75, 0xb6, 0xd0,
    0x2d, 0x9d, 0x22, 0x2b, 0x58, 0x00, 0x05, 0xd9, 0x30, 0xe8, 0xf4, 0x0c, 0xce, 0x9f, 0x67, 0x2e,
    0xeb, 0xb6, 0x34, 0xa2, 0x01, 0x77, 0xd8, 0x43, 0x51, 0x62, 0x79, 0x64, 0xb8, 0x3f, 0x20, 0x53,
    0xd7, 0x36, 0xa8, 0x4a, 0xb1, 0xa0, 0x05, 0xf6, 0x3b, 0xd5, 0xba, 0x94, 0x3d, 0xe6, 0x20, 0x5c,
};
/* e = 010001 */

static int is_rsa(const speed_alg *a)
{
    return strncmp(a->name, "rsa", 3) == 0;
}

static int is_sign(const speed_alg *a)
{
    return is_rsa(a) && strstr(a->name, "-sign") != NULL;
}

/* The row's key as bytes: part i in key[i], klen[i] bytes; 0 or -1. */
static int rsakey_bytes(unsigned bits, uint8_t key[8][IC_RSA_MAX_BYTES], size_t klen[8])
{
    for (size_t r = 0; r < sizeof speed_rsakeys / sizeof speed_rsakeys[0]; r++) {
        if (speed_rsakeys[r].bits != bits)
            continue;
        for (int i = 0; i < 8; i++) {
            const char *h = speed_rsakeys[r].part[i];
            klen[i] = strlen(h) / 2;
            for (size_t b = 0; b < klen[i]; b++) {
                unsigned v;
                if (sscanf(h + 2 * b, "%2x", &v) != 1)
                    return -1;
                key[i][b] = (uint8_t)v;
            }
        }
        return 0;
    }
    return -1;
}

typedef struct {
    ic_rsa_private_key priv;
    ic_rsa_public_key rsa;
    ic_mont_ctx mont;
    uint8_t n[IC_BN_MAX_BYTES], e[IC_BN_MAX_BYTES];
    void *p[6];                   /* the peers' objects */
} bn_state;

/* ---- GMP ------------------------------------------------------------------ */
typedef struct { int alloc, size; void *d; } gmp_mpz;     /* __mpz_struct */
static struct {
    void (*init)(gmp_mpz *);
    void (*clear)(gmp_mpz *);
    void (*import)(gmp_mpz *, size_t, int, size_t, int, size_t, const void *);
    void *(*export)(void *, size_t *, int, size_t, int, size_t, const gmp_mpz *);
    void (*powm_sec)(gmp_mpz *, const gmp_mpz *, const gmp_mpz *, const gmp_mpz *);
    int loaded;
} gmp;

/* ---- OpenSSL BIGNUM ---------------------------------------------------------- */
typedef struct bn_opaque bn_opaque;
typedef struct {
    bn_opaque *(*ctx_new)(void);
    void (*ctx_free)(bn_opaque *);
    bn_opaque *(*bn_new)(void);
    void (*bn_free)(bn_opaque *);
    bn_opaque *(*bin2bn)(const uint8_t *, int, bn_opaque *);
    int (*bn2binpad)(const bn_opaque *, uint8_t *, int);
    void (*set_flags)(bn_opaque *, int);
    bn_opaque *(*mont_new)(void);
    int (*mont_set)(bn_opaque *, const bn_opaque *, bn_opaque *);
    void (*mont_free)(bn_opaque *);
    int (*exp)(bn_opaque *, const bn_opaque *, const bn_opaque *, const bn_opaque *, bn_opaque *,
               bn_opaque *);
    void *(*rsa_new)(void);
    void (*rsa_free)(void *);
    int (*rsa_set0_key)(void *, bn_opaque *, bn_opaque *, bn_opaque *);
    int (*rsa_verify)(int, const uint8_t *, unsigned, const uint8_t *, unsigned, void *);
    uint8_t *(*sha256)(const uint8_t *, size_t, uint8_t *);
    int loaded;
} obn_api;
/* OpenSSL's signing through EVP (the rsaNNNN-sign rows) */
typedef struct {
    int (*set0_factors)(void *, bn_opaque *, bn_opaque *);
    int (*set0_crt)(void *, bn_opaque *, bn_opaque *, bn_opaque *);
    void *(*pkey_new)(void);
    void (*pkey_free)(void *);
    int (*pkey_assign)(void *, int, void *);
    void *(*ctx_new)(void *, void *);
    void (*ctx_free)(void *);
    int (*sign_init)(void *);
    int (*set_padding)(void *, int);
    int (*set_md)(void *, const void *);
    const void *(*sha256_md)(void);
    int (*sign)(void *, uint8_t *, size_t *, const uint8_t *, size_t);
    int loaded;
} osg_api;
/* [0] the openssl peer, [1] openssl-latest */
static obn_api obn_of[2];
static osg_api osg_of[2];
#define EVP_PKEY_RSA 6
#define RSA_PKCS1_PADDING 1
#define NID_sha256 672
#define BN_FLG_CONSTTIME 0x04

typedef struct { void *slot; const char *name; } bn_sym;

/* dlopen the first name that exists and look every symbol up; 1 or -1. */
static int bn_load(const char *const *sonames, const bn_sym *syms, size_t n, char *why, size_t whylen)
{
    void *h = NULL;
    for (size_t i = 0; sonames[i] && !h; i++)
        h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, whylen, "%s", dlerror());
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        void *f = dlsym(h, syms[i].name);
        if (!f) {
            snprintf(why, whylen, "%s lacks %s", sonames[0], syms[i].name);
            return -1;
        }
        memcpy(syms[i].slot, &f, sizeof f);
    }
    return 1;
}

static int gmp_load(char *why, size_t whylen)
{
    static const char *const so[] = {"libgmp.so.10", "libgmp.so", NULL};
    const bn_sym s[] = {
        {&gmp.init, "__gmpz_init"}, {&gmp.clear, "__gmpz_clear"}, {&gmp.import, "__gmpz_import"},
        {&gmp.export, "__gmpz_export"}, {&gmp.powm_sec, "__gmpz_powm_sec"},
    };
    if (!gmp.loaded)
        gmp.loaded = bn_load(so, s, sizeof s / sizeof s[0], why, whylen);
    else if (gmp.loaded < 0)
        snprintf(why, whylen, "libgmp not loadable");
    return gmp.loaded > 0 ? 0 : -1;
}

/* Every symbol of an OpenSSL peer's library (speed_ossl_sym); 1 or -1. */
static int ossl_bn_load(int peer, const bn_sym *syms, size_t n, char *why, size_t whylen)
{
    for (size_t i = 0; i < n; i++) {
        void *f = speed_ossl_sym(peer, syms[i].name, why, whylen);
        if (!f)
            return -1;
        memcpy(syms[i].slot, &f, sizeof f);
    }
    return 1;
}

static int obn_load(int peer, char *why, size_t whylen)
{
    obn_api *o = &obn_of[peer == SPEED_OPENSSL_LATEST];
    const bn_sym s[] = {
        {&o->ctx_new, "BN_CTX_new"}, {&o->ctx_free, "BN_CTX_free"}, {&o->bn_new, "BN_new"},
        {&o->bn_free, "BN_free"}, {&o->bin2bn, "BN_bin2bn"}, {&o->bn2binpad, "BN_bn2binpad"},
        {&o->set_flags, "BN_set_flags"}, {&o->mont_new, "BN_MONT_CTX_new"},
        {&o->mont_set, "BN_MONT_CTX_set"}, {&o->mont_free, "BN_MONT_CTX_free"},
        {&o->exp, "BN_mod_exp_mont_consttime"}, {&o->rsa_new, "RSA_new"}, {&o->rsa_free, "RSA_free"},
        {&o->rsa_set0_key, "RSA_set0_key"}, {&o->rsa_verify, "RSA_verify"}, {&o->sha256, "SHA256"},
    };
    if (!o->loaded)
        o->loaded = ossl_bn_load(peer, s, sizeof s / sizeof s[0], why, whylen);
    else if (o->loaded < 0)
        snprintf(why, whylen, "libcrypto not loadable");
    return o->loaded > 0 ? 0 : -1;
}

static int osg_load(int peer, char *why, size_t whylen)
{
    osg_api *g = &osg_of[peer == SPEED_OPENSSL_LATEST];
    const bn_sym s[] = {
        {&g->set0_factors, "RSA_set0_factors"}, {&g->set0_crt, "RSA_set0_crt_params"},
        {&g->pkey_new, "EVP_PKEY_new"}, {&g->pkey_free, "EVP_PKEY_free"},
        {&g->pkey_assign, "EVP_PKEY_assign"}, {&g->ctx_new, "EVP_PKEY_CTX_new"},
        {&g->ctx_free, "EVP_PKEY_CTX_free"}, {&g->sign_init, "EVP_PKEY_sign_init"},
        {&g->set_padding, "EVP_PKEY_CTX_set_rsa_padding"}, {&g->set_md, "EVP_PKEY_CTX_set_signature_md"},
        {&g->sha256_md, "EVP_sha256"}, {&g->sign, "EVP_PKEY_sign"},
    };
    if (obn_load(peer, why, whylen))
        return -1;
    if (!g->loaded)
        g->loaded = ossl_bn_load(peer, s, sizeof s / sizeof s[0], why, whylen);
    else if (g->loaded < 0)
        snprintf(why, whylen, "libcrypto lacks the EVP signing calls");
    return g->loaded > 0 ? 0 : -1;
}

/* The row's key into incore (peer -1) or an OpenSSL EVP_PKEY_CTX ready to
 * sign (s->p[0], its EVP_PKEY in s->p[1]).  0, or -1 with why. */
static int sign_setup(int peer, bn_state *s, const speed_alg *a, char *why, size_t whylen)
{
    const obn_api *const ob = &obn_of[peer == SPEED_OPENSSL_LATEST];
    const osg_api *const og = &osg_of[peer == SPEED_OPENSSL_LATEST];
    static uint8_t key[8][IC_RSA_MAX_BYTES];
    size_t kl[8];
    if (rsakey_bytes((unsigned)a->param, key, kl)) {
        snprintf(why, whylen, "no key for %s", a->name);
        return -1;
    }
    if (peer < 0) {
        int st = ic_rsa_private_key_init(&s->priv, key[0], kl[0], key[1], kl[1], key[2], kl[2], key[3], kl[3],
                                         key[4], kl[4], key[5], kl[5], key[6], kl[6], key[7], kl[7]);
        snprintf(why, whylen, "%s", ic_status_str(st));
        return st == IC_OK ? 0 : -1;
    }
    if (!speed_is_openssl(peer) || osg_load(peer, why, whylen))
        return -1;
    bn_opaque *b[8];
    for (int i = 0; i < 8; i++)
        b[i] = ob->bin2bn(key[i], (int)kl[i], NULL);
    void *rsa = ob->rsa_new();
    s->p[1] = og->pkey_new();
    if (!rsa || !s->p[1] || ob->rsa_set0_key(rsa, b[0], b[1], b[2]) != 1 ||
        og->set0_factors(rsa, b[3], b[4]) != 1 || og->set0_crt(rsa, b[5], b[6], b[7]) != 1 ||
        og->pkey_assign(s->p[1], EVP_PKEY_RSA, rsa) != 1 || !(s->p[0] = og->ctx_new(s->p[1], NULL)) ||
        og->sign_init(s->p[0]) != 1 || og->set_padding(s->p[0], RSA_PKCS1_PADDING) != 1 ||
        og->set_md(s->p[0], og->sha256_md()) != 1) {
        snprintf(why, whylen, "OpenSSL RSA signing set-up failed");
        return -1;
    }
    return 0;
}

const char *speed_bn_peer_call(int peer, const speed_alg *a)
{
    if (is_sign(a))
        return speed_is_openssl(peer) ? "EVP_PKEY_sign" : NULL;
    if (is_rsa(a))
        return speed_is_openssl(peer) ? "RSA_verify" : NULL;
    return peer == SPEED_GMP ? "mpz_powm_sec" : speed_is_openssl(peer) ? "BN_mod_exp_mont_consttime" : NULL;
}

/* The "montmul" entry a context for the row's modulus runs when selected
 * is selected: a backend may hand small moduli to the next entry, and the
 * context records which (ic_mont_ctx.impl), so the row says what ran. */
const char *speed_bn_impl(const speed_alg *a, const char *selected)
{
    uint8_t n[IC_BN_MAX_BYTES], e[IC_BN_MAX_BYTES];
    size_t len = a->param / 8;
    const char *saved = ic_impl_selected("montmul"), *ran = selected;
    ic_mont_ctx c;
    bn_operands(a, n, e);
    if (is_rsa(a))
        memcpy(n, rv_n, len);
    if (ic_impl_select("montmul", selected) == IC_OK && ic_mont_init(&c, n, len) == IC_OK)
        ran = ic_impl_name("montmul", c.impl);
    ic_mont_wipe(&c);
    if (saved && ic_impl_select("montmul", saved) != IC_OK)
        fprintf(stderr, "incore speed: cannot select montmul/%s again\n", saved);
    return ran ? ran : selected;
}

/* peer -1 is incore.  0, or -1 with why. */
int speed_bn_setup(int peer, speed_job *j, char *why, size_t whylen)
{
    const obn_api *const ob = &obn_of[peer == SPEED_OPENSSL_LATEST];
    bn_state *s = calloc(1, sizeof *s);
    j->state = s;
    if (!s) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    size_t len = j->alg->param / 8;
    if (is_sign(j->alg))
        return sign_setup(peer, s, j->alg, why, whylen);
    if (is_rsa(j->alg)) {
        static const uint8_t e[3] = {1, 0, 1};
        if (peer < 0) {
            int st = ic_rsa_public_key_init(&s->rsa, rv_n, sizeof rv_n, e, sizeof e);
            snprintf(why, whylen, "%s", ic_status_str(st));
            return st == IC_OK ? 0 : -1;
        }
        if (!speed_is_openssl(peer) || obn_load(peer, why, whylen))
            return -1;
        s->p[0] = ob->rsa_new();
        bn_opaque *n = ob->bin2bn(rv_n, (int)sizeof rv_n, NULL), *eb = ob->bin2bn(e, 3, NULL);
        if (!s->p[0] || !n || !eb || ob->rsa_set0_key(s->p[0], n, eb, NULL) != 1) {
            snprintf(why, whylen, "OpenSSL RSA key set-up failed");
            return -1;
        }
        return 0;
    }
    bn_operands(j->alg, s->n, s->e);
    if (peer < 0) {
        int st = ic_mont_init(&s->mont, s->n, len);
        snprintf(why, whylen, "%s", ic_status_str(st));
        return st == IC_OK ? 0 : -1;
    }
    if (peer == SPEED_GMP) {
        if (gmp_load(why, whylen))
            return -1;
        gmp_mpz *z = calloc(4, sizeof *z);     /* n, e, base, result */
        if (!z)
            return -1;
        s->p[0] = z;
        for (int i = 0; i < 4; i++)
            gmp.init(&z[i]);
        gmp.import(&z[0], len, 1, 1, 1, 0, s->n);
        gmp.import(&z[1], len, 1, 1, 1, 0, s->e);
        return 0;
    }
    if (speed_is_openssl(peer)) {
        if (obn_load(peer, why, whylen))
            return -1;
        s->p[0] = ob->ctx_new();
        s->p[1] = ob->bin2bn(s->n, (int)len, NULL);
        s->p[2] = ob->bin2bn(s->e, (int)len, NULL);
        s->p[3] = ob->bn_new();
        s->p[4] = ob->bn_new();
        s->p[5] = ob->mont_new();
        for (int i = 0; i < 6; i++)
            if (!s->p[i]) {
                snprintf(why, whylen, "OpenSSL BN allocation failed");
                return -1;
            }
        ob->set_flags(s->p[2], BN_FLG_CONSTTIME);
        if (ob->mont_set(s->p[5], s->p[1], s->p[0]) != 1) {
            snprintf(why, whylen, "BN_MONT_CTX_set failed");
            return -1;
        }
        return 0;
    }
    snprintf(why, whylen, "no modexp in this peer");
    return -1;
}

void speed_bn_run(int peer, speed_job *j, size_t len)
{
    const obn_api *const ob = &obn_of[peer == SPEED_OPENSSL_LATEST];
    const osg_api *const og = &osg_of[peer == SPEED_OPENSSL_LATEST];
    bn_state *s = j->state;
    if (is_sign(j->alg)) {
        int ok;
        if (peer < 0) {
            ok = ic_rsa_sign_pkcs1v15(&s->priv, IC_HASH_SHA256, j->buf, len, rv_msg, sizeof rv_msg) == IC_OK;
        } else {
            uint8_t md[32];
            size_t siglen = len;
            ob->sha256(rv_msg, sizeof rv_msg, md);
            ok = og->sign(s->p[0], j->buf, &siglen, md, 32) == 1 && siglen == len;
        }
        j->failed |= !ok;
        return;
    }
    if (is_rsa(j->alg)) {
        int ok;
        if (peer < 0) {
            ok = ic_rsa_verify_pkcs1v15(&s->rsa, IC_HASH_SHA256, rv_sig, sizeof rv_sig, rv_msg, sizeof rv_msg) == IC_OK;
        } else {
            uint8_t md[32];
            ob->sha256(rv_msg, sizeof rv_msg, md);
            ok = ob->rsa_verify(NID_sha256, md, 32, rv_sig, sizeof rv_sig, s->p[0]) == 1;
        }
        memset(j->buf, ok, len);
        j->failed |= !ok;
        return;
    }
    if (peer < 0) {
        if (ic_mont_modexp(&s->mont, j->buf, len, j->buf, len, s->e, len) != IC_OK)
            j->failed = 1;
    } else if (peer == SPEED_GMP) {
        gmp_mpz *z = s->p[0];
        size_t cnt = 0;
        gmp.import(&z[2], len, 1, 1, 1, 0, j->buf);
        gmp.powm_sec(&z[3], &z[2], &z[1], &z[0]);
        memset(j->buf, 0, len);                /* export writes the significant bytes */
        uint8_t tmp[IC_BN_MAX_BYTES];
        gmp.export(tmp, &cnt, 1, 1, 1, 0, &z[3]);
        memcpy(j->buf + len - cnt, tmp, cnt);
    } else {
        ob->bin2bn(j->buf, (int)len, s->p[3]);
        ob->set_flags(s->p[3], BN_FLG_CONSTTIME);
        if (ob->exp(s->p[4], s->p[3], s->p[2], s->p[1], s->p[0], s->p[5]) != 1 ||
            ob->bn2binpad(s->p[4], j->buf, (int)len) != (int)len)
            j->failed = 1;
    }
}

void speed_bn_free(int peer, speed_job *j)
{
    const obn_api *const ob = &obn_of[peer == SPEED_OPENSSL_LATEST];
    const osg_api *const og = &osg_of[peer == SPEED_OPENSSL_LATEST];
    bn_state *s = j->state;
    if (!s)
        return;
    if (is_sign(j->alg)) {
        if (speed_is_openssl(peer) && s->p[0])
            og->ctx_free(s->p[0]);
        if (speed_is_openssl(peer) && s->p[1])
            og->pkey_free(s->p[1]);           /* frees the RSA key and its numbers */
    } else if (is_rsa(j->alg)) {
        if (speed_is_openssl(peer) && s->p[0])
            ob->rsa_free(s->p[0]);            /* frees n and e with it */
    } else if (peer == SPEED_GMP && s->p[0]) {
        gmp_mpz *z = s->p[0];
        for (int i = 0; i < 4; i++)
            gmp.clear(&z[i]);
        free(z);
    } else if (speed_is_openssl(peer)) {
        if (s->p[0])
            ob->ctx_free(s->p[0]);
        for (int i = 1; i < 5; i++)
            if (s->p[i])
                ob->bn_free(s->p[i]);
        if (s->p[5])
            ob->mont_free(s->p[5]);
    }
    ic_mont_wipe(&s->mont);
    ic_rsa_public_key_wipe(&s->rsa);
    ic_rsa_private_key_wipe(&s->priv);
    free(s);
    j->state = NULL;
}
