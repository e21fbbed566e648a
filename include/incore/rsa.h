/*
 * incore/rsa.h - RSA public-key operations (RFC 8017): a public key (n, e)
 * and signature verification with RSASSA-PKCS1-v1_5 and RSASSA-PSS (MGF1).
 * Private keys, signing and OAEP come later (issue 16).
 *
 * The key is a complete type the caller owns (about 3.7 KB, no allocation):
 * the Montgomery context of n (incore/bignum.h, so the "montmul" backend
 * selected at init) and e.  Moduli of IC_RSA_MIN_BITS..IC_RSA_MAX_BITS
 * bits; e odd, 3 <= e < n.  Everything here is public data, so the
 * exponentiation is ic_modexp_public (variable time in e).
 *
 * Hashes: every ic_hash_alg: SHA-1, SHA-224, SHA-256, SHA-384, SHA-512,
 * SHA-512/224, SHA-512/256, for the message and for MGF1.  SHA-1 is there
 * for old signatures; new ones should use SHA-256 or stronger.
 *
 * Statuses, in the order of common.h's checks:
 *   ic_rsa_public_init: NULL key: IC_ERR_NULL (the key is wiped first);
 *     NULL n or e with a non-zero length: IC_ERR_NULL; e (leading zero
 *     bytes stripped) longer than n (likewise): IC_ERR_SIZE; n empty,
 *     under IC_RSA_MIN_BITS or over IC_RSA_MAX_BITS bits: IC_ERR_MODULUS;
 *     n even: IC_ERR_EVEN; e >= n: IC_ERR_RANGE; e 0, 1 or even:
 *     IC_ERR_EXPONENT.
 *   ic_rsa_verify_*: NULL key: IC_ERR_NULL; a key init never set up (or
 *     wiped, or garbage): IC_ERR_STATE; NULL msg or sig with a non-zero
 *     length: IC_ERR_NULL; a hash_alg or mgf1_hash that is not an
 *     ic_hash_alg: IC_ERR_PARAM; a PSS salt_len that cannot fit the key
 *     (emLen < hLen + salt_len + 2, RFC 8017 9.1.2 step 3, true of every
 *     signature): IC_ERR_PARAM.  Then the signature: IC_OK when it
 *     verifies, IC_ERR_AUTH for every defect of the signature itself,
 *     including a length other than the modulus's byte length and a
 *     representative >= n (RFC 8017 8.1.2/8.2.2 say "invalid signature"
 *     for both; a caller needs no other status for attacker data).
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

typedef struct ic_rsa_public_key {
    ic_mont_ctx mont;                 /* n and its Montgomery constants       */
    uint8_t e[IC_RSA_MAX_BYTES];      /* e, big-endian, no leading zero byte  */
    uint32_t elen;                    /* its byte length, 1..mont.nbytes      */
    uint32_t check;                   /* set by init, cleared by wipe         */
} ic_rsa_public_key;

/* key = (n, e), both big-endian with leading zero bytes allowed. */
IC_NODISCARD IC_API int ic_rsa_public_init(ic_rsa_public_key *key, const uint8_t *n, size_t nlen,
                                           const uint8_t *e, size_t elen);
/* Byte length k of the modulus (the length of every signature); 0 for a
 * NULL or invalid key. */
IC_API size_t ic_rsa_public_size(const ic_rsa_public_key *key);
IC_API void ic_rsa_public_wipe(ic_rsa_public_key *key);

/* RSASSA-PKCS1-V1_5-VERIFY (RFC 8017 8.2.2): IC_OK or IC_ERR_AUTH. */
IC_NODISCARD IC_API int ic_rsa_verify_pkcs1v15(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                                               const uint8_t *msg, size_t msglen,
                                               const uint8_t *sig, size_t siglen);
/* RSASSA-PSS-VERIFY (RFC 8017 8.1.2, EMSA-PSS-VERIFY 9.1.2) with MGF1 over
 * mgf1_hash and a salt of exactly salt_len bytes: IC_OK or IC_ERR_AUTH. */
IC_NODISCARD IC_API int ic_rsa_verify_pss(const ic_rsa_public_key *key, ic_hash_alg hash_alg,
                                          ic_hash_alg mgf1_hash, size_t salt_len,
                                          const uint8_t *msg, size_t msglen,
                                          const uint8_t *sig, size_t siglen);

#ifdef __cplusplus
}
#endif
#endif
