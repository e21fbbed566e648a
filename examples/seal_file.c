/*
 * seal_file.c - encrypt or decrypt a whole file with an AEAD.
 *
 *   seal_file gcm|xchacha seal|open KEYFILE IN OUT
 *
 * KEYFILE holds the 32-byte key (raw bytes).  A sealed file is
 * nonce || ciphertext || 16-byte tag: a 12-byte random nonce for AES-256-GCM
 * (ic_aes_gcm_key_*: the key expanded once, as a program sealing many
 * records would), a 24-byte one for XChaCha20-Poly1305 (random nonces of
 * that length never collide in practice).  The nonce comes from ic_random,
 * the library's DRBG over its health-tested entropy sources.  Opening
 * checks the tag before anything is written: a forged or damaged file gives
 * exit status 1 and no output file.
 */
#include <incore/incore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG 16

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f)
        return NULL;
    do {
        if (n == cap) {
            unsigned char *b = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf ? buf : malloc(1);
}

static int write_all(const char *path, const unsigned char *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = fwrite(p, 1, len, f);
    return fclose(f) == 0 && put == len ? 0 : -1;
}

/* Seal or open in into a new buffer *res (*reslen bytes); an incore status. */
static int run(int gcm, int seal, const unsigned char *key, const unsigned char *in, size_t len,
               unsigned char **res, size_t *reslen)
{
    size_t nlen = gcm ? IC_GCM_IV_SIZE : 24;
    size_t outlen = seal ? nlen + len + TAG : len - nlen - TAG;
    unsigned char *out = malloc(outlen + 1);
    int st = out ? IC_OK : IC_ERR_UNAVAILABLE;
    ic_aes_gcm_key k;
    if (st == IC_OK && seal)   /* a fresh nonce for every message */
        st = ic_random(out, nlen);
    if (st != IC_OK) {
        free(out);
        return st;
    }
    if (gcm)   /* expanded once; a program sealing many records keeps k */
        st = ic_aes_gcm_key_init(&k, key, 32);
    if (st == IC_OK && seal)   /* out = nonce || ciphertext || tag */
        st = gcm ? ic_aes_gcm_key_seal(&k, out + nlen, out + nlen + len, TAG, in, len, NULL, 0, out, nlen)
                 : ic_xchacha20_poly1305_seal(out + nlen, out + nlen + len, in, len, NULL, 0, out, key);
    else if (st == IC_OK)
        st = gcm ? ic_aes_gcm_key_open(&k, out, in + nlen + outlen, TAG, in + nlen, outlen, NULL, 0, in, nlen)
                 : ic_xchacha20_poly1305_open(out, in + nlen + outlen, in + nlen, outlen, NULL, 0, in, key);
    if (gcm)
        ic_aes_gcm_key_wipe(&k);
    if (st != IC_OK) {
        free(out);
        return st;
    }
    *res = out;
    *reslen = outlen;
    return IC_OK;
}

int main(int argc, char **argv)
{
    if (argc != 6 || (strcmp(argv[1], "gcm") && strcmp(argv[1], "xchacha")) ||
        (strcmp(argv[2], "seal") && strcmp(argv[2], "open"))) {
        fprintf(stderr, "usage: seal_file gcm|xchacha seal|open KEYFILE IN OUT\n");
        return 2;
    }
    int gcm = !strcmp(argv[1], "gcm"), seal = !strcmp(argv[2], "seal"), rc = 0;
    size_t nlen = gcm ? IC_GCM_IV_SIZE : 24, klen = 0, len = 0, outlen = 0;
    unsigned char *key = read_all(argv[3], &klen), *in = read_all(argv[4], &len), *out = NULL;
    if (!key || klen != 32 || !in) {
        fprintf(stderr, "seal_file: need a 32-byte key file and a readable input\n");
        rc = 2;
    } else if (!seal && len < nlen + TAG) {
        fprintf(stderr, "seal_file: %s is too short to be sealed\n", argv[4]);
        rc = 1;
    } else {
        int st = run(gcm, seal, key, in, len, &out, &outlen);
        if (st != IC_OK) {
            fprintf(stderr, "seal_file: %s: %s\n", argv[2], ic_status_str(st));
            rc = 1;
        } else if (write_all(argv[5], out, outlen) != 0) {
            fprintf(stderr, "seal_file: cannot write %s\n", argv[5]);
            rc = 1;
        }
    }
    if (key)
        ic_wipe(key, klen);
    free(key);
    free(in);
    free(out);
    return rc;
}
