/*
 * rand_source.c - the entropy sources of ic_random, each behind the
 * SP 800-90B continuous health tests (docs/random.md has the derivation).
 *
 * Sources: every entry of the "hwrand" table with an instruction (rdseed,
 * rdrand, darn, rndr, and whatever is added there later) and "os", the
 * kernel's getrandom.  A sample is one output byte; each source is credited
 * with h bits of min-entropy per byte (credit table below), and from h come
 * the cutoffs:
 *  - repetition count test (90B 4.4.1): C = 1 + ceil(40 / h); C equal
 *    samples in a row have probability at most 2^-h(C-1) <= 2^-40;
 *  - adaptive proportion test (90B 4.4.2): windows of W = 512 samples; the
 *    first sample of the window is counted in the whole window, and C is
 *    the least count whose probability, with the other W-1 samples each
 *    equal to it with probability 2^-h, is at most 2^-40.
 * Before its first use a source passes a start-up test of 1024 samples
 * (90B 4.3).  A failure (or an instruction that keeps reporting failure)
 * marks the source failed for the rest of the process: never used again,
 * never silently, since ic_rand_source_health() reports it.
 *
 * One lock guards all sources' state: a source is a stream whose tests run
 * over consecutive samples, and reads are rare (seeding) or tools.
 */
#include "rand/rand_source.h"
#include "incore/rand.h"
#include "core/ct.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#define MAX_SOURCES 16

/* Credited min-entropy per byte.  Hardware sources deliver conditioned or
 * DRBG output their vendors call full entropy; we credit half of that (a
 * claim we cannot check), and the kernel's CRNG full.  A source missing
 * here (a new hwrand entry) gets the most conservative credit, 1. */
static const struct { const char *name; unsigned h; } credits[] = {
    { "os", 8 }, { "rdseed", 4 }, { "rdrand", 4 }, { "darn", 4 }, { "rndr", 4 },
    { "xstore", 2 },  /* PadLock raw bits: guide 2.x, no conditioning claim */
};

static unsigned credit_of(const char *name)
{
    for (size_t i = 0; i < sizeof credits / sizeof credits[0]; i++)
        if (strcmp(credits[i].name, name) == 0)
            return credits[i].h;
    return 1;
}

/* ---- cutoffs ------------------------------------------------------------ */

unsigned ic_health_rct_cutoff(unsigned h)
{
    if (h < 1 || h > 8)
        h = 1;
    return 1 + (IC_HEALTH_ALPHA_LOG2 + h - 1) / h;
}

/* Least C with P(1 + Binomial(W-1, 2^-h) >= C) <= 2^-40: the pmf of the
 * binomial by its recurrence, the tail summed from the top so that its
 * small values keep their precision (no libm needed). */
unsigned ic_health_apt_cutoff(unsigned h, unsigned window)
{
    double pmf[IC_HEALTH_APT_WINDOW];
    unsigned n = window - 1;
    if (h < 1 || h > 8)
        h = 1;
    if (window < 2 || window > IC_HEALTH_APT_WINDOW)
        return window;
    double p = 1.0 / (double)(1u << h), q = 1.0 - p, alpha = 1.0;
    for (unsigned i = 0; i < IC_HEALTH_ALPHA_LOG2; i++)
        alpha /= 2;
    pmf[0] = 1.0;
    for (unsigned i = 0; i < n; i++)
        pmf[0] *= q;
    for (unsigned k = 0; k < n; k++)
        pmf[k + 1] = pmf[k] * (double)(n - k) / (double)(k + 1) * p / q;
    /* tail(k) = P(X >= k); C - 1 = least k with tail(k) <= alpha. */
    double tail = 0.0;
    unsigned k = n + 1;
    while (k > 0 && tail + pmf[k - 1] <= alpha) {
        tail += pmf[k - 1];
        k--;
    }
    return k + 1;
}

/* ---- the sources ---------------------------------------------------------- */

static int fill_hw(const ic_rand_src *s, uint8_t *out, size_t len)
{
    return ic_hwrand_fill((const ic_hwrand_ops *)s->arg, out, len);
}

/* getrandom(2) with flags 0: blocks only until the kernel's CRNG is
 * initialised, then never; /dev/urandom where the syscall is missing. */
static int fill_os(const ic_rand_src *s, uint8_t *out, size_t len)
{
    (void)s;
    size_t done = 0;
#if defined(__linux__) && defined(SYS_getrandom)
    while (done < len) {
        long r = syscall(SYS_getrandom, out + done, len - done, 0);
        if (r > 0) {
            done += (size_t)r;
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && errno == ENOSYS)
            break;
        return 0;
    }
    if (done == len)
        return 1;
#endif
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    while (done < len) {
        ssize_t r = read(fd, out + done, len - done);
        if (r > 0)
            done += (size_t)r;
        else if (!(r < 0 && errno == EINTR))
            break;
    }
    close(fd);
    return done == len;
}

/* ---- state ---------------------------------------------------------------- */

typedef struct {
    unsigned rct_cut, apt_cut;
    unsigned rct_run, apt_count, apt_i;
    uint8_t  rct_last, apt_first;
    int      started;
    int      status;         /* IC_OK, IC_ERR_SELFTEST, IC_ERR_UNAVAILABLE */
    const char *failure;
    uint64_t samples;
} health;

static pthread_mutex_t src_lock = PTHREAD_MUTEX_INITIALIZER;
static ic_rand_src sources[MAX_SOURCES];
static health      state[MAX_SOURCES];
static size_t      nsources;
static int         built;

void ic_rand_src_lock(void)   { pthread_mutex_lock(&src_lock); }
void ic_rand_src_unlock(void) { pthread_mutex_unlock(&src_lock); }

static void reset_state(size_t i)
{
    memset(&state[i], 0, sizeof state[i]);
    state[i].rct_cut = ic_health_rct_cutoff(sources[i].h);
    state[i].apt_cut = ic_health_apt_cutoff(sources[i].h, IC_HEALTH_APT_WINDOW);
}

/* The default list: the hwrand table's hardware entries, then "os".  Under
 * src_lock. */
static void build_default(void)
{
    nsources = 0;
    for (size_t i = 0; i < ic_nimpls_hwrand && nsources < MAX_SOURCES - 1; i++) {
        const ic_hwrand_ops *ops = (const ic_hwrand_ops *)ic_impls_hwrand[i].ops;
        if (ops->next64 == NULL)
            continue;
        const char *name = ic_impls_hwrand[i].name;
        sources[nsources] = (ic_rand_src){ name, ic_impls_hwrand[i].needs, fill_hw, ops,
                                           credit_of(name) };
        nsources++;
    }
    sources[nsources++] = (ic_rand_src){ "os", 0, fill_os, NULL, credit_of("os") };
    for (size_t i = 0; i < nsources; i++)
        reset_state(i);
    built = 1;
}

static void ensure_built(void)
{
    if (!built)
        build_default();
}

void ic_rand_test_set_sources(const ic_rand_src *list, size_t n)
{
    ic_rand_src_lock();
    if (list == NULL) {
        build_default();
    } else {
        nsources = n < MAX_SOURCES ? n : MAX_SOURCES;
        for (size_t i = 0; i < nsources; i++) {
            sources[i] = list[i];
            reset_state(i);
        }
        built = 1;
    }
    ic_rand_src_unlock();
}

/* 1 when the CPU (after INCORE_CPU masks) has what source i needs. */
static int available(size_t i)
{
    return (ic_cpu_features() & sources[i].needs) == sources[i].needs;
}

static void fail(health *st, int status, const char *why)
{
    st->status = status;
    st->failure = why;
}

/* The two continuous tests over n samples; 0 and the source marked failed
 * when a cutoff was reached.  The samples are seed material, so the
 * counting has no branch on their values (equality becomes 0/1
 * arithmetic); only the window position, which is public, is branched on,
 * and the verdict is looked at once per call. */
static int health_feed(health *st, const uint8_t *p, size_t n)
{
    unsigned rct_bad = 0, apt_bad = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned b = p[i];
        unsigned same = (unsigned)(b == st->rct_last);
        st->rct_run = same * st->rct_run + 1;       /* same: run + 1; else a new run of 1 */
        st->rct_last = (uint8_t)b;
        rct_bad |= (unsigned)(st->rct_run >= st->rct_cut);
        if (st->apt_i == 0) {
            st->apt_first = (uint8_t)b;
            st->apt_count = 1;
        } else {
            st->apt_count += (unsigned)(b == st->apt_first);
            apt_bad |= (unsigned)(st->apt_count >= st->apt_cut);
        }
        if (++st->apt_i == IC_HEALTH_APT_WINDOW)
            st->apt_i = 0;
    }
    /* The verdict, and only it, becomes public (src/core/ct.h). */
    unsigned bad = rct_bad | apt_bad << 1;
    ic_ct_declassify(&bad, sizeof bad);
    if (bad) {
        fail(st, IC_ERR_SELFTEST, (bad & 1) ? "repetition count" : "adaptive proportion");
        return 0;
    }
    st->samples += n;
    return 1;
}

/* Read and test len bytes of source i; under src_lock.  On failure out is
 * wiped and the status returned. */
static int read_locked(size_t i, uint8_t *out, size_t len)
{
    health *st = &state[i];
    if (st->status == IC_OK && !available(i))
        return IC_ERR_UNAVAILABLE;   /* masked now; may come back */
    if (st->status != IC_OK)
        goto out;
    if (!st->started) {
        uint8_t tmp[IC_HEALTH_STARTUP];
        if (!sources[i].fill(&sources[i], tmp, sizeof tmp))
            fail(st, IC_ERR_UNAVAILABLE, "read failed");
        else
            health_feed(st, tmp, sizeof tmp);
        ic_wipe(tmp, sizeof tmp);
        st->started = 1;
        if (st->status != IC_OK)
            goto out;
    }
    /* Chunks, so a failed chunk never leaves earlier ones behind unwiped. */
    for (size_t done = 0; done < len;) {
        size_t n = len - done < 4096 ? len - done : 4096;
        if (!sources[i].fill(&sources[i], out + done, n)) {
            fail(st, IC_ERR_UNAVAILABLE, "read failed");
            goto out;
        }
        if (!health_feed(st, out + done, n))
            goto out;
        done += n;
    }
    return IC_OK;
out:
    if (len)
        ic_wipe(out, len);
    return st->status;
}

/* ---- public API ------------------------------------------------------------- */

size_t ic_rand_source_count(void)
{
    ic_rand_src_lock();
    ensure_built();
    size_t n = nsources;
    ic_rand_src_unlock();
    return n;
}

const char *ic_rand_source_name(size_t i)
{
    ic_rand_src_lock();
    ensure_built();
    const char *name = i < nsources ? sources[i].name : NULL;
    ic_rand_src_unlock();
    return name;
}

/* Index of name, or -1; under src_lock. */
static long find(const char *name)
{
    ensure_built();
    for (size_t i = 0; i < nsources; i++)
        if (strcmp(sources[i].name, name) == 0)
            return (long)i;
    return -1;
}

int ic_rand_source_health(const char *name, ic_rand_health *h)
{
    if (name == NULL || h == NULL)
        return IC_ERR_NULL;
    ic_rand_src_lock();
    long i = find(name);
    if (i < 0) {
        ic_rand_src_unlock();
        return IC_ERR_UNKNOWN;
    }
    const health *st = &state[i];
    h->h = sources[i].h;
    h->rct_cutoff = st->rct_cut;
    h->apt_window = IC_HEALTH_APT_WINDOW;
    h->apt_cutoff = st->apt_cut;
    h->samples = st->samples;
    h->status = st->status;
    h->failure = st->failure;
    if (st->status == IC_OK && !available((size_t)i)) {
        h->status = IC_ERR_UNAVAILABLE;
        h->failure = "not on this CPU";
    }
    ic_rand_src_unlock();
    return h->status;
}

int ic_rand_source_read(const char *name, uint8_t *out, size_t len)
{
    if (name == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(out, len);
    ic_rand_src_lock();
    long i = find(name);
    int st = i < 0 ? IC_ERR_UNKNOWN : read_locked((size_t)i, out, len);
    ic_rand_src_unlock();
    if (st != IC_OK && len)
        ic_wipe(out, len);
    return st;
}

size_t ic_rand_gather(uint8_t *out, size_t cap, unsigned want_bits, unsigned *credited)
{
    size_t used = 0;
    unsigned bits = 0;
    ic_rand_src_lock();
    ensure_built();
    for (size_t i = 0; i < nsources; i++) {
        size_t n = (want_bits + sources[i].h - 1) / sources[i].h;
        if (n > cap - used)
            break;
        if (read_locked(i, out + used, n) != IC_OK)
            continue;
        used += n;
        bits += (unsigned)n * sources[i].h;
    }
    ic_rand_src_unlock();
    *credited = bits;
    return used;
}
