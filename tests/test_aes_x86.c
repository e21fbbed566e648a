/*
 * test_aes_x86.c - the places where batched AES backends (8 blocks in
 * flight for AES-NI, 16 for VAES, 32 for VAES on ZMM, likewise POWER8 / ARMv8 code) differ from
 * a one-block-at-a-time implementation, for every implementation this CPU
 * can run, against the portable one (the table entry with needs == 0,
 * called directly through its ops):
 *
 *  1. every block count 0..80 and the batch edges 127..129, 255..257 for
 *     each raw block operation (ECB, CBC, CFB, OFB, CTR, ctr32), in place
 *     and out of place, misaligned by 1..15 bytes, with guard bytes around
 *     the output, and the IV / counter left for chaining;
 *  2. the counter carries at every position inside a batch: the last byte,
 *     the low 32 bits (ctr32 wraps there, ctr carries on), the low 64 bits
 *     (the 64-bit lane boundary of the x86 code) and the whole 128 bits,
 *     each with the wrap falling on block 0..40 of the call;
 *  3. a stream of raw calls split at random block counts (batch tails
 *     followed by more batches);
 *  4. buffers that end right before and start right after an inaccessible
 *     page (in, out and in place), so a backend that reads or writes even
 *     one byte outside [in, in+16n) or [out, out+16n) crashes the test;
 *  5. on x86-64: the round-key layout aes_x86.h promises to the AES-GCM
 *     code (FIPS 197 5.2 schedule at storage[0], Equivalent Inverse Cipher
 *     keys at storage[256]) for "ni", "vaes" and "vaes512", rebuilt here from the
 *     standard with an S-box computed from its definition (FIPS 197 5.1.1).
 */
#define _GNU_SOURCE   /* MAP_ANONYMOUS */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "testlib.h"
#include "aes/aes_impl.h"
#if defined(__x86_64__) || defined(__i386__)
#include "aes/aes_x86.h"
#endif

enum { OP_ECB_E, OP_ECB_D, OP_CBC_E, OP_CBC_D, OP_CFB_E, OP_CFB_D, OP_OFB, OP_CTR, OP_CTR32, NOPS };
static const char *const op_name[NOPS] = {"ecb_enc", "ecb_dec", "cbc_enc", "cbc_dec", "cfb_enc",
                                          "cfb_dec", "ofb", "ctr", "ctr32"};
static const size_t key_sizes[] = {16, 24, 32};

#define GUARD 48
#define MAXBLK 300
#define CAP (16 * MAXBLK + 2 * GUARD + 16)
static uint8_t src[CAP], dst[CAP], ref[CAP];

static const ic_impl *portable(void)
{
    const ic_impl *e = &ic_impls_aes[ic_nimpls_aes - 1];
    CHECK(e->needs == 0, "last AES table entry %s needs CPU features", e->name);
    return e;
}

/* One raw block operation; reg is the IV or counter (unused by ECB). */
static void run_op(const ic_aes_ops *o, int op, const ic_aes_key *k, uint8_t reg[16], uint8_t *out,
                   const uint8_t *in, size_t n)
{
    switch (op) {
    case OP_ECB_E: o->ecb_enc(k, out, in, n); break;
    case OP_ECB_D: o->ecb_dec(k, out, in, n); break;
    case OP_CBC_E: o->cbc_enc(k, reg, out, in, n); break;
    case OP_CBC_D: o->cbc_dec(k, reg, out, in, n); break;
    case OP_CFB_E: o->cfb_enc(k, reg, out, in, n); break;
    case OP_CFB_D: o->cfb_dec(k, reg, out, in, n); break;
    case OP_OFB:   o->ofb(k, reg, out, in, n); break;
    case OP_CTR:   o->ctr(k, reg, out, in, n); break;
    default:       o->ctr32(k, reg, out, in, n); break;
    }
}

/* k expanded by the selected implementation impl, rk by the portable one. */
static int make_keys(const char *impl, const uint8_t *key, size_t klen, ic_aes_key *k, ic_aes_key *rk)
{
    const ic_impl *p = portable();
    int ok = CHECK(ic_impl_select("aes", p->name) == IC_OK, "select %s", p->name);
    ok &= CHECK(ic_aes_key_init(rk, key, klen) == IC_OK, "reference init");
    ok &= CHECK(ic_aes_key_ops(rk) == p->ops, "reference key is not portable");
    ok &= CHECK(ic_impl_select("aes", impl) == IC_OK, "reselect %s", impl);
    ok &= CHECK(ic_aes_key_init(k, key, klen) == IC_OK, "init with %s", impl);
    return ok;
}

static int guards_ok(const uint8_t *buf, size_t start, size_t len)
{
    for (size_t i = 0; i < CAP; i++)
        if ((i < start || i >= start + len) && buf[i] != 0xA5)
            return 0;
    return 1;
}

/* Compare one call of op on n blocks (register reg0) with the portable
 * implementation: out of place with offsets, then in place. */
static void compare_call(const char *impl, int op, const ic_aes_key *k, const ic_aes_key *rk, size_t klen,
                         const uint8_t reg0[16], size_t n, const char *what)
{
    const ic_aes_ops *o = ic_aes_key_ops(k), *ro = ic_aes_key_ops(rk);
    size_t oi = tl_rand_below(16), oo = tl_rand_below(16);
    uint8_t *in = src + GUARD + oi, *out = dst + GUARD + oo;
    uint8_t r1[16], r2[16];

    tl_rand_bytes(in, 16 * n);
    memcpy(r1, reg0, 16);
    run_op(ro, op, rk, r1, ref, in, n);

    memset(dst, 0xA5, CAP);
    memcpy(r2, reg0, 16);
    run_op(o, op, k, r2, out, in, n);
    CHECK_MEM(out, ref, 16 * n, "%s AES-%zu %s, %zu blocks, %s, offsets %zu/%zu", impl, 8 * klen, op_name[op],
              n, what, oi, oo);
    CHECK_MEM(r2, r1, 16, "%s AES-%zu %s, %zu blocks, %s: register after", impl, 8 * klen, op_name[op], n, what);
    CHECK(guards_ok(dst, GUARD + oo, 16 * n), "%s %s %zu blocks wrote outside the output", impl, op_name[op], n);

    memcpy(out, in, 16 * n);
    memcpy(r2, reg0, 16);
    run_op(o, op, k, r2, out, out, n);
    CHECK_MEM(out, ref, 16 * n, "%s AES-%zu %s, %zu blocks, %s, in place", impl, 8 * klen, op_name[op], n, what);
    CHECK_MEM(r2, r1, 16, "%s %s in place: register after", impl, op_name[op]);
}

/* ---- 1. block counts around the batch sizes ------------------------------ */
static void block_counts(const char *impl, void *arg)
{
    (void)arg;
    unsigned long f0 = tl_failed, p0 = tl_passed;
    static const size_t extra[] = {127, 128, 129, 255, 256, 257};
    for (size_t ks = 0; ks < 3; ks++) {
        uint8_t key[32], reg[16];
        ic_aes_key k, rk;
        tl_rand_bytes(key, sizeof key);
        if (!make_keys(impl, key, key_sizes[ks], &k, &rk))
            return;
        for (int op = 0; op < NOPS; op++) {
            for (size_t i = 0; i <= 80 + sizeof extra / sizeof extra[0]; i++) {
                size_t n = i <= 80 ? i : extra[i - 81];
                tl_rand_bytes(reg, 16);
                compare_call(impl, op, &k, &rk, key_sizes[ks], reg, n, "random register");
            }
        }
        ic_aes_key_wipe(&k), ic_aes_key_wipe(&rk);
    }
    printf("  block counts with %s: %lu checks, %lu failed\n", impl, tl_passed - p0 + tl_failed - f0,
           tl_failed - f0);
}

/* ---- 2. counter carries at every position of a batch --------------------- */

/* Set the counter so that the carry out of its low `bits` bits happens
 * after d blocks (the d-th increment wraps those bits to zero). */
static void counter_near(uint8_t c[16], unsigned bits, unsigned d)
{
    tl_rand_bytes(c, 16);
    /* low `bits` bits = 2^bits - d, i.e. all ones minus (d - 1) */
    for (unsigned b = 0; b < bits; b += 8)
        c[15 - b / 8] = 0xff;
    uint32_t sub = d - 1;
    for (int i = 15; i >= 0 && sub; i--) {
        uint32_t v = c[i];
        c[i] = (uint8_t)(v - (sub & 0xff));
        sub = (sub >> 8) + (v < (sub & 0xff));
    }
}

static void counter_carries(const char *impl, void *arg)
{
    (void)arg;
    unsigned long f0 = tl_failed, p0 = tl_passed;
    static const unsigned widths[] = {8, 16, 32, 64, 128};
    for (size_t ks = 0; ks < 3; ks++) {
        uint8_t key[32], c[16];
        ic_aes_key k, rk;
        tl_rand_bytes(key, sizeof key);
        if (!make_keys(impl, key, key_sizes[ks], &k, &rk))
            return;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
            for (unsigned d = 1; d <= 40; d++) {
                /* lengths that put the wrap inside the first batch, at its
                 * end, and in a later batch or tail */
                size_t lens[] = {d, d + 1, 8, 16, 17, 33, 40};
                for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
                    char what[64];
                    snprintf(what, sizeof what, "carry of low %u bits at block %u", widths[w], d);
                    counter_near(c, widths[w], d);
                    compare_call(impl, OP_CTR, &k, &rk, key_sizes[ks], c, lens[li], what);
                    compare_call(impl, OP_CTR32, &k, &rk, key_sizes[ks], c, lens[li], what);
                }
            }
        }
        ic_aes_key_wipe(&k), ic_aes_key_wipe(&rk);
    }
    /* the counter model itself: ctr on 2^128 - 1 gives 0, ctr32 on
     * x..x ffffffff gives x..x 00000000 */
    {
        uint8_t key[16] = {0}, c[16], z[16] = {0}, o[16];
        ic_aes_key k;
        CHECK(ic_aes_key_init(&k, key, 16) == IC_OK, "init");
        const ic_aes_ops *op = ic_aes_key_ops(&k);
        memset(c, 0xff, 16);
        op->ctr(&k, c, o, z, 1);
        CHECK_MEM(c, z, 16, "%s: ctr wraps 2^128 - 1 to 0", impl);
        memset(c, 0xff, 16);
        op->ctr32(&k, c, o, z, 1);
        uint8_t want[16];
        memset(want, 0xff, 12);
        memset(want + 12, 0, 4);
        CHECK_MEM(c, want, 16, "%s: ctr32 wraps only the last 32 bits", impl);
        ic_aes_key_wipe(&k);
    }
    printf("  counter carries with %s: %lu checks, %lu failed\n", impl, tl_passed - p0 + tl_failed - f0,
           tl_failed - f0);
}

/* ---- 3. raw calls split at random block counts ---------------------------- */
static void split_streams(const char *impl, void *arg)
{
    (void)arg;
    unsigned long f0 = tl_failed, p0 = tl_passed;
    for (int t = 0; t < 60; t++) {
        size_t klen = key_sizes[t % 3];
        int op = t % NOPS;
        uint8_t key[32], reg0[16], r1[16], r2[16];
        ic_aes_key k, rk;
        tl_rand_bytes(key, sizeof key);
        if (!make_keys(impl, key, klen, &k, &rk))
            return;
        size_t n = 1 + tl_rand_below(MAXBLK);
        uint8_t *in = src + GUARD + 1, *out = dst + GUARD + 3;
        tl_rand_bytes(in, 16 * n);
        tl_rand_bytes(reg0, 16);
        if (op >= OP_CTR && (t & 2))
            counter_near(reg0, t & 4 ? 64 : 32, 1 + tl_rand_below(64));
        memcpy(r1, reg0, 16);
        run_op(ic_aes_key_ops(&rk), op, &rk, r1, ref, in, n);
        memcpy(r2, reg0, 16);
        memset(dst, 0xA5, CAP);
        int calls = 0;
        for (size_t off = 0; off < n; calls++) {
            size_t m = 1 + tl_rand_below((uint32_t)(n - off < 40 ? n - off : 40));
            run_op(ic_aes_key_ops(&k), op, &k, r2, out + 16 * off, in + 16 * off, m);
            off += m;
        }
        CHECK_MEM(out, ref, 16 * n, "%s AES-%zu %s, %zu blocks in %d calls", impl, 8 * klen, op_name[op], n, calls);
        CHECK_MEM(r2, r1, 16, "%s %s split: register after", impl, op_name[op]);
        CHECK(guards_ok(dst, GUARD + 3, 16 * n), "%s %s split wrote outside", impl, op_name[op]);
        ic_aes_key_wipe(&k), ic_aes_key_wipe(&rk);
    }
    printf("  split streams with %s: %lu checks, %lu failed\n", impl, tl_passed - p0 + tl_failed - f0,
           tl_failed - f0);
}

/* ---- 4. buffers next to inaccessible pages ------------------------------ */
static uint8_t *guard_map;
static size_t guard_page;

/* Two mappings [none][data: 2 pages][none]; returns 0 when unavailable. */
static int guard_setup(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    if (!CHECK(pg > 0 && pg * 2 >= 16 * 257, "page size %ld", pg))
        return 0;
    guard_page = (size_t)pg;
    guard_map = mmap(NULL, 8 * guard_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!CHECK(guard_map != MAP_FAILED, "mmap"))
        return 0;
    /* [0]=none [1,2]=in [3]=none [4,5]=out [6]=none */
    CHECK(mprotect(guard_map, guard_page, PROT_NONE) == 0 &&
          mprotect(guard_map + 3 * guard_page, guard_page, PROT_NONE) == 0 &&
          mprotect(guard_map + 6 * guard_page, guard_page, PROT_NONE) == 0, "mprotect");
    return 1;
}

static void edge_buffers(const char *impl, void *arg)
{
    (void)arg;
    unsigned long f0 = tl_failed, p0 = tl_passed;
    uint8_t *in_lo = guard_map + guard_page, *in_hi_end = guard_map + 3 * guard_page;
    uint8_t *out_lo = guard_map + 4 * guard_page, *out_hi_end = guard_map + 6 * guard_page;
    for (size_t ks = 0; ks < 3; ks++) {
        uint8_t key[32], reg0[16], r1[16], r2[16];
        ic_aes_key k, rk;
        tl_rand_bytes(key, sizeof key);
        if (!make_keys(impl, key, key_sizes[ks], &k, &rk))
            return;
        const ic_aes_ops *o = ic_aes_key_ops(&k), *ro = ic_aes_key_ops(&rk);
        for (int op = 0; op < NOPS; op++) {
            for (size_t n = 1; n <= 257; n += n < 40 ? 1 : 27) {
                for (int place = 0; place < 3; place++) {
                    /* 0: in at the end of its pages, out at the start;
                     * 1: the other way round; 2: in place at the end */
                    uint8_t *in = place == 1 ? in_lo : in_hi_end - 16 * n;
                    uint8_t *out = place == 0 ? out_lo : place == 1 ? out_hi_end - 16 * n : in;
                    tl_rand_bytes(in, 16 * n);
                    tl_rand_bytes(reg0, 16);
                    memcpy(r1, reg0, 16);
                    run_op(ro, op, &rk, r1, ref, in, n);
                    memcpy(r2, reg0, 16);
                    run_op(o, op, &k, r2, out, in, n);
                    CHECK_MEM(out, ref, 16 * n, "%s %s, %zu blocks next to a guard page (%d)", impl,
                              op_name[op], n, place);
                    CHECK_MEM(r2, r1, 16, "%s %s guard page: register after", impl, op_name[op]);
                }
            }
        }
        ic_aes_key_wipe(&k), ic_aes_key_wipe(&rk);
    }
    printf("  guard pages with %s: %lu checks, %lu failed\n", impl, tl_passed - p0 + tl_failed - f0,
           tl_failed - f0);
}

/* ---- 5. the x86 round-key layout ------------------------------------------- */
#if defined(__x86_64__) || defined(__i386__)
static uint8_t sbox[256];

static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    while (b) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1b : 0));
        b >>= 1;
    }
    return r;
}

/* FIPS 197 5.1.1: multiplicative inverse in GF(2^8), then the affine map. */
static void make_sbox(void)
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x; y++)
            if (gmul((uint8_t)x, (uint8_t)y) == 1)
                inv = (uint8_t)y;
        uint8_t s = 0x63;
        for (int i = 0; i < 8; i++) {
            int bit = (inv >> i ^ inv >> ((i + 4) % 8) ^ inv >> ((i + 5) % 8) ^ inv >> ((i + 6) % 8) ^
                       inv >> ((i + 7) % 8)) & 1;
            s ^= (uint8_t)(bit << i);
        }
        sbox[x] = s;
    }
}

/* FIPS 197 5.2 KeyExpansion, byte by byte; w holds 4 * (Nr + 1) words. */
static void key_expansion(const uint8_t *key, size_t nk, uint8_t *w, unsigned nr)
{
    uint8_t rcon = 1;
    memcpy(w, key, 4 * nk);
    for (size_t i = nk; i < 4 * (nr + 1); i++) {
        uint8_t t[4];
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0) {
            uint8_t t0 = t[0];
            t[0] = sbox[t[1]] ^ rcon, t[1] = sbox[t[2]], t[2] = sbox[t[3]], t[3] = sbox[t0];
            rcon = gmul(rcon, 2);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = sbox[t[j]];
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
}

/* FIPS 197 5.3.3 InvMixColumns on one 16-byte round key. */
static void inv_mix_columns(uint8_t s[16])
{
    for (int c = 0; c < 4; c++) {
        uint8_t *a = s + 4 * c, b[4];
        for (int r = 0; r < 4; r++)
            b[r] = gmul(a[r], 0x0e) ^ gmul(a[(r + 1) % 4], 0x0b) ^ gmul(a[(r + 2) % 4], 0x0d) ^
                   gmul(a[(r + 3) % 4], 0x09);
        memcpy(a, b, 4);
    }
}

static void key_layout(void)
{
    unsigned long f0 = tl_failed, p0 = tl_passed;
    int x86_impls = 0;
    make_sbox();
    CHECK(sbox[0x00] == 0x63 && sbox[0x53] == 0xed && sbox[0xff] == 0x16, "S-box from its definition");
    for (size_t i = 0; i < ic_impl_count("aes"); i++) {
        const char *name = ic_impl_name("aes", i);
        int x86 = !strcmp(name, "ni") || !strcmp(name, "vaes") || !strcmp(name, "vaes512");
        if (!x86 || !ic_impl_available("aes", i))
            continue;
        x86_impls++;
        CHECK(ic_impl_select("aes", name) == IC_OK, "select %s", name);
        for (size_t ks = 0; ks < 3; ks++) {
            size_t klen = key_sizes[ks];
            unsigned nr = (unsigned)(klen / 4 + 6);
            uint8_t key[32], w[240], d[240];
            ic_aes_key k;
            tl_rand_bytes(key, sizeof key);
            if (ks == 0)   /* FIPS 197 A.1: the last round key of 2b7e1516... */
                tl_hex(key, 16, "2b7e151628aed2a6abf7158809cf4f3c");
            CHECK(ic_aes_key_init(&k, key, klen) == IC_OK, "init");
            CHECK(aes_x86_key_native(&k), "%s key is not recognised as x86 layout", name);
            key_expansion(key, klen / 4, w, nr);
            if (ks == 0) {
                uint8_t a1[16];
                tl_hex(a1, 16, "d014f9a8c9ee2589e13f0cc8b6630ca6");
                CHECK_MEM(w + 160, a1, 16, "FIPS 197 A.1 w[40..43] from the test's own expansion");
            }
            CHECK_MEM(aes_x86_enc_rk(&k), w, 16 * (nr + 1), "%s AES-%zu encryption round keys at storage[%d]",
                      name, 8 * klen, AES_X86_ENC_OFF);
            for (unsigned r = 0; r <= nr; r++) {
                memcpy(d + 16 * r, w + 16 * (nr - r), 16);
                if (r != 0 && r != nr)
                    inv_mix_columns(d + 16 * r);
            }
            CHECK_MEM(aes_x86_dec_rk(&k), d, 16 * (nr + 1), "%s AES-%zu decryption round keys at storage[%d]",
                      name, 8 * klen, AES_X86_DEC_OFF);
            CHECK(k.rounds == nr, "rounds");
            ic_aes_key_wipe(&k);
        }
    }
    CHECK(ic_impl_select("aes", NULL) == IC_OK, "aes: back to automatic selection");
    /* A key of the portable implementation is not taken for an x86 one. */
    {
        uint8_t key[16] = {0};
        ic_aes_key k;
        CHECK(ic_impl_select("aes", portable()->name) == IC_OK, "select portable");
        CHECK(ic_aes_key_init(&k, key, 16) == IC_OK, "init");
        CHECK(!aes_x86_key_native(&k), "portable key taken for an x86 layout");
        CHECK(ic_impl_select("aes", NULL) == IC_OK, "aes: back to automatic selection");
    }
    printf("  key layout: %d x86 implementations, %lu checks, %lu failed\n", x86_impls,
           tl_passed - p0 + tl_failed - f0, tl_failed - f0);
}
#endif

int main(void)
{
    int ran = tl_for_each_impl("aes", block_counts, NULL);
    CHECK(ran >= 1, "no AES implementation ran");
    tl_for_each_impl("aes", counter_carries, NULL);
    tl_for_each_impl("aes", split_streams, NULL);
    if (guard_setup()) {
        tl_for_each_impl("aes", edge_buffers, NULL);
        munmap(guard_map, 8 * guard_page);
    }
#if defined(__x86_64__) || defined(__i386__)
    key_layout();
#endif
    return tl_finish();
}
