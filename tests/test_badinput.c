/*
 * test_badinput.c - the "Bad input" rules of docs/architecture.md and the order of
 * argument checks of incore/common.h, as one table over the public API.
 *
 * A row names a public function, the faults put into an otherwise valid
 * call, and the status the headers document for them:
 *   1. context or key: NULL -> IC_ERR_NULL; never initialised (all zero or
 *      0xA5 garbage) or wiped / finalised -> IC_ERR_STATE, touching nothing;
 *   2. NULL data with a non-zero length -> IC_ERR_NULL (NULL with 0 is fine);
 *   3. key length, IV length, tag length, block multiple, the mode's limit;
 *   4. partial overlap -> IC_ERR_OVERLAP (exact in-place works);
 *   5. call order of a streaming context -> IC_ERR_STATE;
 *   6. authentication -> IC_ERR_AUTH, no plaintext released.
 * Rows with several faults expect the status of the first step that fails.
 *
 * How a row is checked: it runs in a child process (a crash is a failed
 * row, not a dead test).  Outputs (out, tag, digest, okm, ...) end flush
 * against a PROT_NONE page and are pre-filled with FILL; inputs too end at
 * a PROT_NONE page, so an over-long length that is not refused before the
 * first byte faults.  After a refused call (steps 1-5): every output still
 * holds FILL, the input and IV are unchanged, and the context (when there
 * is one) is byte for byte what it was.  After IC_ERR_AUTH from an open:
 * out is all zero.  After IC_OK: the result equals the same call made
 * without the fault (NULL with 0 -> a real empty buffer, in place -> out
 * of place), including the tag the stream ends with.
 *
 * Coverage: every function declared IC_API in the headers (include/incore) must
 * appear in some row; the test reads the headers and fails on any function
 * without one (so a new function needs its rows).  Functions without a
 * status (void one-shots, wipes, CRCs, enumeration) have rows that check
 * their documented fallback (no crash, zero tag, NULL name, ...).
 *
 * Places where the headers do not say which status applies, and the
 * choice made here from common.h's order, are marked "GAP:".
 */
#include "testlib.h"
#include "rsa_testkey.h"

#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILL 0x5c
#define CAP_HUGE 64          /* bytes really allocated behind a huge length */

/* ---- faults ------------------------------------------------------------- */
enum {
    C_NULL = 1u << 0,   /* context / key pointer NULL                     */
    C_ZERO = 1u << 1,   /* context all zero bytes, never initialised       */
    C_JUNK = 1u << 2,   /* context full of 0xA5                            */
    C_WIPED = 1u << 3,  /* initialised, then wiped (or finalised)          */
    K_NULL = 1u << 4,   /* key NULL (length kept)                          */
    V_NULL = 1u << 5,   /* IV / nonce NULL                                 */
    A_NULL = 1u << 6,   /* AAD / info / salt NULL                          */
    I_NULL = 1u << 7,   /* input NULL                                      */
    O_NULL = 1u << 8,   /* output NULL                                     */
    T_NULL = 1u << 9,   /* tag / digest / prk NULL                         */
    EMPTY = 1u << 10,   /* every data length 0 and its pointer NULL        */
    KLEN = 1u << 11,    /* key length = n                                  */
    VLEN = 1u << 12,    /* IV length = n                                   */
    TLEN = 1u << 13,    /* tag length = n                                  */
    LEN = 1u << 14,     /* data length = n (SIZE_MAX for n == -1)          */
    ALEN = 1u << 15,    /* AAD / info length = n (SIZE_MAX for -1)         */
    OVL = 1u << 16,     /* out = in + 1: partial overlap                   */
    INPL = 1u << 17,    /* out = in                                        */
    P_NOSTART = 1u << 18,  /* streaming: key set, no message started       */
    P_ENC = 1u << 19,      /* streaming: some data encrypted               */
    P_DEC = 1u << 20,      /* streaming: some data decrypted               */
    P_END = 1u << 21,      /* streaming: message finished                  */
    BADTAG = 1u << 22,     /* the tag to verify is wrong                   */
    ALG = 1u << 23,        /* hash algorithm not an ic_hash_alg            */
    VARIANT = 1u << 24,    /* SHA context set up by a sibling variant       */
    CTR = 1u << 25,        /* stream counter = n, and 65 bytes of data     */
    OVL_INFO = 1u << 26,   /* HKDF: okm overlaps info                      */
    OVL_PRK = 1u << 27,    /* HKDF: okm == prk (allowed)                   */
    CTR_HIGH = 1u << 28,   /* stream counter 2^32-2 / 2^64-2, length kept  */
    EQKEY = 1u << 29,      /* XTS: the two key halves equal                */
    BNVAL = 1u << 30,      /* big numbers: the value fault BV_* n          */
};
/* Streaming AEADs: the key object the context points to is wiped (n 0),
 * for AES-GCM also 0xA5 garbage (1) or zeroed (2), once the message is
 * under way (for an init row: before the init).  Bit 31, outside the enum,
 * whose constants must fit an int. */
#define K_WIPED (1u << 31)
/* The values BNVAL puts into a big-number call (row field n). */
enum { BV_EVEN = 1, BV_ONE, BV_TWO, BV_LEADZERO, BV_BASE_N, BV_BASE_ONES, BV_EXP_ZERO, BV_BASE_N_EXP_ZERO };
#define C_ANY (C_NULL | C_ZERO | C_JUNK | C_WIPED)

typedef struct row {
    const char *fn;
    unsigned f;
    long long n;
    int want;
    const char *rule;
} row;

/* ---- the fixture of one row ----------------------------------------------- */
typedef struct {
    const row *r;
    uint8_t key[256], iv[32], iv0[32], aad[48];
    const uint8_t *k, *a;
    uint8_t *v;
    size_t klen, vlen, alen;
    uint8_t *ibuf, *obuf, *src;   /* guarded; src: the input bytes before the call */
    size_t icap, ocap;            /* bytes allocated in ibuf / obuf */
    const uint8_t *i;
    uint8_t *o;
    size_t len;
    uint8_t *tbuf, *t;            /* guarded tag / digest buffer of TCAP bytes */
    size_t tlen;
    void *ctx;                    /* compared with snap after a refusal */
    size_t ctxsize;
    uint8_t snap[16384];          /* the largest context: an RSA private key */
    int alg;
    unsigned long long ctr;
} fx;
#define TCAP 64
/* a set-up or reference call that must succeed */
#define MUST(call) CHECK((call) == IC_OK, "set-up call failed: %s", #call)

static size_t size_of(long long n) { return n < 0 ? SIZE_MAX : (size_t)n; }

/* Defaults of a valid call, then the row's faults. */
static void fx_make(fx *x, const row *r, size_t klen, size_t vlen, size_t alen, size_t len, size_t tlen)
{
    memset(x, 0, sizeof *x);
    x->r = r;
    tl_rand_bytes(x->key, sizeof x->key);
    tl_rand_bytes(x->iv, sizeof x->iv);
    tl_rand_bytes(x->aad, sizeof x->aad);
    x->klen = r->f & KLEN ? size_of(r->n) : klen;
    x->vlen = r->f & VLEN ? size_of(r->n) : vlen;
    x->alen = r->f & ALEN ? size_of(r->n) : alen;
    x->len = r->f & LEN ? size_of(r->n) : len;
    x->tlen = r->f & TLEN ? size_of(r->n) : tlen;
    x->alg = r->f & ALG ? 99 : IC_HASH_SHA256;
    x->ctr = r->f & CTR ? (unsigned long long)r->n : r->f & CTR_HIGH ? (unsigned long long)-2 : 0;
    if (r->f & CTR)
        x->len = 65;
    if (r->f & EMPTY)
        x->len = x->alen = 0;
    x->k = r->f & K_NULL ? NULL : x->key;
    x->v = r->f & V_NULL ? NULL : x->iv;
    x->a = r->f & (A_NULL | EMPTY) ? NULL : x->aad;
    memcpy(x->iv0, x->iv, sizeof x->iv);
    size_t cap = x->len <= 16384 ? x->len : CAP_HUGE;
    x->icap = cap + (r->f & OVL ? 1 : 0);
    x->ibuf = tl_guarded_alloc(x->icap, 0);
    tl_rand_bytes(x->ibuf, x->icap);
    x->src = tl_xmalloc(x->icap);
    x->ocap = cap;
    x->obuf = tl_guarded_alloc(cap, FILL);
    x->i = r->f & (I_NULL | EMPTY) ? NULL : x->ibuf;
    x->o = r->f & (O_NULL | EMPTY) ? NULL : x->obuf;
    if (r->f & OVL)
        x->o = x->ibuf + 1;
    if (r->f & INPL)
        x->o = x->ibuf;
    x->tbuf = tl_guarded_alloc(TCAP, FILL);
    x->t = r->f & T_NULL ? NULL : x->tbuf + TCAP - (x->tlen <= TCAP ? x->tlen : TCAP);
}

/* Called by a runner right before the call under test. */
static void fx_arm(fx *x, void *ctx, size_t size)
{
    memcpy(x->src, x->ibuf, x->icap);
    x->ctx = ctx;
    x->ctxsize = size;
    if (ctx) {
        if (size > sizeof x->snap)
            abort();
        memcpy(x->snap, ctx, size);
    }
}

/* The checks after a refused call (steps 1-5 write nothing). */
static void fx_refused(const fx *x, const char *w)
{
    CHECK(memcmp(x->ibuf, x->src, x->icap) == 0, "%s: input changed", w);
    if (!(x->r->f & (OVL | INPL)))
        CHECK(tl_all_byte(x->obuf, x->ocap, FILL), "%s: output written", w);
    CHECK(tl_all_byte(x->tbuf, TCAP, FILL), "%s: tag / digest written", w);
    CHECK(memcmp(x->iv, x->iv0, sizeof x->iv) == 0, "%s: IV / counter changed", w);
    if (x->ctx)
        CHECK(memcmp(x->ctx, x->snap, x->ctxsize) == 0, "%s: context changed", w);
}

/* Apply the context fault of the row to ctx (already set up when good);
 * wipe is how this kind is wiped; returns the pointer to pass. */
static void *ctx_fault(const fx *x, void *ctx, size_t size, void (*wipe)(void *))
{
    if (x->r->f & C_NULL)
        return NULL;
    if (x->r->f & C_ZERO)
        memset(ctx, 0, size);
    if (x->r->f & C_JUNK)
        memset(ctx, 0xa5, size);
    if (x->r->f & C_WIPED && wipe)
        wipe(ctx);
    return ctx;
}

/* ---- AES ---------------------------------------------------------------- */
static void aes_wipe_v(void *k) { ic_aes_key_wipe(k); }

static int aes_call(const char *fn, const ic_aes_key *k, uint8_t *iv, uint8_t *o, const uint8_t *i, size_t len)
{
    if (!strcmp(fn, "ic_aes_ecb_encrypt")) return ic_aes_ecb_encrypt(k, o, i, len);
    if (!strcmp(fn, "ic_aes_ecb_decrypt")) return ic_aes_ecb_decrypt(k, o, i, len);
    if (!strcmp(fn, "ic_aes_cbc_encrypt")) return ic_aes_cbc_encrypt(k, o, i, len, iv);
    if (!strcmp(fn, "ic_aes_cbc_decrypt")) return ic_aes_cbc_decrypt(k, o, i, len, iv);
    if (!strcmp(fn, "ic_aes_ctr_crypt")) return ic_aes_ctr_crypt(k, o, i, len, iv);
    if (!strcmp(fn, "ic_aes_cfb128_encrypt")) return ic_aes_cfb128_encrypt(k, o, i, len, iv);
    if (!strcmp(fn, "ic_aes_cfb128_decrypt")) return ic_aes_cfb128_decrypt(k, o, i, len, iv);
    if (!strcmp(fn, "ic_aes_ofb_crypt")) return ic_aes_ofb_crypt(k, o, i, len, iv);
    abort();
}

static int block_mode(const char *fn) { return strstr(fn, "_ecb_") || strstr(fn, "_cbc_"); }

static int run_aes_mode(fx *x, const char *w)
{
    const char *fn = x->r->fn;
    static ic_aes_key k, ref;
    fx_make(x, x->r, 16, 16, 0, block_mode(fn) ? 48 : 37, 0);
    CHECK(ic_aes_key_init(&k, x->key, 16) == IC_OK, "%s: setup", w);
    ic_aes_key *kp = ctx_fault(x, &k, sizeof k, aes_wipe_v);
    fx_arm(x, kp, sizeof k);
    int st = aes_call(fn, kp, x->v, x->o, x->i, x->len);
    if (st == IC_OK && x->r->want == IC_OK) {
        /* the same call on a fresh key, out of place, real buffers */
        uint8_t out[64], iv[16], in[64] = {0};
        memcpy(iv, x->iv0, 16);
        memcpy(in, x->src, x->len);
        MUST(ic_aes_key_init(&ref, x->key, 16));
        CHECK(aes_call(fn, &ref, iv, out, in, x->len) == IC_OK, "%s: reference", w);
        CHECK_MEM(x->o ? x->o : out, out, x->len, "%s: result", w);
        CHECK_MEM(x->iv, iv, 16, "%s: IV after", w);
    }
    return st;
}

static int run_aes_init(fx *x, const char *w)
{
    static ic_aes_key k;
    fx_make(x, x->r, 16, 0, 0, 0, 0);
    memset(&k, 0xa5, sizeof k);
    int st = ic_aes_key_init(x->r->f & C_NULL ? NULL : &k, x->k, x->klen);
    uint8_t blk[16] = {0}, out[16];
    if (st != IC_OK && !(x->r->f & C_NULL))
        CHECK(ic_aes_ecb_encrypt(&k, out, blk, 16) == IC_ERR_STATE, "%s: key usable after a failed init", w);
    if (st == IC_OK)
        CHECK(ic_aes_ecb_encrypt(&k, out, blk, 16) == IC_OK, "%s: key unusable after init", w);
    return st;
}

/* ---- XTS-AES ------------------------------------------------------------------ */
static void xts_wipe_v(void *k) { ic_aes_xts_key_wipe(k); }

static int xts_call(const char *fn, const ic_aes_xts_key *k, const uint8_t *tw, uint8_t *o, const uint8_t *i,
                    size_t len)
{
    uint64_t sector = 0x0123456789abcdefull;
    if (!strcmp(fn, "ic_aes_xts_encrypt")) return ic_aes_xts_encrypt(k, o, i, len, tw);
    if (!strcmp(fn, "ic_aes_xts_decrypt")) return ic_aes_xts_decrypt(k, o, i, len, tw);
    if (!strcmp(fn, "ic_aes_xts_encrypt_sector")) return ic_aes_xts_encrypt_sector(k, o, i, len, sector);
    if (!strcmp(fn, "ic_aes_xts_decrypt_sector")) return ic_aes_xts_decrypt_sector(k, o, i, len, sector);
    abort();
}

static void xts_key_bytes(fx *x)
{
    if (x->r->f & EQKEY)
        memcpy(x->key + x->klen / 2, x->key, x->klen / 2 <= 128 ? x->klen / 2 : 128);
}

static int run_xts_init(fx *x, const char *w)
{
    static ic_aes_xts_key k;
    fx_make(x, x->r, 32, 0, 0, 0, 0);
    xts_key_bytes(x);
    memset(&k, 0xa5, sizeof k);
    int st = ic_aes_xts_key_init(x->r->f & C_NULL ? NULL : &k, x->k, x->klen);
    uint8_t tw[16] = {0}, blk[32] = {0}, out[32];
    if (st != IC_OK && !(x->r->f & C_NULL))
        CHECK(ic_aes_xts_encrypt(&k, out, blk, 32, tw) == IC_ERR_STATE, "%s: key usable after a failed init", w);
    if (st == IC_OK)
        CHECK(ic_aes_xts_encrypt(&k, out, blk, 32, tw) == IC_OK, "%s: key unusable after init", w);
    return st;
}

/* 37 bytes by default: two whole blocks and a stolen 5-byte tail. */
static int run_xts(fx *x, const char *w)
{
    const char *fn = x->r->fn;
    static ic_aes_xts_key k, ref;
    fx_make(x, x->r, 32, 16, 0, 37, 0);
    CHECK(ic_aes_xts_key_init(&k, x->key, 32) == IC_OK, "%s: setup", w);
    ic_aes_xts_key *kp = ctx_fault(x, &k, sizeof k, xts_wipe_v);
    fx_arm(x, kp, sizeof k);
    int st = xts_call(fn, kp, x->v, x->o, x->i, x->len);
    if (st == IC_OK && x->r->want == IC_OK) {
        uint8_t out[64], in[64] = {0};
        memcpy(in, x->src, x->len);
        MUST(ic_aes_xts_key_init(&ref, x->key, 32));
        CHECK(xts_call(fn, &ref, x->iv0, out, in, x->len) == IC_OK, "%s: reference", w);
        CHECK_MEM(x->o, out, x->len, "%s: result", w);
        CHECK(memcmp(x->iv, x->iv0, 16) == 0, "%s: tweak changed", w);
    }
    return st;
}

/* ---- AES-GCM ---------------------------------------------------------------- */
static void gcm_wipe_v(void *c) { ic_aes_gcm_wipe(c); }

/* The key object of the streaming rows and the reference. */
static ic_aes_gcm_key gcm_sk, gcm_refk;

/* Bring c to the phase the row asks for: the key object k set (always),
 * then (unless P_NOSTART, or for init rows without P_ENC) a message begun,
 * its AAD, some data, its end. */
static void gcm_phase(fx *x, ic_aes_gcm_ctx *c, ic_aes_gcm_key *k, const char *w)
{
    uint8_t d[5] = {1, 2, 3, 4, 5}, tag[16];
    int init = !strcmp(x->r->fn, "ic_aes_gcm_init");
    CHECK(ic_aes_gcm_key_init(k, x->key, 16) == IC_OK, "%s: setup key", w);
    if (x->r->f & P_NOSTART || (init && !(x->r->f & P_ENC)))
        return;
    CHECK(ic_aes_gcm_init(c, k, x->iv0, 12) == IC_OK, "%s: setup init", w);
    CHECK(ic_aes_gcm_aad(c, x->aad, 7) == IC_OK, "%s: setup aad", w);
    if (x->r->f & P_ENC)
        CHECK(ic_aes_gcm_encrypt(c, d, d, 5) == IC_OK, "%s: setup encrypt", w);
    if (x->r->f & P_DEC || (!strcmp(x->r->fn, "ic_aes_gcm_final_verify") && !(x->r->f & P_ENC)))
        CHECK(ic_aes_gcm_decrypt(c, d, d, 5) == IC_OK, "%s: setup decrypt", w);
    if (x->r->f & P_END)
        CHECK(ic_aes_gcm_final(c, tag, 16) == IC_OK, "%s: setup final", w);
}

/* K_WIPED: the key object k wiped (n 0), 0xA5 garbage (n 1) or zero-filled
 * (n 2) after the phase: for a context in a message, its key is gone. */
static void gcm_key_fault(const fx *x, ic_aes_gcm_key *k)
{
    if (!(x->r->f & K_WIPED))
        return;
    if (x->r->n == 0)
        ic_aes_gcm_key_wipe(k);
    else
        memset(k, x->r->n == 1 ? 0xa5 : 0, sizeof *k);
}

static int gcm_stream_call(const fx *x, ic_aes_gcm_ctx *c, const ic_aes_gcm_key *k, const uint8_t *tagin)
{
    const char *fn = x->r->fn;
    if (!strcmp(fn, "ic_aes_gcm_init")) return ic_aes_gcm_init(c, x->r->f & K_NULL ? NULL : k, x->v, x->vlen);
    if (!strcmp(fn, "ic_aes_gcm_aad")) return ic_aes_gcm_aad(c, x->a, x->alen);
    if (!strcmp(fn, "ic_aes_gcm_encrypt")) return ic_aes_gcm_encrypt(c, x->o, x->i, x->len);
    if (!strcmp(fn, "ic_aes_gcm_decrypt")) return ic_aes_gcm_decrypt(c, x->o, x->i, x->len);
    if (!strcmp(fn, "ic_aes_gcm_final")) return ic_aes_gcm_final(c, x->t, x->tlen);
    if (!strcmp(fn, "ic_aes_gcm_final_verify")) return ic_aes_gcm_final_verify(c, tagin, x->tlen);
    abort();
}

/* The right tag of what gcm_phase fed in (decrypting d gives p; the tag is
 * over the ciphertext d, so seal p), or a wrong one. */
static void gcm_good_tag(const fx *x, uint8_t good[16])
{
    ic_aes_gcm_key tk;
    ic_aes_gcm_ctx tmp;
    uint8_t d[5] = {1, 2, 3, 4, 5};
    MUST(ic_aes_gcm_key_init(&tk, x->key, 16));
    MUST(ic_aes_gcm_init(&tmp, &tk, x->iv0, 12)), MUST(ic_aes_gcm_aad(&tmp, x->aad, 7));
    MUST(ic_aes_gcm_decrypt(&tmp, d, d, 5));
    MUST(ic_aes_gcm_init(&tmp, &tk, x->iv0, 12)), MUST(ic_aes_gcm_aad(&tmp, x->aad, 7));
    MUST(ic_aes_gcm_encrypt(&tmp, d, d, 5));
    MUST(ic_aes_gcm_final(&tmp, good, 16));
    if (x->r->f & BADTAG)
        good[15] ^= 1;
    ic_aes_gcm_key_wipe(&tk);
}

/* After a successful call: the same call without the fault on a reference
 * context gives the same output and the same tag at the end. */
static void gcm_same_as_reference(fx *x, ic_aes_gcm_ctx *c, const char *w)
{
    static ic_aes_gcm_ctx ref;
    const char *fn = x->r->fn;
    uint8_t out[64], in[64] = {0}, e[1] = {0}, t1[16], t2[16], t3[16];
    memcpy(in, x->src, x->len < 64 ? x->len : 0);
    gcm_phase(x, &ref, &gcm_refk, w);
    fx copy = *x;
    copy.a = x->a ? x->a : e;
    copy.i = in, copy.o = out, copy.v = x->v ? x->v : e, copy.t = t3;
    CHECK(gcm_stream_call(&copy, &ref, &gcm_refk, NULL) == IC_OK, "%s: reference", w);
    if (x->o && x->len && strstr(fn, "crypt"))
        CHECK_MEM(x->o, out, x->len, "%s: output", w);
    if (!strcmp(fn, "ic_aes_gcm_final")) {
        CHECK_MEM(x->t, copy.t, x->tlen, "%s: tag", w);
        return;
    }
    int dec = (x->r->f & P_DEC) || !strcmp(fn, "ic_aes_gcm_decrypt");
    if (dec) {
        CHECK(ic_aes_gcm_final_verify(c, t1, 16) == IC_ERR_AUTH && ic_aes_gcm_final_verify(&ref, t1, 16) == IC_ERR_AUTH,
              "%s: final_verify after", w);
    } else {
        CHECK(ic_aes_gcm_final(c, t1, 16) == IC_OK && ic_aes_gcm_final(&ref, t2, 16) == IC_OK, "%s: final after", w);
        CHECK_MEM(t1, t2, 16, "%s: tag after", w);
    }
}

static int run_gcm_stream(fx *x, const char *w)
{
    static ic_aes_gcm_ctx c;
    const char *fn = x->r->fn;
    int init = !strcmp(fn, "ic_aes_gcm_init");
    fx_make(x, x->r, 16, 12, 9, 37, 16);
    gcm_phase(x, &c, &gcm_sk, w);
    if (init && !(x->r->f & (C_ANY | P_ENC)))
        memset(&c, 0xa5, sizeof c);   /* init takes any memory: start from garbage */
    ic_aes_gcm_ctx *cp = ctx_fault(x, &c, sizeof c, gcm_wipe_v);
    gcm_key_fault(x, &gcm_sk);
    const uint8_t *tagin = NULL;
    uint8_t good[TCAP] = {0};
    if (!strcmp(fn, "ic_aes_gcm_final_verify") && x->t) {
        gcm_good_tag(x, good);   /* the tag buffer stays untouched (FILL) for the refusal checks */
        tagin = good;
    }
    /* init wipes the context first, refused or not: not compared */
    fx_arm(x, init ? NULL : cp, sizeof c);
    int st = gcm_stream_call(x, cp, &gcm_sk, tagin);
    if (init && st != IC_OK && cp)
        CHECK(tl_all_byte(cp, sizeof c, 0) && ic_aes_gcm_aad(cp, NULL, 0) == IC_ERR_STATE,
              "%s: a refused init left the context other than wiped", w);
    if (st == IC_OK && x->r->want == IC_OK && strcmp(fn, "ic_aes_gcm_final_verify"))
        gcm_same_as_reference(x, cp, w);
    return st;
}

static void gcm_key_wipe_v(void *k) { ic_aes_gcm_key_wipe(k); }

/* The one-shot calls, with a raw key (ic_aes_gcm_seal / _open) or through
 * a key object (ic_aes_gcm_key_seal / _open: the same rows but the key
 * ones, plus a NULL, garbage or wiped key object, which every call must
 * leave unchanged).  A call that succeeds gives what the raw-key call with
 * real buffers gives. */
static int run_gcm_oneshot(fx *x, const char *w)
{
    static ic_aes_gcm_key k;
    int open = strstr(x->r->fn, "_open") != NULL, keyed = strstr(x->r->fn, "_key_") != NULL;
    ic_aes_gcm_key *kp = NULL;
    fx_make(x, x->r, 16, 12, 9, 37, 16);
    uint8_t good[16];
    if (open) {
        /* the input becomes a real ciphertext with its tag */
        size_t n = x->len <= x->icap ? x->len : 0;
        size_t vl = x->vlen >= 1 && x->vlen <= 32 ? x->vlen : 12, al = x->alen <= 48 ? x->alen : 0;
        int sr = ic_aes_gcm_seal(x->ibuf, good, 16, x->ibuf, n, x->aad, al, x->iv, vl, x->key, 16);
        CHECK(sr == IC_OK, "%s: setup seal", w);
        if (x->r->f & BADTAG)
            good[0] ^= 0x80;
        if (x->t)
            memcpy(x->t, good, x->tlen < 16 ? x->tlen : 16);
    }
    if (keyed) {
        MUST(ic_aes_gcm_key_init(&k, x->key, 16));
        kp = ctx_fault(x, &k, sizeof k, gcm_key_wipe_v);
    }
    fx_arm(x, kp, sizeof k);
    int st;
    if (open) {
        uint8_t tagin[TCAP];
        memcpy(tagin, x->tbuf, TCAP);
        memset(x->tbuf, FILL, TCAP);   /* the tag is input: compare the rest */
        const uint8_t *t = x->t ? tagin + (x->t - x->tbuf) : NULL;
        st = keyed ? ic_aes_gcm_key_open(kp, x->o, t, x->tlen, x->i, x->len, x->a, x->alen, x->v, x->vlen)
                   : ic_aes_gcm_open(x->o, t, x->tlen, x->i, x->len, x->a, x->alen, x->v, x->vlen, x->k,
                                     x->klen);
    } else {
        st = keyed ? ic_aes_gcm_key_seal(kp, x->o, x->t, x->tlen, x->i, x->len, x->a, x->alen, x->v, x->vlen)
                   : ic_aes_gcm_seal(x->o, x->t, x->tlen, x->i, x->len, x->a, x->alen, x->v, x->vlen, x->k,
                                     x->klen);
    }
    if (kp)
        CHECK(memcmp(kp, x->snap, sizeof k) == 0, "%s: key object changed", w);
    if (st == IC_ERR_AUTH && x->r->want == IC_ERR_AUTH)
        CHECK(x->o == NULL || tl_all_byte(x->o, x->len, 0), "%s: out not zeroed after IC_ERR_AUTH", w);
    if (st == IC_OK && x->r->want == IC_OK) {
        uint8_t out[64], tag[16], e[1] = {0};
        size_t n = x->len;
        const uint8_t *a = x->a ? x->aad : e;
        int r = open ? ic_aes_gcm_open(out, good, x->tlen, n ? x->src : e, n, a, x->alen, x->iv, x->vlen,
                                       x->key, 16)
                     : ic_aes_gcm_seal(out, tag, x->tlen, n ? x->src : e, n, a, x->alen, x->iv, x->vlen, x->key,
                                       16);
        CHECK(r == IC_OK, "%s: reference %d", w, r);
        if (n)
            CHECK_MEM(x->o, out, n, "%s: output", w);
        if (!open)
            CHECK_MEM(x->t, tag, x->tlen, "%s: tag", w);
    }
    return st;
}

/* ---- AES-GCM with a reusable key ------------------------------------------- */

static int run_gcm_key_init(fx *x, const char *w)
{
    static ic_aes_gcm_key k;
    uint8_t iv[12] = {0}, tag[16];
    fx_make(x, x->r, 16, 0, 0, 0, 0);
    memset(&k, 0xa5, sizeof k);
    int st = ic_aes_gcm_key_init(x->r->f & C_NULL ? NULL : &k, x->k, x->klen);
    if (st != IC_OK && !(x->r->f & C_NULL))
        CHECK(ic_aes_gcm_key_seal(&k, NULL, tag, 16, NULL, 0, NULL, 0, iv, 12) == IC_ERR_STATE,
              "%s: key usable after a failed init", w);
    if (st == IC_OK)
        CHECK(ic_aes_gcm_key_seal(&k, NULL, tag, 16, NULL, 0, NULL, 0, iv, 12) == IC_OK,
              "%s: key unusable after init", w);
    return st;
}

/* ---- SHA family and ic_hash ----------------------------------------------- */
typedef struct {
    const char *name;     /* "sha256" */
    int kind;             /* 1, 256, 512: which ctx struct */
    size_t dsize;
    int (*init)(void *);
    int (*update)(void *, const uint8_t *, size_t);
    int (*final)(void *, uint8_t *);
    int (*oneshot)(uint8_t *, const uint8_t *, size_t);
    const char *sibling;  /* a variant sharing the ctx type */
} sha_v;

#define SHA_WRAP(n)                                                                                 \
    static int n##_i(void *c) { return ic_##n##_init((ic_##n##_ctx *)c); }                        \
    static int n##_u(void *c, const uint8_t *p, size_t l) { return ic_##n##_update((ic_##n##_ctx *)c, p, l); } \
    static int n##_f(void *c, uint8_t *o) { return ic_##n##_final((ic_##n##_ctx *)c, o); }
SHA_WRAP(sha1)
SHA_WRAP(sha224)
SHA_WRAP(sha256)
SHA_WRAP(sha384)
SHA_WRAP(sha512)
SHA_WRAP(sha512_224)
SHA_WRAP(sha512_256)
#define SHA_ROW(n, kind, d, sib) { #n, kind, d, n##_i, n##_u, n##_f, ic_##n, sib }
static const sha_v shas[] = {
    SHA_ROW(sha1, 1, 20, NULL), SHA_ROW(sha224, 256, 28, "sha256"), SHA_ROW(sha256, 256, 32, "sha224"),
    SHA_ROW(sha384, 512, 48, "sha512"), SHA_ROW(sha512, 512, 64, "sha384"),
    SHA_ROW(sha512_224, 512, 28, "sha512_256"), SHA_ROW(sha512_256, 512, 32, "sha512_224"),
};
static const uint8_t ABC[3] = { 'a', 'b', 'c' };

/* The variant of "ic_<variant>_<op>" and the op. */
static const sha_v *sha_of(const char *fn, const char **op)
{
    const sha_v *best = NULL;
    for (size_t i = 0; i < sizeof shas / sizeof shas[0]; i++) {
        size_t l = strlen(shas[i].name);
        if (!strncmp(fn + 3, shas[i].name, l) && (fn[3 + l] == 0 || fn[3 + l] == '_') &&
            (!best || l > strlen(best->name)) && (fn[3 + l] == 0 || strchr("iuf", fn[4 + l]))) {
            best = &shas[i];
            *op = fn[3 + l] ? fn + 4 + l : "";
        }
    }
    return best;
}

static const sha_v *sha_named(const char *n)
{
    for (size_t i = 0; i < sizeof shas / sizeof shas[0]; i++)
        if (!strcmp(shas[i].name, n))
            return &shas[i];
    abort();
}

static size_t sha_ctx_size(int kind)
{
    return kind == 1 ? sizeof(ic_sha1_ctx) : kind == 256 ? sizeof(ic_sha256_ctx) : sizeof(ic_sha512_ctx);
}

/* The fixed-size one-shot: on IC_OK the streamed digest of the same input. */
static int run_sha_oneshot(fx *x, const sha_v *s, const char *w)
{
    static union { ic_sha1_ctx a; ic_sha256_ctx b; ic_sha512_ctx c; } ref;
    uint8_t want[64];
    fx_arm(x, NULL, 0);
    int st = s->oneshot(x->t, x->i, x->len);
    if (st == IC_OK) {
        MUST(s->init(&ref)), MUST(s->update(&ref, x->src, x->len)), MUST(s->final(&ref, want));
        CHECK_MEM(x->t, want, s->dsize, "%s: digest", w);
    }
    return st;
}

static int run_sha(fx *x, const char *w)
{
    const char *op = "";
    const sha_v *s = sha_of(x->r->fn, &op);
    static union { ic_sha1_ctx a; ic_sha256_ctx b; ic_sha512_ctx c; } u, ref;
    size_t cs = sha_ctx_size(s->kind);
    fx_make(x, x->r, 0, 0, 0, 37, s->dsize);
    uint8_t want[64], got[64];
    if (!*op)
        return run_sha_oneshot(x, s, w);
    if (!strcmp(op, "init")) {
        memset(&u, 0xa5, sizeof u);
        fx_arm(x, NULL, 0);
        int st = s->init(x->r->f & C_NULL ? NULL : &u);
        if (st == IC_OK)
            CHECK(s->update(&u, ABC, 3) == IC_OK, "%s: unusable after init", w);
        return st;
    }
    /* update / final: a context that absorbed "abc" (through the sibling
     * variant for VARIANT rows) */
    const sha_v *setup = x->r->f & VARIANT ? sha_named(s->sibling) : s;
    MUST(setup->init(&u)), MUST(setup->update(&u, ABC, 3));
    if (x->r->f & C_WIPED)
        MUST(setup->final(&u, got));   /* final wipes the context */
    void *cp = ctx_fault(x, &u, cs, NULL);
    fx_arm(x, cp, cs);
    int st = !strcmp(op, "update") ? s->update(cp, x->i, x->len) : s->final(cp, x->t);
    if (st == IC_OK && x->r->want == IC_OK) {
        MUST(s->init(&ref)), MUST(s->update(&ref, ABC, 3));
        if (!strcmp(op, "update")) {
            MUST(s->update(&ref, x->src, x->len));
            MUST(s->final(&u, got));
        } else {
            memcpy(got, x->t, s->dsize);
        }
        MUST(s->final(&ref, want));
        CHECK_MEM(got, want, s->dsize, "%s: digest after", w);
    }
    if (st == IC_ERR_TOOLONG) {   /* refused: absorbed nothing, the hash goes on (on a copy) */
        ref = u;
        CHECK(s->final(&ref, got) == IC_OK, "%s: context unusable after TOOLONG", w);
        MUST(s->init(&u)), MUST(s->update(&u, ABC, 3)), MUST(s->final(&u, want));
        CHECK_MEM(got, want, s->dsize, "%s: digest after a refused update", w);
        MUST(s->init(&u)), MUST(s->update(&u, ABC, 3));   /* as it was, for the context comparison */
    }
    return st;
}

/* After IC_OK from a call with an output capacity of tlen: the digest or
 * tag is dsize bytes and the rest of the capacity is untouched. */
static void check_out_tail(const fx *x, size_t dsize, const char *w)
{
    if (x->t && x->tlen > dsize && x->tlen <= TCAP)
        CHECK(tl_all_byte(x->t + dsize, x->tlen - dsize, FILL), "%s: wrote past the digest", w);
}

static void hash_final_v(void *c) { uint8_t d[64]; MUST(ic_hash_final(c, d, sizeof d)); }

static int run_hash(fx *x, const char *w)
{
    static ic_hash_ctx c, ref;
    const char *fn = x->r->fn;
    fx_make(x, x->r, 0, 0, 0, 37, 32);
    uint8_t want[64];
    if (!strcmp(fn, "ic_hash")) {
        fx_arm(x, NULL, 0);
        int st = ic_hash((ic_hash_alg)x->alg, x->t, x->tlen, x->i, x->len);
        if (st == IC_OK) {
            MUST(ic_sha256(want, x->src, x->len));
            CHECK_MEM(x->t, want, 32, "%s: digest", w);
            check_out_tail(x, 32, w);
        }
        return st;
    }
    if (!strcmp(fn, "ic_hash_init")) {
        memset(&c, 0xa5, sizeof c);
        fx_arm(x, NULL, 0);
        int st = ic_hash_init(x->r->f & C_NULL ? NULL : &c, (ic_hash_alg)x->alg);
        if (st != IC_OK && !(x->r->f & C_NULL))
            CHECK(ic_hash_update(&c, ABC, 1) == IC_ERR_STATE, "%s: usable after a failed init", w);
        return st;
    }
    MUST(ic_hash_init(&c, IC_HASH_SHA256));
    MUST(ic_hash_update(&c, ABC, 3));
    void *cp = ctx_fault(x, &c, sizeof c, hash_final_v);
    fx_arm(x, cp, sizeof c);
    int st = !strcmp(fn, "ic_hash_update") ? ic_hash_update(cp, x->i, x->len)
                                           : ic_hash_final(cp, x->t, x->tlen);
    if (st == IC_OK && x->r->want == IC_OK) {
        uint8_t got[64];
        MUST(ic_hash_init(&ref, IC_HASH_SHA256)), MUST(ic_hash_update(&ref, ABC, 3));
        if (!strcmp(fn, "ic_hash_update")) {
            MUST(ic_hash_update(&ref, x->src, x->len));
            MUST(ic_hash_final(&c, got, sizeof got));
        } else {
            memcpy(got, x->t, 32);
            check_out_tail(x, 32, w);
        }
        MUST(ic_hash_final(&ref, want, sizeof want));
        CHECK_MEM(got, want, 32, "%s: digest after", w);
    }
    return st;
}

/* ---- HMAC and HKDF -------------------------------------------------------- */
static void hmac_final_v(void *c) { uint8_t d[64]; MUST(ic_hmac_final(c, d, sizeof d)); }

static int run_hmac(fx *x, const char *w)
{
    static ic_hmac_ctx c;
    const char *fn = x->r->fn;
    fx_make(x, x->r, 20, 0, 0, 37, 32);
    uint8_t mac[32];
    MUST(ic_hmac(IC_HASH_SHA256, mac, sizeof mac, x->ibuf, x->len <= x->icap ? x->len : 0, x->key, x->klen));
    if (x->r->f & BADTAG)
        mac[3] ^= 4;
    int verify = strstr(fn, "verify") != NULL;
    if (verify && x->t)
        memcpy(x->t, mac, x->tlen < 32 ? x->tlen : 32);
    uint8_t tagin[TCAP];
    memcpy(tagin, x->tbuf, TCAP);
    const uint8_t *tin = x->t ? tagin + (x->t - x->tbuf) : NULL;
    if (verify)
        memset(x->tbuf, FILL, TCAP);
    int st;
    if (!strcmp(fn, "ic_hmac") || !strcmp(fn, "ic_hmac_verify")) {
        fx_arm(x, NULL, 0);
        st = verify ? ic_hmac_verify((ic_hash_alg)x->alg, tin, x->tlen, x->i, x->len, x->k, x->klen)
                    : ic_hmac((ic_hash_alg)x->alg, x->t, x->tlen, x->i, x->len, x->k, x->klen);
    } else if (!strcmp(fn, "ic_hmac_init")) {
        memset(&c, 0xa5, sizeof c);
        fx_arm(x, NULL, 0);
        st = ic_hmac_init(x->r->f & C_NULL ? NULL : &c, (ic_hash_alg)x->alg, x->k, x->klen);
        if (st != IC_OK && !(x->r->f & C_NULL))
            CHECK(ic_hmac_update(&c, ABC, 1) == IC_ERR_STATE, "%s: usable after a failed init", w);
        if (st == IC_OK) {
            uint8_t m2[32];
            MUST(ic_hmac_final(&c, m2, sizeof m2));
            MUST(ic_hmac(IC_HASH_SHA256, mac, sizeof mac, NULL, 0, x->k ? x->key : ABC, x->klen));
            CHECK_MEM(m2, mac, 32, "%s: MAC", w);
        }
        return st;
    } else {
        CHECK(ic_hmac_init(&c, IC_HASH_SHA256, x->key, x->klen) == IC_OK, "%s: setup", w);
        if (!strcmp(fn, "ic_hmac_final_verify") || !strcmp(fn, "ic_hmac_final"))
            MUST(ic_hmac_update(&c, x->ibuf, x->len <= x->icap ? x->len : 0));
        void *cp = ctx_fault(x, &c, sizeof c, hmac_final_v);
        fx_arm(x, cp, sizeof c);
        if (!strcmp(fn, "ic_hmac_update"))
            st = ic_hmac_update(cp, x->i, x->len);
        else if (!strcmp(fn, "ic_hmac_final"))
            st = ic_hmac_final(cp, x->t, x->tlen);
        else
            st = ic_hmac_final_verify(cp, tin, x->tlen);
        if (st == IC_OK && !strcmp(fn, "ic_hmac_update")) {
            uint8_t m2[32];
            MUST(ic_hmac_final(&c, m2, sizeof m2));
            MUST(ic_hmac(IC_HASH_SHA256, mac, sizeof mac, x->src, x->len, x->key, x->klen));
            CHECK_MEM(m2, mac, 32, "%s: MAC after", w);
        }
        if (st == IC_OK && !strcmp(fn, "ic_hmac_final")) {
            CHECK_MEM(x->t, mac, 32, "%s: MAC", w);
            check_out_tail(x, 32, w);
        }
        /* final_verify consumes the context on IC_OK and IC_ERR_AUTH; a
         * refusal (STATE, NULL, TAGLEN) leaves it as it was (hmac.h) */
        if (verify && (st == IC_OK || st == IC_ERR_AUTH))
            x->ctx = NULL;
        return st;
    }
    if (st == IC_OK && !verify) {
        CHECK_MEM(x->t, mac, 32, "%s: MAC", w);
        check_out_tail(x, 32, w);
    }
    return st;
}

static int run_hkdf(fx *x, const char *w)
{
    const char *fn = x->r->fn;
    /* klen: salt or prk length; alen: info; len: okm; tag buffer: prk */
    fx_make(x, x->r, 32, 0, 11, 45, 32);
    static uint8_t want[255 * 64];
    uint8_t prk[32], e[1] = {0};
    MUST(ic_hkdf_extract(IC_HASH_SHA256, prk, sizeof prk, x->key, 32, x->aad, 20));
    const uint8_t *info = x->a;
    if (x->r->f & OVL_INFO)
        info = x->o + 2;   /* info inside okm */
    fx_arm(x, NULL, 0);
    int st;
    if (!strcmp(fn, "ic_hkdf_extract")) {
        /* salt = key buffer (klen), ikm = input */
        st = ic_hkdf_extract((ic_hash_alg)x->alg, x->t, x->tlen, x->k, x->klen, x->i, x->len);
        if (st == IC_OK) {
            MUST(ic_hkdf_extract(IC_HASH_SHA256, want, sizeof want, x->k ? x->key : e, x->klen,
                                 x->i ? x->src : e, x->len));
            CHECK_MEM(x->t, want, 32, "%s: prk", w);
            check_out_tail(x, 32, w);
        }
        return st;
    }
    if (!strcmp(fn, "ic_hkdf")) {
        st = ic_hkdf((ic_hash_alg)x->alg, x->o, x->len, info, x->alen, x->k, x->klen, x->aad, 20);
        if (st == IC_OK) {
            MUST(ic_hkdf(IC_HASH_SHA256, want, x->len, x->a ? x->aad : e, x->alen, x->k ? x->key : e,
                         x->klen, x->aad, 20));
            CHECK_MEM(x->o, want, x->len, "%s: okm", w);
        }
        return st;
    }
    /* expand: prk in its own buffer, or at the start of okm (OVL_PRK) */
    uint8_t pbuf[32];
    memcpy(pbuf, prk, 32);
    const uint8_t *p = x->r->f & T_NULL ? NULL : pbuf;
    if (x->r->f & OVL_PRK && x->o) {
        memcpy(x->o, prk, 32);
        p = x->o;
    }
    st = ic_hkdf_expand((ic_hash_alg)x->alg, x->o, x->len, info, x->alen, p, x->klen);
    CHECK(memcmp(pbuf, prk, 32) == 0, "%s: prk written", w);
    if (st == IC_OK && x->r->want == IC_OK) {
        MUST(ic_hkdf_expand(IC_HASH_SHA256, want, x->len, x->a ? x->aad : e, x->alen, prk, 32));
        if (x->len)
            CHECK_MEM(x->o, want, x->len, "%s: okm", w);
    }
    return st;
}

/* ---- Poly1305 ------------------------------------------------------------- */
static void poly_wipe_v(void *c) { ic_poly1305_wipe(c); }

static int run_poly(fx *x, const char *w)
{
    static ic_poly1305_ctx c;
    const char *fn = x->r->fn;
    fx_make(x, x->r, 32, 0, 0, 37, 16);
    uint8_t want[16], empty[16];
    size_t n = x->len <= x->icap ? x->len : 0;
    MUST(ic_poly1305(want, x->ibuf, n, x->key));
    MUST(ic_poly1305(empty, NULL, 0, x->key));
    if (!strcmp(fn, "ic_poly1305")) {
        fx_arm(x, NULL, 0);
        int st = ic_poly1305(x->t, x->i, x->len, x->k);
        if (st == IC_OK)
            CHECK_MEM(x->t, want, 16, "%s: tag", w);
        return st;
    }
    if (!strcmp(fn, "ic_poly1305_verify")) {
        if (x->r->f & BADTAG)
            want[5] ^= 0x20;
        fx_arm(x, NULL, 0);
        return ic_poly1305_verify(x->r->f & T_NULL ? NULL : want, x->i, x->len, x->k);
    }
    if (!strcmp(fn, "ic_poly1305_init")) {
        memset(&c, 0xa5, sizeof c);
        fx_arm(x, NULL, 0);
        int st = ic_poly1305_init(x->r->f & C_NULL ? NULL : &c, x->k);
        uint8_t t[16];
        if (st == IC_OK) {
            MUST(ic_poly1305_final(&c, t));
            CHECK_MEM(t, empty, 16, "%s: tag", w);
        } else if (!(x->r->f & C_NULL)) {
            CHECK(ic_poly1305_final(&c, t) == IC_ERR_STATE, "%s: context usable after a failed init", w);
        }
        return st;
    }
    MUST(ic_poly1305_init(&c, x->key));
    void *cp = ctx_fault(x, &c, sizeof c, poly_wipe_v);
    if (!strcmp(fn, "ic_poly1305_final_verify")) {
        /* the tag of the empty message the context holds, or a wrong one */
        if (x->r->f & BADTAG)
            empty[3] ^= 8;
        fx_arm(x, cp, sizeof c);
        int st = ic_poly1305_final_verify(cp, x->r->f & T_NULL ? NULL : empty);
        if (st == IC_OK || st == IC_ERR_AUTH)
            CHECK(c.check == 0, "%s: the context was not ended", w);
        return st;
    }
    fx_arm(x, cp, sizeof c);
    int st = !strcmp(fn, "ic_poly1305_update") ? ic_poly1305_update(cp, x->i, x->len) : ic_poly1305_final(cp, x->t);
    if (st == IC_OK && x->r->want == IC_OK) {
        uint8_t t[16];
        if (!strcmp(fn, "ic_poly1305_update")) {
            MUST(ic_poly1305_final(&c, t));
            MUST(ic_poly1305(want, x->src, x->len, x->key));
        } else {
            memcpy(t, x->t, 16);
            memcpy(want, empty, 16);
        }
        CHECK_MEM(t, want, 16, "%s: tag", w);
    }
    return st;
}

/* ---- big numbers ----------------------------------------------------------- */
/* The fixture: a 64-byte odd modulus with its top bit set in key (klen),
 * the base in the guarded input (len, 64 bytes, below the modulus), the
 * exponent in aad (alen, 32 bytes) and the output in the guarded tag
 * buffer (tlen, 64 bytes; T_NULL makes it NULL). */
static void bn_wipe_v(void *c) { ic_mont_wipe(c); }

static int run_bn(fx *x, const char *w)
{
    static ic_mont_ctx c;
    static uint8_t big[IC_BN_MAX_BYTES + 2];
    const char *fn = x->r->fn;
    const long long bv = x->r->f & BNVAL ? x->r->n : 0;
    fx_make(x, x->r, 64, 0, 32, 64, 64);
    uint8_t *n = x->key;
    n[0] |= 0x80;
    n[63] |= 1;
    if (x->len >= 1 && x->len <= x->icap)
        x->ibuf[0] &= 0x3f;                       /* base < modulus */
    if (bv == BV_EVEN)
        n[63] &= 0xfe;
    if (bv == BV_ONE || bv == BV_TWO) {
        memset(n, 0, 64);
        n[63] = bv == BV_ONE ? 1 : 2;
    }
    if (bv == BV_BASE_N || bv == BV_BASE_N_EXP_ZERO)
        memcpy(x->ibuf, n, 64);
    if (bv == BV_BASE_ONES)
        memset(x->ibuf, 0xff, 64);
    if (bv == BV_EXP_ZERO || bv == BV_BASE_N_EXP_ZERO)
        memset(x->aad, 0, sizeof x->aad);
    if (bv == BV_LEADZERO)
        x->klen = IC_BN_MAX_BYTES + 1;
    const uint8_t *mod = x->k;
    if (x->klen > 64 && x->k) {                   /* a long modulus: top byte 1, or 0 */
        tl_rand_bytes(big, sizeof big);
        big[0] = bv == BV_LEADZERO ? 0 : 1;
        big[1] |= 1;                              /* so a zero top leaves klen - 1 bytes */
        big[x->klen - 1] |= 1;
        mod = big;
    }
    if (!strcmp(fn, "ic_mont_init")) {
        memset(&c, 0xa5, sizeof c);
        fx_arm(x, NULL, 0);
        int st = ic_mont_init(x->r->f & C_NULL ? NULL : &c, mod, x->klen);
        if (st == IC_OK)
            CHECK(ic_mont_size(&c) == (x->klen > 64 ? x->klen - 1 : x->klen), "%s: size", w);
        else if (!(x->r->f & C_NULL))
            CHECK(ic_mont_size(&c) == 0, "%s: a failed init leaves no usable context", w);
        return st;
    }
    MUST(ic_mont_init(&c, n, 64));
    if (!strcmp(fn, "ic_mont_size")) {
        CHECK(ic_mont_size(&c) == 64 && ic_mont_size(NULL) == 0, "%s: 64, NULL 0", w);
        void *cp = ctx_fault(x, &c, sizeof c, bn_wipe_v);
        CHECK(ic_mont_size(cp) == 0, "%s: bad context gives 0", w);
        return IC_OK;
    }
    void *cp = ctx_fault(x, &c, sizeof c, bn_wipe_v);
    int pub = !strcmp(fn, "ic_mont_modexp_public");
    uint8_t *out = x->r->f & INPL ? x->ibuf : x->t;
    fx_arm(x, cp, sizeof c);
    int st = (pub ? ic_mont_modexp_public : ic_mont_modexp)(cp, out, x->tlen, x->i, x->len, x->a, x->alen);
    if (st == IC_OK && x->r->want == IC_OK) {
        uint8_t want[64];
        CHECK((pub ? ic_mont_modexp : ic_mont_modexp_public)(&c, want, 64, x->src, x->len, x->aad, x->alen) == IC_OK,
              "%s: the other modexp", w);
        CHECK_MEM(out, want, 64, "%s: result", w);
    }
    return st;
}

/* ---- RSA (incore/rsa.h) ---------------------------------------------------- */
/* One valid signature of each scheme from Wycheproof (pycryptodome-test-
 * vectors 1.0.29, Signature/wycheproof), e = 65537.  The fixture: n in
 * x->key's place (K_NULL makes it NULL, KLEN sets its length), e 3 bytes
 * (A_NULL: NULL, ALEN: its length), the message in the guarded input
 * (I_NULL, LEN, EMPTY; for the _digest calls its SHA-256, 32 bytes), the
 * signature 256 bytes (O_NULL: NULL, TLEN: its length), SHA-256 for the
 * hash and MGF1 (ALG: hash 99, VARIANT: MGF1 hash 99), PSS salt 32 bytes;
 * BNVAL RV_* for the value faults. */
/* rsa_signature_2048_sha256_test.json tcId 3 */
static const uint8_t rsa_v15_n[256] = {
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
static const uint8_t rsa_v15_msg[4] = {
    0x54, 0x65, 0x73, 0x74,
};
static const uint8_t rsa_v15_sig[256] = {
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
/* rsa_pss_2048_sha256_mgf1_32_test.json tcId 3 */
static const uint8_t rsa_pss_n[256] = {
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
static const uint8_t rsa_pss_msg[4] = {
    0x54, 0x65, 0x73, 0x74,
};
static const uint8_t rsa_pss_sig[256] = {
    0x40, 0x1e, 0xb0, 0x3c, 0xdb, 0x47, 0xca, 0x88, 0x03, 0x3e, 0x30, 0x30, 0xf6, 0xbd, 0xec, 0xba,
    0xc8, 0xf5, 0xc8, 0xfc, 0x1d, 0xd6, 0xa1, 0x3d, 0x23, 0xd3, 0x79, 0xed, 0x9a, 0x2b, 0x30, 0x98,
    0x91, 0xd1, 0x3d, 0x74, 0xfe, 0xa9, 0xd2, 0x1d, 0x15, 0x9b, 0x9e, 0x6d, 0x8f, 0x37, 0xef, 0xa2,
    0x48, 0x99, 0x62, 0xe2, 0x45, 0x55, 0xf5, 0x6d, 0xd4, 0x34, 0xff, 0x1d, 0x31, 0xce, 0x4f, 0x9f,
    0x5a, 0xbd, 0x3f, 0x22, 0xcb, 0xea, 0x8b, 0x69, 0x1d, 0x6a, 0x11, 0xe4, 0x4e, 0xfb, 0x83, 0xe2,
    0xbc, 0xa1, 0x55, 0xe6, 0xa1, 0x64, 0x32, 0x5e, 0x0f, 0xde, 0x2a, 0x88, 0x65, 0xaf, 0xd5, 0xc9,
    0xf5, 0x11, 0x61, 0xa9, 0xd6, 0x15, 0xf6, 0x2a, 0xf7, 0xec, 0x2e, 0x31, 0xb3, 0xe5, 0xab, 0x64,
    0x9c, 0x16, 0x44, 0x90, 0xd3, 0x1d, 0x88, 0xcf, 0xae, 0x35, 0xb8, 0x4a, 0xea, 0x79, 0x25, 0x69,
    0x0f, 0x92, 0x9a, 0x14, 0x4b, 0x6d, 0x2f, 0x48, 0xe8, 0xfb, 0x89, 0x4a, 0x52, 0xde, 0xec, 0xd1,
    0xb9, 0xa6, 0x49, 0x69, 0x90, 0xc4, 0xec, 0xf1, 0x58, 0x86, 0x99, 0xa4, 0x2c, 0xac, 0xd1, 0x0c,
    0x53, 0xaf, 0x35, 0x05, 0x14, 0xe4, 0x29, 0x1e, 0xa9, 0xa0, 0x58, 0xe7, 0x7f, 0x10, 0x1e, 0x32,
    0xc1, 0xc0, 0xce, 0xfa, 0x61, 0xd9, 0x45, 0xf7, 0xbc, 0x93, 0x1f, 0x8b, 0xd1, 0x9e, 0x7b, 0xa3,
    0x16, 0x93, 0x58, 0xa6, 0x0e, 0x5a, 0x8b, 0x01, 0x23, 0xbc, 0x31, 0x99, 0xb9, 0xfd, 0xca, 0xfe,
    0x8e, 0x51, 0x9c, 0x41, 0xba, 0x67, 0x54, 0x91, 0xa2, 0x7b, 0x85, 0xe4, 0x4e, 0xf2, 0xd7, 0x72,
    0x77, 0xc1, 0x0f, 0xe1, 0x07, 0x29, 0x3c, 0x82, 0x90, 0x18, 0x69, 0x13, 0xbc, 0x9a, 0x99, 0xb6,
    0x40, 0xd8, 0xda, 0x04, 0x1b, 0x64, 0xf3, 0x1e, 0xab, 0x1d, 0x35, 0x92, 0x09, 0x85, 0xf4, 0xa5,
};
/* e = 010001 */

enum { RV_N_SHORT = 1, RV_N_EVEN, RV_N_LEADZERO, RV_E_LONG, RV_E_EQ_N, RV_E_ONE, RV_E_EVEN, RV_E_ZERO,
       RV_SIG_N, RV_SALT_MAX, RV_SALT_OVER };

static void rsa_wipe_v(void *k) { ic_rsa_public_key_wipe(k); }

static int run_rsa(fx *x, const char *w)
{
    static ic_rsa_public_key k;
    static uint8_t n[IC_RSA_MAX_BYTES + 1], e[IC_RSA_MAX_BYTES + 1], sig[IC_RSA_MAX_BYTES + 1];
    const char *fn = x->r->fn;
    const long long rv = x->r->f & BNVAL ? x->r->n : 0;
    int pss = !strncmp(fn, "ic_rsa_verify_pss", 17), dig = strstr(fn, "_digest") != NULL;
    const uint8_t *vn = pss ? rsa_pss_n : rsa_v15_n, *vs = pss ? rsa_pss_sig : rsa_v15_sig;
    const uint8_t *vm = pss ? rsa_pss_msg : rsa_v15_msg;
    fx_make(x, x->r, 256, 0, 3, dig ? 32 : 4, 256);
    x->tlen = x->r->f & TLEN ? size_of(x->r->n) : 256;    /* the signature length */
    memset(n, 0, sizeof n);
    memset(e, 0, sizeof e);
    memset(sig, 0, sizeof sig);
    memcpy(n, vn, 256);
    e[0] = 1, e[2] = 1;                                    /* 65537 */
    memcpy(sig, vs, 256);
    if (x->len == 4 && x->ibuf && !dig)
        memcpy(x->ibuf, vm, 4);
    if (x->len == 32 && x->ibuf && dig)
        MUST(ic_hash(IC_HASH_SHA256, x->ibuf, IC_SHA256_DIGEST_SIZE, vm, 4));
    if (rv == RV_N_SHORT)
        n[126] |= 1;                                       /* 127 bytes: 1016 bits */
    if (rv == RV_N_EVEN)
        n[255] &= 0xfe;
    if (rv == RV_N_LEADZERO) {
        memmove(n + 1, n, 256);
        n[0] = 0;
    }
    if (rv == RV_E_LONG)
        memset(e, 0x01, 257);
    if (rv == RV_E_EQ_N)
        memcpy(e, n, 256);
    if (rv == RV_E_ONE || rv == RV_E_EVEN)
        e[0] = 0, e[2] = rv == RV_E_ONE ? 1 : 4;
    if (rv == RV_E_ZERO)
        e[0] = e[2] = 0;
    if (rv == RV_SIG_N)
        memcpy(sig, vn, 256);
    if (x->r->f & BADTAG)
        sig[100] ^= 0x04;
    size_t nlen = rv == RV_N_SHORT ? 127 : rv == RV_N_LEADZERO ? 257 : x->klen;
    size_t elen = rv == RV_E_LONG ? 257 : rv == RV_E_EQ_N ? 256 : x->alen;
    const uint8_t *np = x->r->f & K_NULL ? NULL : n, *ep = x->r->f & A_NULL ? NULL : e;
    if (!strcmp(fn, "ic_rsa_public_key_init")) {
        memset(&k, 0xa5, sizeof k);
        fx_arm(x, NULL, 0);
        int st = ic_rsa_public_key_init(x->r->f & C_NULL ? NULL : &k, np, nlen, ep, elen);
        if (st == IC_OK)
            CHECK(ic_rsa_public_key_size(&k) == 256, "%s: size", w);
        else if (!(x->r->f & C_NULL))
            CHECK(ic_rsa_public_key_size(&k) == 0 && tl_all_byte(&k, sizeof k, 0),
                  "%s: a failed init leaves a wiped key", w);
        return st;
    }
    MUST(ic_rsa_public_key_init(&k, vn, 256, e, 3));
    if (!strcmp(fn, "ic_rsa_public_key_size")) {
        CHECK(ic_rsa_public_key_size(&k) == 256 && ic_rsa_public_key_size(NULL) == 0, "%s: 256, NULL 0", w);
        void *kp = ctx_fault(x, &k, sizeof k, rsa_wipe_v);
        CHECK(ic_rsa_public_key_size(kp) == 0 || !(x->r->f & C_ANY), "%s: bad key gives 0", w);
        return IC_OK;
    }
    ic_rsa_public_key *kp = ctx_fault(x, &k, sizeof k, rsa_wipe_v);
    const uint8_t *sp = x->r->f & O_NULL ? NULL : sig;
    ic_hash_alg h = (ic_hash_alg)x->alg, mh = x->r->f & VARIANT ? (ic_hash_alg)99 : IC_HASH_SHA256;
    size_t salt = rv == RV_SALT_MAX ? 256 - 32 - 2 : rv == RV_SALT_OVER ? 256 - 32 - 1 : 32;
    fx_arm(x, kp, sizeof k);
    int st = pss && dig ? ic_rsa_verify_pss_digest(kp, h, mh, salt, sp, x->tlen, x->i, x->len)
           : pss        ? ic_rsa_verify_pss(kp, h, mh, salt, sp, x->tlen, x->i, x->len)
           : dig        ? ic_rsa_verify_pkcs1v15_digest(kp, h, sp, x->tlen, x->i, x->len)
                        : ic_rsa_verify_pkcs1v15(kp, h, sp, x->tlen, x->i, x->len);
    if (x->r->want == IC_ERR_AUTH || x->r->want == IC_OK)
        CHECK(memcmp(x->snap, &k, sizeof k) == 0, "%s: verify changed the key", w);
    return st;
}


/* The values BNVAL puts into a private-key call (row field n). */
enum { RP_P_EVEN = 1, RP_P_PLUS2, RP_QINV_P, RP_DQ_ZERO, RP_DP_PLUS2, RP_D_LONG, RP_N_EVEN,
       RP_SALT_OVER, RP_MSG_MAX, RP_OUTCAP_LOW, RP_LABEL };

static void rsa_priv_wipe_v(void *k) { ic_rsa_private_key_wipe(k); }

/* k = the 2048-bit key, with the row's BNVAL fault in one part. */
static int rsa_priv_make(ic_rsa_private_key *k, long long rv, int null_n)
{
    static uint8_t part[6][IC_RSA_MAX_BYTES + 1], n[256];
    size_t len[6];
    static const uint8_t e[3] = { 1, 0, 1 };
    for (int i = 0; i < 6; i++)             /* d .. qinv */
        len[i] = (size_t)tl_hex(part[i], sizeof part[i], rsa_testkey_hex[RK_D + i]);
    memcpy(n, rsa_v15_n, 256);
    if (rv == RP_P_EVEN)
        part[1][len[1] - 1] ^= 1;
    if (rv == RP_P_PLUS2)
        part[1][len[1] - 1] += 2;
    if (rv == RP_QINV_P)
        memcpy(part[5], part[1], len[1]), len[5] = len[1];
    if (rv == RP_DQ_ZERO)
        memset(part[4], 0, len[4]);
    if (rv == RP_DP_PLUS2)
        part[3][len[3] - 1] += 2;
    if (rv == RP_D_LONG) {
        memmove(part[0] + 1, part[0], len[0]);
        part[0][0] = 0;
        len[0] = 257;
    }
    if (rv == RP_N_EVEN)
        n[255] ^= 1;
    return ic_rsa_private_key_init(k, null_n ? NULL : n, 256, e, 3, part[0], len[0], part[1], len[1], part[2], len[2],
                               part[3], len[3], part[4], len[4], part[5], len[5]);
}

/* The signature of the row's call verified with the public half, in the
 * verify that matches it (the message or the digest form). */
static int rsa_verify_signed(const char *fn, const ic_rsa_public_key *k, ic_hash_alg h, ic_hash_alg mh,
                             size_t salt, const uint8_t *in, size_t len, const uint8_t *sig)
{
    int pss = strstr(fn, "pss") != NULL;
    if (strstr(fn, "_digest"))
        return pss ? ic_rsa_verify_pss_digest(k, h, mh, salt, sig, 256, in, len)
                   : ic_rsa_verify_pkcs1v15_digest(k, h, sig, 256, in, len);
    return pss ? ic_rsa_verify_pss(k, h, mh, salt, sig, 256, in, len)
               : ic_rsa_verify_pkcs1v15(k, h, sig, 256, in, len);
}

/* The private-key calls and OAEP encryption: the message in the fixture's
 * input (4 bytes; for the _digest calls a 32-byte digest), the signature
 * / ciphertext / plaintext in out (TLEN: its length, 256 by default), a
 * 32-byte salt or seed (VLEN, V_NULL). */
static int run_rsa_priv(fx *x, const char *w)
{
    static ic_rsa_private_key k;
    static uint8_t out[IC_RSA_MAX_BYTES + 1], ct[256];
    const char *fn = x->r->fn;
    const long long rv = x->r->f & BNVAL ? x->r->n : 0;
    fx_make(x, x->r, 0, 32, 0, rv == RP_MSG_MAX ? 191 : strstr(fn, "_digest") ? 32 : 4, 256);
    memset(out, FILL, sizeof out);
    if (!strcmp(fn, "ic_rsa_private_key_init")) {
        memset(&k, 0xa5, sizeof k);
        fx_arm(x, NULL, 0);
        int st = x->r->f & C_NULL ? rsa_priv_make(NULL, rv, 0) : rsa_priv_make(&k, rv, !!(x->r->f & K_NULL));
        if (st == IC_OK)
            CHECK(ic_rsa_private_key_size(&k) == 256, "%s: size", w);
        else if (!(x->r->f & C_NULL))
            CHECK(ic_rsa_private_key_size(&k) == 0 && tl_all_byte(&k, sizeof k, 0),
                  "%s: a failed init leaves a wiped key", w);
        return st;
    }
    MUST(rsa_priv_make(&k, 0, 0));
    if (!strcmp(fn, "ic_rsa_private_key_size")) {
        CHECK(ic_rsa_private_key_size(&k) == 256 && ic_rsa_private_key_size(NULL) == 0, "%s: 256, NULL 0", w);
        void *kp = ctx_fault(x, &k, sizeof k, rsa_priv_wipe_v);
        CHECK(ic_rsa_private_key_size(kp) == 0 || !(x->r->f & C_ANY), "%s: bad key gives 0", w);
        return IC_OK;
    }
    ic_hash_alg h = (ic_hash_alg)x->alg, mh = x->r->f & VARIANT ? (ic_hash_alg)99 : IC_HASH_SHA256;
    size_t salt = rv == RP_SALT_OVER ? 256 - 32 - 1 : 32;
    uint8_t *op = x->r->f & O_NULL ? NULL : out;
    const uint8_t *lab = rv == RP_LABEL ? (const uint8_t *)"other" : (const uint8_t *)"label";
    int st;
    if (strstr(fn, "_encrypt_")) {                     /* the public half */
        ic_rsa_public_key *kp = ctx_fault(x, &k.pub, sizeof k.pub, rsa_wipe_v);
        fx_arm(x, kp, sizeof k.pub);
        if (!strcmp(fn, "ic_rsa_encrypt_oaep"))
            st = ic_rsa_encrypt_oaep(kp, h, mh, op, x->tlen, x->i, x->len, lab, 5);
        else
            st = ic_rsa_encrypt_oaep_seed(kp, h, mh, op, x->tlen, x->i, x->len, lab, 5, x->v, x->vlen);
    } else if (!strcmp(fn, "ic_rsa_decrypt_oaep")) {
        size_t got = 12345, cap = rv == RP_OUTCAP_LOW ? 256 - 2 * 32 - 3 : 256;
        MUST(ic_rsa_encrypt_oaep(&k.pub, IC_HASH_SHA256, IC_HASH_SHA256, ct, 256, x->ibuf, 4,
                                 (const uint8_t *)"label", 5));
        if (x->r->f & BADTAG)
            ct[100] ^= 0x04;
        ic_rsa_private_key *kp = ctx_fault(x, &k, sizeof k, rsa_priv_wipe_v);
        fx_arm(x, kp, sizeof k);
        st = ic_rsa_decrypt_oaep(kp, h, mh, op, cap, &got, x->r->f & I_NULL ? NULL : ct, x->tlen, lab, 5);
        if (st == IC_OK)
            CHECK(got == 4 && !memcmp(out, x->ibuf, 4), "%s: the message back", w);
        else
            CHECK(got == 12345 && tl_all_byte(out, sizeof out, FILL), "%s: a refusal wrote output", w);
        return st;
    } else {
        ic_rsa_private_key *kp = ctx_fault(x, &k, sizeof k, rsa_priv_wipe_v);
        fx_arm(x, kp, sizeof k);
        if (!strcmp(fn, "ic_rsa_sign_pkcs1v15"))
            st = ic_rsa_sign_pkcs1v15(kp, h, op, x->tlen, x->i, x->len);
        else if (!strcmp(fn, "ic_rsa_sign_pkcs1v15_digest"))
            st = ic_rsa_sign_pkcs1v15_digest(kp, h, op, x->tlen, x->i, x->len);
        else if (!strcmp(fn, "ic_rsa_sign_pss"))
            st = ic_rsa_sign_pss(kp, h, mh, salt, op, x->tlen, x->i, x->len);
        else if (!strcmp(fn, "ic_rsa_sign_pss_digest"))
            st = ic_rsa_sign_pss_digest(kp, h, mh, salt, op, x->tlen, x->i, x->len);
        else {
            static uint8_t sb[256];             /* a salt of up to 256 bytes */
            memcpy(sb, x->iv, 32);
            salt = x->r->f & VLEN ? x->vlen : salt;
            st = ic_rsa_sign_pss_salt(kp, h, mh, op, x->tlen, x->i, x->len, x->r->f & V_NULL ? NULL : sb, salt);
        }
        if (st == IC_OK)
            CHECK(rsa_verify_signed(fn, &k.pub, h, mh, salt, x->i, x->len, out) == IC_OK,
                  "%s: the signature verifies", w);
    }
    if (st != IC_OK)
        CHECK(tl_all_byte(out, sizeof out, FILL), "%s: a refusal wrote output", w);
    return st;
}

/* Keys in their encodings: the 2048-bit key OpenSSL wrote into
 * tests/vectors/rsa_keys/ (SubjectPublicKeyInfo and PKCS #8 by default,
 * BNVAL RD_* for the other files and the faults), in the guarded input
 * (LEN truncates it, I_NULL and EMPTY as everywhere). */
enum { RD_PKCS1 = 1, RD_OTHER, RD_TRAIL, RD_BADLABEL, RD_BADCHAR, RD_ENCRYPTED, RD_ENC_PKCS1, RD_3PRIMES,
       RD_TOOLONG, RD_BADKEY };

/* The vector file name into buf (cap bytes): its length, 0 when unread. */
static size_t rsa_key_file(const char *name, uint8_t *buf, size_t cap)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/rsa_keys/%s", tl_data_dir(), name);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap, f) : 0;
    if (f)
        fclose(f);
    CHECK(n > 0 && n < cap, "%s: cannot read", path);
    return n;
}

/* The file a row reads, and its fault applied to the bytes. */
static size_t rsa_der_input(const char *fn, long long rv, uint8_t *buf, size_t cap)
{
    int pem = strstr(fn, "_pem") != NULL, priv = strstr(fn, "_private_") != NULL;
    char name[64];
    if (rv == RD_ENCRYPTED || rv == RD_ENC_PKCS1 || rv == RD_3PRIMES)
        return rsa_key_file(rv == RD_ENCRYPTED ? "rsa2048_encrypted.pem"
                            : rv == RD_ENC_PKCS1 ? "rsa2048_encrypted_pkcs1.pem" : "rsa2048_3primes.pem", buf, cap);
    if (rv == RD_TOOLONG) {                   /* base64 of 8193 bytes and more */
        size_t n = (size_t)snprintf((char *)buf, cap, "-----BEGIN PUBLIC KEY-----\n");
        memset(buf + n, 'A', 11000), n += 11000;
        return n + (size_t)snprintf((char *)buf + n, cap - n, "\n-----END PUBLIC KEY-----\n");
    }
    snprintf(name, sizeof name, "rsa2048%s%s.%s", (priv ^ (rv == RD_OTHER)) ? "" : "_pub",
             rv == RD_PKCS1 ? "_pkcs1" : "", pem ? "pem" : "der");
    size_t n = rsa_key_file(name, buf, cap);
    if (rv == RD_TRAIL)
        buf[n++] = 0;
    if (rv == RD_BADLABEL)
        buf[n - 8] = 'X';                     /* "...KEY-----\n": END's label ends in X */
    if (rv == RD_BADCHAR)
        buf[40] = '*';
    if (rv == RD_BADKEY)
        buf[priv ? 100 : n - 6] ^= 1;         /* a bit of n: n even (public) or p q != n */
    return n;
}

static int run_rsa_der(fx *x, const char *w)
{
    static ic_rsa_public_key pub;
    static ic_rsa_private_key priv;
    static uint8_t data[16384];
    const char *fn = x->r->fn;
    int is_priv = strstr(fn, "_private_") != NULL, pem = strstr(fn, "_pem") != NULL;
    size_t n = rsa_der_input(fn, x->r->f & BNVAL ? x->r->n : 0, data, sizeof data);
    fx_make(x, x->r, 0, 0, 0, n, 0);
    if (x->ibuf && x->len <= x->icap)
        memcpy(x->ibuf, data, x->len < n ? x->len : n);
    void *k = is_priv ? (void *)&priv : (void *)&pub;
    size_t ksize = is_priv ? sizeof priv : sizeof pub;
    memset(k, 0xa5, ksize);
    if (x->r->f & C_NULL)
        k = NULL;
    fx_arm(x, NULL, 0);
    int st = is_priv ? (pem ? ic_rsa_private_key_from_pem(k, x->i, x->len) : ic_rsa_private_key_from_der(k, x->i, x->len))
                     : (pem ? ic_rsa_public_key_from_pem(k, x->i, x->len) : ic_rsa_public_key_from_der(k, x->i, x->len));
    if (st != IC_OK && k)
        CHECK(tl_all_byte(k, ksize, 0), "%s: a refused key is not wiped", w);
    if (st == IC_OK) {
        uint8_t sig[256], d[32] = { 1 };
        size_t size = is_priv ? ic_rsa_private_key_size(&priv) : ic_rsa_public_key_size(&pub);
        CHECK(size == 256, "%s: size %zu", w, size);
        if (is_priv)
            CHECK(ic_rsa_sign_pkcs1v15_digest(&priv, IC_HASH_SHA256, sig, 256, d, 32) == IC_OK &&
                  ic_rsa_verify_pkcs1v15_digest(&priv.pub, IC_HASH_SHA256, sig, 256, d, 32) == IC_OK,
                  "%s: the key signs", w);
    }
    return st;
}

/* ---- ChaCha20 and the AEADs ------------------------------------------------ */
static void cp_key_wipe_v(void *k) { ic_chacha20_poly1305_key_wipe(k); }

static int run_cp_key_init(fx *x, const char *w)
{
    static ic_chacha20_poly1305_key k;
    uint8_t n[12] = {0}, tag[16];
    fx_make(x, x->r, 32, 0, 0, 0, 0);
    memset(&k, 0xa5, sizeof k);
    int st = ic_chacha20_poly1305_key_init(x->r->f & C_NULL ? NULL : &k, x->k);
    if (st != IC_OK && !(x->r->f & C_NULL))
        CHECK(ic_chacha20_poly1305_key_seal(&k, NULL, tag, NULL, 0, NULL, 0, n) == IC_ERR_STATE,
              "%s: key usable after a failed init", w);
    if (st == IC_OK)
        CHECK(ic_chacha20_poly1305_key_seal(&k, NULL, tag, NULL, 0, NULL, 0, n) == IC_OK,
              "%s: key unusable after init", w);
    return st;
}

/* One AEAD call of the four one-shot kinds: (X)ChaCha20-Poly1305, seal or
 * open, with a raw key or through the key object kp. */
static int cp_aead_call(int keyed, int xc, int open, const ic_chacha20_poly1305_key *kp, const uint8_t *key,
                   const uint8_t *n, const uint8_t *a, size_t al, const uint8_t *in, size_t len, uint8_t *out,
                   uint8_t *tag)
{
    if (keyed && open)
        return xc ? ic_xchacha20_poly1305_key_open(kp, out, tag, in, len, a, al, n)
                  : ic_chacha20_poly1305_key_open(kp, out, tag, in, len, a, al, n);
    if (keyed)
        return xc ? ic_xchacha20_poly1305_key_seal(kp, out, tag, in, len, a, al, n)
                  : ic_chacha20_poly1305_key_seal(kp, out, tag, in, len, a, al, n);
    if (open)
        return xc ? ic_xchacha20_poly1305_open(out, tag, in, len, a, al, n, key)
                  : ic_chacha20_poly1305_open(out, tag, in, len, a, al, n, key);
    return xc ? ic_xchacha20_poly1305_seal(out, tag, in, len, a, al, n, key)
              : ic_chacha20_poly1305_seal(out, tag, in, len, a, al, n, key);
}

static int run_chacha(fx *x, const char *w)
{
    const char *fn = x->r->fn;
    int xc = !strncmp(fn, "ic_x", 4);
    fx_make(x, x->r, 32, xc ? 24 : 12, 9, 37, strstr(fn, "hchacha") ? 32 : 16);
    uint8_t good[16], out[80], e[1] = {0};
    if (strstr(fn, "hchacha")) {
        fx_arm(x, NULL, 0);
        int st = ic_hchacha20(x->t, x->v, x->k);
        if (st == IC_OK) {
            uint8_t sub[32];
            MUST(ic_hchacha20(sub, x->iv0, x->key));
            CHECK_MEM(x->t, sub, 32, "%s: subkey", w);
        }
        return st;
    }
    if (strstr(fn, "_xor")) {
        fx_arm(x, NULL, 0);
        int st = xc ? ic_xchacha20_xor(x->o, x->i, x->len, x->v, x->ctr, x->k)
                    : ic_chacha20_xor(x->o, x->i, x->len, x->v, (uint32_t)x->ctr, x->k);
        if (st == IC_OK && x->len) {
            CHECK((xc ? ic_xchacha20_xor(out, x->src, x->len, x->iv0, x->ctr, x->key)
                      : ic_chacha20_xor(out, x->src, x->len, x->iv0, (uint32_t)x->ctr, x->key)) == IC_OK, "%s: ref", w);
            CHECK_MEM(x->o, out, x->len, "%s: output", w);
        }
        return st;
    }
    /* the one-shot AEADs, with a raw key or a key object (which every
     * call must leave unchanged; a success gives the raw-key call's result) */
    static ic_chacha20_poly1305_key kobj;
    ic_chacha20_poly1305_key *kp = NULL;
    int open = strstr(fn, "_open") != NULL, keyed = strstr(fn, "_key_") != NULL;
    size_t n = x->len <= x->icap ? x->len : 0;
    if (open) {
        size_t al = x->alen <= 48 ? x->alen : 0;
        CHECK(cp_aead_call(0, xc, 0, NULL, x->key, x->iv, x->aad, al, x->ibuf, n, x->ibuf, good) == IC_OK, "%s: setup", w);
        if (x->r->f & BADTAG)
            good[9] ^= 2;
    }
    if (keyed) {
        MUST(ic_chacha20_poly1305_key_init(&kobj, x->key));
        kp = ctx_fault(x, &kobj, sizeof kobj, cp_key_wipe_v);
    }
    fx_arm(x, kp, sizeof kobj);
    int st = cp_aead_call(keyed, xc, open, kp, x->k, x->v, x->a, x->alen, x->i, x->len, x->o,
                     open ? (x->t ? good : NULL) : x->t);
    if (kp)
        CHECK(memcmp(kp, x->snap, sizeof kobj) == 0, "%s: key object changed", w);
    if (st == IC_ERR_AUTH)
        CHECK(x->o == NULL || tl_all_byte(x->o, x->len, 0), "%s: out not zeroed after IC_ERR_AUTH", w);
    if (st == IC_OK && x->r->want == IC_OK) {
        uint8_t tag[16];
        const uint8_t *a = x->a ? x->aad : e, *in = x->len ? x->src : e;
        int r = cp_aead_call(0, xc, open, NULL, x->key, x->iv0, a, x->alen, in, x->len, out, open ? good : tag);
        CHECK(r == IC_OK, "%s: reference %d", w, r);
        if (x->len)
            CHECK_MEM(x->o, out, x->len, "%s: output", w);
        if (!open)
            CHECK_MEM(x->t, tag, 16, "%s: tag", w);
    }
    return st;
}

static void cp_wipe_v(void *c) { ic_chacha20_poly1305_wipe(c); }

/* The tag of the message cp_phase feeds a receiver: ciphertext {1..5}
 * after 7 bytes of AAD, under the row's key and 12-byte nonce. */
static void cp_good_tag(const fx *x, uint8_t tag[16])
{
    uint8_t p[5] = {1, 2, 3, 4, 5}, ct[5];
    MUST(ic_chacha20_xor(p, p, 5, x->iv0, 1, x->key));
    MUST(ic_chacha20_poly1305_seal(ct, tag, p, 5, x->aad, 7, x->iv0, x->key));
    CHECK(memcmp(ct, "\1\2\3\4\5", 5) == 0, "seal of the decrypted ciphertext");
}

/* The key object k of the row's key, and for a call after init, c in
 * the phase the row asks for (message begun with 7 bytes of AAD, then
 * data encrypted or decrypted, or finished). */
static void cp_phase(fx *x, ic_chacha20_poly1305_ctx *c, ic_chacha20_poly1305_key *k, const char *w)
{
    uint8_t d[5] = {1, 2, 3, 4, 5}, tag[16] = {0};
    const char *fn = x->r->fn;
    int dec = x->r->f & P_DEC || (strstr(fn, "_final_verify") && !(x->r->f & P_ENC));
    MUST(ic_chacha20_poly1305_key_init(k, x->key));
    if (strstr(fn, "_init"))
        return;
    CHECK(ic_chacha20_poly1305_init(c, k, x->iv0) == IC_OK, "%s: setup init", w);
    CHECK(ic_chacha20_poly1305_aad(c, x->aad, 7) == IC_OK, "%s: setup aad", w);
    if (x->r->f & P_ENC)
        CHECK(ic_chacha20_poly1305_encrypt(c, d, d, 5) == IC_OK, "%s: setup encrypt", w);
    if (dec)
        CHECK(ic_chacha20_poly1305_decrypt(c, d, d, 5) == IC_OK, "%s: setup decrypt", w);
    if (x->r->f & P_END)   /* a receiver's message ends too, with the wrong tag */
        CHECK((dec ? ic_chacha20_poly1305_final_verify(c, tag) : ic_chacha20_poly1305_final(c, tag)) ==
                  (dec ? IC_ERR_AUTH : IC_OK),
              "%s: setup final", w);
}

static int cp_call(const fx *x, ic_chacha20_poly1305_ctx *c, const ic_chacha20_poly1305_key *k,
                   const uint8_t *tagin)
{
    const char *fn = x->r->fn + strlen("ic_chacha20_poly1305_");
    if (!strcmp(x->r->fn, "ic_xchacha20_poly1305_init")) return ic_xchacha20_poly1305_init(c, k, x->v);
    if (!strcmp(fn, "init")) return ic_chacha20_poly1305_init(c, k, x->v);
    if (!strcmp(fn, "aad")) return ic_chacha20_poly1305_aad(c, x->a, x->alen);
    if (!strcmp(fn, "encrypt")) return ic_chacha20_poly1305_encrypt(c, x->o, x->i, x->len);
    if (!strcmp(fn, "decrypt")) return ic_chacha20_poly1305_decrypt(c, x->o, x->i, x->len);
    if (!strcmp(fn, "final")) return ic_chacha20_poly1305_final(c, x->t);
    if (!strcmp(fn, "final_verify")) return ic_chacha20_poly1305_final_verify(c, tagin);
    abort();
}

/* An init begun from a garbage context: the tag of the empty message it
 * starts equals the one-shot seal's. */
static void cp_init_check(const fx *x, ic_chacha20_poly1305_ctx *c, const char *w)
{
    uint8_t t1[16], t2[16];
    int xs = !strcmp(x->r->fn, "ic_xchacha20_poly1305_init");
    MUST(ic_chacha20_poly1305_final(c, t1));
    MUST(xs ? ic_xchacha20_poly1305_seal(NULL, t2, NULL, 0, NULL, 0, x->iv0, x->key)
            : ic_chacha20_poly1305_seal(NULL, t2, NULL, 0, NULL, 0, x->iv0, x->key));
    CHECK_MEM(t1, t2, 16, "%s: tag of the empty message", w);
}

/* The streaming calls.  For the two inits the faults C_ZERO and C_JUNK
 * apply to the key object (the context of an init is garbage anyway),
 * C_NULL and K_NULL make the context and the key object NULL; K_WIPED
 * wipes the key object before the call.  No call may change the key
 * object; a call that succeeds gives what the same call without the
 * fault gives, down to the tag the message ends with. */
static int run_cp_stream(fx *x, const char *w)
{
    static ic_chacha20_poly1305_ctx c, ref;
    static ic_chacha20_poly1305_key k, kref, ksnap;
    const char *fn = x->r->fn;
    int init = strstr(fn, "_init") != NULL, xs = !strcmp(fn, "ic_xchacha20_poly1305_init");
    fx_make(x, x->r, 32, xs ? 24 : 12, 9, 37, 16);
    cp_phase(x, &c, &k, w);
    ic_chacha20_poly1305_ctx *cp;
    const ic_chacha20_poly1305_key *kp = x->r->f & K_NULL ? NULL : &k;
    if (init) {
        memset(&c, 0xa5, sizeof c);
        cp = x->r->f & C_NULL ? NULL : &c;
        if (x->r->f & C_ZERO)
            memset(&k, 0, sizeof k);
        if (x->r->f & C_JUNK)
            memset(&k, 0xa5, sizeof k);
    } else {
        cp = ctx_fault(x, &c, sizeof c, cp_wipe_v);
    }
    if (x->r->f & K_WIPED)
        ic_chacha20_poly1305_key_wipe(&k);
    uint8_t good[16] = {0};
    if (strstr(fn, "_final_verify")) {
        cp_good_tag(x, good);
        if (x->r->f & BADTAG)
            good[0] ^= 1;
    }
    ksnap = k;
    fx_arm(x, init ? NULL : cp, sizeof c);
    int st = cp_call(x, cp, kp, x->t ? good : NULL);
    CHECK(memcmp(&k, &ksnap, sizeof k) == 0, "%s: the key object changed", w);
    if (init && st != IC_OK && cp)
        CHECK(ic_chacha20_poly1305_aad(cp, x->aad, 1) == IC_ERR_STATE, "%s: usable after a failed init", w);
    if (init && st == IC_OK)
        cp_init_check(x, cp, w);
    if (!init && (st == IC_OK || st == IC_ERR_AUTH) && strstr(fn, "_final"))
        CHECK(tl_all_byte(&c, sizeof c, 0), "%s: the context was not wiped", w);
    if (st == IC_OK && x->r->want == IC_OK && !init && !strstr(fn, "_final_verify")) {
        uint8_t out[64], in[64] = {0}, e[1] = {0}, t1[16], t2[16];
        memcpy(in, x->src, x->len < 64 ? x->len : 0);
        cp_phase(x, &ref, &kref, w);
        fx copy = *x;
        copy.a = x->a ? x->a : e, copy.i = in, copy.o = out, copy.t = t2;
        CHECK(cp_call(&copy, &ref, &kref, NULL) == IC_OK, "%s: reference", w);
        if (x->o && x->len && strstr(fn, "crypt"))
            CHECK_MEM(x->o, out, x->len, "%s: output", w);
        if (strstr(fn, "_final")) {
            CHECK_MEM(x->t, t2, 16, "%s: tag", w);
        } else if ((x->r->f & P_DEC) || strstr(fn, "_decrypt")) {
            CHECK(ic_chacha20_poly1305_final_verify(&c, t1) == IC_ERR_AUTH, "%s: final_verify after", w);
            ic_chacha20_poly1305_wipe(&ref);
        } else {
            CHECK(ic_chacha20_poly1305_final(&c, t1) == IC_OK && ic_chacha20_poly1305_final(&ref, t2) == IC_OK,
                  "%s: final after", w);
            CHECK_MEM(t1, t2, 16, "%s: tag after", w);
        }
    }
    return st;
}

/* ---- functions without a status -------------------------------------------- */
static int run_void(fx *x, const char *w)
{
    const char *fn = x->r->fn;
    fx_make(x, x->r, 0, 0, 0, 0, 0);
    fx_arm(x, NULL, 0);
    if (!strcmp(fn, "ic_aes_key_wipe")) {
        ic_aes_key_wipe(NULL);
    } else if (!strcmp(fn, "ic_aes_xts_key_wipe")) {
        ic_aes_xts_key_wipe(NULL);
        ic_aes_xts_key k;
        uint8_t key[32], tw[16] = {0}, b[16] = {0};
        for (int i = 0; i < 32; i++)
            key[i] = (uint8_t)i;
        MUST(ic_aes_xts_key_init(&k, key, 32));
        ic_aes_xts_key_wipe(&k);
        CHECK(tl_all_byte(&k, sizeof k, 0) && ic_aes_xts_encrypt(&k, b, b, 16, tw) == IC_ERR_STATE,
              "%s: wiped key zero and refused", w);
    } else if (!strcmp(fn, "ic_hmac_wipe")) {
        ic_hmac_wipe(NULL);
        ic_hmac_ctx c;
        uint8_t out[32];
        MUST(ic_hmac_init(&c, IC_HASH_SHA256, x->key, 20));
        MUST(ic_hmac_update(&c, ABC, 3));
        ic_hmac_wipe(&c);
        CHECK(tl_all_byte(&c, sizeof c, 0) && ic_hmac_update(&c, ABC, 3) == IC_ERR_STATE &&
              ic_hmac_final(&c, out, sizeof out) == IC_ERR_STATE &&
              ic_hmac_final_verify(&c, out, sizeof out) == IC_ERR_STATE,
              "%s: wiped context zero and refused", w);
    } else if (!strcmp(fn, "ic_aes_gcm_wipe")) {
        ic_aes_gcm_wipe(NULL);
    } else if (!strcmp(fn, "ic_aes_gcm_key_wipe")) {
        ic_aes_gcm_key_wipe(NULL);
    } else if (!strcmp(fn, "ic_poly1305_wipe")) {
        ic_poly1305_wipe(NULL);
    } else if (!strcmp(fn, "ic_chacha20_poly1305_wipe")) {
        ic_chacha20_poly1305_wipe(NULL);
    } else if (!strcmp(fn, "ic_chacha20_poly1305_key_wipe")) {
        ic_chacha20_poly1305_key_wipe(NULL);
    } else if (!strcmp(fn, "ic_mont_wipe")) {
        ic_mont_wipe(NULL);
    } else if (!strcmp(fn, "ic_rsa_public_key_wipe")) {
        ic_rsa_public_key_wipe(NULL);
    } else if (!strcmp(fn, "ic_rsa_private_key_wipe")) {
        ic_rsa_private_key_wipe(NULL);
    } else if (!strcmp(fn, "ic_wipe")) {
        ic_wipe(NULL, 0);
        uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        ic_wipe(b + 1, 6);
        CHECK(b[0] == 1 && b[7] == 8 && tl_all_byte(b + 1, 6, 0), "%s: exactly len bytes", w);
    } else if (!strcmp(fn, "ic_alloc") || !strcmp(fn, "ic_free")) {
        CHECK(ic_alloc(0) == NULL && ic_alloc(SIZE_MAX) == NULL, "%s: size 0 or too large: NULL", w);
        ic_free(NULL, 64);
        uint8_t *p = ic_alloc(100);
        CHECK(p && (uintptr_t)p % IC_OBJECT_ALIGN == 0 && tl_all_byte(p, 100, 0), "%s: aligned, zeroed", w);
        ic_free(p, 100);
    } else if (!strcmp(fn, "ic_ct_equal")) {
        CHECK(ic_ct_equal(NULL, NULL, 0) == 1 && ic_ct_equal("ab", "ac", 2) == 0 && ic_ct_equal("ab", "ab", 2) == 1,
              "%s", w);
    } else if (!strcmp(fn, "ic_crc32") || !strcmp(fn, "ic_crc32c")) {
        uint32_t (*f)(uint32_t, const uint8_t *, size_t) = fn[8] ? ic_crc32c : ic_crc32;
        CHECK(f(0x12345678, NULL, 5) == 0 && f(0x12345678, NULL, 0) == 0, "%s: NULL buf gives 0", w);
        CHECK(f(0, (const uint8_t *)"123456789", 9) == (fn[8] ? IC_CRC32C_CHECK : IC_CRC32_CHECK),
              "%s: check value", w);
    } else if (!strcmp(fn, "ic_crc32_combine") || !strcmp(fn, "ic_crc32c_combine")) {
        uint32_t (*f)(uint32_t, uint32_t, uint64_t) = fn[8] == 'c' ? ic_crc32c_combine : ic_crc32_combine;
        uint32_t (*c)(uint32_t, const uint8_t *, size_t) = fn[8] == 'c' ? ic_crc32c : ic_crc32;
        const uint8_t *m = (const uint8_t *)"123456789";
        CHECK(f(0xdeadbeef, 0, 0) == 0xdeadbeef, "%s: empty B", w);
        CHECK(f(c(0, m, 4), c(0, m + 4, 5), 5) == c(0, m, 9), "%s: split", w);
        CHECK(f(0, c(0, m, 1), UINT64_MAX) == f(0, c(0, m, 1), UINT64_MAX), "%s: huge len2 returns", w);
    } else if (!strcmp(fn, "ic_version")) {
        CHECK(ic_version() && !strcmp(ic_version(), IC_VERSION_STRING), "%s", w);
    } else if (!strcmp(fn, "ic_version_number")) {
        char v[32];
        snprintf(v, sizeof v, "%lu.%lu.%lu", ic_version_number() / 10000, ic_version_number() / 100 % 100,
                 ic_version_number() % 100);
        CHECK(ic_version_number() == IC_VERSION_NUMBER && !strcmp(v, ic_version()), "%s: %s", w, v);
    } else if (!strcmp(fn, "ic_status_str")) {
        for (int s = IC_OK; s >= IC_ERR_DECODE; s--)
            for (int t = s - 1; t >= IC_ERR_DECODE; t--)
                CHECK(ic_status_str(s) && ic_status_str(t) && strcmp(ic_status_str(s), ic_status_str(t)),
                      "%s: %d and %d share a text", w, s, t);
        CHECK(ic_status_str(-999) != NULL && ic_status_str(1) != NULL, "%s: unknown status", w);
    } else if (!strcmp(fn, "ic_cpu_detected") || !strcmp(fn, "ic_cpu_features") ||
               !strcmp(fn, "ic_cpu_forced")) {
        CHECK((ic_cpu_features() & ~ic_cpu_detected()) == 0, "%s: features within detected", w);
        CHECK((ic_cpu_forced() & ~ic_cpu_detected()) == 0, "%s: forced within detected", w);
    } else if (!strcmp(fn, "ic_cpu_set_mask")) {
        CHECK(ic_cpu_set_mask(0) == IC_OK, "%s: mask 0", w);
        CHECK(ic_cpu_features() == 0, "%s: nothing left", w);
        CHECK(ic_cpu_set_mask(~UINT64_C(0)) == IC_OK && ic_cpu_features() == ic_cpu_detected(), "%s: restore", w);
    } else if (!strcmp(fn, "ic_cpu_parse")) {
        uint64_t k = 0;
        int st = ic_cpu_parse(&k, "no such feature!");
        CHECK(st == IC_ERR_SYNTAX || st == IC_ERR_UNKNOWN, "%s: malformed spec gave %d", w, st);
        CHECK(ic_cpu_parse(&k, NULL) == IC_ERR_NULL, "%s: NULL spec (GAP: not documented)", w);
        CHECK(ic_cpu_parse(NULL, "none") == IC_ERR_NULL, "%s: NULL out (GAP: not documented)", w);
        CHECK(ic_cpu_parse(&k, "none") == IC_OK && k == 0, "%s: none", w);
    } else if (!strcmp(fn, "ic_cpu_feature_name")) {
        CHECK(ic_cpu_feature_name(64) == NULL && ic_cpu_feature_name(~0u) == NULL, "%s: past the last bit", w);
    } else if (!strcmp(fn, "ic_cpu_arch") || !strcmp(fn, "ic_cpu_model") || !strcmp(fn, "ic_env_error")) {
        CHECK(ic_cpu_arch() != NULL && *ic_cpu_arch(), "%s: arch", w);
        const char *m = ic_cpu_model();   /* GAP: may it be NULL when unknown? */
        CHECK(m == NULL || strlen(m) < 256, "%s: model", w);
        CHECK(ic_env_error() == NULL, "%s: no INCORE_* error in this test's environment", w);
    } else if (!strcmp(fn, "ic_impl_count") || !strcmp(fn, "ic_impl_name") || !strcmp(fn, "ic_impl_available") ||
               !strcmp(fn, "ic_impl_selected") || !strcmp(fn, "ic_prim_name") || !strcmp(fn, "ic_impl_auto_for")) {
        CHECK(ic_impl_count("nope") == 0 && ic_impl_count(NULL) == 0, "%s: unknown prim count", w);
        CHECK(ic_impl_name("aes", 9999) == NULL && ic_impl_name("nope", 0) == NULL && ic_impl_name(NULL, 0) == NULL,
              "%s: name out of range", w);
        CHECK(ic_impl_available("aes", 9999) == 0 && ic_impl_available("nope", 0) == 0, "%s: available", w);
        CHECK(ic_impl_selected("nope") == NULL && ic_impl_selected(NULL) == NULL, "%s: selected", w);
        CHECK(ic_impl_auto_for("nope", ~UINT64_C(0)) == NULL && ic_impl_auto_for(NULL, 0) == NULL &&
                  ic_impl_auto_for("aes", 0) != NULL,
              "%s: auto_for", w);
        size_t i = 0;
        while (ic_prim_name(i))
            i++;
        CHECK(i >= 10 && ic_prim_name(i + 1000) == NULL, "%s: prim names end with NULL", w);
    } else if (!strcmp(fn, "ic_impl_select")) {
        CHECK(ic_impl_select("nope", "x") == IC_ERR_UNKNOWN, "%s: unknown prim", w);
        CHECK(ic_impl_select("aes", "nope") == IC_ERR_UNKNOWN, "%s: unknown impl", w);
        int st = ic_impl_select(NULL, "x");   /* GAP: not documented; NULL or UNKNOWN */
        CHECK(st == IC_ERR_NULL || st == IC_ERR_UNKNOWN, "%s: NULL prim gave %d", w, st);
        CHECK(ic_impl_select("aes", NULL) == IC_OK && ic_impl_select("aes", "auto") == IC_OK, "%s: auto", w);
        for (size_t p = 0; ic_prim_name(p); p++)
            for (size_t i = 0; i < ic_impl_count(ic_prim_name(p)); i++)
                if (!ic_impl_available(ic_prim_name(p), i))
                    CHECK(ic_impl_select(ic_prim_name(p), ic_impl_name(ic_prim_name(p), i)) == IC_ERR_UNAVAILABLE,
                          "%s: %s/%s not available", w, ic_prim_name(p), ic_impl_name(ic_prim_name(p), i));
    } else if (!strcmp(fn, "ic_selftest")) {
        CHECK(ic_selftest("nope") == IC_ERR_UNKNOWN, "%s: unknown", w);
        CHECK(ic_selftest(NULL) == IC_ERR_UNKNOWN || ic_selftest(NULL) == IC_ERR_NULL, "%s: NULL (GAP)", w);
    } else if (!strcmp(fn, "ic_rand_hw") || !strcmp(fn, "ic_rand_hw_source")) {
        uint8_t *b = tl_guarded_alloc(33, FILL);
        const char *src = ic_rand_hw_source();
        CHECK(src && !strcmp(src, ic_impl_selected("hwrand")), "%s: source name", w);
        CHECK(ic_rand_hw(NULL, 5) == IC_ERR_NULL, "%s: NULL with length", w);
        int st = ic_rand_hw(NULL, 0);
        CHECK(st == IC_OK || (st == IC_ERR_UNAVAILABLE && !strcmp(src, "none")), "%s: NULL, 0: %d", w, st);
        st = ic_rand_hw(b, 33);
        CHECK(st == IC_OK || (st == IC_ERR_UNAVAILABLE && tl_all_byte(b, 33, 0)), "%s: 33 bytes: %d", w, st);
        tl_guarded_free(b, 33);
    } else if (!strcmp(fn, "ic_random") || !strcmp(fn, "ic_random_reseed") ||
               !strcmp(fn, "ic_random_set_prediction_resistance")) {
        uint8_t *b = tl_guarded_alloc(33, FILL);
        static uint8_t big[1025];
        CHECK(ic_random(NULL, 5) == IC_ERR_NULL && ic_random(NULL, 0) == IC_OK, "%s: NULL", w);
        CHECK(ic_random(b, 33) == IC_OK && !tl_all_byte(b, 33, FILL), "%s: 33 bytes to the guard", w);
        CHECK(ic_random_reseed(NULL, 3) == IC_ERR_NULL && ic_random_reseed(NULL, 0) == IC_OK, "%s: reseed NULL", w);
        CHECK(ic_random_reseed(big, sizeof big) == IC_ERR_TOOLONG, "%s: additional input over 1 KiB", w);
        ic_random_set_prediction_resistance(1);
        CHECK(ic_random(b, 33) == IC_OK, "%s: with prediction resistance", w);
        ic_random_set_prediction_resistance(0);
        tl_guarded_free(b, 33);
    } else if (!strncmp(fn, "ic_rand_source_", 15)) {
        uint8_t *b = tl_guarded_alloc(33, FILL);
        ic_rand_health h;
        size_t n = ic_rand_source_count();
        CHECK(n >= 1 && ic_rand_source_name(n) == NULL && ic_rand_source_name((size_t)-1) == NULL, "%s: names", w);
        CHECK(ic_rand_source_health(NULL, &h) == IC_ERR_NULL && ic_rand_source_health("os", NULL) == IC_ERR_NULL,
              "%s: health NULL", w);
        CHECK(ic_rand_source_health("nope", &h) == IC_ERR_UNKNOWN, "%s: unknown source", w);
        CHECK(ic_rand_source_read(NULL, b, 1) == IC_ERR_NULL && ic_rand_source_read("os", NULL, 1) == IC_ERR_NULL,
              "%s: read NULL", w);
        CHECK(ic_rand_source_read("nope", b, 33) == IC_ERR_UNKNOWN && tl_all_byte(b, 33, 0), "%s: unknown, zeroed", w);
        CHECK(ic_rand_source_read("os", b, 33) == IC_OK, "%s: os 33 bytes to the guard", w);
        tl_guarded_free(b, 33);
    } else if (!strcmp(fn, "ic_hash_digest_size") || !strcmp(fn, "ic_hash_block_size") ||
               !strcmp(fn, "ic_hash_name")) {
        CHECK(ic_hash_digest_size((ic_hash_alg)99) == 0 && ic_hash_block_size((ic_hash_alg)99) == 0 &&
              ic_hash_name((ic_hash_alg)99) == NULL && ic_hash_name((ic_hash_alg)-1) == NULL, "%s: bad alg", w);
        CHECK(ic_hash_digest_size(IC_HASH_SHA384) == 48 && ic_hash_block_size(IC_HASH_SHA384) == 128, "%s", w);
    } else if (!strcmp(fn, "ic_hash_from_name")) {
        ic_hash_alg a = IC_HASH_SHA1;
        CHECK(ic_hash_from_name(&a, NULL) == IC_ERR_NULL, "%s: NULL name", w);
        CHECK(ic_hash_from_name(NULL, "sha256") == IC_ERR_NULL, "%s: NULL alg", w);
        CHECK(ic_hash_from_name(NULL, NULL) == IC_ERR_NULL, "%s: both NULL", w);
        CHECK(ic_hash_from_name(&a, "md5") == IC_ERR_UNKNOWN && ic_hash_from_name(&a, "") == IC_ERR_UNKNOWN &&
              a == IC_HASH_SHA1, "%s: unknown, alg not written", w);
        CHECK(ic_hash_from_name(&a, "SHA-512/256") == IC_OK && a == IC_HASH_SHA512_256, "%s: known", w);
    } else {
        CHECK(0, "no void check for %s", fn);
    }
    return IC_OK;
}

/* ---- dispatch ----------------------------------------------------------- */
static int run_row(fx *x, const char *w)
{
    const char *fn = x->r->fn;
    const char *op;
    if (!strcmp(fn, "ic_aes_key_init")) return run_aes_init(x, w);
    if (!strcmp(fn, "ic_aes_xts_key_init")) return run_xts_init(x, w);
    if (!strncmp(fn, "ic_aes_xts_", 11) && strcmp(fn, "ic_aes_xts_key_wipe")) return run_xts(x, w);
    if (!strncmp(fn, "ic_aes_", 7) && strcmp(fn, "ic_aes_key_wipe") && strcmp(fn, "ic_aes_xts_key_wipe") &&
        !strstr(fn, "gcm"))
        return run_aes_mode(x, w);
    if (!strcmp(fn, "ic_aes_gcm_init") || !strcmp(fn, "ic_aes_gcm_aad") || !strcmp(fn, "ic_aes_gcm_encrypt") ||
        !strcmp(fn, "ic_aes_gcm_decrypt") || !strcmp(fn, "ic_aes_gcm_final") || !strcmp(fn, "ic_aes_gcm_final_verify"))
        return run_gcm_stream(x, w);
    if (!strcmp(fn, "ic_aes_gcm_key_init")) return run_gcm_key_init(x, w);
    if (!strncmp(fn, "ic_aes_gcm_", 11) && strcmp(fn, "ic_aes_gcm_key_wipe")) return run_gcm_oneshot(x, w);
    if (!strncmp(fn, "ic_sha", 6) && sha_of(fn, &op)) return run_sha(x, w);
    if (!strcmp(fn, "ic_hash") || !strcmp(fn, "ic_hash_init") || !strcmp(fn, "ic_hash_update") ||
        !strcmp(fn, "ic_hash_final"))
        return run_hash(x, w);
    if (!strncmp(fn, "ic_hmac", 7) && strcmp(fn, "ic_hmac_wipe")) return run_hmac(x, w);
    if (!strncmp(fn, "ic_hkdf", 7)) return run_hkdf(x, w);
    if (!strncmp(fn, "ic_poly1305", 11) && strcmp(fn, "ic_poly1305_wipe")) return run_poly(x, w);
    if (!strcmp(fn, "ic_chacha20_poly1305_key_init")) return run_cp_key_init(x, w);
    if (strstr(fn, "_key_from_")) return run_rsa_der(x, w);
    if (!strncmp(fn, "ic_rsa_private_", 15) && strcmp(fn, "ic_rsa_private_key_wipe")) return run_rsa_priv(x, w);
    if (!strncmp(fn, "ic_rsa_sign_", 12) || strstr(fn, "crypt_oaep")) return run_rsa_priv(x, w);
    if (!strncmp(fn, "ic_rsa_", 7) && !strstr(fn, "_wipe")) return run_rsa(x, w);
    if (strstr(fn, "_wipe")) return run_void(x, w);
    if ((strstr(fn, "chacha20_poly1305_") && !strstr(fn, "_seal") && !strstr(fn, "_open")))
        return run_cp_stream(x, w);
    if (strstr(fn, "chacha20")) return run_chacha(x, w) ;
    if (!strncmp(fn, "ic_mont_", 8) && strcmp(fn, "ic_mont_wipe"))
        return run_bn(x, w);
    return run_void(x, w);
}

#define R(fn, f, n, want, rule) { fn, f, n, want, rule }
#define HUGE_GCM ((long long)((UINT64_C(1) << 36) - 31))   /* IC_GCM_MAX_DATA + 1 */

static const row rows[] = {
    /* ---- AES key and modes ---- */
    R("ic_aes_key_init", C_NULL, 0, IC_ERR_NULL, "NULL key struct"),
    R("ic_aes_key_init", K_NULL, 0, IC_ERR_NULL, "NULL key bytes, keylen 16"),
    R("ic_aes_key_init", KLEN, 15, IC_ERR_KEYLEN, "keylen 15"),
    R("ic_aes_key_init", KLEN, 0, IC_ERR_KEYLEN, "keylen 0"),
    R("ic_aes_key_init", KLEN, 64, IC_ERR_KEYLEN, "keylen 64"),
    R("ic_aes_key_init", K_NULL | KLEN, 0, IC_ERR_KEYLEN, "NULL key with keylen 0: step 2 passes, step 3 fails"),
    R("ic_aes_key_init", C_NULL | KLEN, 15, IC_ERR_NULL, "NULL struct and keylen 15: step 1 first"),
    R("ic_aes_key_init", K_NULL | KLEN, 15, IC_ERR_NULL, "NULL key and keylen 15: step 2 first"),
    R("ic_aes_key_init", KLEN, 24, IC_OK, "keylen 24"),
    R("ic_aes_key_init", KLEN, 32, IC_OK, "keylen 32"),
#define AES_MODE_ROWS(fn, blk)                                                                        \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL key"),                                                        \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "zero-filled key never initialised"),                              \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage key"),                                               \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped key"),                                                     \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL in, len > 0"),                                                \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL out, len > 0"),                                               \
    R(fn, EMPTY, 0, IC_OK, "NULL in and out with len 0"),                                             \
    R(fn, OVL, 0, IC_ERR_OVERLAP, "out = in + 1"),                                                    \
    R(fn, INPL, 0, IC_OK, "out == in"),                                                               \
    R(fn, LEN, 17, blk ? IC_ERR_LENGTH : IC_OK, "len 17"),                                            \
    R(fn, C_JUNK | O_NULL, 0, IC_ERR_STATE, "garbage key and NULL out: step 1 first"),               \
    R(fn, C_NULL | LEN, 17, IC_ERR_NULL, "NULL key and len 17: step 1 first"),                        \
    R(fn, I_NULL | LEN, 17, IC_ERR_NULL, "NULL in and len 17: step 2 first"),                         \
    R(fn, OVL | LEN, 17, blk ? IC_ERR_LENGTH : IC_ERR_OVERLAP, "len 17 and overlap: step 3 first")
    AES_MODE_ROWS("ic_aes_ecb_encrypt", 1), AES_MODE_ROWS("ic_aes_ecb_decrypt", 1),
    AES_MODE_ROWS("ic_aes_cbc_encrypt", 1), AES_MODE_ROWS("ic_aes_cbc_decrypt", 1),
    AES_MODE_ROWS("ic_aes_ctr_crypt", 0), AES_MODE_ROWS("ic_aes_cfb128_encrypt", 0),
    AES_MODE_ROWS("ic_aes_cfb128_decrypt", 0), AES_MODE_ROWS("ic_aes_ofb_crypt", 0),
#define AES_IV_ROWS(fn)                                                                               \
    R(fn, V_NULL, 0, IC_ERR_NULL, "NULL IV (GAP: the IV array has no length argument; taken as non-zero)"), \
    R(fn, V_NULL | LEN, 17, IC_ERR_NULL, "NULL IV and len 17")
    AES_IV_ROWS("ic_aes_cbc_encrypt"), AES_IV_ROWS("ic_aes_cbc_decrypt"), AES_IV_ROWS("ic_aes_ctr_crypt"),
    AES_IV_ROWS("ic_aes_cfb128_encrypt"), AES_IV_ROWS("ic_aes_cfb128_decrypt"), AES_IV_ROWS("ic_aes_ofb_crypt"),
    R("ic_aes_key_wipe", 0, 0, IC_OK, "NULL does nothing"),

    /* ---- XTS-AES ---- */
    R("ic_aes_xts_key_init", C_NULL, 0, IC_ERR_NULL, "NULL key struct"),
    R("ic_aes_xts_key_init", K_NULL, 0, IC_ERR_NULL, "NULL key bytes, keylen 32"),
    R("ic_aes_xts_key_init", KLEN, 16, IC_ERR_KEYLEN, "keylen 16 (one AES key)"),
    R("ic_aes_xts_key_init", KLEN, 48, IC_ERR_KEYLEN, "keylen 48 (AES-192 halves: not in IEEE 1619)"),
    R("ic_aes_xts_key_init", KLEN, 0, IC_ERR_KEYLEN, "keylen 0"),
    R("ic_aes_xts_key_init", KLEN, 65, IC_ERR_KEYLEN, "keylen 65"),
    R("ic_aes_xts_key_init", K_NULL | KLEN, 0, IC_ERR_KEYLEN, "NULL key with keylen 0"),
    R("ic_aes_xts_key_init", C_NULL | KLEN, 16, IC_ERR_NULL, "NULL struct and keylen 16: step 1 first"),
    R("ic_aes_xts_key_init", EQKEY, 0, IC_ERR_WEAKKEY, "key1 == key2 (SP 800-38E 5.1)"),
    R("ic_aes_xts_key_init", EQKEY | KLEN, 64, IC_ERR_WEAKKEY, "key1 == key2, 64 bytes"),
    R("ic_aes_xts_key_init", EQKEY | KLEN, 48, IC_ERR_KEYLEN, "equal halves and keylen 48: length first"),
    R("ic_aes_xts_key_init", KLEN, 64, IC_OK, "keylen 64"),
#define XTS_ROWS(fn)                                                                                  \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL key"),                                                        \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "zero-filled key never initialised"),                              \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage key"),                                               \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped key"),                                                     \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL in, len > 0"),                                                \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL out, len > 0"),                                               \
    R(fn, EMPTY, 0, IC_ERR_LENGTH, "NULL in and out with len 0: a data unit is at least 16 bytes"),   \
    R(fn, LEN, 15, IC_ERR_LENGTH, "len 15"),                                                          \
    R(fn, LEN, 16, IC_OK, "len 16"),                                                                  \
    R(fn, LEN, 17, IC_OK, "len 17 (stealing)"),                                                       \
    R(fn, LEN, (1 << 24) + 1, IC_ERR_TOOLONG, "len 2^24 + 1: over 2^20 blocks (IEEE 1619 5.1)"),      \
    R(fn, LEN, -1, IC_ERR_TOOLONG, "len SIZE_MAX"),                                                   \
    R(fn, OVL, 0, IC_ERR_OVERLAP, "out = in + 1"),                                                    \
    R(fn, INPL, 0, IC_OK, "out == in"),                                                               \
    R(fn, C_JUNK | O_NULL, 0, IC_ERR_STATE, "garbage key and NULL out: step 1 first"),               \
    R(fn, I_NULL | LEN, 15, IC_ERR_NULL, "NULL in and len 15: step 2 first"),                         \
    R(fn, OVL | LEN, 15, IC_ERR_LENGTH, "len 15 and overlap: step 3 first")
    XTS_ROWS("ic_aes_xts_encrypt"), XTS_ROWS("ic_aes_xts_decrypt"),
    XTS_ROWS("ic_aes_xts_encrypt_sector"), XTS_ROWS("ic_aes_xts_decrypt_sector"),
    R("ic_aes_xts_encrypt", V_NULL, 0, IC_ERR_NULL, "NULL tweak"),
    R("ic_aes_xts_decrypt", V_NULL, 0, IC_ERR_NULL, "NULL tweak"),
    R("ic_aes_xts_encrypt", V_NULL | I_NULL, 0, IC_ERR_NULL, "NULL tweak and in"),
    R("ic_aes_xts_encrypt", C_WIPED | V_NULL, 0, IC_ERR_STATE, "wiped key and NULL tweak: step 1 first"),
    R("ic_aes_xts_key_wipe", 0, 0, IC_OK, "NULL does nothing; a wiped key is zero and refused"),

    /* ---- GCM streaming ---- */
    R("ic_aes_gcm_init", C_NULL, 0, IC_ERR_NULL, "NULL context"),
    R("ic_aes_gcm_init", K_NULL, 0, IC_ERR_NULL, "NULL key object"),
    R("ic_aes_gcm_init", C_NULL | K_NULL, 0, IC_ERR_NULL, "NULL context and key object"),
    R("ic_aes_gcm_init", K_WIPED, 0, IC_ERR_STATE, "wiped key object"),
    R("ic_aes_gcm_init", K_WIPED, 1, IC_ERR_STATE, "0xA5 garbage key object"),
    R("ic_aes_gcm_init", K_WIPED, 2, IC_ERR_STATE, "zero-filled key object"),
    R("ic_aes_gcm_init", K_WIPED | V_NULL, 0, IC_ERR_STATE, "wiped key object and NULL IV: step 1 first"),
    R("ic_aes_gcm_init", K_NULL | VLEN, 0, IC_ERR_NULL, "NULL key object and ivlen 0: step 1 first"),
    R("ic_aes_gcm_init", C_NULL | K_WIPED, 0, IC_ERR_NULL, "NULL context and wiped key object: NULL first"),
    R("ic_aes_gcm_init", V_NULL, 0, IC_ERR_NULL, "NULL IV, ivlen 12"),
    R("ic_aes_gcm_init", VLEN, 0, IC_ERR_IVLEN, "ivlen 0"),
    R("ic_aes_gcm_init", V_NULL | VLEN, 0, IC_ERR_IVLEN, "NULL IV with ivlen 0: step 2 passes, step 3 fails"),
    R("ic_aes_gcm_init", VLEN, 1, IC_OK, "ivlen 1"),
    R("ic_aes_gcm_init", 0, 0, IC_OK, "garbage context: init wipes it first"),
    R("ic_aes_gcm_init", C_ZERO, 0, IC_OK, "zero-filled context"),
    R("ic_aes_gcm_init", C_WIPED, 0, IC_OK, "wiped context"),
    R("ic_aes_gcm_init", P_ENC, 0, IC_OK, "in the middle of a message: abandons it"),
    R("ic_aes_gcm_init", P_ENC | VLEN, 0, IC_ERR_IVLEN, "refused in the middle of a message: context wiped"),
#define GCM_CTX_ROWS(fn)                                                                              \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL context"),                                                    \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),                                            \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context"),                                           \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped context"),                                                 \
    R(fn, K_WIPED, 0, IC_ERR_STATE, "key object wiped in the middle of the message"),                 \
    R(fn, K_WIPED, 1, IC_ERR_STATE, "key object overwritten with garbage in the message"),            \
    R(fn, C_NULL | K_WIPED, 0, IC_ERR_NULL, "NULL context, key object wiped: NULL first")
    GCM_CTX_ROWS("ic_aes_gcm_aad"), GCM_CTX_ROWS("ic_aes_gcm_encrypt"),
    GCM_CTX_ROWS("ic_aes_gcm_decrypt"), GCM_CTX_ROWS("ic_aes_gcm_final"), GCM_CTX_ROWS("ic_aes_gcm_final_verify"),
    R("ic_aes_gcm_aad", A_NULL, 0, IC_ERR_NULL, "NULL AAD, len 9"),
    R("ic_aes_gcm_aad", EMPTY, 0, IC_OK, "NULL AAD, len 0"),
    R("ic_aes_gcm_aad", P_ENC, 0, IC_ERR_STATE, "AAD after data"),
    R("ic_aes_gcm_aad", P_NOSTART, 0, IC_ERR_STATE, "AAD before init"),
    R("ic_aes_gcm_aad", P_END, 0, IC_ERR_STATE, "AAD after final"),
    R("ic_aes_gcm_aad", ALEN, -1, IC_ERR_TOOLONG, "AAD of SIZE_MAX bytes (over 2^61-1)"),
    R("ic_aes_gcm_aad", A_NULL | P_ENC, 0, IC_ERR_NULL, "NULL AAD after data: step 2 before step 5"),
    R("ic_aes_gcm_aad", ALEN | P_ENC, -1, IC_ERR_TOOLONG, "SIZE_MAX AAD after data: step 3 before step 5"),
    R("ic_aes_gcm_aad", K_WIPED | A_NULL, 0, IC_ERR_STATE, "key object wiped and NULL AAD: step 1 first"),
#define GCM_DATA_ROWS(fn, other)                                                                      \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),                                                 \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL out, len 37"),                                                \
    R(fn, EMPTY, 0, IC_OK, "NULL in and out, len 0"),                                                 \
    R(fn, INPL, 0, IC_OK, "in place"),                                                                \
    R(fn, OVL, 0, IC_ERR_OVERLAP, "out = in + 1"),                                                    \
    R(fn, LEN, HUGE_GCM, IC_ERR_TOOLONG, "2^36-31 bytes with a 64-byte buffer"),                      \
    R(fn, LEN, -1, IC_ERR_TOOLONG, "SIZE_MAX bytes"),                                                 \
    R(fn, P_NOSTART, 0, IC_ERR_STATE, "data before init"),                                            \
    R(fn, P_END, 0, IC_ERR_STATE, "data after final"),                                                \
    R(fn, other, 0, IC_ERR_STATE, "encrypt and decrypt mixed"),                                       \
    R(fn, C_JUNK | I_NULL, 0, IC_ERR_STATE, "garbage context and NULL in: step 1 first"),            \
    R(fn, K_WIPED | OVL, 0, IC_ERR_STATE, "key object wiped and overlap: step 1 first"),             \
    R(fn, I_NULL | LEN, HUGE_GCM, IC_ERR_NULL, "NULL in and too long: step 2 first"),                 \
    R(fn, OVL | LEN, HUGE_GCM, IC_ERR_TOOLONG, "too long and overlapping: step 3 first"),             \
    R(fn, OVL | P_END, 0, IC_ERR_STATE, "overlap after final: the context was wiped (step 1)"),       \
    R(fn, OVL | other, 0, IC_ERR_OVERLAP, "overlap with the direction mixed: step 4 before step 5"),  \
    R(fn, LEN | other, HUGE_GCM, IC_ERR_TOOLONG, "too long, direction mixed: step 3 before step 5")
    GCM_DATA_ROWS("ic_aes_gcm_encrypt", P_DEC), GCM_DATA_ROWS("ic_aes_gcm_decrypt", P_ENC),
    R("ic_aes_gcm_final", T_NULL, 0, IC_ERR_NULL, "NULL tag, taglen 16"),
    R("ic_aes_gcm_final", TLEN, 3, IC_ERR_TAGLEN, "taglen 3"),
    R("ic_aes_gcm_final", TLEN, 0, IC_ERR_TAGLEN, "taglen 0"),
    R("ic_aes_gcm_final", TLEN, 9, IC_ERR_TAGLEN, "taglen 9"),
    R("ic_aes_gcm_final", TLEN, 11, IC_ERR_TAGLEN, "taglen 11"),
    R("ic_aes_gcm_final", TLEN, 17, IC_ERR_TAGLEN, "taglen 17"),
    R("ic_aes_gcm_final", TLEN, 4, IC_OK, "taglen 4"),
    R("ic_aes_gcm_final", TLEN, 8, IC_OK, "taglen 8"),
    R("ic_aes_gcm_final", TLEN, 12, IC_OK, "taglen 12"),
    R("ic_aes_gcm_final", 0, 0, IC_OK, "taglen 16"),
    R("ic_aes_gcm_final", P_DEC, 0, IC_ERR_STATE, "final after decrypt"),
    R("ic_aes_gcm_final", P_NOSTART, 0, IC_ERR_STATE, "final before init"),
    R("ic_aes_gcm_final", P_END, 0, IC_ERR_STATE, "final twice"),
    R("ic_aes_gcm_final", TLEN | P_DEC, 3, IC_ERR_TAGLEN, "taglen 3 after decrypt: step 3 before step 5"),
    R("ic_aes_gcm_final", T_NULL | TLEN, 3, IC_ERR_NULL, "NULL tag and taglen 3: step 2 first"),
    R("ic_aes_gcm_final", C_JUNK | TLEN, 3, IC_ERR_STATE, "garbage context and taglen 3: step 1 first"),
    R("ic_aes_gcm_final", K_WIPED | T_NULL, 0, IC_ERR_STATE, "key object wiped and NULL tag: step 1 first"),
    R("ic_aes_gcm_final_verify", 0, 0, IC_OK, "right tag"),
    R("ic_aes_gcm_final_verify", BADTAG, 0, IC_ERR_AUTH, "wrong tag"),
    R("ic_aes_gcm_final_verify", T_NULL, 0, IC_ERR_NULL, "NULL tag, taglen 16"),
    R("ic_aes_gcm_final_verify", TLEN, 3, IC_ERR_TAGLEN, "taglen 3"),
    R("ic_aes_gcm_final_verify", TLEN, 17, IC_ERR_TAGLEN, "taglen 17"),
    R("ic_aes_gcm_final_verify", P_ENC, 0, IC_ERR_STATE, "final_verify after encrypt"),
    R("ic_aes_gcm_final_verify", TLEN | BADTAG, 3, IC_ERR_TAGLEN, "taglen 3 and wrong tag: step 3 before step 6"),
    R("ic_aes_gcm_final_verify", P_ENC | BADTAG, 0, IC_ERR_STATE, "after encrypt and wrong tag: step 5 before 6"),
    R("ic_aes_gcm_final_verify", K_WIPED | BADTAG, 0, IC_ERR_STATE, "key object wiped and wrong tag: step 1 first"),
    R("ic_aes_gcm_wipe", 0, 0, IC_OK, "NULL does nothing"),

    /* ---- GCM one-shot, with a raw key and with a key object ---- */
#define GCM_MSG_ROWS(fn)                                                                              \
    R(fn, V_NULL, 0, IC_ERR_NULL, "NULL IV"),                                                         \
    R(fn, A_NULL, 0, IC_ERR_NULL, "NULL AAD, aadlen 9"),                                              \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL in"),                                                         \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL out"),                                                        \
    R(fn, T_NULL, 0, IC_ERR_NULL, "NULL tag"),                                                        \
    R(fn, EMPTY, 0, IC_OK, "NULL AAD, in and out with lengths 0"),                                    \
    R(fn, VLEN, 0, IC_ERR_IVLEN, "ivlen 0"),                                                          \
    R(fn, VLEN, 1, IC_OK, "ivlen 1"),                                                                 \
    R(fn, VLEN, 32, IC_OK, "ivlen 32"),                                                               \
    R(fn, TLEN, 3, IC_ERR_TAGLEN, "taglen 3"),                                                        \
    R(fn, TLEN, 10, IC_ERR_TAGLEN, "taglen 10"),                                                      \
    R(fn, TLEN, 17, IC_ERR_TAGLEN, "taglen 17"),                                                      \
    R(fn, TLEN, 13, IC_OK, "taglen 13"),                                                              \
    R(fn, LEN, HUGE_GCM, IC_ERR_TOOLONG, "2^36-31 bytes with a 64-byte buffer"),                      \
    R(fn, ALEN, -1, IC_ERR_TOOLONG, "AAD of SIZE_MAX bytes"),                                         \
    R(fn, INPL, 0, IC_OK, "in place"),                                                                \
    R(fn, OVL, 0, IC_ERR_OVERLAP, "out = in + 1"),                                                    \
    R(fn, O_NULL | VLEN, 0, IC_ERR_NULL, "NULL out and ivlen 0: step 2 first"),                       \
    R(fn, VLEN | TLEN, 0, IC_ERR_IVLEN, "ivlen 0 and taglen 0: IV before tag"),                       \
    R(fn, TLEN | LEN, 3, IC_ERR_TAGLEN, "taglen 3 and len 3 (stream mode: fine) -> TAGLEN"),          \
    R(fn, OVL | LEN, HUGE_GCM, IC_ERR_TOOLONG, "too long and overlapping: limit before overlap")
#define GCM_ONESHOT_ROWS(fn)                                                                          \
    R(fn, K_NULL, 0, IC_ERR_NULL, "NULL key"),                                                        \
    R(fn, KLEN, 17, IC_ERR_KEYLEN, "keylen 17"),                                                      \
    R(fn, K_NULL | VLEN, 0, IC_ERR_NULL, "NULL key and ivlen 0: step 2 first"),                       \
    R(fn, O_NULL | KLEN, 17, IC_ERR_NULL, "NULL out and keylen 17: step 2 first"),                    \
    R(fn, KLEN | VLEN, 17, IC_ERR_KEYLEN, "keylen 17 and ivlen 17: key before IV"),                   \
    GCM_MSG_ROWS(fn)
#define GCM_KEY_ROWS(fn)                                                                              \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL key object"),                                                 \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "key object never initialised (zero)"),                           \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "key object of 0xA5 garbage"),                                     \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped key object"),                                              \
    R(fn, C_NULL | V_NULL, 0, IC_ERR_NULL, "NULL key object and NULL IV"),                           \
    R(fn, C_WIPED | V_NULL, 0, IC_ERR_STATE, "wiped key object and NULL IV: step 1 first"),          \
    R(fn, C_JUNK | VLEN, 0, IC_ERR_STATE, "garbage key object and ivlen 0: step 1 first"),           \
    R(fn, 0, 0, IC_OK, "a valid call"),                                                               \
    GCM_MSG_ROWS(fn)
#define GCM_OPEN_ROWS(fn)                                                                             \
    R(fn, BADTAG, 0, IC_ERR_AUTH, "wrong tag: out zeroed"),                                           \
    R(fn, BADTAG | INPL, 0, IC_ERR_AUTH, "wrong tag in place: buffer zeroed"),                        \
    R(fn, BADTAG | OVL, 0, IC_ERR_OVERLAP, "wrong tag and overlap: step 4 before 6"),                 \
    R(fn, BADTAG | TLEN, 3, IC_ERR_TAGLEN, "wrong tag and taglen 3: step 3 before 6"),                \
    R(fn, BADTAG | VLEN, 0, IC_ERR_IVLEN, "wrong tag and ivlen 0: nothing released")
    GCM_ONESHOT_ROWS("ic_aes_gcm_seal"), GCM_ONESHOT_ROWS("ic_aes_gcm_open"), GCM_OPEN_ROWS("ic_aes_gcm_open"),
    GCM_KEY_ROWS("ic_aes_gcm_key_seal"), GCM_KEY_ROWS("ic_aes_gcm_key_open"), GCM_OPEN_ROWS("ic_aes_gcm_key_open"),
    R("ic_aes_gcm_key_open", BADTAG | C_WIPED, 0, IC_ERR_STATE, "wrong tag and wiped key: step 1 first"),
    R("ic_aes_gcm_key_init", C_NULL, 0, IC_ERR_NULL, "NULL key object"),
    R("ic_aes_gcm_key_init", K_NULL, 0, IC_ERR_NULL, "NULL key, keylen 16"),
    R("ic_aes_gcm_key_init", KLEN, 20, IC_ERR_KEYLEN, "keylen 20"),
    R("ic_aes_gcm_key_init", KLEN, 0, IC_ERR_KEYLEN, "keylen 0"),
    R("ic_aes_gcm_key_init", K_NULL | KLEN, 0, IC_ERR_KEYLEN, "NULL key with keylen 0"),
    R("ic_aes_gcm_key_init", C_NULL | KLEN, 20, IC_ERR_NULL, "NULL key object and keylen 20"),
    R("ic_aes_gcm_key_init", 0, 0, IC_OK, "keylen 16"),
    R("ic_aes_gcm_key_wipe", 0, 0, IC_OK, "NULL does nothing"),

    /* ---- SHA ---- */
#define SHA_ROWS(v, sib)                                                                              \
    R("ic_" v, 0, 0, IC_OK, "one-shot"),                                                              \
    R("ic_" v, T_NULL, 0, IC_ERR_NULL, "NULL out (fixed-size: never allowed)"),                       \
    R("ic_" v, I_NULL, 0, IC_ERR_NULL, "NULL in with len 37"),                                        \
    R("ic_" v, T_NULL | EMPTY, 0, IC_ERR_NULL, "NULL out, NULL in with len 0"),                       \
    R("ic_" v, EMPTY, 0, IC_OK, "NULL in with len 0 is the empty message"),                           \
    R("ic_" v "_init", C_NULL, 0, IC_ERR_NULL, "NULL context"),                                       \
    R("ic_" v "_init", 0, 0, IC_OK, "on a garbage context"),                                          \
    R("ic_" v "_update", C_NULL, 0, IC_ERR_NULL, "NULL context"),                                     \
    R("ic_" v "_update", C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),                             \
    R("ic_" v "_update", C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context"),                            \
    R("ic_" v "_update", C_WIPED, 0, IC_ERR_STATE, "finalised (wiped) context"),                      \
    R("ic_" v "_update", I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),                                  \
    R("ic_" v "_update", EMPTY, 0, IC_OK, "NULL in, len 0"),                                          \
    R("ic_" v "_update", C_JUNK | I_NULL, 0, IC_ERR_STATE, "garbage context and NULL in"),            \
    R("ic_" v "_final", C_NULL, 0, IC_ERR_NULL, "NULL context"),                                      \
    R("ic_" v "_final", C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),                              \
    R("ic_" v "_final", C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context"),                             \
    R("ic_" v "_final", C_WIPED, 0, IC_ERR_STATE, "finalised twice"),                                 \
    R("ic_" v "_final", T_NULL, 0, IC_ERR_NULL, "NULL out (fixed-size: never allowed)"),           \
    R("ic_" v "_final", 0, 0, IC_OK, "digest")
#define SHA_SIB_ROWS(v)                                                                               \
    R("ic_" v "_update", VARIANT, 0, IC_ERR_STATE, "context set up by the sibling variant"),          \
    R("ic_" v "_final", VARIANT, 0, IC_ERR_STATE, "context set up by the sibling variant")
    SHA_ROWS("sha1", 0), SHA_ROWS("sha224", 1), SHA_ROWS("sha256", 1), SHA_ROWS("sha384", 1),
    SHA_ROWS("sha512", 1), SHA_ROWS("sha512_224", 1), SHA_ROWS("sha512_256", 1),
    SHA_SIB_ROWS("sha224"), SHA_SIB_ROWS("sha256"), SHA_SIB_ROWS("sha384"), SHA_SIB_ROWS("sha512"),
    SHA_SIB_ROWS("sha512_224"), SHA_SIB_ROWS("sha512_256"),
    /* SHA-1/224/256: 2^64-1 bits is under 2^61 bytes, so SIZE_MAX bytes is over; the SHA-512
     * family's 2^128-1 bits cannot be passed in a size_t */
    R("ic_sha1_update", LEN, -1, IC_ERR_TOOLONG, "SIZE_MAX bytes (over 2^64-1 bits)"),
    R("ic_sha224_update", LEN, -1, IC_ERR_TOOLONG, "SIZE_MAX bytes (over 2^64-1 bits)"),
    R("ic_sha256_update", LEN, -1, IC_ERR_TOOLONG, "SIZE_MAX bytes (over 2^64-1 bits)"),
    R("ic_sha256_update", I_NULL | LEN, -1, IC_ERR_NULL, "NULL in and SIZE_MAX: step 2 first"),
    R("ic_sha256_update", C_WIPED | LEN, -1, IC_ERR_STATE, "finalised and SIZE_MAX: step 1 first"),
    R("ic_sha1_update", C_JUNK | LEN, -1, IC_ERR_STATE, "garbage and SIZE_MAX: step 1 first"),
#if SIZE_MAX > 0x1fffffffffffffffu
    /* a one-shot would read SIZE_MAX bytes where they are under the limit (32-bit size_t) */
    R("ic_sha1", LEN, -1, IC_ERR_TOOLONG, "one-shot of SIZE_MAX bytes (over 2^64-1 bits)"),
    R("ic_sha224", LEN, -1, IC_ERR_TOOLONG, "one-shot of SIZE_MAX bytes (over 2^64-1 bits)"),
    R("ic_sha256", LEN, -1, IC_ERR_TOOLONG, "one-shot of SIZE_MAX bytes (over 2^64-1 bits)"),
#endif
    R("ic_sha256", I_NULL | LEN, -1, IC_ERR_NULL, "NULL in and SIZE_MAX: step 2 first"),

    /* ---- generic hash ---- */
    R("ic_hash", 0, 0, IC_OK, "one-shot"),
    R("ic_hash", ALG, 0, IC_ERR_PARAM, "unknown alg"),
    R("ic_hash", T_NULL, 0, IC_ERR_NULL, "NULL out, outlen 32"),
    R("ic_hash", I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),
    R("ic_hash", EMPTY, 0, IC_OK, "NULL in, len 0"),
    R("ic_hash", TLEN, 31, IC_ERR_SIZE, "outlen 31, under the digest size"),
    R("ic_hash", TLEN, 0, IC_ERR_SIZE, "outlen 0"),
    R("ic_hash", TLEN, 64, IC_OK, "outlen 64: the 32-byte digest only"),
    R("ic_hash", T_NULL | TLEN, 0, IC_ERR_SIZE, "NULL out with outlen 0: a size fault, not a pointer one"),
    R("ic_hash", I_NULL | TLEN, 31, IC_ERR_NULL, "NULL in and outlen 31: step 2 first"),
    R("ic_hash", ALG | TLEN, 0, IC_ERR_PARAM, "unknown alg and outlen 0: the alg first"),
    R("ic_hash", T_NULL | ALG, 0, IC_ERR_NULL, "NULL out and unknown alg: step 2 first"),
#if SIZE_MAX > 0x1fffffffffffffffu
    R("ic_hash", LEN, -1, IC_ERR_TOOLONG, "SIZE_MAX bytes of SHA-256 (over 2^64-1 bits)"),
#endif
    R("ic_hash_init", C_NULL, 0, IC_ERR_NULL, "NULL context"),
    R("ic_hash_init", ALG, 0, IC_ERR_PARAM, "unknown alg"),
    R("ic_hash_init", C_NULL | ALG, 0, IC_ERR_NULL, "NULL context and unknown alg: step 1 first"),
    R("ic_hash_update", C_NULL, 0, IC_ERR_NULL, "NULL context"),
    R("ic_hash_update", C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),
    R("ic_hash_update", C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context (alg field garbage too)"),
    R("ic_hash_update", C_WIPED, 0, IC_ERR_STATE, "finalised context"),
    R("ic_hash_update", I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),
    R("ic_hash_update", EMPTY, 0, IC_OK, "NULL in, len 0"),
    R("ic_hash_update", C_JUNK | I_NULL, 0, IC_ERR_STATE, "garbage context and NULL in"),
    R("ic_hash_final", C_NULL, 0, IC_ERR_NULL, "NULL context"),
    R("ic_hash_final", C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),
    R("ic_hash_final", C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context"),
    R("ic_hash_final", C_WIPED, 0, IC_ERR_STATE, "finalised twice"),
    R("ic_hash_final", T_NULL, 0, IC_ERR_NULL, "NULL out, outlen 32"),
    R("ic_hash_final", TLEN, 31, IC_ERR_SIZE, "outlen 31: refused, the context kept"),
    R("ic_hash_final", TLEN, 0, IC_ERR_SIZE, "outlen 0"),
    R("ic_hash_final", T_NULL | TLEN, 0, IC_ERR_SIZE, "NULL out with outlen 0: a size fault"),
    R("ic_hash_final", TLEN, 64, IC_OK, "outlen 64: the 32-byte digest only"),
    R("ic_hash_final", C_WIPED | TLEN, 0, IC_ERR_STATE, "finalised and outlen 0: step 1 first"),
    R("ic_hash_final", C_JUNK | T_NULL, 0, IC_ERR_STATE, "garbage and NULL out: step 1 first"),
    R("ic_hash_digest_size", 0, 0, IC_OK, "unknown alg gives 0"),
    R("ic_hash_block_size", 0, 0, IC_OK, "unknown alg gives 0"),
    R("ic_hash_name", 0, 0, IC_OK, "unknown alg gives NULL"),
    R("ic_hash_from_name", 0, 0, IC_OK, "NULL and unknown names"),

    /* ---- HMAC ---- */
    R("ic_hmac", 0, 0, IC_OK, "one-shot"),
    R("ic_hmac", ALG, 0, IC_ERR_PARAM, "unknown alg"),
    R("ic_hmac", K_NULL, 0, IC_ERR_NULL, "NULL key, keylen 20"),
    R("ic_hmac", K_NULL | KLEN, 0, IC_OK, "NULL key, keylen 0"),
    R("ic_hmac", I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),
    R("ic_hmac", T_NULL, 0, IC_ERR_NULL, "NULL out, outlen 32"),
    R("ic_hmac", TLEN, 31, IC_ERR_SIZE, "outlen 31, under the digest size"),
    R("ic_hmac", TLEN, 0, IC_ERR_SIZE, "outlen 0"),
    R("ic_hmac", TLEN, 64, IC_OK, "outlen 64: the 32-byte MAC only"),
    R("ic_hmac", T_NULL | TLEN, 0, IC_ERR_SIZE, "NULL out with outlen 0: a size fault"),
    R("ic_hmac", K_NULL | TLEN, 31, IC_ERR_NULL, "NULL key and outlen 31: step 2 first"),
    R("ic_hmac", ALG | TLEN, 0, IC_ERR_PARAM, "unknown alg and outlen 0: the alg first"),
    R("ic_hmac", EMPTY, 0, IC_OK, "NULL in, len 0"),
    R("ic_hmac", KLEN, 200, IC_OK, "key longer than the block"),
    R("ic_hmac_verify", 0, 0, IC_OK, "right tag"),
    R("ic_hmac_verify", BADTAG, 0, IC_ERR_AUTH, "wrong tag"),
    R("ic_hmac_verify", TLEN, 9, IC_ERR_TAGLEN, "taglen 9 (under 80 bits)"),
    R("ic_hmac_verify", TLEN, 33, IC_ERR_TAGLEN, "taglen 33 (over the digest)"),
    R("ic_hmac_verify", TLEN, 10, IC_OK, "taglen 10"),
    R("ic_hmac_verify", T_NULL, 0, IC_ERR_NULL, "NULL tag"),
    R("ic_hmac_verify", ALG, 0, IC_ERR_PARAM, "unknown alg"),
    R("ic_hmac_verify", TLEN | BADTAG, 9, IC_ERR_TAGLEN, "taglen 9 and wrong: step 3 before 6"),
    R("ic_hmac_verify", T_NULL | TLEN, 9, IC_ERR_NULL, "NULL tag and taglen 9: step 2 first"),
    R("ic_hmac_init", C_NULL, 0, IC_ERR_NULL, "NULL context"),
    R("ic_hmac_init", ALG, 0, IC_ERR_PARAM, "unknown alg"),
    R("ic_hmac_init", K_NULL, 0, IC_ERR_NULL, "NULL key, keylen 20"),
    R("ic_hmac_init", K_NULL | KLEN, 0, IC_OK, "NULL key, keylen 0"),
    R("ic_hmac_init", C_NULL | ALG, 0, IC_ERR_NULL, "NULL context and unknown alg: step 1 first"),
#define HMAC_CTX_ROWS(fn)                                                                             \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL context"),                                                    \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),                                            \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context"),                                           \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "finalised context")
    HMAC_CTX_ROWS("ic_hmac_update"), HMAC_CTX_ROWS("ic_hmac_final"), HMAC_CTX_ROWS("ic_hmac_final_verify"),
    R("ic_hmac_update", I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),
    R("ic_hmac_update", EMPTY, 0, IC_OK, "NULL in, len 0"),
    R("ic_hmac_update", C_JUNK | I_NULL, 0, IC_ERR_STATE, "garbage and NULL in: step 1 first"),
    R("ic_hmac_final", T_NULL, 0, IC_ERR_NULL, "NULL out, outlen 32"),
    R("ic_hmac_final", TLEN, 31, IC_ERR_SIZE, "outlen 31: refused, the context kept"),
    R("ic_hmac_final", T_NULL | TLEN, 0, IC_ERR_SIZE, "NULL out with outlen 0: a size fault"),
    R("ic_hmac_final", TLEN, 64, IC_OK, "outlen 64: the 32-byte MAC only"),
    R("ic_hmac_final", C_JUNK | TLEN, 0, IC_ERR_STATE, "garbage and outlen 0: step 1 first"),
    R("ic_hmac_final", 0, 0, IC_OK, "MAC"),
    R("ic_hmac_wipe", 0, 0, IC_OK, "NULL does nothing; a wiped context is zero and refused"),
    R("ic_hmac_final_verify", 0, 0, IC_OK, "right tag"),
    R("ic_hmac_final_verify", BADTAG, 0, IC_ERR_AUTH, "wrong tag"),
    R("ic_hmac_final_verify", TLEN, 9, IC_ERR_TAGLEN, "taglen 9"),
    R("ic_hmac_final_verify", T_NULL, 0, IC_ERR_NULL, "NULL tag"),
    R("ic_hmac_final_verify", C_JUNK | TLEN, 9, IC_ERR_STATE, "garbage and taglen 9: step 1 first"),

    /* ---- HKDF ---- (klen is the salt / prk length, alen the info length, len the okm length) */
    R("ic_hkdf_extract", 0, 0, IC_OK, "extract"),
    R("ic_hkdf_extract", ALG, 0, IC_ERR_PARAM, "unknown alg"),
    R("ic_hkdf_extract", K_NULL, 0, IC_ERR_NULL, "NULL salt, saltlen 32"),
    R("ic_hkdf_extract", K_NULL | KLEN, 0, IC_OK, "NULL salt, saltlen 0"),
    R("ic_hkdf_extract", I_NULL, 0, IC_ERR_NULL, "NULL ikm, ikmlen 45"),
    R("ic_hkdf_extract", EMPTY, 0, IC_OK, "NULL ikm, ikmlen 0"),
    R("ic_hkdf_extract", T_NULL, 0, IC_ERR_NULL, "NULL prk, prklen 32"),
    R("ic_hkdf_extract", TLEN, 31, IC_ERR_SIZE, "prklen 31 < HashLen"),
    R("ic_hkdf_extract", TLEN, 64, IC_OK, "prklen 64: HashLen bytes written"),
    R("ic_hkdf_extract", T_NULL | TLEN, 0, IC_ERR_SIZE, "NULL prk with prklen 0: a size fault"),
    R("ic_hkdf_extract", K_NULL | TLEN, 31, IC_ERR_NULL, "NULL salt and prklen 31: step 2 first"),
    R("ic_hkdf_extract", ALG | TLEN, 0, IC_ERR_PARAM, "unknown alg and prklen 0: the alg first"),
    R("ic_hkdf_expand", 0, 0, IC_OK, "expand"),
    R("ic_hkdf_expand", ALG, 0, IC_ERR_PARAM, "unknown alg"),
    R("ic_hkdf_expand", T_NULL, 0, IC_ERR_NULL, "NULL prk"),
    R("ic_hkdf_expand", A_NULL, 0, IC_ERR_NULL, "NULL info, infolen 11"),
    R("ic_hkdf_expand", O_NULL, 0, IC_ERR_NULL, "NULL okm, okmlen 45"),
    R("ic_hkdf_expand", EMPTY, 0, IC_OK, "NULL info and okm with lengths 0"),
    R("ic_hkdf_expand", KLEN, 31, IC_ERR_KEYLEN, "prklen 31 < HashLen"),
    R("ic_hkdf_expand", LEN, 255 * 32 + 1, IC_ERR_TOOLONG, "okmlen 255*HashLen+1"),
    R("ic_hkdf_expand", LEN, -1, IC_ERR_TOOLONG, "okmlen SIZE_MAX with a 64-byte buffer"),
    R("ic_hkdf_expand", LEN, 255 * 32, IC_OK, "okmlen 255*HashLen"),
    R("ic_hkdf_expand", OVL_INFO, 0, IC_ERR_OVERLAP, "okm overlaps info"),
    R("ic_hkdf_expand", OVL_PRK, 0, IC_OK, "okm starts at prk (allowed)"),
    R("ic_hkdf_expand", KLEN | LEN, 31, IC_ERR_KEYLEN, "prklen 31 and okmlen 31: fine (KEYLEN only)"),
    R("ic_hkdf_expand", A_NULL | KLEN, 31, IC_ERR_NULL, "NULL info and prklen 31: step 2 first"),
    R("ic_hkdf_expand", OVL_INFO | LEN, -1, IC_ERR_TOOLONG, "overlap and okmlen SIZE_MAX: step 3 first"),
    R("ic_hkdf", 0, 0, IC_OK, "extract and expand"),
    R("ic_hkdf", ALG, 0, IC_ERR_PARAM, "unknown alg"),
    R("ic_hkdf", K_NULL, 0, IC_ERR_NULL, "NULL salt, saltlen 32"),
    R("ic_hkdf", K_NULL | KLEN, 0, IC_OK, "NULL salt, saltlen 0"),
    R("ic_hkdf", A_NULL, 0, IC_ERR_NULL, "NULL info, infolen 11"),
    R("ic_hkdf", O_NULL, 0, IC_ERR_NULL, "NULL okm"),
    R("ic_hkdf", LEN, 255 * 32 + 1, IC_ERR_TOOLONG, "okmlen 255*HashLen+1"),
    R("ic_hkdf", OVL_INFO, 0, IC_ERR_OVERLAP, "okm overlaps info"),
    R("ic_hkdf", OVL_INFO | LEN, -1, IC_ERR_TOOLONG, "overlap and okmlen SIZE_MAX: step 3 first"),

    /* ---- Poly1305 ---- */
    R("ic_poly1305", 0, 0, IC_OK, "tag"),
    R("ic_poly1305", T_NULL, 0, IC_ERR_NULL, "NULL tag"),
    R("ic_poly1305", K_NULL, 0, IC_ERR_NULL, "NULL key"),
    R("ic_poly1305", I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),
    R("ic_poly1305", T_NULL | I_NULL, 0, IC_ERR_NULL, "NULL tag and in"),
    R("ic_poly1305", EMPTY, 0, IC_OK, "NULL in, len 0: the empty message's tag"),
    R("ic_poly1305_verify", 0, 0, IC_OK, "right tag"),
    R("ic_poly1305_verify", BADTAG, 0, IC_ERR_AUTH, "wrong tag"),
    R("ic_poly1305_verify", T_NULL, 0, IC_ERR_NULL, "NULL tag"),
    R("ic_poly1305_verify", K_NULL, 0, IC_ERR_NULL, "NULL key"),
    R("ic_poly1305_verify", I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),
    R("ic_poly1305_verify", I_NULL | BADTAG, 0, IC_ERR_NULL, "NULL in and wrong tag: step 2 first"),
    R("ic_poly1305_init", C_NULL, 0, IC_ERR_NULL, "NULL context"),
    R("ic_poly1305_init", K_NULL, 0, IC_ERR_NULL, "NULL key"),
    R("ic_poly1305_init", 0, 0, IC_OK, "on a garbage context"),
    R("ic_poly1305_update", C_NULL, 0, IC_ERR_NULL, "NULL context"),
    R("ic_poly1305_update", C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),
    R("ic_poly1305_update", C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context"),
    R("ic_poly1305_update", C_WIPED, 0, IC_ERR_STATE, "wiped context"),
    R("ic_poly1305_update", I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),
    R("ic_poly1305_update", EMPTY, 0, IC_OK, "NULL in, len 0"),
    R("ic_poly1305_update", C_JUNK | I_NULL, 0, IC_ERR_STATE, "garbage context and NULL in: step 1 first"),
    R("ic_poly1305_final", C_NULL, 0, IC_ERR_NULL, "NULL context"),
    R("ic_poly1305_final", C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),
    R("ic_poly1305_final", C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context"),
    R("ic_poly1305_final", C_WIPED, 0, IC_ERR_STATE, "wiped context"),
    R("ic_poly1305_final", T_NULL, 0, IC_ERR_NULL, "NULL tag"),
    R("ic_poly1305_final", 0, 0, IC_OK, "tag"),
    R("ic_poly1305_final_verify", C_NULL, 0, IC_ERR_NULL, "NULL context"),
    R("ic_poly1305_final_verify", C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),
    R("ic_poly1305_final_verify", C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context"),
    R("ic_poly1305_final_verify", C_WIPED, 0, IC_ERR_STATE, "wiped context"),
    R("ic_poly1305_final_verify", T_NULL, 0, IC_ERR_NULL, "NULL tag"),
    R("ic_poly1305_final_verify", 0, 0, IC_OK, "right tag"),
    R("ic_poly1305_final_verify", BADTAG, 0, IC_ERR_AUTH, "wrong tag"),
    R("ic_poly1305_final_verify", C_WIPED | BADTAG, 0, IC_ERR_STATE, "wiped context and wrong tag: step 1 first"),
    R("ic_poly1305_final_verify", T_NULL | C_JUNK, 0, IC_ERR_STATE, "garbage context and NULL tag: step 1 first"),
    R("ic_poly1305_wipe", 0, 0, IC_OK, "NULL does nothing"),

    /* ---- ChaCha20, HChaCha20, XChaCha20 ---- */
#define XOR_ROWS(fn, last, hi)                                                                         \
    R(fn, 0, 0, IC_OK, "37 bytes"),                                                                   \
    R(fn, K_NULL, 0, IC_ERR_NULL, "NULL key"),                                                        \
    R(fn, V_NULL, 0, IC_ERR_NULL, "NULL nonce"),                                                      \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),                                                 \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL out, len 37"),                                                \
    R(fn, EMPTY, 0, IC_OK, "NULL in and out, len 0"),                                                 \
    R(fn, INPL, 0, IC_OK, "in place"),                                                                \
    R(fn, OVL, 0, IC_ERR_OVERLAP, "out = in + 1"),                                                    \
    R(fn, LEN | hi, -1, IC_ERR_TOOLONG, "SIZE_MAX bytes (from counter 2^64-2 for XChaCha20)"),       \
    R(fn, CTR, last, IC_ERR_TOOLONG, "37 bytes from the last counter value"),                         \
    R(fn, OVL | LEN | hi, -1, IC_ERR_TOOLONG, "overlap and too long: step 3 before 4"),               \
    R(fn, K_NULL | LEN | hi, -1, IC_ERR_NULL, "NULL key and too long: step 2 first")
    XOR_ROWS("ic_chacha20_xor", 0xffffffffLL, 0), XOR_ROWS("ic_xchacha20_xor", -1, CTR_HIGH),
    R("ic_hchacha20", 0, 0, IC_OK, "subkey"),
    R("ic_hchacha20", T_NULL, 0, IC_ERR_NULL, "NULL subkey"),
    R("ic_hchacha20", K_NULL, 0, IC_ERR_NULL, "NULL key"),
    R("ic_hchacha20", V_NULL, 0, IC_ERR_NULL, "NULL input"),
#define CP_ONESHOT_ROWS(fn)                                                                           \
    R(fn, K_NULL, 0, IC_ERR_NULL, "NULL key"),                                                        \
    CP_MSG_ROWS(fn)
#define CP_KEY_ROWS(fn)                                                                               \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL key object"),                                                 \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "key object never initialised (zero)"),                           \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "key object of 0xA5 garbage"),                                     \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped key object"),                                              \
    R(fn, C_NULL | V_NULL, 0, IC_ERR_NULL, "NULL key object and NULL nonce"),                        \
    R(fn, C_WIPED | V_NULL, 0, IC_ERR_STATE, "wiped key object and NULL nonce: step 1 first"),       \
    R(fn, C_JUNK | LEN, -1, IC_ERR_STATE, "garbage key object and too long: step 1 first"),          \
    CP_MSG_ROWS(fn)
#define CP_MSG_ROWS(fn)                                                                               \
    R(fn, 0, 0, IC_OK, "37 bytes"),                                                                   \
    R(fn, V_NULL, 0, IC_ERR_NULL, "NULL nonce"),                                                      \
    R(fn, A_NULL, 0, IC_ERR_NULL, "NULL AAD, aadlen 9"),                                              \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),                                                 \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL out, len 37"),                                                \
    R(fn, T_NULL, 0, IC_ERR_NULL, "NULL tag"),                                                        \
    R(fn, EMPTY, 0, IC_OK, "NULL AAD, in and out with lengths 0"),                                    \
    R(fn, INPL, 0, IC_OK, "in place"),                                                                \
    R(fn, OVL, 0, IC_ERR_OVERLAP, "out = in + 1"),                                                    \
    R(fn, LEN, -1, IC_ERR_TOOLONG, "SIZE_MAX bytes"),                                                 \
    R(fn, LEN, 0xffffffffLL * 64 + 1, IC_ERR_TOOLONG, "MAX_LEN + 1 bytes with a 64-byte buffer"),    \
    R(fn, OVL | LEN, -1, IC_ERR_TOOLONG, "overlap and too long: step 3 before 4"),   \
    R(fn, V_NULL | LEN, -1, IC_ERR_NULL, "NULL nonce and too long: step 2 first")
    CP_ONESHOT_ROWS("ic_chacha20_poly1305_seal"), CP_ONESHOT_ROWS("ic_chacha20_poly1305_open"),
    CP_ONESHOT_ROWS("ic_xchacha20_poly1305_seal"), CP_ONESHOT_ROWS("ic_xchacha20_poly1305_open"),
    R("ic_chacha20_poly1305_open", BADTAG, 0, IC_ERR_AUTH, "wrong tag: out zeroed"),
    R("ic_chacha20_poly1305_open", BADTAG | INPL, 0, IC_ERR_AUTH, "wrong tag in place: buffer zeroed"),
    R("ic_chacha20_poly1305_open", BADTAG | OVL, 0, IC_ERR_OVERLAP, "wrong tag and overlap: step 4 first"),
    R("ic_xchacha20_poly1305_open", BADTAG, 0, IC_ERR_AUTH, "wrong tag: out zeroed"),
    R("ic_xchacha20_poly1305_open", BADTAG | LEN, -1, IC_ERR_TOOLONG, "wrong tag and too long: step 3 first"),
    CP_KEY_ROWS("ic_chacha20_poly1305_key_seal"), CP_KEY_ROWS("ic_chacha20_poly1305_key_open"),
    CP_KEY_ROWS("ic_xchacha20_poly1305_key_seal"), CP_KEY_ROWS("ic_xchacha20_poly1305_key_open"),
    R("ic_chacha20_poly1305_key_open", BADTAG, 0, IC_ERR_AUTH, "wrong tag: out zeroed"),
    R("ic_chacha20_poly1305_key_open", BADTAG | INPL, 0, IC_ERR_AUTH, "wrong tag in place: buffer zeroed"),
    R("ic_xchacha20_poly1305_key_open", BADTAG, 0, IC_ERR_AUTH, "wrong tag: out zeroed"),
    R("ic_xchacha20_poly1305_key_open", BADTAG | C_WIPED, 0, IC_ERR_STATE, "wrong tag and wiped key: step 1 first"),
    R("ic_chacha20_poly1305_key_init", C_NULL, 0, IC_ERR_NULL, "NULL key object"),
    R("ic_chacha20_poly1305_key_init", K_NULL, 0, IC_ERR_NULL, "NULL key"),
    R("ic_chacha20_poly1305_key_init", C_NULL | K_NULL, 0, IC_ERR_NULL, "NULL key object and key"),
    R("ic_chacha20_poly1305_key_init", 0, 0, IC_OK, "a key"),
    R("ic_chacha20_poly1305_key_wipe", 0, 0, IC_OK, "NULL does nothing"),

    /* ---- ChaCha20-Poly1305 streaming ---- */
#define CP_INIT_ROWS(fn)                                                                              \
    R(fn, 0, 0, IC_OK, "a message begun on a garbage context"),                                      \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL context"),                                                    \
    R(fn, K_NULL, 0, IC_ERR_NULL, "NULL key object"),                                                 \
    R(fn, V_NULL, 0, IC_ERR_NULL, "NULL nonce"),                                                      \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "key object never initialised (zero)"),                           \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "key object of 0xA5 garbage"),                                     \
    R(fn, K_WIPED, 0, IC_ERR_STATE, "wiped key object"),                                              \
    R(fn, C_NULL | K_WIPED, 0, IC_ERR_NULL, "NULL context and wiped key object: the context first"), \
    R(fn, K_NULL | V_NULL, 0, IC_ERR_NULL, "NULL key object and NULL nonce"),                        \
    R(fn, K_WIPED | V_NULL, 0, IC_ERR_STATE, "wiped key object and NULL nonce: step 1 first")
    CP_INIT_ROWS("ic_chacha20_poly1305_init"), CP_INIT_ROWS("ic_xchacha20_poly1305_init"),
#define CP_CTX_ROWS(fn)                                                                               \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL context"),                                                    \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "zero-filled context"),                                            \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "0xA5 garbage context"),                                           \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped context"),                                                 \
    R(fn, P_END, 0, IC_ERR_STATE, "after final (which wiped the context)"),                           \
    R(fn, K_WIPED, 0, IC_ERR_STATE, "key object wiped mid-message"),                                  \
    R(fn, C_NULL | K_WIPED, 0, IC_ERR_NULL, "NULL context, key object wiped: the context first")
    CP_CTX_ROWS("ic_chacha20_poly1305_aad"), CP_CTX_ROWS("ic_chacha20_poly1305_encrypt"),
    CP_CTX_ROWS("ic_chacha20_poly1305_decrypt"), CP_CTX_ROWS("ic_chacha20_poly1305_final"),
    CP_CTX_ROWS("ic_chacha20_poly1305_final_verify"),
    R("ic_chacha20_poly1305_aad", 0, 0, IC_OK, "9 bytes"),
    R("ic_chacha20_poly1305_aad", A_NULL, 0, IC_ERR_NULL, "NULL AAD, len 9"),
    R("ic_chacha20_poly1305_aad", EMPTY, 0, IC_OK, "NULL AAD, len 0"),
    R("ic_chacha20_poly1305_aad", P_ENC, 0, IC_ERR_STATE, "AAD after data"),
    R("ic_chacha20_poly1305_aad", A_NULL | P_ENC, 0, IC_ERR_NULL, "NULL AAD after data: step 2 before 5"),
    R("ic_chacha20_poly1305_aad", K_WIPED | A_NULL, 0, IC_ERR_STATE, "key object wiped, NULL AAD: step 1 first"),
    R("ic_chacha20_poly1305_aad", K_WIPED | EMPTY, 0, IC_ERR_STATE, "key object wiped, empty AAD"),
#define CP_DATA_ROWS(fn, other)                                                                       \
    R(fn, 0, 0, IC_OK, "37 bytes"),                                                                   \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL in, len 37"),                                                 \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL out, len 37"),                                                \
    R(fn, EMPTY, 0, IC_OK, "NULL in and out, len 0"),                                                 \
    R(fn, INPL, 0, IC_OK, "in place"),                                                                \
    R(fn, OVL, 0, IC_ERR_OVERLAP, "out = in + 1"),                                                    \
    R(fn, LEN, -1, IC_ERR_TOOLONG, "SIZE_MAX bytes"),                                                 \
    R(fn, other, 0, IC_ERR_STATE, "encrypt and decrypt mixed"),                                       \
    R(fn, OVL | LEN, -1, IC_ERR_TOOLONG, "overlap and too long: step 3 first"),                       \
    R(fn, OVL | other, 0, IC_ERR_OVERLAP, "overlap, directions mixed: step 4 before 5"),              \
    R(fn, LEN | other, -1, IC_ERR_TOOLONG, "too long, directions mixed: step 3 before 5"),            \
    R(fn, K_WIPED | I_NULL, 0, IC_ERR_STATE, "key object wiped, NULL in: step 1 first"),              \
    R(fn, K_WIPED | LEN, -1, IC_ERR_STATE, "key object wiped, too long: step 1 first"),              \
    R(fn, K_WIPED | EMPTY, 0, IC_ERR_STATE, "key object wiped, no data")
    CP_DATA_ROWS("ic_chacha20_poly1305_encrypt", P_DEC), CP_DATA_ROWS("ic_chacha20_poly1305_decrypt", P_ENC),
    R("ic_chacha20_poly1305_final", 0, 0, IC_OK, "tag"),
    R("ic_chacha20_poly1305_final", P_ENC, 0, IC_OK, "tag after data"),
    R("ic_chacha20_poly1305_final", T_NULL, 0, IC_ERR_NULL, "NULL tag"),
    R("ic_chacha20_poly1305_final", P_DEC, 0, IC_ERR_STATE, "final after decrypt"),
    R("ic_chacha20_poly1305_final", T_NULL | P_DEC, 0, IC_ERR_NULL, "NULL tag after decrypt: step 2 first"),
    R("ic_chacha20_poly1305_final", K_WIPED | T_NULL, 0, IC_ERR_STATE, "key object wiped, NULL tag: step 1 first"),
    R("ic_chacha20_poly1305_final_verify", 0, 0, IC_OK, "right tag"),
    R("ic_chacha20_poly1305_final_verify", BADTAG, 0, IC_ERR_AUTH, "wrong tag"),
    R("ic_chacha20_poly1305_final_verify", T_NULL, 0, IC_ERR_NULL, "NULL tag"),
    R("ic_chacha20_poly1305_final_verify", P_ENC, 0, IC_ERR_STATE, "final_verify after encrypt"),
    R("ic_chacha20_poly1305_final_verify", P_ENC | BADTAG, 0, IC_ERR_STATE, "after encrypt, wrong tag: 5 before 6"),
    R("ic_chacha20_poly1305_final_verify", K_WIPED | BADTAG, 0, IC_ERR_STATE, "key object wiped, wrong tag: 1 before 6"),
    R("ic_chacha20_poly1305_wipe", 0, 0, IC_OK, "NULL does nothing"),

    /* ---- big numbers (incore/bignum.h) ---- */
    R("ic_mont_init", 0, 0, IC_OK, "64-byte odd modulus"),
    R("ic_mont_init", C_NULL, 0, IC_ERR_NULL, "NULL ctx"),
    R("ic_mont_init", K_NULL, 0, IC_ERR_NULL, "NULL modulus, 64 bytes"),
    R("ic_mont_init", C_NULL | KLEN, 0, IC_ERR_NULL, "NULL ctx, empty modulus: step 1 first"),
    R("ic_mont_init", K_NULL | KLEN, 0, IC_ERR_MODULUS, "NULL modulus, length 0: empty"),
    R("ic_mont_init", KLEN, 0, IC_ERR_MODULUS, "empty modulus"),
    R("ic_mont_init", KLEN, IC_BN_MAX_BYTES + 1, IC_ERR_MODULUS, "8200 significant bits"),
    R("ic_mont_init", BNVAL, BV_LEADZERO, IC_OK, "1025 bytes with a zero top byte: 8192 bits"),
    R("ic_mont_init", BNVAL, BV_EVEN, IC_ERR_EVEN, "even modulus"),
    R("ic_mont_init", BNVAL, BV_ONE, IC_ERR_MODULUS, "modulus 1"),
    R("ic_mont_init", BNVAL, BV_TWO, IC_ERR_MODULUS, "modulus 2: below 3 before even"),
    R("ic_mont_size", C_ZERO, 0, IC_OK, "never initialised: 0"),
    R("ic_mont_size", C_JUNK, 0, IC_OK, "garbage: 0"),
    R("ic_mont_size", C_WIPED, 0, IC_OK, "wiped: 0"),
    R("ic_mont_wipe", 0, 0, IC_OK, "NULL does nothing"),
#define BN_MODEXP_ROWS(fn)                                                                            \
    R(fn, 0, 0, IC_OK, "64-byte modulus, base, 32-byte exponent"),                                   \
    R(fn, INPL, 0, IC_OK, "out = base"),                                                              \
    R(fn, LEN, 0, IC_OK, "empty base is 0"),                                                          \
    R(fn, LEN, 3, IC_OK, "3-byte base"),                                                              \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL ctx"),                                                        \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "never initialised"),                                              \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "garbage context"),                                                \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped context"),                                                 \
    R(fn, T_NULL, 0, IC_ERR_NULL, "NULL out"),                                                        \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL base, 64 bytes"),                                             \
    R(fn, A_NULL, 0, IC_ERR_NULL, "NULL exponent, 32 bytes"),                                         \
    R(fn, TLEN, 63, IC_ERR_SIZE, "out 63 bytes"),                                                     \
    R(fn, TLEN, 65, IC_ERR_SIZE, "out 65 bytes"),                                                     \
    R(fn, LEN, 65, IC_ERR_SIZE, "base longer than the modulus"),                                      \
    R(fn, ALEN, IC_BN_MAX_BYTES + 1, IC_ERR_SIZE, "exponent over 8192 bits"),                         \
    R(fn, ALEN, 0, IC_ERR_EXPONENT, "empty exponent is 0"),                                           \
    R(fn, EMPTY, 0, IC_ERR_EXPONENT, "NULL base and exponent, lengths 0"),                            \
    R(fn, BNVAL, BV_BASE_N, IC_ERR_RANGE, "base = modulus"),                                          \
    R(fn, BNVAL, BV_BASE_ONES, IC_ERR_RANGE, "base all ones"),                                        \
    R(fn, BNVAL, BV_EXP_ZERO, IC_ERR_EXPONENT, "exponent 32 zero bytes"),                             \
    R(fn, BNVAL, BV_BASE_N_EXP_ZERO, IC_ERR_RANGE, "base = n and exponent 0: base first"),            \
    R(fn, C_ZERO | T_NULL, 0, IC_ERR_STATE, "bad ctx, NULL out: step 1 first"),                       \
    R(fn, T_NULL | TLEN, 63, IC_ERR_NULL, "NULL out, wrong length: step 2 first"),                    \
    R(fn, TLEN | BNVAL, 63, IC_ERR_SIZE, "wrong length before values")
    BN_MODEXP_ROWS("ic_mont_modexp"), BN_MODEXP_ROWS("ic_mont_modexp_public"),

    /* ---- RSA (incore/rsa.h) ---- */
    R("ic_rsa_public_key_init", 0, 0, IC_OK, "2048-bit n, e = 65537"),
    R("ic_rsa_public_key_init", C_NULL, 0, IC_ERR_NULL, "NULL key"),
    R("ic_rsa_public_key_init", K_NULL, 0, IC_ERR_NULL, "NULL n, 256 bytes"),
    R("ic_rsa_public_key_init", A_NULL, 0, IC_ERR_NULL, "NULL e, 3 bytes"),
    R("ic_rsa_public_key_init", C_NULL | K_NULL, 0, IC_ERR_NULL, "NULL key and n: step 1 first"),
    R("ic_rsa_public_key_init", KLEN, 0, IC_ERR_SIZE, "empty n, 3-byte e: e longer than n"),
    R("ic_rsa_public_key_init", BNVAL, RV_E_LONG, IC_ERR_SIZE, "e 257 bytes, n 256"),
    R("ic_rsa_public_key_init", BNVAL, RV_N_SHORT, IC_ERR_MODULUS, "1016-bit n"),
    R("ic_rsa_public_key_init", BNVAL, RV_N_EVEN, IC_ERR_EVEN, "even n"),
    R("ic_rsa_public_key_init", BNVAL, RV_N_LEADZERO, IC_OK, "n with a leading zero byte"),
    R("ic_rsa_public_key_init", BNVAL, RV_E_EQ_N, IC_ERR_RANGE, "e = n"),
    R("ic_rsa_public_key_init", BNVAL, RV_E_ONE, IC_ERR_EXPONENT, "e = 1"),
    R("ic_rsa_public_key_init", BNVAL, RV_E_EVEN, IC_ERR_EXPONENT, "e = 4"),
    R("ic_rsa_public_key_init", BNVAL, RV_E_ZERO, IC_ERR_EXPONENT, "e = 0 (3 zero bytes)"),
    R("ic_rsa_public_key_init", ALEN, 0, IC_ERR_EXPONENT, "empty e"),
    R("ic_rsa_public_key_size", 0, 0, IC_OK, "256 for the key, 0 for NULL"),
    R("ic_rsa_public_key_size", C_ZERO, 0, IC_OK, "never initialised: 0"),
    R("ic_rsa_public_key_size", C_JUNK, 0, IC_OK, "garbage: 0"),
    R("ic_rsa_public_key_size", C_WIPED, 0, IC_OK, "wiped: 0"),
    R("ic_rsa_public_key_wipe", 0, 0, IC_OK, "NULL does nothing"),
#define RSA_VERIFY_ROWS(fn)                                                                           \
    R(fn, 0, 0, IC_OK, "Wycheproof valid signature"),                                                 \
    R(fn, BADTAG, 0, IC_ERR_AUTH, "one bit of the signature flipped"),                                \
    R(fn, EMPTY, 0, IC_ERR_AUTH, "NULL message, length 0: another message"),                          \
    R(fn, TLEN, 255, IC_ERR_AUTH, "signature 255 bytes"),                                             \
    R(fn, TLEN, 257, IC_ERR_AUTH, "signature 257 bytes"),                                             \
    R(fn, TLEN, 0, IC_ERR_AUTH, "empty signature"),                                                   \
    R(fn, BNVAL, RV_SIG_N, IC_ERR_AUTH, "signature = n: representative out of range"),                \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL key"),                                                        \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "never initialised"),                                              \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "garbage key"),                                                    \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped key"),                                                     \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL message, 4 bytes"),                                           \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL signature, 256 bytes"),                                       \
    R(fn, ALG, 0, IC_ERR_PARAM, "hash 99"),                                                           \
    R(fn, C_ZERO | I_NULL, 0, IC_ERR_STATE, "bad key, NULL message: step 1 first"),                   \
    R(fn, I_NULL | ALG, 0, IC_ERR_NULL, "NULL message, hash 99: step 2 first"),                       \
    R(fn, ALG | BADTAG, 0, IC_ERR_PARAM, "hash 99, bad signature: parameters before the signature")
    RSA_VERIFY_ROWS("ic_rsa_verify_pkcs1v15"), RSA_VERIFY_ROWS("ic_rsa_verify_pss"),
    R("ic_rsa_verify_pss", VARIANT, 0, IC_ERR_PARAM, "MGF1 hash 99"),
    R("ic_rsa_verify_pss", BNVAL, RV_SALT_MAX, IC_ERR_AUTH, "salt emLen - hLen - 2: fits, wrong salt length"),
    R("ic_rsa_verify_pss", BNVAL, RV_SALT_OVER, IC_ERR_PARAM, "salt emLen - hLen - 1: cannot fit the key"),
    R("ic_rsa_verify_pss", BNVAL | BADTAG, RV_SALT_OVER, IC_ERR_PARAM, "salt too long, bad signature: parameters first"),
#define RSA_VERIFY_DIGEST_ROWS(fn)                                                                    \
    R(fn, 0, 0, IC_OK, "SHA-256 of the Wycheproof message"),                                         \
    R(fn, BADTAG, 0, IC_ERR_AUTH, "one bit of the signature flipped"),                                \
    R(fn, TLEN, 255, IC_ERR_AUTH, "signature 255 bytes"),                                             \
    R(fn, BNVAL, RV_SIG_N, IC_ERR_AUTH, "signature = n: representative out of range"),                \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL key"),                                                        \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "never initialised"),                                              \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "garbage key"),                                                    \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped key"),                                                     \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL digest, 32 bytes"),                                           \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL signature, 256 bytes"),                                       \
    R(fn, EMPTY, 0, IC_ERR_SIZE, "NULL digest, length 0: not SHA-256's"),                            \
    R(fn, LEN, 31, IC_ERR_SIZE, "digest 31 bytes"),                                                   \
    R(fn, LEN, 64, IC_ERR_SIZE, "digest 64 bytes (SHA-512's) for SHA-256"),                           \
    R(fn, ALG, 0, IC_ERR_PARAM, "hash 99"),                                                           \
    R(fn, ALG | LEN, 31, IC_ERR_PARAM, "hash 99, digest 31 bytes: the hash first"),                   \
    R(fn, I_NULL | ALG, 0, IC_ERR_NULL, "NULL digest, hash 99: step 2 first"),                        \
    R(fn, LEN | BADTAG, 31, IC_ERR_SIZE, "digest 31 bytes, bad signature: the length first")
    RSA_VERIFY_DIGEST_ROWS("ic_rsa_verify_pkcs1v15_digest"), RSA_VERIFY_DIGEST_ROWS("ic_rsa_verify_pss_digest"),
    R("ic_rsa_verify_pss_digest", VARIANT, 0, IC_ERR_PARAM, "MGF1 hash 99"),
    R("ic_rsa_verify_pss_digest", BNVAL, RV_SALT_OVER, IC_ERR_PARAM, "salt emLen - hLen - 1: cannot fit the key"),
    R("ic_rsa_private_key_init", 0, 0, IC_OK, "the 2048-bit key"),
    R("ic_rsa_private_key_init", C_NULL, 0, IC_ERR_NULL, "NULL key"),
    R("ic_rsa_private_key_init", K_NULL, 0, IC_ERR_NULL, "NULL n, 256 bytes"),
    R("ic_rsa_private_key_init", BNVAL, RP_D_LONG, IC_ERR_SIZE, "d in 257 bytes, n 256"),
    R("ic_rsa_private_key_init", BNVAL, RP_N_EVEN, IC_ERR_EVEN, "even n"),
    R("ic_rsa_private_key_init", BNVAL, RP_P_EVEN, IC_ERR_EVEN, "even p"),
    R("ic_rsa_private_key_init", BNVAL, RP_P_PLUS2, IC_ERR_MODULUS, "p + 2: p q != n"),
    R("ic_rsa_private_key_init", BNVAL, RP_QINV_P, IC_ERR_RANGE, "qinv = p"),
    R("ic_rsa_private_key_init", BNVAL, RP_DQ_ZERO, IC_ERR_EXPONENT, "dq = 0"),
    R("ic_rsa_private_key_init", BNVAL, RP_DP_PLUS2, IC_ERR_PARAM, "dp + 2: the CRT check fails"),
    R("ic_rsa_private_key_size", 0, 0, IC_OK, "256 for the key, 0 for NULL"),
    R("ic_rsa_private_key_size", C_ZERO, 0, IC_OK, "never initialised: 0"),
    R("ic_rsa_private_key_size", C_JUNK, 0, IC_OK, "garbage: 0"),
    R("ic_rsa_private_key_size", C_WIPED, 0, IC_OK, "wiped: 0"),
    R("ic_rsa_private_key_wipe", 0, 0, IC_OK, "NULL does nothing"),
#define RSA_PRIV_ROWS(fn)                                                                             \
    R(fn, 0, 0, IC_OK, "valid call"),                                                                 \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL key"),                                                        \
    R(fn, C_ZERO, 0, IC_ERR_STATE, "never initialised"),                                              \
    R(fn, C_JUNK, 0, IC_ERR_STATE, "garbage key"),                                                    \
    R(fn, C_WIPED, 0, IC_ERR_STATE, "wiped key"),                                                     \
    R(fn, O_NULL, 0, IC_ERR_NULL, "NULL output"),                                                     \
    R(fn, ALG, 0, IC_ERR_PARAM, "hash 99"),                                                           \
    R(fn, C_ZERO | O_NULL, 0, IC_ERR_STATE, "bad key, NULL output: step 1 first"),                    \
    R(fn, O_NULL | ALG, 0, IC_ERR_NULL, "NULL output, hash 99: step 2 first")
#define RSA_SIGN_ROWS(fn)                                                                             \
    RSA_PRIV_ROWS(fn),                                                                                \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL message, 4 bytes"),                                           \
    R(fn, EMPTY, 0, IC_OK, "NULL message, length 0"),                                                 \
    R(fn, TLEN, 255, IC_ERR_SIZE, "signature buffer 255 bytes"),                                      \
    R(fn, TLEN, 257, IC_ERR_SIZE, "signature buffer 257 bytes"),                                      \
    R(fn, ALG | TLEN, 255, IC_ERR_PARAM, "hash 99, wrong length: the hash first")
    RSA_SIGN_ROWS("ic_rsa_sign_pkcs1v15"), RSA_SIGN_ROWS("ic_rsa_sign_pss"), RSA_SIGN_ROWS("ic_rsa_sign_pss_salt"),
    R("ic_rsa_sign_pss", VARIANT, 0, IC_ERR_PARAM, "MGF1 hash 99"),
    R("ic_rsa_sign_pss", BNVAL, RP_SALT_OVER, IC_ERR_PARAM, "salt emLen - hLen - 1: cannot fit"),
    R("ic_rsa_sign_pss_salt", V_NULL, 0, IC_ERR_NULL, "NULL salt, 32 bytes"),
    R("ic_rsa_sign_pss_salt", VARIANT, 0, IC_ERR_PARAM, "MGF1 hash 99"),
    R("ic_rsa_sign_pss_salt", VLEN, 222, IC_OK, "salt emLen - hLen - 2: the longest"),
    R("ic_rsa_sign_pss_salt", VLEN, 223, IC_ERR_PARAM, "salt emLen - hLen - 1: cannot fit"),
    R("ic_rsa_sign_pss_salt", VLEN, 0, IC_OK, "empty salt (deterministic PSS)"),
#define RSA_SIGN_DIGEST_ROWS(fn)                                                                      \
    RSA_PRIV_ROWS(fn),                                                                                \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL digest, 32 bytes"),                                           \
    R(fn, EMPTY, 0, IC_ERR_SIZE, "NULL digest, length 0: not SHA-256's"),                            \
    R(fn, LEN, 31, IC_ERR_SIZE, "digest 31 bytes"),                                                   \
    R(fn, LEN, 48, IC_ERR_SIZE, "digest 48 bytes (SHA-384's) for SHA-256"),                           \
    R(fn, TLEN, 255, IC_ERR_SIZE, "signature buffer 255 bytes"),                                      \
    R(fn, ALG | LEN, 31, IC_ERR_PARAM, "hash 99, digest 31 bytes: the hash first"),                   \
    R(fn, I_NULL | ALG, 0, IC_ERR_NULL, "NULL digest, hash 99: step 2 first")
    RSA_SIGN_DIGEST_ROWS("ic_rsa_sign_pkcs1v15_digest"), RSA_SIGN_DIGEST_ROWS("ic_rsa_sign_pss_digest"),
    R("ic_rsa_sign_pss_digest", VARIANT, 0, IC_ERR_PARAM, "MGF1 hash 99"),
    R("ic_rsa_sign_pss_digest", BNVAL, RP_SALT_OVER, IC_ERR_PARAM, "salt emLen - hLen - 1: cannot fit"),
#define RSA_ENC_ROWS(fn)                                                                              \
    RSA_PRIV_ROWS(fn),                                                                                \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL message, 4 bytes"),                                           \
    R(fn, EMPTY, 0, IC_OK, "NULL message, length 0"),                                                 \
    R(fn, VARIANT, 0, IC_ERR_PARAM, "MGF1 hash 99"),                                                  \
    R(fn, TLEN, 255, IC_ERR_SIZE, "ciphertext buffer 255 bytes"),                                     \
    R(fn, BNVAL, RP_MSG_MAX, IC_ERR_TOOLONG, "message k - 2 hLen - 1 bytes"),                         \
    R(fn, TLEN | BNVAL, 255, IC_ERR_SIZE, "wrong buffer, long message: lengths before the limit")
    RSA_ENC_ROWS("ic_rsa_encrypt_oaep"), RSA_ENC_ROWS("ic_rsa_encrypt_oaep_seed"),
    R("ic_rsa_encrypt_oaep_seed", V_NULL, 0, IC_ERR_NULL, "NULL seed, 32 bytes"),
    R("ic_rsa_encrypt_oaep_seed", VLEN, 31, IC_ERR_PARAM, "seed 31 bytes"),
    R("ic_rsa_encrypt_oaep_seed", VLEN, 33, IC_ERR_PARAM, "seed 33 bytes"),
    RSA_PRIV_ROWS("ic_rsa_decrypt_oaep"),
    R("ic_rsa_decrypt_oaep", I_NULL, 0, IC_ERR_NULL, "NULL ciphertext, 256 bytes"),
    R("ic_rsa_decrypt_oaep", VARIANT, 0, IC_ERR_PARAM, "MGF1 hash 99"),
    R("ic_rsa_decrypt_oaep", BNVAL, RP_OUTCAP_LOW, IC_ERR_SIZE, "out below k - 2 hLen - 2 bytes"),
    R("ic_rsa_decrypt_oaep", BADTAG, 0, IC_ERR_AUTH, "one bit of the ciphertext flipped"),
    R("ic_rsa_decrypt_oaep", BNVAL, RP_LABEL, IC_ERR_AUTH, "another label"),
    R("ic_rsa_decrypt_oaep", TLEN, 255, IC_ERR_AUTH, "ciphertext 255 bytes"),
    R("ic_rsa_decrypt_oaep", TLEN, 0, IC_ERR_AUTH, "empty ciphertext"),
    R("ic_rsa_decrypt_oaep", ALG | BADTAG, 0, IC_ERR_PARAM, "hash 99, bad ciphertext: parameters first"),
#define RSA_DER_ROWS(fn, pem)                                                                         \
    R(fn, 0, 0, IC_OK, pem ? "the key as OpenSSL writes it (SPKI / PKCS #8 PEM)" : "SPKI / PKCS #8 DER"), \
    R(fn, BNVAL, RD_PKCS1, IC_OK, "the PKCS #1 form"),                                               \
    R(fn, C_NULL, 0, IC_ERR_NULL, "NULL key"),                                                        \
    R(fn, I_NULL, 0, IC_ERR_NULL, "NULL encoding with its length"),                                   \
    R(fn, C_NULL | I_NULL, 0, IC_ERR_NULL, "NULL key and encoding: step 1 first"),                    \
    R(fn, EMPTY, 0, IC_ERR_DECODE, "NULL encoding, length 0: nothing to read"),                      \
    R(fn, LEN, 1, IC_ERR_DECODE, "the first byte only"),                                              \
    R(fn, LEN, 200, IC_ERR_DECODE, "cut after 200 bytes"),                                            \
    R(fn, BNVAL, RD_TRAIL, IC_ERR_DECODE, "a zero byte after the end"),                              \
    R(fn, BNVAL, RD_OTHER, pem ? IC_ERR_PARAM : IC_ERR_DECODE,                                        \
      pem ? "the other kind of key: its label" : "the other kind of key: not the structure")
    RSA_DER_ROWS("ic_rsa_public_key_from_der", 0), RSA_DER_ROWS("ic_rsa_private_key_from_der", 0),
    RSA_DER_ROWS("ic_rsa_public_key_from_pem", 1), RSA_DER_ROWS("ic_rsa_private_key_from_pem", 1),
    R("ic_rsa_public_key_from_der", BNVAL, RD_BADKEY, IC_ERR_EVEN, "well formed, n even: init's status"),
    R("ic_rsa_private_key_from_der", BNVAL, RD_BADKEY, IC_ERR_MODULUS, "well formed, a bit of n changed: p q != n"),
    R("ic_rsa_public_key_from_pem", BNVAL, RD_BADLABEL, IC_ERR_DECODE, "END label not BEGIN's"),
    R("ic_rsa_private_key_from_pem", BNVAL, RD_BADLABEL, IC_ERR_DECODE, "END label not BEGIN's"),
    R("ic_rsa_public_key_from_pem", BNVAL, RD_BADCHAR, IC_ERR_DECODE, "a '*' in the base64"),
    R("ic_rsa_private_key_from_pem", BNVAL, RD_BADCHAR, IC_ERR_DECODE, "a '*' in the base64"),
    R("ic_rsa_public_key_from_pem", BNVAL, RD_TOOLONG, IC_ERR_TOOLONG, "base64 of 8250 bytes"),
    R("ic_rsa_private_key_from_pem", BNVAL, RD_ENCRYPTED, IC_ERR_PARAM, "ENCRYPTED PRIVATE KEY"),
    R("ic_rsa_private_key_from_pem", BNVAL, RD_ENC_PKCS1, IC_ERR_PARAM, "RSA PRIVATE KEY, Proc-Type: 4,ENCRYPTED"),
    R("ic_rsa_private_key_from_pem", BNVAL, RD_3PRIMES, IC_ERR_PARAM, "three primes (RSAPrivateKey version 1)"),

    /* ---- functions without a status: their documented fallbacks ---- */
    R("ic_wipe", 0, 0, IC_OK, "NULL, 0 and exactly len bytes"),
    R("ic_ct_equal", 0, 0, IC_OK, "NULL, NULL, 0 is equal"),
    R("ic_alloc", 0, 0, IC_OK, "size 0 and too large: NULL; aligned, zeroed"),
    R("ic_free", 0, 0, IC_OK, "NULL is a no-op"),
    R("ic_crc32", 0, 0, IC_OK, "NULL buffer gives 0"),
    R("ic_crc32c", 0, 0, IC_OK, "NULL buffer gives 0"),
    R("ic_crc32_combine", 0, 0, IC_OK, "empty B, huge len2"),
    R("ic_crc32c_combine", 0, 0, IC_OK, "empty B, huge len2"),
    R("ic_version", 0, 0, IC_OK, "the version string"),
    R("ic_version_number", 0, 0, IC_OK, "IC_VERSION_NUMBER, the same version as the string"),
    R("ic_status_str", 0, 0, IC_OK, "distinct texts, unknown codes"),
    R("ic_cpu_detected", 0, 0, IC_OK, "features within detected"),
    R("ic_cpu_features", 0, 0, IC_OK, "features within detected"),
    R("ic_cpu_forced", 0, 0, IC_OK, "INCORE_CPU=+name features, within detected"),
    R("ic_cpu_set_mask", 0, 0, IC_OK, "mask all and restore"),
    R("ic_cpu_parse", 0, 0, IC_OK, "bad syntax, NULLs"),
    R("ic_cpu_feature_name", 0, 0, IC_OK, "past the last bit"),
    R("ic_cpu_arch", 0, 0, IC_OK, "non-empty"),
    R("ic_cpu_model", 0, 0, IC_OK, "NULL or a string"),
    R("ic_env_error", 0, 0, IC_OK, "NULL without INCORE_* errors"),
    R("ic_impl_count", 0, 0, IC_OK, "unknown / NULL primitive"),
    R("ic_impl_name", 0, 0, IC_OK, "out of range"),
    R("ic_impl_available", 0, 0, IC_OK, "out of range"),
    R("ic_impl_selected", 0, 0, IC_OK, "unknown primitive"),
    R("ic_impl_auto_for", 0, 0, IC_OK, "unknown / NULL primitive, any feature bits"),
    R("ic_prim_name", 0, 0, IC_OK, "NULL at the end"),
    R("ic_impl_select", 0, 0, IC_OK, "unknown, NULL, unavailable"),
    R("ic_selftest", 0, 0, IC_OK, "unknown primitive"),
    R("ic_rand_hw", 0, 0, IC_OK, "NULL with and without length"),
    R("ic_rand_hw_source", 0, 0, IC_OK, "same as ic_impl_selected(hwrand)"),
    R("ic_random", 0, 0, IC_OK, "NULL with and without length, guard, prediction resistance"),
    R("ic_random_reseed", 0, 0, IC_OK, "NULL additional input, over 1 KiB"),
    R("ic_random_set_prediction_resistance", 0, 0, IC_OK, "on and off"),
    R("ic_rand_source_count", 0, 0, IC_OK, "names end with NULL"),
    R("ic_rand_source_name", 0, 0, IC_OK, "past the end: NULL"),
    R("ic_rand_source_health", 0, 0, IC_OK, "NULL name or record, unknown name"),
    R("ic_rand_source_read", 0, 0, IC_OK, "NULL, unknown source zeroes, guard"),
};
#define NROWS (sizeof rows / sizeof rows[0])

/* ---- one row in a child process ------------------------------------------ */
static const char *status_name(int s)
{
    static const char *n[] = { "IC_OK", "IC_ERR_NULL", "IC_ERR_KEYLEN", "IC_ERR_LENGTH", "IC_ERR_IVLEN",
                               "IC_ERR_TAGLEN", "IC_ERR_TOOLONG", "IC_ERR_AUTH", "IC_ERR_STATE",
                               "IC_ERR_OVERLAP", "IC_ERR_UNKNOWN", "IC_ERR_UNAVAILABLE", "IC_ERR_PARAM",
                               "IC_ERR_SYNTAX", "IC_ERR_SELFTEST", "IC_ERR_WEAKKEY", "IC_ERR_EVEN",
                               "IC_ERR_MODULUS", "IC_ERR_EXPONENT", "IC_ERR_RANGE", "IC_ERR_SIZE",
                               "IC_ERR_FAULT", "IC_ERR_DECODE" };
    return s <= 0 && s >= IC_ERR_DECODE ? n[-s] : "(not a status)";
}

static void child(const row *r)
{
    static fx x;
    char w[200];
    snprintf(w, sizeof w, "%s, %s", r->fn, r->rule);
    x.r = r;
    int st = run_row(&x, w);
    CHECK(st == r->want, "%s: got %s (%d), want %s", w, status_name(st), st, status_name(r->want));
    if (r->want != IC_OK && r->want != IC_ERR_AUTH && st == r->want)
        fx_refused(&x, w);
    if (r->want == IC_OK && st == IC_OK && !(r->f & (OVL | INPL | OVL_PRK)) && x.o == NULL)
        CHECK(tl_all_byte(x.obuf, x.ocap, FILL), "%s: wrote to an output it was not given", w);
}

static int run_isolated(const row *r)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        tl_failed = tl_passed = 0;   /* this row's own count */
        child(r);
        fflush(stdout);
        fflush(stderr);
        _exit(tl_failed ? 1 : 0);
    }
    int ws;
    if (waitpid(pid, &ws, 0) != pid)
        return 0;
    if (WIFSIGNALED(ws))
        fprintf(stderr, "FAIL %s, %s: killed by signal %d\n", r->fn, r->rule, WTERMSIG(ws));
    return WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
}

/* ---- coverage: every IC_API function of the headers has a row ------------ */
static int has_row(const char *name)
{
    for (size_t i = 0; i < NROWS; i++)
        if (!strcmp(rows[i].fn, name))
            return 1;
    return 0;
}

/* Names declared IC_API in one header: the first lowercase ic_ identifier
 * followed by '(' in each declaration (attributes and return types are
 * skipped that way).  Comments and preprocessor lines are ignored. */
static char decl[256][128];
static int ndecl;

static int check_header(const char *path, int *declared)
{
    FILE *f = fopen(path, "r");
    if (!CHECK(f != NULL, "cannot open header %s", path))
        return 0;
    char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    /* blank out comments and # lines */
    for (char *p = text; *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            char *e = strstr(p + 2, "*/");
            e = e ? e + 2 : text + n;
            memset(p, ' ', (size_t)(e - p));
            p = e - 1;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
        } else if (*p == '#' && (p == text || p[-1] == '\n')) {
            while (*p && *p != '\n') {
                if (p[0] == '\\' && p[1] == '\n')
                    *p++ = ' ';
                *p++ = ' ';
            }
        }
    }
    int missing = 0;
    for (char *p = strstr(text, "IC_API"); p; p = strstr(p + 6, "IC_API")) {
        char *end = strchr(p, ';');
        if (!end)
            break;
        for (char *q = p + 6; q < end; q++) {
            if (q[0] != 'i' || q[1] != 'c' || q[2] != '_' || (q > text && (q[-1] == '_' || isalnum((unsigned char)q[-1]))))
                continue;
            char *e = q;
            while (isalnum((unsigned char)*e) || *e == '_')
                e++;
            char *after = e;
            while (*after == ' ' || *after == '\t' || *after == '\n')
                after++;
            if (*after != '(')
                continue;
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(e - q), q);
            (*declared)++;
            if (ndecl < 256)
                snprintf(decl[ndecl++], sizeof decl[0], "%s", name);
            if (!has_row(name)) {
                missing++;
                CHECK(0, "%s: %s has no row in the bad-input table", path, name);
            }
            break;
        }
    }
    return missing;
}

static void coverage(void)
{
    static const char *headers[] = { "common.h", "aes.h", "gcm.h", "sha.h", "hmac.h", "chacha.h",
                                     "poly1305.h", "crc.h", "rand.h", "xts.h",
                                     "bignum.h", "rsa.h" };
    const char *inc = getenv("INCORE_INCLUDE_DIR");
    char dir[1024], path[1100];
    if (inc && *inc)
        snprintf(dir, sizeof dir, "%s", inc);
    else
        snprintf(dir, sizeof dir, "%s/../../include/incore", tl_data_dir());
    int declared = 0, missing = 0;
    for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, headers[i]);
        missing += check_header(path, &declared);
    }
    /* and every header incore.h includes is in the list above */
    snprintf(path, sizeof path, "%s/incore.h", dir);
    FILE *f = fopen(path, "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        char *h = strstr(line, "#include \"incore/");
        if (!h)
            continue;
        h += strlen("#include \"incore/");
        int known = 0;
        for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++)
            known |= !strncmp(h, headers[i], strlen(headers[i])) && h[strlen(headers[i])] == '"';
        CHECK(known, "incore.h includes a header this test does not read: %s", h);
    }
    CHECK(f != NULL, "cannot open %s", path);
    if (f)
        fclose(f);
    /* a row for a name the headers do not declare is a typo */
    for (size_t i = 0; i < NROWS; i++) {
        int found = 0;
        for (int j = 0; j < ndecl && !found; j++)
            found = !strcmp(rows[i].fn, decl[j]);
        CHECK(found, "row %zu names %s, which no header declares", i, rows[i].fn);
    }
    printf("coverage: %d functions declared IC_API in %s, %d without a row\n", declared, dir, missing);
    CHECK(declared >= 100, "only %d declarations found: header parsing broken?", declared);
}

/* ---- rows a 32-bit size_t cannot express --------------------------------- */
/* The largest length the row's function accepts in the argument the row
 * makes huge (LEN or ALEN), for the rows that test a length limit.  0 when
 * the limit is small (HKDF's okmlen, XChaCha20 from counter 2^64-2), so
 * any size_t can go over it. */
static unsigned long long len_limit(const row *r)
{
    if (strstr(r->fn, "gcm"))
        return r->f & ALEN ? IC_GCM_MAX_AAD : IC_GCM_MAX_DATA;
    if (!strcmp(r->fn, "ic_sha1_update") || !strcmp(r->fn, "ic_sha224_update") ||
        !strcmp(r->fn, "ic_sha256_update"))
        return (UINT64_C(1) << 61) - 1;                   /* 2^64-1 bits */
    if (strstr(r->fn, "chacha20_poly1305"))
        return IC_CHACHA20_POLY1305_MAX_LEN;
    if (!strcmp(r->fn, "ic_chacha20_xor") && !(r->f & CTR_HIGH))
        return (UINT64_C(1) << 38) - 1;                   /* 2^32 blocks from counter 0 */
    return 0;
}

/* Why row r cannot run on this target, or NULL.  Where size_t has 32 bits
 * (armhf), a length of 2^36-31 does not fit in the argument at all, and
 * SIZE_MAX is under the GCM, SHA-256 and ChaCha20 limits, so a call that
 * should be refused as too long would be a valid call over a 64-byte
 * buffer.  Such rows are skipped, with this reason printed; every other
 * row (NULL and state faults with a huge length included) still runs. */
static const char *inexpressible(const row *r)
{
    if (!(r->f & (LEN | ALEN)))
        return NULL;
    if (r->n >= 0 && (unsigned long long)r->n > SIZE_MAX)
        return "the length does not fit in this target's size_t";
    if (r->n < 0 && r->want == IC_ERR_TOOLONG && len_limit(r) >= SIZE_MAX)
        return "SIZE_MAX is within the function's limit on this target";
    return NULL;
}

int main(void)
{
    unsigned long ok = 0, bad = 0, skipped = 0;
    for (size_t i = 0; i < NROWS; i++) {
        const char *why = inexpressible(&rows[i]);
        if (why) {
            printf("skip row %zu: %s, %s: %s (%u-bit size_t)\n", i, rows[i].fn, rows[i].rule, why,
                   (unsigned)(sizeof(size_t) * 8));
            skipped++;
            continue;
        }
        /* counted here without tl_check: the child printed why */
        if (run_isolated(&rows[i])) {
            ok++, tl_passed++;
        } else {
            bad++, tl_failed++;
            fprintf(stderr, "  ^ row %zu: %s, %s (want %s)\n", i, rows[i].fn, rows[i].rule, status_name(rows[i].want));
        }
    }
    printf("bad-input table: %zu rows, %lu held, %lu failed, %lu skipped\n", NROWS, ok, bad, skipped);
    coverage();
    return tl_finish();
}
