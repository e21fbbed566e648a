/*
 * aes_impl.h - the operations every AES implementation provides, and what
 * the mode drivers (aes.c) and AES-GCM (src/gcm/gcm.c) call through.
 *
 * All operations work on whole 16-byte blocks; the drivers handle argument
 * checks and partial tails.  out may equal in.  Round keys live in the
 * caller's ic_aes_key in whatever layout the implementation chose at
 * setkey; k->impl records which one, so a key is only ever used by the
 * implementation that expanded it.
 */
#ifndef INCORE_AES_IMPL_H
#define INCORE_AES_IMPL_H

#include "core/internal.h"
#include "incore/aes.h"

/* The stitched AES-GCM loops (src/gcm): counter mode and GHASH in one
 * pass, each written for one register width of one instruction family.
 * A loop runs the AES rounds itself on the key's storage, so it needs an
 * AES backend whose key layout and instructions it knows, and it reads
 * the powers of H from the GHASH key, so it needs a GHASH backend whose
 * key holds them.  Each backend declares the loops it can be a partner
 * in (ic_aes_ops.stitch, ic_ghash_ops.stitch: a set of IC_STITCH_BIT);
 * ic_aes_gcm_key_init runs none unless both sides declare it, and of
 * those takes the highest-numbered, so within a family a wider loop comes
 * later.  A loop's declaration on both sides is all it takes for a new
 * backend to get stitching.  Ids are stored in keys: append only. */
enum {
    IC_STITCH_NONE = 0,    /* no stitched loop: CTR and GHASH one after the other */
    IC_STITCH_X86_XMM,     /* x86 layout (aes_x86.h), AESENC and PCLMULQDQ on XMM, 8 blocks  */
    IC_STITCH_X86_YMM,     /* the same layout, VAESENC and VPCLMULQDQ on YMM, 16 blocks       */
    IC_STITCH_X86_ZMM,     /* the same on ZMM, 32 blocks; runs the YMM loop for a 16-block rest */
    IC_STITCH_ARM_CE,      /* ARMv8 CE layout (aes_arm.h), AESE and PMULL, 8 blocks            */
    IC_STITCH_PPC_P8,      /* POWER8 layout (aes_ppc.h), vcipher and vpmsumd, 8 blocks        */
    IC_STITCH_COUNT
};
#define IC_STITCH_BIT(s) (1u << (s))

typedef struct ic_aes_ops {
    /* Expand key (16, 24 or 32 bytes, already checked) into k's storage. */
    void (*setkey)(ic_aes_key *k, const uint8_t *key, size_t keylen);
    void (*ecb_enc)(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*ecb_dec)(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);
    /* iv is updated to the last ciphertext block, so calls chain. */
    void (*cbc_enc)(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*cbc_dec)(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* ctr: full 128-bit big-endian counter, incremented once per block and
     * left pointing at the next unused block (as OpenSSL's CTR).          */
    void (*ctr)(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* ctr32: only the last 4 bytes count (big-endian, wrapping mod 2^32),
     * the first 12 stay fixed: the GCM counter (SP 800-38D inc32).        */
    void (*ctr32)(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* CFB128 and OFB: iv is the feedback register, updated for chaining. */
    void (*cfb_enc)(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*cfb_dec)(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*ofb)(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* xts: nblocks >= 1 whole blocks of one XTS data unit (IEEE 1619 5.3,
     * without the stealing step, which src/aes/xts.c does):
     *   out_j = E(in_j ^ T_j) ^ T_j  (decrypt: the inverse cipher D),
     *   T_0 = T, T_{j+1} = T_j * x in GF(2^128) (little-endian).
     * k is the data key (key1).  With k2 (the tweak key) given, t holds
     * the tweak i and T = E_k2(i) is computed first (so a fused loop can
     * overlap it with its own setup); with k2 NULL, t already holds T.
     * Either way t is left as T_nblocks, so that calls chain.  NULL when
     * the backend has no fused loop: xts.c then runs the same over ecb_enc
     * / ecb_dec with the tweaks computed in batches.                      */
    void (*xts)(const ic_aes_key *k, const ic_aes_key *k2, uint8_t t[16], uint8_t *out, const uint8_t *in,
                size_t nblocks, int decrypt);
    /* The stitched AES-GCM loops (IC_STITCH_BIT of each) that can run
     * their rounds on this backend's keys on any CPU that runs the
     * backend; 0 for none. */
    uint32_t stitch;
    /* For AES-GCM (ic_aes_gcm_setkey): expand the encryption schedule only
     * (GCM never runs the inverse cipher, so a decryption schedule would
     * be work wasted in every GCM key set-up) and put H = E(K, 0^128) in
     * h.  NULL when the backend has none: setkey and ecb_enc then.       */
    void (*gcm_setkey)(ic_aes_key *k, const uint8_t *key, size_t keylen, uint8_t h[16]);
} ic_aes_ops;

/* The ops of the implementation that expanded k, or NULL when k is NULL,
 * not initialised, wiped or corrupt (check word, index, key length).  For AES-GCM and other users of the raw
 * block operations; they check arguments themselves.                    */
const ic_aes_ops *ic_aes_key_ops(const ic_aes_key *k);

/* The body of ic_aes_key_init after its checks: expand key (keylen 16, 24 or
 * 32, checked) into k (wiped) with implementation impl, so that the XTS key
 * setup (xts.c) expands both of its halves with one implementation even
 * if the selection changes in between.  IC_ERR_UNAVAILABLE for an index
 * outside the table. */
int ic_aes_setkey_impl(ic_aes_key *k, uint32_t impl, const uint8_t *key, size_t keylen);

/* The AES half of an AES-GCM key (src/gcm/gcm.c): key (keylen 16, 24 or
 * 32, checked) expanded into k by the selected implementation, and
 * H = E(K, 0^128) in h.  k need not be wiped (every setkey writes all
 * that its backend reads); the caller wipes the GCM key around it.
 * Marked IC_CHECK_AES_ENC, not IC_CHECK_AES: its decryption schedule may
 * be absent, so the AES API (ic_aes_key_ops) refuses it and nothing ever
 * decrypts with it.  IC_ERR_UNAVAILABLE as ic_aes_setkey_impl. */
int ic_aes_gcm_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen, uint8_t h[16]);

/* 10, 12 or 14 (FIPS 197 5: Nr = Nk + 6), in one compare: r - 10 is
 * 0, 2 or 4 exactly when it is even and at most 4. */
#define IC_AES_ROUNDS_OK(r) (((unsigned)(r) - 10u) <= 4u && ((r) & 1u) == 0)

/* 1 when k was set up by ic_aes_key_init and not wiped since: check word,
 * index in the table and of code this CPU runs (ic_impl_index_ok), a
 * round count the backends may loop over.  Branch free (one test by the
 * caller): ic_aes_key_ops and GCM's per-call check share it. */
static inline int ic_aes_key_valid(const ic_aes_key *k)
{
    return (k->check == IC_CHECK_AES) & ic_impl_index_ok(IC_PRIM_AES, k->impl) &
           IC_AES_ROUNDS_OK(k->rounds);
}

/* The same for a key that an entry point has already checked with
 * ic_aes_key_ops (GCM's inner steps, the stitched hooks): one load. */
static inline const ic_aes_ops *ic_aes_ops_of(const ic_aes_key *k)
{
    return (const ic_aes_ops *)ic_impls_aes[k->impl].ops;
}

/* FIPS 197 5.2 KeyExpansion in constant time (the S-box through aes_ct64.c's
 * bitsliced circuit): w[0 .. 4*(Nr+1)-1], each word loaded little-endian
 * (byte 0 of the word is its low byte).  For backends whose hardware wants
 * a software-expanded schedule (PadLock, 192/256-bit keys). */
void ic_aes_key_words(uint32_t w[4 * 15], const uint8_t *key, size_t keylen);

#endif
