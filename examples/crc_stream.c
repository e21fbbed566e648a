/*
 * crc_stream.c - CRC-32C of standard input as it streams by, in pieces of
 * any size: each piece's CRC is computed on its own and joined to the
 * running value with ic_crc32c_combine (the way CRCs of blocks computed in
 * parallel are joined), then checked against the plain chained CRC.
 *
 *   producer | crc_stream      prints the CRC-32C as %08x
 */
#include <incore/incore.h>
#include <stdio.h>

int main(void)
{
    static uint8_t buf[4099];   /* an odd size: pieces end anywhere */
    uint32_t chained = 0, combined = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) {
        chained = ic_crc32c(chained, buf, n);
        combined = ic_crc32c_combine(combined, ic_crc32c(0, buf, n), n);
    }
    if (ferror(stdin) || chained != combined) {
        fprintf(stderr, "crc_stream: %s\n", ferror(stdin) ? "read error" : "combine disagrees");
        return 1;
    }
    printf("%08x\n", (unsigned)chained);
    return 0;
}
