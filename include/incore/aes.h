/*
 * incore/aes.h - AES-128/192/256 (FIPS 197) in ECB, CBC, CFB128, OFB and CTR
 * (SP 800-38A).
 *
 * An ic_aes_key is expanded once with ic_aes_key_init() by the
 * implementation selected at that moment (AES-NI, ARMv8 CE, POWER8
 * vcipher, bitsliced portable, ...) and keeps using it; ic_aes_key_wipe()
 * erases it.  Keys may be used from several threads at once: every
 * operation takes the key as const.
 *
 * Every mode call reads as a method call on the key, with the data first
 * and the per-message value last:
 *
 *     ic_aes_ecb_encrypt(k, out, in, len)
 *     ic_aes_cbc_encrypt(k, out, in, len, iv)
 *     ic_aes_ctr_crypt(k, out, in, len, ctr)
 *
 * The CBC, CFB128 and OFB IV and the CTR counter are 16 bytes that the
 * call reads and then overwrites with the value the next call of the same
 * stream needs (the last ciphertext block for CBC, the next counter for
 * CTR, ...), so consecutive calls continue one message.  Pass a copy to
 * keep the original.
 *
 * Statuses, in the order of include/incore/common.h: key NULL
 * (IC_ERR_NULL) or not initialised / wiped (IC_ERR_STATE); iv or ctr NULL
 * (IC_ERR_NULL); out or in NULL with len > 0 (IC_ERR_NULL); ECB or CBC
 * with len not a multiple of 16 (IC_ERR_LENGTH); out and in overlapping
 * other than exactly (IC_ERR_OVERLAP; out == in is fine).  A refused call
 * writes nothing, neither out nor the IV or counter.
 *
 * XTS-AES (IEEE 1619, for data at rest) has its own key type and calls in
 * incore/xts.h.
 */
#ifndef INCORE_AES_H
#define INCORE_AES_H

#include "incore/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_AES_BLOCK_SIZE 16
#define IC_AES128_KEY_SIZE 16
#define IC_AES192_KEY_SIZE 24
#define IC_AES256_KEY_SIZE 32

/* Room for the largest round-key layout of any backend (the bitsliced
 * portable one: 15 rounds x 8 words x 8 bytes = 960 bytes). */
#define IC_AES_KEY_STORAGE 1024

/* The fields are private.  A key records the implementation that expanded
 * it as an index into the library's constant table (never a pointer, so a
 * corrupted key cannot redirect a call), and a check word that
 * ic_aes_key_init sets and ic_aes_key_wipe clears: any call on a key
 * without it returns IC_ERR_STATE and touches nothing. */
typedef struct ic_aes_key {
    IC_ALIGNAS(64) uint8_t storage[IC_AES_KEY_STORAGE]; /* backend's round keys */
    uint32_t impl;        /* index of the implementation in the registry   */
    uint32_t check;       /* set by init, cleared by wipe                  */
    unsigned rounds;      /* 10, 12 or 14 */
    unsigned keylen;      /* 16, 24 or 32 */
} ic_aes_key;

/* keylen 16, 24 or 32 (IC_ERR_KEYLEN otherwise).  k is wiped first, so a
 * failed init never leaves an older key usable. */
IC_NODISCARD IC_API int ic_aes_key_init(ic_aes_key *k, const uint8_t *key, size_t keylen);
IC_API void ic_aes_key_wipe(ic_aes_key *k);      /* NULL is fine */

/* ECB and CBC: len must be a multiple of 16 (IC_ERR_LENGTH otherwise).
 * CBC leaves the last ciphertext block in iv. */
IC_NODISCARD IC_API int ic_aes_ecb_encrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_aes_ecb_decrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_aes_cbc_encrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                           uint8_t iv[16]);
IC_NODISCARD IC_API int ic_aes_cbc_decrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                           uint8_t iv[16]);

/* Stream modes take any length.  iv / ctr are updated so that consecutive
 * calls continue the stream, provided every call but the last passes a
 * multiple of 16 bytes (after a partial block the register is left as a
 * byte-wise implementation leaves it, but the position inside the block
 * is not kept).  CTR uses a full 128-bit big-endian counter that wraps
 * from all ones to zero. */
IC_NODISCARD IC_API int ic_aes_cfb128_encrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                              uint8_t iv[16]);
IC_NODISCARD IC_API int ic_aes_cfb128_decrypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                              uint8_t iv[16]);
IC_NODISCARD IC_API int ic_aes_ofb_crypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                         uint8_t iv[16]);
IC_NODISCARD IC_API int ic_aes_ctr_crypt(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                         uint8_t ctr[16]);

#ifdef __cplusplus
}
#endif
#endif
