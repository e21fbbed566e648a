/*
 * incore/rand.h - random numbers, in two layers:
 *
 *   ic_random       the call for key material: a CTR_DRBG (SP 800-90A)
 *                   seeded from health-tested entropy sources;
 *   ic_rand_*       the raw layer below it: the CPU's hardware generator
 *                   as it is (ic_rand_hw) and the named, health-tested
 *                   entropy sources the DRBG seeds from (ic_rand_source_*).
 *
 * Use ic_random unless you are testing or measuring a source.  Every call
 * that can fail returns an int status and is IC_NODISCARD; on any error the
 * output is zeroed, never half filled.  Outputs come first, as everywhere
 * (docs/api.md).
 *
 * ---- ic_random: the DRBG ---------------------------------------------------
 * ic_random(out, len)  len bytes from a CTR_DRBG (SP 800-90A 10.2, AES-256
 *   with the derivation function) seeded from every healthy source (each
 *   one on its own brings the 384 bits the seed needs), reseeded every 2^16
 *   requests, after fork() (the child never repeats the parent's stream),
 *   and before every request when prediction resistance is on.  One state
 *   per process behind a lock: thread-safe.  Fails closed: IC_ERR_UNAVAILABLE
 *   when no source gives the credited entropy (out is then zeroed).
 *   IC_ERR_NULL for NULL with len > 0.  Any len; requests over 64 KiB are
 *   served as several generate calls.
 * ic_random_reseed(addin, len)  reseed now from the sources, mixing in the
 *   optional additional input (at most 1 KiB: IC_ERR_TOOLONG).
 * ic_random_set_prediction_resistance(on)  1: reseed from the sources
 *   before every request (SP 800-90A 9.3.1); 0: by interval (default).
 *
 * ---- the raw hardware generator ------------------------------------------
 * ic_rand_hw(out, len)  asks the best hardware generator the running CPU has
 *   (on x86-64 RDSEED, then RDRAND, then PadLock XSTORE; DARN on POWER9 and
 *   later; RNDR on ARMv8.5-RNG) and copies its output: no DRBG and no
 *   health testing beyond refusing the values the instructions flag as
 *   failures.  Fills out[0..len) and returns IC_OK, or
 *   IC_ERR_UNAVAILABLE   when the CPU has no hardware source (or the
 *                        selected source kept failing after its bounded
 *                        retries); out is then zeroed;
 *   IC_ERR_NULL          when out is NULL and len is not 0.
 * ic_rand_hw_source()    the name of the source in use: "rdseed", "rdrand",
 *                        "darn", "rndr", "xstore" or "none" (the same as
 *                        ic_impl_selected("hwrand")).
 *
 * Like every primitive the source is picked at first use and can be forced
 * or masked: INCORE_IMPL=hwrand=rdrand, INCORE_CPU=-rdseed, ic_impl_select().
 *
 * ---- health-tested entropy sources (docs/random.md) ----------------------
 * Every hardware source of the "hwrand" table that the CPU has, plus "os"
 * (the kernel's getrandom), is a named entropy source: what ic_random seeds
 * from.  Every byte read from a source goes through the SP 800-90B
 * continuous health tests (4.4.1 repetition count, 4.4.2 adaptive
 * proportion; 8-bit samples, cutoffs from the min-entropy each source is
 * credited with, alpha = 2^-40), after a 1024-sample start-up test (4.3).
 * A source that fails a test, or whose instruction keeps failing, is marked
 * failed for the rest of the process: it is never used again, and
 * ic_rand_source_health() / `incore info` / `incore rand --source NAME`
 * say so.
 *
 * ic_rand_source_count(), ic_rand_source_name(i)   enumerate the sources
 *   (NULL past the end); the list has every source compiled in, available
 *   on this CPU or not.
 * ic_rand_source_health(name, h)  fills *h (see ic_rand_health); returns
 *   h->status, or IC_ERR_NULL / IC_ERR_UNKNOWN for a bad name.
 * ic_rand_source_read(name, out, len)  health-tested bytes of one source:
 *   IC_OK; IC_ERR_UNAVAILABLE (not on this CPU, or its instruction kept
 *   failing); IC_ERR_SELFTEST (a health test failed: now or before);
 *   IC_ERR_UNKNOWN; IC_ERR_NULL.  On any error out is zeroed.
 * The source's name comes first in both, in the place of the object.
 */
#ifndef INCORE_RAND_H
#define INCORE_RAND_H

#include "incore/common.h"

#ifdef __cplusplus
extern "C" {
#endif

IC_NODISCARD IC_API int ic_rand_hw(uint8_t *out, size_t len);
IC_API const char *ic_rand_hw_source(void);

/* The health of one entropy source. */
typedef struct ic_rand_health {
    unsigned    h;           /* credited min-entropy, bits per 8-bit sample (1..8) */
    unsigned    rct_cutoff;  /* repetition count: this many equal samples in a row fail */
    unsigned    apt_window;  /* adaptive proportion: window W (samples)              */
    unsigned    apt_cutoff;  /* ... this many copies of the window's first sample fail */
    uint64_t    samples;     /* bytes tested so far (start-up test included)          */
    int         status;      /* IC_OK, IC_ERR_UNAVAILABLE or IC_ERR_SELFTEST          */
    const char *failure;     /* "repetition count", "adaptive proportion",
                                "read failed", "not on this CPU", or NULL (healthy)   */
} ic_rand_health;

IC_API size_t      ic_rand_source_count(void);
IC_API const char *ic_rand_source_name(size_t i);
IC_NODISCARD IC_API int ic_rand_source_health(const char *name, ic_rand_health *h);
IC_NODISCARD IC_API int ic_rand_source_read(const char *name, uint8_t *out, size_t len);

IC_NODISCARD IC_API int ic_random(uint8_t *out, size_t len);
IC_NODISCARD IC_API int ic_random_reseed(const uint8_t *addin, size_t len);
IC_API void ic_random_set_prediction_resistance(int on);

#ifdef __cplusplus
}
#endif
#endif
