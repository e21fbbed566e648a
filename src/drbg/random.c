/*
 * random.c - ic_random(): one CTR_DRBG (ctr_drbg.c, AES-256 with df) per
 * process, seeded from the health-tested entropy sources
 * (src/rand/rand_source.c).
 *
 * Seeding: every healthy source contributes enough bytes to carry the
 * full 384 bits (security strength 256 + a 128-bit nonce, SP 800-90A 8.6.7
 * and 10.2.1) by its own credit, so the seed is good if any one source is;
 * their concatenation is the entropy input, the personalization string is
 * the pid and a clock reading.  When the sources together are credited with
 * less than that (all failed), ic_random fails closed: IC_ERR_UNAVAILABLE,
 * the output zeroed, and the DRBG state wiped so nothing is generated from
 * an old seed either.
 *
 * Reseeds: every 2^16 generate requests (90A allows 2^48; 2^16 keeps the
 * amount of output under one seed small at a cost per request of ~0.1 ns),
 * on ic_random_reseed(), before every request with prediction resistance.
 *
 * Fork safety, two ways: the state lives in a page marked MADV_WIPEONFORK,
 * which a child (of fork, vfork or a raw clone) sees as zeros, i.e. not
 * seeded; and a pthread_atfork child handler bumps a generation counter
 * that the state records at seeding (for kernels without WIPEONFORK and
 * emulators that ignore madvise).  Either way the child reseeds from the
 * sources before its first output, so it never repeats the parent's stream.
 * The fork handlers also hold the locks across fork so the child never
 * inherits one held by another thread.
 *
 * Threads: one lock around the state (a request costs ~100 ns; the lock
 * uncontended a few ns).  The state is wiped by a destructor at exit.
 */
#include "drbg/ctr_drbg.h"
#include "rand/rand_source.h"
#include "incore/rand.h"

#include <pthread.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define RESEED_INTERVAL (UINT64_C(1) << 16)
#define SEED_BITS       384u   /* instantiate: entropy + nonce          */
#define RESEED_BITS     256u   /* reseed: security strength              */
#define GATHER_CAP      2048u  /* bytes of entropy input at most         */
#define MAX_ADDIN       1024u

typedef struct {
    ic_ctr_drbg drbg;
    uint64_t    generation;   /* fork generation at seeding */
    int         seeded;
} rstate;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t  once = PTHREAD_ONCE_INIT;
static rstate         *g;            /* the page, or &fallback    */
static rstate          fallback;
static volatile uint64_t fork_generation;
static volatile int    pred_res;

static void prepare(void)     { pthread_mutex_lock(&lock); ic_rand_src_lock(); }
static void parent(void)      { ic_rand_src_unlock(); pthread_mutex_unlock(&lock); }
static void child(void)
{
    fork_generation++;
    ic_rand_src_unlock();
    pthread_mutex_unlock(&lock);
}

static void init_once(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (sizeof(rstate) + page - 1) / page * page;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    g = &fallback;
    if (p != MAP_FAILED) {
#if defined(MADV_WIPEONFORK)
        madvise(p, len, MADV_WIPEONFORK);
#endif
#if defined(MADV_DONTDUMP)
        madvise(p, len, MADV_DONTDUMP);   /* no DRBG state in core files */
#endif
        g = (rstate *)p;
    }
    pthread_atfork(prepare, parent, child);
}

__attribute__((destructor)) static void wipe_at_exit(void)
{
    if (g == NULL)
        return;
    pthread_mutex_lock(&lock);
    ic_ctr_drbg_wipe(&g->drbg);
    g->seeded = 0;
    pthread_mutex_unlock(&lock);
}

static void unseed(void)
{
    ic_ctr_drbg_wipe(&g->drbg);
    g->seeded = 0;
}

/* (Re)seed from the sources; instantiate when not seeded (first use, after
 * fork, after a failure).  Under lock.  On failure the state is wiped. */
static int seed(const uint8_t *add, size_t addlen)
{
    uint8_t ent[GATHER_CAP];
    unsigned credited = 0;
    int fresh = !g->seeded || g->generation != fork_generation;
    unsigned want = fresh ? SEED_BITS : RESEED_BITS;
    size_t n = ic_rand_gather(ent, sizeof ent, SEED_BITS, &credited);
    int st = IC_ERR_UNAVAILABLE;
    if (credited >= want) {
        if (fresh) {
            struct { uint64_t pid, ns, gen; const char tag[16]; } pers = {
                (uint64_t)getpid(), 0, fork_generation, "incore random"
            };
            struct timespec ts;
            if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
                pers.ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
            st = ic_ctr_drbg_instantiate(&g->drbg, 1, ent, n, NULL, 0, (const uint8_t *)&pers, sizeof pers);
        } else {
            st = ic_ctr_drbg_reseed(&g->drbg, ent, n, add, addlen);
        }
    }
    ic_wipe(ent, sizeof ent);
    if (st != IC_OK) {
        unseed();
        return st == IC_ERR_UNAVAILABLE ? st : IC_ERR_UNAVAILABLE;
    }
    g->seeded = 1;
    g->generation = fork_generation;
    /* Additional input on a fresh state: a reseed with new entropy. */
    return fresh && addlen ? seed(add, addlen) : IC_OK;
}

/* Under lock: seed first if needed (not seeded, forked, interval,
 * prediction resistance). */
static int ready_for_request(void)
{
    if (!g->seeded || g->generation != fork_generation || pred_res ||
        g->drbg.reseed_counter > RESEED_INTERVAL)
        return seed(NULL, 0);
    return IC_OK;
}

int ic_random(uint8_t *out, size_t len)
{
    IC_NULL_CHECK(out, len);
    pthread_once(&once, init_once);
    int st = IC_OK;
    pthread_mutex_lock(&lock);
    for (size_t done = 0; done < len || (len == 0 && done == 0);) {
        size_t n = len - done < IC_DRBG_MAX_REQ ? len - done : IC_DRBG_MAX_REQ;
        st = ready_for_request();
        if (st == IC_OK)
            st = ic_ctr_drbg_generate(&g->drbg, out + done, n, NULL, 0);
        if (st != IC_OK || len == 0)
            break;
        done += n;
    }
    pthread_mutex_unlock(&lock);
    if (st != IC_OK && len)
        ic_wipe(out, len);
    return st;
}

int ic_random_reseed(const uint8_t *addin, size_t len)
{
    IC_NULL_CHECK(addin, len);
    if (len > MAX_ADDIN)
        return IC_ERR_TOOLONG;
    pthread_once(&once, init_once);
    pthread_mutex_lock(&lock);
    int st = seed(addin, len);
    pthread_mutex_unlock(&lock);
    return st;
}

void ic_random_set_prediction_resistance(int on)
{
    pred_res = on != 0;
}
