/*
 * poly1305_sweep.c - cycles/byte of every Poly1305 implementation against
 * message length: where the vector backends take over from the scalar
 * code, and complete against incomplete decimation when built with
 * -DIC_POLY1305_AVX2_MIN=1 (plot: scripts/plot_poly1305_sweep.py).  Not
 * part of the build:
 *
 *   cc -O2 -Iinclude scripts/poly1305_sweep.c build/libincore.a -lpthread -o poly1305_sweep
 *   ./poly1305_sweep [FROM TO STEP REPS] > sweep.csv
 *
 * One-shot ic_poly1305() with the same key every call (so the powers of r
 * are recomputed per message, as for an AEAD's one-time key).  For each
 * size, every implementation is timed REPS times in turn (interleaved,
 * so a load change on a shared machine hits all alike; the one that goes
 * first rotates, as the first after a switch pays for cold predictors)
 * and the MINIMUM
 * of the reps is kept: on a machine shared with other jobs the minimum
 * is the repeatable figure, a median is not.  TSC ticks per byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include "incore/incore.h"

int main(int argc, char **argv)
{
    size_t from = argc > 1 ? strtoul(argv[1], 0, 0) : 49, to = argc > 2 ? strtoul(argv[2], 0, 0) : 4000;
    size_t step = argc > 3 ? strtoul(argv[3], 0, 0) : 1;
    int reps = argc > 4 ? atoi(argv[4]) : 25;
    static uint8_t msg[1 << 16];
    uint8_t key[32], tag[16];
    int failed = 0;   /* a status other than IC_OK from ic_poly1305 */
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 29 + 7);
    memset(key, 0x5c, sizeof key);
    size_t n = ic_impl_count("poly1305");
    const char *names[16];
    size_t ni = 0;
    for (size_t i = 0; i < n && ni < 16; i++)
        if (ic_impl_available("poly1305", i))
            names[ni++] = ic_impl_name("poly1305", i);
    printf("size");
    for (size_t i = 0; i < ni; i++)
        printf(",%s", names[i]);
    printf("\n");
    for (size_t len = from; len <= to; len += step) {
        uint64_t best[16];
        int calls = (int)(20000 / (len + 64)) + 1;   /* ~ a few microseconds per timing */
        for (size_t i = 0; i < ni; i++)
            best[i] = UINT64_MAX;
        for (int r = 0; r < reps; r++)
            for (size_t ii = 0; ii < ni; ii++) {
                size_t i = (ii + (size_t)r) % ni;      /* rotate who goes first */
                if (ic_impl_select("poly1305", names[i]) != IC_OK) {
                    fprintf(stderr, "poly1305_sweep: cannot select %s\n", names[i]);
                    return 1;
                }
                uint64_t t0 = __rdtsc();
                for (int c = 0; c < calls; c++)
                    failed |= ic_poly1305(tag, msg, len, key) != IC_OK;
                uint64_t t = __rdtsc() - t0;
                if (t < best[i])
                    best[i] = t;
            }
        printf("%zu", len);
        for (size_t i = 0; i < ni; i++)
            printf(",%.4f", (double)best[i] / calls / (double)len);
        printf("\n");
        fflush(stdout);
    }
    if (ic_impl_select("poly1305", NULL) != IC_OK)
        failed = 1;
    if (failed)
        fprintf(stderr, "ic_poly1305 failed: the figures are not valid\n");
    return failed;
}
