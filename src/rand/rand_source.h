/*
 * rand_source.h - the health-tested entropy sources behind ic_random
 * (rand_source.c): what the DRBG (src/drbg/) and the tests see of them.
 *
 * A source is a name, the CPU features it needs, a fill function and the
 * min-entropy it is credited with (bits per 8-bit sample).  The list is
 * built from the "hwrand" registry table (rand.c: every entry that has an
 * instruction becomes a source, so a new hardware source such as PadLock
 * XSTORE is one entry there, plus one line of credit in rand_source.c)
 * followed by "os", the kernel's getrandom.
 */
#ifndef INCORE_RAND_SOURCE_H
#define INCORE_RAND_SOURCE_H

#include "core/internal.h"
#include "rand/rand_impl.h"

typedef struct ic_rand_src {
    const char *name;
    uint64_t    needs;   /* IC_F() bits the CPU must have (0: always)        */
    /* Fill out[0..len) with raw bytes: 1, or 0 when the source failed.     */
    int (*fill)(const struct ic_rand_src *s, uint8_t *out, size_t len);
    const void *arg;     /* the hwrand ops of a hardware source              */
    unsigned    h;       /* credited min-entropy, bits per byte (1..8)       */
} ic_rand_src;

#define IC_HEALTH_ALPHA_LOG2 40u   /* false-alarm probability 2^-40 per test */
#define IC_HEALTH_APT_WINDOW 512u  /* SP 800-90B 4.4.2: W for non-binary samples */
#define IC_HEALTH_STARTUP    1024u /* SP 800-90B 4.3: start-up samples         */

/* The 90B cutoffs for a source credited with h bits per byte (docs/random.md). */
unsigned ic_health_rct_cutoff(unsigned h);
unsigned ic_health_apt_cutoff(unsigned h, unsigned window);

/* Fill len bytes from a hardware source's next64 (rand.c): 1 or 0. */
int ic_hwrand_fill(const ic_hwrand_ops *ops, uint8_t *out, size_t len);

/* Read want_bits of credited entropy from every healthy source into
 * out (at most cap bytes), each source's bytes health-tested; returns the
 * number of bytes written and sets *credited to the bits they carry. */
size_t ic_rand_gather(uint8_t *out, size_t cap, unsigned want_bits, unsigned *credited);

/* Lock order for fork handlers (random.c): the DRBG lock, then this one. */
void ic_rand_src_lock(void);
void ic_rand_src_unlock(void);

/* Tests only (not exported from the shared library): replace the source
 * list by list[0..n) with fresh health state, or restore the default list
 * when list is NULL.  Callers then reseed ic_random themselves. */
void ic_rand_test_set_sources(const ic_rand_src *list, size_t n);

#endif
