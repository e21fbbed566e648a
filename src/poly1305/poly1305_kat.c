/*
 * poly1305_kat.c - known-answer self-test of Poly1305 (ic_kat_poly1305),
 * run through the public API with whichever "poly1305" implementation is
 * selected (ic_selftest, `incore selftest`).
 *
 * Answers from RFC 8439: the example of section 2.5.2 (one-shot, verify,
 * and streamed in pieces of 1, 15 and 18 bytes so the partial-block
 * buffer is crossed), and the reduction edge cases of appendix A.3: #5
 * (a partially reduced result that is not fully reduced), #6 (h + s wraps
 * 2^128) and #8 (h is exactly 2^130 - 5).  All eleven are in
 * tests/vectors/poly1305_kat.txt.
 */
#include "poly1305/poly1305_impl.h"

/* Section 2.5.2. */
static const char kat_msg252[] = "Cryptographic Forum Research Group";   /* 34 bytes */
static const uint8_t kat_key252[32] = {
    0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe,
    0x42, 0xd5, 0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd,
    0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b,
};
static const uint8_t kat_tag252[16] = {
    0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6, 0xc2, 0x2b, 0x8b, 0xaf,
    0x0c, 0x01, 0x27, 0xa9,
};

/* Appendix A.3 #5, #6, #8: keys and messages are short patterns. */
typedef struct {
    uint8_t key[32];
    uint8_t msg[48];
    size_t msglen;
    uint8_t tag[16];
} poly_edge;

static void kat_edges(poly_edge e[3])
{
    memset(e, 0, 3 * sizeof *e);
    /* #5: r = 2, s = 0, m = ff x16 -> 03 00.. */
    e[0].key[0] = 2;
    memset(e[0].msg, 0xff, 16);
    e[0].msglen = 16;
    e[0].tag[0] = 3;
    /* #6: r = 2, s = ff x16, m = 02 00.. -> 03 00.. */
    e[1].key[0] = 2;
    memset(e[1].key + 16, 0xff, 16);
    e[1].msg[0] = 2;
    e[1].msglen = 16;
    e[1].tag[0] = 3;
    /* #8: r = 1, s = 0, m = ff x16 || fb fe x15 || 01 x16 -> 00.. */
    e[2].key[0] = 1;
    memset(e[2].msg, 0xff, 16);
    e[2].msg[16] = 0xfb;
    memset(e[2].msg + 17, 0xfe, 15);
    memset(e[2].msg + 32, 0x01, 16);
    e[2].msglen = 48;
}

int ic_kat_poly1305(void)
{
    const uint8_t *msg252 = (const uint8_t *)kat_msg252;
    const size_t len252 = sizeof kat_msg252 - 1;
    uint8_t tag[16];
    ic_poly1305_ctx ctx;
    poly_edge edges[3];
    int fail = 0;

    fail += ic_poly1305(tag, msg252, len252, kat_key252) != IC_OK || memcmp(tag, kat_tag252, 16) != 0;
    fail += ic_poly1305_verify(kat_tag252, msg252, len252, kat_key252) != IC_OK;
    memcpy(tag, kat_tag252, 16);
    tag[0] ^= 0x80;
    fail += ic_poly1305_verify(tag, msg252, len252, kat_key252) != IC_ERR_AUTH;

    fail += ic_poly1305_init(&ctx, kat_key252) != IC_OK ||
            ic_poly1305_update(&ctx, msg252, 1) != IC_OK ||
            ic_poly1305_update(&ctx, msg252 + 1, 15) != IC_OK ||
            ic_poly1305_update(&ctx, msg252 + 16, len252 - 16) != IC_OK ||
            ic_poly1305_final(&ctx, tag) != IC_OK || memcmp(tag, kat_tag252, 16) != 0;
    fail += ic_poly1305_init(&ctx, kat_key252) != IC_OK || ic_poly1305_update(&ctx, msg252, len252) != IC_OK ||
            ic_poly1305_final_verify(&ctx, kat_tag252) != IC_OK;

    kat_edges(edges);
    for (int i = 0; i < 3; i++)
        fail += ic_poly1305(tag, edges[i].msg, edges[i].msglen, edges[i].key) != IC_OK ||
                memcmp(tag, edges[i].tag, 16) != 0;
    return fail;
}
