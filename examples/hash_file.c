/*
 * hash_file.c - the SHA-256 of each file named, streamed in 64 KiB pieces
 * (ic_sha256_init / _update / _final), printed as sha256sum prints it.
 *
 *   hash_file FILE...
 */
#include <incore/incore.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    static unsigned char buf[65536];
    int rc = argc > 1 ? 0 : 2;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        ic_sha256_ctx c;
        unsigned char d[IC_SHA256_DIGEST_SIZE];
        size_t n;
        int st;
        if (!f || ic_sha256_init(&c) != IC_OK) {
            perror(argv[i]);
            if (f)
                fclose(f);
            rc = 1;
            continue;
        }
        st = IC_OK;
        while (st == IC_OK && (n = fread(buf, 1, sizeof buf, f)) > 0)
            st = ic_sha256_update(&c, buf, n);
        fclose(f);
        if (st == IC_OK)
            st = ic_sha256_final(&c, d);
        if (st != IC_OK) {
            fprintf(stderr, "%s: %s\n", argv[i], ic_status_str(st));
            ic_wipe(&c, sizeof c);
            rc = 1;
            continue;
        }
        for (size_t k = 0; k < sizeof d; k++)
            printf("%02x", d[k]);
        printf("  %s\n", argv[i]);
    }
    return rc;
}
