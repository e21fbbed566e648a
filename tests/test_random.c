/*
 * test_random.c - ic_random(): the process DRBG over the health-tested
 * sources (src/drbg/random.c).
 *
 *  1. lengths 0..80 at every alignment write exactly len bytes; 1 MiB of
 *     output has no repeated 16-byte block and a sane monobit count;
 *  2. requests over 64 KiB (several generate calls), reseed on request
 *     (with and without additional input), prediction resistance;
 *  3. fork: a child's output differs from the parent's next output and
 *     from its sibling's (the child reseeds; it never repeats the stream),
 *     also when the parent was seeded before fork;
 *  4. threads: 4 threads x 2000 requests, no 32-byte output seen twice;
 *  5. fails closed: with every source injected as failing (stuck, failing
 *     every call, biased), ic_random and ic_random_reseed return
 *     IC_ERR_UNAVAILABLE and zero the buffer, even though the DRBG had been
 *     seeded before; with one good source among bad ones it works again;
 *  6. bad input.
 */
#include "testlib.h"
#include "rand/rand_source.h"
#include "incore/rand.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp16(const void *a, const void *b) { return memcmp(a, b, 16); }
static int cmp32(const void *a, const void *b) { return memcmp(a, b, 32); }

static void test_lengths(void)
{
    uint8_t buf[16 + 80 + 16];
    int bad = 0, guard = 0;
    for (size_t off = 0; off < 16; off++)
        for (size_t len = 0; len <= 80; len++) {
            memset(buf, 0x5a, sizeof buf);
            bad += ic_random(buf + off, len) != IC_OK;
            guard += !tl_all_byte(buf, off, 0x5a) || !tl_all_byte(buf + off + len, sizeof buf - off - len, 0x5a);
            bad += len >= 16 && tl_all_byte(buf + off, len, 0x5a);
        }
    CHECK(bad == 0 && guard == 0, "lengths: %d failures, %d guard hits", bad, guard);

    size_t n = 1 << 20;
    uint8_t *m = tl_xmalloc(n);
    CHECK(ic_random(m, n) == IC_OK, "1 MiB");
    unsigned long ones = 0;
    for (size_t i = 0; i < n; i++)
        ones += (unsigned long)__builtin_popcount(m[i]);
    double bits = 8.0 * n, d = (double)ones - bits / 2;
    CHECK(d * d <= 100.0 * bits / 4, "monobit: %lu ones in %.0f bits", ones, bits);
    qsort(m, n / 16, 16, cmp16);
    int rep = 0;
    for (size_t i = 1; i < n / 16; i++)
        rep += memcmp(m + 16 * (i - 1), m + 16 * i, 16) == 0;
    CHECK(rep == 0, "%d repeated 16-byte blocks in 1 MiB", rep);
    free(m);
}

static void test_reseed_pr(void)
{
    uint8_t a[32], b[32], big[200000];
    CHECK(ic_random(big, sizeof big) == IC_OK, "request over 64 KiB");
    CHECK(memcmp(big, big + 65536, 64) != 0 && memcmp(big + 65536, big + 131072, 64) != 0,
          "chunks of a long request differ");
    CHECK(ic_random_reseed(NULL, 0) == IC_OK, "reseed");
    CHECK(ic_random_reseed((const uint8_t *)"some additional input", 21) == IC_OK, "reseed with additional input");
    CHECK(ic_random(a, sizeof a) == IC_OK, "after reseed");
    ic_random_set_prediction_resistance(1);
    CHECK(ic_random(b, sizeof b) == IC_OK && memcmp(a, b, 32) != 0, "prediction resistance");
    ic_random_set_prediction_resistance(0);
}

/* The child writes 32 bytes of ic_random to the pipe. */
static void fork_child_output(uint8_t out[32])
{
    int fd[2];
    memset(out, 0, 32);
    if (!CHECK(pipe(fd) == 0, "pipe"))
        return;
    pid_t pid = fork();
    if (pid == 0) {
        uint8_t c[32];
        int st = ic_random(c, sizeof c);
        ssize_t w = st == IC_OK ? write(fd[1], c, sizeof c) : -1;
        _exit(w == (ssize_t)sizeof c ? 0 : 1);
    }
    close(fd[1]);
    ssize_t r = read(fd[0], out, 32);
    int status = 0;
    waitpid(pid, &status, 0);
    close(fd[0]);
    CHECK(r == 32 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "child output");
}

static void test_fork(void)
{
    uint8_t p[32], c1[32], c2[32];
    CHECK(ic_random(p, sizeof p) == IC_OK, "parent seeded before fork");
    fork_child_output(c1);
    fork_child_output(c2);
    CHECK(ic_random(p, sizeof p) == IC_OK, "parent after fork");
    CHECK(memcmp(p, c1, 32) != 0 && memcmp(p, c2, 32) != 0, "child repeats the parent's stream");
    CHECK(memcmp(c1, c2, 32) != 0, "two children share a stream");
}

#define NTHREADS 4
#define NREQ 2000
static uint8_t thread_out[NTHREADS][NREQ][32];

static void *thread_main(void *arg)
{
    uint8_t (*o)[32] = thread_out[(size_t)arg];
    for (int i = 0; i < NREQ; i++)
        if (ic_random(o[i], 32) != IC_OK)
            memset(o[i], 0, 32);
    return NULL;
}

static void test_threads(void)
{
    pthread_t t[NTHREADS];
    for (size_t i = 0; i < NTHREADS; i++)
        CHECK(pthread_create(&t[i], NULL, thread_main, (void *)i) == 0, "thread");
    for (size_t i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    uint8_t *all = &thread_out[0][0][0];
    qsort(all, NTHREADS * NREQ, 32, cmp32);
    int rep = 0;
    for (size_t i = 1; i < NTHREADS * NREQ; i++)
        rep += memcmp(all + 32 * (i - 1), all + 32 * i, 32) == 0;
    CHECK(rep == 0, "threads: %d outputs seen twice (or failed)", rep);
}

static int fill_stuck(const ic_rand_src *s, uint8_t *o, size_t n) { (void)s; memset(o, 7, n); return 1; }
static int fill_fail(const ic_rand_src *s, uint8_t *o, size_t n) { (void)s; (void)o; (void)n; return 0; }
/* 3 bits of entropy per byte while credited with 8: the proportion test
 * sees the window's first value ~64 times in 512 (cutoff 20). */
static int fill_biased(const ic_rand_src *s, uint8_t *o, size_t n)
{
    (void)s;
    tl_rand_bytes(o, n);
    for (size_t i = 0; i < n; i++)
        o[i] &= 7;
    return 1;
}
static int fill_good(const ic_rand_src *s, uint8_t *o, size_t n) { (void)s; tl_rand_bytes(o, n); return 1; }

static void test_fail_closed(void)
{
    uint8_t b[64];
    const ic_rand_src bad[] = {
        { "stuck", 0, fill_stuck, NULL, 8 }, { "fails", 0, fill_fail, NULL, 8 },
        { "biased", 0, fill_biased, NULL, 8 },
    };
    CHECK(ic_random(b, sizeof b) == IC_OK, "seeded from the real sources first");
    ic_rand_test_set_sources(bad, 3);
    memset(b, 0xa5, sizeof b);
    CHECK(ic_random_reseed(NULL, 0) == IC_ERR_UNAVAILABLE, "reseed with only failing sources");
    memset(b, 0xa5, sizeof b);
    CHECK(ic_random(b, sizeof b) == IC_ERR_UNAVAILABLE && tl_all_byte(b, sizeof b, 0),
          "ic_random fails closed, output zeroed");
    ic_random_set_prediction_resistance(1);
    CHECK(ic_random(b, 1) == IC_ERR_UNAVAILABLE && b[0] == 0, "with prediction resistance too");
    ic_random_set_prediction_resistance(0);
    ic_rand_health h;
    CHECK(ic_rand_source_health("stuck", &h) == IC_ERR_SELFTEST, "stuck reported");
    CHECK(ic_rand_source_health("fails", &h) == IC_ERR_UNAVAILABLE, "failing reported");
    CHECK(ic_rand_source_health("biased", &h) == IC_ERR_SELFTEST, "biased reported");

    /* One good source is enough; the bad ones stay out. */
    const ic_rand_src mixed[] = {
        { "stuck", 0, fill_stuck, NULL, 8 }, { "good", 0, fill_good, NULL, 8 },
    };
    ic_rand_test_set_sources(mixed, 2);
    CHECK(ic_random_reseed(NULL, 0) == IC_OK, "reseed from the good source");
    CHECK(ic_random(b, sizeof b) == IC_OK && !tl_all_byte(b, sizeof b, 0), "one good source seeds");
    CHECK(ic_rand_source_health("stuck", &h) == IC_ERR_SELFTEST, "stuck still reported");
    ic_rand_test_set_sources(NULL, 0);
    CHECK(ic_random_reseed(NULL, 0) == IC_OK, "real sources back");
}

static void test_badinput(void)
{
    uint8_t b[8];
    CHECK(ic_random(NULL, 8) == IC_ERR_NULL, "NULL, 8");
    CHECK(ic_random(NULL, 0) == IC_OK, "NULL, 0");
    CHECK(ic_random(b, 0) == IC_OK, "len 0");
    CHECK(ic_random_reseed(NULL, 5) == IC_ERR_NULL, "reseed NULL, 5");
    static uint8_t big[1025];
    CHECK(ic_random_reseed(big, sizeof big) == IC_ERR_TOOLONG, "reseed addin over 1 KiB");
}

int main(void)
{
    test_lengths();
    test_reseed_pr();
    test_fork();
    test_threads();
    test_fail_closed();
    test_fork();     /* after the sources were swapped and restored */
    test_badinput();
    return tl_finish();
}
