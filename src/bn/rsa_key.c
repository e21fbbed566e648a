/*
 * rsa_key.c - RSA keys from their standard encodings (incore/rsa.h):
 * PKCS #1 RSAPublicKey and RSAPrivateKey (RFC 8017 A.1), X.509
 * SubjectPublicKeyInfo (RFC 5280 4.1.2.7, RFC 3279 2.3.1), PKCS #8
 * PrivateKeyInfo (RFC 5208 5), as DER or as PEM (RFC 7468), read by the
 * strict reader of der.c into the numbers ic_rsa_public_key_init and
 * ic_rsa_private_key_init check.
 *
 * Which structure a DER holds follows from its first elements, so there
 * is never a second try: the outer SEQUENCE of a public key starts with a
 * SEQUENCE (SubjectPublicKeyInfo's AlgorithmIdentifier) or an INTEGER
 * (RSAPublicKey's n); the version of a private key is followed by a
 * SEQUENCE (PrivateKeyInfo) or an INTEGER (RSAPrivateKey's n).  A PEM
 * label names one structure and the DER under it must be that one.
 *
 * A private key's bytes are secret: n and e are made public once read
 * (they are the public key), every other number goes to init as it
 * stands, and the PEM's DER lives in a stack buffer wiped before return.
 */
#include "bn/der.h"
#include "bn/rsa_impl.h"
#include "core/ct.h"

#include <string.h>

/* The structure a call reads: either (DER), or the one a PEM label names. */
typedef enum { FORM_ANY, FORM_PKCS1, FORM_WRAPPED } key_form;

/* ---- pieces ------------------------------------------------------------------ */

/* AlgorithmIdentifier { rsaEncryption, NULL } (RFC 3279 2.3.1: the
 * parameters are NULL).  Another algorithm is IC_ERR_PARAM. */
static int read_rsa_alg(ic_der *d)
{
    static const uint8_t rsa_encryption[9] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01 };
    ic_der alg, oid;
    if (ic_der_read(d, IC_DER_SEQUENCE, &alg) != IC_OK || ic_der_oid(&alg, &oid) != IC_OK)
        return IC_ERR_DECODE;
    if (oid.n != sizeof rsa_encryption || memcmp(oid.p, rsa_encryption, oid.n) != 0)
        return IC_ERR_PARAM;
    return ic_der_null(&alg) == IC_OK && ic_der_end(&alg) == IC_OK ? IC_OK : IC_ERR_DECODE;
}

/* Which form the outer SEQUENCE at d holds: after skip elements of the
 * given tag, a SEQUENCE means the wrapped form (SubjectPublicKeyInfo,
 * PrivateKeyInfo), anything else PKCS #1. */
static key_form form_of(const ic_der *d, uint8_t skip_tag)
{
    ic_der t = *d, s, skipped;
    if (ic_der_read(&t, IC_DER_SEQUENCE, &s) != IC_OK)
        return FORM_PKCS1;                    /* whichever: the reader refuses it */
    if (skip_tag != 0 && ic_der_read(&s, skip_tag, &skipped) != IC_OK)
        return FORM_PKCS1;
    return ic_der_next_is(&s, IC_DER_SEQUENCE) ? FORM_WRAPPED : FORM_PKCS1;
}

/* The form to read: the PEM's, which the DER must have, or the DER's. */
static int pick_form(const ic_der *d, uint8_t skip_tag, key_form want, key_form *form)
{
    *form = form_of(d, skip_tag);
    return want == FORM_ANY || want == *form ? IC_OK : IC_ERR_DECODE;
}

/* The leading zero bytes of a public number (n, e) skipped. */
static size_t public_len(const ic_der *v)
{
    size_t i = 0;
    while (i < v->n && v->p[i] == 0)
        i++;
    return v->n - i;
}

/* ---- public keys --------------------------------------------------------------- */

/* RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER },
 * the whole of d. */
static int read_rsa_public(ic_der *d, ic_der *n, ic_der *e)
{
    ic_der s;
    if (ic_der_read(d, IC_DER_SEQUENCE, &s) != IC_OK || ic_der_uint(&s, n) != IC_OK ||
        ic_der_uint(&s, e) != IC_OK || ic_der_end(&s) != IC_OK || ic_der_end(d) != IC_OK)
        return IC_ERR_DECODE;
    return IC_OK;
}

/* SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier,
 * subjectPublicKey BIT STRING }, the BIT STRING holding an RSAPublicKey;
 * the whole of d. */
static int read_spki(ic_der *d, ic_der *n, ic_der *e)
{
    ic_der s, bits;
    if (ic_der_read(d, IC_DER_SEQUENCE, &s) != IC_OK)
        return IC_ERR_DECODE;
    int st = read_rsa_alg(&s);
    if (st != IC_OK)
        return st;
    if (ic_der_bits(&s, &bits) != IC_OK || ic_der_end(&s) != IC_OK || ic_der_end(d) != IC_OK)
        return IC_ERR_DECODE;
    return read_rsa_public(&bits, n, e);
}

static int public_from_der(ic_rsa_public_key *key, const uint8_t *der, size_t derlen, key_form want)
{
    ic_der d = { der, derlen }, n, e;
    key_form form;
    int st = pick_form(&d, 0, want, &form);
    if (st == IC_OK)
        st = form == FORM_WRAPPED ? read_spki(&d, &n, &e) : read_rsa_public(&d, &n, &e);
    return st != IC_OK ? st : ic_rsa_public_key_init(key, n.p, n.n, e.p, e.n);
}

int ic_rsa_public_key_from_der(ic_rsa_public_key *key, const uint8_t *der, size_t derlen)
{
    if (key == NULL)
        return IC_ERR_NULL;
    ic_wipe(key, sizeof *key);
    IC_NULL_CHECK(der, derlen);
    return public_from_der(key, der, derlen, FORM_ANY);
}

/* ---- private keys --------------------------------------------------------------- */

enum { P_N, P_E, P_D, P_P, P_Q, P_DP, P_DQ, P_QINV, P_PARTS };

/* A secret number of a key whose modulus has k bytes: its sign byte
 * dropped when it would make it longer than k (d of k bytes with its top
 * bit set).  Whether that byte is zero is the verdict made public: a
 * number of k + 1 bytes that does not start with it is over n, which
 * init refuses for its length. */
static void drop_sign_byte(ic_der *v, size_t k)
{
    if (v->n != k + 1)
        return;
    unsigned zero = ((unsigned)v->p[0] - 1) >> 8 & 1;
    ic_ct_declassify(&zero, sizeof zero);
    if (zero)
        v->p++, v->n--;
}

/* RSAPrivateKey (RFC 8017 A.1.2), the whole of d: version 0 (two primes;
 * 1, multi-prime, is IC_ERR_PARAM), then the eight numbers. */
static int read_rsa_private(ic_der *d, ic_der part[P_PARTS])
{
    ic_der s;
    unsigned version;
    if (ic_der_read(d, IC_DER_SEQUENCE, &s) != IC_OK || ic_der_small(&s, &version) != IC_OK)
        return IC_ERR_DECODE;
    if (version == 1)
        return IC_ERR_PARAM;
    if (version != 0)
        return IC_ERR_DECODE;
    for (int i = 0; i < P_PARTS; i++)
        if (ic_der_uint(&s, &part[i]) != IC_OK)
            return IC_ERR_DECODE;
    return ic_der_end(&s) == IC_OK && ic_der_end(d) == IC_OK ? IC_OK : IC_ERR_DECODE;
}

/* PrivateKeyInfo (RFC 5208 5), the whole of d: version 0 (1, RFC 5958's
 * OneAsymmetricKey with a public key, is IC_ERR_PARAM), rsaEncryption,
 * the RSAPrivateKey in the OCTET STRING, optional [0] attributes, which
 * are skipped. */
static int read_pkcs8(ic_der *d, ic_der part[P_PARTS])
{
    ic_der s, inner, attrs;
    unsigned version;
    if (ic_der_read(d, IC_DER_SEQUENCE, &s) != IC_OK || ic_der_small(&s, &version) != IC_OK)
        return IC_ERR_DECODE;
    if (version > 1)
        return IC_ERR_DECODE;
    int st = version == 1 ? IC_ERR_PARAM : read_rsa_alg(&s);
    if (st != IC_OK)
        return st;
    if (ic_der_read(&s, IC_DER_OCTETS, &inner) != IC_OK)
        return IC_ERR_DECODE;
    if (ic_der_next_is(&s, IC_DER_CTX0) && ic_der_read(&s, IC_DER_CTX0, &attrs) != IC_OK)
        return IC_ERR_DECODE;
    if (ic_der_end(&s) != IC_OK || ic_der_end(d) != IC_OK)
        return IC_ERR_DECODE;
    return read_rsa_private(&inner, part);
}

static int private_init(ic_rsa_private_key *key, ic_der part[P_PARTS])
{
    ic_ct_declassify(part[P_N].p, part[P_N].n);     /* the public key */
    ic_ct_declassify(part[P_E].p, part[P_E].n);
    size_t k = public_len(&part[P_N]);
    for (int i = P_D; i < P_PARTS; i++)
        drop_sign_byte(&part[i], k);
    return ic_rsa_private_key_init(key, part[P_N].p, part[P_N].n, part[P_E].p, part[P_E].n,
                                   part[P_D].p, part[P_D].n, part[P_P].p, part[P_P].n,
                                   part[P_Q].p, part[P_Q].n, part[P_DP].p, part[P_DP].n,
                                   part[P_DQ].p, part[P_DQ].n, part[P_QINV].p, part[P_QINV].n);
}

static int private_from_der(ic_rsa_private_key *key, const uint8_t *der, size_t derlen, key_form want)
{
    ic_der d = { der, derlen }, part[P_PARTS];
    key_form form;
    int st = pick_form(&d, IC_DER_INTEGER, want, &form);
    if (st == IC_OK)
        st = form == FORM_WRAPPED ? read_pkcs8(&d, part) : read_rsa_private(&d, part);
    return st != IC_OK ? st : private_init(key, part);
}

int ic_rsa_private_key_from_der(ic_rsa_private_key *key, const uint8_t *der, size_t derlen)
{
    if (key == NULL)
        return IC_ERR_NULL;
    ic_wipe(key, sizeof *key);
    IC_NULL_CHECK(der, derlen);
    return private_from_der(key, der, derlen, FORM_ANY);
}

/* ---- PEM ------------------------------------------------------------------------ */

/* 1 when the label (len bytes, public) is s. */
static int label_is(const uint8_t *label, size_t len, const char *s)
{
    return len == strlen(s) && memcmp(label, s, len) == 0;
}

/* The PEM framing and label: the base64 and the form its label names
 * (pkcs1_label for PKCS #1, wrapped_label for the other).  An encrypted
 * private key or another label is IC_ERR_PARAM. */
static int pem_body(const uint8_t *pem, size_t pemlen, const char *pkcs1_label, const char *wrapped_label,
                    const uint8_t **b64, size_t *b64len, key_form *form)
{
    const uint8_t *label;
    size_t llen;
    if (ic_pem_block(pem, pemlen, &label, &llen, b64, b64len) != IC_OK)
        return IC_ERR_DECODE;
    if (label_is(label, llen, pkcs1_label))
        *form = FORM_PKCS1;
    else if (label_is(label, llen, wrapped_label))
        *form = FORM_WRAPPED;
    else
        return IC_ERR_PARAM;                  /* "ENCRYPTED PRIVATE KEY", a certificate, ... */
    return ic_pem_encrypted(*b64, *b64len) ? IC_ERR_PARAM : IC_OK;
}

/* The DER of a PEM into der (IC_RSA_MAX_PEM_DER bytes), its form. */
static int pem_to_der(const uint8_t *pem, size_t pemlen, const char *pkcs1_label, const char *wrapped_label,
                      uint8_t *der, size_t *derlen, key_form *form)
{
    const uint8_t *b64;
    size_t b64len;
    int st = pem_body(pem, pemlen, pkcs1_label, wrapped_label, &b64, &b64len, form);
    return st != IC_OK ? st : ic_base64_decode(der, IC_RSA_MAX_PEM_DER, derlen, b64, b64len);
}

int ic_rsa_public_key_from_pem(ic_rsa_public_key *key, const uint8_t *pem, size_t pemlen)
{
    if (key == NULL)
        return IC_ERR_NULL;
    ic_wipe(key, sizeof *key);
    IC_NULL_CHECK(pem, pemlen);
    uint8_t der[IC_RSA_MAX_PEM_DER];
    size_t derlen = 0;
    key_form form;
    int st = pem_to_der(pem, pemlen, "RSA PUBLIC KEY", "PUBLIC KEY", der, &derlen, &form);
    if (st == IC_OK)
        st = public_from_der(key, der, derlen, form);
    return st;
}

int ic_rsa_private_key_from_pem(ic_rsa_private_key *key, const uint8_t *pem, size_t pemlen)
{
    if (key == NULL)
        return IC_ERR_NULL;
    ic_wipe(key, sizeof *key);
    IC_NULL_CHECK(pem, pemlen);
    uint8_t der[IC_RSA_MAX_PEM_DER];
    size_t derlen = 0;
    key_form form;
    int st = pem_to_der(pem, pemlen, "RSA PRIVATE KEY", "PRIVATE KEY", der, &derlen, &form);
    if (st == IC_OK)
        st = private_from_der(key, der, derlen, form);
    ic_wipe(der, sizeof der);
    return st;
}
