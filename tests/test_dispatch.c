/*
 * test_dispatch.c - the registry and the CPU mask: every primitive has a
 * portable implementation last, masks and forcing pick what they say,
 * malformed specifications are refused with IC_ERR_SYNTAX / IC_ERR_UNKNOWN.
 */
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "core/internal.h"
#include "aes/aes_impl.h"

static void test_parse(void)
{
    uint64_t k = 0;
    CHECK(ic_cpu_parse(&k, "none") == IC_OK && k == 0, "none -> empty mask");
    CHECK(ic_cpu_parse(&k, "all") == IC_OK && k == ~UINT64_C(0), "all -> full mask");
    CHECK(ic_cpu_parse(&k, "-vaes,-avx512f") == IC_OK &&
              k == (~UINT64_C(0) & ~IC_F(IC_CPU_VAES) & ~IC_F(IC_CPU_AVX512F)),
          "-vaes,-avx512f drops exactly two bits");
    CHECK(ic_cpu_parse(&k, "aesni,+pclmul") == IC_OK &&
              k == (IC_F(IC_CPU_AESNI) | IC_F(IC_CPU_PCLMUL)), "positive list keeps only those");
    CHECK(ic_cpu_parse(&k, "aesni,-aesni") == IC_OK && k == 0, "drop wins over keep");
    CHECK(ic_cpu_parse(&k, "vcrypto") == IC_OK && k == IC_F(IC_CPU_PPC_VCRYPTO), "ppc name");
    CHECK(ic_cpu_parse(&k, "bogus") == IC_ERR_SYNTAX, "unknown feature refused");
    CHECK(ic_cpu_parse(&k, "-aesni,") == IC_ERR_SYNTAX, "trailing comma refused");
    CHECK(ic_cpu_parse(&k, "-") == IC_ERR_SYNTAX, "bare '-' refused");
    CHECK(ic_cpu_parse(&k, ",aesni") == IC_ERR_SYNTAX, "empty item refused");
    CHECK(ic_cpu_parse(&k, NULL) == IC_ERR_NULL, "NULL spec");
    for (unsigned b = 0; ic_cpu_feature_name(b); b++)
        CHECK(ic_cpu_parse(&k, ic_cpu_feature_name(b)) == IC_OK && k == IC_F(b),
              "feature name %s round-trips", ic_cpu_feature_name(b));
    CHECK(ic_cpu_feature_name(IC_CPU_NBITS) == NULL, "names end at IC_CPU_NBITS");
}

/* The automatic choice for a given feature set (ic_impl_auto_for) is the
 * first listed entry whose needs it has, whatever this CPU has: with every
 * feature the first entry, with none the portable last one, and with this
 * CPU's enabled features what is selected here.  The Zen 4 trait
 * prefer-ymm, read inside entries, does not change the choice. */
static void test_auto_for(void)
{
    uint64_t k;
    for (size_t p = 0; ic_prim_name(p); p++) {
        const char *prim = ic_prim_name(p);
        size_t n = ic_impl_count(prim);
        CHECK(strcmp(ic_impl_auto_for(prim, ~UINT64_C(0)), ic_impl_name(prim, 0)) == 0,
              "%s: all features pick %s", prim, ic_impl_name(prim, 0));
        CHECK(strcmp(ic_impl_auto_for(prim, 0), ic_impl_name(prim, n - 1)) == 0,
              "%s: no feature picks the portable %s", prim, ic_impl_name(prim, n - 1));
        CHECK(strcmp(ic_impl_auto_for(prim, ic_cpu_features()), ic_impl_selected(prim)) == 0 ||
                  getenv("INCORE_IMPL") != NULL,
              "%s: auto_for(enabled) %s is the selection %s", prim,
              ic_impl_auto_for(prim, ic_cpu_features()), ic_impl_selected(prim));
        CHECK(strcmp(ic_impl_auto_for(prim, ic_cpu_features() | IC_F(IC_CPU_PREFER_YMM)),
                     ic_impl_auto_for(prim, ic_cpu_features() & ~IC_F(IC_CPU_PREFER_YMM))) == 0,
              "%s: prefer-ymm changes nothing", prim);
    }
    CHECK(ic_impl_auto_for("bogus", 0) == NULL && ic_impl_auto_for(NULL, 0) == NULL,
          "unknown primitive: NULL");
    CHECK(ic_cpu_parse(&k, "-prefer-ymm") == IC_OK, "-prefer-ymm parses");
}

static void test_tables(void)
{
    size_t nprims = 0;
    for (size_t p = 0; ic_prim_name(p); p++, nprims++) {
        const char *prim = ic_prim_name(p);
        size_t n = ic_impl_count(prim);
        CHECK(n >= 1, "%s has implementations", prim);
        CHECK(ic_impl_available(prim, n - 1), "%s: last entry (portable) always available", prim);
        CHECK(!ic_impl_available(prim, n), "%s: index past the end unavailable", prim);
        CHECK(ic_impl_name(prim, n) == NULL, "%s: no name past the end", prim);
        CHECK(ic_impl_selected(prim) != NULL, "%s: something selected", prim);
        /* the automatic choice is the first available entry */
        size_t first = 0;
        while (!ic_impl_available(prim, first))
            first++;
        CHECK(strcmp(ic_impl_selected(prim), ic_impl_name(prim, first)) == 0,
              "%s: automatic choice is the best available (%s)", prim, ic_impl_name(prim, first));
        CHECK(ic_impl_select(prim, "no-such-impl") == IC_ERR_UNKNOWN, "%s: unknown impl", prim);
        /* the registry's copy of the family's list holds IC_IMPL_MAX
         * entries (and the per-call index test is a bit of one word) */
        CHECK(ic_impl_listed((ic_prim)p) == n && n <= IC_IMPL_MAX, "%s: the %zu listed entries fit its table",
              prim, ic_impl_listed((ic_prim)p));
    }
    CHECK(nprims == IC_PRIM_COUNT, "all %d primitives enumerated", (int)IC_PRIM_COUNT);
    CHECK(ic_impl_count("nope") == 0 && ic_impl_name("nope", 0) == NULL &&
              !ic_impl_available("nope", 0) && ic_impl_selected("nope") == NULL,
          "unknown primitive is empty");
    CHECK(ic_impl_select("nope", "x") == IC_ERR_UNKNOWN, "select on unknown primitive");
    CHECK(ic_impl_count(NULL) == 0, "NULL primitive name");
}

static void test_mask_and_force(void)
{
    uint64_t saved = ic_cpu_features();
    CHECK((ic_cpu_features() & ~ic_cpu_detected()) == 0, "enabled is a subset of detected");
    CHECK(ic_cpu_set_mask(0) == IC_OK && ic_cpu_features() == 0, "mask 0 leaves no feature");
    for (size_t p = 0; ic_prim_name(p); p++) {
        const char *prim = ic_prim_name(p);
        size_t n = ic_impl_count(prim);
        CHECK(strcmp(ic_impl_selected(prim), ic_impl_name(prim, n - 1)) == 0,
              "%s: portable selected with no features", prim);
        for (size_t i = 0; i + 1 < n; i++)
            CHECK(!ic_impl_available(prim, i) && ic_impl_select(prim, ic_impl_name(prim, i)) ==
                                                     IC_ERR_UNAVAILABLE,
                  "%s/%s unavailable under mask 0", prim, ic_impl_name(prim, i));
    }
    CHECK(ic_cpu_set_mask(~UINT64_C(0)) == IC_OK && ic_cpu_features() == ic_cpu_detected(),
          "full mask restores features");
    /* forcing the portable entry sticks, "auto" releases it */
    const char *prim = "aes";
    size_t n = ic_impl_count(prim);
    CHECK(ic_impl_select(prim, ic_impl_name(prim, n - 1)) == IC_OK &&
              strcmp(ic_impl_selected(prim), ic_impl_name(prim, n - 1)) == 0, "force portable");
    CHECK(ic_impl_select(prim, "auto") == IC_OK, "back to auto");
    (void)saved;
}

/* A key or context whose stored implementation index names code this CPU
 * cannot run (a caller's bug overwrote it and left the check word intact;
 * fuzz_api's op_garble found one pointing at the IFMA Poly1305 entry, which
 * faulted on a CPU without IFMA) is refused like an index out of range:
 * IC_ERR_STATE, never a fault.  The entries to try come from the tables:
 * those whose needs the hardware (forced features included) lacks. */
static void test_stored_index(void)
{
    const uint64_t hw = ic_cpu_detected();
    uint8_t key[32] = {0}, blk[16] = {0}, tag[16];
    int tried = 0;
    for (uint32_t i = 0; i < ic_nimpls_aes; i++) {
        if ((ic_impls_aes[i].needs & ~hw) == 0)
            continue;
        ic_aes_key k;
        CHECK(ic_aes_key_init(&k, key, 16) == IC_OK, "aes init");
        k.impl = i;
        CHECK(ic_aes_ecb_encrypt(&k, blk, blk, 16) == IC_ERR_STATE,
              "aes key naming %s (not on this CPU) refused", ic_impls_aes[i].name);
        CHECK(ic_aes_setkey_impl(&k, i, key, 16) == IC_ERR_UNAVAILABLE,
              "aes key set up for %s (not on this CPU) refused", ic_impls_aes[i].name);
        tried++;
    }
    for (uint32_t i = 0; i < ic_nimpls_poly1305; i++) {
        if ((ic_impls_poly1305[i].needs & ~hw) == 0)
            continue;
        ic_poly1305_ctx c;
        CHECK(ic_poly1305_init(&c, key) == IC_OK, "poly1305 init");
        c.impl = i;
        CHECK(ic_poly1305_update(&c, blk, 16) == IC_ERR_STATE && ic_poly1305_final(&c, tag) == IC_ERR_STATE,
              "poly1305 context naming %s (not on this CPU) refused", ic_impls_poly1305[i].name);
        tried++;
    }
    /* indexes past the table, also past the runnable word's 64 bits (the
     * shift must not wrap around to a valid entry): an AES key, and a GCM
     * key object through either of its two keys or its stitched loop */
    const uint32_t far[] = {(uint32_t)ic_nimpls_aes, (uint32_t)ic_nimpls_ghash, 63, 64, 65, 127,
                            128, UINT32_MAX};
    for (size_t j = 0; j < sizeof far / sizeof far[0]; j++) {
        ic_aes_key k;
        ic_aes_gcm_key g;
        ic_aes_gcm_ctx gc;
        CHECK(ic_aes_key_init(&k, key, 16) == IC_OK, "init");
        CHECK(ic_aes_gcm_key_init(&g, key, 16) == IC_OK, "gcm key init");
        if (far[j] >= ic_nimpls_aes) {
            k.impl = far[j];
            CHECK(ic_aes_ecb_encrypt(&k, blk, blk, 16) == IC_ERR_STATE, "aes key index %u refused", far[j]);
            g.aes.impl = far[j];
            CHECK(ic_aes_gcm_init(&gc, &g, key, 12) == IC_ERR_STATE, "gcm aes index %u refused", far[j]);
            CHECK(ic_aes_gcm_key_init(&g, key, 16) == IC_OK, "gcm key init");
        }
        if (far[j] >= ic_nimpls_ghash) {
            g.ghash.impl = far[j];
            CHECK(ic_aes_gcm_init(&gc, &g, key, 12) == IC_ERR_STATE, "gcm ghash index %u refused", far[j]);
            CHECK(ic_aes_gcm_key_init(&g, key, 16) == IC_OK, "gcm key init");
        }
        if (far[j] >= IC_STITCH_COUNT) {
            g.stitch = far[j];
            CHECK(ic_aes_gcm_init(&gc, &g, key, 12) == IC_ERR_STATE, "gcm stitched loop id %u refused", far[j]);
        }
        ic_aes_gcm_key_wipe(&g);
    }
    /* a CPU with every AES and Poly1305 backend of its architecture has none to try */
    printf("stored index: %d entries this CPU cannot run tried\n", tried);
}

static void test_selftest(void)
{
    for (size_t p = 0; ic_prim_name(p); p++)
        CHECK(ic_selftest(ic_prim_name(p)) == IC_OK, "selftest %s/%s", ic_prim_name(p),
              ic_impl_selected(ic_prim_name(p)));
    CHECK(ic_selftest("nope") == IC_ERR_UNKNOWN, "selftest of unknown primitive");
    CHECK(ic_selftest(NULL) == IC_ERR_UNKNOWN, "selftest of NULL");
}

static void test_util(void)
{
    uint8_t a[33], b[33];
    tl_rand_bytes(a, sizeof a);
    memcpy(b, a, sizeof a);
    CHECK(ic_ct_equal(a, b, sizeof a) == 1, "equal buffers");
    for (size_t i = 0; i < sizeof a; i++)
        for (int bit = 0; bit < 8; bit++) {
            b[i] ^= (uint8_t)(1 << bit);
            if (!CHECK(ic_ct_equal(a, b, sizeof a) == 0, "differ in byte %zu bit %d", i, bit))
                return;
            b[i] ^= (uint8_t)(1 << bit);
        }
    CHECK(ic_ct_equal(a, b, 0) == 1, "empty compare");
    ic_wipe(a, sizeof a);
    uint8_t z[33] = {0};
    CHECK_MEM(a, z, sizeof a, "wipe zeroes");
    CHECK(strcmp(ic_status_str(IC_ERR_AUTH), "authentication failed") == 0, "status string");
    CHECK(strcmp(ic_status_str(12345), "unknown status") == 0, "unknown status string");
    CHECK(ic_version() && *ic_version(), "version string");
}

int main(void)
{
    printf("arch %s, cpu %s\n", ic_cpu_arch(), ic_cpu_model());
    test_parse();
    test_tables();
    test_auto_for();
    test_mask_and_force();
    test_stored_index();
    test_selftest();
    test_util();
    return tl_finish();
}
