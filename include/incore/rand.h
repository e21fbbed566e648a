/*
 * incore/rand.h - random bytes straight from the CPU's hardware source.
 *
 * This is the raw layer only: each call asks the best hardware generator the
 * running CPU has (RDSEED, then RDRAND on x86-64; DARN on POWER9 and later)
 * and copies its output.  It is what a DRBG (SP 800-90A) would seed from;
 * it is not itself a DRBG and does no health testing beyond refusing the
 * values the instructions flag as failures.
 *
 * ic_rand_hw(out, len)   fills out[0..len) and returns IC_OK, or
 *   IC_ERR_UNAVAILABLE   when the CPU has no hardware source (or the
 *                        selected source kept failing after its bounded
 *                        retries); out is then zeroed, never half filled;
 *   IC_ERR_NULL          when out is NULL and len is not 0.
 * ic_rand_hw_source()    the name of the source in use: "rdseed", "rdrand",
 *                        "darn", or "none" (the same as
 *                        ic_impl_selected("hwrand")).
 *
 * Like every primitive the source is picked at first use and can be forced
 * or masked: INCORE_IMPL=hwrand=rdrand, INCORE_CPU=-rdseed, ic_impl_select().
 */
#ifndef INCORE_RAND_H
#define INCORE_RAND_H

#include "incore/common.h"

#ifdef __cplusplus
extern "C" {
#endif

IC_API int         ic_rand_hw(void *out, size_t len);
IC_API const char *ic_rand_hw_source(void);

#ifdef __cplusplus
}
#endif
#endif
