/*
 * rand.c - the hardware random-number layer: ic_rand_hw() that fills a
 * buffer 64 bits at a time from the selected source, ic_kat_hwrand(), its
 * start-up health check, and the "none" entry of the "hwrand" table
 * (rand_impls.c), which needs nothing and makes every request fail with
 * IC_ERR_UNAVAILABLE, since there is no portable way to get hardware
 * randomness.
 */
#include "rand/rand_impl.h"
#include "rand/rand_source.h"
#include "incore/rand.h"

static const ic_hwrand_ops hwrand_none_ops = { NULL };
IC_BACKEND(hwrand, none, 0, &hwrand_none_ops);

/* Whole 64-bit draws go straight to out; the tail takes the first bytes of
 * one more draw, whose unused rest is wiped.  On any failure the whole
 * buffer is zeroed so a caller that ignores the status never uses bytes
 * that are half random and half stale.  Shared with the health-tested
 * sources (rand_source.c), which read any entry, not just the selected. */
int ic_hwrand_fill(const ic_hwrand_ops *ops, uint8_t *p, size_t len)
{
    uint64_t v = 0;
    size_t done = 0;
    while (done < len) {
        if (!ops->next64(&v)) {
            ic_wipe(p, len);
            ic_wipe(&v, sizeof v);
            return 0;
        }
        if (len - done >= 8) {
            ic_store64_le(p + done, v);
            done += 8;
        } else {
            uint8_t t[8];
            ic_store64_le(t, v);
            memcpy(p + done, t, len - done);
            ic_wipe(t, sizeof t);
            done = len;
        }
    }
    ic_wipe(&v, sizeof v);
    return 1;
}

int ic_rand_hw(uint8_t *out, size_t len)
{
    IC_NULL_CHECK(out, len);
    const ic_hwrand_ops *ops = (const ic_hwrand_ops *)ic_ops(IC_PRIM_HWRAND);
    if (ops->next64 == NULL) {
        if (len)
            memset(out, 0, len);
        return IC_ERR_UNAVAILABLE;
    }
    return ic_hwrand_fill(ops, out, len) ? IC_OK : IC_ERR_UNAVAILABLE;
}

const char *ic_rand_hw_source(void)
{
    return ic_impl_selected("hwrand");
}

/* 1 when all n bytes equal b. */
static int all_bytes(const uint8_t *p, size_t n, uint8_t b)
{
    size_t i = 0;
    while (i < n && p[i] == b)
        i++;
    return i == n;
}

/* Health check of the selected source (the registry's self-test slot): two
 * draws of 32 bytes succeed, neither is all zeros or all ones (the stuck
 * values of a dead or erroring source: DARN's error value is all ones, and
 * some AMD parts' RDRAND has been seen returning all ones after resume), and
 * they differ.  A working source fails this with probability about 2^-254.
 * The "none" source passes when it refuses as documented. */
int ic_kat_hwrand(void)
{
    uint8_t a[32], b[32];
    int fails = 0;
    const ic_hwrand_ops *ops = (const ic_hwrand_ops *)ic_ops(IC_PRIM_HWRAND);
    if (ops->next64 == NULL)
        return ic_rand_hw(a, sizeof a) == IC_ERR_UNAVAILABLE && all_bytes(a, sizeof a, 0) ? 0 : 1;
    fails += ic_rand_hw(a, sizeof a) != IC_OK;
    fails += ic_rand_hw(b, sizeof b) != IC_OK;
    fails += all_bytes(a, sizeof a, 0x00) || all_bytes(a, sizeof a, 0xff);
    fails += all_bytes(b, sizeof b, 0x00) || all_bytes(b, sizeof b, 0xff);
    fails += memcmp(a, b, sizeof a) == 0;
    ic_wipe(a, sizeof a);
    ic_wipe(b, sizeof b);
    return fails;
}
