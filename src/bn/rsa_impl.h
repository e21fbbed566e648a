/*
 * rsa_impl.h - what the public-key half (rsa.c), the private-key half
 * (rsa_priv.c) and the key reader (rsa_key.c) of RSA share: the key
 * check, hashing, MGF1, the PKCS #1 v1.5 and PSS pieces.
 */
#ifndef INCORE_RSA_IMPL_H
#define INCORE_RSA_IMPL_H

#include "core/internal.h"
#include "incore/rsa.h"

/* 1 for a public key init set up and wipe did not end. */
int ic_rsa_public_ok(const ic_rsa_public_key *key);
/* out = Hash(msg) over alg, *hlen its length: IC_OK, or IC_ERR_PARAM for
 * an alg that is no ic_hash_alg.  The one place a message is hashed. */
int ic_rsa_digest(ic_hash_alg alg, uint8_t out[IC_HASH_MAX_DIGEST_SIZE], size_t *hlen,
                  const uint8_t *msg, size_t msglen);
/* out ^= MGF1(seed, len) (RFC 8017 B.2.1) over alg (a valid ic_hash_alg):
 * IC_OK, or the hash's status (out then partly masked: the caller fails). */
int ic_rsa_mgf1_xor(ic_hash_alg alg, const uint8_t *seed, size_t slen, uint8_t *out, size_t len);
/* em (k bytes) = EMSA-PKCS1-v1_5-ENCODE (RFC 8017 9.2) of the digest
 * (hLen bytes): IC_OK, or IC_ERR_PARAM for an alg that is no ic_hash_alg. */
int ic_rsa_emsa_pkcs1v15(ic_hash_alg alg, const uint8_t *digest, uint8_t *em, size_t k);
/* 1 when a PSS salt of salt_len bytes fits the modulus n with a hash of
 * hlen bytes (emLen >= hLen + sLen + 2, RFC 8017 9.1.1 step 3). */
int ic_rsa_pss_fits(const ic_mont_ctx *n, size_t hlen, size_t salt_len);
/* h = Hash(00 x 8 || mHash || salt), RFC 8017 9.1.1 steps 5-6 and 9.1.2
 * steps 12-13, over alg (a valid ic_hash_alg): IC_OK or the hash's status. */
int ic_rsa_pss_hash(ic_hash_alg alg, uint8_t h[IC_HASH_MAX_DIGEST_SIZE], const uint8_t *mhash, size_t hlen,
                     const uint8_t *salt, size_t salt_len);

#endif
