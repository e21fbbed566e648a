/*
 * bn_kat.c - known-answer self-test of the "montmul" primitive
 * (ic_kat_montmul), through the public modexp API with whichever
 * implementation is selected (ic_selftest, `incore selftest`).
 *
 * Answers computed with Python's built-in pow(b, e, n), an implementation
 * independent of this one: a 512-bit odd modulus with a 512-bit exponent
 * (ic_mont_modexp, every window and the table) and a 1024-bit one with
 * e = 65537 (ic_mont_modexp_public).
 */
#include "bn/bn_impl.h"

typedef struct { const char *n, *b, *e, *r; } bn_kat;

static const bn_kat kats[] = {
    { "b8f12d92a28f17d83ce44e27424458b6b6043106a85f68b6daa8b2a668d605d4"
      "017f9ee6725ed09d3a0562d56abd685a48f165d57b00c7f4781ef86f5c8cc1ab",
      "269422ecf4c9da653868e6d9ca0bc36c05adb3fc4f6341279a23bef7be506564"
      "f3a160712456de76aaadd6b855c6b62bd09e04924d52bc614bedce030297c5e5",
      "fc45228f4bd571b0b41b5669a0729b23994395a774f0147f76f87a640701ad82"
      "a1865506aadbf8319b25f81fcec1496e2769e927e4bf156405372ef440e5c51e",
      "1805baf9ae77163dee512cc8c88517e7882c4ac1afd88a6f8c5bb807b58b7ba4"
      "851fbf34fce296639de179ed48e47c772cc233c2f056a368df5587fa155a86af" },
    { "cf126160278deda97d6933b93c1be0d05f81639e85fbc05801952061ca532551"
      "fffc3436d523583b156724d0f9507c87486580790b44045f9429523c4b037d52"
      "900977a9f2c943862c199bd3a49d1ce2844948a86c51ce927e89f91859082551"
      "1600314ac9aee9cf6b978d7d421bb1235c9dc8b64f4e68e5c85bd78d396e0d55",
      "00b524d9d8fbf7d457c805d33952a782cf767fcdb1c21401e13d9cef5bb5d53c"
      "ea17744acda71f78ff04cbb5811fb2f1a709799eb9f8d702c255eb3435850394"
      "b6687dd5094cdd4240c6d7a962c671f4360e035868e5d98c2b45ba5681347b74"
      "fcfab3045b382a0caf8c10d3cf3f741ef82175fc623151001bc34de28c1a",
      "010001",
      "3e81b0324c17a5262cbe4cde1b8b88e9d24ce6181119aca099b2df5264462f4e"
      "728e92df15608221652af47bde03990dfc91248340b8aacc499cc15291adbf16"
      "f0aacb0c67375bf70817ea2a85830aef7c04b4c05ca3b4c44647bd442b01769f"
      "b3ab98e378c3ee1f39a185b303b9b8fe47ba5a16e6908ecb3e592e682e8510b2" },
};

int ic_kat_montmul(void)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++) {
        uint8_t n[128], b[128], e[128], r[128], got[128];
        size_t nl = ic_kat_unhex(n, kats[i].n), bl = ic_kat_unhex(b, kats[i].b);
        size_t el = ic_kat_unhex(e, kats[i].e), rl = ic_kat_unhex(r, kats[i].r);
        ic_mont_ctx ctx;
        if (ic_mont_init(&ctx, n, nl) != IC_OK) {
            bad++;
            continue;
        }
        int st = ic_mont_modexp(&ctx, got, rl, b, bl, e, el);
        bad += st != IC_OK || memcmp(got, r, rl) != 0;
        st = ic_mont_modexp_public(&ctx, got, rl, b, bl, e, el);
        bad += st != IC_OK || memcmp(got, r, rl) != 0;
        ic_mont_wipe(&ctx);
    }
    return bad;
}
