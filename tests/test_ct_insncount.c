/*
 * test_ct_insncount.c - instruction counts of the ChaCha20 / Poly1305 /
 * ChaCha20-Poly1305 backends, of the x86 AES and AES-GCM backends
 * (vaes512, vpclmul512 and the ones below them) and of
 * ic_mont_init + ic_mont_modexp through every montmul backend depend
 * on the lengths only.
 *
 * Under x86emu-run, RDTSC counts retired instructions (its README,
 * "Limits"), so the difference of two RDTSC reads around a call is exactly
 * how many instructions the call ran.  A branch on key, nonce or data
 * would change that count for some inputs; this test runs every
 * implementation of chacha20 and poly1305 the (emulated) CPU has, for
 * lengths across every switch point, with keys and data at the extremes
 * (all zero, all 0xff, r and s with every clamp-allowed bit set) and
 * random, and requires one count per (implementation, length).  AES:
 * ECB encryption and decryption, CBC and CFB decryption and ctr32 (GCM's
 * counter) with the key and data at the extremes; AES-GCM seal with a
 * 12-byte IV (the public counter: its low bytes are the block index, the
 * same for every IV) and with a 16-byte IV (the counter is GHASH_H(IV), a
 * secret, so no branch may look at it), for every x86 AES backend with the
 * selected GHASH and every x86 GHASH with the selected AES.  It is the
 * check the AVX-512 / IFMA backends get in place of valgrind's (which
 * cannot run AVX-512): `make test-x86emu` sets INCORE_INSN_COUNT=1.
 * It sees control flow only; secret-dependent addresses (table lookups)
 * would not change a count, and the code has none by construction
 * (docs/backends.md).  Natively RDTSC is a clock: without
 * INCORE_INSN_COUNT the test only runs the calls and says so.
 */
#include "testlib.h"
#include "aes/aes_impl.h"
#include "bn/bn_impl.h"
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include "core/target.h"   /* before <x86intrin.h>: its 32-bit FP16 guard */
#include <x86intrin.h>
#endif

static const size_t lens[] = { 0, 1, 16, 48, 64, 65, 128, 160, 176, 192, 256, 257, 448, 449, 512, 1000, 1088, 1100,
                               2560, 2576, 4096 + 7 };
#define NLENS (sizeof lens / sizeof lens[0])
#define NVAR 6
static uint8_t key[32], nonce[12], msg[4096 + 7], out[4096 + 7 + 16], tag[16];
static int counting;

static void variant(int v, size_t len)
{
    switch (v) {
    case 0: memset(key, 0, 32); memset(nonce, 0, 12); memset(msg, 0, len); break;
    case 1: memset(key, 0xff, 32); memset(nonce, 0xff, 12); memset(msg, 0xff, len); break;
    case 2: memset(key, 0xff, 32); memset(nonce, 0, 12); memset(msg, 0, len); break;
    default: tl_rand_bytes(key, 32); tl_rand_bytes(nonce, 12); tl_rand_bytes(msg, len);
    }
}

static uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return 0;
#endif
}

static ic_aes_key aes;
static uint8_t iv16[16];
static int gcm_status;   /* every seal's status ORed: checked once at the end */

/* The AES raw operations on whole blocks (the modes' drivers add only
 * length-dependent work); the key is set up outside the count. */
static void aes_ops(size_t len)
{
    const ic_aes_ops *o = ic_aes_key_ops(&aes);
    size_t n = len / 16;
    uint8_t reg[16];
    memcpy(reg, nonce, 12);
    memset(reg + 12, 0xff, 4);   /* ctr32 wraps inside the call */
    o->ecb_enc(&aes, out, msg, n);
    o->ecb_dec(&aes, out, msg, n);
    o->cbc_dec(&aes, reg, out, msg, n);
    o->cfb_dec(&aes, reg, out, msg, n);
    o->ctr32(&aes, reg, out, msg, n);
}

/* what: 0 chacha20, 1 poly1305, 2 chacha20-poly1305 seal, 3 AES blocks,
 * 4 AES-GCM seal (12-byte IV), 5 AES-GCM seal (16-byte IV),
 * 6 chacha20-poly1305 open (of a seal made before counting), 7 AES-GCM open
 * (12-byte IV, in place, of a seal made before counting: the one-pass
 * decryption and the compare) */
static uint64_t count(int what, size_t len)
{
    uint64_t t0;
    int st = IC_OK;
    if (what == 3 && ic_aes_key_init(&aes, key, 16 + 8 * (len % 3)) != IC_OK)
        return 0;
    if (what == 6 && ic_chacha20_poly1305_seal(out, tag, msg, len, msg, 13, nonce, key) != IC_OK)
        return 0;
    if (what == 7 && ic_aes_gcm_seal(out, tag, 16, msg, len, msg, 13, nonce, 12, key, 16) != IC_OK)
        return 0;
    t0 = ticks();
    switch (what) {
    case 0: st = ic_chacha20_xor(out, msg, len, nonce, 1, key); break;
    case 1: st = ic_poly1305(tag, msg, len, key); break;
    case 2: st = ic_chacha20_poly1305_seal(out, tag, msg, len, msg, 13, nonce, key); break;
    case 3: aes_ops(len); break;
    case 4: gcm_status |= ic_aes_gcm_seal(out, tag, 16, msg, len, msg, 13, nonce, 12, key, 16); break;
    case 6: st = ic_chacha20_poly1305_open(out, tag, out, len, msg, 13, nonce, key); break;
    case 7: st = ic_aes_gcm_open(out, tag, 16, out, len, msg, 13, nonce, 12, key, 16); break;
    default: memcpy(iv16, nonce, 12); memcpy(iv16 + 12, key, 4);
             gcm_status |= ic_aes_gcm_seal(out, tag, 16, msg, len, msg, 13, iv16, 16, key, 32); break;
    }
    uint64_t t1 = ticks();
    CHECK(st == IC_OK, "call %d, len %zu: status %d", what, len, st);
    return t1 - t0;
}

/* The verdict on one operation: the same instruction count for every
 * variant of its secrets (only when counting, i.e. under the emulator). */
static void check_counts(const uint64_t c[NVAR], const char *what, const char *impl, size_t len)
{
    int same = 1;
    for (int v = 1; v < NVAR; v++)
        same &= c[v] == c[0];
    if (counting)
        CHECK(same, "%s/%s len %zu: instruction counts %llu %llu %llu %llu %llu %llu", what, impl, len,
              (unsigned long long)c[0], (unsigned long long)c[1], (unsigned long long)c[2],
              (unsigned long long)c[3], (unsigned long long)c[4], (unsigned long long)c[5]);
}

static void check_impl(const char *impl, void *arg)
{
    int what = *(const int *)arg;
    static const char *names[] = { "chacha20", "poly1305", "chacha20-poly1305 seal", "aes blocks",
                                   "aes-gcm seal (12-byte iv)", "aes-gcm seal (16-byte iv)",
                                   "chacha20-poly1305 open", "aes-gcm open (12-byte iv)" };
    for (size_t i = 0; i < NLENS; i++) {
        uint64_t c[NVAR];
        for (int v = 0; v < NVAR; v++) {
            variant(v, lens[i]);
            count(what, lens[i]);          /* warm: a first call may run set-up (CPU detection) */
            c[v] = count(what, lens[i]);
        }
        check_counts(c, names[what], impl, lens[i]);
    }
}

#if defined(__x86_64__) || defined(__i386__)
/* The x86 AES or GHASH backends only (not the portable last entry, which
 * is valgrind's, ct_check.c; under x86emu its bitsliced code would take
 * minutes); returns how many ran. */
static int for_each_x86(const char *prim, int what)
{
    int ran = 0;
    size_t n = ic_impl_count(prim);
    for (size_t i = 0; i + 1 < n; i++) {
        const char *name = ic_impl_name(prim, i);
        if (!ic_impl_available(prim, i) || ic_impl_select(prim, name) != IC_OK)
            continue;
        check_impl(name, &what);
        tl_exercised(prim, name);
        ran++;
    }
    CHECK(ic_impl_select(prim, NULL) == IC_OK, "%s: back to automatic selection", prim);
    return ran;
}
#endif
/* ic_mont_init + ic_mont_modexp between two counter reads, in a function of
 * its own so that nothing of the caller's per-variant set-up can be
 * scheduled into the counted stretch.  (Counted inline in the loop, one
 * variant at 9 bytes came out 4 instructions longer in every backend,
 * port included; isolated like this every count is equal, so the
 * difference was the test's code, not the library's.) */
static __attribute__((noinline)) uint64_t timed_modexp(const uint8_t *n, const uint8_t *b, const uint8_t *e,
                                                       uint8_t *r, size_t len, size_t el, int *st)
{
    ic_mont_ctx m;
    uint64_t t0 = ticks();
    int s1 = ic_mont_init(&m, n, len);
    int s2 = ic_mont_modexp(&m, r, len, b, len, e, el);
    uint64_t t1 = ticks();
    *st = s1 | s2;
    return t1 - t0;
}

/* The dual exponentiation of an RSA-CRT signature (two moduli of len
 * bytes, ic_bn_modexp2: ifma runs both in one loop), set-up included. */
static __attribute__((noinline)) uint64_t timed_modexp2(uint8_t (*n)[256], uint8_t (*b)[256], uint8_t (*e)[256],
                                                        uint8_t (*r)[256], size_t len, size_t el, int *st)
{
    ic_mont_ctx m[2];
    uint64_t t0 = ticks();
    int s1 = ic_mont_init(&m[0], n[0], len) | ic_mont_init(&m[1], n[1], len);
    const ic_bn_modexp_job j0 = { &m[0], r[0], len, b[0], len, e[0], el };
    const ic_bn_modexp_job j1 = { &m[1], r[1], len, b[1], len, e[1], el };
    int s2 = ic_bn_modexp2(&j0, &j1);
    uint64_t t1 = ticks();
    *st = s1 | s2;
    return t1 - t0;
}

/* Operands of variant v (check_modexp's list) for a modulus of len bytes
 * and an exponent of el. */
static void modexp_operands(uint8_t *n, uint8_t *b, uint8_t *e, size_t len, size_t el, int v)
{
    tl_rand_bytes(n, len);
    n[0] |= 0x80;
    n[len - 1] |= 1;
    switch (v) {
    case 0: memset(b, 0, len); memset(e, 0, el); e[el - 1] = 1; break;
    case 1: memset(b, 0, len); b[len - 1] = 1; memset(e, 0xff, el); break;
    case 2: memcpy(b, n, len); b[len - 1] ^= 1; memset(e, 0, el); e[0] = 0x80; break;
    case 3: memset(b, 0xff, len); b[0] = 0x7f; tl_rand_bytes(e, el); e[el - 1] |= 1; break;
    default: tl_rand_bytes(b, len); b[0] &= 0x7f; tl_rand_bytes(e, el); e[el - 1] |= 1;
    }
}

/* Modular exponentiation: one count per (implementation,
 * modulus length) over bases 0, 1, n - 1, all-but-top ones and random,
 * and exponents of one length with few and many bits set; the modulus
 * varies too (it may be a secret prime), top bit and low bit set. */
static void check_modexp(const char *impl, void *arg)
{
    (void)arg;
    static const size_t mlens[] = { 9, 64, 72, 128, 256, 384 };   /* from 128: ifma's IFMA path */
    static uint8_t n[384], b[384], e[384], r[384];
    for (size_t i = 0; i < sizeof mlens / sizeof mlens[0]; i++) {
        size_t len = mlens[i], el = len > 256 ? 32 : len;   /* short exponent: emulation is slow */
        uint64_t c[NVAR];
        for (int v = 0; v < NVAR; v++) {
            modexp_operands(n, b, e, len, el, v);
            int st;
            c[v] = timed_modexp(n, b, e, r, len, el, &st);
            CHECK(st == IC_OK, "modexp/%s len %zu variant %d: status", impl, len, v);
        }
        check_counts(c, "modexp", impl, len);
    }
    /* the dual exponentiation, 1024 + 1024 bits (RSA-2048's halves: ifma's
     * pair of 3 vectors in registers) and 1664 + 1664 bits (5 vectors, the
     * pair with the operands read from memory, as RSA-4096's 2048-bit
     * halves; smaller and with a 2-byte exponent, as emulation is slow):
     * each job's operands of the variant the other's mirror, so both
     * halves vary */
    static uint8_t n2[2][256], b2[2][256], e2[2][256], r2[2][256];
    static const size_t dlens[][2] = { { 128, 32 }, { 208, 2 } };   /* modulus, exponent bytes */
    for (size_t i = 0; i < sizeof dlens / sizeof dlens[0]; i++) {
        const size_t len = dlens[i][0], el = dlens[i][1];
        uint64_t c[NVAR];
        for (int v = 0; v < NVAR; v++) {
            modexp_operands(n2[0], b2[0], e2[0], len, el, v);
            modexp_operands(n2[1], b2[1], e2[1], len, el, NVAR - 1 - v);
            int st;
            c[v] = timed_modexp2(n2, b2, e2, r2, len, el, &st);
            CHECK(st == IC_OK, "modexp2/%s len %zu variant %d: status", impl, len, v);
        }
        check_counts(c, "modexp2", impl, len);
    }
}

int main(void)
{
    counting = getenv("INCORE_INSN_COUNT") != NULL;
    int w0 = 0, w1 = 1, w2 = 2, w6 = 6;
    CHECK(tl_for_each_impl("chacha20", check_impl, &w0) >= 1, "chacha20 ran");
    CHECK(tl_for_each_impl("poly1305", check_impl, &w1) >= 1, "poly1305 ran");
    CHECK(tl_for_each_impl("chacha20", check_impl, &w2) >= 1, "seal (chacha20 backends) ran");
    CHECK(tl_for_each_impl("poly1305", check_impl, &w2) >= 1, "seal (poly1305 backends) ran");
    CHECK(tl_for_each_impl("chacha20", check_impl, &w6) >= 1, "open (chacha20 backends) ran");
#if defined(__x86_64__) || defined(__i386__)
    for (int w = 3; w <= 5; w++) {
        CHECK(for_each_x86("aes", w) >= 1, "%d: aes backends ran", w);
        if (w > 3)
            CHECK(for_each_x86("ghash", w) >= 1, "%d: ghash backends ran", w);
    }
    /* AES-GCM open under automatic selection only: vaes512 + vpclmul512
     * under the emulator; the other backends' opens run under valgrind
     * and MSan (ct_check.c) */
    int w7 = 7;
    check_impl("automatic selection", &w7);
#endif
    CHECK(tl_for_each_impl("montmul", check_modexp, NULL) >= 1, "modexp (montmul backends) ran");
    if (!counting)
        printf("INCORE_INSN_COUNT unset: RDTSC is a clock here, counts not compared "
               "(make test-x86emu runs this under x86emu-run, where it counts instructions)\n");
    CHECK(gcm_status == IC_OK, "every AES-GCM seal timed returned IC_OK");
    return tl_finish();
}
