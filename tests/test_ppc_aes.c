/*
 * test_ppc_aes.c - the POWER8 AES backend "p8" (src/aes/aes_ppc_p8.c) where
 * test_aes.c reaches it only by chance:
 *
 *  1. dispatch: on ppc64 "p8" is listed, it is available exactly when the
 *     CPU features (after INCORE_CPU) include vcrypto, arch_2_07 and VSX,
 *     and is then picked by default; otherwise, and when vcrypto is masked
 *     away at run time, the portable implementation is picked.  This is
 *     what the power7 leg (or an INCORE_CPU=-vcrypto one) shows.
 *  2. the round-key layout that aes_ppc.h documents and the stitched GCM
 *     relies on: storage holds each round key of FIPS 197 section 5.2 as
 *     the image vec_st leaves of the register, i.e. the key bytes in order
 *     on big-endian and reversed within each 16 bytes on little-endian.
 *     The round keys come from a byte-wise expansion written here, with an
 *     S-box computed from its definition (FIPS 197 section 5.1.1), itself
 *     checked against FIPS 197 Appendix A (tests/vectors/aes_keyexp.txt).
 *  3. counters in registers: CTR (128-bit) and ctr32 (GCM inc32) wrapping
 *     at every block of the first three 8-block batches and on the batch
 *     boundaries, the fixed bits all ones (a carry leaking out of inc32 or
 *     stopping inside the 128 bits would show), through the raw ops and the
 *     public CTR call (misaligned, in place, with a partial last block),
 *     against the portable implementation.
 *  4. bounds: every operation on 1..20 blocks with its input ending at a
 *     PROT_NONE page and its output ending at another, so a load or store
 *     past in + len or out + len faults (QEMU honours the protection).
 * Elsewhere than ppc64 it only checks that no "p8" AES is listed.
 */
#define _GNU_SOURCE  /* MAP_ANONYMOUS under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "testlib.h"
#include "aes/aes_impl.h"

static long impl_index(const char *prim, const char *name)
{
    for (size_t i = 0; i < ic_impl_count(prim); i++)
        if (strcmp(ic_impl_name(prim, i), name) == 0)
            return (long)i;
    return -1;
}

#if defined(__powerpc64__)

static const char *portable_aes(void) { return ic_impl_name("aes", ic_impl_count("aes") - 1); }

/* ---- 1. dispatch ------------------------------------------------------------ */

/* Returns 1 when p8 is usable on this CPU (after INCORE_CPU). */
static int dispatch(void)
{
    const uint64_t need = IC_F(IC_CPU_PPC_VCRYPTO) | IC_F(IC_CPU_PPC_ARCH207) | IC_F(IC_CPU_PPC_VSX);
    long i = impl_index("aes", "p8");
    uint64_t feats = ic_cpu_features();
    int hw = (feats & need) == need;

    if (!CHECK(i >= 0, "aes/p8 listed on ppc64"))
        return 0;
    CHECK(ic_impl_available("aes", (size_t)i) == hw, "aes/p8 available (%d) exactly when vcrypto+arch2.07+vsx (%d)",
          ic_impl_available("aes", (size_t)i), hw);
    CHECK(strcmp(ic_impl_selected("aes"), hw ? "p8" : portable_aes()) == 0, "aes picks %s, expected %s",
          ic_impl_selected("aes"), hw ? "p8" : portable_aes());
    printf("aes/p8 %s on this CPU; selected: aes/%s\n", hw ? "available" : "NOT available", ic_impl_selected("aes"));

    /* vcrypto masked away at run time: the portable code takes over, and
     * forcing p8 is refused; the old mask comes back after. */
    CHECK(ic_cpu_set_mask(feats & ~IC_F(IC_CPU_PPC_VCRYPTO)) == IC_OK, "mask vcrypto");
    CHECK(strcmp(ic_impl_selected("aes"), portable_aes()) == 0, "without vcrypto aes picks %s, expected %s",
          ic_impl_selected("aes"), portable_aes());
    CHECK(ic_impl_select("aes", "p8") != IC_OK, "p8 cannot be forced without vcrypto");
    CHECK(ic_cpu_set_mask(feats) == IC_OK, "restore the mask");
    ic_impl_select("aes", NULL);
    CHECK(strcmp(ic_impl_selected("aes"), hw ? "p8" : portable_aes()) == 0, "selection back to %s",
          ic_impl_selected("aes"));
    return hw;
}

/* ---- 2. key layout ---------------------------------------------------------- */

/* GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS 197 section 4.2). */
static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x1b : 0));
        b >>= 1;
    }
    return r;
}

/* S-box (section 5.1.1): the inverse (b^254, 0 -> 0), then the affine map
 * b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63. */
static uint8_t sbox(uint8_t b)
{
    uint8_t inv = 1, sq = b;
    for (int e = 254; e; e >>= 1) {
        if (e & 1)
            inv = gmul(inv, sq);
        sq = gmul(sq, sq);
    }
    uint8_t s = inv;
    for (int i = 1; i <= 4; i++)
        s ^= (uint8_t)(inv << i | inv >> (8 - i));
    return s ^ 0x63;
}

/* Key expansion of section 5.2 on bytes: w receives 16 * (Nr + 1) bytes. */
static void expand_ref(const uint8_t *key, size_t kl, uint8_t *w)
{
    size_t nk = kl / 4, nw = 4 * (nk + 7);
    uint8_t rcon = 1;
    memcpy(w, key, kl);
    for (size_t i = nk; i < nw; i++) {
        uint8_t t[4];
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0) {
            uint8_t t0 = t[0];
            t[0] = sbox(t[1]) ^ rcon;
            t[1] = sbox(t[2]);
            t[2] = sbox(t[3]);
            t[3] = sbox(t0);
            rcon = gmul(rcon, 2);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = sbox(t[j]);
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
}

/* The p8 storage against the reference: register images of the round keys. */
static void check_layout(const uint8_t *key, size_t kl, const char *what)
{
    uint8_t w[240], img[240];
    size_t nr = kl / 4 + 6;
    ic_aes_key k;
    expand_ref(key, kl, w);
    for (size_t r = 0; r <= nr; r++)
        for (size_t j = 0; j < 16; j++)
#if defined(__LITTLE_ENDIAN__)
            img[16 * r + j] = w[16 * r + 15 - j];
#else
            img[16 * r + j] = w[16 * r + j];
#endif
    CHECK(ic_impl_select("aes", "p8") == IC_OK && ic_aes_init(&k, key, kl) == IC_OK, "%s: p8 key", what);
    CHECK(k.rounds == nr, "%s: %u rounds", what, k.rounds);
    CHECK_MEM(k.storage, img, 16 * (nr + 1), "%s: p8 round keys stored as register images", what);
    ic_aes_wipe(&k);
}

static void layout(void)
{
    tl_rsp *r = tl_rsp_openf("%s/aes_keyexp.txt", tl_data_dir());
    tl_rec rec;
    int n = 0;
    while (tl_rsp_next(r, &rec)) {
        uint8_t key[32], last[16], all[176], w[240];
        long kl = tl_get(&rec, "KEY") ? tl_hex(key, sizeof key, tl_get(&rec, "KEY")) : -1;
        long ll = tl_get(&rec, "W_LAST") ? tl_hex(last, sizeof last, tl_get(&rec, "W_LAST")) : -1;
        const char *what = tl_get(&rec, "COUNT") ? tl_get(&rec, "COUNT") : "?";
        if (!CHECK((kl == 16 || kl == 24 || kl == 32) && ll == 16, "aes_keyexp.txt %s: malformed", what))
            continue;
        expand_ref(key, (size_t)kl, w);
        CHECK_MEM(w + 16 * (kl / 4 + 6), last, 16, "FIPS 197 %s: reference expansion, last round key", what);
        if (tl_has(&rec, "W")) {
            long al = tl_hex(all, sizeof all, tl_get(&rec, "W"));
            CHECK(al == 16 * (kl / 4 + 7), "FIPS 197 %s: W length", what);
            if (al > 0)
                CHECK_MEM(w, all, (size_t)al, "FIPS 197 %s: reference expansion, every round key", what);
        }
        check_layout(key, (size_t)kl, what);
        n++;
    }
    tl_rsp_close(r);
    CHECK(n == 3, "aes_keyexp.txt: %d of 3 records", n);
    for (int i = 0; i < 30; i++) {
        uint8_t key[32];
        tl_rand_bytes(key, sizeof key);
        check_layout(key, 16 + 8 * (size_t)(i % 3), "random key");
    }
    ic_impl_select("aes", NULL);
}

/* ---- 3. counters ------------------------------------------------------------ */

static int by(ic_aes_key *k, const char *impl, const uint8_t *key, size_t kl)
{
    int r = ic_impl_select("aes", impl);
    if (r == IC_OK)
        r = ic_aes_init(k, key, kl);
    ic_impl_select("aes", NULL);
    return r;
}

/* The counter for a wrap after block `at`: the counted part (last 4 bytes
 * for inc32, all 16 for CTR) is its maximum minus `at`; the rest all ones
 * or random. */
static void wrap_counter(uint8_t c[16], int inc32, uint32_t at, int ones)
{
    if (ones)
        memset(c, 0xff, 16);
    else
        tl_rand_bytes(c, 16);
    if (!inc32 && !ones)
        memset(c + 8, 0xff, 8);     /* carry from the low 64 bits into the high */
    ic_store32_be(c + 12, 0xffffffffu - at);
}

static void counters(void)
{
    static const size_t counts[] = {8, 9, 16, 24, 25, 33};
    uint8_t *src = malloc(64 * 16 + 32), *dst = malloc(64 * 16 + 32), *ref = malloc(64 * 16 + 32);
    unsigned long f0 = tl_failed;
    if (!src || !dst || !ref)
        exit(2);
    for (int inc32 = 0; inc32 < 2; inc32++)
        for (uint32_t at = 0; at <= 25; at++)
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                size_t nb = counts[ci], kl = 16 + 8 * tl_rand_below(3), oi = tl_rand_below(16);
                size_t oo = tl_rand_below(16), tail = tl_rand_below(16), len = 16 * nb + tail;
                uint8_t key[32], c0[16], c[16], rc[16];
                ic_aes_key k, rk;
                int ones = (int)tl_rand_below(2);
                const char *op = inc32 ? "ctr32" : "ctr";

                tl_rand_bytes(key, kl);
                wrap_counter(c0, inc32, at, ones);
                tl_rand_bytes(src, 64 * 16 + 32);
                CHECK(by(&k, "p8", key, kl) == IC_OK && by(&rk, portable_aes(), key, kl) == IC_OK, "keys");
                const ic_aes_ops *p8 = ic_aes_key_ops(&k), *pr = ic_aes_key_ops(&rk);

                /* raw block op, misaligned */
                memcpy(c, c0, 16);
                memcpy(rc, c0, 16);
                memset(dst, 0x5A, 64 * 16 + 32);
                (inc32 ? p8->ctr32 : p8->ctr)(&k, c, dst + oo, src + oi, nb);
                (inc32 ? pr->ctr32 : pr->ctr)(&rk, rc, ref, src + oi, nb);
                CHECK_MEM(dst + oo, ref, 16 * nb, "raw %s, %zu blocks, wrap after block %u, ones %d", op, nb,
                          (unsigned)at, ones);
                CHECK_MEM(c, rc, 16, "raw %s counter after %zu blocks, wrap after %u", op, nb, (unsigned)at);
                CHECK(dst[oo + 16 * nb] == 0x5A && (oo == 0 || dst[oo - 1] == 0x5A), "raw %s wrote outside", op);

                /* raw op in place */
                memcpy(c, c0, 16);
                memcpy(dst, src + oi, 16 * nb);
                (inc32 ? p8->ctr32 : p8->ctr)(&k, c, dst, dst, nb);
                CHECK_MEM(dst, ref, 16 * nb, "raw %s in place, %zu blocks, wrap after %u", op, nb, (unsigned)at);

                /* the public CTR call (128-bit counter), with a partial block */
                if (!inc32) {
                    memcpy(c, c0, 16);
                    memcpy(rc, c0, 16);
                    CHECK(ic_aes_ctr_crypt(&k, c, dst + oo, src + oi, len) == IC_OK
                          && ic_aes_ctr_crypt(&rk, rc, ref, src + oi, len) == IC_OK, "ctr calls");
                    CHECK_MEM(dst + oo, ref, len, "ic_aes_ctr_crypt %zu bytes, wrap after block %u", len,
                              (unsigned)at);
                    CHECK_MEM(c, rc, 16, "ic_aes_ctr_crypt counter after %zu bytes", len);
                }
                ic_aes_wipe(&k);
                ic_aes_wipe(&rk);
            }
    printf("  counters: %lu failed\n", tl_failed - f0);
    free(src), free(dst), free(ref);
}

/* ---- 4. bounds -------------------------------------------------------------- */

/* Two readable pages, each followed by a PROT_NONE one. */
static uint8_t *guarded(size_t *pg)
{
    long p = sysconf(_SC_PAGESIZE);
    *pg = p > 0 ? (size_t)p : 4096;
    uint8_t *m = mmap(NULL, 4 * *pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m + *pg, *pg, PROT_NONE) != 0 || mprotect(m + 3 * *pg, *pg, PROT_NONE) != 0)
        return NULL;
    return m;
}

static void bounds(void)
{
    size_t pg;
    uint8_t *m = guarded(&pg), key[32], iv[16], want[20 * 16], ivw[16];
    ic_aes_key k, rk;
    if (!CHECK(m != NULL, "guard pages"))
        return;
    for (size_t kl = 16; kl <= 32; kl += 8) {
        tl_rand_bytes(key, kl);
        CHECK(by(&k, "p8", key, kl) == IC_OK && by(&rk, portable_aes(), key, kl) == IC_OK, "keys");
        const ic_aes_ops *a = ic_aes_key_ops(&k), *r = ic_aes_key_ops(&rk);
        for (size_t nb = 1; nb <= 20; nb++) {
            uint8_t *in = m + pg - 16 * nb, *out = m + 3 * pg - 16 * nb;
            tl_rand_bytes(in, 16 * nb);
            for (int op = 0; op < 10; op++) {
                tl_rand_bytes(iv, 16);
                memcpy(ivw, iv, 16);
#define RUN(o, kk, v, dst)                                                                        \
    switch (op) {                                                                                 \
    case 0: o->ecb_enc(kk, dst, in, nb); break;                                                   \
    case 1: o->ecb_dec(kk, dst, in, nb); break;                                                   \
    case 2: o->cbc_enc(kk, v, dst, in, nb); break;                                                \
    case 3: o->cbc_dec(kk, v, dst, in, nb); break;                                                \
    case 4: o->ctr(kk, v, dst, in, nb); break;                                                    \
    case 5: o->ctr32(kk, v, dst, in, nb); break;                                                  \
    case 6: o->cfb_enc(kk, v, dst, in, nb); break;                                                \
    case 7: o->cfb_dec(kk, v, dst, in, nb); break;                                                \
    case 8: o->ofb(kk, v, dst, in, nb); break;                                                    \
    default: memcpy(dst, in, 16 * nb); o->ctr(kk, v, dst, dst, nb); break;                        \
    }
                RUN(r, &rk, ivw, want);
                RUN(a, &k, iv, out);
#undef RUN
                CHECK_MEM(out, want, 16 * nb, "op %d on %zu blocks ending at a guard page", op, nb);
                CHECK_MEM(iv, ivw, 16, "op %d chaining value at a guard page", op);
            }
        }
        ic_aes_wipe(&k);
        ic_aes_wipe(&rk);
    }
    munmap(m, 4 * pg);
}

int main(void)
{
    if (dispatch()) {
        layout();
        counters();
        bounds();
        tl_exercised("aes", "p8");
    }
    return tl_finish();
}

#else /* not ppc64 */

int main(void)
{
    CHECK(impl_index("aes", "p8") < 0, "no POWER8 AES listed off ppc64");
    return tl_finish();
}

#endif
