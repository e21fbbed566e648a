/*
 * test_rsa_key.c - RSA keys from their encodings (incore/rsa.h:
 * ic_rsa_public_key_from_der / _from_pem, ic_rsa_private_key_from_der /
 * _from_pem) against what OpenSSL writes.
 *
 *  - tests/vectors/rsa_keys/ (README.md there: the openssl commands): a
 *    2048- and a 3072-bit key, each as PKCS #8 and PKCS #1 private keys
 *    and SubjectPublicKeyInfo and PKCS #1 public keys, PEM and DER.  Every
 *    form must load, the private forms to the same key and the public
 *    forms to its public half; the PKCS #1 v1.5 signature of the digest
 *    of msg.txt must equal OpenSSL's byte for byte (pkeyutl -sign), and
 *    OpenSSL's PSS signature and ours must verify with every public form;
 *  - refusals, each with its status and the key left wiped, never a
 *    crash: every truncation of every file; a change of every byte of
 *    the DER (the structure's bytes and the first two of each number to
 *    every single-bit flip, 00 and FF; the rest of a number, where every
 *    change only changes its value, by one flip): a change a private key
 *    survives must be in d, which init checks only for range, and give
 *    the same key; a public key that survives one (in n or e) is
 *    another key, under which OpenSSL's signature fails; DER rewritten
 *    by a small encoder here with one rule broken at every element in
 *    turn (lengths not in the fewest bytes, indefinite lengths, INTEGERs
 *    with a padding byte or without their sign byte, an element added or
 *    left out, a byte after the end); a version or an algorithm changed;
 *    PKCS #8 attributes; PEM with bad base64, padding, labels, framing
 *    (and the layouts that must load: CRLF, other line lengths,
 *    whitespace around); encrypted and three-prime keys written by
 *    OpenSSL;
 *  - when an openssl command is on PATH (and the test runs natively): a
 *    fresh 2048-bit and 2056-bit key (n of 257 bytes, primes of 1028
 *    bits) written in every form, loaded, and a signature compared with
 *    OpenSSL's.  Without openssl that part is reported as not run, and
 *    the committed files carry the test.
 * Too few cases is a failure, never a skip.  Under QEMU or ASan
 * (IC_TEST_EMULATED_LIGHT, __SANITIZE_ADDRESS__) the single-byte changes
 * visit every 5th byte of the private keys' numbers.
 */
/* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include "testlib.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(IC_TEST_EMULATED_LIGHT) || defined(__SANITIZE_ADDRESS__)
#define PRIV_STRIDE 5
#else
#define PRIV_STRIDE 1
#endif

static long cases;

/* ---- files ------------------------------------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t n;
} blob;

static blob load_path(const char *path)
{
    blob b = { NULL, 0 };
    FILE *f = fopen(path, "rb");
    if (!CHECK(f != NULL, "%s: cannot open", path))
        return b;
    size_t cap = 1024;
    b.p = tl_xmalloc(cap);
    for (size_t got; (got = fread(b.p + b.n, 1, cap - b.n, f)) > 0;) {
        b.n += got;
        if (b.n == cap)
            b.p = realloc(b.p, cap *= 2);
        if (b.p == NULL)
            exit(2);
    }
    fclose(f);
    return b;
}

static blob load(const char *name)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/rsa_keys/%s", tl_data_dir(), name);
    return load_path(path);
}

static blob copy_of(const uint8_t *p, size_t n)
{
    blob b = { tl_xmalloc(n + 1), n };
    if (n)
        memcpy(b.p, p, n);
    return b;
}

/* ---- one call on a file --------------------------------------------------------- */

typedef enum { PUB_DER, PUB_PEM, PRIV_DER, PRIV_PEM } kind;

static ic_rsa_public_key pubk;
static ic_rsa_private_key privk;

static int is_priv(kind k) { return k == PRIV_DER || k == PRIV_PEM; }

/* The call of kind k on p (n bytes) into pubk or privk; a refusal must
 * leave the key all zero (it was filled with 0xa5). */
static int load_key(kind k, const uint8_t *p, size_t n)
{
    int st;
    void *key = is_priv(k) ? (void *)&privk : (void *)&pubk;
    size_t size = is_priv(k) ? sizeof privk : sizeof pubk;
    memset(key, 0xa5, size);
    switch (k) {
    case PUB_DER: st = ic_rsa_public_key_from_der(&pubk, p, n); break;
    case PUB_PEM: st = ic_rsa_public_key_from_pem(&pubk, p, n); break;
    case PRIV_DER: st = ic_rsa_private_key_from_der(&privk, p, n); break;
    default: st = ic_rsa_private_key_from_pem(&privk, p, n); break;
    }
    if (st != IC_OK && !tl_all_byte(key, size, 0))
        CHECK(0, "status %d: the refused key was not wiped", st);
    cases++;
    return st;
}

static kind kind_of(const char *name)
{
    int pem = strstr(name, ".pem") != NULL, pub = strstr(name, "_pub") != NULL;
    return pub ? (pem ? PUB_PEM : PUB_DER) : (pem ? PRIV_PEM : PRIV_DER);
}

/* A status a refused key may have: the decoder's or init's. */
static int refusal(int st)
{
    return st == IC_ERR_DECODE || st == IC_ERR_PARAM || st == IC_ERR_MODULUS || st == IC_ERR_EVEN ||
           st == IC_ERR_RANGE || st == IC_ERR_EXPONENT || st == IC_ERR_SIZE || st == IC_ERR_TOOLONG;
}

/* ---- every form is the same key, and signs as OpenSSL does ------------------------ */

typedef struct {
    unsigned bits;
    ic_hash_alg hash;
    const char *sig, *pss;        /* OpenSSL's v1.5 and PSS signatures of msg.txt */
    size_t salt;
} keyset;

static const char *const priv_forms[] = { "", "_pkcs1" };
static const char *const pub_forms[] = { "_pub", "_pub_pkcs1" };

/* All four private forms load to one key, kept in *want. */
static int load_private_forms(unsigned bits, ic_rsa_private_key *want)
{
    int ok = 1, first = 1;
    for (int f = 0; f < 2; f++)
        for (int pem = 0; pem < 2; pem++) {
            char name[64];
            snprintf(name, sizeof name, "rsa%u%s.%s", bits, priv_forms[f], pem ? "pem" : "der");
            blob b = load(name);
            int st = load_key(pem ? PRIV_PEM : PRIV_DER, b.p, b.n);
            ok &= CHECK(st == IC_OK && ic_rsa_private_key_size(&privk) == (bits + 7) / 8, "%s: status %d", name, st);
            if (first)
                *want = privk;
            else
                ok &= CHECK(memcmp(&privk, want, sizeof privk) == 0, "%s: another key than rsa%u.der", name, bits);
            first = 0;
            free(b.p);
        }
    return ok;
}

/* OpenSSL's signatures verify, and ours, under pub; *good counts. */
static void verify_all(const keyset *ks, const ic_rsa_public_key *pub, const char *name, const blob *msg,
                       const blob *sig, const blob *pss, const uint8_t *ours, const uint8_t *dg)
{
    size_t k = ks->bits / 8, hlen = ic_hash_digest_size(ks->hash);
    CHECK(ic_rsa_verify_pkcs1v15(pub, ks->hash, sig->p, sig->n, msg->p, msg->n) == IC_OK &&
          ic_rsa_verify_pkcs1v15_digest(pub, ks->hash, sig->p, sig->n, dg, hlen) == IC_OK,
          "%s: OpenSSL's PKCS #1 v1.5 signature", name);
    CHECK(ic_rsa_verify_pss(pub, ks->hash, ks->hash, ks->salt, pss->p, pss->n, msg->p, msg->n) == IC_OK &&
          ic_rsa_verify_pss_digest(pub, ks->hash, ks->hash, ks->salt, pss->p, pss->n, dg, hlen) == IC_OK,
          "%s: OpenSSL's PSS signature", name);
    CHECK(ic_rsa_verify_pss(pub, ks->hash, ks->hash, ks->salt, ours, k, msg->p, msg->n) == IC_OK,
          "%s: our PSS signature", name);
}

static void same_key(const keyset *ks)
{
    static ic_rsa_private_key key;
    if (!load_private_forms(ks->bits, &key))
        return;
    blob msg = load("msg.txt"), sig = load(ks->sig), pss = load(ks->pss);
    size_t k = ks->bits / 8, hlen = ic_hash_digest_size(ks->hash);
    uint8_t dg[IC_HASH_MAX_DIGEST_SIZE], out[IC_RSA_MAX_BYTES], ours[IC_RSA_MAX_BYTES];
    CHECK(ic_hash(ks->hash, dg, sizeof dg, msg.p, msg.n) == IC_OK, "hash of msg.txt");
    CHECK(sig.n == k && ic_rsa_sign_pkcs1v15_digest(&key, ks->hash, out, k, dg, hlen) == IC_OK,
          "rsa%u: sign the digest", ks->bits);
    CHECK_MEM(out, sig.p, k, "rsa%u: PKCS #1 v1.5 signature of the digest = openssl pkeyutl -sign", ks->bits);
    CHECK(ic_rsa_sign_pkcs1v15(&key, ks->hash, out, k, msg.p, msg.n) == IC_OK, "rsa%u: sign", ks->bits);
    CHECK_MEM(out, sig.p, k, "rsa%u: PKCS #1 v1.5 signature of msg.txt = openssl dgst -sign", ks->bits);
    CHECK(ic_rsa_sign_pss_digest(&key, ks->hash, ks->hash, ks->salt, ours, k, dg, hlen) == IC_OK,
          "rsa%u: PSS sign", ks->bits);
    verify_all(ks, &key.pub, "the private key's public half", &msg, &sig, &pss, ours, dg);
    for (int f = 0; f < 2; f++)
        for (int pem = 0; pem < 2; pem++) {
            char name[64];
            snprintf(name, sizeof name, "rsa%u%s.%s", ks->bits, pub_forms[f], pem ? "pem" : "der");
            blob b = load(name);
            int st = load_key(pem ? PUB_PEM : PUB_DER, b.p, b.n);
            if (CHECK(st == IC_OK, "%s: status %d", name, st)) {
                CHECK(memcmp(&pubk, &key.pub, sizeof pubk) == 0, "%s: not the private key's public half", name);
                verify_all(ks, &pubk, name, &msg, &sig, &pss, ours, dg);
            }
            free(b.p);
        }
    printf("rsa%u: 4 private and 4 public forms are one key; signature = OpenSSL's\n", ks->bits);
    ic_rsa_private_key_wipe(&key);
    free(msg.p), free(sig.p), free(pss.p);
}

/* ---- truncations ---------------------------------------------------------------------- */

/* Every prefix of the file: a DER prefix is never whole (IC_ERR_DECODE);
 * a PEM prefix loads only when all it lost is the whitespace after END. */
static void truncations(const char *name)
{
    blob b = load(name);
    kind k = kind_of(name);
    size_t whole = b.n;
    while (whole > 0 && (b.p[whole - 1] == '\n' || b.p[whole - 1] == '\r' || b.p[whole - 1] == ' '))
        whole--;
    long bad = 0;
    for (size_t n = 0; n < b.n; n++) {
        blob t = copy_of(b.p, n);          /* its own allocation: a read past n is ASan's */
        int st = load_key(k, t.p, n);
        int want_ok = (k == PUB_PEM || k == PRIV_PEM) && n >= whole;
        if (want_ok ? st != IC_OK : (k == PUB_DER || k == PRIV_DER) ? st != IC_ERR_DECODE : !refusal(st))
            bad += CHECK(0, "%s cut to %zu bytes: status %d", name, n, st) == 0;
        free(t.p);
    }
    CHECK(bad == 0, "%s: %ld truncations with a wrong status", name, bad);
    free(b.p);
}

/* ---- single-byte changes ------------------------------------------------------------- */

/* The values a byte b at position i is changed to: every single-bit
 * flip, and 00 and FF. */
static int byte_variants(uint8_t b, uint8_t v[10])
{
    int n = 0;
    for (int bit = 0; bit < 8; bit++)
        v[n++] = (uint8_t)(b ^ (1u << bit));
    if (b != 0x00 && (b & (b - 1)) != 0)
        v[n++] = 0x00;
    uint8_t nb = (uint8_t)~b;
    if (nb != 0 && (nb & (nb - 1)) != 0)
        v[n++] = 0xff;
    return n;
}

typedef struct {
    long accepted, refused;
} change_stats;

/* One changed private DER: refused with a status and wiped, or (only a
 * byte of d changed) the same key as before, which still signs. */
static void private_change(const char *name, size_t i, const uint8_t *d, size_t n, const ic_rsa_private_key *want,
                           change_stats *cs)
{
    int st = load_key(PRIV_DER, d, n);
    if (st != IC_OK) {
        cs->refused++;
        if (!refusal(st))
            CHECK(0, "%s byte %zu changed: status %d", name, i, st);
        return;
    }
    cs->accepted++;
    if (memcmp(&privk, want, sizeof privk) != 0)
        CHECK(0, "%s byte %zu changed: loaded a key that is not the original", name, i);
}

/* One changed public DER: refused, or another key (n or e changed), under
 * which OpenSSL's signature of msg.txt does not verify. */
static void public_change(const char *name, size_t i, const uint8_t *d, size_t n, const ic_rsa_public_key *want,
                          const blob *msg, const blob *sig, ic_hash_alg h, change_stats *cs)
{
    int st = load_key(PUB_DER, d, n);
    if (st != IC_OK) {
        cs->refused++;
        if (!refusal(st))
            CHECK(0, "%s byte %zu changed: status %d", name, i, st);
        return;
    }
    cs->accepted++;
    if (memcmp(&pubk, want, sizeof pubk) == 0 ||
        ic_rsa_verify_pkcs1v15(&pubk, h, sig->p, sig->n, msg->p, msg->n) != IC_ERR_AUTH)
        CHECK(0, "%s byte %zu changed: the same key, or one OpenSSL's signature verifies under", name, i);
}

static void content_map(const blob *b, uint8_t *in_number);

/* Every position of the DER changed: the structure's bytes and the first
 * two of each number to every value of byte_variants, the rest of a
 * number (whose bytes all do the same: change its value) by one bit
 * flip, at every PRIV_STRIDE-th position for a private key. */
static void byte_changes(const char *name, const char *signame, ic_hash_alg h)
{
    static ic_rsa_private_key want_priv;
    static ic_rsa_public_key want_pub;
    blob b = load(name), msg = load("msg.txt"), sig = load(signame);
    kind k = kind_of(name);
    change_stats cs = { 0, 0 };
    uint8_t *in_number = tl_xmalloc(b.n);
    content_map(&b, in_number);
    if (!CHECK(load_key(k, b.p, b.n) == IC_OK, "%s: the original does not load", name))
        return;
    want_priv = privk, want_pub = pubk;
    size_t stride = k == PRIV_DER ? PRIV_STRIDE : 1;
    for (size_t i = 0; i < b.n; i++) {
        if (in_number[i] && i % stride != 0)
            continue;
        uint8_t v[10], orig = b.p[i];
        int nv = in_number[i] ? 1 : byte_variants(orig, v);
        if (in_number[i])
            v[0] = (uint8_t)(orig ^ (1u << (i % 8)));
        for (int j = 0; j < nv; j++) {
            b.p[i] = v[j];
            if (k == PRIV_DER)
                private_change(name, i, b.p, b.n, &want_priv, &cs);
            else
                public_change(name, i, b.p, b.n, &want_pub, &msg, &sig, h, &cs);
        }
        b.p[i] = orig;
    }
    printf("%s: %ld single-byte changes refused, %ld loaded (%s)\n", name, cs.refused, cs.accepted,
           k == PRIV_DER ? "d only: the same key" : "n or e: another key");
    CHECK(cs.refused > (k == PRIV_DER ? (long)b.n / (long)stride : 50), "%s: too few changes refused", name);
    CHECK(cs.accepted > 0, "%s: no change loaded (one in %s)", name, k == PRIV_DER ? "d" : "n");
    free(b.p), free(msg.p), free(sig.p), free(in_number);
}

/* ---- DER rewritten with one rule broken ------------------------------------------------
 * The file is parsed into its elements (the OCTET STRING of PKCS #8 and
 * the BIT STRING of SubjectPublicKeyInfo as containers of the DER they
 * hold) and written back, exactly the same but for one element. */

#define MAX_NODES 64

typedef struct {
    uint8_t tag;
    const uint8_t *content;
    size_t len;
    int kids[12], nkids, container;
} node;

typedef struct {
    node n[MAX_NODES];
    int count;
} der_tree;

/* Elements of p..p+len into t, children of parent (-1: the top). */
static int parse_into(der_tree *t, const uint8_t *p, size_t len, int parent)
{
    while (len > 0) {
        if (len < 2 || t->count == MAX_NODES)
            return 0;
        node *e = &t->n[t->count];
        size_t hl = 2, l = p[1];
        if (l & 0x80) {
            hl += l & 0x7f;
            if (len < hl)
                return 0;
            l = 0;
            for (size_t i = 2; i < hl; i++)
                l = l << 8 | p[i];
        }
        if (len - hl < l)
            return 0;
        int me = t->count++;
        e->tag = p[0], e->content = p + hl, e->len = l, e->nkids = 0;
        e->container = e->tag == 0x30 || e->tag == 0xa0 || e->tag == 0x04 || e->tag == 0x03;
        if (parent >= 0)
            t->n[parent].kids[t->n[parent].nkids++] = me;
        if (e->container) {
            size_t skip = e->tag == 0x03;    /* the unused-bits byte */
            if (!parse_into(t, e->content + skip, l - skip, me))
                return 0;
        }
        p += hl + l, len -= hl + l;
    }
    return 1;
}

typedef enum {
    BR_NONE, BR_LONG_LEN,      /* the length in one byte more than it needs */
    BR_INDEFINITE,             /* 0x80 and an end-of-contents 00 00 */
    BR_INT_PAD,                /* an INTEGER with a 00 in front */
    BR_INT_UNSIGNED,           /* an INTEGER without its sign byte 00: negative */
    BR_APPEND_NULL,            /* a NULL element after the last one inside */
    BR_DROP_LAST,              /* the last element inside left out */
    BR_COUNT
} breakage;

typedef struct {
    uint8_t *p;
    size_t n, cap;
} out_buf;

static void put(out_buf *o, const void *p, size_t n)
{
    if (o->n + n > o->cap) {
        o->cap = (o->n + n) * 2;
        o->p = realloc(o->p, o->cap);
        if (o->p == NULL)
            exit(2);
    }
    if (n)
        memcpy(o->p + o->n, p, n);
    o->n += n;
}

static void put_len(out_buf *o, size_t len, int longer)
{
    uint8_t b[6];
    size_t nb = len < 0x80 ? 0 : len < 0x100 ? 1 : len < 0x10000 ? 2 : 3;
    if (longer)
        nb++;
    if (nb == 0) {
        b[0] = (uint8_t)len;
        put(o, b, 1);
        return;
    }
    b[0] = (uint8_t)(0x80 | nb);
    for (size_t i = 0; i < nb; i++)
        b[1 + i] = (uint8_t)(nb - 1 - i < sizeof(size_t) ? len >> (8 * (nb - 1 - i)) : 0);
    put(o, b, 1 + nb);
}

/* Element i of t into o, broken as br if it is element target. */
static void emit(const der_tree *t, int i, int target, breakage br, out_buf *o)
{
    const node *e = &t->n[i];
    out_buf c = { NULL, 0, 0 };
    breakage mine = i == target ? br : BR_NONE;
    if (e->container) {
        if (e->tag == 0x03)
            put(&c, e->content, 1);
        for (int k = 0; k < e->nkids - (mine == BR_DROP_LAST); k++)
            emit(t, e->kids[k], target, br, &c);
    } else if (mine == BR_INT_PAD) {
        put(&c, "\0", 1);
        put(&c, e->content, e->len);
    } else if (mine == BR_INT_UNSIGNED) {
        put(&c, e->content + 1, e->len - 1);
    } else {
        put(&c, e->content, e->len);
    }
    if (mine == BR_APPEND_NULL)
        put(&c, "\x05\x00", 2);
    put(o, &e->tag, 1);
    if (mine == BR_INDEFINITE) {
        put(o, "\x80", 1);
        put(&c, "\0\0", 2);
    } else {
        put_len(o, c.n, mine == BR_LONG_LEN);
    }
    put(o, c.p, c.n);
    free(c.p);
}

/* Whether element e can be broken as br at all. */
static int breakable(const node *e, breakage br)
{
    switch (br) {
    case BR_INDEFINITE: return e->container;
    case BR_INT_PAD: return e->tag == 0x02 && e->len > 0 && e->content[0] < 0x80;
    case BR_INT_UNSIGNED: return e->tag == 0x02 && e->len > 1 && e->content[0] == 0;
    case BR_APPEND_NULL: return e->container;
    case BR_DROP_LAST: return e->container && e->nkids > 0;
    default: return 1;
    }
}

/* The file written back whole (the writer is right), then every element
 * with every rule broken: IC_ERR_DECODE each time. */
static void rewrites(const char *name)
{
    static der_tree t;
    blob b = load(name);
    kind k = kind_of(name);
    memset(&t, 0, sizeof t);
    if (!CHECK(parse_into(&t, b.p, b.n, -1) && t.count >= 3, "%s: the test's DER parser failed", name))
        return;
    out_buf o = { NULL, 0, 0 };
    emit(&t, 0, -1, BR_NONE, &o);
    CHECK(o.n == b.n && memcmp(o.p, b.p, b.n) == 0, "%s: written back differently", name);
    long n = 0;
    for (int br = BR_LONG_LEN; br < BR_COUNT; br++)
        for (int i = 0; i < t.count; i++) {
            if (!breakable(&t.n[i], (breakage)br))
                continue;
            o.n = 0;
            emit(&t, 0, i, (breakage)br, &o);
            int st = load_key(k, o.p, o.n);
            CHECK(st == IC_ERR_DECODE, "%s: element %d (tag %02x) broken by rule %d: status %d", name, i,
                  t.n[i].tag, br, st);
            n++;
        }
    /* and a byte after the end */
    o.n = 0;
    emit(&t, 0, -1, BR_NONE, &o);
    put(&o, "\0", 1);
    CHECK(load_key(k, o.p, o.n) == IC_ERR_DECODE, "%s: a byte after the end", name);
    printf("%s: %ld rewrites with one DER rule broken, all IC_ERR_DECODE\n", name, n + 1);
    CHECK(n >= 2L * t.count, "%s: only %ld rewrites", name, n);
    free(o.p), free(b.p);
}

/* in_number[i] = 1 for the bytes of a number's contents after its first
 * two (where a change only changes the value). */
static void content_map(const blob *b, uint8_t *in_number)
{
    static der_tree t;
    memset(&t, 0, sizeof t);
    memset(in_number, 0, b->n);
    if (!CHECK(parse_into(&t, b->p, b->n, -1), "the test's DER parser failed"))
        return;
    for (int i = 0; i < t.count; i++)
        if (t.n[i].tag == 0x02 && t.n[i].len > 2)
            memset(in_number + (t.n[i].content - b->p) + 2, 1, t.n[i].len - 2);
}

/* The outer SEQUENCE of der with extra appended inside it. */
static out_buf append_inside(const blob *der, const void *extra, size_t n)
{
    static der_tree t;
    out_buf c = { NULL, 0, 0 }, o = { NULL, 0, 0 };
    memset(&t, 0, sizeof t);
    CHECK(parse_into(&t, der->p, der->n, -1), "the test's DER parser failed");
    for (int k = 0; k < t.n[0].nkids; k++)
        emit(&t, t.n[0].kids[k], -1, BR_NONE, &c);
    put(&c, extra, n);
    put(&o, "\x30", 1);
    put_len(&o, c.n, 0);
    put(&o, c.p, c.n);
    free(c.p);
    return o;
}

/* PKCS #8's optional [0] attributes are skipped; anything else after the
 * key, or a second [0], is not. */
static void attributes(void)
{
    blob b = load("rsa2048.der");
    static const struct { const char *what; const char *bytes; size_t n; int want; } rows[] = {
        { "empty [0]", "\xa0\x00", 2, IC_OK },
        { "[0] with an attribute", "\xa0\x0d\x30\x0b\x06\x03\x55\x04\x03\x31\x04\x0c\x02\x69\x63", 15, IC_OK },
        { "[0] twice", "\xa0\x00\xa0\x00", 4, IC_ERR_DECODE },
        { "[1] (a v2 public key) in a version 0 key", "\x81\x00", 2, IC_ERR_DECODE },
        { "[0] primitive", "\x80\x00", 2, IC_ERR_DECODE },
        { "[0] with a length past the end", "\xa0\x05\x30\x00", 4, IC_ERR_DECODE },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        out_buf o = append_inside(&b, rows[i].bytes, rows[i].n);
        int st = load_key(PRIV_DER, o.p, o.n);
        CHECK(st == rows[i].want, "PKCS #8 with %s: status %d, want %d", rows[i].what, st, rows[i].want);
        free(o.p);
    }
    free(b.p);
}

/* ---- versions and algorithms ------------------------------------------------------------ */

/* The file with the bytes pat (at their first place) replaced by rep. */
static void patched(const char *name, const char *what, const char *pat, const char *rep, size_t n, int want)
{
    blob b = load(name);
    uint8_t *at = NULL;
    for (size_t i = 0; i + n <= b.n && at == NULL; i++)
        if (memcmp(b.p + i, pat, n) == 0)
            at = b.p + i;
    if (CHECK(at != NULL, "%s: no place for %s", name, what)) {
        memcpy(at, rep, n);
        int st = load_key(kind_of(name), b.p, b.n);
        CHECK(st == want, "%s with %s: status %d, want %d", name, what, st, want);
    }
    free(b.p);
}

#define RSA_OID "\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01"

static void versions_and_algorithms(void)
{
    /* RSAPrivateKey's version (the first INTEGER after the SEQUENCE's header) */
    patched("rsa2048_pkcs1.der", "version 1 (multi-prime)", "\x02\x01\x00\x02", "\x02\x01\x01\x02", 4, IC_ERR_PARAM);
    patched("rsa2048_pkcs1.der", "version 2", "\x02\x01\x00\x02", "\x02\x01\x02\x02", 4, IC_ERR_DECODE);
    patched("rsa2048_pkcs1.der", "version -1", "\x02\x01\x00\x02", "\x02\x01\xff\x02", 4, IC_ERR_DECODE);
    /* PrivateKeyInfo's version, then the one inside */
    patched("rsa2048.der", "PKCS #8 version 1", "\x02\x01\x00\x30", "\x02\x01\x01\x30", 4, IC_ERR_PARAM);
    patched("rsa2048.der", "PKCS #8 version 2", "\x02\x01\x00\x30", "\x02\x01\x02\x30", 4, IC_ERR_DECODE);
    patched("rsa2048.der", "inner version 1", "\x02\x01\x00\x02", "\x02\x01\x01\x02", 4, IC_ERR_PARAM);
    /* the algorithm */
    for (int f = 0; f < 2; f++) {
        const char *name = f ? "rsa2048_pub.der" : "rsa2048.der";
        patched(name, "RSASSA-PSS's OID", RSA_OID "\x01", RSA_OID "\x0a", 11, IC_ERR_PARAM);
        patched(name, "another arc", RSA_OID "\x01", "\x06\x09\x2b\x86\x48\x86\xf7\x0d\x01\x01\x01", 11,
                IC_ERR_PARAM);
        patched(name, "an OID with a padding byte", RSA_OID "\x01", "\x06\x09\x2a\x80\x48\x86\xf7\x0d\x01\x01\x01",
                11, IC_ERR_DECODE);
        patched(name, "an OID ending mid-arc", RSA_OID "\x01", RSA_OID "\x81", 11, IC_ERR_DECODE);
        patched(name, "parameters that are not NULL", RSA_OID "\x01\x05\x00", RSA_OID "\x01\x04\x00", 13,
                IC_ERR_DECODE);
    }
    patched("rsa2048_pub.der", "a BIT STRING with unused bits", "\x03\x82\x01\x0f\x00", "\x03\x82\x01\x0f\x01", 5,
            IC_ERR_DECODE);
}

/* ---- PEM ------------------------------------------------------------------------------------ */

/* A PEM file in three parts: the BEGIN line (with its LF), the base64
 * lines (each with its LF), the END line (with its LF). */
typedef struct {
    blob all;
    size_t body, end;     /* offsets of the base64 and of the END line */
} pem_file;

static pem_file pem_load(const char *name)
{
    pem_file f = { load(name), 0, 0 };
    const uint8_t *nl = memchr(f.all.p, '\n', f.all.n);
    f.body = nl ? (size_t)(nl - f.all.p) + 1 : 0;
    for (size_t i = f.body; i + 9 <= f.all.n && f.end == 0; i++)
        if (memcmp(f.all.p + i, "-----END ", 9) == 0)
            f.end = i;
    CHECK(f.body > 0 && f.end > f.body, "%s: not a PEM file", name);
    return f;
}

/* text = the concatenation of the pieces (NULL-terminated list of
 * pointer, length pairs) and its status. */
static int load_pieces(kind k, ...)
{
    out_buf o = { NULL, 0, 0 };
    va_list ap;
    va_start(ap, k);
    for (const void *p; (p = va_arg(ap, const void *)) != NULL;)
        put(&o, p, va_arg(ap, size_t));
    va_end(ap);
    put(&o, "", 0);
    int st = load_key(k, o.p, o.n);
    free(o.p);
    return st;
}

/* The base64 lines joined (no line breaks) into *o. */
static void body_joined(const pem_file *f, out_buf *o)
{
    for (size_t i = f->body; i < f->end; i++)
        if (f->all.p[i] != '\n')
            put(o, f->all.p + i, 1);
}

static int b64_value(uint8_t c)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = c ? strchr(a, c) : NULL;
    return p ? (int)(p - a) : -1;
}

static void pem_layouts(const char *name, const pem_file *f, kind k)
{
    const uint8_t *a = f->all.p;
    size_t bl = f->body, el = f->all.n - f->end;
    out_buf j = { NULL, 0, 0 }, w = { NULL, 0, 0 }, crlf = { NULL, 0, 0 };
    body_joined(f, &j);
    for (size_t i = 0; i < j.n; i += 76) {               /* lines of 76 */
        put(&w, j.p + i, j.n - i < 76 ? j.n - i : 76);
        put(&w, "\n", 1);
    }
    for (size_t i = 0; i < f->all.n; i++) {              /* CRLF everywhere */
        if (a[i] == '\n')
            put(&crlf, "\r", 1);
        put(&crlf, a + i, 1);
    }
    struct { const char *what; int st; } r[] = {
        { "as written", load_pieces(k, a, f->all.n, NULL) },
        { "CRLF line ends", load_pieces(k, crlf.p, crlf.n, NULL) },
        { "lines of 76", load_pieces(k, a, bl, w.p, w.n, a + f->end, el, NULL) },
        { "one line", load_pieces(k, a, bl, j.p, j.n, "\n", (size_t)1, a + f->end, el, NULL) },
        { "a blank line inside", load_pieces(k, a, bl, "\n", (size_t)1, a + bl, f->all.n - bl, NULL) },
        { "whitespace around", load_pieces(k, "\n \t\r\n", (size_t)5, a, f->all.n, " \r\n\n\t", (size_t)5, NULL) },
        { "no final line break", load_pieces(k, a, f->all.n - 1, NULL) },
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        CHECK(r[i].st == IC_OK, "%s %s: status %d", name, r[i].what, r[i].st);
    free(j.p), free(w.p), free(crlf.p);
}

/* The base64 broken one way at a time: IC_ERR_DECODE.  Returns 1 when
 * the file had padding to break. */
static int pem_bad_base64(const char *name, const pem_file *f, kind k)
{
    const uint8_t *a = f->all.p;
    size_t bl = f->body, el = f->all.n - f->end, mid = bl + (f->end - bl) / 2;
    static const uint8_t junk[] = { '*', ' ', '\t', '-', '.', ':', 0x00, 0x80, 0xff, '=' };
    for (size_t i = 0; i < sizeof junk; i++) {
        int st = load_pieces(k, a, mid, junk + i, (size_t)1, a + mid + 1, f->all.n - mid - 1, NULL);
        CHECK(st == IC_ERR_DECODE, "%s: byte %02x in the base64: status %d", name, junk[i], st);
    }
    /* the end of the base64: its padding and last character */
    out_buf j = { NULL, 0, 0 };
    body_joined(f, &j);
    size_t pad = (j.n > 0 && j.p[j.n - 1] == '=') + (j.n > 1 && j.p[j.n - 2] == '=');
    size_t last = j.n - pad - 1;
    int st = load_pieces(k, a, bl, j.p, j.n - 1, "\n", (size_t)1, a + f->end, el, NULL);
    CHECK(st == IC_ERR_DECODE, "%s: one character short: status %d", name, st);
    st = load_pieces(k, a, bl, j.p, j.n, "====\n", (size_t)5, a + f->end, el, NULL);
    CHECK(st == IC_ERR_DECODE, "%s: padding after a whole group: status %d", name, st);
    if (pad > 0) {
        st = load_pieces(k, a, bl, j.p, j.n - pad, "\n", (size_t)1, a + f->end, el, NULL);
        CHECK(st == IC_ERR_DECODE, "%s: the padding left out: status %d", name, st);
        uint8_t c = (uint8_t)"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[b64_value(j.p[last]) | 1];
        st = load_pieces(k, a, bl, j.p, last, &c, (size_t)1, j.p + last + 1, pad, "\n", (size_t)1, a + f->end, el, NULL);
        CHECK(st == IC_ERR_DECODE, "%s: the last character's unused bits set: status %d", name, st);
    }
    free(j.p);
    return pad > 0;
}

/* The framing broken one way at a time. */
static void pem_bad_framing(const char *name, const pem_file *f, kind k, const char *label)
{
    const uint8_t *a = f->all.p;
    size_t bl = f->body, el = f->all.n - f->end, ll = strlen(label);
    char begin[64], end[64], other[64];
    snprintf(begin, sizeof begin, "-----BEGIN %s-----\n", label);
    snprintf(end, sizeof end, "-----END %s-----\n", label);
    const char *swap = !strcmp(label, "PRIVATE KEY") ? "RSA PRIVATE KEY" : !strcmp(label, "PUBLIC KEY")
                       ? "RSA PUBLIC KEY" : label + 4;   /* the other form's label */
    snprintf(other, sizeof other, "-----BEGIN %s-----\n", swap);
    char other_end[64];
    snprintf(other_end, sizeof other_end, "-----END %s-----\n", swap);
    struct { const char *what; int st, want; } r[] = {
        { "text before BEGIN", load_pieces(k, "x\n", (size_t)2, a, f->all.n, NULL), IC_ERR_DECODE },
        { "text after END", load_pieces(k, a, f->all.n, "x", (size_t)1, NULL), IC_ERR_DECODE },
        { "END's label changed", load_pieces(k, a, f->end + 9, "X", (size_t)1, a + f->end + 10, el - 10, NULL),
          IC_ERR_DECODE },
        { "BEGIN's label changed", load_pieces(k, a, 11, "X", (size_t)1, a + 12, f->all.n - 12, NULL), IC_ERR_DECODE },
        { "the other form's labels", load_pieces(k, other, strlen(other), a + bl, f->end - bl, other_end,
                                                 strlen(other_end), NULL), IC_ERR_DECODE },
        { "CERTIFICATE", load_pieces(k, "-----BEGIN CERTIFICATE-----\n", (size_t)28, a + bl, f->end - bl,
                                     "-----END CERTIFICATE-----\n", (size_t)26, NULL), IC_ERR_PARAM },
        { "a lowercase label", load_pieces(k, "-----BEGIN x-----\n", (size_t)18, a + bl, f->end - bl,
                                           "-----END x-----\n", (size_t)16, NULL), IC_ERR_PARAM },
        { "two spaces", load_pieces(k, "-----BEGIN  ", (size_t)12, label, ll, "-----\n", (size_t)6, a + bl,
                                    f->end - bl, "-----END  ", (size_t)10, label, ll, "-----\n", (size_t)6, NULL),
          IC_ERR_DECODE },
        { "four dashes", load_pieces(k, a + 1, f->all.n - 1, NULL), IC_ERR_DECODE },
        { "no line break after BEGIN", load_pieces(k, a, bl - 1, a + bl, f->all.n - bl, NULL), IC_ERR_DECODE },
        { "END not at a line start", load_pieces(k, a, f->end - 1, a + f->end, el, NULL), IC_ERR_DECODE },
        { "no END", load_pieces(k, a, f->end, NULL), IC_ERR_DECODE },
        { "no BEGIN", load_pieces(k, a + bl, f->all.n - bl, NULL), IC_ERR_DECODE },
        { "END twice", load_pieces(k, a, f->all.n, a + f->end, el, NULL), IC_ERR_DECODE },
        { "nothing between", load_pieces(k, begin, strlen(begin), end, strlen(end), NULL), IC_ERR_DECODE },
        { "a header line", load_pieces(k, a, bl, "Comment: x\n\n", (size_t)12, a + bl, f->all.n - bl, NULL),
          IC_ERR_DECODE },
        { "a space at a line end", load_pieces(k, a, bl + 64, " ", (size_t)1, a + bl + 64, f->all.n - bl - 64, NULL),
          IC_ERR_DECODE },
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        CHECK(r[i].st == r[i].want, "%s %s: status %d, want %d", name, r[i].what, r[i].st, r[i].want);
}

static void pem_tests(void)
{
    static const struct { const char *name, *label; } files[] = {
        { "rsa2048.pem", "PRIVATE KEY" }, { "rsa2048_pkcs1.pem", "RSA PRIVATE KEY" },
        { "rsa2048_pub.pem", "PUBLIC KEY" }, { "rsa2048_pub_pkcs1.pem", "RSA PUBLIC KEY" },
        { "rsa3072.pem", "PRIVATE KEY" }, { "rsa3072_pub_pkcs1.pem", "RSA PUBLIC KEY" },
    };
    int padded = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        pem_file f = pem_load(files[i].name);
        kind k = kind_of(files[i].name);
        if (f.end > f.body) {
            pem_layouts(files[i].name, &f, k);
            padded += pem_bad_base64(files[i].name, &f, k);
            pem_bad_framing(files[i].name, &f, k, files[i].label);
        }
        free(f.all.p);
    }
    CHECK(padded >= 4, "only %d PEM files with padding to break", padded);
    /* what OpenSSL writes that is not loaded */
    static const struct { const char *name; kind k; const char *what; } refused[] = {
        { "rsa2048_encrypted.pem", PRIV_PEM, "ENCRYPTED PRIVATE KEY" },
        { "rsa2048_encrypted_pkcs1.pem", PRIV_PEM, "Proc-Type: 4,ENCRYPTED" },
        { "rsa2048_3primes.pem", PRIV_PEM, "three primes" },
        { "rsa2048.pem", PUB_PEM, "a private key for a public one" },
        { "rsa2048_pub.pem", PRIV_PEM, "a public key for a private one" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        blob b = load(refused[i].name);
        int st = load_key(refused[i].k, b.p, b.n);
        CHECK(st == IC_ERR_PARAM, "%s (%s): status %d, want IC_ERR_PARAM", refused[i].name, refused[i].what, st);
        free(b.p);
    }
    /* base64 that would not fit the decoder's buffer */
    out_buf o = { NULL, 0, 0 };
    put(&o, "-----BEGIN PUBLIC KEY-----\n", 27);
    for (int i = 0; i < 200; i++)
        put(&o, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n", 65);
    put(&o, "-----END PUBLIC KEY-----\n", 25);
    CHECK(load_key(PUB_PEM, o.p, o.n) == IC_ERR_TOOLONG, "base64 of 9600 bytes: IC_ERR_TOOLONG");
    free(o.p);
}

/* ---- a fresh key from openssl ----------------------------------------------------------------- */

#if !defined(IC_TEST_EMULATED_LIGHT)
/* Runs the shell command; 1 when it exits 0. */
static int run(const char *cmd)
{
    int rc = system(cmd);
    return rc == 0;
}

/* A key of bits bits generated by openssl in dir, written in every form,
 * loaded, and its signature of msg.txt's digest compared with OpenSSL's. */
static void fresh_key(const char *dir, unsigned bits)
{
    char cmd[4096], name[1100];
    const char *msg = "rsa_keys/msg.txt";
    snprintf(cmd, sizeof cmd,
             "cd '%s' && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:%u -out k.pem 2>/dev/null &&"
             " openssl pkcs8 -topk8 -nocrypt -in k.pem -outform DER -out k.der &&"
             " openssl rsa -in k.pem -traditional -out k_pkcs1.pem 2>/dev/null &&"
             " openssl rsa -in k.pem -traditional -outform DER -out k_pkcs1.der 2>/dev/null &&"
             " openssl rsa -in k.pem -pubout -out k_pub.pem 2>/dev/null &&"
             " openssl rsa -in k.pem -pubout -outform DER -out k_pub.der 2>/dev/null &&"
             " openssl rsa -in k.pem -RSAPublicKey_out -out k_pub_pkcs1.pem 2>/dev/null &&"
             " openssl rsa -in k.pem -RSAPublicKey_out -outform DER -out k_pub_pkcs1.der 2>/dev/null &&"
             " openssl dgst -sha256 -sign k.pem -out k.sig '%s/%s'",
             dir, bits, tl_data_dir(), msg);
    if (!CHECK(run(cmd), "openssl could not write a %u-bit key", bits))
        return;
    static const char *const forms[] = { "k.pem", "k.der", "k_pkcs1.pem", "k_pkcs1.der",
                                         "k_pub.pem", "k_pub.der", "k_pub_pkcs1.pem", "k_pub_pkcs1.der" };
    static ic_rsa_private_key key;
    size_t k = (bits + 7) / 8;
    blob m = load("msg.txt");
    snprintf(name, sizeof name, "%s/k.sig", dir);
    blob sig = load_path(name);
    for (size_t i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "%s/%s", dir, forms[i]);
        blob b = load_path(name);
        kind kd = kind_of(forms[i]);
        int st = load_key(kd, b.p, b.n);
        if (CHECK(st == IC_OK, "fresh %u-bit %s: status %d", bits, forms[i], st) && is_priv(kd)) {
            if (i == 0)
                key = privk;
            CHECK(memcmp(&privk, &key, sizeof key) == 0, "fresh %u-bit %s: another key", bits, forms[i]);
        } else if (st == IC_OK) {
            CHECK(memcmp(&pubk, &key.pub, sizeof pubk) == 0, "fresh %u-bit %s: another key", bits, forms[i]);
        }
        free(b.p);
    }
    uint8_t dg[32], out[IC_RSA_MAX_BYTES];
    CHECK(ic_rsa_private_key_size(&key) == k, "fresh %u-bit key: %zu bytes", bits, ic_rsa_private_key_size(&key));
    CHECK(ic_hash(IC_HASH_SHA256, dg, sizeof dg, m.p, m.n) == IC_OK && sig.n == k &&
          ic_rsa_sign_pkcs1v15_digest(&key, IC_HASH_SHA256, out, k, dg, 32) == IC_OK, "fresh %u-bit: sign", bits);
    CHECK_MEM(out, sig.p, k, "fresh %u-bit key: signature = openssl dgst -sha256 -sign", bits);
    printf("fresh %u-bit key from openssl: 8 forms loaded, signature = OpenSSL's\n", bits);
    ic_rsa_private_key_wipe(&key);
    free(m.p), free(sig.p);
}
#endif

/* 1 when the fresh keys ran. */
static int fresh_keys(void)
{
#if defined(IC_TEST_EMULATED_LIGHT)
    printf("fresh keys from openssl: not run (an emulated leg)\n");
    return 0;
#else
    if (!run("openssl version >/dev/null 2>&1")) {
        printf("fresh keys from openssl: not run (no openssl on PATH); the committed keys were checked\n");
        return 0;
    }
    char dir[] = "/tmp/incore_rsa_key_XXXXXX", cmd[256];
    if (!CHECK(mkdtemp(dir) != NULL, "mkdtemp"))
        return 0;
    fresh_key(dir, 2048);
    fresh_key(dir, 2056);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(run(cmd), "rm -rf %s", dir);
    return 1;
#endif
}

int main(void)
{
    static const keyset sets[] = {
        { 2048, IC_HASH_SHA256, "rsa2048_sha256.sig", "rsa2048_sha256_pss32.sig", 32 },
        { 3072, IC_HASH_SHA384, "rsa3072_sha384.sig", "rsa3072_sha384_pss48.sig", 48 },
    };
    for (size_t i = 0; i < 2; i++)
        same_key(&sets[i]);
    static const char *const files[] = {
        "rsa2048.der", "rsa2048.pem", "rsa2048_pkcs1.der", "rsa2048_pkcs1.pem",
        "rsa2048_pub.der", "rsa2048_pub.pem", "rsa2048_pub_pkcs1.der", "rsa2048_pub_pkcs1.pem",
        "rsa3072.der", "rsa3072.pem", "rsa3072_pkcs1.der", "rsa3072_pkcs1.pem",
        "rsa3072_pub.der", "rsa3072_pub.pem", "rsa3072_pub_pkcs1.der", "rsa3072_pub_pkcs1.pem",
    };
    long c0 = cases;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        truncations(files[i]);
    printf("truncations: %ld, every length of %zu files\n", cases - c0, sizeof files / sizeof files[0]);
    byte_changes("rsa2048.der", "rsa2048_sha256.sig", IC_HASH_SHA256);
    byte_changes("rsa2048_pub.der", "rsa2048_sha256.sig", IC_HASH_SHA256);
    byte_changes("rsa2048_pub_pkcs1.der", "rsa2048_sha256.sig", IC_HASH_SHA256);
    byte_changes("rsa3072_pkcs1.der", "rsa3072_sha384.sig", IC_HASH_SHA384);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strstr(files[i], ".der"))
            rewrites(files[i]);
    attributes();
    versions_and_algorithms();
    pem_tests();
    int fresh = fresh_keys();
    printf("RSA keys: %ld loads%s\n", cases, fresh ? "" : " (fresh openssl keys not run)");
    CHECK(cases > 15000, "only %ld loads", cases);
    return tl_finish();
}
