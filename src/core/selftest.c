/*
 * selftest.c - ic_selftest(): run a primitive's known-answer test (each
 * family's ic_kat_<prim>) with whatever implementation is selected now.
 */
#include "core/internal.h"

static int (*const kats[IC_PRIM_COUNT])(void) = {
    [IC_PRIM_AES] = ic_kat_aes,           [IC_PRIM_GHASH] = ic_kat_ghash,
    [IC_PRIM_SHA1] = ic_kat_sha1,         [IC_PRIM_SHA256] = ic_kat_sha256,
    [IC_PRIM_SHA512] = ic_kat_sha512,     [IC_PRIM_CHACHA20] = ic_kat_chacha20,
    [IC_PRIM_POLY1305] = ic_kat_poly1305, [IC_PRIM_CRC32] = ic_kat_crc32,
    [IC_PRIM_CRC32C] = ic_kat_crc32c,     [IC_PRIM_HWRAND] = ic_kat_hwrand,
    [IC_PRIM_MONTMUL] = ic_kat_montmul,
};

size_t ic_kat_unhex(uint8_t *out, const char *hex)
{
    size_t n = 0;
    for (; hex[0] && hex[1]; hex += 2) {
        unsigned v = 0;
        for (int i = 0; i < 2; i++) {
            unsigned ch = (unsigned char)hex[i];
            v = v << 4 | (ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
        }
        out[n++] = (uint8_t)v;
    }
    return n;
}

int ic_selftest(const char *prim)
{
    for (size_t p = 0; ic_prim_name(p); p++)
        if (prim && strcmp(ic_prim_name(p), prim) == 0)
            return kats[p]() == 0 ? IC_OK : IC_ERR_SELFTEST;
    return IC_ERR_UNKNOWN;
}
