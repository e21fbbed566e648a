/*
 * test_ppc_aes.c - the POWER8 backends of AES ("p8", src/aes/aes_ppc_p8.c),
 * GHASH ("p8", src/gcm/ghash_ppc_p8.c) and the stitched AES-GCM loop
 * (src/gcm/gcm_ppc_p8.c), where test_aes.c and test_gcm.c reach them only
 * by chance (3 to 6, shared with test_arm_aes.c, are in arch_aes_common.h):
 *
 *  1. dispatch: on ppc64 both "p8" entries are listed (both declaring the
 *     stitched loop), available exactly when the CPU features (after
 *     INCORE_CPU) include vcrypto, arch_2_07 and VSX, and picked by default
 *     then; otherwise, and when vcrypto is masked away at run time, the
 *     portable implementations are picked.  This is what the power7 leg (or
 *     an INCORE_CPU=-vcrypto one) shows.
 *  2. the AES round-key layout that aes_ppc.h documents and the stitched GCM
 *     relies on: storage holds each round key of FIPS 197 section 5.2 as
 *     the image vec_st leaves of the register, i.e. the key bytes in order
 *     on big-endian and reversed within each 16 bytes on little-endian.
 *     The round keys come from a byte-wise expansion written here, with an
 *     S-box computed from its definition (FIPS 197 section 5.1.1), itself
 *     checked against FIPS 197 Appendix A (tests/vectors/aes_keyexp.txt).
 *  3. AES counters in registers: CTR (128-bit) and ctr32 (GCM inc32)
 *     wrapping at every block of the first three 8-block batches and on the
 *     batch boundaries, the fixed bits all ones (a carry leaking out of
 *     inc32 or stopping inside the 128 bits would show), through the raw
 *     ops and the public CTR call (misaligned, in place, with a partial last
 *     block), against the portable implementation.
 *  4. GHASH blocks() against the portable GHASH on 0..70 blocks (every tail
 *     of the 8-block aggregation), split in two calls at every position, on
 *     misaligned input, with hash keys that stress the key setup: H = 0,
 *     H = 1, H = x^127, H with the top bit set (the carry of H*y), all ones,
 *     random.
 *  5. the stitched loop against its definition on the portable parts
 *     (ctr32 then GHASH of the ciphertext, or GHASH then ctr32 when
 *     decrypting): block counts around the 8-block batches (whole batches
 *     for a p8 AES key, nothing at all for any other key, which must leave
 *     everything untouched), encrypt and decrypt, misaligned and in place,
 *     inc32 wrapping at every block of the first six batches while the 96
 *     fixed bits stay all ones; and the public streaming API with the
 *     counter set to wrap inside the stitched bulk, after a first piece that
 *     leaves a partial block, against a context bound to the portable
 *     implementations.
 *  6. bounds: every AES operation, GHASH blocks() and the loop with their
 *     input ending at a PROT_NONE page and their output ending at another,
 *     so a load or store past in + len or out + len faults (QEMU honours the
 *     protection).
 * Elsewhere than ppc64 it only checks that no "p8" AES or GHASH is listed.
 */
#if defined(__powerpc64__)
#define ARCH_AES_BACKENDS
#endif
#include "arch_aes_common.h"

#if defined(__powerpc64__)

static const arch_aes BACKENDS = {"p8", "p8", "p8", 1};

/* ---- 1. dispatch --------------------------------------------------------- */

/* Returns 1 when prim's p8 is usable on this CPU (after INCORE_CPU). */
static int dispatch(const char *prim)
{
    const uint64_t need = IC_F(IC_CPU_PPC_VCRYPTO) | IC_F(IC_CPU_PPC_ARCH207) | IC_F(IC_CPU_PPC_VSX);
    long i = impl_index(prim, "p8");
    uint64_t feats = ic_cpu_features();
    int hw = (feats & need) == need;
    const char *want = hw ? "p8" : portable(prim);

    if (!CHECK(i >= 0, "%s/p8 listed on ppc64", prim))
        return 0;
    CHECK(ic_impl_available(prim, (size_t)i) == hw, "%s/p8 available (%d) exactly when vcrypto+arch2.07+vsx (%d)",
          prim, ic_impl_available(prim, (size_t)i), hw);
    CHECK(strcmp(ic_impl_selected(prim), want) == 0, "%s picks %s, expected %s", prim, ic_impl_selected(prim), want);
    printf("%s/p8 %s on this CPU; selected: %s/%s\n", prim, hw ? "available" : "NOT available", prim,
           ic_impl_selected(prim));

    /* vcrypto masked away at run time: the portable code takes over, and
     * forcing p8 is refused; the old mask comes back after. */
    CHECK(ic_cpu_set_mask(feats & ~IC_F(IC_CPU_PPC_VCRYPTO)) == IC_OK, "mask vcrypto");
    CHECK(strcmp(ic_impl_selected(prim), portable(prim)) == 0, "without vcrypto %s picks %s, expected %s", prim,
          ic_impl_selected(prim), portable(prim));
    CHECK(ic_impl_select(prim, "p8") != IC_OK, "%s/p8 cannot be forced without vcrypto", prim);
    CHECK(ic_cpu_set_mask(feats) == IC_OK, "restore the mask");
    CHECK(ic_impl_select(prim, NULL) == IC_OK, "%s: back to automatic selection", prim);
    CHECK(strcmp(ic_impl_selected(prim), want) == 0, "%s selection back to %s", prim, ic_impl_selected(prim));
    return hw;
}

/* ---- 2. key layout ------------------------------------------------------- */

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
    CHECK(ic_impl_select("aes", "p8") == IC_OK && ic_aes_key_init(&k, key, kl) == IC_OK, "%s: p8 key", what);
    CHECK(k.rounds == nr, "%s: %u rounds", what, k.rounds);
    CHECK_MEM(k.storage, img, 16 * (nr + 1), "%s: p8 round keys stored as register images", what);
    ic_aes_key_wipe(&k);
}

int main(void)
{
    int aes = dispatch("aes"), ghash = dispatch("ghash");
    CHECK(aes == ghash, "aes/p8 and ghash/p8 need the same features");
    if (aes) {
        layout(check_layout);
        counters(&BACKENDS);
        aes_bounds(&BACKENDS);
        tl_exercised("aes", "p8");
    }
    if (aes && ghash) {
        ghash_checks(&BACKENDS);
        stitched_checks(&BACKENDS);
        tl_exercised("ghash", "p8");
    }
    return tl_finish();
}

#else /* not ppc64 */

int main(void) { return none_listed("p8", "p8", "POWER8", "ppc64"); }

#endif
