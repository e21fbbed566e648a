/*
 * fuzz_gcm.c - differential target for AES-GCM (incore/gcm.h), and through
 * it for GHASH: every pair of an available "aes" and an available "ghash"
 * implementation (the stitched CTR+GHASH loops depend on both) against the
 * portable pair (the tables' last entries).
 *
 * The input picks key size and key, an IV of any length from 1 to 128 bytes
 * (so J0 often comes from GHASH and the 32-bit counter starts anywhere,
 * carries included), a tag length of 4, 8 or 12..16, AAD and plaintext
 * (split from one message), where the AAD and the data are cut for the
 * streaming calls, in place or misaligned, and a byte to flip for a
 * forgery.  Checked for each pair:
 *   - one-shot seal and streamed encrypt + final (from a key object) equal
 *     the portable seal;
 *   - streamed decrypt + final_verify and one-shot open accept and give the
 *     plaintext back;
 *   - with one bit of the tag, the ciphertext or the AAD flipped, open
 *     returns IC_ERR_AUTH with out zeroed, and final_verify IC_ERR_AUTH;
 *   - nothing is written outside the output.
 */
#include "fuzz_common.h"

static const size_t taglens[7] = { 4, 8, 12, 13, 14, 15, 16 };

typedef struct {
    uint8_t key[32];
    size_t keylen;
    uint8_t iv[128];
    size_t ivlen;
    size_t taglen;
    const uint8_t *aad;
    size_t aadlen;
    const uint8_t *pt;
    size_t len;
    fz_splits acut, dcut, dcut2;
    unsigned off;
    int inplace;
} gcm_case;

/* Streamed encryption: key, IV, AAD in pieces, data in pieces. */
static void stream_seal(const gcm_case *g, uint8_t *ct, uint8_t *tag, const char *who)
{
    ic_aes_gcm_key k;
    ic_aes_gcm_ctx c;
    uint8_t *base, *inbase = NULL;
    int rc = ic_aes_gcm_key_init(&k, g->key, g->keylen);
    FZ_CHECK(rc == IC_OK, "%s: gcm_key_init %d", who, rc);
    rc = ic_aes_gcm_init(&c, &k, g->iv, g->ivlen);
    FZ_CHECK(rc == IC_OK, "%s: gcm_init %d", who, rc);
    for (size_t i = 0; i <= g->acut.n; i++) {
        rc = ic_aes_gcm_aad(&c, g->aad + FZ_PIECE_OFF(&g->acut, i), FZ_PIECE_LEN(&g->acut, i));
        FZ_CHECK(rc == IC_OK, "%s: gcm_aad piece %zu: %d", who, i, rc);
    }
    uint8_t *out = fz_alloc_at(g->len, g->off, &base);
    const uint8_t *in;
    if (g->inplace) {
        memcpy(out, g->pt, g->len);
        in = out;
    } else {
        uint8_t *cp = fz_alloc_at(g->len, g->off >> 6, &inbase);
        memcpy(cp, g->pt, g->len);
        in = cp;
    }
    for (size_t i = 0; i <= g->dcut.n; i++) {
        size_t o = FZ_PIECE_OFF(&g->dcut, i);
        rc = ic_aes_gcm_encrypt(&c, out + o, in + o, FZ_PIECE_LEN(&g->dcut, i));
        FZ_CHECK(rc == IC_OK, "%s: gcm_encrypt piece %zu: %d", who, i, rc);
    }
    rc = ic_aes_gcm_final(&c, tag, g->taglen);
    FZ_CHECK(rc == IC_OK, "%s: gcm_final %d", who, rc);
    fz_check_canary(base, g->off, g->len, "gcm_encrypt output");
    memcpy(ct, out, g->len);
    free(base);
    free(inbase);
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&k);
}

/* Streamed decryption in the pieces of cut; returns final_verify's status. */
static int stream_open(const gcm_case *g, const uint8_t *aad, const uint8_t *ct, const uint8_t *tag,
                       const fz_splits *cut, uint8_t *pt, const char *who)
{
    ic_aes_gcm_key k;
    ic_aes_gcm_ctx c;
    uint8_t *base;
    int rc = ic_aes_gcm_key_init(&k, g->key, g->keylen);
    FZ_CHECK(rc == IC_OK, "%s: gcm_key_init %d", who, rc);
    rc = ic_aes_gcm_init(&c, &k, g->iv, g->ivlen);
    FZ_CHECK(rc == IC_OK, "%s: gcm_init %d", who, rc);
    rc = ic_aes_gcm_aad(&c, aad, g->aadlen);
    FZ_CHECK(rc == IC_OK, "%s: gcm_aad %d", who, rc);
    uint8_t *out = fz_alloc_at(g->len, g->off >> 3, &base);
    memcpy(out, ct, g->len);
    for (size_t i = 0; i <= cut->n; i++) {
        size_t o = FZ_PIECE_OFF(cut, i);
        rc = ic_aes_gcm_decrypt(&c, out + o, out + o, FZ_PIECE_LEN(cut, i));
        FZ_CHECK(rc == IC_OK, "%s: gcm_decrypt piece %zu: %d", who, i, rc);
    }
    rc = ic_aes_gcm_final_verify(&c, tag, g->taglen);
    fz_check_canary(base, g->off >> 3, g->len, "gcm_decrypt output");
    memcpy(pt, out, g->len);
    free(base);
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&k);
    return rc;
}

/* One-shot open into a fresh misaligned buffer; returns its status. */
static int oneshot_open(const gcm_case *g, const uint8_t *aad, const uint8_t *ct, const uint8_t *tag,
                        uint8_t *pt)
{
    uint8_t *base;
    uint8_t *out = fz_alloc_at(g->len, g->off >> 9, &base);
    int rc = ic_aes_gcm_open(out, tag, g->taglen, ct, g->len, aad, g->aadlen, g->iv, g->ivlen, g->key,
                             g->keylen);
    fz_check_canary(base, g->off >> 9, g->len, "ic_aes_gcm_open output");
    memcpy(pt, out, g->len);
    free(base);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    gcm_case g;
    static const size_t klens[3] = { 16, 24, 32 };
    uint8_t sel = fz_u8(&in);
    g.keylen = klens[sel % 3];
    g.taglen = taglens[(sel >> 2) % 7];
    g.inplace = (sel >> 5) & 1;
    int forge = sel >> 6;               /* 0: none, 1: tag, 2: ciphertext, 3: AAD */
    fz_take(&in, g.key, 32);
    uint8_t ivsel = fz_u8(&in);
    g.ivlen = ivsel & 0x80 ? 12 : 1 + ivsel % 128;
    fz_take(&in, g.iv, g.ivlen);
    g.off = fz_u16(&in);
    uint32_t aadsel = fz_u16(&in);
    uint32_t flippos = fz_u16(&in);
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
    fz_read_splits(&cin, &g.dcut2, g.len, 1);

    uint8_t *ref = malloc(g.len + 1), *ct = malloc(g.len + 1), *pt = malloc(g.len + 1);
    uint8_t *bad = malloc(total + 1), *zero = calloc(g.len + 1, 1);
    uint8_t ref_tag[16], tag[16];
    if (!ref || !ct || !pt || !bad || !zero)
        abort();

    /* reference: the portable pair, one-shot */
    size_t pa = fz_portable("aes"), pg = fz_portable("ghash");
    fz_select("aes", pa);
    fz_select("ghash", pg);
    int rc = ic_aes_gcm_seal(ref, ref_tag, g.taglen, g.pt, g.len, g.aad, g.aadlen, g.iv, g.ivlen, g.key,
                             g.keylen);
    FZ_CHECK(rc == IC_OK, "reference seal: %d", rc);

    size_t na = ic_impl_count("aes"), ng = ic_impl_count("ghash");
    for (size_t ia = 0; ia < na; ia++) {
        if (!ic_impl_available("aes", ia))
            continue;
        for (size_t ig = 0; ig < ng; ig++) {
            if (!ic_impl_available("ghash", ig))
                continue;
            char who[64];
            snprintf(who, sizeof who, "aes=%s ghash=%s keylen %zu ivlen %zu taglen %zu aad %zu len %zu",
                     ic_impl_name("aes", ia), ic_impl_name("ghash", ig), g.keylen, g.ivlen, g.taglen,
                     g.aadlen, g.len);
            fz_select("aes", ia);
            fz_select("ghash", ig);

            /* one-shot seal */
            uint8_t *base;
            uint8_t *out = fz_alloc_at(g.len, g.off, &base);
            memset(tag, 0, sizeof tag);
            rc = ic_aes_gcm_seal(out, tag, g.taglen, g.pt, g.len, g.aad, g.aadlen, g.iv, g.ivlen, g.key,
                                 g.keylen);
            FZ_CHECK(rc == IC_OK, "%s: seal %d", who, rc);
            fz_check_canary(base, g.off, g.len, "ic_aes_gcm_seal output");
            if (memcmp(out, ref, g.len) || memcmp(tag, ref_tag, g.taglen)) {
                fprintf(stderr, "%s: one-shot seal\n", who);
                FZ_CHECK_MEM(out, ref, g.len, "ciphertext differs from the portable one");
                FZ_CHECK_MEM(tag, ref_tag, g.taglen, "tag differs from the portable one");
            }
            free(base);

            /* streamed seal */
            memset(tag, 0, sizeof tag);
            stream_seal(&g, ct, tag, who);
            if (memcmp(ct, ref, g.len) || memcmp(tag, ref_tag, g.taglen)) {
                fprintf(stderr, "%s: streamed seal, %zu AAD cuts, %zu data cuts, %s\n", who, g.acut.n,
                        g.dcut.n, g.inplace ? "in place" : "out of place");
                FZ_CHECK_MEM(ct, ref, g.len, "ciphertext differs from the portable one");
                FZ_CHECK_MEM(tag, ref_tag, g.taglen, "tag differs from the portable one");
            }

            /* streamed and one-shot open of the genuine message */
            rc = stream_open(&g, g.aad, ref, ref_tag, &g.dcut2, pt, who);
            FZ_CHECK(rc == IC_OK, "%s: verify of a genuine message: %d", who, rc);
            FZ_CHECK_MEM(pt, g.pt, g.len, "streamed decryption");
            rc = oneshot_open(&g, g.aad, ref, ref_tag, pt);
            FZ_CHECK(rc == IC_OK, "%s: open of a genuine message: %d", who, rc);
            FZ_CHECK_MEM(pt, g.pt, g.len, "one-shot open");

            /* a forgery: one flipped bit */
            if (forge) {
                uint8_t ftag[16];
                const uint8_t *faad = g.aad, *fct = ref;
                memcpy(ftag, ref_tag, 16);
                if (forge == 2 && g.len != 0) {
                    memcpy(bad, ref, g.len);
                    bad[flippos % g.len] ^= (uint8_t)(1u << (flippos >> 13));
                    fct = bad;
                } else if (forge == 3 && g.aadlen != 0) {
                    memcpy(bad, g.aad, g.aadlen);
                    bad[flippos % g.aadlen] ^= (uint8_t)(1u << (flippos >> 13));
                    faad = bad;
                } else {
                    ftag[flippos % g.taglen] ^= (uint8_t)(1u << (flippos >> 13));
                }
                rc = stream_open(&g, faad, fct, ftag, &g.dcut2, pt, who);
                FZ_CHECK(rc == IC_ERR_AUTH, "%s: verify of a forgery (kind %d): %d", who, forge, rc);
                rc = oneshot_open(&g, faad, fct, ftag, pt);
                FZ_CHECK(rc == IC_ERR_AUTH, "%s: open of a forgery (kind %d): %d", who, forge, rc);
                FZ_CHECK_MEM(pt, zero, g.len, "open of a forgery left plaintext in out");
            }
        }
    }
    fz_select_auto("aes");
    fz_select_auto("ghash");
    free(ref);
    free(ct);
    free(pt);
    free(bad);
    free(zero);
    free(msg);
    return 0;
}
