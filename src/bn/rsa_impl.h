/*
 * rsa_impl.h - what the public-key half (rsa.c) and the private-key half
 * (rsa_priv.c) of RSA share: the key check, MGF1, the PKCS #1 v1.5
 * encoding.
 */
#ifndef INCORE_RSA_IMPL_H
#define INCORE_RSA_IMPL_H

#include "core/internal.h"
#include "incore/rsa.h"

/* 1 for a public key init set up and wipe did not end. */
int ic_rsa_public_ok(const ic_rsa_public_key *key);
/* out ^= MGF1(seed, len) (RFC 8017 B.2.1) over alg (a valid ic_hash_alg):
 * IC_OK, or the hash's status (out then partly masked: the caller fails). */
int ic_rsa_mgf1_xor(ic_hash_alg alg, const uint8_t *seed, size_t slen, uint8_t *out, size_t len);
/* h = Hash(00 x 8 || mHash || salt), the H of EMSA-PSS (RFC 8017 9.1.1
 * steps 5, 6; 9.1.2 steps 12, 13); mhash and h are HashLen bytes. */
int ic_rsa_pss_hash(ic_hash_alg alg, uint8_t *h, const uint8_t *mhash, const uint8_t *salt,
                    size_t salt_len);
/* em (k bytes) = EMSA-PKCS1-v1_5-ENCODE(msg) (RFC 8017 9.2): IC_OK, or
 * IC_ERR_PARAM for an alg that is no ic_hash_alg. */
int ic_rsa_emsa_pkcs1v15(ic_hash_alg alg, const uint8_t *msg, size_t msglen, uint8_t *em, size_t k);

#endif
