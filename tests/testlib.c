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
#include <sys/mman.h>

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

/* fopen for a vector file: a missing file counts as a failure, never a skip. */
static FILE *vector_fopen(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        tl_check(0, __FILE__, __LINE__, "cannot open vector file %s", path);
    return f;
}

tl_rsp *tl_rsp_open(const char *path)
{
    FILE *f = vector_fopen(path);
    if (!f)
        return NULL;
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

/* ---- JSON reader --------------------------------------------------------
 * Recursive descent over the whole text.  Every node owns its children;
 * object members keep their file order (Wycheproof files list groups and
 * tests in order, and a test reports tcIds in that order). */
struct tl_json {
    tl_json_type type;
    int boolean;
    double num;
    char *str;            /* string value, or a number's text */
    size_t n, cap;        /* members of an array or object */
    char **keys;          /* object member names (NULL for arrays) */
    tl_json **vals;
};

typedef struct {
    const char *p, *end;
    int depth;
} json_in;

static void json_ws(json_in *in)
{
    while (in->p < in->end && (*in->p == ' ' || *in->p == '\t' || *in->p == '\n' || *in->p == '\r'))
        in->p++;
}

static tl_json *json_node(tl_json_type t)
{
    tl_json *j = calloc(1, sizeof *j);
    if (!j) {
        perror("calloc");
        exit(2);
    }
    j->type = t;
    return j;
}

/* Appends UTF-8 of code point u to *o (room for 4 bytes is guaranteed by
 * the caller: an escape is at least 6 input bytes). */
static char *json_utf8(char *o, unsigned long u)
{
    if (u < 0x80) {
        *o++ = (char)u;
    } else if (u < 0x800) {
        *o++ = (char)(0xc0 | u >> 6);
        *o++ = (char)(0x80 | (u & 0x3f));
    } else if (u < 0x10000) {
        *o++ = (char)(0xe0 | u >> 12);
        *o++ = (char)(0x80 | (u >> 6 & 0x3f));
        *o++ = (char)(0x80 | (u & 0x3f));
    } else {
        *o++ = (char)(0xf0 | u >> 18);
        *o++ = (char)(0x80 | (u >> 12 & 0x3f));
        *o++ = (char)(0x80 | (u >> 6 & 0x3f));
        *o++ = (char)(0x80 | (u & 0x3f));
    }
    return o;
}

static int json_hex4(const char *p, unsigned long *u)
{
    *u = 0;
    for (int i = 0; i < 4; i++) {
        int v = hexval((unsigned char)p[i]);
        if (v < 0)
            return 0;
        *u = *u << 4 | (unsigned long)v;
    }
    return 1;
}

/* A string at in->p (which is at the opening quote); malloc'd, NULL on error. */
static char *json_string(json_in *in)
{
    const char *q = ++in->p;
    size_t cap = 1;
    while (q < in->end && *q != '"') {   /* upper bound of the decoded size */
        if (*q == '\\')
            q++, cap++;
        q++, cap++;
    }
    if (q >= in->end)
        return NULL;
    char *s = malloc(cap + 4), *o = s;
    while (in->p < q) {
        unsigned char c = (unsigned char)*in->p++;
        if (c < 0x20)
            goto bad;
        if (c != '\\') {
            *o++ = (char)c;
            continue;
        }
        if (in->p >= q)
            goto bad;
        c = (unsigned char)*in->p++;
        switch (c) {
        case '"': case '\\': case '/': *o++ = (char)c; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned long u, lo;
            if (q - in->p < 4 || !json_hex4(in->p, &u))
                goto bad;
            in->p += 4;
            /* a surrogate pair spells one code point above U+FFFF */
            if (u >= 0xd800 && u < 0xdc00 && q - in->p >= 6 && in->p[0] == '\\' && in->p[1] == 'u' &&
                json_hex4(in->p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                in->p += 6;
            }
            o = json_utf8(o, u);
            break;
        }
        default:
            goto bad;
        }
    }
    *o = 0;
    in->p = q + 1;
    return s;
bad:
    free(s);
    return NULL;
}

static void json_push(tl_json *j, char *key, tl_json *v)
{
    if (j->n == j->cap) {
        j->cap = j->cap ? 2 * j->cap : 8;
        j->vals = realloc(j->vals, j->cap * sizeof *j->vals);
        if (j->type == TL_JSON_OBJ)
            j->keys = realloc(j->keys, j->cap * sizeof *j->keys);
        if (!j->vals || (j->type == TL_JSON_OBJ && !j->keys)) {
            perror("realloc");
            exit(2);
        }
    }
    if (j->type == TL_JSON_OBJ)
        j->keys[j->n] = key;
    j->vals[j->n++] = v;
}

static int json_lit(json_in *in, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(in->end - in->p) < n || memcmp(in->p, word, n) != 0)
        return 0;
    in->p += n;
    return 1;
}

static tl_json *json_value(json_in *in);

/* Array or object; in->p at '[' or '{'. */
static tl_json *json_members(json_in *in, int obj)
{
    tl_json *j = json_node(obj ? TL_JSON_OBJ : TL_JSON_ARR);
    char close = obj ? '}' : ']';
    in->p++;
    json_ws(in);
    if (in->p < in->end && *in->p == close) {
        in->p++;
        return j;
    }
    for (;;) {
        char *key = NULL;
        json_ws(in);
        if (obj) {
            if (in->p >= in->end || *in->p != '"' || !(key = json_string(in)))
                goto bad;
            json_ws(in);
            if (in->p >= in->end || *in->p++ != ':') {
                free(key);
                goto bad;
            }
        }
        tl_json *v = json_value(in);
        if (!v) {
            free(key);
            goto bad;
        }
        json_push(j, key, v);
        json_ws(in);
        if (in->p < in->end && *in->p == ',') {
            in->p++;
            continue;
        }
        if (in->p < in->end && *in->p == close) {
            in->p++;
            return j;
        }
        goto bad;
    }
bad:
    tl_json_free(j);
    return NULL;
}

static tl_json *json_number(json_in *in)
{
    const char *s = in->p;
    if (in->p < in->end && *in->p == '-')
        in->p++;
    if (in->p >= in->end || !isdigit((unsigned char)*in->p))
        return NULL;
    while (in->p < in->end && (isdigit((unsigned char)*in->p) || strchr(".eE+-", *in->p)))
        in->p++;
    tl_json *j = json_node(TL_JSON_NUM);
    j->str = strndup(s, (size_t)(in->p - s));
    char *e;
    j->num = strtod(j->str, &e);
    if (*e) {
        tl_json_free(j);
        return NULL;
    }
    return j;
}

static tl_json *json_value(json_in *in)
{
    json_ws(in);
    if (in->p >= in->end || ++in->depth > 64)
        return NULL;
    tl_json *j = NULL;
    char c = *in->p;
    if (c == '{' || c == '[') {
        j = json_members(in, c == '{');
    } else if (c == '"') {
        char *s = json_string(in);
        if (s) {
            j = json_node(TL_JSON_STR);
            j->str = s;
        }
    } else if (json_lit(in, "true") || json_lit(in, "false")) {
        j = json_node(TL_JSON_BOOL);
        j->boolean = in->p[-1] == 'e' && in->p[-2] == 'u';
    } else if (json_lit(in, "null")) {
        j = json_node(TL_JSON_NULL);
    } else {
        j = json_number(in);
    }
    in->depth--;
    return j;
}

tl_json *tl_json_parse(const char *text, size_t len)
{
    json_in in = { text, text + len, 0 };
    tl_json *j = json_value(&in);
    json_ws(&in);
    if (j && in.p != in.end) {
        tl_json_free(j);
        j = NULL;
    }
    return j;
}

tl_json *tl_json_load(const char *path)
{
    FILE *f = vector_fopen(path);
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *text = (char *)tl_xmalloc(cap);
    size_t got;
    while ((got = fread(text + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            text = realloc(text, cap);
            if (!text) {
                perror("realloc");
                exit(2);
            }
        }
    }
    fclose(f);
    tl_json *j = tl_json_parse(text, n);
    free(text);
    tl_check(j != NULL, __FILE__, __LINE__, "%s: not valid JSON", path);
    return j;
}

void tl_json_free(tl_json *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++) {
        if (j->keys)
            free(j->keys[i]);
        tl_json_free(j->vals[i]);
    }
    free(j->keys);
    free(j->vals);
    free(j->str);
    free(j);
}

tl_json_type tl_json_kind(const tl_json *j) { return j ? j->type : TL_JSON_NULL; }
size_t tl_json_count(const tl_json *j) { return j ? j->n : 0; }
const tl_json *tl_json_at(const tl_json *j, size_t i) { return j && i < j->n ? j->vals[i] : NULL; }
const char *tl_json_str(const tl_json *j) { return j && j->type == TL_JSON_STR ? j->str : NULL; }

const tl_json *tl_json_get(const tl_json *j, const char *key)
{
    if (!j || j->type != TL_JSON_OBJ)
        return NULL;
    for (size_t i = 0; i < j->n; i++)
        if (strcmp(j->keys[i], key) == 0)
            return j->vals[i];
    return NULL;
}

int tl_json_long(const tl_json *j, long *v)
{
    if (!j || j->type != TL_JSON_NUM || !(j->num >= -9007199254740992.0 && j->num <= 9007199254740992.0) ||
        (double)(long long)j->num != j->num)
        return 0;
    *v = (long)j->num;
    return 1;
}

uint8_t *tl_json_hex(const tl_json *obj, const char *key, size_t *len)
{
    const char *s = tl_json_str(tl_json_get(obj, key));
    if (!s)
        return NULL;
    if (!*s) {
        *len = 0;
        return tl_xmalloc(0);
    }
    return tl_hex_alloc(s, len);
}

int tl_json_has_str(const tl_json *obj, const char *key, const char *s)
{
    const tl_json *a = tl_json_get(obj, key);
    for (size_t i = 0; i < tl_json_count(a); i++) {
        const char *v = tl_json_str(tl_json_at(a, i));
        if (v && strcmp(v, s) == 0)
            return 1;
    }
    return 0;
}

/* ---- guarded buffers ---------------------------------------------------- */
static size_t page_size(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    return pg > 0 ? (size_t)pg : 4096;
}

/* Whole pages for n bytes, plus the guard page after them. */
static size_t guarded_pages(size_t n) { return (n + page_size() - 1) / page_size(); }

uint8_t *tl_guarded_alloc(size_t n, uint8_t fill)
{
    size_t pg = page_size(), data = guarded_pages(n) * pg;
    uint8_t *map = mmap(NULL, data + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED || mprotect(map + data, pg, PROT_NONE) != 0) {
        perror("tl_guarded_alloc");
        exit(2);
    }
    memset(map, fill, data);
    return map + data - n;
}

void tl_guarded_free(uint8_t *p, size_t n)
{
    if (!p)
        return;
    size_t pg = page_size(), data = guarded_pages(n) * pg;
    munmap(p + n - data, data + pg);
}

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

/* INCORE_TEST_IMPLS=prim/impl,...: tl_for_each_impl runs only the listed
 * implementations of the primitives it names (the others' unaffected) -
 * for the x86emu leg, where every emulated backend costs minutes. */
int tl_impl_wanted(const char *prim, const char *impl)
{
    const char *env = getenv("INCORE_TEST_IMPLS");
    size_t pl = strlen(prim), il = strlen(impl);
    int named = 0;
    if (env == NULL || *env == 0)
        return 1;
    for (const char *s = env; *s;) {
        size_t n = strcspn(s, ",");
        if (n > pl && strncmp(s, prim, pl) == 0 && s[pl] == '/') {
            named = 1;
            if (n - pl - 1 == il && strncmp(s + pl + 1, impl, il) == 0)
                return 1;
        }
        s += n + (s[n] == ',');
    }
    return !named;
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
        if (!tl_impl_wanted(prim, name))
            continue;
        if (!CHECK(ic_impl_select(prim, name) == IC_OK, "select %s/%s", prim, name))
            continue;
        fn(name, arg);
        tl_exercised(prim, name);
        ran++;
    }
    CHECK(ic_impl_select(prim, NULL) == IC_OK, "%s: back to automatic selection", prim);
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
