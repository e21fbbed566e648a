/*
 * gcm_ab.c - AES-GCM cost per message with a 12-byte IV, in TSC ticks, as
 * the minimum over 300 trials of 1000 messages: a figure that two builds
 * of the library can be compared on when the machine is not quiet enough
 * for the medians of `incore speed` to show a few percent.  Build it once
 * per library:
 *
 *   cc -O2 -Iinclude -Ibuild/include scripts/gcm_ab.c build/libincore.a -lpthread -o gcm_ab
 *   ./gcm_ab SIZE MODE KEYLEN [AADLEN]
 *       MODE 0: ic_aes_gcm_seal (raw key), 1: init/aad/encrypt/final,
 *            2: ic_aes_gcm_key_seal in place, 3: ic_aes_gcm_key_open
 *       AADLEN: bytes of AAD (default 0; 13 is a TLS 1.2 record's)
 *
 * and run the two binaries alternately.  x86-64 only (RDTSC).
 */
#include <incore/incore.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

static int one(int mode, const ic_aes_gcm_key *k, ic_aes_gcm_ctx *c, uint8_t *buf, uint8_t *out,
               const uint8_t *ct, size_t len, const uint8_t *aad, size_t al, const uint8_t *iv,
               uint8_t *tag, const uint8_t *rtag, const uint8_t *key, size_t kl)
{
    switch (mode) {
    case 0: return ic_aes_gcm_seal(out, tag, 16, buf, len, aad, al, iv, 12, key, kl);
    case 1:
        return ic_aes_gcm_init(c, k, iv, 12) || ic_aes_gcm_aad(c, aad, al) || ic_aes_gcm_encrypt(c, out, buf, len)
               || ic_aes_gcm_final(c, tag, 16);
    case 2: return ic_aes_gcm_key_seal(k, buf, tag, 16, buf, len, aad, al, iv, 12);
    default: return ic_aes_gcm_key_open(k, out, rtag, 16, ct, len, aad, al, iv, 12);
    }
}

int main(int argc, char **argv)
{
    static uint8_t buf[65536], out[65536], ct[65536];
    uint8_t key[32] = {1}, iv[12] = {2}, aad[256] = {3}, tag[16], rtag[16];
    ic_aes_gcm_key k;
    ic_aes_gcm_ctx c;
    double best = 1e30;

    if (argc < 4) {
        fprintf(stderr, "usage: gcm_ab SIZE MODE KEYLEN [AADLEN]\n");
        return 2;
    }
    size_t len = strtoul(argv[1], 0, 0), kl = strtoul(argv[3], 0, 0), al = argc > 4 ? strtoul(argv[4], 0, 0) : 0;
    int mode = atoi(argv[2]);
    if (len > sizeof buf || al > sizeof aad || mode < 0 || mode > 3 || ic_aes_gcm_key_init(&k, key, kl) != IC_OK
        || ic_aes_gcm_key_seal(&k, ct, rtag, 16, buf, len, aad, al, iv, 12) != IC_OK)
        return 2;
    for (int t = 0; t < 300; t++) {
        unsigned long long t0 = __rdtsc();
        for (int i = 0; i < 1000; i++)
            if (one(mode, &k, &c, buf, out, ct, len, aad, al, iv, tag, rtag, key, kl) != IC_OK)
                return 1;
        double d = (double)(__rdtsc() - t0) / 1000;
        if (d < best)
            best = d;
    }
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&k);
    printf("%.1f\n", best);
    return 0;
}
