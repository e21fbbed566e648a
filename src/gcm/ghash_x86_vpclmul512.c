/*
 * ghash_x86_vpclmul512.c - GHASH (SP 800-38D section 6.4) with VPCLMULQDQ
 * on 512-bit registers, four blocks per register.  Registry "ghash", entry
 * "vpclmul512", needs VPCLMULQDQ, AVX-512F/BW (and AVX2, AVX, PCLMUL,
 * SSSE3 for the shared 128- and 256-bit code).  Built with -mpclmul -mssse3
 * -mavx2 -mvpclmulqdq -mavx512f -mavx512vl -mavx512bw.
 *
 * The method is that of ghash_x86_vpclmul.c (ghash_x86.h: reflected blocks,
 * "H << 1", Karatsuba, one Montgomery reduction per 16-block batch), with
 * a batch on four ZMM registers: a 512-bit load of pow[4j] gives H^(16-4j)
 * .. H^(13-4j) for blocks 4j .. 4j+3, so one VPCLMULQDQ does four products.
 * The key is the "vpclmul" one (pow[0..15] = H^16 .. H^1 and their
 * Karatsuba halves, 512 bytes, ic_ghash_key's whole storage), so every x86
 * stitched loop can run on it.
 *
 * The stitched AES-GCM that goes with it is gcm_x86_vaes512.c, reached
 * through gcm_crypt.  Constant time: carry-less multiplies, no secret
 * branch or index.
 */
#include "gcm/ghash_x86.h"

#if defined(__x86_64__)

#define VP512_BATCH 16

static void ghash_vpclmul512_init(ic_ghash_key *hk, const uint8_t h[16])
{
    gh_key_init(hk, h, VP512_BATCH);
}

/* From VP512_LONG blocks (2 KiB), H^32 .. H^17 are made for the call (20
 * VPCLMULQDQ, gh512_hi_powers) and the message goes 32 blocks a batch with
 * one reduction each: 16-block batches are bound by the chain from one
 * batch's y to the next (a fold and a reduction every 16 blocks), 32-block
 * ones by the multiplier (Zen 5, 16 KiB: 0.125 -> 0.069 TSC c/B; at 1 KiB
 * the powers cost more than they save: 0.096 -> 0.113). */
#define VP512_LONG 128

/* The whole 32-block batches of a long message; returns how many blocks
 * it did.  Not inlined: its 512 bytes of powers would otherwise give every
 * call, the one-block ones of GCM's length block too, a 64-byte aligned
 * stack frame to set up. */
static __attribute__((noinline)) size_t vp512_long(const ghash_x86_key *k, uint8_t y[16], const uint8_t *in,
                                                   size_t nblocks)
{
    __m128i hi[2][16], acc;
    size_t done = 0;
    gh512_hi_powers(hi[0], hi[1], k);
    acc = gh_load(y);
    for (; nblocks - done >= 32; done += 32)
        acc = gh512_batch32(k, hi[0], hi[1], acc, in + 16 * done);
    gh_store(y, acc);
    ic_wipe(hi, sizeof hi);
    return done;
}

static void ghash_vpclmul512_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks >= VP512_LONG) {
        size_t done = vp512_long(ghash_x86_key_of(hk), y, in, nblocks);
        in += 16 * done;
        nblocks -= done;   /* the rest, 0 .. 31 blocks */
    }
    gh_blocks(hk, y, in, nblocks, VP512_BATCH, gh512_batch);
}

const ic_ghash_ops ic_ghash_vpclmul512_ops = {
    .init = ghash_vpclmul512_init,
    .blocks = ghash_vpclmul512_blocks,
    .gcm_crypt = ic_gcm_x86_vaes512_crypt,
};

#endif /* __x86_64__ */
