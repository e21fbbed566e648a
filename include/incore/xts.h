/*
 * incore/xts.h - XTS-AES (IEEE Std 1619-2018, NIST SP 800-38E): the
 * length-preserving mode for data at rest (disk sectors), with
 * ciphertext stealing for data units that are not whole blocks.
 *
 * An XTS key is two AES keys of the same size, key1 (the data key) then
 * key2 (the tweak key), 32 bytes for XTS-AES-128 or 64 for XTS-AES-256.
 * The two halves must differ (SP 800-38E section 5.1 and FIPS 140-3 IG
 * C.I require the check): ic_aes_xts_key_init returns IC_ERR_WEAKKEY when
 * they are equal.  Each call encrypts or decrypts one whole data unit of
 * 16 bytes up to 2^20 blocks (IEEE 1619 section 5.1), identified by its
 * 16-byte tweak, the data unit sequence number as a little-endian 128-bit
 * number (IEEE 1619 5.1 and the NIST XTSGenAES files use this order).
 * ic_aes_xts_encrypt_sector takes that number as a uint64_t.  As in
 * incore/aes.h the key comes first and the per-message value last:
 *
 *     ic_aes_xts_encrypt(k, out, in, len, tweak)
 *     ic_aes_xts_encrypt_sector(k, out, in, len, sector)
 *
 * The tweak is only read (unlike the IV of the chained modes of aes.h,
 * each data unit stands alone).
 *
 * Like ic_aes_key, the key records the AES implementation that expanded it
 * as an index in the library's table plus a check word; every call checks
 * both, and a key that was never initialised or was wiped gives
 * IC_ERR_STATE.  Keys may be used from several threads at once.
 *
 * Status order (include/incore/common.h): key (IC_ERR_NULL, IC_ERR_STATE),
 * tweak NULL (IC_ERR_NULL), in/out NULL with len > 0 (IC_ERR_NULL), len <
 * 16 (IC_ERR_LENGTH), len > IC_AES_XTS_MAX_LEN (IC_ERR_TOOLONG), partial
 * overlap (IC_ERR_OVERLAP); out == in is fine.
 */
#ifndef INCORE_XTS_H
#define INCORE_XTS_H

#include "incore/aes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IC_AES_XTS128_KEY_SIZE 32   /* key1 || key2, AES-128 each */
#define IC_AES_XTS256_KEY_SIZE 64   /* key1 || key2, AES-256 each */
#define IC_AES_XTS_TWEAK_SIZE 16
#define IC_AES_XTS_MIN_LEN 16                     /* one block      */
#define IC_AES_XTS_MAX_LEN ((size_t)1 << 24)      /* 2^20 blocks    */

/* The fields are private: the two expanded AES keys (both by the same
 * implementation) and the XTS key's own index and check word. */
typedef struct ic_aes_xts_key {
    ic_aes_key k1;        /* data key                              */
    ic_aes_key k2;        /* tweak key                             */
    uint32_t impl;        /* AES implementation of both            */
    uint32_t check;       /* set by init, cleared by wipe          */
} ic_aes_xts_key;

/* keylen 32 or 64 (IC_ERR_KEYLEN), halves different (IC_ERR_WEAKKEY).  k
 * is wiped first, so a failed init never leaves an older key usable. */
IC_NODISCARD IC_API int ic_aes_xts_key_init(ic_aes_xts_key *k, const uint8_t *key, size_t keylen);
IC_API void ic_aes_xts_key_wipe(ic_aes_xts_key *k);      /* NULL is fine */

/* One data unit of len bytes (16 <= len <= IC_AES_XTS_MAX_LEN, any length
 * in between: the last partial block uses ciphertext stealing). */
IC_NODISCARD IC_API int ic_aes_xts_encrypt(const ic_aes_xts_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                           const uint8_t tweak[16]);
IC_NODISCARD IC_API int ic_aes_xts_decrypt(const ic_aes_xts_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                           const uint8_t tweak[16]);

/* The same with the tweak given as a data unit (sector) number: the tweak
 * is sector as 16 little-endian bytes (the upper 8 zero). */
IC_NODISCARD IC_API int ic_aes_xts_encrypt_sector(const ic_aes_xts_key *k, uint8_t *out, const uint8_t *in,
                                                  size_t len, uint64_t sector);
IC_NODISCARD IC_API int ic_aes_xts_decrypt_sector(const ic_aes_xts_key *k, uint8_t *out, const uint8_t *in,
                                                  size_t len, uint64_t sector);

#ifdef __cplusplus
}
#endif
#endif
