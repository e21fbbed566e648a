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

static void ghash_vpclmul512_blocks(const ic_ghash_key *hk, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    gh_blocks(hk, y, in, nblocks, VP512_BATCH, gh512_batch);
}

const ic_ghash_ops ic_ghash_vpclmul512_ops = {
    .init = ghash_vpclmul512_init,
    .blocks = ghash_vpclmul512_blocks,
    .gcm_crypt = ic_gcm_x86_vaes512_crypt,
};

#endif /* __x86_64__ */
