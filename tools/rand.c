/*
 * rand.c - `incore rand` (random bytes, like `openssl rand`) and
 * `incore rngtest` (statistical tests of a random stream).
 *
 * rngtest runs two families of tests over the same bytes:
 *  - the statistics of CRAP.C, the Centaur RNG analysis program of the VIA
 *    PadLock guide (seed 002, chapter 6.1: chi-square of the byte
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
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "incore/incore.h"
#include "tools.h"

#define SIGNIFICANCE 1e-6
#define PI           3.14159265358979323846
#define FIPS_BLOCK   2500           /* bytes: 20,000 bits */
#define FIPS_P0      0.0015         /* block failure rate of a good generator (measured ~0.0008-0.001) */
#define KS_BLOCK     4096           /* bytes per chi-square block of the KS test */

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
    "                      SP 800-90B health tests (`incore info` lists the sources:\n"
    "                      rdseed, rdrand, darn, rndr, xstore, os); \"drbg\": ic_random\n"
    "  -out FILE           write to FILE instead of standard output\n"
    "      --help          this text\n"
    "\n"
    "Exit status: 0 on success; 1 when the generator or source fails (a source that\n"
    "failed a health test is named with the test, and nothing more is written);\n"
    "2 on bad usage.\n";

static const char rngtest_usage[] =
    "usage: incore rngtest [--source NAME] [--bytes N[K|M|G]] [--json] [FILE|-]\n"
    "\n"
    "Test a random stream: the bytes of FILE (\"-\" or none: standard input), or N\n"
    "bytes of a source (--source NAME: an entropy source of `incore info`, or\n"
    "\"drbg\" for ic_random; N defaults to 1M).  Tests, each a p-value that fails\n"
    "below the significance 1e-6:\n"
    "  chi-square        byte frequencies, 255 degrees of freedom (two-sided)\n"
    "  ks                Kolmogorov-Smirnov of the chi-square p-values of 4 KiB blocks\n"
    "                    (CRAP.C's test; needs 8 blocks)\n"
    "  serial            serial correlation of consecutive bytes (two-sided)\n"
    "  monte-carlo-pi    6-byte (x, y) points in the quarter circle (two-sided)\n"
    "  fips-140-2        monobit, poker, runs and long run on every 20,000-bit block,\n"
    "                    as rng-tools' rngtest; fails when more blocks fail than a\n"
    "                    good generator's rate (0.15%) explains\n"
    "and the Shannon and most-common-value (min-) entropy per byte, reported only.\n"
    "\n"
    "  --source NAME     test NAME's output instead of reading a file\n"
    "  --bytes N         test the first N bytes only (a file) or N bytes (a source)\n"
    "  --json            one JSON object instead of the report\n"
    "      --help        this text\n"
    "\n"
    "Exit status: 0 when every test passes, 1 when one fails (or the source fails),\n"
    "2 on bad usage, unreadable input or fewer than 2,500 bytes.\n";

static int usage_error(const char *cmd, const char *text, const char *fmt, const char *arg)
{
    fprintf(stderr, "incore %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", text);
    return 2;
}

/* N with an optional K/M/G suffix; 0 on success. */
static int parse_count(const char *s, size_t *out)
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
    if (*e || errno || v > (~0ULL >> shift) || (v << shift) > (unsigned long long)SIZE_MAX)
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

/* Fill buf from ic_random ("drbg") or one source; prints why on failure. */
static int draw(const char *cmd, const char *source, uint8_t *buf, size_t n)
{
    int st = source == NULL || strcmp(source, "drbg") == 0 ? ic_random(buf, n)
                                                            : ic_rand_source_read(source, buf, n);
    if (st == IC_OK)
        return 0;
    ic_rand_health h;
    if (st == IC_ERR_UNKNOWN)
        fprintf(stderr, "incore %s: no entropy source '%s' (see `incore info`)\n", cmd, source);
    else if (source && ic_rand_source_health(source, &h) != IC_OK && h.failure)
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
            if (i + 1 >= argc)
                return usage_error("rand", rand_usage, "option '%s' needs a value", a);
            *(a[1] == 's' || a[2] == 's' ? &source : &outname) = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return usage_error("rand", rand_usage, "unknown option '%s'", a);
        } else if (count) {
            return usage_error("rand", rand_usage, "unexpected argument '%s'", a);
        } else {
            count = a;
        }
    }
    size_t n;
    if (count == NULL)
        return usage_error("rand", rand_usage, "%s", "missing the byte count N");
    if (parse_count(count, &n) != 0)
        return usage_error("rand", rand_usage, "bad byte count '%s'", count);
    if (hex && b64)
        return usage_error("rand", rand_usage, "%s", "-hex and -base64 exclude each other");
    FILE *f = stdout;
    if (outname && (f = fopen(outname, "wb")) == NULL) {
        fprintf(stderr, "incore rand: %s: %s\n", outname, strerror(errno));
        return 1;
    }
    static uint8_t buf[1 << 16];   /* a multiple of 3: base64 lines stay whole */
    int col = 0, rc = 0;
    size_t chunk = sizeof buf - sizeof buf % 3;
    for (size_t done = 0; done < n;) {
        size_t k = n - done < chunk ? n - done : chunk;
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
    if (fflush(f) != 0 || (f != stdout && fclose(f) != 0)) {
        fprintf(stderr, "incore rand: write error\n");
        rc = 1;
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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

/* P(Binomial(n, p) >= k), summed from k up in logs. */
static double binom_tail(unsigned long n, double p, unsigned long k)
{
    if (k == 0)
        return 1.0;
    double s = 0;
    for (unsigned long j = k; j <= n; j++) {
        double t = exp(lgamma(n + 1.0) - lgamma(j + 1.0) - lgamma(n - j + 1.0) + j * log(p) +
                       (n - j) * log1p(-p));
        s += t;
        if (t < s * 1e-17)
            break;
    }
    return s > 1 ? 1 : s;
}

static int run_tests(const uint8_t *p, size_t n, const char *what, int json)
{
    unsigned long cnt[256];
    result r[5] = {{"chi-square", 0, 0, 0, 0, ""}, {"ks", 0, 0, 0, 0, ""}, {"serial", 0, 0, 0, 0, ""},
                   {"monte-carlo-pi", 0, 0, 0, 0, ""}, {"fips-140-2", 0, 0, 0, 0, ""}};

    /* chi-square over all bytes (two-sided: too even is as odd as too uneven) */
    r[0].stat = chi2_bytes(p, n, cnt);
    judge(&r[0], two_sided(chi2_upper(r[0].stat, 255)));

    /* entropy estimates from the same counts */
    double shannon = 0, maxc = 0;
    for (int i = 0; i < 256; i++) {
        if (cnt[i])
            shannon -= (double)cnt[i] / n * log2((double)cnt[i] / n);
        if (cnt[i] > maxc)
            maxc = cnt[i];
    }
    /* 90B 6.3.1 most common value: the upper 99% bound of p_max */
    double pm = maxc / n, pu = pm + 2.576 * sqrt(pm * (1 - pm) / (n - 1));
    double minh = pu >= 1 ? 0.0 : -log2(pu);

    /* KS of the per-block chi-square p-values (CRAP.C) */
    size_t nb = n / KS_BLOCK;
    if (nb >= 8) {
        double *pv = malloc(nb * sizeof *pv);
        unsigned long c2[256];
        for (size_t b = 0; b < nb && pv; b++)
            pv[b] = chi2_upper(chi2_bytes(p + b * KS_BLOCK, KS_BLOCK, c2), 255);
        if (pv) {
            qsort(pv, nb, sizeof *pv, cmp_double);
            double d = 0;
            for (size_t i = 0; i < nb; i++) {
                double a = (double)(i + 1) / nb - pv[i], b2 = pv[i] - (double)i / nb;
                d = fmax(d, fmax(a, b2));
            }
            double sn = sqrt((double)nb);
            r[1].stat = d;
            judge(&r[1], ks_tail((sn + 0.12 + 0.11 / sn) * d));
            snprintf(r[1].note, sizeof r[1].note, "%zu blocks", nb);
            free(pv);
        }
    } else {
        snprintf(r[1].note, sizeof r[1].note, "skipped: %zu blocks of 4 KiB, needs 8", nb);
    }

    /* serial correlation (ent's, cyclic): ~N(0, 1/n) for independent bytes */
    double s1 = 0, s2 = 0, s12 = 0;
    for (size_t i = 0; i < n; i++) {
        double x = p[i], y = p[(i + 1) % n];
        s1 += x;
        s2 += x * x;
        s12 += x * y;
    }
    double den = n * s2 - s1 * s1;
    double sc = den > 0 ? (n * s12 - s1 * s1) / den : 1.0;
    r[2].stat = sc;
    judge(&r[2], den > 0 ? z_two_sided(sc * sqrt((double)n)) : 0.0);

    /* Monte Carlo pi: 24-bit x, y from 6 bytes; inside ~ Binomial(m, pi/4) */
    size_t m = n / 6, in = 0;
    const double r2 = (double)(1u << 24) * (1u << 24);
    for (size_t i = 0; i < m; i++) {
        const uint8_t *q = p + 6 * i;
        double x = q[0] << 16 | q[1] << 8 | q[2], y = q[3] << 16 | q[4] << 8 | q[5];
        in += x * x + y * y <= r2;
    }
    double pq = PI / 4, piest = m ? 4.0 * in / m : 0;
    r[3].stat = piest;
    judge(&r[3], m ? z_two_sided((in - m * pq) / sqrt(m * pq * (1 - pq))) : 0.0);
    snprintf(r[3].note, sizeof r[3].note, "error %.4f%%", m ? 100 * fabs(piest - PI) / PI : 100.0);

    /* FIPS 140-2 over 20,000-bit blocks */
    unsigned long blocks = n / FIPS_BLOCK, fails[4] = {0}, failed = 0;
    for (unsigned long b = 0; b < blocks; b++) {
        int f[4];
        fips_block(p + b * FIPS_BLOCK, f);
        for (int t = 0; t < 4; t++)
            fails[t] += (unsigned long)f[t];
        failed += f[0] | f[1] | f[2] | f[3];
    }
    r[4].stat = (double)failed;
    judge(&r[4], binom_tail(blocks, FIPS_P0, failed));
    snprintf(r[4].note, sizeof r[4].note, "%lu of %lu blocks failed", failed, blocks);

    int pass = 1;
    for (int i = 0; i < 5; i++)
        pass &= !r[i].ran || r[i].pass;
    if (json) {
        printf("{\"input\":\"%s\",\"bytes\":%zu,\"significance\":%g,\"entropy_bits_per_byte\":%.6f,"
               "\"min_entropy_bits_per_byte\":%.6f,\"tests\":[",
               what, n, SIGNIFICANCE, shannon, minh);
        for (int i = 0; i < 5; i++)
            printf("%s{\"name\":\"%s\",\"ran\":%s,\"statistic\":%.6g,\"p\":%.6g,\"pass\":%s}", i ? "," : "",
                   r[i].name, r[i].ran ? "true" : "false", r[i].stat, r[i].p,
                   !r[i].ran ? "null" : r[i].pass ? "true" : "false");
        printf("],\"fips\":{\"blocks\":%lu,\"failed_blocks\":%lu,\"monobit\":%lu,\"poker\":%lu,"
               "\"runs\":%lu,\"long_run\":%lu},\"pass\":%s}\n",
               blocks, failed, fails[0], fails[1], fails[2], fails[3], pass ? "true" : "false");
    } else {
        printf("incore rngtest: %zu bytes of %s; significance %g\n\n", n, what, SIGNIFICANCE);
        printf("  %-16s %-14s %-12s %s\n", "test", "statistic", "p-value", "result");
        for (int i = 0; i < 5; i++)
            printf("  %-16s %-14.6g %-12.4g %s%s%s\n", r[i].name, r[i].stat, r[i].p,
                   !r[i].ran ? "skipped" : r[i].pass ? "pass" : "FAIL", r[i].note[0] ? "  " : "", r[i].note);
        printf("\n  FIPS 140-2 blocks: %lu; failures: monobit %lu, poker %lu, runs %lu, long run %lu\n",
               blocks, fails[0], fails[1], fails[2], fails[3]);
        printf("  entropy: %.6f bits per byte (Shannon), %.4f (most common value, SP 800-90B 6.3.1)\n",
               shannon, minh);
        printf("\nrngtest: %s\n", pass ? "PASS" : "FAIL");
    }
    return pass ? 0 : 1;
}

/* All of f (at most max bytes) into a malloc'd buffer. */
static uint8_t *slurp(FILE *f, size_t max, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *p = malloc(cap);
    while (p && n < max) {
        if (n == cap) {
            uint8_t *q = realloc(p, cap *= 2);
            if (!q) {
                free(p);
                return NULL;
            }
            p = q;
        }
        size_t want = cap - n < max - n ? cap - n : max - n;
        size_t r = fread(p + n, 1, want, f);
        n += r;
        if (r < want)
            break;
    }
    *len = n;
    return p;
}

int incore_cmd_rngtest(int argc, char **argv)
{
    const char *source = NULL, *file = NULL;
    size_t bytes = 0;
    int json = 0, have_bytes = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            fputs(rngtest_usage, stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--source") == 0 || strcmp(a, "--bytes") == 0) {
            if (i + 1 >= argc)
                return usage_error("rngtest", rngtest_usage, "option '%s' needs a value", a);
            if (a[2] == 's') {
                source = argv[++i];
            } else if (parse_count(argv[++i], &bytes) != 0) {
                return usage_error("rngtest", rngtest_usage, "bad byte count '%s'", argv[i]);
            } else {
                have_bytes = 1;
            }
        } else if (a[0] == '-' && a[1]) {
            return usage_error("rngtest", rngtest_usage, "unknown option '%s'", a);
        } else if (file) {
            return usage_error("rngtest", rngtest_usage, "unexpected argument '%s'", a);
        } else {
            file = a;
        }
    }
    if (source && file)
        return usage_error("rngtest", rngtest_usage, "%s", "--source and FILE exclude each other");
    uint8_t *p;
    size_t n;
    char what[256];
    if (source) {
        n = have_bytes ? bytes : (size_t)1 << 20;
        p = malloc(n ? n : 1);
        if (!p)
            return 2;
        if (draw("rngtest", source, p, n) != 0) {
            free(p);
            return 1;
        }
        snprintf(what, sizeof what, "source %s", source);
    } else {
        FILE *f = file == NULL || strcmp(file, "-") == 0 ? stdin : fopen(file, "rb");
        if (f == NULL) {
            fprintf(stderr, "incore rngtest: %s: %s\n", file, strerror(errno));
            return 2;
        }
        p = slurp(f, have_bytes ? bytes : SIZE_MAX, &n);
        if (f != stdin)
            fclose(f);
        if (!p) {
            fprintf(stderr, "incore rngtest: out of memory\n");
            return 2;
        }
        snprintf(what, sizeof what, "%s", file && strcmp(file, "-") ? file : "standard input");
        for (char *c = what; *c; c++)
            if (*c == '"' || *c == '\\' || (unsigned char)*c < 32)
                *c = '_';
    }
    int rc;
    if (n < FIPS_BLOCK) {
        fprintf(stderr, "incore rngtest: %zu bytes; at least %d are needed\n", n, FIPS_BLOCK);
        rc = 2;
    } else {
        rc = run_tests(p, n, what, json);
    }
    free(p);
    return rc;
}
