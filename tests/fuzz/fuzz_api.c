/*
 * fuzz_api.c - drives the public API with fuzzer-chosen arguments and call
 * orders and checks the statuses the headers document.
 *
 * An input is a program: up to 48 operations, each an opcode byte and its
 * parameters.  Operations call AES (every mode), streaming and one-shot
 * AES-GCM (one-shot with a raw key and with a reusable key object), streaming and one-shot (X)ChaCha20-Poly1305, (X)ChaCha20,
 * Poly1305, SHA-224/256 and SHA-384/512 streaming, HMAC, HKDF and the CRCs
 * on a few long-lived contexts, with
 *   - lengths chosen by the fuzzer, NULL pointers with zero and non-zero
 *     lengths, wrong key / IV / tag lengths, lengths past a mode's limit
 *     (with small buffers: the limit must be checked before any byte is
 *     touched);
 *   - input and output anywhere in one arena, so exactly in place,
 *     disjoint and partially overlapping buffers all occur;
 *   - streaming calls in any order, on contexts never initialised, wiped,
 *     finished, or left by a refused call.
 * A model of each context predicts the status from common.h's order of
 * checks (context; NULL data; key, IV, tag, block multiple, limit;
 * overlap; call order; authentication): the first fault in that order
 * decides.  After every call the arenas are compared with a snapshot:
 * a success may write only its outputs, a refusal nothing (neither the
 * buffers nor the context), and a failed open exactly zeros over out.
 * Streamed messages are recorded, so finish must give the one-shot seal's
 * tag of what went through, and verify of the genuine tag must pass.
 *
 * Cases the headers leave open are run for memory safety only (the status
 * is not asserted); tests/fuzz/README.md lists them.  Building with
 * -DFUZZ_LENIENT_ORDER accepts the status of any fault present instead of
 * the first one's (to grow a corpus while a check-order bug is open).
 */
#include "fuzz_common.h"

#define MAIN_SIZE 1024          /* data in / out                          */
#define SIDE_SIZE 768           /* key, IV / nonce, tag, AAD: fixed slots */
#define SLOT_KEY 0              /* 64 bytes   */
#define SLOT_IV 64              /* 160 bytes  */
#define SLOT_TAG 224            /* 32 bytes   */
#define SLOT_AAD 256            /* 512 bytes  */
#define RECORD_MAX 4096         /* bytes of a streamed message recorded   */
#define MAX_OPS 48

static uint8_t *mainb, *side, *snap_main, *snap_side;
static fz_in *cur;

/* ---- expected status ------------------------------------------------------ */
typedef struct {
    int st[10];
    int n;
    int open;      /* the headers do not say: no status asserted */
} expect;

static void ex_fault(expect *e, int cond, int status)
{
    if (cond && e->n < 10)
        e->st[e->n++] = status;
}

static int ex_want(const expect *e) { return e->n ? e->st[0] : IC_OK; }

static void ex_check(const expect *e, int rc, const char *what)
{
    if (e->open)
        return;
    int want = ex_want(e);
    if (rc == want)
        return;
#ifdef FUZZ_LENIENT_ORDER
    for (int i = 1; i < e->n; i++)
        if (rc == e->st[i])
            return;
#endif
    fprintf(stderr, "faults present, in common.h's order:");
    for (int i = 0; i < e->n; i++)
        fprintf(stderr, " %s", ic_status_str(e->st[i]));
    fprintf(stderr, "\n");
    FZ_FAIL("%s returned %d (%s), want %d (%s)", what, rc, ic_status_str(rc), want, ic_status_str(want));
}

/* ---- buffers --------------------------------------------------------------- */
static void snapshot(void)
{
    memcpy(snap_main, mainb, MAIN_SIZE);
    memcpy(snap_side, side, SIDE_SIZE);
}

/* Everything outside [lo, lo + n) of arena a (snapshot s) is unchanged;
 * up to two allowed ranges per arena (NULL / 0 for none). */
typedef struct {
    const uint8_t *p;
    size_t n;
} range;

static int in_range(const uint8_t *q, range r) { return r.p && q >= r.p && q < r.p + r.n; }

static void unchanged_but(const char *what, range a, range b)
{
    for (size_t i = 0; i < MAIN_SIZE; i++)
        if (mainb[i] != snap_main[i] && !in_range(mainb + i, a) && !in_range(mainb + i, b))
            FZ_FAIL("%s wrote data arena byte %zu outside its output", what, i);
    for (size_t i = 0; i < SIDE_SIZE; i++)
        if (side[i] != snap_side[i] && !in_range(side + i, a) && !in_range(side + i, b))
            FZ_FAIL("%s wrote side arena byte %zu (outside its output)", what, i);
}

static const range NONE = { NULL, 0 };
static range R(const uint8_t *p, size_t n) { range r = { p, n }; return r; }

/* A length: often small or block-related, sometimes anything up to max. */
static size_t pick_len(size_t max)
{
    uint8_t k = fz_u8(cur);
    size_t v;
    switch (k & 3) {
    case 0: v = k >> 2; break;                         /* 0..63  */
    case 1: v = 16 * (size_t)(k >> 2); break;          /* blocks */
    case 2: v = 64 * (size_t)(k >> 4) + 1; break;
    default: v = fz_u16(cur); break;
    }
    return v > max ? v % (max + 1) : v;
}

/* A data pointer into the main arena with room for len bytes, or NULL
 * (1 in 8). */
static uint8_t *pick_main(size_t len, int *isnull)
{
    uint8_t k = fz_u8(cur);
    *isnull = (k & 7) == 0;
    if (*isnull)
        return NULL;
    size_t room = MAIN_SIZE - (len > MAIN_SIZE ? MAIN_SIZE : len);
    return mainb + fz_u16(cur) % (room + 1);
}

/* A pointer into a side slot of size cap for len bytes, or NULL (1 in 8). */
static uint8_t *pick_side(size_t slot, size_t cap, size_t len, int *isnull)
{
    uint8_t k = fz_u8(cur);
    *isnull = (k & 7) == 0;
    if (*isnull)
        return NULL;
    size_t room = cap - (len > cap ? cap : len);
    return side + slot + (k >> 3) % (room + 1);
}

static int overlap_partial(const uint8_t *o, const uint8_t *i, size_t len)
{
    if (o == NULL || i == NULL || len == 0 || o == i)
        return 0;
    return o < i + len && i < o + len;
}

/* ---- contexts and their models ----------------------------------------- */
enum { S_NONE, S_READY, S_AAD, S_ENC, S_DEC, S_UNKNOWN,
       S_KEYGONE };                     /* in a message whose key object was wiped */

static ic_aes_key aes_k;
static int aes_st;                      /* S_NONE, S_READY, S_UNKNOWN */

typedef struct {
    int st;
    uint8_t key[32];
    size_t keylen;
    uint8_t iv[160];
    size_t ivlen;                       /* nonce length for chacha (12 / 24) */
    uint8_t aad[RECORD_MAX], pt[RECORD_MAX], ct[RECORD_MAX];
    uint64_t aadlen, len;
    int recorded;                       /* the record is complete */
    int key_dead;                       /* the key object the context points to was wiped */
} stream_model;

static ic_aes_gcm_ctx gcm_c;
static stream_model gm;
static ic_aes_gcm_key gcm_k;            /* the key object gcm_c's messages use */
static int gcm_kst;                     /* S_NONE, S_READY */
static ic_chacha20_poly1305_ctx cp_c;
static stream_model cm;
static ic_chacha20_poly1305_key cp_k;   /* the key object cp_c's messages begin from */
static int ck_st;                       /* S_NONE, S_READY */
static uint8_t ck_key[32];

static ic_sha256_ctx sha_c;
static int sha_st;                      /* S_NONE, or 1 + alg (224 / 256) */
static ic_hmac_ctx hmac_c;
static size_t hmac_ds;                  /* digest size of the keyed context */
static int hmac_st;                     /* S_NONE, S_READY, S_UNKNOWN */
static ic_poly1305_ctx poly_c;
static int poly_st;

static void model_start(stream_model *m, const uint8_t *iv, size_t ivlen)
{
    memcpy(m->iv, iv, ivlen);
    m->ivlen = ivlen;
    m->aadlen = m->len = 0;
    m->recorded = 1;
    m->st = S_AAD;
}

/* What the library counts for the current message: after finish / verify
 * (S_READY) a context starts the next message at zero, whatever the model
 * still records of the last one. */
static uint64_t lib_aadlen(const stream_model *m)
{
    return m->st == S_AAD || m->st == S_ENC || m->st == S_DEC ? m->aadlen : 0;
}
static uint64_t lib_len(const stream_model *m)
{
    return m->st == S_ENC || m->st == S_DEC ? m->len : 0;
}

static void record(stream_model *m, uint8_t *buf, uint64_t *pos, const uint8_t *p, size_t n)
{
    if (!m->recorded)
        return;
    if (*pos + n > RECORD_MAX) {
        m->recorded = 0;
        return;
    }
    if (n)
        memcpy(buf + *pos, p, n);
}

/* ---- AES ------------------------------------------------------------------ */
static const size_t odd_keylens[8] = { 0, 1, 15, 16, 17, 24, 32, 33 };

static size_t pick_keylen(void)
{
    uint8_t k = fz_u8(cur);
    if ((k & 0xc0) == 0xc0)
        return (size_t)(k & 0x3f) + (k & 1);          /* 0..64 */
    return k & 1 ? 16 + 8 * (size_t)((k >> 1) % 3) : odd_keylens[(k >> 1) & 7];
}

static int keylen_ok(size_t n) { return n == 16 || n == 24 || n == 32; }

static void op_aes_init(void)
{
    int kn, ctxnull = (fz_u8(cur) & 15) == 0;
    size_t keylen = pick_keylen();
    uint8_t *key = pick_side(SLOT_KEY, 64, keylen, &kn);
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, ctxnull, IC_ERR_NULL);
    ex_fault(&e, kn && keylen, IC_ERR_NULL);
    ex_fault(&e, !keylen_ok(keylen), IC_ERR_KEYLEN);
    snapshot();
    int rc = ic_aes_key_init(ctxnull ? NULL : &aes_k, key, keylen);
    ex_check(&e, rc, "ic_aes_key_init");
    unchanged_but("ic_aes_key_init", NONE, NONE);
    if (!ctxnull)   /* a failed init: the header does not say what is left of the old key */
        aes_st = rc == IC_OK ? S_READY : S_UNKNOWN;
}

static void op_aes_crypt(void)
{
    uint8_t sel = fz_u8(cur);
    int mode = sel % 5, dec = (sel >> 3) & 1, keynull = (sel >> 4) == 0;
    int ivn, on, inn;
    size_t len = pick_len(MAIN_SIZE);
    uint8_t *iv = pick_side(SLOT_IV, 160, 16, &ivn);
    uint8_t *out = pick_main(len, &on);
    const uint8_t *in = pick_main(len, &inn);
    int has_iv = mode != 0;
    const ic_aes_key *k = keynull ? NULL : &aes_k;
    expect e = { { 0 }, 0, aes_st == S_UNKNOWN };
    ex_fault(&e, keynull, IC_ERR_NULL);
    ex_fault(&e, !keynull && aes_st != S_READY, IC_ERR_STATE);
    ex_fault(&e, has_iv && ivn, IC_ERR_NULL);
    ex_fault(&e, (on || inn) && len, IC_ERR_NULL);
    ex_fault(&e, mode <= 1 && len % 16, IC_ERR_LENGTH);
    ex_fault(&e, overlap_partial(out, in, len), IC_ERR_OVERLAP);
    snapshot();
    int rc;
    switch (mode) {
    case 0: rc = dec ? ic_aes_ecb_decrypt(k, out, in, len) : ic_aes_ecb_encrypt(k, out, in, len); break;
    case 1: rc = dec ? ic_aes_cbc_decrypt(k, out, in, len, iv) : ic_aes_cbc_encrypt(k, out, in, len, iv); break;
    case 2: rc = dec ? ic_aes_cfb128_decrypt(k, out, in, len, iv) : ic_aes_cfb128_encrypt(k, out, in, len, iv); break;
    case 3: rc = ic_aes_ofb_crypt(k, out, in, len, iv); break;
    default: rc = ic_aes_ctr_crypt(k, out, in, len, iv); break;
    }
    ex_check(&e, rc, "an AES mode call");
    if (rc == IC_OK)
        unchanged_but("an AES mode call", R(out, len), R(has_iv ? iv : NULL, 16));
    else
        unchanged_but("a refused AES mode call", NONE, NONE);
}

static void op_aes_wipe(void)
{
    ic_aes_key_wipe(&aes_k);
    ic_aes_key_wipe(NULL);
    aes_st = S_NONE;
}

/* ---- GCM streaming -------------------------------------------------------- */
static const size_t some_taglens[8] = { 0, 3, 4, 8, 11, 12, 16, 17 };

static int gcm_taglen_ok(size_t t) { return t == 4 || t == 8 || (t >= 12 && t <= 16); }

static void ctx_unchanged(const void *ctx, const void *before, size_t n, const char *what)
{
    if (memcmp(ctx, before, n) != 0)
        FZ_FAIL("%s was refused but changed the context", what);
}

/* The key object of the streaming context: ic_aes_gcm_key_init.  A
 * message under way keeps going on it: with the key gone (a refused
 * re-init wipes it) every call on the context is IC_ERR_STATE, and a
 * message that went on under another key has no known tag. */
static void op_gcm_key_stream_init(void)
{
    int kn, ctxnull = (fz_u8(cur) & 15) == 0;
    size_t keylen = pick_keylen();
    uint8_t *key = pick_side(SLOT_KEY, 64, keylen, &kn);
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, ctxnull, IC_ERR_NULL);
    ex_fault(&e, kn && keylen, IC_ERR_NULL);
    ex_fault(&e, !keylen_ok(keylen), IC_ERR_KEYLEN);
    snapshot();
    int rc = ic_aes_gcm_key_init(ctxnull ? NULL : &gcm_k, key, keylen);
    ex_check(&e, rc, "ic_aes_gcm_key_init (streaming key)");
    unchanged_but("ic_aes_gcm_key_init", NONE, NONE);
    if (ctxnull)
        return;
    int in_msg = gm.st == S_AAD || gm.st == S_ENC || gm.st == S_DEC;
    if (rc == IC_OK) {
        gcm_kst = S_READY;
        memcpy(gm.key, key, keylen);
        gm.keylen = keylen;
        if (in_msg)
            gm.recorded = 0;      /* the message now mixes two keys */
        else if (gm.st == S_KEYGONE)
            gm.st = S_UNKNOWN;    /* the same, and the context state is not modelled past the gap */
    } else {
        gcm_kst = S_NONE;         /* a refused init leaves the key wiped */
        if (in_msg)
            gm.st = S_KEYGONE;
    }
}

/* ic_aes_gcm_init: a message on gcm_c under gcm_k (NULL one time in 16).
 * The context is wiped first, so a refused init leaves it all zero. */
static void op_gcm_init(void)
{
    int ivn;
    uint8_t sel = fz_u8(cur);
    int ctxnull = (sel & 15) == 0, knull = (sel >> 4) == 15;
    uint8_t k = fz_u8(cur);
    size_t ivlen = k & 1 ? 12 : (size_t)(k >> 1) % 161;
    uint8_t *iv = pick_side(SLOT_IV, 160, ivlen, &ivn);
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, ctxnull || knull, IC_ERR_NULL);
    ex_fault(&e, gcm_kst != S_READY, IC_ERR_STATE);
    ex_fault(&e, ivn && ivlen, IC_ERR_NULL);
    ex_fault(&e, ivlen == 0, IC_ERR_IVLEN);
    snapshot();
    int rc = ic_aes_gcm_init(ctxnull ? NULL : &gcm_c, knull ? NULL : &gcm_k, iv, ivlen);
    ex_check(&e, rc, "ic_aes_gcm_init");
    unchanged_but("ic_aes_gcm_init", NONE, NONE);
    if (ctxnull)
        return;
    if (rc != IC_OK) {
        static const ic_aes_gcm_ctx zero;
        FZ_CHECK(memcmp(&gcm_c, &zero, sizeof zero) == 0, "a refused ic_aes_gcm_init did not wipe the context");
        gm.st = S_NONE;
        return;
    }
    model_start(&gm, iv, ivlen);
}

static void op_gcm_aad(void)
{
    int an, ctxnull = (fz_u8(cur) & 15) == 0;
    uint8_t k = fz_u8(cur);
    size_t len = pick_len(512);
    uint8_t *aad = pick_side(SLOT_AAD, 512, len, &an);
    int huge = (k & 31) == 0 && SIZE_MAX > IC_GCM_MAX_AAD;
    if (huge)   /* one past the AAD limit: refused before anything is read */
        len = (size_t)(IC_GCM_MAX_AAD - lib_aadlen(&gm) + 1 + (k >> 5));
    expect e = { { 0 }, 0, gm.st == S_UNKNOWN };
    ex_fault(&e, ctxnull, IC_ERR_NULL);
    ex_fault(&e, !ctxnull && (gm.st == S_NONE || gm.st == S_KEYGONE), IC_ERR_STATE);
    ex_fault(&e, an && len, IC_ERR_NULL);
    ex_fault(&e, huge, IC_ERR_TOOLONG);
    ex_fault(&e, gm.st != S_AAD, IC_ERR_STATE);
    snapshot();
    ic_aes_gcm_ctx before = gcm_c;
    int rc = ic_aes_gcm_aad(ctxnull ? NULL : &gcm_c, aad, len);
    ex_check(&e, rc, "ic_aes_gcm_aad");
    unchanged_but("ic_aes_gcm_aad", NONE, NONE);
    if (rc != IC_OK) {
        if (!e.open && !ctxnull)
            ctx_unchanged(&gcm_c, &before, sizeof before, "ic_aes_gcm_aad");
        return;
    }
    if (gm.st == S_AAD) {
        if (gm.len == 0)
            record(&gm, gm.aad, &gm.aadlen, aad, len);
        gm.aadlen += len;
    }
}

/* One streaming AEAD's data call (GCM or ChaCha20-Poly1305): the faults in
 * common.h's order, the call, what it may write, and the model's record
 * of the message.  call runs encrypt or decrypt on ctx (NULL allowed). */
typedef int (*data_call)(void *ctx, uint8_t *out, const uint8_t *in, size_t len, int dec);

static void op_stream_data(stream_model *m, void *ctx, size_t ctxsize, uint64_t maxlen, data_call call,
                           const char *name, int dec)
{
    int on, inn, ctxnull = (fz_u8(cur) & 15) == 0;
    uint8_t k = fz_u8(cur);
    size_t len = pick_len(MAIN_SIZE);
    uint8_t *out = pick_main(len, &on);
    const uint8_t *in = pick_main(len, &inn);
    int huge = (k & 31) == 0 && SIZE_MAX > maxlen;
    if (huge)
        len = (size_t)(maxlen - lib_len(m) + 1 + (k >> 5));
    int dir = dec ? S_DEC : S_ENC;
    expect e = { { 0 }, 0, m->st == S_UNKNOWN };
    ex_fault(&e, ctxnull, IC_ERR_NULL);
    ex_fault(&e, !ctxnull && (m->st == S_NONE || m->st == S_KEYGONE || m->key_dead), IC_ERR_STATE);
    ex_fault(&e, (on || inn) && len, IC_ERR_NULL);
    ex_fault(&e, huge, IC_ERR_TOOLONG);
    ex_fault(&e, overlap_partial(out, in, len), IC_ERR_OVERLAP);
    ex_fault(&e, m->st != S_AAD && m->st != dir, IC_ERR_STATE);
    snapshot();
    static uint8_t before[sizeof(ic_aes_gcm_ctx) > sizeof(ic_chacha20_poly1305_ctx) ? sizeof(ic_aes_gcm_ctx)
                                                                                : sizeof(ic_chacha20_poly1305_ctx)];
    memcpy(before, ctx, ctxsize);
    uint8_t tmp[MAIN_SIZE];
    if (!huge && in)
        memcpy(tmp, in, len);
    int rc = call(ctxnull ? NULL : ctx, out, in, len, dec);
    ex_check(&e, rc, name);
    if (rc != IC_OK) {
        unchanged_but(name, NONE, NONE);
        if (!e.open && !ctxnull)
            ctx_unchanged(ctx, before, ctxsize, name);
        return;
    }
    unchanged_but(name, R(out, len), NONE);
    if (m->st == S_UNKNOWN)
        return;
    m->st = dir;
    /* record plaintext and ciphertext */
    uint64_t p = m->len;
    record(m, m->pt, &p, dec ? out : tmp, len);
    record(m, m->ct, &m->len, dec ? tmp : out, len);
    m->len += len;
}

static int gcm_data_call(void *ctx, uint8_t *out, const uint8_t *in, size_t len, int dec)
{
    return dec ? ic_aes_gcm_decrypt(ctx, out, in, len) : ic_aes_gcm_encrypt(ctx, out, in, len);
}

static void op_gcm_data(int dec)
{
    op_stream_data(&gm, &gcm_c, sizeof gcm_c, IC_GCM_MAX_DATA, gcm_data_call,
                   dec ? "ic_aes_gcm_decrypt" : "ic_aes_gcm_encrypt", dec);
}

/* The tag of the recorded message by the one-shot seal, and a check that
 * the recorded ciphertext is what the seal gives. */
static int model_tag(stream_model *m, uint8_t tag[16], int chacha)
{
    static uint8_t ct[RECORD_MAX + 1];
    if (!m->recorded)
        return 0;
    int rc;
    if (chacha)
        rc = m->ivlen == 24 ? ic_xchacha20_poly1305_seal(ct, tag, m->pt, m->len, m->aad, m->aadlen, m->iv, m->key)
                            : ic_chacha20_poly1305_seal(ct, tag, m->pt, m->len, m->aad, m->aadlen, m->iv, m->key);
    else
        rc = ic_aes_gcm_seal(ct, tag, 16, m->pt, m->len, m->aad, m->aadlen, m->iv, m->ivlen, m->key, m->keylen);
    FZ_CHECK(rc == IC_OK, "one-shot seal of the recorded message: %d", rc);
    FZ_CHECK_MEM(m->ct, ct, m->len, "streamed ciphertext / plaintext pair differs from the one-shot seal");
    return 1;
}

static void op_gcm_tag(int verify)
{
    int tn, ctxnull = (fz_u8(cur) & 15) == 0;
    uint8_t k = fz_u8(cur);
    size_t taglen = k & 1 ? 16 : some_taglens[(k >> 1) & 7];
    int genuine = (k >> 4) & 1;
    uint8_t *tag = pick_side(SLOT_TAG, 32, taglen, &tn);
    uint8_t want[16];
    int known = gm.st != S_UNKNOWN && (gm.st == S_AAD || gm.st == (verify ? S_DEC : S_ENC)) && model_tag(&gm, want, 0);
    if (verify && genuine && known && tag)
        memcpy(tag, want, taglen < 16 ? taglen : 16);
    int dir = verify ? S_DEC : S_ENC;
    expect e = { { 0 }, 0, gm.st == S_UNKNOWN };
    ex_fault(&e, ctxnull, IC_ERR_NULL);
    ex_fault(&e, !ctxnull && (gm.st == S_NONE || gm.st == S_KEYGONE), IC_ERR_STATE);
    ex_fault(&e, tn && taglen, IC_ERR_NULL);
    ex_fault(&e, !gcm_taglen_ok(taglen), IC_ERR_TAGLEN);
    ex_fault(&e, gm.st != S_AAD && gm.st != dir, IC_ERR_STATE);
    if (verify && !(genuine && known))
        e.open |= !known;   /* a fuzzer tag could match by chance only if unknown */
    if (verify && known && !genuine && tag && taglen <= 16 && memcmp(tag, want, taglen) != 0)
        ex_fault(&e, 1, IC_ERR_AUTH);
    snapshot();
    ic_aes_gcm_ctx before = gcm_c;
    int rc = verify ? ic_aes_gcm_final_verify(ctxnull ? NULL : &gcm_c, tag, taglen)
                    : ic_aes_gcm_final(ctxnull ? NULL : &gcm_c, tag, taglen);
    ex_check(&e, rc, verify ? "ic_aes_gcm_final_verify" : "ic_aes_gcm_final");
    if (rc == IC_OK && !verify) {
        unchanged_but("ic_aes_gcm_final", R(tag, taglen), NONE);
        if (known)
            FZ_CHECK_MEM(tag, want, taglen, "ic_aes_gcm_final tag differs from the one-shot seal's");
    } else {
        unchanged_but(verify ? "ic_aes_gcm_final_verify" : "a refused ic_aes_gcm_final", NONE, NONE);
    }
    if (rc == IC_OK || rc == IC_ERR_AUTH) {
        static const ic_aes_gcm_ctx zero;   /* the message ended: the context is wiped */
        FZ_CHECK(memcmp(&gcm_c, &zero, sizeof zero) == 0, "%s left the context not wiped",
                 verify ? "ic_aes_gcm_final_verify" : "ic_aes_gcm_final");
        gm.st = S_NONE;
    } else if (!e.open && !ctxnull) {
        ctx_unchanged(&gcm_c, &before, sizeof before, verify ? "ic_aes_gcm_final_verify" : "ic_aes_gcm_final");
    }
}

static void op_gcm_wipe(void)
{
    ic_aes_gcm_wipe(&gcm_c);
    ic_aes_gcm_wipe(NULL);
    gm.st = S_NONE;
}

/* ---- one-shot AES-GCM ---------------------------------------------------- */
static void op_gcm_oneshot(void)
{
    int kn, ivn, an, inn, on, tn;
    uint8_t sel = fz_u8(cur);
    int open = sel & 1, genuine = (sel >> 1) & 1;
    size_t keylen = sel & 4 ? pick_keylen() : 16 + 8 * (size_t)((sel >> 3) % 3);
    size_t ivlen = sel & 32 ? (size_t)fz_u8(cur) % 161 : 12;
    size_t taglen = sel & 64 ? some_taglens[fz_u8(cur) & 7] : 16;
    size_t aadlen = pick_len(512), len = pick_len(MAIN_SIZE);
    uint8_t *key = pick_side(SLOT_KEY, 64, keylen, &kn);
    uint8_t *iv = pick_side(SLOT_IV, 160, ivlen, &ivn);
    uint8_t *aad = pick_side(SLOT_AAD, 512, aadlen, &an);
    uint8_t *tag = pick_side(SLOT_TAG, 32, taglen, &tn);
    uint8_t *out = pick_main(len, &on);
    const uint8_t *in = pick_main(len, &inn);
    int huge = (sel & 0x98) == 0x98 && SIZE_MAX > IC_GCM_MAX_DATA;
    if (huge)
        len = (size_t)IC_GCM_MAX_DATA + 1 + fz_u8(cur);
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, (kn && keylen) || (ivn && ivlen) || (an && aadlen) || ((inn || on) && len) || (tn && taglen),
             IC_ERR_NULL);
    ex_fault(&e, !keylen_ok(keylen), IC_ERR_KEYLEN);
    ex_fault(&e, ivlen == 0, IC_ERR_IVLEN);
    ex_fault(&e, !gcm_taglen_ok(taglen), IC_ERR_TAGLEN);
    ex_fault(&e, huge, IC_ERR_TOOLONG);
    ex_fault(&e, overlap_partial(out, in, len), IC_ERR_OVERLAP);
    uint8_t gtag[16];
    if (open && e.n == 0) {
        /* a genuine tag for this message: seal a copy of the ciphertext's
         * decryption (CTR is its own inverse, so seal(open(in)) = in) */
        static uint8_t pt[MAIN_SIZE], ct[MAIN_SIZE];
        int rc = ic_aes_gcm_seal(pt, gtag, taglen, in, len, aad, aadlen, iv, ivlen, key, keylen);
        FZ_CHECK(rc == IC_OK, "seal for the genuine tag: %d", rc);
        rc = ic_aes_gcm_seal(ct, gtag, taglen, pt, len, aad, aadlen, iv, ivlen, key, keylen);
        FZ_CHECK(rc == IC_OK, "seal for the genuine tag: %d", rc);
        FZ_CHECK_MEM(ct, in, len, "GCM encryption is not an involution");
        if (genuine)
            memcpy(tag, gtag, taglen);
        else if (memcmp(tag, gtag, taglen) == 0)
            tag[0] ^= 1;
        ex_fault(&e, !genuine, IC_ERR_AUTH);
    }
    snapshot();
    int rc = open ? ic_aes_gcm_open(out, tag, taglen, in, len, aad, aadlen, iv, ivlen, key, keylen)
                  : ic_aes_gcm_seal(out, tag, taglen, in, len, aad, aadlen, iv, ivlen, key, keylen);
    ex_check(&e, rc, open ? "ic_aes_gcm_open" : "ic_aes_gcm_seal");
    if (rc == IC_OK)
        unchanged_but("one-shot GCM", R(out, len), R(open ? NULL : tag, taglen));
    else
        unchanged_but("refused one-shot GCM", rc == IC_ERR_AUTH ? R(out, len) : NONE, NONE);
    if (rc == IC_ERR_AUTH)
        for (size_t i = 0; i < len; i++)
            FZ_CHECK(out[i] == 0, "ic_aes_gcm_open failed but byte %zu of out is not zero", i);
}

/* ---- AES-GCM with a reusable key object ----------------------------------- */
static ic_aes_gcm_key gk;
static int gk_st;                       /* S_NONE, S_READY, S_UNKNOWN */
static uint8_t gk_key[64];
static size_t gk_keylen;

/* init (or, one time in 8, wipe) of the key object */
static void op_gcm_key_init(void)
{
    int kn;
    uint8_t sel = fz_u8(cur);
    if ((sel & 7) == 7) {
        ic_aes_gcm_key_wipe(&gk);
        ic_aes_gcm_key_wipe(NULL);
        gk_st = S_NONE;
        return;
    }
    int ctxnull = (sel & 15) == 0;
    size_t keylen = pick_keylen();
    uint8_t *key = pick_side(SLOT_KEY, 64, keylen, &kn);
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, ctxnull || (kn && keylen), IC_ERR_NULL);
    ex_fault(&e, !keylen_ok(keylen), IC_ERR_KEYLEN);
    snapshot();
    int rc = ic_aes_gcm_key_init(ctxnull ? NULL : &gk, key, keylen);
    ex_check(&e, rc, "ic_aes_gcm_key_init");
    unchanged_but("ic_aes_gcm_key_init", NONE, NONE);
    if (ctxnull)
        return;
    gk_st = rc == IC_OK ? S_READY : S_NONE;   /* a failed init leaves it wiped */
    if (rc == IC_OK) {
        memcpy(gk_key, key, keylen);
        gk_keylen = keylen;
    }
}

/* seal / open through the key object: the statuses of the raw-key calls
 * with the key object's own step 1, the key object untouched, and a seal
 * that gives the raw-key one-shot seal's output and tag */
static void op_gcm_key_oneshot(void)
{
    int ivn, an, inn, on, tn;
    uint8_t sel = fz_u8(cur);
    int open = sel & 1, genuine = (sel >> 1) & 1, ctxnull = (sel & 0x1c) == 0x1c;
    size_t ivlen = sel & 32 ? (size_t)fz_u8(cur) % 161 : 12;
    size_t taglen = sel & 64 ? some_taglens[fz_u8(cur) & 7] : 16;
    size_t aadlen = pick_len(512), len = pick_len(MAIN_SIZE);
    uint8_t *iv = pick_side(SLOT_IV, 160, ivlen, &ivn);
    uint8_t *aad = pick_side(SLOT_AAD, 512, aadlen, &an);
    uint8_t *tag = pick_side(SLOT_TAG, 32, taglen, &tn);
    uint8_t *out = pick_main(len, &on);
    const uint8_t *in = pick_main(len, &inn);
    int huge = (sel & 0x88) == 0x88 && SIZE_MAX > IC_GCM_MAX_DATA;
    if (huge)
        len = (size_t)IC_GCM_MAX_DATA + 1 + fz_u8(cur);
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, ctxnull, IC_ERR_NULL);
    ex_fault(&e, !ctxnull && gk_st == S_NONE, IC_ERR_STATE);
    e.open = !ctxnull && gk_st == S_UNKNOWN;   /* garbled: memory safety only */
    ex_fault(&e, (ivn && ivlen) || (an && aadlen) || ((inn || on) && len) || (tn && taglen), IC_ERR_NULL);
    ex_fault(&e, ivlen == 0, IC_ERR_IVLEN);
    ex_fault(&e, !gcm_taglen_ok(taglen), IC_ERR_TAGLEN);
    ex_fault(&e, huge, IC_ERR_TOOLONG);
    ex_fault(&e, overlap_partial(out, in, len), IC_ERR_OVERLAP);
    static uint8_t ref[MAIN_SIZE], pt[MAIN_SIZE];
    uint8_t rtag[16];
    int reference = e.n == 0 && !e.open;
    if (reference && !open)   /* what the raw-key call gives, before in is overwritten */
        FZ_CHECK(ic_aes_gcm_seal(ref, rtag, taglen, in, len, aad, aadlen, iv, ivlen, gk_key, gk_keylen) == IC_OK,
                 "reference seal");
    if (reference && open) {  /* a genuine tag for in (the seal of its decryption), or a wrong one */
        FZ_CHECK(ic_aes_gcm_seal(pt, rtag, taglen, in, len, aad, aadlen, iv, ivlen, gk_key, gk_keylen) == IC_OK
                 && ic_aes_gcm_seal(ref, rtag, taglen, pt, len, aad, aadlen, iv, ivlen, gk_key, gk_keylen) == IC_OK,
                 "seal for the genuine tag");
        if (genuine)
            memcpy(tag, rtag, taglen);
        else if (memcmp(tag, rtag, taglen) == 0)
            tag[0] ^= 1;
        ex_fault(&e, !genuine, IC_ERR_AUTH);
    }
    static ic_aes_gcm_key before;
    before = gk;
    snapshot();
    const ic_aes_gcm_key *k = ctxnull ? NULL : &gk;
    int rc = open ? ic_aes_gcm_key_open(k, out, tag, taglen, in, len, aad, aadlen, iv, ivlen)
                  : ic_aes_gcm_key_seal(k, out, tag, taglen, in, len, aad, aadlen, iv, ivlen);
    ex_check(&e, rc, open ? "ic_aes_gcm_key_open" : "ic_aes_gcm_key_seal");
    if (memcmp(&gk, &before, sizeof gk) != 0)
        FZ_FAIL("ic_aes_gcm_key_%s changed the key object", open ? "open" : "seal");
    if (rc == IC_OK)
        unchanged_but("key-object GCM", R(out, len), R(open ? NULL : tag, taglen));
    else
        unchanged_but("refused key-object GCM", rc == IC_ERR_AUTH ? R(out, len) : NONE, NONE);
    if (rc == IC_ERR_AUTH)
        for (size_t i = 0; i < len; i++)
            FZ_CHECK(out[i] == 0, "ic_aes_gcm_key_open failed but byte %zu of out is not zero", i);
    if (rc == IC_OK && reference && !open) {
        FZ_CHECK_MEM(out, ref, len, "key-object seal differs from ic_aes_gcm_seal");
        FZ_CHECK_MEM(tag, rtag, taglen, "key-object tag differs from ic_aes_gcm_seal's");
    }
    if (rc == IC_OK && reference && open)
        FZ_CHECK_MEM(out, pt, len, "key-object open differs from the plaintext");
}

/* ---- ChaCha20-Poly1305 streaming ------------------------------------------ */
/* The message context keeps a pointer to cp_k, so a wipe of cp_k in the
 * middle of a message makes every call on cp_c IC_ERR_STATE, and a new
 * key in cp_k changes the keystream of the rest of a ChaCha20 message. */
static void cp_key_check(void)
{
    cm.key_dead = ck_st != S_READY;
}

/* init (or, one time in 16, wipe) of the key object */
static void op_cp_key_init(void)
{
    int kn;
    uint8_t sel = fz_u8(cur);
    int ctxnull = (sel & 15) == 0, wipe = (sel & 15) == 15;
    uint8_t *key = pick_side(SLOT_KEY, 64, 32, &kn);
    if (wipe) {
        ic_chacha20_poly1305_key_wipe(&cp_k);
        ic_chacha20_poly1305_key_wipe(NULL);
        ck_st = S_NONE;
        return;
    }
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, ctxnull || kn, IC_ERR_NULL);
    snapshot();
    int rc = ic_chacha20_poly1305_key_init(ctxnull ? NULL : &cp_k, key);
    ex_check(&e, rc, "ic_chacha20_poly1305_key_init");
    unchanged_but("ic_chacha20_poly1305_key_init", NONE, NONE);
    if (ctxnull)
        return;
    if (rc == IC_OK) {
        if (memcmp(ck_key, key, 32) != 0)
            cm.recorded = 0;   /* a message under way goes on under another key */
        memcpy(ck_key, key, 32);
    }
    ck_st = rc == IC_OK ? S_READY : S_NONE;   /* a failed init leaves it wiped */
}

/* ic_chacha20_poly1305_init or ic_xchacha20_poly1305_init on cp_c, from
 * cp_k (NULL one time in 8) */
static void op_cp_init(void)
{
    int nn;
    uint8_t k = fz_u8(cur);
    int ctxnull = (k & 15) == 0, x = (k >> 4) & 1, knull = (k >> 5) == 7;
    uint8_t *nonce = pick_side(SLOT_IV, 160, 24, &nn);
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, ctxnull || knull, IC_ERR_NULL);
    ex_fault(&e, !knull && ck_st != S_READY, IC_ERR_STATE);
    ex_fault(&e, nn, IC_ERR_NULL);
    snapshot();
    ic_chacha20_poly1305_ctx *c = ctxnull ? NULL : &cp_c;
    const ic_chacha20_poly1305_key *kp = knull ? NULL : &cp_k;
    int rc = x ? ic_xchacha20_poly1305_init(c, kp, nonce) : ic_chacha20_poly1305_init(c, kp, nonce);
    ex_check(&e, rc, x ? "ic_xchacha20_poly1305_init" : "ic_chacha20_poly1305_init");
    unchanged_but("a chacha20-poly1305 init", NONE, NONE);
    if (ctxnull)
        return;
    if (rc != IC_OK) {
        /* the context is wiped before the checks: no message is left */
        for (size_t i = 0; i < sizeof cp_c; i++)
            FZ_CHECK(((const uint8_t *)&cp_c)[i] == 0, "a refused chacha20-poly1305 init left byte %zu", i);
        cm.st = S_NONE;
        return;
    }
    model_start(&cm, nonce, x ? 24 : 12);
    memcpy(cm.key, ck_key, 32);
    cm.key_dead = 0;
}

static void op_cp_aad(void)
{
    int an, ctxnull = (fz_u8(cur) & 15) == 0;
    size_t len = pick_len(512);
    uint8_t *aad = pick_side(SLOT_AAD, 512, len, &an);
    cp_key_check();
    expect e = { { 0 }, 0, cm.st == S_UNKNOWN };
    ex_fault(&e, ctxnull, IC_ERR_NULL);
    ex_fault(&e, !ctxnull && (cm.st == S_NONE || cm.key_dead), IC_ERR_STATE);
    ex_fault(&e, an && len, IC_ERR_NULL);
    ex_fault(&e, cm.st != S_AAD, IC_ERR_STATE);
    snapshot();
    ic_chacha20_poly1305_ctx before = cp_c;
    int rc = ic_chacha20_poly1305_aad(ctxnull ? NULL : &cp_c, aad, len);
    ex_check(&e, rc, "ic_chacha20_poly1305_aad");
    unchanged_but("ic_chacha20_poly1305_aad", NONE, NONE);
    if (rc != IC_OK) {
        if (!e.open && !ctxnull)
            ctx_unchanged(&cp_c, &before, sizeof before, "ic_chacha20_poly1305_aad");
        return;
    }
    if (cm.st == S_AAD) {
        record(&cm, cm.aad, &cm.aadlen, aad, len);
        cm.aadlen += len;
    }
}

static int cp_data_call(void *ctx, uint8_t *out, const uint8_t *in, size_t len, int dec)
{
    return dec ? ic_chacha20_poly1305_decrypt(ctx, out, in, len) : ic_chacha20_poly1305_encrypt(ctx, out, in, len);
}

static void op_cp_data(int dec)
{
    cp_key_check();
    op_stream_data(&cm, &cp_c, sizeof cp_c, IC_CHACHA20_POLY1305_MAX_LEN, cp_data_call,
                   dec ? "ic_chacha20_poly1305_decrypt" : "ic_chacha20_poly1305_encrypt", dec);
}

static void op_cp_tag(int verify)
{
    int tn;
    uint8_t k = fz_u8(cur);
    int ctxnull = (k & 15) == 0, genuine = (k >> 4) & 1;
    uint8_t *tag = pick_side(SLOT_TAG, 32, 16, &tn);
    uint8_t want[16];
    int dir = verify ? S_DEC : S_ENC;
    cp_key_check();
    int known = cm.st != S_UNKNOWN && (cm.st == S_AAD || cm.st == dir) && model_tag(&cm, want, 1);
    if (verify && genuine && known && tag)
        memcpy(tag, want, 16);
    expect e = { { 0 }, 0, cm.st == S_UNKNOWN };
    ex_fault(&e, ctxnull, IC_ERR_NULL);
    ex_fault(&e, !ctxnull && (cm.st == S_NONE || cm.key_dead), IC_ERR_STATE);
    ex_fault(&e, tn, IC_ERR_NULL);
    ex_fault(&e, cm.st != S_AAD && cm.st != dir, IC_ERR_STATE);
    if (verify && !known)
        e.open = 1;
    if (verify && known && tag && memcmp(tag, want, 16) != 0)
        ex_fault(&e, 1, IC_ERR_AUTH);
    snapshot();
    ic_chacha20_poly1305_ctx before = cp_c;
    ic_chacha20_poly1305_ctx *c = ctxnull ? NULL : &cp_c;
    int rc = verify ? ic_chacha20_poly1305_final_verify(c, tag) : ic_chacha20_poly1305_final(c, tag);
    ex_check(&e, rc, verify ? "ic_chacha20_poly1305_final_verify" : "ic_chacha20_poly1305_final");
    if (rc == IC_OK && !verify) {
        unchanged_but("ic_chacha20_poly1305_final", R(tag, 16), NONE);
        if (known)
            FZ_CHECK_MEM(tag, want, 16, "ic_chacha20_poly1305_final tag differs from the one-shot seal's");
    } else {
        unchanged_but(verify ? "ic_chacha20_poly1305_final_verify" : "refused final", NONE, NONE);
    }
    if (rc == IC_OK || rc == IC_ERR_AUTH) {
        /* the message ended and the context was wiped */
        for (size_t i = 0; i < sizeof cp_c; i++)
            FZ_CHECK(((const uint8_t *)&cp_c)[i] == 0, "a chacha20-poly1305 final left byte %zu", i);
        cm.st = S_NONE;
    } else if (!e.open && !ctxnull) {
        ctx_unchanged(&cp_c, &before, sizeof before, "a chacha20-poly1305 final / final_verify");
    }
}

static void op_cp_wipe(void)
{
    ic_chacha20_poly1305_wipe(&cp_c);
    ic_chacha20_poly1305_wipe(NULL);
    cm.st = S_NONE;
}

/* ---- one-shot (X)ChaCha20-Poly1305 and (X)ChaCha20 ------------------------- */
static void op_cp_oneshot(void)
{
    int kn, nn, an, inn, on, tn;
    uint8_t sel = fz_u8(cur);
    int open = sel & 1, genuine = (sel >> 1) & 1, x = (sel >> 2) & 1;
    size_t aadlen = pick_len(512), len = pick_len(MAIN_SIZE);
    uint8_t *key = pick_side(SLOT_KEY, 64, 32, &kn);
    uint8_t *nonce = pick_side(SLOT_IV, 160, 24, &nn);
    uint8_t *aad = pick_side(SLOT_AAD, 512, aadlen, &an);
    uint8_t *tag = pick_side(SLOT_TAG, 32, 16, &tn);
    uint8_t *out = pick_main(len, &on);
    const uint8_t *in = pick_main(len, &inn);
    int huge = (sel & 0xf0) == 0xf0 && SIZE_MAX > IC_CHACHA20_POLY1305_MAX_LEN;
    if (huge)
        len = (size_t)IC_CHACHA20_POLY1305_MAX_LEN + 1 + fz_u8(cur);
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, kn || nn || tn || (an && aadlen) || ((inn || on) && len), IC_ERR_NULL);
    ex_fault(&e, huge, IC_ERR_TOOLONG);
    ex_fault(&e, overlap_partial(out, in, len), IC_ERR_OVERLAP);
    typedef int (*sealf)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                         const uint8_t *);
    typedef int (*openf)(uint8_t *, const uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                         const uint8_t *);
    sealf seal = x ? ic_xchacha20_poly1305_seal : ic_chacha20_poly1305_seal;
    openf opn = x ? ic_xchacha20_poly1305_open : ic_chacha20_poly1305_open;
    if (open && e.n == 0) {
        static uint8_t pt[MAIN_SIZE], ct[MAIN_SIZE];
        uint8_t gtag[16];
        int rc = seal(pt, gtag, in, len, aad, aadlen, nonce, key);
        FZ_CHECK(rc == IC_OK, "seal for the genuine tag: %d", rc);
        rc = seal(ct, gtag, pt, len, aad, aadlen, nonce, key);
        FZ_CHECK(rc == IC_OK, "seal for the genuine tag: %d", rc);
        FZ_CHECK_MEM(ct, in, len, "ChaCha20 encryption is not an involution");
        if (genuine)
            memcpy(tag, gtag, 16);
        else if (memcmp(tag, gtag, 16) == 0)
            tag[0] ^= 1;
        ex_fault(&e, !genuine, IC_ERR_AUTH);
    }
    snapshot();
    int rc = open ? opn(out, tag, in, len, aad, aadlen, nonce, key) : seal(out, tag, in, len, aad, aadlen, nonce, key);
    ex_check(&e, rc, open ? "a chacha20-poly1305 open" : "a chacha20-poly1305 seal");
    if (rc == IC_OK)
        unchanged_but("one-shot chacha20-poly1305", R(out, len), R(open ? NULL : tag, 16));
    else
        unchanged_but("refused one-shot chacha20-poly1305", rc == IC_ERR_AUTH ? R(out, len) : NONE, NONE);
    if (rc == IC_ERR_AUTH)
        for (size_t i = 0; i < len; i++)
            FZ_CHECK(out[i] == 0, "a chacha20-poly1305 open failed but byte %zu of out is not zero", i);
}

static void op_chacha_xor(void)
{
    int kn, nn, inn, on;
    uint8_t sel = fz_u8(cur);
    int x = sel & 1;
    size_t len = pick_len(MAIN_SIZE);
    uint8_t *key = pick_side(SLOT_KEY, 64, 32, &kn);
    uint8_t *nonce = pick_side(SLOT_IV, 160, 24, &nn);
    uint8_t *out = pick_main(len, &on);
    const uint8_t *in = pick_main(len, &inn);
    uint64_t ctr = fz_u64(cur);
    if (sel & 2)   /* near the end of the counter, where the limit bites */
        ctr = (x ? UINT64_MAX : UINT64_C(0xffffffff)) - (ctr % 20);
    if (!x)
        ctr = (uint32_t)ctr;
    uint64_t nblocks = (uint64_t)len / 64 + (len % 64 != 0);
    int toolong = x ? (ctr != 0 && nblocks > 0 - ctr) : nblocks > (UINT64_C(1) << 32) - ctr;
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, kn || nn || ((inn || on) && len), IC_ERR_NULL);
    ex_fault(&e, toolong, IC_ERR_TOOLONG);
    ex_fault(&e, overlap_partial(out, in, len), IC_ERR_OVERLAP);
    snapshot();
    int rc = x ? ic_xchacha20_xor(out, in, len, nonce, ctr, key)
               : ic_chacha20_xor(out, in, len, nonce, (uint32_t)ctr, key);
    ex_check(&e, rc, x ? "ic_xchacha20_xor" : "ic_chacha20_xor");
    unchanged_but("a chacha20 call", rc == IC_OK ? R(out, len) : NONE, NONE);
}

/* ---- Poly1305 ---------------------------------------------------------------- */
static void op_poly(void)
{
    int kn, inn;
    uint8_t sel = fz_u8(cur);
    int which = sel % 5, ctxnull = ((sel >> 3) & 15) == 0;
    size_t len = pick_len(MAIN_SIZE);
    uint8_t *key = pick_side(SLOT_KEY, 64, 32, &kn);
    const uint8_t *in = pick_main(len, &inn);
    int tn;
    uint8_t *tag = pick_side(SLOT_TAG, 32, 16, &tn);
    ic_poly1305_ctx *c = ctxnull ? NULL : &poly_c;
    expect e = { { 0 }, 0, 0 };
    int rc;
    snapshot();
    switch (which) {
    case 0:
        ex_fault(&e, ctxnull || kn, IC_ERR_NULL);
        rc = ic_poly1305_init(c, key);
        ex_check(&e, rc, "ic_poly1305_init");
        if (!ctxnull)   /* init wipes the context first */
            poly_st = rc == IC_OK ? S_READY : S_NONE;
        unchanged_but("ic_poly1305_init", NONE, NONE);
        break;
    case 1:
        e.open = poly_st == S_UNKNOWN;
        ex_fault(&e, ctxnull, IC_ERR_NULL);
        ex_fault(&e, !ctxnull && poly_st != S_READY, IC_ERR_STATE);
        ex_fault(&e, inn && len, IC_ERR_NULL);
        rc = ic_poly1305_update(c, in, len);
        ex_check(&e, rc, "ic_poly1305_update");
        unchanged_but("ic_poly1305_update", NONE, NONE);
        break;
    case 2:
        e.open = poly_st == S_UNKNOWN;
        ex_fault(&e, ctxnull, IC_ERR_NULL);
        ex_fault(&e, !ctxnull && poly_st != S_READY, IC_ERR_STATE);
        ex_fault(&e, tn, IC_ERR_NULL);
        if (sel & 0x80) {
            /* the model does not follow the message: a tag the fuzzer put
             * there matches or not, either ends the context */
            rc = ic_poly1305_final_verify(c, tag);
            if (e.n == 0 && !e.open)
                FZ_CHECK(rc == IC_OK || rc == IC_ERR_AUTH, "ic_poly1305_final_verify returned %d", rc);
            else
                ex_check(&e, rc, "ic_poly1305_final_verify");
            unchanged_but("ic_poly1305_final_verify", NONE, NONE);
            if (rc == IC_OK || rc == IC_ERR_AUTH)
                poly_st = S_NONE;
            break;
        }
        rc = ic_poly1305_final(c, tag);
        ex_check(&e, rc, "ic_poly1305_final");
        unchanged_but("ic_poly1305_final", rc == IC_OK ? R(tag, 16) : NONE, NONE);
        if (rc == IC_OK)
            poly_st = S_NONE;     /* final wipes the context */
        break;
    case 3:
        ic_poly1305_wipe(c);
        if (!ctxnull)
            poly_st = S_NONE;
        unchanged_but("ic_poly1305_wipe", NONE, NONE);
        break;
    default:
        ex_fault(&e, tn || kn || (inn && len), IC_ERR_NULL);
        rc = ic_poly1305(tag, in, len, key);
        ex_check(&e, rc, "ic_poly1305");
        unchanged_but("ic_poly1305", rc == IC_OK ? R(tag, 16) : NONE, NONE);
        break;
    }
}

/* ---- SHA-224 / SHA-256 streaming (the SHA-512 family shares the code
 * shape; the generic and one-shot calls are in fuzz_sha) ------------------ */
static void op_sha(void)
{
    int inn, on;
    uint8_t sel = fz_u8(cur);
    int which = sel % 4, v224 = (sel >> 2) & 1, ctxnull = ((sel >> 3) & 15) == 0;
    size_t len = pick_len(MAIN_SIZE);
    const uint8_t *in = pick_main(len, &inn);
    uint8_t *out = pick_side(SLOT_TAG, 32, 32, &on);
    size_t ds = v224 ? 28 : 32;
    int want_st = 1 + (v224 ? IC_HASH_SHA224 : IC_HASH_SHA256);
    ic_sha256_ctx *c = ctxnull ? NULL : &sha_c;
    expect e = { { 0 }, 0, 0 };
    int rc;
    snapshot();
    ic_sha256_ctx before = sha_c;
    switch (which) {
    case 0:
        ex_fault(&e, ctxnull, IC_ERR_NULL);
        rc = v224 ? ic_sha224_init(c) : ic_sha256_init(c);
        ex_check(&e, rc, "a sha224/256 init");
        if (rc == IC_OK)
            sha_st = want_st;
        unchanged_but("a sha224/256 init", NONE, NONE);
        break;
    case 1:
        /* a zeroed or finalised context is step 1; the other variant's
         * context (sha.h: IC_ERR_STATE too) is not placed in common.h's
         * order, so with another fault present no status is asserted */
        ex_fault(&e, ctxnull, IC_ERR_NULL);
        ex_fault(&e, !ctxnull && sha_st == S_NONE, IC_ERR_STATE);
        ex_fault(&e, inn && len, IC_ERR_NULL);
        ex_fault(&e, !ctxnull && sha_st != S_NONE && sha_st != want_st, IC_ERR_STATE);
        e.open = e.n > 1 && !ctxnull && sha_st != S_NONE && sha_st != want_st;
        rc = v224 ? ic_sha224_update(c, in, len) : ic_sha256_update(c, in, len);
        ex_check(&e, rc, "a sha224/256 update");
        unchanged_but("a sha224/256 update", NONE, NONE);
        if (rc != IC_OK && !ctxnull)
            ctx_unchanged(&sha_c, &before, sizeof before, "a sha224/256 update");
        break;
    case 2:
        ex_fault(&e, ctxnull, IC_ERR_NULL);
        ex_fault(&e, !ctxnull && sha_st == S_NONE, IC_ERR_STATE);
        ex_fault(&e, on, IC_ERR_NULL);
        ex_fault(&e, !ctxnull && sha_st != S_NONE && sha_st != want_st, IC_ERR_STATE);
        e.open = e.n > 1 && !ctxnull && sha_st != S_NONE && sha_st != want_st;
        rc = v224 ? ic_sha224_final(c, out) : ic_sha256_final(c, out);
        ex_check(&e, rc, "a sha224/256 final");
        unchanged_but("a sha224/256 final", rc == IC_OK ? R(out, ds) : NONE, NONE);
        if (rc == IC_OK)
            sha_st = S_NONE;       /* final wipes the context */
        else if (!ctxnull)
            ctx_unchanged(&sha_c, &before, sizeof before, "a sha224/256 final");
        break;
    default:
        /* one-shot: the digest is fixed-size, so a NULL out is refused
         * whatever the message; NULL in only with len 0 */
        ex_fault(&e, on, IC_ERR_NULL);
        ex_fault(&e, inn && len, IC_ERR_NULL);
        rc = v224 ? ic_sha224(out, in, len) : ic_sha256(out, in, len);
        ex_check(&e, rc, "a sha224/256 one-shot");
        unchanged_but("a sha224/256 one-shot", rc == IC_OK ? R(out, ds) : NONE, NONE);
        break;
    }
}

/* ---- HMAC and HKDF ---------------------------------------------------------- */
static void op_hmac(void)
{
    int kn, inn, tn;
    uint8_t sel = fz_u8(cur);
    int which = sel % 5, ctxnull = ((sel >> 3) & 15) == 0;
    uint8_t a8 = fz_u8(cur);
    ic_hash_alg alg = (ic_hash_alg)(a8 % 8);   /* 7 is not an algorithm */
    size_t keylen = pick_len(64), len = pick_len(MAIN_SIZE);
    size_t taglen = (size_t)fz_u8(cur) % 70;
    uint8_t *key = pick_side(SLOT_KEY, 64, keylen, &kn);
    const uint8_t *in = pick_main(len, &inn);
    uint8_t *tag = pick_side(SLOT_AAD, 512, 64, &tn);   /* room for any digest */
    size_t ds = ic_hash_digest_size(alg);
    ic_hmac_ctx *c = ctxnull ? NULL : &hmac_c;
    expect e = { { 0 }, 0, 0 };
    int rc;
    snapshot();
    switch (which) {
    case 0:
        /* common.h: NULL data before the algorithm parameter; a refused
         * init leaves the context wiped */
        ex_fault(&e, ctxnull, IC_ERR_NULL);
        ex_fault(&e, kn && keylen, IC_ERR_NULL);
        ex_fault(&e, ds == 0, IC_ERR_PARAM);
        rc = ic_hmac_init(c, alg, key, keylen);
        ex_check(&e, rc, "ic_hmac_init");
        if (!ctxnull) {
            hmac_st = rc == IC_OK ? S_READY : S_NONE;
            hmac_ds = ds;
        }
        unchanged_but("ic_hmac_init", NONE, NONE);
        break;
    case 1:
        e.open = hmac_st == S_UNKNOWN;
        ex_fault(&e, ctxnull, IC_ERR_NULL);
        ex_fault(&e, !ctxnull && hmac_st != S_READY, IC_ERR_STATE);
        ex_fault(&e, inn && len, IC_ERR_NULL);
        rc = ic_hmac_update(c, in, len);
        ex_check(&e, rc, "ic_hmac_update");
        unchanged_but("ic_hmac_update", NONE, NONE);
        break;
    case 2: {
        /* the output capacity from taglen: 35 and up give the whole
         * 64-byte slot, below that a capacity that may be short of the
         * digest (IC_ERR_SIZE, the context kept) */
        size_t outlen = taglen >= 35 ? 64 : taglen;
        e.open = hmac_st == S_UNKNOWN;
        ex_fault(&e, ctxnull, IC_ERR_NULL);
        ex_fault(&e, !ctxnull && hmac_st != S_READY, IC_ERR_STATE);
        ex_fault(&e, tn && outlen, IC_ERR_NULL);
        ex_fault(&e, hmac_st == S_READY && outlen < hmac_ds, IC_ERR_SIZE);
        ic_hmac_ctx before = hmac_c;
        rc = ic_hmac_final(c, tag, outlen);
        ex_check(&e, rc, "ic_hmac_final");
        unchanged_but("ic_hmac_final", rc == IC_OK ? R(tag, hmac_ds) : NONE, NONE);
        if (rc == IC_OK)
            hmac_st = S_NONE;
        else if (!ctxnull && !e.open)
            ctx_unchanged(&hmac_c, &before, sizeof before, "ic_hmac_final");
        break;
    }
    case 3: {
        /* an unkeyed context is IC_ERR_STATE whatever taglen; then a NULL
         * tag, then taglen (refused without consuming the context); a tag
         * of the fuzzer's is wrong except by chance, so IC_OK and
         * IC_ERR_AUTH are both accepted for a well-formed call */
        e.open = hmac_st == S_UNKNOWN;
        ex_fault(&e, ctxnull, IC_ERR_NULL);
        ex_fault(&e, !ctxnull && hmac_st != S_READY, IC_ERR_STATE);
        ex_fault(&e, tn && taglen, IC_ERR_NULL);
        ex_fault(&e, hmac_st == S_READY && (taglen < IC_HMAC_MIN_TAG_SIZE || taglen > hmac_ds),
                 IC_ERR_TAGLEN);
        rc = ic_hmac_final_verify(c, tag, taglen);
        if (e.n == 0)
            FZ_CHECK(rc == IC_ERR_AUTH || rc == IC_OK, "ic_hmac_final_verify: %d", rc);
        else
            ex_check(&e, rc, "ic_hmac_final_verify");
        if (!ctxnull && (rc == IC_OK || rc == IC_ERR_AUTH))
            hmac_st = S_NONE;     /* consumed by a comparison, equal or not */
        unchanged_but("ic_hmac_final_verify", NONE, NONE);
        break;
    }
    default:
        ex_fault(&e, (tn && taglen) || (kn && keylen) || (inn && len), IC_ERR_NULL);
        ex_fault(&e, ds == 0, IC_ERR_PARAM);
        ex_fault(&e, ds && (taglen < IC_HMAC_MIN_TAG_SIZE || taglen > ds), IC_ERR_TAGLEN);
        rc = ic_hmac_verify(alg, tag, taglen, in, len, key, keylen);
        if (e.n == 0)
            FZ_CHECK(rc == IC_ERR_AUTH || rc == IC_OK, "ic_hmac_verify: %d", rc);
        else
            ex_check(&e, rc, "ic_hmac_verify");
        unchanged_but("ic_hmac_verify", NONE, NONE);
        break;
    }
}

static void op_hkdf(void)
{
    int pn, inn, on;
    uint8_t sel = fz_u8(cur);
    ic_hash_alg alg = (ic_hash_alg)(sel % 7);
    size_t ds = ic_hash_digest_size(alg);
    size_t prklen = pick_len(64), infolen = pick_len(MAIN_SIZE), okmlen = pick_len(MAIN_SIZE);
    if (sel & 0x80)
        okmlen = 255 * ds + (size_t)fz_u8(cur);        /* around the limit */
    uint8_t *prk = pick_side(SLOT_KEY, 64, prklen, &pn);
    const uint8_t *info = pick_main(infolen, &inn);
    uint8_t *okm = pick_main(okmlen, &on);
    int ranges = info && okm && infolen && okmlen && info < okm + okmlen && okm < info + infolen;
    expect e = { { 0 }, 0, 0 };
    ex_fault(&e, (pn && prklen) || (inn && infolen) || (on && okmlen), IC_ERR_NULL);
    ex_fault(&e, prklen < ds, IC_ERR_KEYLEN);
    ex_fault(&e, okmlen > 255 * ds, IC_ERR_TOOLONG);
    ex_fault(&e, ranges, IC_ERR_OVERLAP);
    /* a big okm with a small arena: only when refused before writing */
    if (okmlen > MAIN_SIZE - (okm ? (size_t)(okm - mainb) : 0) && e.n == 0)
        return;
    snapshot();
    int rc = ic_hkdf_expand(alg, okm, okmlen, info, infolen, prk, prklen);
    ex_check(&e, rc, "ic_hkdf_expand");
    unchanged_but("ic_hkdf_expand", rc == IC_OK ? R(okm, okmlen) : NONE, NONE);
}

static void op_crc(void)
{
    uint8_t sel = fz_u8(cur);
    uint32_t v = fz_u32(cur);
    size_t len = pick_len(MAIN_SIZE);
    int inn;
    const uint8_t *in = pick_main(len, &inn);
    uint32_t r = sel & 1 ? ic_crc32c(v, in, len) : ic_crc32(v, in, len);
    if (in == NULL)
        FZ_CHECK(r == 0, "crc of a NULL buffer: %08lx, want 0", (unsigned long)r);
}

/* ---- corrupted contexts -------------------------------------------------------
 * A heap overflow in a caller's program may overwrite a context: overwrite
 * a few bytes of one with fuzzer bytes (the comparison tracing of libFuzzer
 * soon learns the check words, so garbage with a valid check word and bad
 * counts or indexes is reached too).  Any status is then acceptable; what
 * must hold is what ASan and the arena checks see: no access outside the
 * context and the caller's buffers, whatever the library is handed. */
static void op_garble(void)
{
    static const struct { void *p; size_t n; int *st; } ctxs[] = {
        { &aes_k, sizeof aes_k, &aes_st },   { &gcm_c, sizeof gcm_c, &gm.st },
        { &cp_c, sizeof cp_c, &cm.st },      { &poly_c, sizeof poly_c, &poly_st },
        { &hmac_c, sizeof hmac_c, &hmac_st }, { &gk, sizeof gk, &gk_st },
    };
    unsigned which = fz_u8(cur) % (sizeof ctxs / sizeof ctxs[0]);
    uint8_t *b = (uint8_t *)ctxs[which].p;
    size_t n = ctxs[which].n, writes = 1 + fz_u8(cur) % 8;
    const ic_chacha20_poly1305_key *cp_key = cp_c.key;
    /* offsets mostly in the fields after the key areas (counts, indexes,
     * check words), where a bad value would do harm */
    const ic_aes_gcm_key *gkey = gcm_c.key;
    for (size_t i = 0; i < writes; i++) {
        size_t off = fz_u8(cur) & 1 ? n - 1 - fz_u8(cur) % (n < 96 ? n : 96) : fz_u16(cur) % n;
        b[off] = fz_u8(cur);
    }
    /* except the message contexts' pointers to their key objects: no
     * library can tell a pointer overwritten by the caller's bug from a
     * real one (the key object must outlive the message) */
    cp_c.key = cp_key;
    gcm_c.key = gkey;
    *ctxs[which].st = S_UNKNOWN;
}

/* ---- the interpreter -------------------------------------------------------- */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    cur = &in;
    if (mainb == NULL) {
        mainb = malloc(MAIN_SIZE);
        side = malloc(SIDE_SIZE);
        snap_main = malloc(MAIN_SIZE);
        snap_side = malloc(SIDE_SIZE);
        if (!mainb || !side || !snap_main || !snap_side)
            abort();
    }
    uint64_t seed = fz_u64(&in);
    fz_expand(mainb, MAIN_SIZE, seed);
    fz_expand(side, SIDE_SIZE, seed ^ 0x5a5a);
    /* every context starts zeroed: "never initialised" */
    memset(&aes_k, 0, sizeof aes_k);
    memset(&gcm_c, 0, sizeof gcm_c);
    memset(&gcm_k, 0, sizeof gcm_k);
    gcm_kst = S_NONE;
    memset(&cp_c, 0, sizeof cp_c);
    memset(&sha_c, 0, sizeof sha_c);
    memset(&hmac_c, 0, sizeof hmac_c);
    memset(&poly_c, 0, sizeof poly_c);
    memset(&gk, 0, sizeof gk);
    memset(&cp_k, 0, sizeof cp_k);
    aes_st = sha_st = hmac_st = poly_st = gk_st = ck_st = S_NONE;
    gm.st = cm.st = S_NONE;

    for (int i = 0; i < MAX_OPS && in.n > 0; i++) {
        switch (fz_u8(&in) % 24) {
        case 0: op_aes_init(); break;
        case 1: case 2: op_aes_crypt(); break;
        case 3: op_aes_wipe(); break;
        case 4: op_gcm_key_stream_init(); break;
        case 5: op_gcm_init(); break;
        case 6: op_gcm_aad(); break;
        case 7: op_gcm_data(0); break;
        case 8: op_gcm_data(1); break;
        case 9: op_gcm_tag(0); break;
        case 10: op_gcm_tag(1); break;
        case 11: op_gcm_wipe(); break;
        case 12: op_gcm_oneshot(); break;
        case 13: op_cp_key_init(); break;
        case 14: op_cp_init(); break;
        case 15: op_cp_aad(); break;
        case 16: op_cp_data(fz_u8(&in) & 1); break;
        case 17: op_cp_tag(fz_u8(&in) & 1); break;
        case 18: op_cp_wipe(); break;
        case 19: op_cp_oneshot(); break;
        case 20: op_chacha_xor(); break;
        case 21: op_poly(); break;
        case 22: op_sha(); break;
        default:
            switch (fz_u8(&in) % 6) {
            case 0: op_hmac(); break;
            case 1: op_hkdf(); break;
            case 2: op_garble(); break;
            case 4: op_gcm_key_init(); break;
            case 5: op_gcm_key_oneshot(); break;
            default: op_crc(); break;
            }
        }
    }
    ic_aes_key_wipe(&aes_k);
    ic_aes_gcm_wipe(&gcm_c);
    ic_hmac_wipe(&hmac_c);   /* in whatever state the program left it, garbled too */
    ic_chacha20_poly1305_wipe(&cp_c);
    ic_chacha20_poly1305_key_wipe(&cp_k);
    ic_poly1305_wipe(&poly_c);
    ic_aes_gcm_key_wipe(&gk);
    return 0;
}
