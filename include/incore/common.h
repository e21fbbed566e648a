/*
 * incore/common.h - status codes, version, memory helpers and the
 * implementation-selection API shared by every primitive family.
 *
 * Every function that can fail returns an int status: IC_OK (0) on success,
 * a negative IC_ERR_* value otherwise.  ic_status_str() names each one.
 *
 * The order of the checks is the same in every call, so that an input with
 * several faults gets the same status from every function and backend:
 *   1. the context or key: NULL is IC_ERR_NULL; one that was never
 *      initialised, was wiped, or is garbage is IC_ERR_STATE (nothing in it,
 *      nor in any output, is touched);
 *   2. data pointers: NULL with a non-zero length is IC_ERR_NULL (NULL with
 *      a length of 0 is valid everywhere); a pointer to a fixed-size array
 *      (a 16-byte IV or counter, a 32-byte key, a digest or tag output) is
 *      never allowed to be NULL (IC_ERR_NULL);
 *   3. parameters, in this order: the algorithm selector (an ic_hash_alg
 *      that names no hash: IC_ERR_PARAM), key (IC_ERR_KEYLEN), IV or nonce
 *      (IC_ERR_IVLEN), tag (IC_ERR_TAGLEN), block multiple (IC_ERR_LENGTH),
 *      the mode's limit (IC_ERR_TOOLONG); for big numbers the byte
 *      lengths against the modulus (IC_ERR_SIZE), then the values: the
 *      modulus (IC_ERR_MODULUS, IC_ERR_EVEN), a number not below it
 *      (IC_ERR_RANGE), a zero exponent (IC_ERR_EXPONENT);
 *   4. buffers that overlap other than exactly (IC_ERR_OVERLAP);
 *   5. the call order of a streaming context (IC_ERR_STATE);
 *   6. authentication (IC_ERR_AUTH, after which no plaintext is released).
 * A call that fails at steps 1-5 writes nothing at all, with one exception:
 * an init wipes its context first, so that a failed re-init never leaves
 * an older key usable.
 */
#ifndef INCORE_COMMON_H
#define INCORE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IC_VERSION_STRING "0.1.0"

/* Marks the public API: the library is built with hidden visibility so that
 * only these symbols are exported from libincore.so. */
#if defined(__GNUC__)
#define IC_API __attribute__((visibility("default")))
#else
#define IC_API
#endif

/* Alignment of the key and state areas in the context structs, spelled so
 * that C99 (GNU attribute), C11 and C++11 and later all give one layout. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define IC_ALIGNAS(n) alignas(n)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define IC_ALIGNAS(n) _Alignas(n)
#elif defined(__GNUC__)
#define IC_ALIGNAS(n) __attribute__((aligned(n)))
#else
#error "incore.h needs C11, C++11 or a GNU-compatible compiler (for the 64-byte aligned context fields)"
#endif

/* Calls whose status must be looked at: a key setup that may have failed, a
 * verify or an open whose answer is the point of the call.  The compiler
 * warns when the result is dropped ([[nodiscard]] in C++17 and C23, the GNU
 * attribute elsewhere). */
#if defined(__cplusplus) && __cplusplus >= 201703L
#define IC_NODISCARD [[nodiscard]]
#elif defined(__GNUC__)
#define IC_NODISCARD __attribute__((warn_unused_result))
#else
#define IC_NODISCARD
#endif

enum {
    IC_OK              = 0,
    IC_ERR_NULL        = -1,  /* NULL pointer where data is required        */
    IC_ERR_KEYLEN      = -2,  /* key length not allowed by the primitive    */
    IC_ERR_LENGTH      = -3,  /* length not a multiple of the block size    */
    IC_ERR_IVLEN       = -4,  /* IV / nonce length not allowed (e.g. 0)     */
    IC_ERR_TAGLEN      = -5,  /* tag length not allowed by the mode         */
    IC_ERR_TOOLONG     = -6,  /* message over the mode's limit              */
    IC_ERR_AUTH        = -7,  /* authentication failed; no plaintext out    */
    IC_ERR_STATE       = -8,  /* call out of order (e.g. AAD after data)    */
    IC_ERR_OVERLAP     = -9,  /* in/out overlap partially (in == out is ok) */
    IC_ERR_UNKNOWN     = -10, /* unknown primitive or implementation name   */
    IC_ERR_UNAVAILABLE = -11, /* implementation needs features CPU lacks    */
    IC_ERR_PARAM       = -12, /* other invalid argument                     */
    IC_ERR_SYNTAX      = -13, /* malformed INCORE_CPU / INCORE_IMPL string  */
    IC_ERR_SELFTEST    = -14, /* a known-answer self-test gave a wrong answer */
    /* big numbers (incore/bignum.h) */
    IC_ERR_EVEN        = -15, /* modulus is even (Montgomery needs it odd)  */
    IC_ERR_MODULUS     = -16, /* modulus empty, below 3 or over the maximum */
    IC_ERR_EXPONENT    = -17, /* exponent is zero                           */
    IC_ERR_RANGE       = -18, /* number not below the modulus               */
    IC_ERR_SIZE        = -19  /* number's byte length wrong for the modulus */
};

IC_API const char *ic_version(void);
IC_API const char *ic_status_str(int status);

/* Zero memory in a way the compiler may not elide (keys, state). */
IC_API void ic_wipe(void *p, size_t len);

/* Constant-time comparison: 1 if equal, 0 if not; time depends only on len. */
IC_API int ic_ct_equal(const void *a, const void *b, size_t len);

/* ---- CPU features ------------------------------------------------------
 * One bit per feature of any architecture; only the bits of the running
 * architecture can ever be set.  ic_cpu_features() is what detection found
 * minus the mask (INCORE_CPU or ic_cpu_set_mask()).                        */
/* ic_cpu_parse: IC_ERR_NULL for a NULL argument, IC_ERR_SYNTAX for an
 * unknown feature name or a malformed list; *keep is written only on IC_OK.
 * ic_cpu_model() never returns NULL ("" when unknown). */
IC_API uint64_t    ic_cpu_detected(void);            /* before masking            */
IC_API uint64_t    ic_cpu_features(void);            /* after masking             */
IC_API uint64_t    ic_cpu_forced(void);              /* "+name" of INCORE_CPU (in detected) */
IC_API int         ic_cpu_set_mask(uint64_t keep);   /* keep only these; reselects */
IC_API int         ic_cpu_parse(const char *spec, uint64_t *keep); /* INCORE_CPU syntax */
IC_API const char *ic_cpu_feature_name(unsigned bit);/* NULL past the last bit    */
IC_API const char *ic_cpu_arch(void);                /* "x86-64", "aarch64", ...  */
IC_API const char *ic_cpu_model(void);               /* brand string when known   */
IC_API const char *ic_env_error(void);               /* last INCORE_* parse error or NULL */

/* ---- implementations ---------------------------------------------------
 * prim is a primitive name: "aes", "ghash", "sha1", "sha256", "sha512",
 * "chacha20", "poly1305", "crc32", "crc32c", "hwrand", "montmul".  Index 0 is the best entry; the
 * last one is always the portable implementation.  A NULL or unknown prim
 * counts as a primitive with no implementations: ic_impl_count() 0,
 * ic_impl_name() / ic_impl_selected() NULL, ic_impl_available() 0,
 * ic_impl_select() and ic_selftest() IC_ERR_UNKNOWN.                     */
IC_API size_t      ic_impl_count(const char *prim);
IC_API const char *ic_impl_name(const char *prim, size_t i);
IC_API int         ic_impl_available(const char *prim, size_t i);
IC_API int         ic_impl_select(const char *prim, const char *name); /* NULL/"auto": automatic */
IC_API const char *ic_impl_selected(const char *prim);
IC_API const char *ic_prim_name(size_t i);           /* enumerate primitives; NULL at end */

/* Known-answer self-test of prim with its currently selected implementation:
 * IC_OK, IC_ERR_SELFTEST, or IC_ERR_UNKNOWN for an unknown primitive name. */
IC_API int         ic_selftest(const char *prim);

#ifdef __cplusplus
}
#endif
#endif
