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
/* out ^= MGF1(seed, len) (RFC 8017 B.2.1) over alg (a valid ic_hash_alg). */
void ic_rsa_mgf1_xor(ic_hash_alg alg, const uint8_t *seed, size_t slen, uint8_t *out, size_t len);
/* em (k bytes) = EMSA-PKCS1-v1_5-ENCODE(msg) (RFC 8017 9.2): IC_OK, or
 * IC_ERR_PARAM for an alg that is no ic_hash_alg. */
int ic_rsa_emsa_pkcs1v15(ic_hash_alg alg, const uint8_t *msg, size_t msglen, uint8_t *em, size_t k);

#endif
