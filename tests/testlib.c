/* testlib.c - see testlib.h. */
#define _GNU_SOURCE
#include "testlib.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

unsigned long tl_passed, tl_failed;

static unsigned long reported; /* cap failure spam */

/* Count a failure and print its message (the first 50 only: a broken
 * primitive fails thousands of records, and the first few tell the story). */
static int fail_v(const char *file, int line, const char *fmt, va_list ap)
{
    tl_failed++;
    if (reported++ < 50) {
        fprintf(stderr, "FAIL %s:%d: ", file, line);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
    return reported <= 50;
}

int tl_check(int ok, const char *file, int line, const char *fmt, ...)
{
    if (ok) {
        tl_passed++;
        return 1;
    }
    va_list ap;
    va_start(ap, fmt);
    fail_v(file, line, fmt, ap);
    va_end(ap);
    return 0;
}

void tl_dump(const char *label, const void *p, size_t n)
{
    const uint8_t *b = p;
    fprintf(stderr, "  %s:", label);
    for (size_t i = 0; i < n && i < 96; i++)
        fprintf(stderr, "%02x", b[i]);
    fprintf(stderr, n > 96 ? "...\n" : "\n");
}

int tl_check_mem(const void *got, const void *want, size_t n, const char *file, int line,
                 const char *fmt, ...)
{
    if (n == 0 || memcmp(got, want, n) == 0) {
        tl_passed++;
        return 1;
    }
    va_list ap;
    va_start(ap, fmt);
    int shown = fail_v(file, line, fmt, ap);
    va_end(ap);
    if (shown) {
        tl_dump("got ", got, n);
        tl_dump("want", want, n);
    }
    return 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long tl_hex(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = 0;
    int hi = -1;
    for (; *hex; hex++) {
        if (isspace((unsigned char)*hex))
            continue;
        int v = hexval((unsigned char)*hex);
        if (v < 0)
            return -1;
        if (hi < 0) {
            hi = v;
        } else {
            if (n >= cap)
                return -1;
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    return hi < 0 ? (long)n : -1;
}

uint8_t *tl_hex_alloc(const char *hex, size_t *len)
{
    size_t cap = strlen(hex) / 2 + 1;
    uint8_t *p = malloc(cap);
    long n = p ? tl_hex(p, cap, hex) : -1;
    if (n < 0) {
        free(p);
        return NULL;
    }
    *len = (size_t)n;
    return p;
}

uint8_t *tl_xmalloc(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p) {
        perror("malloc");
        exit(2);
    }
    return p;
}

int tl_all_byte(const void *p, size_t n, uint8_t v)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v)
            return 0;
    return 1;
}

/* ---- .rsp reader ------------------------------------------------------- */
struct tl_rsp {
    FILE *f;
    char path[1024];
    char section[256];
    char *line;
    size_t linecap;
    long lineno;
    char *store[TL_MAX_FIELDS * 2]; /* owned strings of the current record */
    int nstore;
};

tl_rsp *tl_rsp_open(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        tl_check(0, __FILE__, __LINE__, "cannot open vector file %s", path);
        return NULL;
    }
    tl_rsp *r = calloc(1, sizeof *r);
    r->f = f;
    snprintf(r->path, sizeof r->path, "%s", path);
    return r;
}

tl_rsp *tl_rsp_openf(const char *fmt, ...)
{
    char path[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    return tl_rsp_open(path);
}

const char *tl_rsp_path(const tl_rsp *r) { return r ? r->path : "(null)"; }

static void free_store(tl_rsp *r)
{
    for (int i = 0; i < r->nstore; i++)
        free(r->store[i]);
    r->nstore = 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

int tl_rsp_next(tl_rsp *r, tl_rec *rec)
{
    if (!r)
        return 0;
    free_store(r);
    memset(rec, 0, sizeof *rec);
    int in_section_run = 0;
    while (getline(&r->line, &r->linecap, r->f) >= 0) {
        r->lineno++;
        char *s = trim(r->line);
        if (*s == '#')
            continue;
        if (*s == 0) {
            if (rec->nfields > 0)
                break;
            continue;
        }
        if (*s == '[') {
            if (rec->nfields > 0) {
                /* a section header ends the record; re-read it next time */
                fseek(r->f, -(long)strlen(r->line), SEEK_CUR);
                r->lineno--;
                break;
            }
            if (!in_section_run)
                r->section[0] = 0;
            in_section_run = 1;
            if (r->section[0])
                strncat(r->section, ";", sizeof r->section - strlen(r->section) - 1);
            strncat(r->section, s, sizeof r->section - strlen(r->section) - 1);
            continue;
        }
        in_section_run = 0;
        if (rec->nfields == TL_MAX_FIELDS)
            continue;
        if (rec->nfields == 0)
            rec->line = r->lineno;
        char *eq = strchr(s, '=');
        char *name = s, *value = "";
        if (eq) {
            *eq = 0;
            name = trim(s);
            value = trim(eq + 1);
        }
        r->store[r->nstore++] = rec->name[rec->nfields] = strdup(name);
        r->store[r->nstore++] = rec->value[rec->nfields] = strdup(value);
        rec->nfields++;
    }
    snprintf(rec->section, sizeof rec->section, "%s", r->section);
    return rec->nfields > 0;
}

void tl_rsp_close(tl_rsp *r)
{
    if (!r)
        return;
    free_store(r);
    free(r->line);
    fclose(r->f);
    free(r);
}

const char *tl_get(const tl_rec *rec, const char *name)
{
    for (int i = 0; i < rec->nfields; i++)
        if (strcasecmp(rec->name[i], name) == 0)
            return rec->value[i];
    return NULL;
}

int tl_has(const tl_rec *rec, const char *name) { return tl_get(rec, name) != NULL; }

static const char *env_or(const char *env, const char *def)
{
    const char *v = getenv(env);
    return v && *v ? v : def;
}
const char *tl_cavp_dir(void) { return env_or("INCORE_CAVP_DIR", IC_CAVP_DIR); }
const char *tl_pcv_dir(void) { return env_or("INCORE_PCV_DIR", IC_PCV_DIR); }
const char *tl_data_dir(void) { return env_or("INCORE_TESTDATA_DIR", IC_TESTDATA_DIR); }

/* ---- PRNG: xoshiro256** (Blackman, Vigna), seeded by splitmix64 -------- */
static uint64_t rs[4];
static int seeded;

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void seed_once(void)
{
    if (seeded)
        return;
    seeded = 1;
    const char *e = getenv("INCORE_TEST_SEED");
    uint64_t s = e ? strtoull(e, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    printf("random seed: INCORE_TEST_SEED=%llu\n", (unsigned long long)s);
    for (int i = 0; i < 4; i++)
        rs[i] = splitmix(&s);
}

static uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tl_rand64(void)
{
    seed_once();
    uint64_t r = rotl64(rs[1] * 5, 7) * 9, t = rs[1] << 17;
    rs[2] ^= rs[0]; rs[3] ^= rs[1]; rs[1] ^= rs[2]; rs[0] ^= rs[3];
    rs[2] ^= t; rs[3] = rotl64(rs[3], 45);
    return r;
}

uint32_t tl_rand_below(uint32_t n) { return n ? (uint32_t)(tl_rand64() % n) : 0; }

void tl_rand_bytes(void *p, size_t n)
{
    uint8_t *b = p;
    while (n) {
        uint64_t v = tl_rand64();
        for (int i = 0; i < 8 && n; i++, n--)
            *b++ = (uint8_t)(v >> (8 * i));
    }
}

void tl_exercised(const char *prim, const char *impl)
{
    printf("exercised %s/%s\n", prim, impl);
    int fd = open(IC_EXERCISED_FILE, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd >= 0) {
        char buf[128];
        int n = snprintf(buf, sizeof buf, "%s/%s\n", prim, impl);
        if (write(fd, buf, (size_t)n) != n)
            perror("exercised");
        close(fd);
    }
}

int tl_for_each_impl(const char *prim, void (*fn)(const char *impl, void *arg), void *arg)
{
    int ran = 0;
    size_t n = ic_impl_count(prim);
    CHECK(n > 0, "primitive %s has no implementations", prim);
    for (size_t i = 0; i < n; i++) {
        if (!ic_impl_available(prim, i))
            continue;
        const char *name = ic_impl_name(prim, i);
        if (!CHECK(ic_impl_select(prim, name) == IC_OK, "select %s/%s", prim, name))
            continue;
        fn(name, arg);
        tl_exercised(prim, name);
        ran++;
    }
    ic_impl_select(prim, NULL);
    return ran;
}

int tl_finish(void)
{
    printf("%lu passed, %lu failed\n", tl_passed, tl_failed);
    if (tl_passed == 0 && tl_failed == 0) {
        printf("no check ran: counting that as a failure\n");
        return 1;
    }
    return tl_failed ? 1 : 0;
}
