/*
 * ctr_drbg.h - CTR_DRBG of NIST SP 800-90A Rev. 1, 10.2, with AES-256
 * (security strength 256, seedlen 384 bits), with or without the
 * derivation function Block_Cipher_df (10.3.2).  The mechanism alone: the
 * caller brings entropy input and decides when to reseed (src/drbg/
 * random.c does both for ic_random; the known-answer tests drive it with
 * the NIST CAVP values).
 *
 * Internal: not part of the public API, and not exported.
 */
#ifndef INCORE_CTR_DRBG_H
#define INCORE_CTR_DRBG_H

#include "core/internal.h"
#include "incore/aes.h"

#define IC_DRBG_KEYLEN   32u             /* AES-256                         */
#define IC_DRBG_SEEDLEN  48u             /* keylen + blocklen (10.2.1)      */
#define IC_DRBG_MAX_REQ  65536u          /* 2^19 bits per generate (10.2.1) */
#define IC_DRBG_MAX_IN   (1u << 20)      /* our limit on df inputs (90A: 2^35 bits) */

typedef struct ic_ctr_drbg {
    ic_aes_key key;        /* Key, expanded by the AES backend chosen at instantiate */
    uint8_t    v[16];      /* V                                             */
    uint64_t   reseed_counter;
    int        use_df;
    int        ready;      /* instantiated and not wiped                    */
} ic_ctr_drbg;

/* 10.2.1.3: with df, entropy of any length (the caller checks how much it
 * is credited), nonce and personalization string optional; without df,
 * entropy must be exactly 48 bytes, no nonce, pers at most 48 bytes.
 * IC_ERR_LENGTH / IC_ERR_TOOLONG / IC_ERR_NULL on bad lengths. */
int  ic_ctr_drbg_instantiate(ic_ctr_drbg *d, int use_df, const uint8_t *entropy, size_t entlen,
                             const uint8_t *nonce, size_t noncelen, const uint8_t *pers,
                             size_t perslen);
/* 10.2.1.4: same length rules as instantiate for entropy / additional input. */
int  ic_ctr_drbg_reseed(ic_ctr_drbg *d, const uint8_t *entropy, size_t entlen, const uint8_t *add,
                        size_t addlen);
/* 10.2.1.5 (without the reseed check, which is the caller's policy):
 * len <= IC_DRBG_MAX_REQ (else IC_ERR_TOOLONG, out zeroed). */
int  ic_ctr_drbg_generate(ic_ctr_drbg *d, uint8_t *out, size_t len, const uint8_t *add,
                          size_t addlen);
void ic_ctr_drbg_wipe(ic_ctr_drbg *d);

#endif
