/*
 * api_std.c - a user program of <incore/incore.h>, built by the api_std
 * test once per language standard: as C99 and C11, and (the same file,
 * copied to a .cpp by CMake) as C++11, 14, 17 and 20, each time with
 * -Wall -Wextra -Werror -pedantic, linked against libincore.a and run.
 * The headers must compile cleanly in every one of them, and the calls
 * must give the known answers.
 *
 * So this file is written in the common subset of C99 and C++11: casts from
 * string literals, no designated initialisers or compound literals, every
 * status checked (some calls are marked warn_unused_result / nodiscard).
 * IC_EXPECT_STD is the __STDC_VERSION__ or __cplusplus value the build asked
 * for, so a build that silently used another standard fails here.
 */
#include <incore/incore.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
#define STD_SEEN __cplusplus
#define LANG "C++"
#else
#define STD_SEEN __STDC_VERSION__
#define LANG "C"
#endif
#if !defined(IC_EXPECT_STD) || STD_SEEN != IC_EXPECT_STD
#error "api_std.c was not compiled as the language standard the test asked for"
#endif

static int failures;

static void check(int cond, const char *what)
{
    if (!cond) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

static int unhex(uint8_t *out, const char *hex)
{
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return 0;
        out[i] = (uint8_t)v;
    }
    return (int)n;
}

int main(void)
{
    uint8_t want[64];

    check(ic_version() != NULL && strcmp(ic_version(), IC_VERSION_STRING) == 0, "ic_version");
    check(ic_status_str(IC_ERR_AUTH) != NULL, "ic_status_str");

    /* SHA-256, one-shot and streaming (FIPS 180-4 example "abc") */
    uint8_t d[IC_SHA256_DIGEST_SIZE], d2[IC_SHA256_DIGEST_SIZE];
    unhex(want, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check(ic_sha256(d, (const uint8_t *)"abc", 3) == IC_OK && memcmp(d, want, sizeof d) == 0,
          "ic_sha256(\"abc\")");
    ic_sha256_ctx h;
    int st = ic_sha256_init(&h);
    if (st == IC_OK)
        st = ic_sha256_update(&h, (const uint8_t *)"a", 1);
    if (st == IC_OK)
        st = ic_sha256_update(&h, (const uint8_t *)"bc", 2);
    if (st == IC_OK)
        st = ic_sha256_final(&h, d2);
    check(st == IC_OK && memcmp(d2, want, sizeof d2) == 0, "ic_sha256 streaming");

    /* AES-128-GCM, test case 2 of the GCM specification: seal, open, and a
     * tampered tag refused with the output zeroed */
    uint8_t key[16], iv[12], pt[16], ct[16], back[16], tag[16];
    memset(key, 0, sizeof key);
    memset(iv, 0, sizeof iv);
    memset(pt, 0, sizeof pt);
    st = ic_aes_gcm_seal(ct, tag, sizeof tag, pt, sizeof pt, NULL, 0, iv, sizeof iv, key, sizeof key);
    unhex(want, "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf");
    check(st == IC_OK && memcmp(ct, want, 16) == 0 && memcmp(tag, want + 16, 16) == 0,
          "ic_aes_gcm_seal (GCM test case 2)");
    st = ic_aes_gcm_open(back, tag, sizeof tag, ct, sizeof ct, NULL, 0, iv, sizeof iv, key, sizeof key);
    check(st == IC_OK && memcmp(back, pt, sizeof pt) == 0, "ic_aes_gcm_open");
    tag[0] ^= 1;
    memset(back, 0xa5, sizeof back);
    st = ic_aes_gcm_open(back, tag, sizeof tag, ct, sizeof ct, NULL, 0, iv, sizeof iv, key, sizeof key);
    check(st == IC_ERR_AUTH && back[0] == 0 && back[15] == 0, "ic_aes_gcm_open, bad tag");

    /* the same through a key object and a streaming context the caller
     * keeps on its stack */
    ic_aes_gcm_key gk;
    ic_aes_gcm_ctx g;
    uint8_t tag2[16];
    st = ic_aes_gcm_key_init(&gk, key, sizeof key);
    if (st == IC_OK)
        st = ic_aes_gcm_init(&g, &gk, iv, sizeof iv);
    if (st == IC_OK)
        st = ic_aes_gcm_encrypt(&g, back, pt, sizeof pt);
    if (st == IC_OK)
        st = ic_aes_gcm_final(&g, tag2, sizeof tag2);
    ic_aes_gcm_wipe(&g);
    ic_aes_gcm_key_wipe(&gk);
    check(st == IC_OK && memcmp(back, want, 16) == 0 && memcmp(tag2, want + 16, 16) == 0,
          "ic_aes_gcm_* streaming");

    /* ChaCha20-Poly1305 round trip, and a changed ciphertext refused */
    uint8_t ckey[IC_CHACHA20_POLY1305_KEY_SIZE], nonce[IC_CHACHA20_POLY1305_NONCE_SIZE];
    uint8_t msg[20], cct[20], cback[20], ctag[IC_CHACHA20_POLY1305_TAG_SIZE];
    const uint8_t aad[4] = {1, 2, 3, 4};
    for (size_t i = 0; i < sizeof ckey; i++)
        ckey[i] = (uint8_t)i;
    memset(nonce, 7, sizeof nonce);
    memcpy(msg, "attack at dawn, 0600", sizeof msg);
    st = ic_chacha20_poly1305_seal(cct, ctag, msg, sizeof msg, aad, sizeof aad, nonce, ckey);
    check(st == IC_OK && memcmp(cct, msg, sizeof msg) != 0, "ic_chacha20_poly1305_seal");
    st = ic_chacha20_poly1305_open(cback, ctag, cct, sizeof cct, aad, sizeof aad, nonce, ckey);
    check(st == IC_OK && memcmp(cback, msg, sizeof msg) == 0, "ic_chacha20_poly1305_open");
    cct[3] ^= 0x80;
    st = ic_chacha20_poly1305_open(cback, ctag, cct, sizeof cct, aad, sizeof aad, nonce, ckey);
    check(st == IC_ERR_AUTH, "ic_chacha20_poly1305_open, changed ciphertext");

    check(ic_crc32(0, (const uint8_t *)"123456789", 9) == IC_CRC32_CHECK, "ic_crc32");
    check(ic_crc32c(0, (const uint8_t *)"123456789", 9) == IC_CRC32C_CHECK, "ic_crc32c");
    check(ic_impl_count("aes") > 0 && ic_impl_selected("aes") != NULL, "ic_impl_*");

    printf("%s %ld: %s\n", LANG, (long)STD_SEEN, failures ? "WRONG" : "ok");
    printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
    return failures ? 1 : 0;
}
