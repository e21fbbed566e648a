/*
 * ct_simd.c - constant-time check of the ChaCha20, Poly1305 and
 * ChaCha20-Poly1305 implementations under valgrind memcheck.
 *
 * The key, nonce and message bytes are marked undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED) before each call, so memcheck reports any
 * conditional jump or memory address that depends on them ("Conditional
 * jump or move depends on uninitialised value", "Use of uninitialised
 * value of size 8" for an index): the test passes when valgrind finds
 * nothing (ctest runs it with --error-exitcode).  Run outside valgrind the
 * client requests do nothing and it only exercises the calls.
 *
 * Every implementation this CPU offers is selected in turn; under valgrind
 * that is c and avx2 (valgrind runs AVX2 but not AVX-512, whose backends'
 * argument is in docs/backends.md).  Lengths straddle each backend's
 * switch points: 1-4 / 8 / 16 / 17 ChaCha20 blocks, the scalar/vector
 * crossover of Poly1305 (10, 11, 16 blocks), the zero-prefix of every
 * length mod 8, and the short-message path of the AEAD seal (448 bytes).
 * Decryption with verify and open are left out on purpose: their result
 * (tag right or wrong) is public, but memcheck cannot be told so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "incore/incore.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static const size_t lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 128, 129, 159, 160, 175, 176, 191, 255, 256, 257,
                               448, 449, 511, 512, 513, 1000, 1023, 1088, 1089, 1100, 4096 + 7 };
#define NLENS (sizeof lens / sizeof lens[0])
#define MAXLEN (4096 + 7)

static uint8_t key[32], nonce[24], msg[MAXLEN], out[MAXLEN + 16], tag[16];

static void fill(void)
{
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(7 * i + 1);
    for (size_t i = 0; i < sizeof nonce; i++) nonce[i] = (uint8_t)(3 * i + 5);
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 131 + 17);
    key[0] = 0xff; key[16] = 0xff;
    SECRET(key, sizeof key);
    SECRET(nonce, sizeof nonce);
    SECRET(msg, sizeof msg);
}

static int run_chacha(void)
{
    int bad = 0;
    uint8_t sub[32];
    for (size_t i = 0; i < NLENS; i++) {
        fill();
        bad |= ic_chacha20_xor(out, msg, lens[i], nonce, 1, key) != IC_OK;
        bad |= ic_xchacha20_xor(out, msg, lens[i], nonce, 0, key) != IC_OK;
        bad |= ic_chacha20_poly1305_seal(out, tag, msg, lens[i], msg, lens[i] % 37, nonce, key) != IC_OK;
        bad |= ic_xchacha20_poly1305_seal(out, tag, msg, lens[i], msg, 13, nonce, key) != IC_OK;
        /* streaming encryption from a key object, cut at a public point */
        ic_chacha20_poly1305_key k;
        ic_chacha20_poly1305_ctx c;
        bad |= ic_chacha20_poly1305_key_init(&k, key) != IC_OK;
        bad |= ic_chacha20_poly1305_init(&c, &k, nonce) != IC_OK;
        bad |= ic_chacha20_poly1305_encrypt(&c, out, msg, lens[i] / 3) != IC_OK;
        bad |= ic_chacha20_poly1305_encrypt(&c, out + lens[i] / 3, msg + lens[i] / 3, lens[i] - lens[i] / 3) != IC_OK;
        bad |= ic_chacha20_poly1305_final(&c, tag) != IC_OK;
        ic_chacha20_poly1305_key_wipe(&k);
    }
    fill();
    bad |= ic_hchacha20(sub, nonce, key) != IC_OK;
    return bad;
}

static int run_poly(void)
{
    int bad = 0;
    for (size_t i = 0; i < NLENS; i++) {
        fill();
        bad |= ic_poly1305(tag, msg, lens[i], key) != IC_OK;
        ic_poly1305_ctx p;
        bad |= ic_poly1305_init(&p, key) != IC_OK;
        bad |= ic_poly1305_update(&p, msg, lens[i] / 2 + 3 > lens[i] ? lens[i] : lens[i] / 2 + 3) != IC_OK;
        if (lens[i] / 2 + 3 < lens[i])
            bad |= ic_poly1305_update(&p, msg + lens[i] / 2 + 3, lens[i] - (lens[i] / 2 + 3)) != IC_OK;
        bad |= ic_poly1305_final(&p, tag) != IC_OK;
    }
    return bad;
}

static int each(const char *prim, int (*fn)(void))
{
    int bad = 0;
    for (size_t i = 0; i < ic_impl_count(prim); i++) {
        if (!ic_impl_available(prim, i))
            continue;
        const char *name = ic_impl_name(prim, i);
        if (ic_impl_select(prim, name) != IC_OK)
            return 1;
        int b = fn();
        printf("%s/%s: %s\n", prim, name, b ? "call failed" : "ran");
        bad |= b;
    }
    if (ic_impl_select(prim, NULL) != IC_OK)
        bad = 1;
    return bad;
}

int main(void)
{
    int bad = each("chacha20", run_chacha) | each("poly1305", run_poly);
    printf("%s (under valgrind: %s)\n", bad ? "FAILED" : "done", RUNNING_ON_VALGRIND ? "yes" : "no");
    return bad;
}
