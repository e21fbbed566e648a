/*
 * insn_count.c - one AES operation over N blocks through incore's public
 * API, for scripts/insn-count.sh, which runs it under QEMU user mode with
 * the executed instructions logged and takes the difference between two
 * block counts, so start-up, key expansion and self-tests cancel out.
 *
 *   insn_count OP NBLOCKS   OP: ctr, ecb-enc, ecb-dec, cbc-enc, cbc-dec
 *                           (AES-128), or gcm (AES-128-GCM seal with a
 *                           reusable key, no AAD)
 *
 * The backend is the one incore selects, or INCORE_IMPL's choice.
 */
#include <incore/incore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: insn_count ctr|ecb-enc|ecb-dec|cbc-enc|cbc-dec|gcm NBLOCKS\n");
        return 2;
    }
    const char *op = argv[1];
    size_t n = (size_t)strtoul(argv[2], NULL, 10), len = n * 16;
    uint8_t *in = calloc(len + 16, 1), *out = calloc(len + 16, 1);
    uint8_t key[16] = {1, 2, 3}, iv[16] = {4, 5, 6}, tag[16];
    if (!in || !out)
        return 2;
    for (size_t i = 0; i < len; i++)
        in[i] = (uint8_t)(i * 7);
    int st;
    if (strcmp(op, "gcm") == 0) {
        ic_aes_gcm_key gk;
        st = ic_aes_gcm_key_init(&gk, key, sizeof key);
        if (st == IC_OK)
            st = ic_aes_gcm_key_seal(&gk, out, tag, 16, in, len, NULL, 0, iv, 12);
        ic_aes_gcm_key_wipe(&gk);
    } else {
        ic_aes_key k;
        st = ic_aes_key_init(&k, key, sizeof key);
        if (st != IC_OK)
            ;
        else if (strcmp(op, "ctr") == 0)
            st = ic_aes_ctr_crypt(&k, out, in, len, iv);
        else if (strcmp(op, "ecb-enc") == 0)
            st = ic_aes_ecb_encrypt(&k, out, in, len);
        else if (strcmp(op, "ecb-dec") == 0)
            st = ic_aes_ecb_decrypt(&k, out, in, len);
        else if (strcmp(op, "cbc-enc") == 0)
            st = ic_aes_cbc_encrypt(&k, out, in, len, iv);
        else if (strcmp(op, "cbc-dec") == 0)
            st = ic_aes_cbc_decrypt(&k, out, in, len, iv);
        else
            st = -1;
        ic_aes_key_wipe(&k);
    }
    if (st != IC_OK) {
        fprintf(stderr, "insn_count: %s: %s\n", op, st == -1 ? "unknown operation" : ic_status_str(st));
        return 1;
    }
    printf("%02x\n", out[len ? len - 1 : 0]);
    free(in);
    free(out);
    return 0;
}
