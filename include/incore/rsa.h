/*
 * incore/rsa.h - RSA (RFC 8017): public keys (n, e) and private keys (n, e,
 * d, p, q, dp, dq, qinv), given as numbers or read from their standard
 * encodings (PKCS #1, X.509 SubjectPublicKeyInfo, PKCS #8; DER or PEM);
 * RSASSA-PKCS1-v1_5 and RSASSA-PSS (MGF1) signatures of a message or of a
 * digest the caller computed, sign and verify; RSAES-OAEP (MGF1)
 * encryption and decryption.  No key generation.
 *
 * Every call takes the key first, then the parameters that choose the
 * scheme (hash, MGF1 hash, PSS salt length), then the output with its
 * length, then the data, then the other inputs (label, salt, seed).  A
 * verify takes the signature where the matching sign writes it.
 *
 * The public key is a complete type the caller owns (about 3.7 KB, no
 * allocation): the Montgomery context of n (incore/bignum.h, so the
 * "montmul" backend selected at init) and e.  Moduli of
 * IC_RSA_MIN_BITS..IC_RSA_MAX_BITS bits; e odd, 3 <= e < n.  Everything
 * here is public data, so the exponentiation is ic_mont_modexp_public
 * (variable time in e).
 *
 * Hashes: every ic_hash_alg: SHA-1, SHA-224, SHA-256, SHA-384, SHA-512,
 * SHA-512/224, SHA-512/256, for the message and for MGF1.  SHA-1 is there
 * for old signatures; new ones should use SHA-256 or stronger.  The
 * _digest forms take Hash(message) instead of the message (digestlen =
 * ic_hash_digest_size(hash_alg), else IC_ERR_SIZE); the message forms
 * hash the message and call them, so both give the same signature.
 *
 * Statuses, in the order of common.h's checks:
 *   ic_rsa_public_key_init: NULL key: IC_ERR_NULL (the key is wiped
 *     first, and again on every failure); NULL n or e with a non-zero
 *     length: IC_ERR_NULL; e (leading zero bytes stripped) longer than n
 *     (likewise): IC_ERR_SIZE; n empty, under IC_RSA_MIN_BITS or over
 *     IC_RSA_MAX_BITS bits: IC_ERR_MODULUS; n even: IC_ERR_EVEN; e >= n:
 *     IC_ERR_RANGE; e 0, 1 or even: IC_ERR_EXPONENT.
 *   ic_rsa_verify_*: NULL key: IC_ERR_NULL; a key init never set up (or
 *     wiped, or garbage): IC_ERR_STATE; NULL sig, msg or digest with a
 *     non-zero length: IC_ERR_NULL; a hash_alg or mgf1_hash that is not
 *     an ic_hash_alg: IC_ERR_PARAM; a PSS salt_len that cannot fit the
 *     key (emLen < hLen + salt_len + 2, RFC 8017 9.1.2 step 3, true of
 *     every signature): IC_ERR_PARAM; a digestlen other than hLen:
 *     IC_ERR_SIZE.  Then the signature: IC_OK when it verifies,
 *     IC_ERR_AUTH for every defect of the signature itself, including a
 *     length other than the modulus's byte length and a representative
 *     >= n (RFC 8017 8.1.2/8.2.2 say "invalid signature" for both; a
 *     caller needs no other status for attacker data).
 *   ic_rsa_encrypt_oaep / _seed: NULL key: IC_ERR_NULL; a bad key:
 *     IC_ERR_STATE; NULL ct, NULL msg or label with a non-zero length, a
 *     NULL seed with seedlen > 0: IC_ERR_NULL; a hash or MGF1 hash that
 *     is not an ic_hash_alg, or one too long for the key (k < 2 hLen +
 *     2), or seedlen != hLen: IC_ERR_PARAM; ctlen != k: IC_ERR_SIZE;
 *     msglen > k - 2 hLen - 2: IC_ERR_TOOLONG.
 *
 * PKCS #1 v1.5 is checked by building the whole expected encoding
 * EM' = 00 01 FF..FF 00 || DigestInfo(hash) and comparing it with the
 * recovered EM (RFC 8017 8.2.2 step 3-4): no ASN.1 is parsed, so no lenient
 * parser can be fooled (the Bleichenbacher 2006 e=3 forgery and its kin).
 * DigestInfo is the form with the NULL parameters (RFC 8017 9.2 note 1).
 */
#ifndef INCORE_RSA_H
#define INCORE_RSA_H

#include "incore/common.h"
#include "incore/bignum.h"
#include "incore/sha.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_RSA_MIN_BITS   1024
#define IC_RSA_MAX_BITS   IC_BN_MAX_BITS            /* 8192 */
#define IC_RSA_MAX_BYTES  (IC_RSA_MAX_BITS / 8)
/* Each prime of a private key has at most half the maximum bits. */
#define IC_RSA_MAX_PRIME_BYTES (IC_RSA_MAX_BYTES / 2)
/* The longest DER a _from_pem call decodes (its buffer is on the stack):
 * an 8192-bit private key in PKCS #8 takes about 5.7 KB, the rest is room
 * for PKCS #8 attributes. */
#define IC_RSA_MAX_PEM_DER 8192

typedef struct ic_rsa_public_key {
    ic_mont_ctx mont;                 /* n and its Montgomery constants       */
    uint8_t e[IC_RSA_MAX_BYTES];      /* e, big-endian, no leading zero byte  */
    uint32_t elen;                    /* its byte length, 1..mont.nbytes      */
    uint32_t check;                   /* set by init, cleared by wipe         */
} ic_rsa_public_key;

/* key = (n, e), both big-endian with leading zero bytes allowed. */
IC_NODISCARD IC_API int ic_rsa_public_key_init(ic_rsa_public_key *key, const uint8_t *n, size_t nlen,
                                               const uint8_t *e, size_t elen);
/* Byte length k of the modulus (the length of every signature); 0 for a
 * NULL or invalid key. */
IC_API size_t ic_rsa_public_key_size(const ic_rsa_public_key *key);
IC_API void ic_rsa_public_key_wipe(ic_rsa_public_key *key);

/* RSASSA-PKCS1-V1_5-VERIFY (RFC 8017 8.2.2): IC_OK or IC_ERR_AUTH. */
IC_NODISCARD IC_API int ic_rsa_verify_pkcs1v15(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                                               const uint8_t *sig, size_t siglen,
                                               const uint8_t *msg, size_t msglen);
/* The same for digest = Hash(M), digestlen = hLen. */
IC_NODISCARD IC_API int ic_rsa_verify_pkcs1v15_digest(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                                                      const uint8_t *sig, size_t siglen,
                                                      const uint8_t *digest, size_t digestlen);
/* RSASSA-PSS-VERIFY (RFC 8017 8.1.2, EMSA-PSS-VERIFY 9.1.2) with MGF1 over
 * mgf1_hash and a salt of exactly salt_len bytes: IC_OK or IC_ERR_AUTH. */
IC_NODISCARD IC_API int ic_rsa_verify_pss(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                                          ic_hash_alg mgf1_hash, size_t salt_len,
                                          const uint8_t *sig, size_t siglen,
                                          const uint8_t *msg, size_t msglen);
/* The same for digest = mHash = Hash(M) (9.1.2 step 2), digestlen = hLen. */
IC_NODISCARD IC_API int ic_rsa_verify_pss_digest(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                                                 ic_hash_alg mgf1_hash, size_t salt_len,
                                                 const uint8_t *sig, size_t siglen,
                                                 const uint8_t *digest, size_t digestlen);

/* RSAES-OAEP-ENCRYPT (RFC 8017 7.1.1) with the label (any length, NULL
 * for none) hashed with hash_alg and MGF1 over mgf1_hash; the seed comes
 * from ic_random.  ct is exactly k bytes.  IC_OK, an argument status (see
 * above), IC_ERR_TOOLONG for msglen > k - 2 hLen - 2, or ic_random's
 * failure (IC_ERR_UNAVAILABLE, ct untouched). */
IC_NODISCARD IC_API int ic_rsa_encrypt_oaep(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                                            ic_hash_alg mgf1_hash, uint8_t *ct, size_t ctlen,
                                            const uint8_t *msg, size_t msglen,
                                            const uint8_t *label, size_t labellen);
/* The same with the caller's seed (seedlen = hLen, else IC_ERR_PARAM): for
 * known-answer tests only; a seed that is not fresh and random breaks
 * OAEP's security. */
IC_NODISCARD IC_API int ic_rsa_encrypt_oaep_seed(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                                                 ic_hash_alg mgf1_hash, uint8_t *ct, size_t ctlen,
                                                 const uint8_t *msg, size_t msglen,
                                                 const uint8_t *label, size_t labellen,
                                                 const uint8_t *seed, size_t seedlen);

/* ---- private keys ------------------------------------------------------------
 *
 * A private key is the public key (n, e) plus the CRT parts (p, q, dp, dq,
 * qinv), a complete type of about 10 KB the caller owns.  d is checked
 * (0 < d < n) but not kept: every private operation runs by the CRT.
 *
 * ic_rsa_private_key_init(key, n, e, d, p, q, dp, dq, qinv), each with its
 * length, all big-endian with leading zero bytes allowed, checks in
 * common.h's order (the key is wiped first, and again on every failure):
 *   NULL key or a NULL part with a non-zero length: IC_ERR_NULL;
 *   IC_ERR_SIZE: e longer than n (leading zeros stripped) or any secret
 *     part given in more bytes than n has;
 *   n and e as ic_rsa_public_key_init (IC_ERR_MODULUS, IC_ERR_EVEN,
 *     IC_ERR_RANGE, IC_ERR_EXPONENT);
 *   p and q: below 3 or over IC_RSA_MAX_BITS / 2 bits: IC_ERR_MODULUS;
 *     even: IC_ERR_EVEN; their bit lengths not summing to n's (or n's +
 *     1), or p q != n: IC_ERR_MODULUS;
 *   d >= n, dp >= p, dq >= q, qinv >= p: IC_ERR_RANGE;
 *   d, dp or dq zero: IC_ERR_EXPONENT;
 *   q qinv != 1 mod p, or a CRT decryption of x^e (a fixed x) that does
 *     not give x back (dp or dq wrong): IC_ERR_PARAM.
 * The secret parts are checked in constant time; only the verdicts and
 * the bit lengths of p and q become public.  Init costs about one private
 * operation (the last check).
 *
 * The private operation (RSASP1 / RSADP, RFC 8017 5.1.2, 5.2.1) on a
 * representative c < n:
 *   - the CRT (RFC 8017 5.1.2 step 2b) with base blinding (Kocher 1996)
 *     on each prime: m1 = (c rp^e)^dp rp^-1 mod p and m2 = (c rq^e)^dq
 *     rq^-1 mod q for fresh random rp < p and rq < q from ic_random
 *     (ic_mont_modexp, constant time; the inverses constant time too),
 *     then h = (m1 - m2) qinv mod p, m = m2 + h q; c mod p, c mod q by a
 *     constant-time reduction;
 *   - the result m is checked, m^e = c mod n, before it is released: a
 *     fault in one half (the Boneh-DeMillo-Lipton attack) would otherwise
 *     give away a factor of n.  A failed check is IC_ERR_FAULT and nothing
 *     is written.
 * Time depends on the lengths of n, p, q and e and on e's value, never on
 * the secret parts nor on c.
 *
 * Sign and decrypt statuses, in common.h's order: NULL key: IC_ERR_NULL;
 * a key init never set up (wiped, garbage): IC_ERR_STATE; NULL data with a
 * non-zero length, a NULL sig/out/outlen: IC_ERR_NULL; a hash that is not
 * an ic_hash_alg: IC_ERR_PARAM; a PSS salt that cannot fit (emLen < hLen
 * + salt_len + 2) or an OAEP hash too long for the key (k < 2 hLen + 2):
 * IC_ERR_PARAM; siglen other than k, a digestlen other than hLen, an OAEP
 * out buffer below k - 2 hLen - 2 bytes: IC_ERR_SIZE; then ic_random's
 * failure (IC_ERR_UNAVAILABLE), IC_ERR_FAULT, and for decryption
 * IC_ERR_AUTH.
 */
typedef struct ic_rsa_private_key {
    ic_rsa_public_key pub;                  /* n and e: the public half         */
    ic_mont_ctx p, q;                       /* the primes' Montgomery contexts   */
    uint8_t dp[IC_RSA_MAX_PRIME_BYTES];     /* d mod (p - 1), in p's byte length */
    uint8_t dq[IC_RSA_MAX_PRIME_BYTES];     /* d mod (q - 1), in q's byte length */
    uint8_t qinv[IC_RSA_MAX_PRIME_BYTES];   /* q^-1 mod p, in p's byte length    */
    uint32_t check;                         /* set by init, cleared by wipe      */
} ic_rsa_private_key;

IC_NODISCARD IC_API int ic_rsa_private_key_init(ic_rsa_private_key *key,
                                                const uint8_t *n, size_t nlen, const uint8_t *e, size_t elen,
                                                const uint8_t *d, size_t dlen,
                                                const uint8_t *p, size_t plen, const uint8_t *q, size_t qlen,
                                                const uint8_t *dp, size_t dplen, const uint8_t *dq, size_t dqlen,
                                                const uint8_t *qinv, size_t qinvlen);
/* k, the byte length of n; 0 for a NULL or invalid key. */
IC_API size_t ic_rsa_private_key_size(const ic_rsa_private_key *key);
IC_API void ic_rsa_private_key_wipe(ic_rsa_private_key *key);

/* RSASSA-PKCS1-V1_5-SIGN (RFC 8017 8.2.1): sig = k bytes, deterministic. */
IC_NODISCARD IC_API int ic_rsa_sign_pkcs1v15(const ic_rsa_private_key *key, ic_hash_alg hash_alg,
                                             uint8_t *sig, size_t siglen,
                                             const uint8_t *msg, size_t msglen);
/* The same for digest = Hash(M), digestlen = hLen: the signature the
 * message form gives for M. */
IC_NODISCARD IC_API int ic_rsa_sign_pkcs1v15_digest(const ic_rsa_private_key *key, ic_hash_alg hash_alg,
                                                    uint8_t *sig, size_t siglen,
                                                    const uint8_t *digest, size_t digestlen);
/* RSASSA-PSS-SIGN (RFC 8017 8.1.1, EMSA-PSS-ENCODE 9.1.1) with MGF1 over
 * mgf1_hash and a salt of salt_len bytes from ic_random (hLen is the usual
 * choice). */
IC_NODISCARD IC_API int ic_rsa_sign_pss(const ic_rsa_private_key *key, ic_hash_alg hash_alg,
                                        ic_hash_alg mgf1_hash, size_t salt_len,
                                        uint8_t *sig, size_t siglen,
                                        const uint8_t *msg, size_t msglen);
/* The same for digest = mHash = Hash(M) (9.1.1 step 2), digestlen = hLen. */
IC_NODISCARD IC_API int ic_rsa_sign_pss_digest(const ic_rsa_private_key *key, ic_hash_alg hash_alg,
                                               ic_hash_alg mgf1_hash, size_t salt_len,
                                               uint8_t *sig, size_t siglen,
                                               const uint8_t *digest, size_t digestlen);
/* ic_rsa_sign_pss with the caller's salt (NULL only with saltlen 0): for
 * known-answer tests, or a deliberate deterministic (saltlen 0) PSS. */
IC_NODISCARD IC_API int ic_rsa_sign_pss_salt(const ic_rsa_private_key *key, ic_hash_alg hash_alg,
                                             ic_hash_alg mgf1_hash, uint8_t *sig, size_t siglen,
                                             const uint8_t *msg, size_t msglen,
                                             const uint8_t *salt, size_t saltlen);
/* RSAES-OAEP-DECRYPT (RFC 8017 7.1.2): on IC_OK the message is in
 * out[0..*outlen); outcap must be at least k - 2 hLen - 2 (the longest
 * message) whatever the message.  Every defect of the ciphertext (length
 * other than k, c >= n, any padding fault) is the one status IC_ERR_AUTH,
 * with out and *outlen untouched; the padding is checked in constant
 * time, the leading zero byte together with the rest, so that no Manger
 * (2001) or Bleichenbacher-style oracle exists in the status or the time. */
IC_NODISCARD IC_API int ic_rsa_decrypt_oaep(const ic_rsa_private_key *key, ic_hash_alg hash_alg,
                                            ic_hash_alg mgf1_hash, uint8_t *out, size_t outcap,
                                            size_t *outlen, const uint8_t *ct, size_t ctlen,
                                            const uint8_t *label, size_t labellen);

/* ---- keys in their standard encodings ----------------------------------------
 *
 * ic_rsa_public_key_from_der reads a PKCS #1 RSAPublicKey (RFC 8017 A.1.1)
 * or an X.509 SubjectPublicKeyInfo (RFC 5280 4.1, algorithm rsaEncryption
 * 1.2.840.113549.1.1.1 with NULL parameters, RFC 3279 2.3.1, the key in
 * the BIT STRING); ic_rsa_private_key_from_der a PKCS #1 RSAPrivateKey
 * (version 0, two primes, RFC 8017 A.1.2) or an unencrypted PKCS #8
 * PrivateKeyInfo (RFC 5208 5: version 0, rsaEncryption with NULL
 * parameters, the RSAPrivateKey in the OCTET STRING; [0] attributes are
 * skipped).  The _from_pem forms read RFC 7468 text: "RSA PUBLIC KEY"
 * (PKCS #1) and "PUBLIC KEY" (SubjectPublicKeyInfo); "RSA PRIVATE KEY"
 * (PKCS #1) and "PRIVATE KEY" (PKCS #8).  What OpenSSL writes with
 * genpkey, pkey, rsa -traditional, rsa -pubout and rsa -RSAPublicKey_out
 * loads.
 *
 * The reader is strict: DER only (definite lengths in the fewest bytes,
 * INTEGERs in the fewest bytes, no negative number, no tag the structure
 * does not name, no byte after the structure); PEM as one BEGIN line, the
 * base64 lines (the alphabet of RFC 4648 4, '=' padding to a multiple of
 * four characters, the unused bits of the last character zero; line
 * breaks, CR or LF, are the only other bytes allowed between the
 * characters), the END line with the same label (labels are printable
 * ASCII without '-'), and nothing after it but whitespace (whitespace
 * before the BEGIN line too).  The numbers then go through
 * ic_rsa_public_key_init / ic_rsa_private_key_init, with all their checks.
 *
 * Statuses: NULL key: IC_ERR_NULL; the key is wiped first, and stays
 * wiped on every failure; NULL der / pem with a non-zero length:
 * IC_ERR_NULL; a PEM whose base64 holds more than IC_RSA_MAX_PEM_DER
 * bytes: IC_ERR_TOOLONG; an encoding that breaks the rules above or is
 * not one of the structures: IC_ERR_DECODE; a well-formed key of a kind
 * these calls do not load: IC_ERR_PARAM (another algorithm or PEM label,
 * an encrypted private key: "ENCRYPTED PRIVATE KEY" or a "Proc-Type:
 * 4,ENCRYPTED" header, a multi-prime RSAPrivateKey of version 1, a PKCS
 * #8 OneAsymmetricKey of version 1 (RFC 5958)); then init's statuses for
 * the numbers (a p q that is not n: IC_ERR_MODULUS, ...).
 * The private key calls take the encoding as secret: the base64 is
 * decoded in constant time into a buffer on the stack (IC_RSA_MAX_PEM_DER
 * bytes) that is wiped before the call returns, and the reader branches
 * only on the structure (tags, lengths, the version, the OID, the PEM
 * framing) and on n and e, never on the value of a secret number.
 * Nothing allocates.
 */
IC_NODISCARD IC_API int ic_rsa_public_key_from_der(ic_rsa_public_key *key, const uint8_t *der, size_t derlen);
IC_NODISCARD IC_API int ic_rsa_public_key_from_pem(ic_rsa_public_key *key, const uint8_t *pem, size_t pemlen);
IC_NODISCARD IC_API int ic_rsa_private_key_from_der(ic_rsa_private_key *key, const uint8_t *der, size_t derlen);
IC_NODISCARD IC_API int ic_rsa_private_key_from_pem(ic_rsa_private_key *key, const uint8_t *pem, size_t pemlen);

#ifdef __cplusplus
}
#endif
#endif
