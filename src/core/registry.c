/*
 * registry.c - which implementation of each primitive runs.
 *
 * Every primitive has a table of implementations, best first, the portable
 * one last (it needs nothing).  At first use, once and thread-safely, the
 * library copies each family's list (<family>_impls.c) into the tables,
 * detects the CPU, applies INCORE_CPU, picks for each primitive the first
 * entry whose needs the CPU meets, then applies INCORE_IMPL.  Readers
 * (ic_ops, on every context init) only do an atomic load; the rarer writers
 * (ic_impl_select, ic_cpu_set_mask: tests, benchmarks, configuration) take a
 * mutex.  A context records the index of its implementation at init, so a
 * later re-selection never changes the backend of a context half way.
 */
#include "core/internal.h"
#include "core/registry.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

/* A table being built from its family's list: entries past IC_IMPL_MAX
 * are counted (test_dispatch fails on them), not stored. */
struct ic_impl_list {
    ic_impl *t;
    size_t n, listed;
};

void ic_impl_list_add(ic_impl_list *l, const ic_impl *e)
{
    if (l->n < IC_IMPL_MAX)
        l->t[l->n++] = *e;
    l->listed++;
}

typedef struct {
    const char *name;
    void (*list)(ic_impl_list *);
} prim_table;

#define PRIM(p) {#p, ic_impls_list_##p}
static const prim_table prims[IC_PRIM_COUNT] = {
    [IC_PRIM_AES] = PRIM(aes),           [IC_PRIM_GHASH] = PRIM(ghash),
    [IC_PRIM_SHA1] = PRIM(sha1),         [IC_PRIM_SHA256] = PRIM(sha256),
    [IC_PRIM_SHA512] = PRIM(sha512),     [IC_PRIM_CHACHA20] = PRIM(chacha20),
    [IC_PRIM_POLY1305] = PRIM(poly1305), [IC_PRIM_CRC32] = PRIM(crc32),
    [IC_PRIM_CRC32C] = PRIM(crc32c),     [IC_PRIM_HWRAND] = PRIM(hwrand),
    [IC_PRIM_MONTMUL] = PRIM(montmul),
};

_Static_assert(IC_IMPL_MAX <= 64, "ic_impl_runnable has one bit per entry");
ic_impl ic_impl_table[IC_PRIM_COUNT][IC_IMPL_MAX];
static size_t nimpls[IC_PRIM_COUNT];   /* entries of ic_impl_table[p] */
static size_t nlisted[IC_PRIM_COUNT];  /* entries p's list has: nimpls, or more when too long */

/* Run every family's list into ic_impl_table (init_once, first). */
static void build_tables(void)
{
    for (int p = 0; p < IC_PRIM_COUNT; p++) {
        ic_impl_list l = { ic_impl_table[p], 0, 0 };
        prims[p].list(&l);
        nimpls[p] = l.n;
        nlisted[p] = l.listed;
    }
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ic_cpu_state cpu;                /* detected: written once, in init_once */
static _Atomic uint64_t keep;           /* the mask: changed by ic_cpu_set_mask() */
static _Atomic(const ic_impl *) selected[IC_PRIM_COUNT];
_Atomic(const void *) ic_selected_ops[IC_PRIM_COUNT];   /* ic_ops_fast: NULL until init is done */
static const ic_impl *forced[IC_PRIM_COUNT];   /* NULL: automatic */
static _Atomic(const char *) env_error;
static char env_error_buf[1024];

void ic_env_report(const char *msg)
{
    snprintf(env_error_buf, sizeof env_error_buf, "%s", msg);
    atomic_store(&env_error, env_error_buf);
    fprintf(stderr, "incore: %s\n", msg);
}

const char *ic_env_error(void) { return atomic_load(&env_error); }

static int usable(const ic_impl *im)
{
    return (im->needs & cpu.detected & atomic_load(&keep)) == im->needs;
}

/* The automatic choice for a CPU with exactly the features `have`: the
 * first entry of p's list, best first, whose needs are met; the portable
 * last entry needs nothing.  The order of each list is the rule for every
 * CPU family measured (docs/architecture.md, "Selection per CPU family",
 * which tests/cli_selection.sh checks against `incore info`), so no
 * family needs an exception to it. */
static const ic_impl *first_for(ic_prim p, uint64_t have)
{
    const ic_impl *t = ic_impl_table[p];
    for (size_t i = 0; i < nimpls[p]; i++)
        if ((t[i].needs & have) == t[i].needs)
            return &t[i];
    return &t[nimpls[p] - 1];
}

/* Best usable entry on this CPU, as masked. */
static const ic_impl *best(ic_prim p)
{
    return first_for(p, cpu.detected & atomic_load(&keep));
}

static _Atomic int inited;             /* set (release) when init_once is done */

/* Select im for p, and publish its ops for ic_ops_fast once the first
 * initialisation (including INCORE_IMPL) is complete. */
static void set_selected(int p, const ic_impl *im)
{
    atomic_store(&selected[p], im);
    if (atomic_load(&inited))
        atomic_store(&ic_selected_ops[p], im->ops);
}

static void reselect_all(void)
{
    for (int p = 0; p < IC_PRIM_COUNT; p++) {
        if (forced[p] && !usable(forced[p]))
            forced[p] = NULL; /* a mask took its features away */
        set_selected(p, forced[p] ? forced[p] : best((ic_prim)p));
    }
}

static int prim_by_name(const char *name, size_t n)
{
    for (int p = 0; p < IC_PRIM_COUNT; p++)
        if (strlen(prims[p].name) == n && strncmp(prims[p].name, name, n) == 0)
            return p;
    return -1;
}

static const ic_impl *impl_by_name(int p, const char *name, size_t n)
{
    for (size_t i = 0; i < nimpls[p]; i++)
        if (strlen(ic_impl_table[p][i].name) == n && strncmp(ic_impl_table[p][i].name, name, n) == 0)
            return &ic_impl_table[p][i];
    return NULL;
}

/* INCORE_IMPL=aes=ct64,ghash=ct64: all items are checked before any is
 * applied, so a bad item leaves the automatic choice intact everywhere.
 * "auto" is accepted as ic_impl_select() accepts it: that primitive keeps
 * (or, after an earlier item for it, goes back to) the automatic choice. */
static void apply_impl_env(void)
{
    const char *env = getenv("INCORE_IMPL");
    const ic_impl *want[IC_PRIM_COUNT] = {0};
    char msg[512];
    if (!env || !*env)
        return;
    for (const char *s = env; *s;) {
        size_t n = strcspn(s, ","), k = strcspn(s, "=");
        int p = k < n ? prim_by_name(s, k) : -1;
        const ic_impl *im = p >= 0 ? impl_by_name(p, s + k + 1, n - k - 1) : NULL;
        int is_auto = p >= 0 && n - k - 1 == 4 && strncmp(s + k + 1, "auto", 4) == 0;
        if (p < 0 || (!is_auto && (!im || !usable(im)))) {
            snprintf(msg, sizeof msg,
                     "INCORE_IMPL=\"%s\" is not valid (ignored): \"%.*s\" %s; expected "
                     "prim=impl[,prim=impl...] with names from `incore info`",
                     env, (int)n, s,
                     k >= n ? "has no '='" : p < 0 ? "names no primitive"
                     : !im ? "names no implementation of it" : "is not available on this CPU");
            ic_env_report(msg);
            return;
        }
        want[p] = is_auto ? NULL : im;
        s += n;
        if (*s == ',' && *++s == 0) {
            snprintf(msg, sizeof msg, "INCORE_IMPL=\"%s\" is not valid (ignored): trailing comma", env);
            ic_env_report(msg);
            return;
        }
    }
    for (int p = 0; p < IC_PRIM_COUNT; p++)
        if (want[p]) {
            forced[p] = want[p];
            set_selected(p, want[p]);
        }
}

_Atomic uint64_t ic_impl_runnable[IC_PRIM_COUNT];

/* ic_impl_runnable[p]: the entries of p's table whose needs this CPU
 * meets, unmasked (INCORE_CPU's "-name" and ic_cpu_set_mask only steer
 * selection; a context keeps the code it was made with). */
static void set_runnable(void)
{
    for (int p = 0; p < IC_PRIM_COUNT; p++) {
        uint64_t m = 0;
        for (size_t i = 0; i < nimpls[p]; i++)
            if ((ic_impl_table[p][i].needs & ~cpu.detected) == 0)
                m |= UINT64_C(1) << i;
        atomic_store(&ic_impl_runnable[p], m);
    }
}

static void init_once(void)
{
    build_tables();
    ic_cpu_init(&cpu);
    set_runnable();
    atomic_store(&keep, cpu.keep);
    atomic_store(&ic_cpu_enabled_bits, cpu.detected & cpu.keep);
    reselect_all();
    apply_impl_env();
    /* publish under the writers' lock, so a concurrent ic_impl_select (which
     * waits for init, then takes the lock) cannot be overwritten by an
     * older choice */
    pthread_mutex_lock(&lock);
    atomic_store_explicit(&inited, 1, memory_order_release);
    for (int p = 0; p < IC_PRIM_COUNT; p++)
        atomic_store(&ic_selected_ops[p], atomic_load(&selected[p])->ops);
    pthread_mutex_unlock(&lock);
}

/* After the first use only an acquire load: pthread_once is a call into
 * libc through the PLT, which a 16-byte CRC would pay on every call. */
static void ensure_init(void)
{
    if (!atomic_load_explicit(&inited, memory_order_acquire))
        pthread_once(&once, init_once);
}

const void *ic_impl_ops_slow(ic_prim p, const ic_impl *t, uint32_t i)
{
    ensure_init();
    return ic_impl_index_ok(p, i) ? t[i].ops : NULL;
}

const void *ic_ops(ic_prim p)
{
    ensure_init();
    return atomic_load_explicit(&selected[p], memory_order_acquire)->ops;
}

uint32_t ic_impl_index(ic_prim p)
{
    ensure_init();
    return (uint32_t)(atomic_load_explicit(&selected[p], memory_order_acquire) - ic_impl_table[p]);
}

uint32_t ic_impl_index_of(ic_prim p, const void *ops)
{
    /* its caller records the index in a key, whose checks pass only once
     * ic_impl_runnable is set (a test may call this first in a process) */
    ensure_init();
    for (size_t i = 0; i < nimpls[p]; i++)
        if (ic_impl_table[p][i].ops == ops)
            return (uint32_t)i;
    return UINT32_MAX;
}

/* ---- public API --------------------------------------------------------- */

uint64_t ic_cpu_detected(void) { ensure_init(); return cpu.detected; }
uint64_t ic_cpu_features(void) { ensure_init(); return cpu.detected & atomic_load(&keep); }

_Atomic uint64_t ic_cpu_enabled_bits;   /* cpu.detected & keep, for ic_cpu_enabled() */
uint64_t ic_cpu_forced(void) { ensure_init(); return cpu.forced; }
const char *ic_cpu_model(void) { ensure_init(); return cpu.model; }

int ic_cpu_set_mask(uint64_t mask)
{
    ensure_init();
    pthread_mutex_lock(&lock);
    atomic_store(&keep, mask);
    atomic_store(&ic_cpu_enabled_bits, cpu.detected & mask);
    reselect_all();
    pthread_mutex_unlock(&lock);
    return IC_OK;
}

const char *ic_prim_name(size_t i) { return i < IC_PRIM_COUNT ? prims[i].name : NULL; }

static int lookup(const char *prim)
{
    return prim ? prim_by_name(prim, strlen(prim)) : -1;
}

size_t ic_impl_len(ic_prim p)
{
    ensure_init();
    return nimpls[p];
}

size_t ic_impl_listed(ic_prim p)
{
    ensure_init();
    return nlisted[p];
}

size_t ic_impl_count(const char *prim)
{
    int p = lookup(prim);
    return p < 0 ? 0 : ic_impl_len((ic_prim)p);
}

const char *ic_impl_name(const char *prim, size_t i)
{
    int p = lookup(prim);
    return p < 0 || i >= ic_impl_len((ic_prim)p) ? NULL : ic_impl_table[p][i].name;
}

int ic_impl_available(const char *prim, size_t i)
{
    int p = lookup(prim);
    ensure_init();
    return p >= 0 && i < nimpls[p] && usable(&ic_impl_table[p][i]);
}

int ic_impl_select(const char *prim, const char *name)
{
    int p = lookup(prim);
    if (p < 0)
        return IC_ERR_UNKNOWN;
    ensure_init();
    const ic_impl *im = NULL;
    if (name && strcmp(name, "auto") != 0) {
        im = impl_by_name(p, name, strlen(name));
        if (!im)
            return IC_ERR_UNKNOWN;
    }
    /* checked under the lock, so a concurrent ic_cpu_set_mask() cannot take
     * the features away between the check and the store */
    pthread_mutex_lock(&lock);
    if (im && !usable(im)) {
        pthread_mutex_unlock(&lock);
        return IC_ERR_UNAVAILABLE;
    }
    forced[p] = im;
    set_selected(p, im ? im : best((ic_prim)p));
    pthread_mutex_unlock(&lock);
    return IC_OK;
}

const char *ic_impl_selected(const char *prim)
{
    int p = lookup(prim);
    if (p < 0)
        return NULL;
    ensure_init();
    return atomic_load(&selected[p])->name;
}

const char *ic_impl_auto_for(const char *prim, uint64_t features)
{
    int p = lookup(prim);
    if (p < 0)
        return NULL;
    ensure_init();
    return first_for((ic_prim)p, features)->name;
}
