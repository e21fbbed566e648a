/*
 * model_diff.c - the PadLock model against incore's portable code (ct64
 * AES, port SHA) on random inputs, independently of the PadLock backends:
 * the instructions are issued directly (insn.h), with keys, control words
 * and schedules built here, for every mode, key size, key source (hardware
 * expansion or loaded schedule for 128-bit keys), block counts 1..40, and
 * XSHA1/XSHA256 on random lengths and offsets.  Run under
 * LD_PRELOAD=libincore_padlock_model.so (ctest does, also with every
 * instruction interrupted).
 */
#include "testlib.h"
#include "insn.h"

static _Alignas(16) uint8_t cw[128], key[256], ivm[16], in[48 * 16], out[48 * 16];

enum { ECB_E, ECB_D, CBC_E, CBC_D, CFB_E, CFB_D, OFB, CTR, NMODES };
static const char *const mode_names[NMODES] = {"ECB enc", "ECB dec", "CBC enc", "CBC dec",
                                              "CFB enc", "CFB dec", "OFB", "CTR"};

static void aes_case(void)
{
    size_t keylen = 16 + 8 * tl_rand_below(3), n = 1 + tl_rand_below(40);
    unsigned nk = (unsigned)keylen / 4, nr = nk + 6, mode = tl_rand_below(NMODES);
    int dec = mode == ECB_D || mode == CBC_D || mode == CFB_D;
    int hw = keylen == 16 && tl_rand_below(2);      /* hardware key expansion */
    uint8_t kb[32], iv0[16], ref[48 * 16], ivr[16];
    tl_rand_bytes(kb, keylen);
    tl_rand_bytes(iv0, 16);
    if (mode == CTR && iv0[14] == 0xff)
        iv0[14] = 0;            /* keep the 16-bit counter from wrapping (ic's carries) */
    tl_rand_bytes(in, sizeof in);

    /* the decryption schedule only for ECB/CBC decryption (chapter 3) */
    if (hw)
        memcpy(key, kb, 16);
    else
        schedule(key, kb, nk, mode == ECB_D || mode == CBC_D);
    uint32_t w = nr | (uint32_t)(keylen - 16) / 8 << 10 | (hw ? 0 : 0x80u) | (dec ? 0x200u : 0);
    memset(cw, 0, sizeof cw);
    memcpy(cw, &w, 4);
    memcpy(ivm, iv0, 16);
    regs r;
    switch (mode) {
    case ECB_E: case ECB_D: r = xcrypt_0xc8(cw, key, NULL, in, out, n); break;
    case CBC_E: case CBC_D: r = xcrypt_0xd0(cw, key, ivm, in, out, n); break;
    case CFB_E: case CFB_D: r = xcrypt_0xe0(cw, key, ivm, in, out, n); break;
    case OFB: r = xcrypt_0xe8(cw, key, ivm, in, out, n); break;
    default: r = xcrypt_0xd8(cw, key, ivm, in, out, n); break;
    }

    ic_aes_key k;
    CHECK(ic_aes_key_init(&k, kb, keylen) == IC_OK, "init");
    memcpy(ivr, iv0, 16);
    size_t len = 16 * n;
    int st = -1;
    switch (mode) {
    case ECB_E: st = ic_aes_ecb_encrypt(&k, ref, in, len); break;
    case ECB_D: st = ic_aes_ecb_decrypt(&k, ref, in, len); break;
    case CBC_E: st = ic_aes_cbc_encrypt(&k, ref, in, len, ivr); break;
    case CBC_D: st = ic_aes_cbc_decrypt(&k, ref, in, len, ivr); break;
    case CFB_E: st = ic_aes_cfb128_encrypt(&k, ref, in, len, ivr); break;
    case CFB_D: st = ic_aes_cfb128_decrypt(&k, ref, in, len, ivr); break;
    case OFB: st = ic_aes_ofb_crypt(&k, ref, in, len, ivr); break;
    default: st = ic_aes_ctr_crypt(&k, ref, in, len, ivr); break;
    }
    ic_aes_key_wipe(&k);
    CHECK(st == IC_OK, "ct64 call");
    CHECK_MEM(out, ref, len, "AES-%zu %s, %zu blocks, %s keys", 8 * keylen, mode_names[mode], n,
              hw ? "hardware" : "loaded");
    CHECK(r.ecx == 0 && r.esi == in + len && r.edi == out + len, "registers after %s", mode_names[mode]);
    /* the chaining value where the guide says it is (3.1) */
    if (mode == CBC_E || mode == CFB_E)
        CHECK(memcmp(r.eax, ivr, 16) == 0 && memcmp(ivm, iv0, 16) == 0,
              "%s: EAX at the next IV, [IV] untouched", mode_names[mode]);
    else if (mode != ECB_E && mode != ECB_D)
        CHECK(r.eax == ivm && memcmp(ivm, ivr, 16) == 0, "%s: [EAX] is the next IV", mode_names[mode]);
}

static void sha_case(void)
{
    static const uint32_t iv1[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    static const uint32_t iv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    int is256 = (int)tl_rand_below(2);
    size_t len = tl_rand_below(600), off = tl_rand_below(16);
    uint8_t want[32], got[32];
    _Alignas(16) uint32_t h[32];
    tl_rand_bytes(in, sizeof in);
    memcpy(h, is256 ? iv256 : iv1, is256 ? 32 : 20);
    regs r = xsha(is256, in + off, len, h, 0);
    for (unsigned i = 0; i < (is256 ? 8u : 5u); i++)
        for (int b = 0; b < 4; b++)
            got[4 * i + b] = (uint8_t)(h[i] >> (24 - 8 * b));
    CHECK((is256 ? ic_sha256(want, in + off, len) : ic_sha1(want, in + off, len)) == IC_OK,
          "SHA%s of %zu bytes", is256 ? "256" : "1", len);
    CHECK_MEM(got, want, is256 ? 32 : 20, "XSHA%s of %zu bytes at +%zu", is256 ? "256" : "1", len, off);
    CHECK((size_t)(uintptr_t)r.eax == len && r.esi == in + off + len, "XSHA registers");
}

int main(void)
{
    make_sbox();
    CHECK(ic_impl_select("aes", "ct64") == IC_OK && ic_impl_select("sha1", "port") == IC_OK &&
              ic_impl_select("sha256", "port") == IC_OK, "portable implementations selected");
    for (int i = 0; i < 400; i++)
        aes_case();
    for (int i = 0; i < 200; i++)
        sha_case();
    return tl_finish();
}
