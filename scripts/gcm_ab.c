/*
 * gcm_ab.c - AES-GCM cost per message with a 12-byte IV, in TSC ticks, as
 * the minimum over 200 trials of 2000 messages: a figure that two builds
 * of the library can be compared on when the machine is not quiet enough
 * for the medians of `incore speed` to show a few percent.  Build it once
 * per library:
 *
 *   cc -O2 -Iinclude scripts/gcm_ab.c build/libincore.a -lpthread -o gcm_ab
 *   ./gcm_ab SIZE MODE KEYLEN     MODE 0: ic_aes_gcm_seal, 1: init/encrypt/final
 *
 * and run the two binaries alternately.  x86-64 only (RDTSC).
 */
#include <incore/incore.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

int main(int argc, char **argv)
{
    static uint8_t in[65536], out[65536];
    uint8_t key[32] = {1}, iv[12] = {2}, tag[16];
    ic_aes_gcm_key k;
    ic_aes_gcm_ctx c;
    double best = 1e30;

    if (argc < 4) {
        fprintf(stderr, "usage: gcm_ab SIZE MODE KEYLEN\n");
        return 2;
    }
    size_t len = strtoul(argv[1], 0, 0), kl = strtoul(argv[3], 0, 0);
    int mode = atoi(argv[2]);
    if (len > sizeof in || ic_aes_gcm_key_init(&k, key, kl) != IC_OK)
        return 2;
    for (int t = 0; t < 200; t++) {
        unsigned long long t0 = __rdtsc();
        for (int i = 0; i < 2000; i++) {
            iv[0] = (uint8_t)i;
            if (mode == 0 ? ic_aes_gcm_seal(out, tag, 16, in, len, NULL, 0, iv, 12, key, kl) != IC_OK
                          : ic_aes_gcm_init(&c, &k, iv, 12) || ic_aes_gcm_encrypt(&c, out, in, len) ||
                                ic_aes_gcm_final(&c, tag, 16))
                return 1;
        }
        double d = (double)(__rdtsc() - t0) / 2000;
        if (d < best)
            best = d;
    }
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&k);
    printf("%.1f\n", best);
    return 0;
}
