/*
 * consumer.c - a program outside the incore tree, built by tests/install.sh
 * three ways (pkg-config, find_package, add_subdirectory).  It checks that
 * the headers it was compiled with and the library it runs with agree on the
 * version, and that a hash and an AEAD round trip give the known answers.
 */
#include <incore/incore.h>
#include <stdio.h>
#include <string.h>

#if !defined(IC_VERSION_NUMBER) || !defined(IC_VERSION_MAJOR) || !defined(IC_VERSION_MINOR) \
    || !defined(IC_VERSION_PATCH)
#error "incore/version.h macros missing"
#endif
#if IC_VERSION_NUMBER != IC_VERSION_MAJOR * 10000 + IC_VERSION_MINOR * 100 + IC_VERSION_PATCH
#error "IC_VERSION_NUMBER does not encode MAJOR.MINOR.PATCH"
#endif

static int fails;
static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        fails++;
    }
}

int main(void)
{
    /* FIPS 180-2 appendix B.1: SHA-256("abc") */
    static const uint8_t abc256[32] = {
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
        0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    uint8_t d[IC_SHA256_DIGEST_SIZE];
    check(ic_sha256(d, (const uint8_t *)"abc", 3) == IC_OK && memcmp(d, abc256, 32) == 0, "sha256(abc)");

    check(strcmp(ic_version(), IC_VERSION_STRING) == 0, "ic_version() == IC_VERSION_STRING");
    check(ic_version_number() == IC_VERSION_NUMBER, "ic_version_number() == IC_VERSION_NUMBER");

    uint8_t key[16] = {1}, iv[12] = {2}, tag[16], msg[40] = "a record", ct[40], pt[40];
    check(ic_aes_gcm_seal(ct, tag, 16, msg, sizeof msg, NULL, 0, iv, 12, key, 16) == IC_OK, "seal");
    check(ic_aes_gcm_open(pt, tag, 16, ct, sizeof ct, NULL, 0, iv, 12, key, 16) == IC_OK, "open");
    check(memcmp(pt, msg, sizeof msg) == 0, "round trip");
    tag[0] ^= 1;
    check(ic_aes_gcm_open(pt, tag, 16, ct, sizeof ct, NULL, 0, iv, 12, key, 16) == IC_ERR_AUTH,
          "bad tag refused");

    if (fails)
        return 1;
    printf("incore %s ok\n", ic_version());
    return 0;
}
