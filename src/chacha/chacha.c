/*
 * chacha.c - public ChaCha20 / HChaCha20 / XChaCha20 API and the driver
 * that turns any message length into runs of whole blocks for the selected
 * implementation (chacha_impl.h; the "chacha20" table is in chacha_impls.c).
 *
 * The drivers check arguments and the counter limit before any byte is
 * written, build the RFC 8439 section 2.3 state, hand the selected backend
 * every whole block in one call (so a SIMD backend sees long runs), and do
 * the partial last block through a 64-byte stack buffer.  XChaCha20's
 * 64-bit counter is split at each 2^32-block boundary: there the low word
 * wraps and the high word (state word 13) takes the carry, so backends only
 * ever see a 32-bit counter that does not wrap inside one call.
 */
#include "chacha/chacha_impl.h"

/* ---- driver ------------------------------------------------------------- */
void ic_chacha20_run(const ic_chacha20_ops *ops, uint32_t st[16], uint8_t *out, const uint8_t *in,
                     size_t len)
{
    size_t nblocks = len / 64, tail = len % 64;
    if (ops->crypt != NULL) {   /* whole blocks and the tail in one pass */
        if (len != 0)
            ops->crypt(st, NULL, out, in, len);
        st[12] += (uint32_t)(nblocks + (tail != 0));
        return;
    }
    if (nblocks != 0) {
        ops->xor_blocks(st, out, in, nblocks);
        st[12] += (uint32_t)nblocks;   /* mod 2^32: the caller checked it fits */
        out += nblocks * 64;
        in += nblocks * 64;
    }
    if (tail != 0) {   /* fixed-size moves (internal.h): no libc calls */
        uint8_t block[64];
        ic_copy_padded(block, sizeof block, in, tail);
        ops->xor_blocks(st, block, block, 1);
        ic_copy_small(out, block, tail);
        st[12]++;
        ic_wipe_blocks(block, 4);
    }
}

/* Checks shared by both stream calls: key, nonce and data pointers, and
 * in/out either identical or disjoint. */
static int chacha20_check(uint8_t *out, const uint8_t *in, size_t len, const uint8_t *key,
                          const uint8_t *nonce, int too_long)
{
    if (key == NULL || nonce == NULL)
        return IC_ERR_NULL;
    IC_NULL_CHECK(in, len);
    IC_NULL_CHECK(out, len);
    if (too_long)
        return IC_ERR_TOOLONG;
    if (ic_bad_overlap(out, in, len))
        return IC_ERR_OVERLAP;
    return IC_OK;
}

int ic_chacha20_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12], uint32_t counter,
                    const uint8_t key[32])
{
    int rc = chacha20_check(out, in, len, key, nonce, ic_chacha20_too_long(len, counter));
    if (rc != IC_OK)
        return rc;
    uint32_t st[16];
    ic_chacha20_setup(st, key, nonce, counter);
    ic_chacha20_run((const ic_chacha20_ops *)ic_ops_fast(IC_PRIM_CHACHA20), st, out, in, len);
    IC_WIPE_FIXED(st, sizeof st);
    return IC_OK;
}

int ic_hchacha20(uint8_t out[32], const uint8_t in[16], const uint8_t key[32])
{
    if (out == NULL || in == NULL || key == NULL)
        return IC_ERR_NULL;
    ic_chacha20_hchacha((const ic_chacha20_ops *)ic_ops(IC_PRIM_CHACHA20), out, key, in);
    return IC_OK;
}

/* XChaCha20 with libsodium's 64-bit counter: state words 12 (low) and 13
 * (high) of the subkey's state; words 14-15 are nonce[16..23].  The limit
 * is 2^64 blocks in all, i.e. (2^64 - counter) from the start; 0 - counter
 * is that count mod 2^64, and 0 stands for "all 2^64" when counter is 0. */
int ic_xchacha20_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[24], uint64_t counter,
                     const uint8_t key[32])
{
    uint64_t nblocks = (uint64_t)len / 64 + (len % 64 != 0);
    int rc = chacha20_check(out, in, len, key, nonce, counter != 0 && nblocks > 0 - counter);
    if (rc != IC_OK)
        return rc;

    const ic_chacha20_ops *ops = (const ic_chacha20_ops *)ic_ops(IC_PRIM_CHACHA20);
    uint8_t subkey[32], n12[12];
    uint32_t st[16];
    ic_xchacha20_derive(ops, subkey, n12, key, nonce, (uint32_t)(counter >> 32));
    ic_chacha20_setup(st, subkey, n12, (uint32_t)counter);
    while (len != 0) {
        /* blocks left before the low word wraps, as bytes (at most 2^38) */
        uint64_t room = ((UINT64_C(1) << 32) - st[12]) * 64;
        size_t take = (uint64_t)len < room ? len : (size_t)room;
        ic_chacha20_run(ops, st, out, in, take);
        if ((uint64_t)take == room)
            st[13]++;                  /* carry into the high counter word */
        out += take;
        in += take;
        len -= take;
    }
    ic_wipe(subkey, sizeof subkey);
    ic_wipe(st, sizeof st);
    return IC_OK;
}
