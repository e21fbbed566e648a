/*
 * rand.c - `incore rand` (random bytes, like `openssl rand`) and
 * `incore rngtest` (statistical tests of a random stream).
 *
 * rngtest runs two families of tests over the same bytes:
 *  - the statistics of CRAP.C, the Centaur RNG analysis program of the VIA
 *    PadLock Programming Guide (chapter 6.1: chi-square of the byte
 *    frequencies and a Kolmogorov-Smirnov test of the per-block chi-square
 *    p-values), with the serial correlation, Monte Carlo pi and entropy
 *    estimate that CRAP.C's sibling `ent` reports;
 *  - the FIPS 140-2 power-up tests (monobit, poker, runs, long run) over
 *    each 20,000-bit block, as rng-tools' rngtest does.
 * Every test yields a p-value and fails below the stated significance
 * (1e-6, two-sided where both tails are suspicious); the FIPS result is the
 * p-value of the number of failed blocks given the rate a good generator
 * has.  The entropy estimates are reported, not tested (the chi-square test
 * already judges the same frequencies).
 *
 * rngtest reads the first N bytes of its input (--bytes, 1 MiB by default:
 * 256 KS blocks and 419 FIPS blocks, a fraction of a second) and gathers
 * every statistic as the bytes stream by, in a fixed amount of memory
 * (about 8 MiB) whatever N is, so an endless input such as /dev/urandom
 * or a source is safe with any N.  With --source it also reports the
 * rate the source delivered, timed around its reads only: the figure users
 * of hardware generators ask for (the VIA PadLock Programming Guide, 2.3,
 * gives the RNG's expected rates to compare with).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include "incore/incore.h"
#include "tools.h"

#define SIGNIFICANCE  1e-6
#define PI            3.14159265358979323846
#define FIPS_BLOCK    2500           /* bytes: 20,000 bits */
#define FIPS_P0       0.0015         /* block failure rate of a good generator (measured ~0.0008-0.001) */
#define KS_BLOCK      4096           /* bytes per chi-square block of the KS test */
#define DEFAULT_BYTES (1u << 20)     /* rngtest without --bytes */

static const char rand_usage[] =
    "usage: incore rand [-hex|-base64] [--source NAME] [-out FILE] N[K|M|G]\n"
    "\n"
    "Write N random bytes (K, M, G: times 2^10, 2^20, 2^30), like `openssl rand`.\n"
    "By default they come from ic_random, the CTR_DRBG (AES-256, SP 800-90A)\n"
    "seeded from every healthy entropy source.\n"
    "\n"
    "  -hex, --hex         print them as lowercase hex, one line\n"
    "  -base64, --base64   print them as base64, 64 characters a line\n"
    "  --source NAME       raw bytes of one entropy source instead, through its\n"
    "                      SP 800-90B health tests (`incore info` lists the sources\n"
    "                      of this build: rdseed, rdrand, darn, rndr, xstore, os);\n"
    "                      \"drbg\": ic_random\n"
    "  -out FILE           write to FILE instead of standard output\n"
    "      --help          this text\n"
    "\n"
    "Exit status: 0 on success; 1 when the generator or source fails (a source that\n"
    "failed a health test is named with the test, and nothing more is written);\n"
    "2 on a usage error (also an unknown source) or when the output cannot be\n"
    "written.\n";

static const char rngtest_usage[] =
    "usage: incore rngtest [--source NAME] [--bytes N[K|M|G]|all] [--json] [FILE|-]\n"
    "\n"
    "Test a random stream: the first N bytes (--bytes; default 1M, i.e. 1 MiB) of\n"
    "FILE (\"-\" or none: standard input) or of a source (--source NAME: an entropy\n"
    "source of `incore info`, or \"drbg\" for ic_random).  The statistics are\n"
    "gathered as the bytes are read, in constant memory, so any N works, and an\n"
    "endless FILE such as /dev/urandom is read only up to N.  Tests, each a\n"
    "p-value that fails below the significance 1e-6:\n"
    "  chi-square        byte frequencies, 255 degrees of freedom (two-sided)\n"
    "  ks                Kolmogorov-Smirnov of the chi-square p-values of 4 KiB blocks\n"
    "                    (CRAP.C's test; needs 8 blocks)\n"
    "  serial            serial correlation of consecutive bytes (two-sided)\n"
    "  monte-carlo-pi    6-byte (x, y) points in the quarter circle (two-sided)\n"
    "  fips-140-2        monobit, poker, runs and long run on every 20,000-bit block,\n"
    "                    as rng-tools' rngtest; fails when more blocks fail than a\n"
    "                    good generator's rate (0.15%) explains\n"
    "and the Shannon and most-common-value (min-) entropy per byte, reported only.\n"
    "With --source, the rate the source delivered (Mbit/s over its reads alone,\n"
    "not the tests) is reported too: for xstore, the VIA RNG at one random byte\n"
    "per XSTORE, the guide's setting for cryptographic use.\n"
    "\n"
    "  --source NAME     test NAME's output instead of reading a file\n"
    "  --bytes N         test N bytes (default 1M; at least 2500); \"all\": the whole\n"
    "                    FILE, to its end (not with --source)\n"
    "  --json            one JSON object instead of the report\n"
    "      --help        this text\n"
    "\n"
    "Exit status: 0 when every test passes; 1 when one fails (or the source fails);\n"
    "2 on a usage error, input that cannot be read, or fewer than 2,500 bytes.\n";

/* The value of the option argv[*i], taking it; NULL when there is none or
 * the next argument is an option itself ("--source --bytes 5"). */
static const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc || strncmp(argv[*i + 1], "--", 2) == 0)
        return NULL;
    return argv[++*i];
}

/* N with an optional K/M/G suffix; 0 on success. */
static int parse_count(const char *s, uint64_t *out)
{
    char *e;
    if (!isdigit((unsigned char)s[0]))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 10);
    int shift = 0;
    if (*e == 'K' || *e == 'k')
        shift = 10, e++;
    else if (*e == 'M' || *e == 'm')
        shift = 20, e++;
    else if (*e == 'G' || *e == 'g')
        shift = 30, e++;
    if (*e || errno || v > (UINT64_MAX >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

/* 0 when name is "drbg" or a source of this build; else the usage error,
 * naming the sources there are, and 1. */
static int unknown_source(const char *cmd, const char *name)
{
    if (strcmp(name, "drbg") == 0)
        return 0;
    char list[256] = "";
    size_t len = 0;
    for (size_t i = 0; ic_rand_source_name(i); i++) {
        if (strcmp(ic_rand_source_name(i), name) == 0)
            return 0;
        int k = snprintf(list + len, sizeof list - len, "%s, ", ic_rand_source_name(i));
        if (k > 0 && (size_t)k < sizeof list - len)
            len += (size_t)k;
    }
    incore_usage_error(cmd, "unknown source '%s' (this build has %sdrbg)", name, list);
    return 1;
}

/* Fill buf from ic_random ("drbg") or one source; prints why on failure. */
static int draw(const char *cmd, const char *source, uint8_t *buf, size_t n)
{
    int st = source == NULL || strcmp(source, "drbg") == 0 ? ic_random(buf, n)
                                                            : ic_rand_source_read(source, buf, n);
    if (st == IC_OK)
        return 0;
    ic_rand_health h;
    if (source && ic_rand_source_health(source, &h) != IC_OK && h.failure)
        fprintf(stderr, "incore %s: source %s %s: %s; not used\n", cmd, source,
                st == IC_ERR_SELFTEST ? "failed its SP 800-90B health test" : "is unusable", h.failure);
    else
        fprintf(stderr, "incore %s: %s: %s\n", cmd, source ? source : "ic_random", ic_status_str(st));
    return -1;
}

/* ---- incore rand -------------------------------------------------------- */

static void put_base64(FILE *f, const uint8_t *p, size_t n, int *col, int final)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i + 2 < n || (final && i < n); i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char q[4] = {tab[v >> 18 & 63], tab[v >> 12 & 63], i + 1 < n ? tab[v >> 6 & 63] : '=',
                     i + 2 < n ? tab[v & 63] : '='};
        fwrite(q, 1, 4, f);
        if ((*col += 4) == 64) {
            fputc('\n', f);
            *col = 0;
        }
    }
}

int incore_cmd_rand(int argc, char **argv)
{
    const char *source = NULL, *outname = NULL, *count = NULL;
    int hex = 0, b64 = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0) {
            fputs(rand_usage, stdout);
            return 0;
        } else if (strcmp(a, "-hex") == 0 || strcmp(a, "--hex") == 0) {
            hex = 1;
        } else if (strcmp(a, "-base64") == 0 || strcmp(a, "--base64") == 0) {
            b64 = 1;
        } else if (strcmp(a, "--source") == 0 || strcmp(a, "-source") == 0 ||
                   strcmp(a, "-out") == 0 || strcmp(a, "--out") == 0) {
            const char *v = option_value(argc, argv, &i);
            if (v == NULL)
                return incore_usage_error("rand", "option '%s' needs a value", a);
            *(a[1] == 's' || a[2] == 's' ? &source : &outname) = v;
        } else if (a[0] == '-' && a[1] && !isdigit((unsigned char)a[1])) {   /* -5: a bad count */
            return incore_usage_error("rand", "unknown option '%s'", a);
        } else if (count) {
            return incore_usage_error("rand", "unexpected argument '%s'", a);
        } else {
            count = a;
        }
    }
    uint64_t n;
    if (count == NULL)
        return incore_usage_error("rand", "missing the byte count N");
    if (parse_count(count, &n) != 0)
        return incore_usage_error("rand", "bad byte count '%s' (N, NK, NM or NG)", count);
    if (hex && b64)
        return incore_usage_error("rand", "-hex and -base64 exclude each other");
    if (source && unknown_source("rand", source))
        return 2;
    FILE *f = stdout;
    if (outname && (f = fopen(outname, "wb")) == NULL) {
        fprintf(stderr, "incore rand: %s: %s\n", outname, strerror(errno));
        return 2;
    }
    static uint8_t buf[1 << 16];   /* a multiple of 3: base64 lines stay whole */
    int col = 0, rc = 0;
    size_t chunk = sizeof buf - sizeof buf % 3;
    for (uint64_t done = 0; done < n && !ferror(f);) {
        size_t k = n - done < chunk ? (size_t)(n - done) : chunk;
        if (draw("rand", source, buf, k) != 0) {
            rc = 1;
            break;
        }
        if (hex)
            for (size_t i = 0; i < k; i++)
                fprintf(f, "%02x", buf[i]);
        else if (b64)
            put_base64(f, buf, k, &col, done + k == n);
        else
            fwrite(buf, 1, k, f);
        done += k;
    }
    ic_wipe(buf, sizeof buf);
    if (rc == 0 && ((hex && n) || (b64 && col)))
        fputc('\n', f);
    if (fflush(f) != 0 || ferror(f) || (f != stdout && fclose(f) != 0)) {
        fprintf(stderr, "incore rand: %s: write error: %s\n", outname ? outname : "standard output",
                strerror(errno));
        rc = 2;
    }
    return rc;
}

/* ---- statistics ------------------------------------------------------------ */

/* Regularized upper incomplete gamma Q(a, x): series below a+1, Lentz's
 * continued fraction above (Abramowitz & Stegun 6.5.29, 6.5.31). */
static double gamma_q(double a, double x)
{
    if (x <= 0)
        return 1.0;
    double lg = lgamma(a);
    if (x < a + 1) {
        double sum = 1.0 / a, term = sum;
        for (int n = 1; n < 1000; n++) {
            term *= x / (a + n);
            sum += term;
            if (term < sum * 1e-16)
                break;
        }
        return 1.0 - sum * exp(-x + a * log(x) - lg);
    }
    double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
    for (int i = 1; i < 1000; i++) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (fabs(d) < 1e-300) d = 1e-300;
        c = b + an / c;
        if (fabs(c) < 1e-300) c = 1e-300;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-16)
            break;
    }
    return exp(-x + a * log(x) - lg) * h;
}

static double chi2_upper(double chi2, double df) { return gamma_q(df / 2, chi2 / 2); }
static double two_sided(double upper) { double p = 2 * (upper < 0.5 ? upper : 1 - upper); return p > 1 ? 1 : p; }
static double z_two_sided(double z) { return erfc(fabs(z) / sqrt(2.0)); }

/* Kolmogorov distribution tail P(K > t) (its alternating series). */
static double ks_tail(double t)
{
    if (t < 0.2)
        return 1.0;
    double s = 0;
    for (int k = 1; k < 100; k++)
        s += (k & 1 ? 2 : -2) * exp(-2.0 * k * k * t * t);
    return s < 0 ? 0 : s > 1 ? 1 : s;
}

static double chi2_bytes(const uint8_t *p, size_t n, unsigned long cnt[256])
{
    memset(cnt, 0, 256 * sizeof cnt[0]);
    for (size_t i = 0; i < n; i++)
        cnt[p[i]]++;
    double e = n / 256.0, x = 0;
    for (int i = 0; i < 256; i++)
        x += (cnt[i] - e) * (cnt[i] - e) / e;
    return x;
}

typedef struct {
    const char *name;
    double stat, p;
    int ran, pass;
    char note[96];
} result;

static void judge(result *r, double p)
{
    r->p = p;
    r->ran = 1;
    r->pass = p >= SIGNIFICANCE;
}

/* FIPS 140-2 4.9.1 on one 20,000-bit block; bit i is bit 7 - i%8 of byte
 * i/8.  Sets one flag per test that failed. */
static void fips_block(const uint8_t *b, int fail[4])
{
    unsigned ones = 0, poker[16] = {0}, runs[2][7] = {{0}}, longest = 0, run = 0;
    int last = -1;
    for (int i = 0; i < FIPS_BLOCK; i++) {
        ones += (unsigned)__builtin_popcount(b[i]);
        poker[b[i] >> 4]++;
        poker[b[i] & 15]++;
        for (int j = 7; j >= 0; j--) {
            int bit = b[i] >> j & 1;
            if (bit == last) {
                run++;
            } else {
                if (last >= 0)
                    runs[last][run < 6 ? run : 6]++;
                last = bit;
                run = 1;
            }
            if (run > longest)
                longest = run;
        }
    }
    runs[last][run < 6 ? run : 6]++;
    double x = 0;
    for (int i = 0; i < 16; i++)
        x += (double)poker[i] * poker[i];
    x = 16.0 / 5000 * x - 5000;
    static const unsigned lo[7] = {0, 2315, 1114, 527, 240, 103, 103},
                          hi[7] = {0, 2685, 1386, 723, 384, 209, 209};
    int runs_bad = 0;
    for (int b2 = 0; b2 < 2; b2++)
        for (int l = 1; l <= 6; l++)
            runs_bad |= runs[b2][l] < lo[l] || runs[b2][l] > hi[l];
    fail[0] = !(ones > 9725 && ones < 10275);
    fail[1] = !(x > 2.16 && x < 46.17);
    fail[2] = runs_bad;
    fail[3] = longest >= 26;
}

/* One term of Binomial(n, p) at j, from logs. */
static double binom_pmf(double n, double p, double j)
{
    return exp(lgamma(n + 1) - lgamma(j + 1) - lgamma(n - j + 1) + j * log(p) + (n - j) * log1p(-p));
}

/* P(Binomial(n, p) >= k).  The terms fall away from the mean n*p, so the
 * tail is summed from k outwards: upwards when k is above the mean, else
 * 1 - P(X <= k-1) summed downwards; either way few terms for any n. */
static double binom_tail(uint64_t n, double p, uint64_t k)
{
    if (k == 0)
        return 1.0;
    double s = 0, dn = (double)n;
    if ((double)k > dn * p) {
        for (uint64_t j = k; j <= n; j++) {
            double t = binom_pmf(dn, p, (double)j);
            s += t;
            if (t < s * 1e-17)
                break;
        }
        return s > 1 ? 1 : s;
    }
    for (uint64_t j = k; j-- > 0;) {
        double t = binom_pmf(dn, p, (double)j);
        s += t;
        if (t < s * 1e-17)
            break;
    }
    return s > 1 ? 0 : 1 - s;
}

/* ---- incore rngtest: the statistics, gathered as the bytes stream by ---- */

/* The bytes are fed in chunks of RT_CHUNK, a multiple of every block the
 * tests work on (FIPS 2,500, KS 4,096, Monte Carlo 6 bytes), so that only
 * the last, short chunk has a partial block, which is left out as it would
 * be from the whole stream.  Memory is this chunk and the histogram below,
 * whatever the number of bytes. */
#define RT_CHUNK (3 * 5 * 5 * 5 * 5 * 4096)   /* 7,680,000 = lcm(2500, 4096, 6) */
#define KS_BINS  65536                         /* histogram of the block p-values */

typedef struct {
    uint64_t n;                /* bytes seen */
    uint64_t cnt[256];         /* byte frequencies */
    uint64_t ks_blocks;
    uint64_t *ks_hist;         /* KS_BINS counts of the block p-values */
    double s1, s2, s12;        /* serial correlation sums */
    int first, prev;           /* the first and the latest byte (-1: none yet) */
    uint64_t mc_points, mc_in; /* Monte Carlo pi */
    uint64_t fips_blocks, fips_failed, fips_fails[4];
} rt_stats;

/* A fresh statistics state (the histogram for the KS test allocated);
 * 0 when out of memory. */
static int rt_init(rt_stats *st)
{
    memset(st, 0, sizeof *st);
    st->prev = st->first = -1;
    st->ks_hist = calloc(KS_BINS, sizeof *st->ks_hist);
    return st->ks_hist != NULL;
}

static void rt_feed(rt_stats *st, const uint8_t *p, size_t n)
{
    if (n == 0)
        return;
    st->n += n;
    for (size_t i = 0; i < n; i++)
        st->cnt[p[i]]++;

    /* KS: the chi-square p-value of each whole 4 KiB block, binned */
    for (size_t b = 0; b + KS_BLOCK <= n; b += KS_BLOCK) {
        unsigned long c[256];
        double pv = chi2_upper(chi2_bytes(p + b, KS_BLOCK, c), 255);
        size_t bin = (size_t)(pv * KS_BINS);
        st->ks_hist[bin < KS_BINS ? bin : KS_BINS - 1]++;
        st->ks_blocks++;
    }

    /* serial correlation: exact integer sums per chunk, the pair across the
     * previous chunk's last byte included */
    uint64_t s1 = 0, s2 = 0, s12 = 0;
    for (size_t i = 0; i < n; i++) {
        s1 += p[i];
        s2 += (uint64_t)p[i] * p[i];
        if (i + 1 < n)
            s12 += (uint64_t)p[i] * p[i + 1];
    }
    if (st->prev >= 0)
        s12 += (uint64_t)st->prev * p[0];
    else
        st->first = p[0];
    st->prev = p[n - 1];
    st->s1 += (double)s1, st->s2 += (double)s2, st->s12 += (double)s12;

    /* Monte Carlo pi: 24-bit x, y from each whole 6 bytes */
    const double r2 = (double)(1u << 24) * (1u << 24);
    for (size_t i = 0; i + 6 <= n; i += 6) {
        const uint8_t *q = p + i;
        double x = q[0] << 16 | q[1] << 8 | q[2], y = q[3] << 16 | q[4] << 8 | q[5];
        st->mc_in += x * x + y * y <= r2;
        st->mc_points++;
    }

    /* FIPS 140-2 on each whole 20,000-bit block */
    for (size_t b = 0; b + FIPS_BLOCK <= n; b += FIPS_BLOCK) {
        int f[4];
        fips_block(p + b, f);
        for (int t = 0; t < 4; t++)
            st->fips_fails[t] += (uint64_t)f[t];
        st->fips_failed += (uint64_t)(f[0] | f[1] | f[2] | f[3]);
        st->fips_blocks++;
    }
}

/* The report of what rt_feed gathered; 0 when every test passes, else 1. */
/* Seconds on the monotonic clock, for the source's rate. */
static double mono_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* rate: bytes per second drawn from a source (time inside the draws only,
 * not the statistics), or a negative value for a file. */
static int rt_report(FILE *out, const rt_stats *st, const char *what, int more, int json, double rate)
{
    uint64_t n = st->n;
    double dn = (double)n;
    result r[5] = {{"chi-square", 0, 0, 0, 0, ""}, {"ks", 0, 0, 0, 0, ""}, {"serial", 0, 0, 0, 0, ""},
                   {"monte-carlo-pi", 0, 0, 0, 0, ""}, {"fips-140-2", 0, 0, 0, 0, ""}};

    /* chi-square over all bytes (two-sided: too even is as odd as too uneven) */
    double e = dn / 256, x = 0;
    for (int i = 0; i < 256; i++)
        x += ((double)st->cnt[i] - e) * ((double)st->cnt[i] - e) / e;
    r[0].stat = x;
    judge(&r[0], two_sided(chi2_upper(x, 255)));

    /* entropy estimates from the same counts */
    double shannon = 0, maxc = 0;
    for (int i = 0; i < 256; i++) {
        double c = (double)st->cnt[i];
        if (c > 0)
            shannon -= c / dn * log2(c / dn);
        if (c > maxc)
            maxc = c;
    }
    /* 90B 6.3.1 most common value: the upper 99% bound of p_max */
    double pm = maxc / dn, pu = pm + 2.576 * sqrt(pm * (1 - pm) / (dn - 1));
    double minh = pu >= 1 ? 0.0 : -log2(pu);

    /* KS of the per-block chi-square p-values (CRAP.C), from the histogram:
     * for the points of bin [lo, hi) the empirical CDF steps from c0/nb to
     * c1/nb, so max(c1/nb - lo, hi - c0/nb) bounds the distance there; the
     * bound exceeds the exact statistic by at most the bin width, 2^-16. */
    uint64_t nb = st->ks_blocks;
    if (nb >= 8) {
        double d = 0, c0 = 0;
        for (size_t k = 0; k < KS_BINS; k++) {
            if (!st->ks_hist[k])
                continue;
            double c1 = c0 + (double)st->ks_hist[k], lo = (double)k / KS_BINS, hi = (double)(k + 1) / KS_BINS;
            d = fmax(d, fmax(c1 / (double)nb - lo, hi - c0 / (double)nb));
            c0 = c1;
        }
        d = fmin(d, 1.0);
        double sn = sqrt((double)nb);
        r[1].stat = d;
        judge(&r[1], ks_tail((sn + 0.12 + 0.11 / sn) * d));
        snprintf(r[1].note, sizeof r[1].note, "%llu blocks", (unsigned long long)nb);
    } else {
        snprintf(r[1].note, sizeof r[1].note, "skipped: %llu blocks of 4 KiB, needs 8",
                 (unsigned long long)nb);
    }

    /* serial correlation (ent's, cyclic: the last byte pairs with the
     * first): ~N(0, 1/n) for independent bytes */
    double s12 = st->s12 + (double)st->prev * st->first;
    double den = dn * st->s2 - st->s1 * st->s1;
    double sc = den > 0 ? (dn * s12 - st->s1 * st->s1) / den : 1.0;
    r[2].stat = sc;
    judge(&r[2], den > 0 ? z_two_sided(sc * sqrt(dn)) : 0.0);

    /* Monte Carlo pi: inside ~ Binomial(m, pi/4) */
    double m = (double)st->mc_points, in = (double)st->mc_in;
    double pq = PI / 4, piest = m > 0 ? 4.0 * in / m : 0;
    r[3].stat = piest;
    judge(&r[3], m > 0 ? z_two_sided((in - m * pq) / sqrt(m * pq * (1 - pq))) : 0.0);
    snprintf(r[3].note, sizeof r[3].note, "error %.4f%%", m > 0 ? 100 * fabs(piest - PI) / PI : 100.0);

    /* FIPS 140-2: more failed blocks than a good generator's rate explains */
    r[4].stat = (double)st->fips_failed;
    judge(&r[4], binom_tail(st->fips_blocks, FIPS_P0, st->fips_failed));
    snprintf(r[4].note, sizeof r[4].note, "%llu of %llu blocks failed",
             (unsigned long long)st->fips_failed, (unsigned long long)st->fips_blocks);

    int pass = 1;
    for (int i = 0; i < 5; i++)
        pass &= !r[i].ran || r[i].pass;
    if (json) {
        fprintf(out, "{\"input\":\"%s\",\"bytes\":%llu,\"more_input\":%s,\"significance\":%g,"
               "\"entropy_bits_per_byte\":%.6f,\"min_entropy_bits_per_byte\":%.6f,",
               what, (unsigned long long)n, more ? "true" : "false", SIGNIFICANCE, shannon, minh);
        if (rate >= 0)
            fprintf(out, "\"bytes_per_second\":%.6g,", rate);
        else
            fprintf(out, "\"bytes_per_second\":null,");
        fprintf(out, "\"tests\":[");
        for (int i = 0; i < 5; i++)
            fprintf(out, "%s{\"name\":\"%s\",\"ran\":%s,\"statistic\":%.6g,\"p\":%.6g,\"pass\":%s}", i ? "," : "",
                   r[i].name, r[i].ran ? "true" : "false", r[i].stat, r[i].p,
                   !r[i].ran ? "null" : r[i].pass ? "true" : "false");
        fprintf(out, "],\"fips\":{\"blocks\":%llu,\"failed_blocks\":%llu,\"monobit\":%llu,\"poker\":%llu,"
               "\"runs\":%llu,\"long_run\":%llu},\"pass\":%s}\n",
               (unsigned long long)st->fips_blocks, (unsigned long long)st->fips_failed,
               (unsigned long long)st->fips_fails[0], (unsigned long long)st->fips_fails[1],
               (unsigned long long)st->fips_fails[2], (unsigned long long)st->fips_fails[3],
               pass ? "true" : "false");
    } else {
        fprintf(out, "incore rngtest: %llu bytes of %s; significance %g\n", (unsigned long long)n, what,
               SIGNIFICANCE);
        if (more)
            fprintf(out, "  (the first %llu bytes of the input: --bytes N or --bytes all tests more)\n",
                   (unsigned long long)n);
        fprintf(out, "\n  %-16s %-14s %-12s %s\n", "test", "statistic", "p-value", "result");
        for (int i = 0; i < 5; i++)
            fprintf(out, "  %-16s %-14.6g %-12.4g %s%s%s\n", r[i].name, r[i].stat, r[i].p,
                   !r[i].ran ? "skipped" : r[i].pass ? "pass" : "FAIL", r[i].note[0] ? "  " : "", r[i].note);
        fprintf(out, "\n  FIPS 140-2 blocks: %llu; failures: monobit %llu, poker %llu, runs %llu, long run %llu\n",
               (unsigned long long)st->fips_blocks, (unsigned long long)st->fips_fails[0],
               (unsigned long long)st->fips_fails[1], (unsigned long long)st->fips_fails[2],
               (unsigned long long)st->fips_fails[3]);
        fprintf(out, "  entropy: %.6f bits per byte (Shannon), %.4f (most common value, SP 800-90B 6.3.1)\n",
               shannon, minh);
        if (rate >= 0)
            fprintf(out, "  rate: %.4g Mbit/s (%.4g MiB/s), measured over the source's reads\n", rate * 8e-6,
                   rate / 1048576.0);
        fprintf(out, "\nrngtest: %s\n", pass ? "PASS" : "FAIL");
    }
    return pass ? 0 : 1;
}

/* Up to want bytes from fd into p; the count, or -1 with errno on a read
 * error.  Fewer than want only at the end of the input. */
static ssize_t read_full(int fd, uint8_t *p, size_t want)
{
    size_t got = 0;
    while (got < want) {
        ssize_t r = read(fd, p + got, want - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

int incore_cmd_rngtest(int argc, char **argv)
{
    const char *source = NULL, *file = NULL;
    uint64_t limit = DEFAULT_BYTES;
    int json = 0, all = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            fputs(rngtest_usage, stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--source") == 0 || strcmp(a, "--bytes") == 0) {
            const char *v = option_value(argc, argv, &i);
            if (v == NULL)
                return incore_usage_error("rngtest", "option '%s' needs a value", a);
            if (a[2] == 's') {
                source = v;
            } else if (strcmp(v, "all") == 0) {
                all = 1;
            } else if (parse_count(v, &limit) != 0) {
                return incore_usage_error("rngtest", "bad byte count '%s' (N, NK, NM or NG, or all)", v);
            } else {
                all = 0;
            }
        } else if (a[0] == '-' && a[1]) {
            return incore_usage_error("rngtest", "unknown option '%s'", a);
        } else if (file) {
            return incore_usage_error("rngtest", "unexpected argument '%s'", a);
        } else {
            file = a;
        }
    }
    if (source && file)
        return incore_usage_error("rngtest", "--source and FILE exclude each other");
    if (source && unknown_source("rngtest", source))
        return 2;
    if (source && all)
        return incore_usage_error("rngtest", "--bytes all needs a FILE (a source never ends)");
    if (!all && limit < FIPS_BLOCK)
        return incore_usage_error("rngtest", "--bytes %llu: the tests need at least %d bytes "
                                  "(one 20,000-bit FIPS 140-2 block)", (unsigned long long)limit,
                                  FIPS_BLOCK);
    if (all)
        limit = UINT64_MAX;

    char what[256];
    int fd = -1;
    if (source) {
        snprintf(what, sizeof what, "source %s", source);
    } else {
        int is_stdin = file == NULL || strcmp(file, "-") == 0;
        fd = is_stdin ? 0 : open(file, O_RDONLY);
        if (fd < 0) {
            fprintf(stderr, "incore rngtest: %s: %s\n", file, strerror(errno));
            return 2;
        }
        snprintf(what, sizeof what, "%s", is_stdin ? "standard input" : file);
    }
    rt_stats st;
    int have_st = rt_init(&st);
    uint8_t *buf = malloc(RT_CHUNK);
    int rc = 0, more = 0;
    double drawn_s = 0;   /* time spent in the source's reads */
    if (!buf || !have_st) {
        fprintf(stderr, "incore rngtest: out of memory\n");
        rc = 2;
    }
    while (rc == 0 && st.n < limit) {
        size_t want = limit - st.n < RT_CHUNK ? (size_t)(limit - st.n) : RT_CHUNK;
        if (source) {
            double t0 = mono_seconds();
            if (draw("rngtest", source, buf, want) != 0)
                rc = 1;
            drawn_s += mono_seconds() - t0;
            if (rc == 0)
                rt_feed(&st, buf, want);
            continue;
        }
        ssize_t got = read_full(fd, buf, want);
        if (got < 0) {
            fprintf(stderr, "incore rngtest: %s: %s\n", file ? file : "-", strerror(errno));
            rc = 2;
            break;
        }
        rt_feed(&st, buf, (size_t)got);
        if ((size_t)got < want)
            break;
    }
    /* was the input cut short by --bytes?  (one byte more says so) */
    if (rc == 0 && !source && st.n == limit) {
        uint8_t one;
        more = read_full(fd, &one, 1) == 1;
    }
    if (fd > 0)
        close(fd);
    for (char *c = what; *c; c++)   /* the name goes into JSON */
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 32)
            *c = '_';
    if (rc == 0 && st.n < FIPS_BLOCK) {
        fprintf(stderr, "incore rngtest: %s: %llu bytes; the tests need at least %d "
                        "(one 20,000-bit FIPS 140-2 block)\n",
                source ? source : file && strcmp(file, "-") ? file : "standard input",
                (unsigned long long)st.n, FIPS_BLOCK);
        rc = 2;
    }
    if (rc == 0)
        rc = rt_report(stdout, &st, what, more, json,
                       source ? (double)st.n / (drawn_s > 1e-9 ? drawn_s : 1e-9) : -1.0);
    if (buf)
        ic_wipe(buf, RT_CHUNK);
    free(buf);
    free(st.ks_hist);
    return rc;
}

int incore_rngtest_json(FILE *out, const uint8_t *p, size_t n)
{
    if (n < FIPS_BLOCK)
        return 2;
    rt_stats st;
    if (!rt_init(&st))
        return 2;
    /* in RT_CHUNK pieces, as the command feeds a stream: only the last
     * piece may end in a partial block */
    for (size_t done = 0; done < n;) {
        size_t k = n - done < RT_CHUNK ? n - done : RT_CHUNK;
        rt_feed(&st, p + done, k);
        done += k;
    }
    int rc = rt_report(out, &st, "buffer", 0, 1, -1.0);
    free(st.ks_hist);
    return rc;
}
