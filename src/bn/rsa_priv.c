/*
 * rsa_priv.c - RSA private keys (RFC 8017 3.2, the CRT form) and what
 * they do: RSASSA-PKCS1-v1_5 and RSASSA-PSS signing, RSAES-OAEP
 * decryption.  incore/rsa.h describes the checks and the private
 * operation: base blinding, the CRT, and the result checked with e before
 * it leaves.
 *
 * Secrets here: p, q, dp, dq, qinv, the blinded and unblinded values, and
 * for decryption the recovered EM.  Nothing branches on them or indexes
 * with them; the verdicts that must become public (a check at init, the
 * fault check, the OAEP padding verdict) go through ic_ct_declassify().
 */
#include "bn/bn_impl.h"
#include "bn/bn_mod.h"
#include "bn/rsa_impl.h"
#include "core/ct.h"
#include "incore/rand.h"

#include <string.h>

#define PB IC_RSA_MAX_PRIME_BYTES

/* ---- constant-time helpers -------------------------------------------------- */

/* 1 when the len bytes at p are all zero, else 0; no branch on them. */
static unsigned ct_is_zero(const uint8_t *p, size_t len)
{
    unsigned acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= p[i];
    return ((acc | (0u - acc)) >> (sizeof acc * 8 - 1)) ^ 1;
}

/* All ones when a == b (bytes or small values), else 0. */
static unsigned ct_eq_mask(unsigned a, unsigned b)
{
    unsigned d = a ^ b;
    return ((d | (0u - d)) >> (sizeof d * 8 - 1)) - 1u;
}

/* A secret verdict made public (the checkers then let it be branched on). */
static int reveal(unsigned v)
{
    int r = (int)(v & 1);
    ic_ct_declassify(&r, sizeof r);
    return r;
}

/* ---- the private operation -------------------------------------------------- */

/* Both CRT exponentiations, m1 = cp^dp mod p and m2 = cq^dq mod q, in
 * constant time.  The one place they happen, so that a dual
 * exponentiation (both moduli at once) can take their place. */
static int rsa_crt_exp(const ic_rsa_private_key *key, uint8_t *m1, const uint8_t *cp,
                       uint8_t *m2, const uint8_t *cq)
{
    size_t pb = key->p.nbytes, qb = key->q.nbytes;
    const ic_bn_modexp_job jp = { &key->p, m1, pb, cp, pb, key->dp, pb };
    const ic_bn_modexp_job jq = { &key->q, m2, qb, cq, qb, key->dq, qb };
    return ic_bn_modexp2(&jp, &jq);
}

/* The blinding pairs of both primes: for P = p (ctx mp) and q (mq), re =
 * r^e and rinv = r^-1 mod P for a fresh random r per prime, drawn 16
 * bytes longer than P and reduced, so its bias is below 2^-128.  The
 * inverses are constant time (bn_inv.c) and computed side by side
 * (ic_bn_mod_inv2), so r is used as it is; when either r has no inverse
 * (0: probability about 2^-1000) both are drawn again, and that verdict is
 * all that becomes public. */
static int crt_blinding(const ic_mont_ctx *mp, const ic_mont_ctx *mq, const uint8_t *e, size_t elen,
                        uint8_t *rep, uint8_t *rinvp, uint8_t *req, uint8_t *rinvq)
{
    size_t pb = mp->nbytes, qb = mq->nbytes;
    uint8_t buf[PB + 16], rp[PB], rq[PB];
    int st = IC_ERR_FAULT, okp, okq;
    for (int tries = 0; tries < 4 && st == IC_ERR_FAULT; tries++) {
        if ((st = ic_random(buf, pb + 16)) != IC_OK)
            break;
        ic_bn_mod_reduce(mp, rp, buf, pb + 16);
        if ((st = ic_random(buf, qb + 16)) != IC_OK)
            break;
        ic_bn_mod_reduce(mq, rq, buf, qb + 16);
        if (!reveal((unsigned)ic_bn_mod_inv2(mp, rinvp, rp, &okp, mq, rinvq, rq, &okq))) {
            st = IC_ERR_FAULT;
            continue;
        }
        st = ic_mont_modexp_public(mp, rep, pb, rp, pb, e, elen);
        if (st == IC_OK)
            st = ic_mont_modexp_public(mq, req, qb, rq, qb, e, elen);
    }
    ic_wipe(buf, sizeof buf), ic_wipe(rp, pb), ic_wipe(rq, qb);
    return st;
}

/* cx = (c mod P) * re mod P: one CRT half's input, blinded when re is not
 * NULL. */
static void crt_input(const ic_mont_ctx *mp, uint8_t *cx, const uint8_t *c, size_t k, const uint8_t *re)
{
    ic_bn_mod_reduce(mp, cx, c, k);
    if (re != NULL)
        ic_bn_mod_mul(mp, cx, cx, re);
}

/* m = c^d mod n by the CRT (RFC 8017 5.1.2 step 2b, Garner's form), c < n:
 * m1 = c^dp mod p, m2 = c^dq mod q, h = (m1 - m2) qinv mod p, m = m2 + h q
 * (< q + (p - 1) q = n).  With blind, each half's base is blinded on its
 * own prime (Kocher 1996): m1 = (c rp^e)^dp rp^-1 mod p for a fresh random
 * rp, since e dp = 1 mod p - 1, and m2 likewise with rq; the halves then
 * hold the same values as without.  Blinding per prime instead of c r^e
 * mod n does the same for the exponentiations, which see only random
 * bases, at about 60 % of the cost: the inverse and r^e at half the size
 * (the inverse's time grows with the square of the size).  Init's check
 * (crt_consistent) runs without. */
static int rsa_crt(const ic_rsa_private_key *key, uint8_t *m, const uint8_t *c, int blind)
{
    const ic_mont_ctx *mp = &key->p, *mq = &key->q;
    const ic_rsa_public_key *pub = &key->pub;
    size_t k = pub->mont.nbytes, pb = mp->nbytes, qb = mq->nbytes;
    uint8_t cp[PB], cq[PB], m1[PB], m2[PB], h[PB], qbytes[PB];
    uint8_t rep[PB], rinvp[PB], req[PB], rinvq[PB];
    int st = IC_OK;
    if (blind)
        st = crt_blinding(mp, mq, pub->e, pub->elen, rep, rinvp, req, rinvq);
    if (st == IC_OK) {
        crt_input(mp, cp, c, k, blind ? rep : NULL);
        crt_input(mq, cq, c, k, blind ? req : NULL);
        st = rsa_crt_exp(key, m1, cp, m2, cq);
    }
    if (st == IC_OK) {
        if (blind) {
            ic_bn_mod_mul(mp, m1, m1, rinvp);
            ic_bn_mod_mul(mq, m2, m2, rinvq);
        }
        ic_bn_mod_reduce(mp, h, m2, qb);                 /* m2 mod p: q may exceed p */
        ic_bn_mod_sub(mp, h, m1, h);
        ic_bn_mod_mul(mp, h, h, key->qinv);
        ic_bn_modulus(mq, qbytes);
        ic_bn_mul_add(m, k, h, pb, qbytes, qb, m2, qb);
    }
    ic_wipe(cp, pb), ic_wipe(cq, qb), ic_wipe(m1, pb), ic_wipe(m2, qb), ic_wipe(h, pb);
    ic_wipe(qbytes, qb);
    ic_wipe(rep, pb), ic_wipe(rinvp, pb), ic_wipe(req, qb), ic_wipe(rinvq, qb);
    return st;
}

/* out = in^d mod n (in < n, k bytes each), blinded, by the CRT, checked
 * with e; out is written only on IC_OK. */
static int rsa_private_op(const ic_rsa_private_key *key, uint8_t *out, const uint8_t *in)
{
    const ic_rsa_public_key *pub = &key->pub;
    const ic_mont_ctx *mn = &pub->mont;
    size_t k = mn->nbytes;
    uint8_t chk[IC_RSA_MAX_BYTES], m[IC_RSA_MAX_BYTES];
    int st = rsa_crt(key, m, in, 1);
    if (st == IC_OK) {
        st = ic_mont_modexp_public(mn, chk, k, m, k, pub->e, pub->elen);
        if (st == IC_OK && !reveal((unsigned)ic_ct_equal(chk, in, k)))
            st = IC_ERR_FAULT;
    }
    if (st == IC_OK)
        memcpy(out, m, k);
    ic_wipe(chk, k), ic_wipe(m, k);
    return st;
}

/* ---- the key ------------------------------------------------------------------ */

static int priv_ok(const ic_rsa_private_key *key)
{
    size_t nbits = key->pub.mont.nbits, pbits = key->p.nbits, qbits = key->q.nbits;
    return key->check == IC_CHECK_RSAPRIV && ic_rsa_public_ok(&key->pub) &&
           ic_mont_size(&key->p) != 0 && ic_mont_size(&key->q) != 0 &&
           key->p.nbytes <= PB && key->q.nbytes <= PB &&
           (pbits + qbits == nbits || pbits + qbits == nbits + 1);
}

size_t ic_rsa_private_key_size(const ic_rsa_private_key *key)
{
    return key != NULL && priv_ok(key) ? key->pub.mont.nbytes : 0;
}

void ic_rsa_private_key_wipe(ic_rsa_private_key *key)
{
    if (key != NULL)
        ic_wipe(key, sizeof *key);
}

/* Strip public leading zero bytes (n and e only). */
static const uint8_t *strip(const uint8_t *p, size_t *len)
{
    while (*len > 0 && p[0] == 0)
        p++, (*len)--;
    return p;
}

/* One prime: its context, then its size limits (IC_ERR_MODULUS). */
static int prime_init(ic_mont_ctx *ctx, const uint8_t *p, size_t plen)
{
    int st = ic_mont_init(ctx, p, plen);
    if (st == IC_OK && ctx->nbits > IC_RSA_MAX_BITS / 2)
        st = IC_ERR_MODULUS;
    return st;
}

/* 1 when a (alen bytes) < ctx's modulus; the low bytes of a copied to out
 * (the modulus's length) when so. */
static int below_copy(const ic_mont_ctx *ctx, uint8_t *out, const uint8_t *a, size_t alen)
{
    if (!reveal((unsigned)ic_bn_ct_below(ctx, a, alen)))
        return 0;
    size_t nb = ctx->nbytes, take = alen < nb ? alen : nb;
    memset(out, 0, nb - take);
    memcpy(out + nb - take, a + alen - take, take);
    return 1;
}

/* p q == n, in constant time (p and q are secret). */
static int product_is_n(const ic_rsa_private_key *key)
{
    size_t k = key->pub.mont.nbytes;
    uint8_t pb[PB], qb[PB], prod[IC_RSA_MAX_BYTES], n[IC_RSA_MAX_BYTES];
    ic_bn_modulus(&key->p, pb);
    ic_bn_modulus(&key->q, qb);
    ic_bn_mul_add(prod, k, pb, key->p.nbytes, qb, key->q.nbytes, NULL, 0);
    ic_bn_modulus(&key->pub.mont, n);
    int eq = reveal((unsigned)ic_ct_equal(prod, n, k));
    ic_wipe(pb, sizeof pb), ic_wipe(qb, sizeof qb), ic_wipe(prod, k);
    return eq;
}

/* q qinv == 1 mod p, and the CRT gives x back from x^e for a fixed x (a
 * wrong dp or dq is caught there: RFC 8017 does not ask for it, FIPS 186-5
 * B.4 calls it the pairwise consistency test). */
static int crt_consistent(const ic_rsa_private_key *key)
{
    const ic_mont_ctx *mn = &key->pub.mont;
    size_t k = mn->nbytes, pb = key->p.nbytes;
    uint8_t t[IC_RSA_MAX_BYTES], x[IC_RSA_MAX_BYTES], c[IC_RSA_MAX_BYTES];
    ic_bn_modulus(&key->q, x);
    ic_bn_mod_reduce(&key->p, t, x, key->q.nbytes);          /* q mod p */
    ic_bn_mod_mul(&key->p, t, t, key->qinv);
    memset(c, 0, pb);
    c[pb - 1] = 1;
    int ok = reveal((unsigned)ic_ct_equal(t, c, pb));
    /* x = 0x5a5a...5a, k - 1 bytes: below n */
    memset(x, 0, k);
    memset(x + 1, 0x5a, k - 1);
    if (ok && ic_mont_modexp_public(mn, c, k, x, k, key->pub.e, key->pub.elen) == IC_OK &&
        rsa_crt(key, t, c, 0) == IC_OK)
        ok = reveal((unsigned)ic_ct_equal(t, x, k));
    else
        ok = 0;
    ic_wipe(t, k);
    return ok;
}

/* init without the final wipe on failure. */
static int private_init(ic_rsa_private_key *key, const uint8_t *n, size_t nlen, const uint8_t *e, size_t elen,
                        const uint8_t *d, size_t dlen, const uint8_t *p, size_t plen,
                        const uint8_t *q, size_t qlen, const uint8_t *dp, size_t dplen,
                        const uint8_t *dq, size_t dqlen, const uint8_t *qinv, size_t qinvlen)
{
    IC_NULL_CHECK(n, nlen);
    IC_NULL_CHECK(e, elen);
    IC_NULL_CHECK(d, dlen);
    IC_NULL_CHECK(p, plen);
    IC_NULL_CHECK(q, qlen);
    IC_NULL_CHECK(dp, dplen);
    IC_NULL_CHECK(dq, dqlen);
    IC_NULL_CHECK(qinv, qinvlen);
    size_t k = nlen, el = elen;
    strip(n, &k);
    strip(e, &el);
    if (el > k || dlen > k || plen > k || qlen > k || dplen > k || dqlen > k || qinvlen > k)
        return IC_ERR_SIZE;
    int st = ic_rsa_public_key_init(&key->pub, n, nlen, e, elen);
    if (st != IC_OK)
        return st;
    if ((st = prime_init(&key->p, p, plen)) != IC_OK || (st = prime_init(&key->q, q, qlen)) != IC_OK)
        return st;
    size_t nbits = key->pub.mont.nbits, sum = (size_t)key->p.nbits + key->q.nbits;
    if ((sum != nbits && sum != nbits + 1) || !product_is_n(key))
        return IC_ERR_MODULUS;
    if (!reveal((unsigned)ic_bn_ct_below(&key->pub.mont, d, dlen)) ||
        !below_copy(&key->p, key->dp, dp, dplen) || !below_copy(&key->q, key->dq, dq, dqlen) ||
        !below_copy(&key->p, key->qinv, qinv, qinvlen))
        return IC_ERR_RANGE;
    if (reveal(ct_is_zero(d, dlen) | ct_is_zero(key->dp, key->p.nbytes) | ct_is_zero(key->dq, key->q.nbytes)))
        return IC_ERR_EXPONENT;
    if (!crt_consistent(key))
        return IC_ERR_PARAM;
    key->check = IC_CHECK_RSAPRIV;
    return IC_OK;
}

int ic_rsa_private_key_init(ic_rsa_private_key *key, const uint8_t *n, size_t nlen, const uint8_t *e,
                            size_t elen, const uint8_t *d, size_t dlen, const uint8_t *p, size_t plen,
                            const uint8_t *q, size_t qlen, const uint8_t *dp, size_t dplen,
                            const uint8_t *dq, size_t dqlen, const uint8_t *qinv, size_t qinvlen)
{
    if (key == NULL)
        return IC_ERR_NULL;
    ic_wipe(key, sizeof *key);
    int st = private_init(key, n, nlen, e, elen, d, dlen, p, plen, q, qlen, dp, dplen, dq, dqlen, qinv, qinvlen);
    if (st != IC_OK)
        ic_wipe(key, sizeof *key);
    return st;
}

/* ---- signatures ------------------------------------------------------------------ */

/* Steps 1-3 of common.h that every private-key call shares: the key, the
 * output, the input (message, digest or ciphertext) and one more optional
 * input (salt, label), the two hashes. */
static int priv_args(const ic_rsa_private_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                     const uint8_t *out, const uint8_t *in, size_t inlen, const uint8_t *more, size_t morelen)
{
    if (key == NULL)
        return IC_ERR_NULL;
    if (!priv_ok(key))
        return IC_ERR_STATE;
    if (out == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(in, inlen);
    IC_NULL_CHECK(more, morelen);
    if (ic_hash_digest_size(hash_alg) == 0 || ic_hash_digest_size(mgf1_hash) == 0)
        return IC_ERR_PARAM;
    return IC_OK;
}

/* The lengths of a signing call against the key and the hash. */
static int sign_sizes(const ic_rsa_private_key *key, ic_hash_alg hash_alg, size_t siglen, size_t digestlen)
{
    if (siglen != key->pub.mont.nbytes || digestlen != ic_hash_digest_size(hash_alg))
        return IC_ERR_SIZE;
    return IC_OK;
}

int ic_rsa_sign_pkcs1v15_digest(const ic_rsa_private_key *key, ic_hash_alg hash_alg, uint8_t *sig,
                                size_t siglen, const uint8_t *digest, size_t digestlen)
{
    int st = priv_args(key, hash_alg, hash_alg, sig, digest, digestlen, NULL, 0);
    if (st == IC_OK)
        st = sign_sizes(key, hash_alg, siglen, digestlen);
    if (st != IC_OK)
        return st;
    uint8_t em[IC_RSA_MAX_BYTES];
    st = ic_rsa_emsa_pkcs1v15(hash_alg, digest, em, key->pub.mont.nbytes);
    if (st == IC_OK)
        st = rsa_private_op(key, sig, em);                   /* EM < 2^(8(k-1)) <= n */
    return st;
}

int ic_rsa_sign_pkcs1v15(const ic_rsa_private_key *key, ic_hash_alg hash_alg, uint8_t *sig, size_t siglen,
                         const uint8_t *msg, size_t msglen)
{
    uint8_t digest[IC_HASH_MAX_DIGEST_SIZE];
    size_t hlen = 0;
    int st = priv_args(key, hash_alg, hash_alg, sig, msg, msglen, NULL, 0);
    if (st == IC_OK)
        st = ic_rsa_digest(hash_alg, digest, &hlen, msg, msglen);
    return st != IC_OK ? st : ic_rsa_sign_pkcs1v15_digest(key, hash_alg, sig, siglen, digest, hlen);
}

/* EMSA-PSS-ENCODE (RFC 8017 9.1.1 steps 4-12) of mHash with the salt into
 * em (k bytes, emLen = k or k - 1 bytes of it at the end), then RSASP1. */
static int pss_sign(const ic_rsa_private_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                    uint8_t *sig, const uint8_t *mhash, const uint8_t *salt, size_t salt_len)
{
    size_t hlen = ic_hash_digest_size(hash_alg), k = key->pub.mont.nbytes;
    size_t embits = key->pub.mont.nbits - 1, emlen = (embits + 7) / 8, dblen = emlen - hlen - 1;
    uint8_t buf[IC_RSA_MAX_BYTES];
    memset(buf, 0, k);
    uint8_t *em = buf + (k - emlen), *db = em, *h = em + dblen;
    uint8_t hbuf[IC_HASH_MAX_DIGEST_SIZE];
    int st = ic_rsa_pss_hash(hash_alg, hbuf, mhash, hlen, salt, salt_len);  /* steps 5, 6: H = Hash(M') */
    memcpy(h, hbuf, hlen);
    db[dblen - salt_len - 1] = 0x01;                         /* steps 7, 8: PS || 01 || salt */
    if (salt_len)
        memcpy(db + dblen - salt_len, salt, salt_len);
    if (st == IC_OK)
        st = ic_rsa_mgf1_xor(mgf1_hash, h, hlen, db, dblen); /* steps 9, 10 */
    if (st != IC_OK) {
        ic_wipe(buf, k);
        return IC_ERR_PARAM;
    }
    db[0] &= (uint8_t)(0xffu >> (8 * emlen - embits));       /* step 11 */
    em[emlen - 1] = 0xbc;                                    /* step 12 */
    return rsa_private_op(key, sig, buf);
}

/* The checks of PSS signing after priv_args: the salt fits the key (9.1.1
 * step 3), then the lengths. */
static int pss_sizes(const ic_rsa_private_key *key, ic_hash_alg hash_alg, size_t salt_len, size_t siglen,
                     size_t digestlen)
{
    if (!ic_rsa_pss_fits(&key->pub.mont, ic_hash_digest_size(hash_alg), salt_len))
        return IC_ERR_PARAM;
    return sign_sizes(key, hash_alg, siglen, digestlen);
}

int ic_rsa_sign_pss_digest(const ic_rsa_private_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                           size_t salt_len, uint8_t *sig, size_t siglen, const uint8_t *digest, size_t digestlen)
{
    uint8_t salt[IC_RSA_MAX_BYTES];
    int st = priv_args(key, hash_alg, mgf1_hash, sig, digest, digestlen, NULL, 0);
    if (st == IC_OK)
        st = pss_sizes(key, hash_alg, salt_len, siglen, digestlen);
    if (st != IC_OK)
        return st;
    st = ic_random(salt, salt_len);                      /* salt_len < k: it fits */
    if (st == IC_OK)
        st = pss_sign(key, hash_alg, mgf1_hash, sig, digest, salt, salt_len);
    ic_wipe(salt, salt_len);
    return st;
}

int ic_rsa_sign_pss(const ic_rsa_private_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                    size_t salt_len, uint8_t *sig, size_t siglen, const uint8_t *msg, size_t msglen)
{
    uint8_t digest[IC_HASH_MAX_DIGEST_SIZE];
    size_t hlen = 0;
    int st = priv_args(key, hash_alg, mgf1_hash, sig, msg, msglen, NULL, 0);
    if (st == IC_OK)
        st = ic_rsa_digest(hash_alg, digest, &hlen, msg, msglen);
    return st != IC_OK ? st : ic_rsa_sign_pss_digest(key, hash_alg, mgf1_hash, salt_len, sig, siglen, digest, hlen);
}

int ic_rsa_sign_pss_salt(const ic_rsa_private_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                         uint8_t *sig, size_t siglen, const uint8_t *msg, size_t msglen,
                         const uint8_t *salt, size_t saltlen)
{
    uint8_t digest[IC_HASH_MAX_DIGEST_SIZE];
    size_t hlen = 0;
    int st = priv_args(key, hash_alg, mgf1_hash, sig, msg, msglen, salt, saltlen);
    if (st == IC_OK)
        st = ic_rsa_digest(hash_alg, digest, &hlen, msg, msglen);
    if (st == IC_OK)
        st = pss_sizes(key, hash_alg, saltlen, siglen, hlen);
    return st != IC_OK ? st : pss_sign(key, hash_alg, mgf1_hash, sig, digest, salt, saltlen);
}

/* ---- RSAES-OAEP decryption ---------------------------------------------------------- */

/* EME-OAEP decoding (RFC 8017 7.1.2 step 3) of em (k bytes, secret) in
 * constant time: every byte is looked at whatever the faults, and all of
 * them (Y != 0, lHash' != lHash, no 01 after the zeros, a non-zero byte
 * before it) fold into the one verdict.  Returns the verdict (1 good) and
 * the message's offset in em in *off (meaningful only when good). */
static unsigned oaep_decode(const uint8_t *em, size_t k, size_t hlen, const uint8_t *lhash, size_t *off)
{
    const uint8_t *db = em + 1 + hlen;
    size_t dblen = k - hlen - 1;
    unsigned good = ct_eq_mask(em[0], 0) & (0u - (unsigned)ic_ct_equal(db, lhash, hlen));
    unsigned found = 0, bad = 0;
    size_t idx = 0;
    for (size_t i = hlen; i < dblen; i++) {
        unsigned one = ct_eq_mask(db[i], 1), zero = ct_eq_mask(db[i], 0);
        unsigned first = one & ~found;                        /* the separator */
        size_t sel = (size_t)0 - (size_t)(first & 1);
        idx = (idx & ~sel) | (i & sel);
        bad |= ~found & ~one & ~zero;                         /* junk before it */
        found |= one;
    }
    *off = 1 + hlen + idx + 1;
    return good & found & ~bad & 1;
}

/* The checks of decryption in common.h's order; *hlen set on IC_OK. */
static int oaep_dec_args(const ic_rsa_private_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                         const uint8_t *out, size_t outcap, const size_t *outlen, const uint8_t *ct,
                         size_t ctlen, const uint8_t *label, size_t labellen, size_t *hlen)
{
    int st = priv_args(key, hash_alg, mgf1_hash, out, ct, ctlen, label, labellen);
    /* outlen is one more pointer: NULL is step 2, before the hashes' step 3 */
    if ((st == IC_OK || st == IC_ERR_PARAM) && outlen == NULL)
        st = IC_ERR_NULL;
    if (st != IC_OK)
        return st;
    size_t k = key->pub.mont.nbytes;
    *hlen = ic_hash_digest_size(hash_alg);
    if (k < 2 * *hlen + 2)
        return IC_ERR_PARAM;
    if (outcap < k - 2 * *hlen - 2)
        return IC_ERR_SIZE;
    return IC_OK;
}

int ic_rsa_decrypt_oaep(const ic_rsa_private_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                        uint8_t *out, size_t outcap, size_t *outlen, const uint8_t *ct, size_t ctlen,
                        const uint8_t *label, size_t labellen)
{
    size_t hlen = 0, lhlen = 0;
    int st = oaep_dec_args(key, hash_alg, mgf1_hash, out, outcap, outlen, ct, ctlen, label, labellen, &hlen);
    if (st != IC_OK)
        return st;
    size_t k = key->pub.mont.nbytes;
    /* public facts about the ciphertext: length and range (7.1.2 steps 1, 2a) */
    if (ctlen != k || !ic_bn_ct_below(&key->pub.mont, ct, ctlen))
        return IC_ERR_AUTH;
    uint8_t em[IC_RSA_MAX_BYTES], lhash[IC_HASH_MAX_DIGEST_SIZE];
    if (ic_rsa_digest(hash_alg, lhash, &lhlen, label, labellen) != IC_OK)
        return IC_ERR_PARAM;
    st = rsa_private_op(key, em, ct);
    if (st != IC_OK)
        return st;
    uint8_t *seed = em + 1, *db = em + 1 + hlen;
    size_t dblen = k - hlen - 1, off = 0;
    /* the hash was checked above, so these fail only on a fault of the
     * hash itself; the status does not depend on the ciphertext */
    st = ic_rsa_mgf1_xor(mgf1_hash, db, dblen, seed, hlen);      /* seed */
    if (st == IC_OK)
        st = ic_rsa_mgf1_xor(mgf1_hash, seed, hlen, db, dblen);  /* DB */
    if (st != IC_OK) {
        ic_wipe(em, k);
        return st;
    }
    if (reveal(oaep_decode(em, k, hlen, lhash, &off))) {
        ic_ct_declassify(&off, sizeof off);                      /* the length is released */
        memcpy(out, em + off, k - off);
        *outlen = k - off;
    } else {
        st = IC_ERR_AUTH;
    }
    ic_wipe(em, k);
    return st;
}
