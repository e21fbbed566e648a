/*
 * rsa.c - RSA public keys and signature verification (RFC 8017):
 * RSASSA-PKCS1-v1_5 by comparing the whole re-encoded EM, RSASSA-PSS with
 * MGF1.  The exponentiation is ic_mont_modexp_public on the key's
 * Montgomery context; everything else is byte strings of at most
 * IC_RSA_MAX_BYTES on the stack.  All inputs here are public (key,
 * message, signature), so the checks may branch; the final comparisons
 * use ic_ct_equal anyway.
 *
 * Each scheme is written once, over the digest (the _digest calls); the
 * message calls check their arguments in common.h's order, hash the
 * message and call those.
 */
#include "bn/rsa_impl.h"
#include "incore/rand.h"

#include <string.h>

/* ---- the key ---------------------------------------------------------------- */

/* Skip leading zero bytes (public values: n and e). */
static const uint8_t *strip(const uint8_t *p, size_t *len)
{
    while (*len > 0 && p[0] == 0)
        p++, (*len)--;
    return p;
}

/* a < b for big-endian strings of equal length. */
static int be_less(const uint8_t *a, const uint8_t *b, size_t len)
{
    return memcmp(a, b, len) < 0;
}

/* The checks of init after the key was wiped and n's context set up. */
static int check_e(const ic_rsa_public_key *key, const uint8_t *n, size_t nlen, const uint8_t *e,
                   size_t elen)
{
    if (key->mont.nbits < IC_RSA_MIN_BITS || key->mont.nbits > IC_RSA_MAX_BITS)
        return IC_ERR_MODULUS;
    if (elen == nlen && !be_less(e, n, nlen))
        return IC_ERR_RANGE;
    /* e = 0 (elen 0 after stripping), 1, or even: no RSA exponent */
    if (elen == 0 || (elen == 1 && e[0] == 1) || (e[elen - 1] & 1) == 0)
        return IC_ERR_EXPONENT;
    return IC_OK;
}

int ic_rsa_public_key_init(ic_rsa_public_key *key, const uint8_t *n, size_t nlen,
                           const uint8_t *e, size_t elen)
{
    if (key == NULL)
        return IC_ERR_NULL;
    ic_wipe(key, sizeof *key);
    IC_NULL_CHECK(n, nlen);
    IC_NULL_CHECK(e, elen);
    n = strip(n, &nlen);
    e = strip(e, &elen);
    if (elen > nlen)
        return IC_ERR_SIZE;
    if (nlen == 0 || nlen > IC_RSA_MAX_BYTES)
        return IC_ERR_MODULUS;
    int st = ic_mont_init(&key->mont, n, nlen);
    if (st == IC_OK)
        st = check_e(key, n, nlen, e, elen);
    if (st != IC_OK) {
        ic_wipe(key, sizeof *key);
        return st;
    }
    memcpy(key->e, e, elen);
    key->elen = (uint32_t)elen;
    key->check = IC_CHECK_RSAPUB;
    return IC_OK;
}

/* 1 for a key init set up and wipe did not end; the length used as a
 * bound (elen) is checked against the modulus too. */
int ic_rsa_public_ok(const ic_rsa_public_key *key)
{
    size_t k = ic_mont_size(&key->mont);
    return key->check == IC_CHECK_RSAPUB && k != 0 && key->mont.nbits >= IC_RSA_MIN_BITS &&
           key->elen >= 1 && key->elen <= k;
}

size_t ic_rsa_public_key_size(const ic_rsa_public_key *key)
{
    return key != NULL && ic_rsa_public_ok(key) ? key->mont.nbytes : 0;
}

void ic_rsa_public_key_wipe(ic_rsa_public_key *key)
{
    if (key != NULL)
        ic_wipe(key, sizeof *key);
}

/* ---- hashing, shared with rsa_priv.c ----------------------------------------- */

int ic_rsa_digest(ic_hash_alg alg, uint8_t out[IC_HASH_MAX_DIGEST_SIZE], size_t *hlen,
                  const uint8_t *msg, size_t msglen)
{
    *hlen = ic_hash_digest_size(alg);
    if (*hlen == 0 || ic_hash(alg, out, IC_HASH_MAX_DIGEST_SIZE, msg, msglen) != IC_OK)
        return IC_ERR_PARAM;
    return IC_OK;
}

int ic_rsa_pss_fits(const ic_mont_ctx *n, size_t hlen, size_t salt_len)
{
    size_t emlen = (n->nbits - 1 + 7) / 8;          /* emBits = modBits - 1 */
    return emlen >= hlen + 2 && salt_len <= emlen - hlen - 2;
}

/* out = Hash(a || b || c) over alg; the context is wiped on every path
 * (final wipes it on success). */
static int hash3(ic_hash_alg alg, uint8_t *out, const uint8_t *a, size_t alen, const uint8_t *b,
                 size_t blen, const uint8_t *c, size_t clen)
{
    ic_hash_ctx hc;
    int st = ic_hash_init(&hc, alg);
    if (st == IC_OK)
        st = ic_hash_update(&hc, a, alen);
    if (st == IC_OK)
        st = ic_hash_update(&hc, b, blen);
    if (st == IC_OK)
        st = ic_hash_update(&hc, c, clen);
    if (st == IC_OK)
        st = ic_hash_final(&hc, out, IC_HASH_MAX_DIGEST_SIZE);
    if (st != IC_OK)
        ic_wipe(&hc, sizeof hc);
    return st;
}

int ic_rsa_pss_hash(ic_hash_alg alg, uint8_t h[IC_HASH_MAX_DIGEST_SIZE], const uint8_t *mhash, size_t hlen,
                    const uint8_t *salt, size_t salt_len)
{
    static const uint8_t zeros[8] = { 0 };
    return hash3(alg, h, zeros, sizeof zeros, mhash, hlen, salt, salt_len);
}

int ic_rsa_mgf1_xor(ic_hash_alg alg, const uint8_t *seed, size_t slen, uint8_t *out, size_t len)
{
    size_t hlen = ic_hash_digest_size(alg);
    uint8_t t[IC_HASH_MAX_DIGEST_SIZE];
    int st = IC_OK;
    for (uint32_t c = 0; len > 0 && st == IC_OK; c++) {
        uint8_t cb[4] = { (uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c };
        st = hash3(alg, t, seed, slen, cb, sizeof cb, NULL, 0);   /* Hash(seed || C), B.2.1 step 3 */
        size_t m = len < hlen ? len : hlen;
        for (size_t i = 0; i < m && st == IC_OK; i++)
            out[i] ^= t[i];
        out += m, len -= m;
    }
    ic_wipe(t, sizeof t);
    return st;
}

/* ---- the RSA verification primitive ----------------------------------------- */

/* RSAVP1 (RFC 8017 5.2.2): em = sig^e mod n, k bytes.  IC_OK, or
 * IC_ERR_AUTH for a signature of the wrong length or not below n. */
static int rsavp1(const ic_rsa_public_key *key, const uint8_t *sig, size_t siglen, uint8_t *em)
{
    size_t k = key->mont.nbytes;
    if (siglen != k)
        return IC_ERR_AUTH;
    int st = ic_mont_modexp_public(&key->mont, em, k, sig, siglen, key->e, key->elen);
    return st == IC_OK ? IC_OK : IC_ERR_AUTH;   /* IC_ERR_RANGE: sig >= n */
}

/* Steps 1-3 of common.h that every verify shares: the key, the pointers
 * (the signature and the message or digest), the two hashes. */
static int verify_args(const ic_rsa_public_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                       const uint8_t *sig, size_t siglen, const uint8_t *in, size_t inlen)
{
    if (key == NULL)
        return IC_ERR_NULL;
    if (!ic_rsa_public_ok(key))
        return IC_ERR_STATE;
    IC_NULL_CHECK(sig, siglen);
    IC_NULL_CHECK(in, inlen);
    if (ic_hash_digest_size(hash_alg) == 0 || ic_hash_digest_size(mgf1_hash) == 0)
        return IC_ERR_PARAM;
    return IC_OK;
}

/* ---- RSASSA-PKCS1-v1_5 ------------------------------------------------------ */

/* The DER DigestInfo prefix of alg (RFC 8017 9.2 note 1) into out; returns
 * its length, 0 for an alg without one.  The SHA-2 OIDs are
 * 2.16.840.1.101.3.4.2.x and differ in x alone. */
static size_t digestinfo_prefix(ic_hash_alg alg, size_t hlen, uint8_t out[19])
{
    static const uint8_t sha1[15] = { 0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e,
                                      0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14 };
    static const uint8_t sha2[19] = { 0x30, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                      0x65, 0x03, 0x04, 0x02, 0x00, 0x05, 0x00, 0x04, 0x00 };
    uint8_t x;
    switch (alg) {
    case IC_HASH_SHA1:       memcpy(out, sha1, sizeof sha1); return sizeof sha1;
    case IC_HASH_SHA256:     x = 1; break;
    case IC_HASH_SHA384:     x = 2; break;
    case IC_HASH_SHA512:     x = 3; break;
    case IC_HASH_SHA224:     x = 4; break;
    case IC_HASH_SHA512_224: x = 5; break;
    case IC_HASH_SHA512_256: x = 6; break;
    default: return 0;
    }
    memcpy(out, sha2, sizeof sha2);
    out[1] = (uint8_t)(sizeof sha2 - 2 + hlen);   /* the outer SEQUENCE's length */
    out[14] = x;
    out[18] = (uint8_t)hlen;
    return sizeof sha2;
}

int ic_rsa_emsa_pkcs1v15(ic_hash_alg alg, const uint8_t *digest, uint8_t *em, size_t k)
{
    size_t hlen = ic_hash_digest_size(alg);
    uint8_t prefix[19];
    size_t plen = hlen ? digestinfo_prefix(alg, hlen, prefix) : 0;
    if (plen == 0)
        return IC_ERR_PARAM;
    /* k >= 128 (IC_RSA_MIN_BITS) > 11 + 19 + 64: EM always fits */
    size_t tlen = plen + hlen;
    em[0] = 0x00;
    em[1] = 0x01;
    memset(em + 2, 0xff, k - tlen - 3);
    em[k - tlen - 1] = 0x00;
    memcpy(em + k - tlen, prefix, plen);
    memcpy(em + k - hlen, digest, hlen);
    return IC_OK;
}

int ic_rsa_verify_pkcs1v15_digest(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                                  const uint8_t *sig, size_t siglen, const uint8_t *digest, size_t digestlen)
{
    int st = verify_args(key, hash_alg, hash_alg, sig, siglen, digest, digestlen);
    if (st != IC_OK)
        return st;
    if (digestlen != ic_hash_digest_size(hash_alg))
        return IC_ERR_SIZE;
    size_t k = key->mont.nbytes;
    uint8_t em[IC_RSA_MAX_BYTES], want[IC_RSA_MAX_BYTES];
    st = rsavp1(key, sig, siglen, em);
    if (st == IC_OK)
        st = ic_rsa_emsa_pkcs1v15(hash_alg, digest, want, k);
    if (st == IC_OK && !ic_ct_equal(em, want, k))
        st = IC_ERR_AUTH;
    return st;
}

int ic_rsa_verify_pkcs1v15(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                           const uint8_t *sig, size_t siglen, const uint8_t *msg, size_t msglen)
{
    uint8_t digest[IC_HASH_MAX_DIGEST_SIZE];
    size_t hlen = 0;
    int st = verify_args(key, hash_alg, hash_alg, sig, siglen, msg, msglen);
    if (st == IC_OK)
        st = ic_rsa_digest(hash_alg, digest, &hlen, msg, msglen);
    return st != IC_OK ? st : ic_rsa_verify_pkcs1v15_digest(key, hash_alg, sig, siglen, digest, hlen);
}

/* ---- RSASSA-PSS ---------------------------------------------------------------- */

/* EMSA-PSS-VERIFY (RFC 8017 9.1.2) steps 4-14 on m = RSAVP1(sig) (k
 * bytes), whose last emLen bytes are EM; arguments already checked. */
static int pss_decode(const ic_rsa_public_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                      size_t salt_len, uint8_t *m, const uint8_t *mhash)
{
    size_t hlen = ic_hash_digest_size(hash_alg);
    size_t k = key->mont.nbytes, embits = key->mont.nbits - 1, emlen = (embits + 7) / 8;
    /* I2OSP(m, emLen): when emLen = k - 1 (nbits = 8j + 1) the top byte must be 0 */
    if (emlen < k && m[0] != 0)
        return IC_ERR_AUTH;
    uint8_t *em = m + (k - emlen);
    size_t dblen = emlen - hlen - 1;
    uint8_t *db = em, *h = em + dblen;
    unsigned topmask = 0xffu >> (8 * emlen - embits);            /* bits DB may use in byte 0 */
    if (em[emlen - 1] != 0xbc || (db[0] & ~topmask) != 0)        /* steps 4, 6 */
        return IC_ERR_AUTH;
    if (ic_rsa_mgf1_xor(mgf1_hash, h, hlen, db, dblen) != IC_OK)  /* steps 7, 8 */
        return IC_ERR_PARAM;
    db[0] &= (uint8_t)topmask;                                   /* step 9 */
    size_t ps = dblen - salt_len - 1;                            /* step 10 */
    for (size_t i = 0; i < ps; i++)
        if (db[i] != 0)
            return IC_ERR_AUTH;
    if (db[ps] != 0x01)
        return IC_ERR_AUTH;
    uint8_t h2[IC_HASH_MAX_DIGEST_SIZE];                         /* steps 12, 13 */
    if (ic_rsa_pss_hash(hash_alg, h2, mhash, hlen, db + dblen - salt_len, salt_len) != IC_OK)
        return IC_ERR_PARAM;
    return ic_ct_equal(h, h2, hlen) ? IC_OK : IC_ERR_AUTH;       /* step 14 */
}

int ic_rsa_verify_pss_digest(const ic_rsa_public_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                             size_t salt_len, const uint8_t *sig, size_t siglen,
                             const uint8_t *digest, size_t digestlen)
{
    int st = verify_args(key, hash_alg, mgf1_hash, sig, siglen, digest, digestlen);
    if (st != IC_OK)
        return st;
    size_t hlen = ic_hash_digest_size(hash_alg);
    if (!ic_rsa_pss_fits(&key->mont, hlen, salt_len))            /* 9.1.2 step 3 */
        return IC_ERR_PARAM;
    if (digestlen != hlen)
        return IC_ERR_SIZE;
    uint8_t m[IC_RSA_MAX_BYTES];
    st = rsavp1(key, sig, siglen, m);
    return st != IC_OK ? st : pss_decode(key, hash_alg, mgf1_hash, salt_len, m, digest);
}

int ic_rsa_verify_pss(const ic_rsa_public_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                      size_t salt_len, const uint8_t *sig, size_t siglen, const uint8_t *msg, size_t msglen)
{
    uint8_t digest[IC_HASH_MAX_DIGEST_SIZE];
    size_t hlen = 0;
    int st = verify_args(key, hash_alg, mgf1_hash, sig, siglen, msg, msglen);
    if (st == IC_OK)
        st = ic_rsa_digest(hash_alg, digest, &hlen, msg, msglen);
    return st != IC_OK ? st
                       : ic_rsa_verify_pss_digest(key, hash_alg, mgf1_hash, salt_len, sig, siglen, digest, hlen);
}

/* ---- RSAES-OAEP encryption ---------------------------------------------------- */

/* The checks of both encrypts, common.h's order; *hlen set on IC_OK.  The
 * seed is checked for NULL with the other pointers (seed NULL, seedlen 0
 * for the call that draws its own). */
static int oaep_enc_args(const ic_rsa_public_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                         const uint8_t *ct, size_t ctlen, const uint8_t *msg, size_t msglen,
                         const uint8_t *label, size_t labellen, const uint8_t *seed, size_t seedlen,
                         size_t *hlen)
{
    if (key == NULL)
        return IC_ERR_NULL;
    if (!ic_rsa_public_ok(key))
        return IC_ERR_STATE;
    if (ct == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(msg, msglen);
    IC_NULL_CHECK(label, labellen);
    IC_NULL_CHECK(seed, seedlen);
    size_t k = key->mont.nbytes;
    *hlen = ic_hash_digest_size(hash_alg);
    if (*hlen == 0 || ic_hash_digest_size(mgf1_hash) == 0 || k < 2 * *hlen + 2)
        return IC_ERR_PARAM;
    if (ctlen != k)
        return IC_ERR_SIZE;
    if (msglen > k - 2 * *hlen - 2)                              /* 7.1.1 step 1b */
        return IC_ERR_TOOLONG;
    return IC_OK;
}

/* EME-OAEP encoding (RFC 8017 7.1.1 step 2) with the given seed, then
 * RSAEP: EM = 00 || maskedSeed || maskedDB, DB = lHash || PS || 01 || M. */
static int oaep_encrypt(const ic_rsa_public_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                        uint8_t *ct, const uint8_t *msg, size_t msglen, const uint8_t *label,
                        size_t labellen, const uint8_t *seed, size_t hlen)
{
    size_t k = key->mont.nbytes, dblen = k - hlen - 1;
    uint8_t em[IC_RSA_MAX_BYTES];
    uint8_t *mseed = em + 1, *db = em + 1 + hlen;
    size_t lhlen = 0;
    em[0] = 0;
    if (ic_rsa_digest(hash_alg, db, &lhlen, label, labellen) != IC_OK)
        return IC_ERR_PARAM;
    memset(db + hlen, 0, dblen - hlen - msglen - 1);
    db[dblen - msglen - 1] = 0x01;
    if (msglen)
        memcpy(db + dblen - msglen, msg, msglen);
    memcpy(mseed, seed, hlen);
    int st = ic_rsa_mgf1_xor(mgf1_hash, mseed, hlen, db, dblen);  /* maskedDB */
    if (st == IC_OK)
        st = ic_rsa_mgf1_xor(mgf1_hash, db, dblen, mseed, hlen);   /* maskedSeed */
    /* EM < 2^(8(k-1)) <= n: never IC_ERR_RANGE */
    if (st == IC_OK)
        st = ic_mont_modexp_public(&key->mont, ct, k, em, k, key->e, key->elen);
    ic_wipe(em, k);
    return st;
}

int ic_rsa_encrypt_oaep_seed(const ic_rsa_public_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                             uint8_t *ct, size_t ctlen, const uint8_t *msg, size_t msglen,
                             const uint8_t *label, size_t labellen, const uint8_t *seed, size_t seedlen)
{
    size_t hlen = 0;
    int st = oaep_enc_args(key, hash_alg, mgf1_hash, ct, ctlen, msg, msglen, label, labellen, seed, seedlen,
                           &hlen);
    if (st != IC_OK)
        return st;
    if (seedlen != hlen)
        return IC_ERR_PARAM;
    return oaep_encrypt(key, hash_alg, mgf1_hash, ct, msg, msglen, label, labellen, seed, hlen);
}

int ic_rsa_encrypt_oaep(const ic_rsa_public_key *key, ic_hash_alg hash_alg, ic_hash_alg mgf1_hash,
                        uint8_t *ct, size_t ctlen, const uint8_t *msg, size_t msglen,
                        const uint8_t *label, size_t labellen)
{
    size_t hlen = 0;
    int st = oaep_enc_args(key, hash_alg, mgf1_hash, ct, ctlen, msg, msglen, label, labellen, NULL, 0, &hlen);
    if (st != IC_OK)
        return st;
    uint8_t seed[IC_HASH_MAX_DIGEST_SIZE];
    st = ic_random(seed, hlen);
    if (st == IC_OK)
        st = oaep_encrypt(key, hash_alg, mgf1_hash, ct, msg, msglen, label, labellen, seed, hlen);
    ic_wipe(seed, sizeof seed);
    return st;
}
