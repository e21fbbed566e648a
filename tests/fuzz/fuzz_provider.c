/*
 * fuzz_provider.c - the OpenSSL provider's cipher contexts (provider/)
 * against OpenSSL's default provider, call by call, through EVP.
 *
 * The provider's sources are linked into this program and registered in a
 * library context of its own (OSSL_PROVIDER_add_builtin), with "default"
 * loaded beside it.  The input picks one of the provider's ciphers and a
 * direction, then up to FZP_MAX_OPS operations, each applied to two
 * EVP_CIPHER_CTX at once, one fetched with "provider=incore", one with
 * "provider=default": init (with or without cipher, key, IV; parameters),
 * IV length, tag (from the input or the last one read), padding, key
 * length, TLS 1.2 AAD (13 bytes or another size), TLS fixed IV, TLS IV
 * generation, parameter reads (tag, IV, updated IV, lengths, num), update
 * (0..300 bytes or a long expanded message, in place or not, or the bytes
 * the contexts wrote before, for a round trip), AAD (AEADs only: the
 * default provider takes `out` NULL as AAD for them alone), final, copy
 * (the original freed, work goes on on the copy) and reset.  Output
 * buffers are malloc'ed at exactly the size EVP documents, so ASan sees a
 * write past it.
 *
 * Checked: no crash, leak or sanitizer report, no output length past the
 * buffer; while every step has succeeded on both contexts, an operation
 * succeeds on both or on neither, and its outputs (length, bytes, tags,
 * IVs, parameter values) are equal.  The first step that fails on either
 * ends the comparison of that input, as does any difference below: a
 * refusal may leave the two contexts in different states.  A difference
 * of status that is not one of these intended ones fails the target
 * (incore's error reason or the call tells them apart):
 *
 * incore refuses what default 3.0 accepts
 *   - an XTS key whose halves are equal, in either direction (SP 800-38E;
 *     default refuses it only when encrypting);
 *   - data, AAD or final without a key or an unused IV (default's AES
 *     runs on whatever key state the context has, its AEADs take 0-byte
 *     calls), and TLS IV generation after the IV length changed (the
 *     fixed IV of the old length is gone);
 *   - a GCM tag to check of other than 4, 8 or 12..16 bytes, a
 *     ChaCha20-Poly1305 tag of other than 16 (SP 800-38D, RFC 8439);
 *   - a TLS 1.2 AEAD record whose length is not the one its AAD states;
 *   - an in-place ECB/CBC update behind a buffered partial block: the
 *     output would run ahead of input not yet read (IC_ERR_OVERLAP);
 *   - parameter reads: a tag before an encryption's final, an IV into a
 *     buffer shorter than the IV;
 * incore accepts what default 3.0 refuses
 *   - parameter reads (a GCM IV before one was set);
 *   - a GCM TLS fixed IV of the IV's whole length (taken as the whole IV,
 *     as -1 is), a ChaCha20-Poly1305 IV length of 1..11 bytes;
 *   - final of ChaCha20 or XTS, which writes nothing, without a key;
 *   - AEAD data after the IV length changed in the middle of a message
 *     (the message goes on under its IV).
 *
 * Not compared from there on, though both succeed: a TLS fixed IV shorter
 * than the IV when encrypting (the rest is random) or in the middle of a
 * message; a re-init without cipher that changes direction without a key
 * (default 3.0 keeps the other direction's AES key schedule for ECB, CBC,
 * XTS) or, for CTR and ChaCha20, comes without an IV (default goes on from
 * its counter, incore restarts at the IV set, as both do for CBC, CFB,
 * OFB); a tag read after a TLS AAD (default keeps the AAD in its tag
 * buffer); a message streamed after a TLS record on the same context; an
 * init with a TLS AAD pending (incore drops it, default takes the next
 * data as the record).
 * Calls that crash default 3.0 itself are not made: an XTS update without
 * a key, a TLS fixed IV longer than the IV, an IV generation into 0 bytes.
 *
 * FZP_TRACE=1 in the environment prints every step's results.
 */
#include <limits.h>

#include <openssl/core.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/proverr.h>
#include <openssl/provider.h>

#include "fuzz_common.h"

#define FZP_MAX_OPS 32
#define FZP_MAX_SHORT 300
#define FZP_TRANSCRIPT (2 * FZ_MAX_EXPANDED + 64)

enum { AEAD_NONE, AEAD_GCM, AEAD_CP };

typedef struct {
    const char *name;
    size_t keylen, ivlen, bs;
    int aead, xts;
} fzp_alg;

static const fzp_alg algs[] = {
    { "AES-128-ECB", 16, 0, 16, AEAD_NONE, 0 },  { "AES-192-ECB", 24, 0, 16, AEAD_NONE, 0 },
    { "AES-256-ECB", 32, 0, 16, AEAD_NONE, 0 },  { "AES-128-CBC", 16, 16, 16, AEAD_NONE, 0 },
    { "AES-192-CBC", 24, 16, 16, AEAD_NONE, 0 }, { "AES-256-CBC", 32, 16, 16, AEAD_NONE, 0 },
    { "AES-128-CFB", 16, 16, 1, AEAD_NONE, 0 },  { "AES-192-CFB", 24, 16, 1, AEAD_NONE, 0 },
    { "AES-256-CFB", 32, 16, 1, AEAD_NONE, 0 },  { "AES-128-OFB", 16, 16, 1, AEAD_NONE, 0 },
    { "AES-192-OFB", 24, 16, 1, AEAD_NONE, 0 },  { "AES-256-OFB", 32, 16, 1, AEAD_NONE, 0 },
    { "AES-128-CTR", 16, 16, 1, AEAD_NONE, 0 },  { "AES-192-CTR", 24, 16, 1, AEAD_NONE, 0 },
    { "AES-256-CTR", 32, 16, 1, AEAD_NONE, 0 },  { "AES-128-GCM", 16, 12, 1, AEAD_GCM, 0 },
    { "AES-192-GCM", 24, 12, 1, AEAD_GCM, 0 },   { "AES-256-GCM", 32, 12, 1, AEAD_GCM, 0 },
    { "AES-128-XTS", 32, 16, 1, AEAD_NONE, 1 },  { "AES-256-XTS", 64, 16, 1, AEAD_NONE, 1 },
    { "ChaCha20", 32, 16, 1, AEAD_NONE, 0 },     { "ChaCha20-Poly1305", 32, 12, 1, AEAD_CP, 0 },
};
#define NALGS (sizeof algs / sizeof algs[0])

/* side 0: incore, side 1: default */
static const char *const side_name[2] = { "incore", "default" };
static OSSL_LIB_CTX *lib;
static EVP_CIPHER *ciphers[NALGS][2];

static void setup(void)
{
    if (lib != NULL)
        return;
    lib = OSSL_LIB_CTX_new();
    FZ_CHECK(lib != NULL, "OSSL_LIB_CTX_new");
    FZ_CHECK(OSSL_PROVIDER_add_builtin(lib, "incore", OSSL_provider_init), "add the built-in provider incore");
    FZ_CHECK(OSSL_PROVIDER_load(lib, "incore") != NULL && OSSL_PROVIDER_load(lib, "default") != NULL,
             "load the providers incore and default");
    for (size_t i = 0; i < NALGS; i++)
        for (int s = 0; s < 2; s++) {
            char q[32];
            snprintf(q, sizeof q, "provider=%s", side_name[s]);
            ciphers[i][s] = EVP_CIPHER_fetch(lib, algs[i].name, q);
            FZ_CHECK(ciphers[i][s] != NULL, "fetch %s from %s", algs[i].name, side_name[s]);
            FZ_CHECK(strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(ciphers[i][s])), side_name[s]) == 0,
                     "%s fetched from the wrong provider", algs[i].name);
        }
}

/* ---- what an operation gave on one side ---------------------------------- */

typedef struct {
    int ok;           /* the call succeeded */
    long n;           /* an int it returned or wrote (outl, a length, ctrl's value) */
    uint8_t *buf;     /* bytes it wrote (malloc'ed), len of them */
    size_t len;
} fzp_res;

enum op {
    OP_INIT, OP_IVLEN, OP_TAG, OP_PAD, OP_KEYLEN, OP_TLSAAD, OP_IVFIXED, OP_IVGEN, OP_GET,
    OP_UPDATE, OP_UPDATE2, OP_AAD, OP_FINAL, OP_COPY, OP_RESET, OP_MARK, OP_COUNT
};
static const char *const op_name[OP_COUNT] = {
    "init", "ivlen", "set tag", "padding", "key length", "TLS AAD", "TLS fixed IV", "TLS IV gen", "get",
    "update", "update", "AAD", "final", "copy", "reset", "mark"
};

typedef struct {
    const fzp_alg *a;
    size_t ai;
    EVP_CIPHER_CTX *x[2];
    uint8_t key[64];
    uint8_t iv[128];
    int sync;                 /* every step so far succeeded on both */
    uint8_t *tr;              /* transcript: what the incore side wrote */
    size_t trlen, trpos;
    uint8_t tag[16];          /* the last tag read from the incore side */
    /* what the current operation was, for the difference rules */
    enum op op;
    int opv;                  /* an operation's detail (see diff_intended) */
    int eq_halves;            /* init: an XTS key with equal halves */
    int midmsg;               /* data or AAD since the last final or init with an IV */
    int tls_aad;              /* a TLS AAD was set */
    int tls_pending;          /* ... and its record not yet passed */
    int tls_record;           /* a TLS record went through */
    int inplace;              /* update: in place */
    int aead_relaxed;         /* the IV length changed in the middle of a message */
    int keyed[2];             /* the context has a key (default's XTS crashes without) */
    size_t dlen;              /* update / AAD: bytes */
    int step;
} fzp;

/* After side s's call: incore's error reason kept (the difference rules
 * read it), the queue emptied. */
static unsigned long err_incore;
static void side_done(int s)
{
    if (s == 0)
        err_incore = ERR_GET_REASON(ERR_peek_last_error());
    ERR_clear_error();
}

static int has_cipher(const EVP_CIPHER_CTX *x)
{
    return EVP_CIPHER_CTX_get0_cipher(x) != NULL;
}

static int encrypting(const EVP_CIPHER_CTX *x)
{
    return has_cipher(x) && EVP_CIPHER_CTX_is_encrypting(x) == 1;
}

static uint8_t *xmalloc(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (p == NULL)
        abort();
    return p;
}

static void transcript_add(fzp *f, const uint8_t *p, size_t n)
{
    if (n > FZP_TRANSCRIPT - f->trlen)
        n = FZP_TRANSCRIPT - f->trlen;
    if (n > 0)
        memcpy(f->tr + f->trlen, p, n);
    f->trlen += n;
}

/* The intended differences of status (the list at the top); anything
 * else the caller reports as a failure.  ok0 is incore's status. */
static int diff_intended(const fzp *f, int ok0)
{
    int data = f->op == OP_UPDATE || f->op == OP_UPDATE2 || f->op == OP_AAD || f->op == OP_FINAL;
    if (ok0) {
        /* reads only: incore answers a GCM IV before one was set */
        if (f->op == OP_GET)
            return 1;
        /* a GCM fixed IV of the IV's whole length taken as the whole IV */
        if (f->op == OP_IVFIXED && f->a->aead == AEAD_GCM && f->opv > 0)
            return 1;
        /* ChaCha20-Poly1305 nonces of 1..11 bytes (zero-padded in front) */
        if (f->a->aead == AEAD_CP && (f->op == OP_IVLEN || (f->op == OP_INIT && (f->opv & 0x40))))
            return 1;
        /* ChaCha20's final writes nothing, with or without a key */
        if (f->op == OP_FINAL && !f->a->aead && f->a->bs == 1)
            return 1;
        /* an AEAD message goes on under its IV after the IV length
         * changed: default refuses the data (no IV) */
        if (data && f->a->aead && f->aead_relaxed)
            return 1;
        return 0;
    }
    /* incore refuses: reads change nothing (a tag read before an
     * encryption's final, an IV into a short buffer); else its error
     * reason says why */
    if (f->op == OP_GET)
        return 1;
    switch (err_incore) {
    case PROV_R_XTS_DUPLICATED_KEYS:
        return f->op == OP_INIT && f->eq_halves;
    case PROV_R_NO_KEY_SET:
    case PROV_R_INVALID_STATE:          /* no IV, or no unused one; no fixed IV */
        return data || f->op == OP_IVGEN;
    case PROV_R_OUTPUT_BUFFER_TOO_SMALL: /* in place behind a buffered partial block */
        return data && f->a->bs > 1 && f->inplace;
    case PROV_R_INVALID_TAG_LENGTH:     /* GCM: 4, 8, 12..16 bytes */
    case PROV_R_TAG_NOT_SET:            /* ChaCha20-Poly1305: 16 bytes */
        return f->op == OP_FINAL && f->a->aead;
    case PROV_R_INVALID_INPUT_LENGTH:   /* TLS record of another length than its AAD's */
        return data && f->a->aead;
    default:
        return 0;
    }
}

/* Compare one operation's results on the two sides. */
static void compare(fzp *f, fzp_res r[2])
{
    if (!f->sync)
        return;
    if (r[0].ok != r[1].ok) {
        if (!diff_intended(f, r[0].ok))
            FZ_FAIL("%s step %d (%s, detail %d, %zu bytes): incore %s, default %s", f->a->name, f->step,
                    op_name[f->op], f->opv, f->dlen, r[0].ok ? "accepts" : "refuses",
                    r[1].ok ? "accepts" : "refuses");
        f->sync = 0;
        return;
    }
    if (!r[0].ok) {
        f->sync = 0;
        return;
    }
    FZ_CHECK(r[0].n == r[1].n, "%s step %d (%s, detail %d): incore gives %ld, default %ld", f->a->name, f->step,
             op_name[f->op], f->opv, r[0].n, r[1].n);
    FZ_CHECK(r[0].len == r[1].len, "%s step %d (%s): incore wrote %zu bytes, default %zu", f->a->name, f->step,
             op_name[f->op], r[0].len, r[1].len);
    if (r[0].len > 0)
        FZ_CHECK_MEM(r[0].buf, r[1].buf, r[0].len, op_name[f->op]);
}

/* ---- the operations ------------------------------------------------------ */

static const size_t ivlens[16] = { 0, 1, 4, 7, 8, 11, 12, 13, 15, 16, 17, 32, 64, 127, 128, 129 };

/* Input bytes of an update or AAD: the input's own, expanded from a seed,
 * or the transcript from its read position (a round trip). */
static uint8_t *data_in(fzp *f, fz_in *in, uint8_t how, size_t *len)
{
    size_t n = fz_u16(in);
    uint8_t *d;
    switch (how & 3) {
    case 1:
        n %= FZ_MAX_EXPANDED + 1;
        d = xmalloc(n);
        fz_expand(d, n, fz_u32(in));
        break;
    case 2:
    case 3:
        n = (how & 4) ? f->trlen - f->trpos : n % (FZP_MAX_SHORT + 1);
        if (n > f->trlen - f->trpos)
            n = f->trlen - f->trpos;
        d = xmalloc(n);
        if (n > 0)
            memcpy(d, f->tr + f->trpos, n);
        f->trpos += n;
        break;
    default:
        n %= FZP_MAX_SHORT + 1;
        d = xmalloc(n);
        fz_take(in, d, n);
        break;
    }
    *len = n;
    return d;
}

static void op_init(fzp *f, fz_in *in, fzp_res r[2])
{
    uint8_t fl = fz_u8(in), kx = fz_u8(in), ivx = fz_u8(in), pv = fz_u8(in);
    size_t half = f->a->keylen / 2;
    if (kx != 0)
        f->key[kx % 64] += (uint8_t)(1 + (kx >> 6));
    if (ivx != 0)
        f->iv[ivx % 16] += (uint8_t)(1 + (ivx >> 4));
    f->eq_halves = f->a->xts && (fl & 0x20);
    if (f->eq_halves)
        memcpy(f->key + half, f->key, half);
    else if (f->a->xts && memcmp(f->key, f->key + half, half) == 0)
        f->key[half] ^= 1;
    int enc = (fl >> 3) & 3;
    enc = enc == 3 ? -1 : enc & 1;
    size_t ivlen = ivlens[pv % 16];
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen), OSSL_PARAM_END };
    f->opv = fl;
    int was_enc = encrypting(f->x[0]), had_cipher = has_cipher(f->x[0]);
    for (int s = 0; s < 2; s++)
        if (fl & 1)
            f->keyed[s] = 0;   /* a new provider context */
    for (int s = 0; s < 2; s++) {
        r[s].ok = EVP_CipherInit_ex2(f->x[s], (fl & 1) ? ciphers[f->ai][s] : NULL, (fl & 2) ? f->key : NULL,
                                     (fl & 4) ? f->iv : NULL, enc, (fl & 0x40) ? p : NULL) == 1;
        if (fl & 2)
            f->keyed[s] = r[s].ok;
        side_done(s);
    }
    if (!(r[0].ok && r[1].ok && f->sync) || (fl & 1) || !had_cipher)
        return;
    /* Re-initialised without a cipher (the same context): default 3.0
     * keeps the other direction's AES key schedule when the direction
     * changes without a key (ECB, CBC, XTS decrypt with it), and its CTR
     * and ChaCha20 go on from their counters without an IV, where incore
     * restarts at the IV set (as default does for CBC, CFB, OFB). */
    int m = EVP_CIPHER_get_mode(ciphers[f->ai][0]);
    int aes_inverse = m == EVP_CIPH_ECB_MODE || m == EVP_CIPH_CBC_MODE || m == EVP_CIPH_XTS_MODE;
    int counter = m == EVP_CIPH_CTR_MODE || (m == EVP_CIPH_STREAM_CIPHER && !f->a->aead);
    if ((aes_inverse && !(fl & 2) && was_enc != encrypting(f->x[0])) || (counter && !(fl & 4))) {
        compare(f, r);
        f->sync = 0;
    }
}

static void set_params(fzp *f, fzp_res r[2], OSSL_PARAM *p)
{
    for (int s = 0; s < 2; s++) {
        r[s].ok = EVP_CIPHER_CTX_set_params(f->x[s], p) == 1;
        side_done(s);
    }
}

static void op_ivlen(fzp *f, fz_in *in, fzp_res r[2])
{
    size_t v = ivlens[fz_u8(in) % 16];
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &v), OSSL_PARAM_END };
    f->opv = (int)v;
    set_params(f, r, p);
}

/* The expected tag: n bytes (0..17) from the input or the last tag read
 * (perhaps with a bit flipped), or the length alone (data NULL). */
static void op_tag(fzp *f, fz_in *in, fzp_res r[2])
{
    uint8_t b = fz_u8(in);
    size_t n = b % 18;
    uint8_t *t = xmalloc(n);
    if (b & 0x80) {
        memset(t, 0, n);
        memcpy(t, f->tag, n < 16 ? n : 16);
        if ((b & 0x40) && n > 0)
            t[fz_u8(in) % n] ^= 1;
    } else {
        fz_take(in, t, n);
    }
    f->opv = (int)n + ((b & 0x20) ? 100 : 0);
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, (b & 0x20) ? NULL : t, n),
                        OSSL_PARAM_END };
    set_params(f, r, p);
    free(t);
}

static void op_pad(fzp *f, fz_in *in, fzp_res r[2])
{
    int v = fz_u8(in) & 1;
    f->opv = v;
    for (int s = 0; s < 2; s++) {
        r[s].ok = EVP_CIPHER_CTX_set_padding(f->x[s], v) == 1;
        side_done(s);
    }
}

static void op_keylen(fzp *f, fz_in *in, fzp_res r[2])
{
    static const int lens[8] = { 0, 8, 16, 24, 32, 48, 64, 15 };
    int v = lens[fz_u8(in) % 8];
    f->opv = v;
    /* EVP_CIPHER_CTX_set_key_length reads the context's cipher: none
     * (after a reset) is a refusal here, not a call */
    for (int s = 0; s < 2; s++) {
        r[s].ok = has_cipher(f->x[s]) && EVP_CIPHER_CTX_set_key_length(f->x[s], v) == 1;
        side_done(s);
    }
}

/* ctrl's return value is part of the result (the TLS AAD's pad). */
static void ctrl(fzp *f, fzp_res r[2], int type, int arg, void *ptr0, void *ptr1)
{
    for (int s = 0; s < 2; s++) {
        int v = EVP_CIPHER_CTX_ctrl(f->x[s], type, arg, s ? ptr1 : ptr0);
        r[s].ok = v > 0;
        r[s].n = v > 0 ? v : 0;
        side_done(s);
    }
}

static void op_tlsaad(fzp *f, fz_in *in, fzp_res r[2])
{
    static const int sizes[4] = { 0, 12, 14, 16 };
    uint8_t b = fz_u8(in);
    int size = (b & 3) ? 13 : sizes[(b >> 2) & 3];
    uint8_t *aad = xmalloc((size_t)size);
    fz_take(in, aad, (size_t)size);
    if (size >= 13) {   /* the record length: small or near a real record's */
        size_t len = fz_u16(in) % 400;
        aad[11] = (uint8_t)(len >> 8);
        aad[12] = (uint8_t)len;
    }
    f->opv = size;
    ctrl(f, r, EVP_CTRL_AEAD_TLS1_AAD, size, aad, aad);
    f->tls_aad |= r[0].ok;
    f->tls_pending = r[0].ok && r[1].ok && size == 13;
    free(aad);
}

static void op_ivfixed(fzp *f, fz_in *in, fzp_res r[2])
{
    static const int sizes[8] = { 4, 12, -1, 8, 0, 3, 16, 4 };
    int size = sizes[fz_u8(in) % 8];
    uint8_t *b = xmalloc(size < 0 ? 128 : (size_t)size);
    fz_take(in, b, size < 0 ? 128 : (size_t)size);
    f->opv = size;
    int enc = encrypting(f->x[0]);
    size_t ivlen = has_cipher(f->x[0]) ? (size_t)EVP_CIPHER_CTX_get_iv_length(f->x[0]) : 0;
    /* default 3.0's GCM takes a fixed part longer than its IV (the length
     * left for the random part wraps around): not asked */
    int dlen = has_cipher(f->x[1]) ? EVP_CIPHER_CTX_get_iv_length(f->x[1]) : 0;
    if (size > dlen) {
        free(b);
        r[0].ok = r[1].ok = 1;
        return;
    }
    ctrl(f, r, EVP_CTRL_GCM_SET_IV_FIXED, size, b, b);
    free(b);
    /* a fixed part shorter than the IV, encrypting: the rest is random;
     * in the middle of a message: what it does to the message differs */
    if (r[0].ok && r[1].ok && ((enc && size >= 0 && (size_t)size != ivlen) || f->midmsg) && f->sync) {
        compare(f, r);
        f->sync = 0;
    }
}

static void op_ivgen(fzp *f, fz_in *in, fzp_res r[2])
{
    /* 1..16 bytes: default 3.0 copies the whole IV for a length of 0 */
    size_t n = 1 + fz_u8(in) % 16;
    f->opv = (int)n;
    uint8_t *b[2] = { xmalloc(n), xmalloc(n) };
    memset(b[0], FZ_CANARY, n);
    memset(b[1], FZ_CANARY, n);
    ctrl(f, r, EVP_CTRL_GCM_IV_GEN, (int)n, b[0], b[1]);
    for (int s = 0; s < 2; s++)
        r[s].buf = b[s], r[s].len = n;
}

/* Parameter reads: the tag (0..17 bytes), IV and updated IV (a buffer of
 * 8, 12, 16 or 128 bytes), lengths, num. */
static void op_get(fzp *f, fz_in *in, fzp_res r[2])
{
    static const size_t ivbuf[4] = { 16, 12, 128, 8 };
    uint8_t b = fz_u8(in);
    unsigned what = b % 6;
    f->opv = (int)what;
    for (int s = 0; s < 2; s++) {
        EVP_CIPHER_CTX *x = f->x[s];
        size_t n = 0, v = 0;
        unsigned u = 0;
        OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
        switch (what) {
        case 0:
            n = (b >> 3) % 18;
            r[s].buf = xmalloc(n);
            memset(r[s].buf, FZ_CANARY, n);
            p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, r[s].buf, n);
            break;
        case 1:
        case 2:
            n = ivbuf[(b >> 3) & 3];
            r[s].buf = xmalloc(n);
            memset(r[s].buf, FZ_CANARY, n);
            p[0] = OSSL_PARAM_construct_octet_string(what == 1 ? OSSL_CIPHER_PARAM_UPDATED_IV : OSSL_CIPHER_PARAM_IV,
                                                     r[s].buf, n);
            break;
        case 3:
            /* the lengths EVP reads from the context (which must have a cipher) */
            r[s].ok = has_cipher(x);
            if (r[s].ok)
                r[s].n = EVP_CIPHER_CTX_get_iv_length(x) * 1000L + EVP_CIPHER_CTX_get_key_length(x);
            continue;
        case 4:
            p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &v);
            break;
        default:
            p[0] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &u);
            break;
        }
        r[s].ok = EVP_CIPHER_CTX_get_params(x, p) == 1;
        side_done(s);
        r[s].len = n;
        /* the values and bytes are compared, not return_size: default 3.0
         * leaves it unset for some (tag, ChaCha20's IV), incore for others */
        r[s].n = (long)(v + u);
    }
    /* an IV read that one side answers and the other leaves alone (a
     * buffer shorter than the IV, ECB, ChaCha20's updated IV) is not
     * compared: reads change nothing */
    if ((what == 1 || what == 2) && r[0].ok && r[1].ok) {
        int untouched = 0;
        for (int s = 0; s < 2; s++) {
            size_t k = 0;
            while (k < r[s].len && r[s].buf[k] == FZ_CANARY)
                k++;
            untouched |= k == r[s].len;
        }
        if (untouched)
            r[0].len = r[1].len = 0;
    }
    if (what == 4 && f->a->aead == AEAD_CP)
        r[0].n = r[1].n = 0;   /* default 3.0 answers 0 until a tag length is set */
    if (what == 0 && f->tls_aad && f->sync) {
        /* default 3.0 keeps a TLS AAD in its tag buffer: not compared */
        f->sync = 0;
        return;
    }
    if (what == 0 && r[0].ok && r[0].len > 0)
        memcpy(f->tag, r[0].buf, r[0].len < 16 ? r[0].len : 16);
}

/* The output of a data call that succeeded (its length within the
 * buffer) becomes the result; a failed call's buffer is freed. */
static void keep_output(const fzp *f, fzp_res *r, int s, uint8_t *out, int outl, size_t size)
{
    if (!r->ok) {
        free(out);
        return;
    }
    FZ_CHECK(outl >= 0 && (size_t)outl <= size, "%s step %d: %s %s wrote %d bytes into %zu", f->a->name, f->step,
             side_name[s], op_name[f->op], outl, size);
    r->n = outl;
    r->buf = out;
    r->len = (size_t)outl;
}

/* Update (aad 0) or AAD (aad 1, out NULL): output buffers of exactly the
 * size EVP_EncryptUpdate / EVP_DecryptUpdate document. */
static void op_update(fzp *f, fz_in *in, fzp_res r[2], int aad)
{
    uint8_t how = fz_u8(in);
    size_t len;
    uint8_t *d = data_in(f, in, how, &len);
    int inplace = (how >> 3) & 1;
    f->inplace = inplace;
    f->dlen = len;
    f->opv = how;
    for (int s = 0; s < 2 && len <= INT_MAX; s++) {
        EVP_CIPHER_CTX *x = f->x[s];
        int outl = -1;
        if (aad) {
            r[s].ok = EVP_CipherUpdate(x, NULL, &outl, d, (int)len) == 1;
            side_done(s);
            r[s].n = r[s].ok ? outl : 0;
            continue;
        }
        /* EVP documents inl + block size - 1 when encrypting, inl + block
         * size when decrypting with padding (here also without: padding
         * may be switched off after a block was held back for it) */
        size_t bs = f->a->bs, size = len;
        if (bs > 1)
            size = len + bs - (encrypting(x) ? 1 : 0);
        uint8_t *out = xmalloc(size);
        memset(out, FZ_CANARY, size);
        if (inplace && len > 0)
            memcpy(out, d, len);
        /* default 3.0's XTS calls a NULL block function without a key */
        r[s].ok = (!f->a->xts || f->keyed[s]) && EVP_CipherUpdate(x, out, &outl, inplace ? out : d, (int)len) == 1;
        side_done(s);
        keep_output(f, &r[s], s, out, outl, size);
    }
    free(d);
    if (!aad && r[0].ok)
        transcript_add(f, r[0].buf, r[0].len);
}

static void op_final(fzp *f, fzp_res r[2])
{
    size_t size = f->a->bs;
    for (int s = 0; s < 2; s++) {
        int outl = -1;
        uint8_t *out = xmalloc(size);
        memset(out, FZ_CANARY, size);
        r[s].ok = EVP_CipherFinal_ex(f->x[s], out, &outl) == 1;
        side_done(s);
        keep_output(f, &r[s], s, out, outl, size);
    }
    if (r[0].ok)
        transcript_add(f, r[0].buf, r[0].len);
}

/* EVP_CIPHER_CTX_copy, then the original freed: the copy must stand on
 * its own (shared key objects counted, nothing pointing into the old). */
static void op_copy(fzp *f, fzp_res r[2])
{
    for (int s = 0; s < 2; s++) {
        EVP_CIPHER_CTX *y = EVP_CIPHER_CTX_new();
        FZ_CHECK(y != NULL, "EVP_CIPHER_CTX_new");
        r[s].ok = EVP_CIPHER_CTX_copy(y, f->x[s]) == 1;
        side_done(s);
        if (r[s].ok) {
            EVP_CIPHER_CTX_free(f->x[s]);
            f->x[s] = y;
        } else {
            EVP_CIPHER_CTX_free(y);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* FZP_TRACE=1: each step's status, value and output length per side */
    static int trace = -1;
    if (trace < 0)
        trace = getenv("FZP_TRACE") != NULL;
    setup();
    fz_in in = { data, size };
    fzp f;
    memset(&f, 0, sizeof f);
    uint8_t sel = fz_u8(&in);
    f.ai = sel % NALGS;
    f.a = &algs[f.ai];
    int enc = !(fz_u8(&in) & 1);
    fz_take(&in, f.key, sizeof f.key);
    fz_take(&in, f.iv, 16);
    fz_expand(f.iv + 16, sizeof f.iv - 16, (uint64_t)f.iv[0] << 8 | f.iv[1]);
    if (f.a->xts && memcmp(f.key, f.key + f.a->keylen / 2, f.a->keylen / 2) == 0)
        f.key[f.a->keylen / 2] ^= 1;
    f.tr = xmalloc(FZP_TRANSCRIPT);
    f.sync = 1;
    for (int s = 0; s < 2; s++) {
        f.x[s] = EVP_CIPHER_CTX_new();
        FZ_CHECK(f.x[s] != NULL, "EVP_CIPHER_CTX_new");
    }
    /* step 0: the cipher, key and IV set up in the chosen direction */
    fzp_res r[2];
    memset(r, 0, sizeof r);
    for (int s = 0; s < 2; s++)
        f.keyed[s] = r[s].ok = EVP_CipherInit_ex2(f.x[s], ciphers[f.ai][s], f.key, f.a->ivlen ? f.iv : NULL, enc, NULL) == 1;
    f.op = OP_INIT;
    f.opv = -1;
    compare(&f, r);

    for (f.step = 1; f.step <= FZP_MAX_OPS && in.n > 0; f.step++) {
        memset(r, 0, sizeof r);
        f.op = (enum op)(fz_u8(&in) % OP_COUNT);
        f.opv = 0;
        f.dlen = 0;
        f.inplace = 0;
        ERR_clear_error();
        switch (f.op) {
        case OP_INIT: op_init(&f, &in, r); break;
        case OP_IVLEN: op_ivlen(&f, &in, r); break;
        case OP_TAG: op_tag(&f, &in, r); break;
        case OP_PAD: op_pad(&f, &in, r); break;
        case OP_KEYLEN: op_keylen(&f, &in, r); break;
        case OP_TLSAAD: op_tlsaad(&f, &in, r); break;
        case OP_IVFIXED: op_ivfixed(&f, &in, r); break;
        case OP_IVGEN: op_ivgen(&f, &in, r); break;
        case OP_GET: op_get(&f, &in, r); break;
        case OP_UPDATE:
        case OP_UPDATE2: op_update(&f, &in, r, 0); break;
        case OP_AAD:
            /* out NULL is AAD for the AEADs; default's other ciphers
             * would write to NULL, so they are not asked */
            if (f.a->aead)
                op_update(&f, &in, r, 1);
            else
                r[0].ok = r[1].ok = 1;
            break;
        case OP_FINAL: op_final(&f, r); break;
        case OP_COPY: op_copy(&f, r); break;
        case OP_RESET:
            f.keyed[0] = f.keyed[1] = 0;
            for (int s = 0; s < 2; s++)
                r[s].ok = EVP_CIPHER_CTX_reset(f.x[s]) == 1;
            break;
        default: {
            uint8_t b = fz_u8(&in);
            if (b & 1)
                f.trlen = 0;
            f.trpos = 0;
            r[0].ok = r[1].ok = 1;
            break;
        }
        }
        /* a message streamed after a TLS record on the same context:
         * default 3.0's ChaCha20-Poly1305 goes on from the record's nonce
         * and counter, incore starts the message at the IV set */
        int dataop = f.op == OP_UPDATE || f.op == OP_UPDATE2 || f.op == OP_AAD || f.op == OP_FINAL;
        if (dataop && f.tls_record && !f.tls_pending && f.sync && r[0].ok && r[1].ok)
            f.sync = 0;
        if (f.op == OP_IVLEN && f.midmsg)
            f.aead_relaxed = 1;
        /* an init drops a pending TLS AAD in incore; default keeps it and
         * takes the next data as the record */
        if (f.op == OP_INIT && f.tls_pending && r[0].ok && r[1].ok && f.sync) {
            compare(&f, r);
            f.sync = 0;
        }
        if (dataop && f.tls_pending) {
            f.tls_pending = 0;
            f.tls_record = 1;
        }
        if (trace)
            fprintf(stderr, "step %d: %s (detail %d, %zu bytes): incore %d/%ld/%zu, default %d/%ld/%zu%s\n", f.step,
                    op_name[f.op], f.opv, f.dlen, r[0].ok, r[0].n, r[0].len, r[1].ok, r[1].n, r[1].len,
                    f.sync ? "" : " (not compared)");
        compare(&f, r);
        if ((f.op == OP_UPDATE || f.op == OP_UPDATE2 || f.op == OP_AAD) && (r[0].ok || r[1].ok))
            f.midmsg = 1;
        if ((f.op == OP_FINAL && r[0].ok && r[1].ok) || (f.op == OP_INIT && (f.opv & 4)) || f.op == OP_RESET)
            f.midmsg = 0;
        for (int s = 0; s < 2; s++)
            free(r[s].buf);
    }
    for (int s = 0; s < 2; s++)
        EVP_CIPHER_CTX_free(f.x[s]);
    free(f.tr);
    ERR_clear_error();
    return 0;
}
