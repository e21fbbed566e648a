/*
 * speed_bn.c - the modular exponentiation rows of `incore speed`
 * (modexp2048, modexp3072, modexp4096): incore's ic_modexp and the peers
 * GMP (mpz_powm_sec) and OpenSSL (BN_mod_exp_mont_consttime), both opened
 * at run time like the other peers (speed_peers.c), prototypes written out
 * here from gmp.h 6.2 and openssl/bn.h 3.0.
 *
 * One operation is one constant-time exponentiation base^e mod n with an
 * odd modulus and an exponent both of the row's bit length, done in place
 * on the message buffer (the base, which stays below n: speed.c's message
 * pattern starts with byte 0x07 and n with its top bit set).  The
 * modulus's Montgomery set-up is done once per job by every provider
 * (ic_mont_init, BN_MONT_CTX_set; GMP's mpz_powm_sec has none to keep),
 * as a key is.  speed.c reports these rows in operations per second.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "incore/incore.h"
#include "tools.h"

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

typedef struct {
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
static struct {
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
    int loaded;
} obn;
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

static int obn_load(char *why, size_t whylen)
{
    static const char *const so[] = {"libcrypto.so.3", "libcrypto.so", NULL};
    const bn_sym s[] = {
        {&obn.ctx_new, "BN_CTX_new"}, {&obn.ctx_free, "BN_CTX_free"}, {&obn.bn_new, "BN_new"},
        {&obn.bn_free, "BN_free"}, {&obn.bin2bn, "BN_bin2bn"}, {&obn.bn2binpad, "BN_bn2binpad"},
        {&obn.set_flags, "BN_set_flags"}, {&obn.mont_new, "BN_MONT_CTX_new"},
        {&obn.mont_set, "BN_MONT_CTX_set"}, {&obn.mont_free, "BN_MONT_CTX_free"},
        {&obn.exp, "BN_mod_exp_mont_consttime"},
    };
    if (!obn.loaded)
        obn.loaded = bn_load(so, s, sizeof s / sizeof s[0], why, whylen);
    else if (obn.loaded < 0)
        snprintf(why, whylen, "libcrypto not loadable");
    return obn.loaded > 0 ? 0 : -1;
}

const char *speed_bn_peer_call(int peer)
{
    return peer == SPEED_GMP ? "mpz_powm_sec" : peer == SPEED_OPENSSL ? "BN_mod_exp_mont_consttime" : NULL;
}

/* peer -1 is incore.  0, or -1 with why. */
int speed_bn_setup(int peer, speed_job *j, char *why, size_t whylen)
{
    bn_state *s = calloc(1, sizeof *s);
    j->state = s;
    if (!s) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    size_t len = j->alg->param / 8;
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
    if (peer == SPEED_OPENSSL) {
        if (obn_load(why, whylen))
            return -1;
        s->p[0] = obn.ctx_new();
        s->p[1] = obn.bin2bn(s->n, (int)len, NULL);
        s->p[2] = obn.bin2bn(s->e, (int)len, NULL);
        s->p[3] = obn.bn_new();
        s->p[4] = obn.bn_new();
        s->p[5] = obn.mont_new();
        for (int i = 0; i < 6; i++)
            if (!s->p[i]) {
                snprintf(why, whylen, "OpenSSL BN allocation failed");
                return -1;
            }
        obn.set_flags(s->p[2], BN_FLG_CONSTTIME);
        if (obn.mont_set(s->p[5], s->p[1], s->p[0]) != 1) {
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
    bn_state *s = j->state;
    if (peer < 0) {
        if (ic_modexp(&s->mont, j->buf, len, j->buf, len, s->e, len) != IC_OK)
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
        obn.bin2bn(j->buf, (int)len, s->p[3]);
        obn.set_flags(s->p[3], BN_FLG_CONSTTIME);
        if (obn.exp(s->p[4], s->p[3], s->p[2], s->p[1], s->p[0], s->p[5]) != 1 ||
            obn.bn2binpad(s->p[4], j->buf, (int)len) != (int)len)
            j->failed = 1;
    }
}

void speed_bn_free(int peer, speed_job *j)
{
    bn_state *s = j->state;
    if (!s)
        return;
    if (peer == SPEED_GMP && s->p[0]) {
        gmp_mpz *z = s->p[0];
        for (int i = 0; i < 4; i++)
            gmp.clear(&z[i]);
        free(z);
    } else if (peer == SPEED_OPENSSL) {
        if (s->p[0])
            obn.ctx_free(s->p[0]);
        for (int i = 1; i < 5; i++)
            if (s->p[i])
                obn.bn_free(s->p[i]);
        if (s->p[5])
            obn.mont_free(s->p[5]);
    }
    ic_mont_wipe(&s->mont);
    free(s);
    j->state = NULL;
}
