/*
 * test_rand.c - the hardware random-number layer (ic_rand_hw).
 *
 * Randomness has no known answers, so this checks what can be checked
 * without ever failing on a working source (every statistical threshold is
 * at least 10 standard deviations, a false failure is below 1e-20):
 *  1. every available "hwrand" source, selected in turn: the health
 *     self-test passes, ic_rand_hw_source() names it, draws of every length
 *     0..72 at every alignment 0..15 write exactly len bytes (guard bytes
 *     around stay untouched), two 32-byte draws differ and are not stuck;
 *  2. statistics over 1 MiB of output: monobit, the ones count of each of
 *     the 64 bit positions of the 64-bit words (a stuck or biased bit of the
 *     source shows there), and no two equal consecutive 64-bit words (the
 *     SP 800-90B 4.4.1 repetition idea at full width);
 *  3. "none": IC_ERR_UNAVAILABLE and a zeroed buffer, never stale bytes;
 *  4. bad input (NULL with len > 0), unknown names, and selection by CPU
 *     mask: with every feature masked the source is "none";
 *  5. on a CPU that has RDRAND / RDSEED / DARN, the matching source is
 *     available (so the hardware path really runs on that leg).
 */
#include "testlib.h"
#include "core/internal.h"
#include "incore/rand.h"

#include <stdlib.h>
#include <string.h>

#define STAT_BYTES (1u << 20)

static int all_eq(const uint8_t *p, size_t n, uint8_t v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

/* |x - mean| <= 10 sd, i.e. (x - mean)^2 <= 100 var (no sqrt needed). */
static int within_10sd(double x, double mean, double var)
{
    return (x - mean) * (x - mean) <= 100.0 * var;
}

static void test_lengths(const char *impl)
{
    uint8_t buf[16 + 72 + 16];
    int bad_guard = 0, bad_status = 0, constant = 0;
    for (size_t off = 0; off < 16; off++)
        for (size_t len = 0; len <= 72; len++) {
            memset(buf, 0x5a, sizeof buf);
            bad_status += ic_rand_hw(buf + off, len) != IC_OK;
            bad_guard += !all_eq(buf, off, 0x5a) ||
                         !all_eq(buf + off + len, sizeof buf - off - len, 0x5a);
            /* 16+ random bytes all equal to the fill: probability 2^-128 */
            constant += len >= 16 && all_eq(buf + off, len, 0x5a);
        }
    CHECK(bad_status == 0, "hwrand/%s: %d draws failed", impl, bad_status);
    CHECK(bad_guard == 0, "hwrand/%s: %d draws wrote outside [out, out+len)", impl, bad_guard);
    CHECK(constant == 0, "hwrand/%s: %d draws left the buffer untouched", impl, constant);
}

static void test_stats(const char *impl)
{
    uint8_t *m = malloc(STAT_BYTES);
    if (!CHECK(m != NULL, "malloc"))
        return;
    CHECK(ic_rand_hw(m, STAT_BYTES) == IC_OK, "hwrand/%s: 1 MiB draw", impl);

    /* The words as the source delivered them: rand.c stores each 64-bit
     * draw little-endian, so bit b of word w is bit b%8 of byte 8w+b/8. */
    const size_t nwords = STAT_BYTES / 8;
    unsigned long pos[64] = {0}, ones = 0, repeats = 0;
    for (size_t w = 0; w < nwords; w++) {
        uint64_t v = ic_load64_le(m + 8 * w);
        for (int b = 0; b < 64; b++)
            pos[b] += (unsigned long)(v >> b & 1);
        if (w && v == ic_load64_le(m + 8 * (w - 1)))
            repeats++;
    }
    for (int b = 0; b < 64; b++)
        ones += pos[b];

    /* Binomial(n, 1/2): mean n/2, variance n/4. */
    double n = 8.0 * STAT_BYTES;
    CHECK(within_10sd((double)ones, n / 2, n / 4), "hwrand/%s: monobit %lu ones in %.0f bits",
          impl, ones, n);
    int badpos = 0;
    for (int b = 0; b < 64; b++)
        badpos += !within_10sd((double)pos[b], nwords / 2.0, nwords / 4.0);
    CHECK(badpos == 0, "hwrand/%s: %d of 64 bit positions biased", impl, badpos);
    /* P(a repeat) ~ nwords * 2^-64 ~ 7e-15 */
    CHECK(repeats == 0, "hwrand/%s: %lu repeated 64-bit words", impl, repeats);
    free(m);
}

static void per_impl(const char *impl, void *arg)
{
    (void)arg;
    uint8_t a[32], b[32];
    CHECK(strcmp(ic_rand_hw_source(), impl) == 0, "source %s, selected %s", ic_rand_hw_source(), impl);
    CHECK(ic_selftest("hwrand") == IC_OK, "hwrand/%s: health self-test", impl);

    if (strcmp(impl, "none") == 0) {
        memset(a, 0xa5, sizeof a);
        CHECK(ic_rand_hw(a, sizeof a) == IC_ERR_UNAVAILABLE, "none: IC_ERR_UNAVAILABLE");
        CHECK(all_eq(a, sizeof a, 0), "none: buffer zeroed");
        CHECK(ic_rand_hw(a, 0) == IC_ERR_UNAVAILABLE, "none: len 0 is still unavailable");
        CHECK(ic_rand_hw(NULL, 0) == IC_ERR_UNAVAILABLE, "none: NULL, 0");
        CHECK(ic_rand_hw(NULL, 8) == IC_ERR_NULL, "none: NULL, 8");
        return;
    }
    CHECK(ic_rand_hw(a, sizeof a) == IC_OK && ic_rand_hw(b, sizeof b) == IC_OK, "hwrand/%s: draws", impl);
    CHECK(memcmp(a, b, sizeof a) != 0, "hwrand/%s: two draws equal", impl);
    CHECK(!all_eq(a, sizeof a, 0) && !all_eq(a, sizeof a, 0xff), "hwrand/%s: stuck output", impl);
    CHECK(ic_rand_hw(NULL, 0) == IC_OK, "hwrand/%s: NULL, 0", impl);
    CHECK(ic_rand_hw(NULL, 1) == IC_ERR_NULL, "hwrand/%s: NULL, 1", impl);
    test_lengths(impl);
    test_stats(impl);
}

/* Hardware present => its source available (and thus run above). */
static void test_detection(void)
{
    uint64_t f = ic_cpu_features();
    static const struct { const char *name; int bit; } srcs[] = {
        { "rdseed", IC_CPU_RDSEED }, { "rdrand", IC_CPU_RDRAND }, { "darn", IC_CPU_PPC_DARN },
        { "rndr", IC_CPU_ARM_RNG }, { "xstore", IC_CPU_PADLOCK_RNG },
    };
    int hw = 0;
    for (size_t s = 0; s < sizeof srcs / sizeof srcs[0]; s++) {
        if (!(f & IC_F(srcs[s].bit)))
            continue;
        hw = 1;
        int found = 0;
        for (size_t i = 0; i < ic_impl_count("hwrand"); i++)
            if (strcmp(ic_impl_name("hwrand", i), srcs[s].name) == 0)
                found = ic_impl_available("hwrand", i);
        CHECK(found, "CPU has %s but the hwrand source is not available", srcs[s].name);
    }
    /* The automatic choice is hardware whenever there is some. */
    CHECK(hw == (strcmp(ic_rand_hw_source(), "none") != 0), "source %s with hw=%d",
          ic_rand_hw_source(), hw);
    size_t n = ic_impl_count("hwrand");
    CHECK(n >= 1 && strcmp(ic_impl_name("hwrand", n - 1), "none") == 0, "last entry is none");
    printf("hwrand source on this CPU: %s\n", ic_rand_hw_source());
}

static void test_selection(void)
{
    CHECK(ic_impl_select("hwrand", "nonesuch") == IC_ERR_UNKNOWN, "unknown name");
    CHECK(ic_impl_select("hwrand", "none") == IC_OK, "select none");
    CHECK(strcmp(ic_rand_hw_source(), "none") == 0, "none selected");
    CHECK(ic_impl_select("hwrand", NULL) == IC_OK, "back to auto");

    /* Every feature masked: only "none" is left. */
    uint64_t keep = ic_cpu_features();
    CHECK(ic_cpu_set_mask(0) == IC_OK, "mask all");
    CHECK(strcmp(ic_rand_hw_source(), "none") == 0, "masked: source %s", ic_rand_hw_source());
    uint8_t x[8];
    CHECK(ic_rand_hw(x, sizeof x) == IC_ERR_UNAVAILABLE, "masked: unavailable");
    CHECK(ic_cpu_set_mask(keep) == IC_OK, "unmask");
}

int main(void)
{
    test_detection();
    CHECK(tl_for_each_impl("hwrand", per_impl, NULL) >= 1, "no hwrand implementation ran");
    test_selection();
    return tl_finish();
}
