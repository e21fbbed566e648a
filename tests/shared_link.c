/* shared_link.c - a program linked against libincore.so, not the static
 * library: proves the public API is exported (the library is built with
 * hidden visibility) by using a function of every family. */
#include <stdio.h>
#include <string.h>
#include "incore/incore.h"

int main(void)
{
    uint8_t d[32], key[32] = {0}, iv[12] = {0}, tag[16], ct[3], pt[3];
    int ok = ic_sha256(d, (const uint8_t *)"abc", 3) == IC_OK;
    static const uint8_t want[4] = {0xba, 0x78, 0x16, 0xbf}; /* FIPS 180-4 "abc" */
    ok &= memcmp(d, want, 4) == 0;
    ok &= ic_crc32(0, (const uint8_t *)"123456789", 9) == 0xCBF43926u;
    ok &= ic_aes_gcm_seal(ct, tag, 16, (const uint8_t *)"abc", 3, NULL, 0, iv, 12, key, 16) == IC_OK;
    ok &= ic_aes_gcm_open(pt, tag, 16, ct, 3, NULL, 0, iv, 12, key, 16) == IC_OK && memcmp(pt, "abc", 3) == 0;
    ok &= ic_chacha20_poly1305_seal(ct, tag, (const uint8_t *)"abc", 3, NULL, 0, iv, key) == IC_OK;
    ok &= ic_impl_count("aes") > 0 && ic_selftest("aes") == IC_OK;
    printf("shared library %s: %s\n", ic_version(), ok ? "ok" : "WRONG");
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
