/*
 * test_arm_aes.c - the ARMv8 backends (AArch64, and 32-bit ARM since they
 * share the sources: core/cpu_arm.h) of AES ("ce", src/aes/aes_arm_ce.c),
 * GHASH ("pmull", src/gcm/ghash_arm_pmull.c) and the stitched AES-GCM loop
 * (src/gcm/gcm_arm_pmull.c), where test_aes.c and test_gcm.c reach them only
 * by chance (3 to 6, shared with test_ppc_aes.c, are in arch_aes_common.h):
 *
 *  1. dispatch: on aarch64 and arm "aes/ce" is listed and available exactly when the
 *     CPU features (after INCORE_CPU) include aes, "ghash/pmull" exactly when
 *     they include pmull, each picked by default then; masking the feature
 *     at run time gives the next entry the CPU runs (ghash/neon where NEON
 *     is there, else the portable implementation) and refuses to force
 *     the backend.
 *  2. the round-key layout that aes_arm.h documents and the stitched GCM
 *     relies on: the FIPS 197 5.2 round keys in byte order, then the
 *     equivalent inverse cipher's keys (5.3.5: reversed, InvMixColumns on
 *     the inner ones), against a byte-wise expansion written here with an
 *     S-box from its definition (5.1.1), itself checked against FIPS 197
 *     Appendix A (tests/vectors/aes_keyexp.txt).
 *  3. counters made by vector adds: CTR (128-bit) and ctr32 (GCM inc32)
 *     wrapping after every block of the first three 8-block batches (so at
 *     every lane position of a batch and on the batch boundaries), with the
 *     fixed bits all ones (the 128-bit wrap for CTR; a carry leaking out of
 *     inc32 would show) and, alternately, random high bits over an all-ones
 *     low half (the carry from the low 64 bits into the high 64), through
 *     the raw ops and the public CTR call (misaligned, in place, partial
 *     last block), against the portable implementation.
 *  4. GHASH blocks() against the portable GHASH on 0..70 blocks (every tail
 *     of the 8-block aggregation), split in two calls at every position,
 *     with hash keys H = 0, 1, x^127, top bit set, all ones, random.
 *  5. the stitched loop against its definition on the portable parts: block
 *     counts around the 8-block batches (whole batches for a ce key, no
 *     loop paired with another key), encrypt and decrypt, misaligned and in place, inc32
 *     wrapping at every block of the first six batches, and the public
 *     streaming API across it.
 *  6. bounds: every AES operation, GHASH blocks() and the loop with input
 *     and output ending at a PROT_NONE page.
 * Elsewhere than (little-endian) ARM it only checks that neither entry is
 * listed.
 */
#include "core/cpu_arm.h"
#if IC_ARM_LE
#define ARCH_AES_BACKENDS
#endif
#include "arch_aes_common.h"

#if IC_ARM_LE

static const arch_aes BACKENDS = {"ce", "pmull", "ce+pmull", 0};

/* ---- 1. dispatch --------------------------------------------------------- */

/* Returns 1 when prim's backend name (needing feature feat) is usable on
 * this CPU (after INCORE_CPU). */
static int dispatch(const char *prim, const char *name, int feat, const char *fname)
{
    const uint64_t need = IC_F(feat);
    long i = impl_index(prim, name);
    uint64_t feats = ic_cpu_features();
    int hw = (feats & need) == need;

    if (!CHECK(i >= 0, "%s/%s listed on ARM", prim, name))
        return 0;
    /* the entry that takes over without the feature: the next one the CPU
     * runs (ghash/neon where NEON is there, e.g. armhf cortex-a7 or the
     * masked runs below), else the portable code */
    const char *next = portable(prim);
    for (size_t j = (size_t)i + 1; j < ic_impl_count(prim); j++)
        if (ic_impl_available(prim, j)) {
            next = ic_impl_name(prim, j);
            break;
        }
    const char *want = hw ? name : next;
    CHECK(ic_impl_available(prim, (size_t)i) == hw, "%s/%s available (%d) exactly when %s (%d)", prim, name,
          ic_impl_available(prim, (size_t)i), fname, hw);
    CHECK(strcmp(ic_impl_selected(prim), want) == 0, "%s picks %s, expected %s", prim, ic_impl_selected(prim), want);
    printf("%s/%s %s on this CPU; selected: %s/%s\n", prim, name, hw ? "available" : "NOT available", prim,
           ic_impl_selected(prim));

    /* the feature masked away at run time: the next entry the CPU still
     * runs takes over (ghash/neon where NEON is left, else the portable
     * code), and forcing the backend is refused; the old mask comes back. */
    CHECK(ic_cpu_set_mask(feats & ~need) == IC_OK, "mask %s", fname);
    CHECK(strcmp(ic_impl_selected(prim), next) == 0, "without %s %s picks %s, expected %s", fname, prim,
          ic_impl_selected(prim), next);
    CHECK(ic_impl_select(prim, name) != IC_OK, "%s/%s cannot be forced without %s", prim, name, fname);
    CHECK(ic_cpu_set_mask(feats) == IC_OK, "restore the mask");
    CHECK(ic_impl_select(prim, NULL) == IC_OK, "%s: back to automatic selection", prim);
    CHECK(strcmp(ic_impl_selected(prim), want) == 0, "%s selection back to %s", prim, ic_impl_selected(prim));
    return hw;
}

/* ---- 2. key layout ------------------------------------------------------- */

/* InvMixColumns of one 16-byte state (FIPS 197 5.3.3), column by column. */
static void inv_mix(uint8_t *d, const uint8_t *s)
{
    for (int c = 0; c < 4; c++) {
        const uint8_t *a = s + 4 * c;
        for (int r = 0; r < 4; r++)
            d[4 * c + r] = gmul(a[r], 0x0e) ^ gmul(a[(r + 1) % 4], 0x0b) ^ gmul(a[(r + 2) % 4], 0x0d)
                           ^ gmul(a[(r + 3) % 4], 0x09);
    }
}

/* The ce storage against the reference: round keys in byte order, then the
 * equivalent inverse cipher's keys at offset 240. */
static void check_layout(const uint8_t *key, size_t kl, const char *what)
{
    uint8_t w[240], dk[240];
    size_t nr = kl / 4 + 6;
    ic_aes_key k;
    expand_ref(key, kl, w);
    for (size_t i = 0; i <= nr; i++) {
        if (i == 0 || i == nr)
            memcpy(dk + 16 * i, w + 16 * (nr - i), 16);
        else
            inv_mix(dk + 16 * i, w + 16 * (nr - i));
    }
    CHECK(ic_impl_select("aes", "ce") == IC_OK && ic_aes_key_init(&k, key, kl) == IC_OK, "%s: ce key", what);
    CHECK(k.rounds == nr, "%s: %u rounds", what, k.rounds);
    CHECK_MEM(k.storage, w, 16 * (nr + 1), "%s: ce encryption round keys in FIPS 197 byte order", what);
    CHECK_MEM(k.storage + 240, dk, 16 * (nr + 1), "%s: ce equivalent-inverse-cipher keys", what);
    ic_aes_key_wipe(&k);
}

int main(void)
{
    int aes = dispatch("aes", "ce", IC_CPU_ARM_AES, "aes");
    int ghash = dispatch("ghash", "pmull", IC_CPU_ARM_PMULL, "pmull");
    if (aes) {
        layout(check_layout);
        counters(&BACKENDS);
        aes_bounds(&BACKENDS);
        tl_exercised("aes", "ce");
    }
    if (ghash) {
        ghash_checks(&BACKENDS);
        tl_exercised("ghash", "pmull");
    }
    if (aes && ghash)
        stitched_checks(&BACKENDS);
    return tl_finish();
}

#else /* not ARM */

int main(void) { return none_listed("ce", "pmull", "ARM", "aarch64 or arm"); }

#endif
