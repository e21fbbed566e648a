/*
 * test_rand_health.c - the SP 800-90B continuous health tests of the
 * entropy sources (src/rand/rand_source.c).
 *
 *  1. the cutoffs equal an independent computation of the 90B formulas
 *     (log-gamma binomial tail here, a recurrence in the library);
 *  2. every source this machine has passes its start-up and continuous
 *     tests over 256 KiB, and its health record says so;
 *  3. injected faulty sources: stuck (one value), failing every call,
 *     biased (4 bits of entropy per byte credited with 8), a short-period pattern: each is caught,
 *     by the test meant for it, the output is zeroed, and the failure is
 *     sticky and visible through ic_rand_source_health();
 *  4. a good injected source (a PRNG) is not flagged over 4 MiB;
 *  5. bad input.
 */
#include "testlib.h"
#include "rand/rand_source.h"
#include "incore/rand.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* 90B 4.4.2 cutoff, computed independently: least C with
 * P(1 + Bin(W-1, 2^-h) >= C) <= 2^-40. */
static unsigned apt_ref(unsigned h, unsigned w)
{
    unsigned n = w - 1;
    double lp = -(double)h * log(2.0), lq = log1p(-pow(2.0, -(double)h));
    for (unsigned k = 0; k <= n + 1; k++) {
        double tail = 0.0;
        for (unsigned j = k; j <= n; j++)
            tail += exp(lgamma(n + 1.0) - lgamma(j + 1.0) - lgamma(n - j + 1.0) + j * lp + (n - j) * lq);
        if (tail <= ldexp(1.0, -40))
            return k + 1;
    }
    return n + 2;
}

static void test_cutoffs(void)
{
    for (unsigned h = 1; h <= 8; h++) {
        unsigned rct = 1 + (unsigned)ceil(40.0 / h);
        CHECK(ic_health_rct_cutoff(h) == rct, "RCT cutoff h=%u: %u, want %u", h, ic_health_rct_cutoff(h), rct);
        unsigned apt = apt_ref(h, IC_HEALTH_APT_WINDOW);
        CHECK(ic_health_apt_cutoff(h, IC_HEALTH_APT_WINDOW) == apt, "APT cutoff h=%u: %u, want %u", h,
              ic_health_apt_cutoff(h, IC_HEALTH_APT_WINDOW), apt);
        printf("h=%u  RCT cutoff %u  APT cutoff %u/%u\n", h, rct, apt, IC_HEALTH_APT_WINDOW);
    }
}

static void test_machine_sources(void)
{
    size_t n = ic_rand_source_count(), healthy = 0;
    uint8_t *buf = malloc(1 << 18);
    if (!CHECK(buf != NULL && n >= 1, "sources"))
        return;
    CHECK(strcmp(ic_rand_source_name(n - 1), "os") == 0, "last source is os");
    CHECK(ic_rand_source_name(n) == NULL, "name past the end");
    for (size_t i = 0; i < n; i++) {
        const char *name = ic_rand_source_name(i);
        ic_rand_health h;
        int avail = ic_rand_source_health(name, &h) != IC_ERR_UNAVAILABLE;
        int st = ic_rand_source_read(name, buf, 1 << 18);
        if (!avail) {
            CHECK(st == IC_ERR_UNAVAILABLE && all_zero(buf, 1 << 18), "%s: unavailable, zeroed", name);
            printf("source %-8s not on this CPU\n", name);
            continue;
        }
        CHECK(st == IC_OK, "%s: 256 KiB read: %s", name, ic_status_str(st));
        CHECK(ic_rand_source_health(name, &h) == IC_OK && h.failure == NULL, "%s: healthy", name);
        CHECK(h.samples == IC_HEALTH_STARTUP + (1 << 18), "%s: %llu samples tested", name,
              (unsigned long long)h.samples);
        CHECK(h.rct_cutoff == ic_health_rct_cutoff(h.h) && h.apt_window == IC_HEALTH_APT_WINDOW,
              "%s: cutoffs", name);
        healthy++;
        printf("source %-8s healthy: h=%u RCT %u APT %u/%u, %llu samples\n", name, h.h, h.rct_cutoff,
               h.apt_cutoff, h.apt_window, (unsigned long long)h.samples);
        tl_exercised("randsrc", name);
    }
    CHECK(healthy >= 1, "at least the os source is healthy");
    free(buf);
}

/* ---- injected sources ---- */
static uint64_t prng = 0x9e3779b97f4a7c15u;
static uint8_t next_byte(void)
{
    prng ^= prng << 13; prng ^= prng >> 7; prng ^= prng << 17;
    return (uint8_t)(prng >> 32);
}
static int fill_good(const ic_rand_src *s, uint8_t *o, size_t n)
{
    (void)s;
    for (size_t i = 0; i < n; i++) o[i] = next_byte();
    return 1;
}
static int fill_stuck(const ic_rand_src *s, uint8_t *o, size_t n) { (void)s; memset(o, 0x42, n); return 1; }
static int fill_fail(const ic_rand_src *s, uint8_t *o, size_t n) { (void)s; (void)o; (void)n; return 0; }
/* 4 bits of entropy per byte, credited with 8; consecutive bytes always
 * differ (bit 3 alternates), so only the proportion test can see it: the
 * window's first value comes ~32 times in 512, the cutoff is 20. */
static int fill_biased(const ic_rand_src *s, uint8_t *o, size_t n)
{
    (void)s;
    static unsigned k;
    for (size_t i = 0; i < n; i++)
        o[i] = (uint8_t)((next_byte() & 7) | ((k++ & 1) << 3));
    return 1;
}
/* Period 4: no long runs, so only the proportion test can see it. */
static int fill_cycle(const ic_rand_src *s, uint8_t *o, size_t n)
{
    (void)s;
    static unsigned k;
    for (size_t i = 0; i < n; i++) o[i] = (uint8_t)(0x11 * (k++ & 3));
    return 1;
}

static void expect_caught(const char *name, int want_status, const char *want_why)
{
    uint8_t buf[4096];
    ic_rand_health h;
    memset(buf, 0xa5, sizeof buf);
    int st = ic_rand_source_read(name, buf, sizeof buf);
    CHECK(st == want_status, "%s: status %s, want %s", name, ic_status_str(st), ic_status_str(want_status));
    CHECK(all_zero(buf, sizeof buf), "%s: output zeroed", name);
    CHECK(ic_rand_source_health(name, &h) == want_status && h.failure && strcmp(h.failure, want_why) == 0,
          "%s: health says %s, want %s", name, h.failure ? h.failure : "(healthy)", want_why);
    memset(buf, 0xa5, sizeof buf);
    CHECK(ic_rand_source_read(name, buf, 16) == want_status && all_zero(buf, 16), "%s: failure is sticky", name);
}

static void test_faults(void)
{
    const ic_rand_src list[] = {
        { "good", 0, fill_good, NULL, 8 },   { "stuck", 0, fill_stuck, NULL, 4 },
        { "fails", 0, fill_fail, NULL, 4 },  { "biased", 0, fill_biased, NULL, 8 },
        { "cycle", 0, fill_cycle, NULL, 4 },
    };
    ic_rand_test_set_sources(list, sizeof list / sizeof list[0]);
    CHECK(ic_rand_source_count() == 5, "injected list");
    expect_caught("stuck", IC_ERR_SELFTEST, "repetition count");
    expect_caught("fails", IC_ERR_UNAVAILABLE, "read failed");
    expect_caught("biased", IC_ERR_SELFTEST, "adaptive proportion");
    expect_caught("cycle", IC_ERR_SELFTEST, "adaptive proportion");

    uint8_t *buf = malloc(1 << 22);
    if (CHECK(buf != NULL, "malloc")) {
        CHECK(ic_rand_source_read("good", buf, 1 << 22) == IC_OK, "good PRNG source passes 4 MiB");
        free(buf);
    }
    /* The stuck source flagged at the sample that reached the cutoff: the
     * start-up test already saw it (1024 equal samples). */
    ic_rand_health h;
    CHECK(ic_rand_source_health("stuck", &h) == IC_ERR_SELFTEST && h.samples == 0,
          "stuck: failed, no samples accepted (%llu)", (unsigned long long)h.samples);
    ic_rand_test_set_sources(NULL, 0);
}

static void test_badinput(void)
{
    uint8_t b[8];
    ic_rand_health h;
    CHECK(ic_rand_source_read(NULL, b, 8) == IC_ERR_NULL, "NULL name");
    CHECK(ic_rand_source_read("os", NULL, 8) == IC_ERR_NULL, "NULL out");
    CHECK(ic_rand_source_read("os", NULL, 0) == IC_OK, "NULL, 0");
    CHECK(ic_rand_source_read("nonesuch", b, 8) == IC_ERR_UNKNOWN && all_zero(b, 8), "unknown source");
    CHECK(ic_rand_source_health("nonesuch", &h) == IC_ERR_UNKNOWN, "unknown source health");
    CHECK(ic_rand_source_health("os", NULL) == IC_ERR_NULL, "NULL health");
}

int main(void)
{
    test_cutoffs();
    test_machine_sources();
    test_faults();
    test_badinput();
    return tl_finish();
}
