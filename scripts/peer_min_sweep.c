/*
 * peer_min_sweep.c - incore against OpenSSL 3 for Poly1305, ChaCha20 and
 * ChaCha20-Poly1305 seal, one size after another, as the MINIMUM over
 * REPS timings.  Not part of the build:
 *
 *   cc -O2 -Iinclude scripts/peer_min_sweep.c build/libincore.a -lcrypto -lpthread -o peer_min_sweep
 *   ./peer_min_sweep poly1305|chacha20|chacha20-poly1305 FROM TO STEP REPS > out.csv
 *
 * Output: size, incore and OpenSSL TSC ticks per byte, and the ratio
 * (OpenSSL / incore: above 1 means incore is faster).  The calls are those
 * of `incore speed --vs openssl` (tools/speed_peers.c): ic_poly1305 with
 * a key per message against EVP_MAC init/update/final; ic_chacha20_xor
 * from counter 1 against EVP_CipherInit_ex (IV = counter || nonce) and
 * EVP_CipherUpdate; ic_chacha20_poly1305_seal against EVP init, update,
 * final and the tag.  The two alternate, the one going first changing
 * every repetition, so a load change on a shared machine hits both; the
 * minimum is what stays repeatable there, where a median can move by
 * several times with the load of other jobs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include <openssl/evp.h>
#include "incore/incore.h"

enum { POLY, CHACHA, AEAD };
static uint8_t msg[1 << 16], key[32], tag[16], nonce[12];
static EVP_MAC_CTX *mac;
static EVP_CIPHER_CTX *stream, *aead;
static int ic_failed;   /* a status other than IC_OK from any incore call */

static void run_incore(int what, size_t len)
{
    if (what == POLY)
        ic_failed |= ic_poly1305(tag, msg, len, key) != IC_OK;
    else if (what == CHACHA)
        ic_failed |= ic_chacha20_xor(msg, msg, len, nonce, 1, key) != IC_OK;
    else
        ic_failed |= ic_chacha20_poly1305_seal(msg, tag, msg, len, NULL, 0, nonce, key) != IC_OK;
}

static void run_openssl(int what, size_t len)
{
    int n;
    size_t mn;
    uint8_t iv16[16] = { 1 };
    if (what == POLY) {
        EVP_MAC_init(mac, key, 32, NULL);
        EVP_MAC_update(mac, msg, len);
        EVP_MAC_final(mac, tag, &mn, sizeof tag);
    } else if (what == CHACHA) {
        memcpy(iv16 + 4, nonce, 12);
        EVP_CipherInit_ex(stream, NULL, NULL, NULL, iv16, -1);
        EVP_CipherUpdate(stream, msg, &n, msg, (int)len);
    } else {
        EVP_CipherInit_ex(aead, NULL, NULL, NULL, nonce, -1);
        EVP_CipherUpdate(aead, msg, &n, msg, (int)len);
        EVP_CipherFinal_ex(aead, msg + n, &n);
        EVP_CIPHER_CTX_ctrl(aead, EVP_CTRL_AEAD_GET_TAG, 16, tag);
    }
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: %s poly1305|chacha20|chacha20-poly1305 FROM TO STEP REPS\n", argv[0]);
        return 2;
    }
    int what = !strcmp(argv[1], "poly1305") ? POLY : !strcmp(argv[1], "chacha20") ? CHACHA : AEAD;
    size_t from = strtoul(argv[2], 0, 0), to = strtoul(argv[3], 0, 0), step = strtoul(argv[4], 0, 0);
    int reps = atoi(argv[5]);
    if (from == 0 || to > sizeof msg || step == 0 || reps < 1) {
        fprintf(stderr, "sizes 1..%zu, step and reps at least 1\n", sizeof msg);
        return 2;
    }
    memset(key, 0x5c, sizeof key);
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 29 + 7);
    EVP_MAC *m = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    mac = m ? EVP_MAC_CTX_new(m) : NULL;
    stream = EVP_CIPHER_CTX_new();
    aead = EVP_CIPHER_CTX_new();
    if (!mac || !stream || !aead || EVP_CipherInit_ex(stream, EVP_chacha20(), NULL, key, NULL, 1) != 1 ||
        EVP_CipherInit_ex(aead, EVP_chacha20_poly1305(), NULL, key, NULL, 1) != 1) {
        fprintf(stderr, "OpenSSL set-up failed\n");
        return 1;
    }
    printf("size,incore,openssl,ratio\n");
    for (size_t len = from; len <= to; len += step) {
        int calls = (int)(40000 / (len + 64)) + 1;      /* a few microseconds per timing */
        uint64_t best[2] = { UINT64_MAX, UINT64_MAX };
        for (int r = 0; r < reps; r++)
            for (int k = 0; k < 2; k++) {
                int who = (k + r) & 1;
                uint64_t t0 = __rdtsc();
                for (int c = 0; c < calls; c++) {
                    if (who == 0)
                        run_incore(what, len);
                    else
                        run_openssl(what, len);
                }
                uint64_t t = __rdtsc() - t0;
                if (t < best[who])
                    best[who] = t;
            }
        printf("%zu,%.4f,%.4f,%.3f\n", len, (double)best[0] / calls / (double)len,
               (double)best[1] / calls / (double)len, (double)best[1] / (double)best[0]);
        fflush(stdout);
    }
    if (ic_failed)
        fprintf(stderr, "an incore call failed: the figures are not valid\n");
    return ic_failed;
}
