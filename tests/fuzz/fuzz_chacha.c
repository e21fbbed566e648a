/*
 * fuzz_chacha.c - differential target for ChaCha20, XChaCha20, Poly1305,
 * ChaCha20-Poly1305 and XChaCha20-Poly1305 (incore/chacha.h, poly1305.h).
 *
 * The input picks key, nonce, a block counter (often just below 2^32 for
 * ChaCha20, where the limit bites, and just below a 2^32 multiple for
 * XChaCha20's 64-bit counter, where the driver carries into the high
 * word), AAD and message with their cut points, in place or misaligned,
 * and a bit to flip for a forgery.  The portable implementations (the
 * tables' last entries) in one call are the reference; for every
 * available pair of a "chacha20" and a "poly1305" implementation:
 *   - ic_chacha20_xor and ic_xchacha20_xor in pieces (whole blocks but the
 *     last, the counter advanced by len / 64 as the header says) equal the
 *     one-call stream, and IC_ERR_TOOLONG comes exactly when the message
 *     would pass the counter's end;
 *   - Poly1305 streamed in pieces equals the one-shot, and verify and
 *     final_verify agree;
 *   - both AEADs, one-shot and streamed in pieces from a key object,
 *     equal the reference, open and final_verify accept the genuine
 *     message and refuse a flipped bit (open then leaves out zeroed);
 *   - nothing is written outside the output.
 */
#include "fuzz_common.h"

typedef struct {
    uint8_t key[32], nonce[24], otk[32];
    uint64_t counter;
    const uint8_t *aad, *pt;
    size_t aadlen, len;
    fz_splits acut, dcut, bcut;
    unsigned off;
    int inplace, x;
    uint32_t flip;
} cc_case;

/* ChaCha20 (x = 0) or XChaCha20 (x = 1) of the message in the pieces of
 * bcut (64-byte aligned), the counter advanced after each; returns the
 * first failing status or IC_OK. */
static int stream_xor(const cc_case *g, const fz_splits *cut, uint8_t *res)
{
    uint8_t *base, *inbase = NULL, *out = fz_alloc_at(g->len, g->off, &base);
    const uint8_t *in;
    int rc = IC_OK;
    if (g->inplace) {
        memcpy(out, g->pt, g->len);
        in = out;
    } else {
        uint8_t *cp = fz_alloc_at(g->len, g->off >> 6, &inbase);
        memcpy(cp, g->pt, g->len);
        in = cp;
    }
    for (size_t i = 0; i <= cut->n && rc == IC_OK; i++) {
        size_t o = FZ_PIECE_OFF(cut, i), n = FZ_PIECE_LEN(cut, i);
        uint64_t ctr = g->counter + o / 64;
        rc = g->x ? ic_xchacha20_xor(out + o, in + o, n, g->nonce, ctr, g->key)
                  : ic_chacha20_xor(out + o, in + o, n, g->nonce, (uint32_t)ctr, g->key);
    }
    if (rc != IC_OK && cut->n == 0) {
        /* refused: nothing written, in place or not */
        for (size_t i = 0; i < g->len; i++)
            FZ_CHECK(out[i] == (g->inplace ? g->pt[i] : FZ_CANARY),
                     "a refused chacha20 call (%d) wrote byte %zu of its output", rc, i);
    }
    fz_check_canary(base, g->off, g->len, "chacha20 output");
    memcpy(res, out, g->len);
    free(base);
    free(inbase);
    return rc;
}

static int aead_seal(const cc_case *g, uint8_t *out, uint8_t tag[16])
{
    return g->x ? ic_xchacha20_poly1305_seal(out, tag, g->pt, g->len, g->aad, g->aadlen, g->nonce, g->key)
                : ic_chacha20_poly1305_seal(out, tag, g->pt, g->len, g->aad, g->aadlen, g->nonce, g->key);
}

static int aead_open(const cc_case *g, const uint8_t *aad, const uint8_t *ct, const uint8_t *tag,
                     uint8_t *out)
{
    return g->x ? ic_xchacha20_poly1305_open(out, tag, ct, g->len, aad, g->aadlen, g->nonce, g->key)
                : ic_chacha20_poly1305_open(out, tag, ct, g->len, aad, g->aadlen, g->nonce, g->key);
}

/* Streamed AEAD from a key object: encrypt (dec = 0, in = plaintext,
 * final into tag) or decrypt (dec = 1, in = ciphertext, final_verify tag;
 * its status returned). */
static int aead_stream(const cc_case *g, int dec, const uint8_t *aad, const uint8_t *in,
                       uint8_t *res, uint8_t tag[16])
{
    ic_chacha20_poly1305_key k;
    ic_chacha20_poly1305_ctx c;
    uint8_t *base, *inbase = NULL;
    int rc = ic_chacha20_poly1305_key_init(&k, g->key);
    FZ_CHECK(rc == IC_OK, "aead key init: %d", rc);
    rc = g->x ? ic_xchacha20_poly1305_init(&c, &k, g->nonce) : ic_chacha20_poly1305_init(&c, &k, g->nonce);
    FZ_CHECK(rc == IC_OK, "aead init: %d", rc);
    for (size_t i = 0; i <= g->acut.n; i++) {
        rc = ic_chacha20_poly1305_aad(&c, aad + FZ_PIECE_OFF(&g->acut, i), FZ_PIECE_LEN(&g->acut, i));
        FZ_CHECK(rc == IC_OK, "aead aad piece %zu: %d", i, rc);
    }
    uint8_t *out = fz_alloc_at(g->len, g->off >> 3, &base);
    const uint8_t *src;
    if (g->inplace) {
        memcpy(out, in, g->len);
        src = out;
    } else {
        uint8_t *cp = fz_alloc_at(g->len, g->off >> 9, &inbase);
        memcpy(cp, in, g->len);
        src = cp;
    }
    for (size_t i = 0; i <= g->dcut.n; i++) {
        size_t o = FZ_PIECE_OFF(&g->dcut, i), n = FZ_PIECE_LEN(&g->dcut, i);
        rc = dec ? ic_chacha20_poly1305_decrypt(&c, out + o, src + o, n)
                 : ic_chacha20_poly1305_encrypt(&c, out + o, src + o, n);
        FZ_CHECK(rc == IC_OK, "aead %s piece %zu: %d", dec ? "decrypt" : "encrypt", i, rc);
    }
    rc = dec ? ic_chacha20_poly1305_final_verify(&c, tag) : ic_chacha20_poly1305_final(&c, tag);
    fz_check_canary(base, g->off >> 3, g->len, "aead stream output");
    memcpy(res, out, g->len);
    free(base);
    free(inbase);
    ic_chacha20_poly1305_wipe(&c);
    ic_chacha20_poly1305_key_wipe(&k);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    cc_case g;
    uint8_t sel = fz_u8(&in);
    g.x = sel & 1;
    g.inplace = (sel >> 1) & 1;
    fz_take(&in, g.key, 32);
    fz_take(&in, g.nonce, 24);
    fz_take(&in, g.otk, 32);
    /* the counter: anywhere, or within 300 blocks of the end of a 32-bit run */
    uint64_t craw = fz_u64(&in);
    if (sel & 4)
        craw = (craw & ~UINT64_C(0xffffffff)) | (0xffffffffu - (uint32_t)(craw % 300));
    g.counter = g.x ? craw : (uint32_t)craw;
    g.off = fz_u16(&in);
    uint32_t aadsel = fz_u16(&in);
    g.flip = fz_u16(&in);
    uint8_t cutbytes[3 * (1 + 4 * FZ_MAX_CUTS)];
    fz_take(&in, cutbytes, sizeof cutbytes);
    size_t total;
    uint8_t *msg = fz_message(&in, &total);
    g.aadlen = aadsel % (total + 1);
    g.aad = msg;
    g.pt = msg + g.aadlen;
    g.len = total - g.aadlen;
    fz_in cin = { cutbytes, sizeof cutbytes };
    fz_read_splits(&cin, &g.acut, g.aadlen, 1);
    fz_read_splits(&cin, &g.dcut, g.len, 1);
    fz_read_splits(&cin, &g.bcut, g.len, 64);

    uint8_t *ref = malloc(g.len + 1), *got = malloc(g.len + 1), *bad = malloc(total + 1);
    uint8_t *zero = calloc(g.len + 1, 1);
    uint8_t ref_tag[16], tag[16], ref_mac[16], mac[16];
    if (!ref || !got || !bad || !zero)
        abort();
    /* would the stream run past the counter's end? */
    uint64_t nblocks = (uint64_t)g.len / 64 + (g.len % 64 != 0);
    int toolong = g.x ? (g.counter != 0 && nblocks > 0 - g.counter)
                      : nblocks > (UINT64_C(1) << 32) - g.counter;

    size_t pc = fz_portable("chacha20"), pp = fz_portable("poly1305");
    fz_select("chacha20", pc);
    fz_select("poly1305", pp);
    fz_splits whole = { { 0, g.len }, 0 };
    int rc_ref = stream_xor(&g, &whole, ref);
    FZ_CHECK(rc_ref == (toolong ? IC_ERR_TOOLONG : IC_OK),
             "%s of %zu bytes at counter %llu: %d, want %s", g.x ? "xchacha20" : "chacha20", g.len,
             (unsigned long long)g.counter, rc_ref, toolong ? "IC_ERR_TOOLONG" : "IC_OK");
    int rc = ic_poly1305(ref_mac, msg, total, g.otk);
    FZ_CHECK(rc == IC_OK, "reference poly1305: %d", rc);
    rc = aead_seal(&g, ref, ref_tag);
    FZ_CHECK(rc == IC_OK, "reference seal: %d", rc);
    uint8_t *ref_stream = malloc(g.len + 1);
    if (!ref_stream)
        abort();
    if (!toolong)
        stream_xor(&g, &whole, ref_stream);

    size_t nc = ic_impl_count("chacha20"), np = ic_impl_count("poly1305");
    for (size_t ic = 0; ic < nc; ic++) {
        if (!ic_impl_available("chacha20", ic))
            continue;
        for (size_t ip = 0; ip < np; ip++) {
            if (!ic_impl_available("poly1305", ip))
                continue;
            const char *cn = ic_impl_name("chacha20", ic), *pn = ic_impl_name("poly1305", ip);
            fz_select("chacha20", ic);
            fz_select("poly1305", ip);
#define SAME(gotp, wantp, nb, how)                                                        \
            do {                                                                          \
                if (memcmp((gotp), (wantp), (nb)) != 0) {                                 \
                    fprintf(stderr, "chacha20=%s poly1305=%s: %s, %s, aad %zu, len %zu, counter %llu\n", \
                            cn, pn, (how), g.x ? "XChaCha" : "ChaCha", g.aadlen, g.len,   \
                            (unsigned long long)g.counter);                               \
                    FZ_CHECK_MEM((gotp), (wantp), (nb), (how));                           \
                }                                                                         \
            } while (0)

            /* the stream cipher, in whole-block pieces */
            if (!toolong) {
                rc = stream_xor(&g, &g.bcut, got);
                FZ_CHECK(rc == IC_OK, "%s/%s: stream in pieces: %d", cn, pn, rc);
                SAME(got, ref_stream, g.len, "keystream in pieces");
            }

            /* Poly1305 streamed over the whole message (aad and data cuts) */
            ic_poly1305_ctx p;
            rc = ic_poly1305_init(&p, g.otk);
            FZ_CHECK(rc == IC_OK, "poly1305_init: %d", rc);
            for (size_t i = 0; i <= g.acut.n; i++) {
                rc = ic_poly1305_update(&p, msg + FZ_PIECE_OFF(&g.acut, i), FZ_PIECE_LEN(&g.acut, i));
                FZ_CHECK(rc == IC_OK, "poly1305_update: %d", rc);
            }
            for (size_t i = 0; i <= g.dcut.n; i++) {
                rc = ic_poly1305_update(&p, g.pt + FZ_PIECE_OFF(&g.dcut, i), FZ_PIECE_LEN(&g.dcut, i));
                FZ_CHECK(rc == IC_OK, "poly1305_update: %d", rc);
            }
            rc = ic_poly1305_final(&p, mac);
            FZ_CHECK(rc == IC_OK, "poly1305_final: %d", rc);
            SAME(mac, ref_mac, 16, "streamed Poly1305");
            rc = ic_poly1305(mac, msg, total, g.otk);
            FZ_CHECK(rc == IC_OK, "poly1305: %d", rc);
            SAME(mac, ref_mac, 16, "one-shot Poly1305");
            rc = ic_poly1305_verify(ref_mac, msg, total, g.otk);
            FZ_CHECK(rc == IC_OK, "poly1305_verify of the genuine tag: %d", rc);
            memcpy(mac, ref_mac, 16);
            mac[g.flip % 16] ^= (uint8_t)(1u << (g.flip >> 13));
            rc = ic_poly1305_verify(mac, msg, total, g.otk);
            FZ_CHECK(rc == IC_ERR_AUTH, "poly1305_verify of a flipped tag: %d", rc);
            for (int flipped = 0; flipped < 2; flipped++) {
                rc = ic_poly1305_init(&p, g.otk);
                FZ_CHECK(rc == IC_OK, "poly1305_init: %d", rc);
                rc = ic_poly1305_update(&p, msg, total);
                FZ_CHECK(rc == IC_OK, "poly1305_update: %d", rc);
                rc = ic_poly1305_final_verify(&p, flipped ? mac : ref_mac);
                FZ_CHECK(rc == (flipped ? IC_ERR_AUTH : IC_OK), "poly1305_final_verify (flipped %d): %d", flipped,
                         rc);
            }

            /* the AEAD, one-shot */
            uint8_t *base, *out = fz_alloc_at(g.len, g.off, &base);
            rc = aead_seal(&g, out, tag);
            FZ_CHECK(rc == IC_OK, "seal: %d", rc);
            fz_check_canary(base, g.off, g.len, "seal output");
            SAME(out, ref, g.len, "one-shot seal ciphertext");
            SAME(tag, ref_tag, 16, "one-shot seal tag");
            memset(base, FZ_CANARY, g.len + 64);
            rc = aead_open(&g, g.aad, ref, ref_tag, out);
            FZ_CHECK(rc == IC_OK, "open of a genuine message: %d", rc);
            fz_check_canary(base, g.off, g.len, "open output");
            SAME(out, g.pt, g.len, "one-shot open");
            free(base);

            /* the AEAD, streamed */
            rc = aead_stream(&g, 0, g.aad, g.pt, got, tag);
            FZ_CHECK(rc == IC_OK, "stream final: %d", rc);
            SAME(got, ref, g.len, "streamed ciphertext");
            SAME(tag, ref_tag, 16, "streamed tag");
            rc = aead_stream(&g, 1, g.aad, ref, got, ref_tag);
            FZ_CHECK(rc == IC_OK, "stream final_verify of a genuine message: %d", rc);
            SAME(got, g.pt, g.len, "streamed decryption");

            /* a forgery: one flipped bit of the tag, ciphertext or AAD */
            const uint8_t *faad = g.aad, *fct = ref;
            uint8_t ftag[16];
            memcpy(ftag, ref_tag, 16);
            unsigned bit = 1u << (g.flip >> 13), where = (g.flip >> 4) % 3;
            if (where == 1 && g.len) {
                memcpy(bad, ref, g.len);
                bad[g.flip % g.len] ^= (uint8_t)bit;
                fct = bad;
            } else if (where == 2 && g.aadlen) {
                memcpy(bad, g.aad, g.aadlen);
                bad[g.flip % g.aadlen] ^= (uint8_t)bit;
                faad = bad;
            } else {
                ftag[g.flip % 16] ^= (uint8_t)bit;
            }
            out = fz_alloc_at(g.len, g.off, &base);
            rc = aead_open(&g, faad, fct, ftag, out);
            FZ_CHECK(rc == IC_ERR_AUTH, "open of a forgery: %d", rc);
            FZ_CHECK_MEM(out, zero, g.len, "open of a forgery left plaintext in out");
            fz_check_canary(base, g.off, g.len, "open output");
            free(base);
            rc = aead_stream(&g, 1, faad, fct, got, ftag);
            FZ_CHECK(rc == IC_ERR_AUTH, "stream final_verify of a forgery: %d", rc);
#undef SAME
        }
    }
    fz_select_auto("chacha20");
    fz_select_auto("poly1305");
    free(ref);
    free(ref_stream);
    free(got);
    free(bad);
    free(zero);
    free(msg);
    return 0;
}
