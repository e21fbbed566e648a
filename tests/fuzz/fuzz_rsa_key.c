/*
 * fuzz_rsa_key.c - the RSA key readers (incore/rsa.h:
 * ic_rsa_public_key_from_der / _from_pem, ic_rsa_private_key_from_der /
 * _from_pem) on fuzzer bytes.
 *
 * The first byte picks the call (its low two bits: public DER, public
 * PEM, private DER, private PEM); the rest of the input is the encoding,
 * in a buffer of exactly its length (a read past it is ASan's).  The seed
 * corpus is the committed OpenSSL keys of tests/vectors/rsa_keys/ behind
 * that byte, so the fuzzer starts from keys that load and mutates them.
 *   - The status is IC_OK or one the header documents for these calls
 *     (IC_ERR_DECODE, IC_ERR_PARAM, IC_ERR_TOOLONG for PEM, init's
 *     IC_ERR_MODULUS, IC_ERR_EVEN, IC_ERR_RANGE, IC_ERR_EXPONENT,
 *     IC_ERR_SIZE); a refused key is all zero.
 *   - A loaded key works: a public key has its size; a private key signs
 *     a digest (PKCS #1 v1.5) and its public half verifies it.
 *   - A DER that loads, wrapped here in PEM under the label of its form,
 *     loads from the PEM call to the same key (byte for byte), so the PEM
 *     path agrees with the DER path on everything the fuzzer reaches.
 */
#include "fuzz_common.h"

static ic_rsa_public_key pub, pub2;
static ic_rsa_private_key priv, priv2;

static int documented(int st, int pem)
{
    return st == IC_OK || st == IC_ERR_DECODE || st == IC_ERR_PARAM || (pem && st == IC_ERR_TOOLONG) ||
           st == IC_ERR_MODULUS || st == IC_ERR_EVEN || st == IC_ERR_RANGE || st == IC_ERR_EXPONENT ||
           st == IC_ERR_SIZE;
}

static int all_zero(const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= b[i];
    return acc == 0;
}

/* The wrapped form (SubjectPublicKeyInfo, PrivateKeyInfo) when the first
 * element inside the outer SEQUENCE, after the version of a private key,
 * is a SEQUENCE; the PKCS #1 form otherwise.  Only asked of a DER that
 * loaded, so its headers are sound. */
static int wrapped(const uint8_t *der, int is_priv)
{
    size_t i = 1 + (der[1] < 0x80 ? 1 : 1 + (der[1] & 0x7f));
    if (is_priv)
        i += 3;                                  /* the version: 02 01 00 */
    return der[i] == 0x30;
}

/* der (n bytes) as PEM under label, lines of 64, into a malloc'd buffer. */
static uint8_t *to_pem(const uint8_t *der, size_t n, const char *label, size_t *len)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t cap = 64 + 2 * strlen(label) + (n + 2) / 3 * 4 + n / 48 + 2;
    uint8_t *out = (uint8_t *)malloc(cap);
    FZ_CHECK(out != NULL, "out of memory");
    size_t o = (size_t)snprintf((char *)out, cap, "-----BEGIN %s-----\n", label), col = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)der[i] << 16 | (i + 1 < n ? (uint32_t)der[i + 1] << 8 : 0) |
                     (i + 2 < n ? der[i + 2] : 0);
        char q[4] = { b64[v >> 18], b64[v >> 12 & 63], i + 1 < n ? b64[v >> 6 & 63] : '=',
                      i + 2 < n ? b64[v & 63] : '=' };
        memcpy(out + o, q, 4), o += 4, col += 4;
        if (col == 64 || i + 3 >= n)
            out[o++] = '\n', col = 0;
    }
    o += (size_t)snprintf((char *)out + o, cap - o, "-----END %s-----\n", label);
    *len = o;
    return out;
}

/* A DER that loaded: the PEM call on it wrapped in PEM gives the same key. */
static void pem_agrees(const uint8_t *der, size_t n, int is_priv)
{
    const char *label = is_priv ? (wrapped(der, 1) ? "PRIVATE KEY" : "RSA PRIVATE KEY")
                                : (wrapped(der, 0) ? "PUBLIC KEY" : "RSA PUBLIC KEY");
    size_t len;
    uint8_t *pem = to_pem(der, n, label, &len);
    int st = is_priv ? ic_rsa_private_key_from_pem(&priv2, pem, len) : ic_rsa_public_key_from_pem(&pub2, pem, len);
    FZ_CHECK(st == IC_OK, "the DER loads, the same as %s PEM gives %d", label, st);
    FZ_CHECK(is_priv ? memcmp(&priv, &priv2, sizeof priv) == 0 : memcmp(&pub, &pub2, sizeof pub) == 0,
             "the %s PEM gives another key than its DER", label);
    free(pem);
}

/* A loaded key works. */
static void key_works(int is_priv)
{
    if (!is_priv) {
        FZ_CHECK(ic_rsa_public_key_size(&pub) >= IC_RSA_MIN_BITS / 8, "a loaded public key has no size");
        return;
    }
    uint8_t d[32] = { 0x5a }, sig[IC_RSA_MAX_BYTES];
    size_t k = ic_rsa_private_key_size(&priv);
    FZ_CHECK(k >= IC_RSA_MIN_BITS / 8, "a loaded private key has no size");
    int st = ic_rsa_sign_pkcs1v15_digest(&priv, IC_HASH_SHA256, sig, k, d, sizeof d);
    FZ_CHECK(st == IC_OK, "a loaded private key signs: %d", st);
    st = ic_rsa_verify_pkcs1v15_digest(&priv.pub, IC_HASH_SHA256, sig, k, d, sizeof d);
    FZ_CHECK(st == IC_OK, "its public half verifies the signature: %d", st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    unsigned op = fz_u8(&in) & 3;
    int is_priv = op >= 2, pem = op & 1;
    size_t n = in.n;
    uint8_t *enc = (uint8_t *)malloc(n ? n : 1);      /* exactly the encoding's bytes */
    FZ_CHECK(enc != NULL, "out of memory");
    fz_take(&in, enc, n);
    memset(&pub, 0xa5, sizeof pub);
    memset(&priv, 0xa5, sizeof priv);
    int st = is_priv ? (pem ? ic_rsa_private_key_from_pem(&priv, enc, n) : ic_rsa_private_key_from_der(&priv, enc, n))
                     : (pem ? ic_rsa_public_key_from_pem(&pub, enc, n) : ic_rsa_public_key_from_der(&pub, enc, n));
    FZ_CHECK(documented(st, pem), "op %u on %zu bytes: status %d", op, n, st);
    if (st != IC_OK) {
        FZ_CHECK(is_priv ? all_zero(&priv, sizeof priv) : all_zero(&pub, sizeof pub), "a refused key is not wiped");
    } else {
        key_works(is_priv);
        if (!pem)
            pem_agrees(enc, n, is_priv);
    }
    free(enc);
    return 0;
}
