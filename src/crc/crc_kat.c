/*
 * crc_kat.c - known-answer self-tests of CRC-32 and CRC-32C, run through the
 * public API with whichever implementation is selected (ic_selftest,
 * `incore selftest`).
 *
 * Sources of the answers:
 *   - "123456789": the check values of the CRC catalogue (Williams, "A
 *     painless guide to CRC error detection", and the RevEng catalogue):
 *     CRC-32/ISO-HDLC 0xCBF43926, CRC-32/ISCSI 0xE3069283;
 *   - RFC 3720 appendix B.4: the four 32-byte iSCSI examples for CRC-32C;
 *   - zlib's crc32() for the CRC-32 of the same 32-byte patterns and short
 *     strings.
 * Lengths 32 and 43 also reach the 8-byte main loop of slice-by-8 and its
 * byte tail.  Each answer is checked in one call and chained at a split point,
 * and combine() is checked against the one-call answer.
 */
#include "crc/crc_impl.h"
#include "incore/crc.h"

enum { PAT_TEXT, PAT_ZERO, PAT_FF, PAT_ASC, PAT_DESC };

typedef struct {
    int pattern;          /* how to build the message               */
    const char *text;     /* PAT_TEXT: the message                  */
    uint32_t crc32, crc32c;
} crc_kat;

static const crc_kat kats[] = {
    { PAT_TEXT, "123456789", 0xCBF43926u, 0xE3069283u },
    { PAT_TEXT, "", 0x00000000u, 0x00000000u },
    { PAT_TEXT, "a", 0xE8B7BE43u, 0xC1D04330u },
    { PAT_TEXT, "The quick brown fox jumps over the lazy dog", 0x414FA339u, 0x22620404u },
    { PAT_ZERO, NULL, 0x190A55ADu, 0x8A9136AAu },   /* RFC 3720 B.4: 32 x 00 */
    { PAT_FF,   NULL, 0xFF6CAB0Bu, 0x62A8AB43u },   /* 32 x FF               */
    { PAT_ASC,  NULL, 0x91267E8Au, 0x46DD794Eu },   /* 00 01 .. 1F           */
    { PAT_DESC, NULL, 0x9AB0EF72u, 0x113FDB5Cu },   /* 1F 1E .. 00           */
};

static size_t kat_message(const crc_kat *k, uint8_t buf[64])
{
    if (k->pattern == PAT_TEXT) {
        size_t n = strlen(k->text);
        memcpy(buf, k->text, n);
        return n;
    }
    for (int i = 0; i < 32; i++)
        buf[i] = k->pattern == PAT_ZERO ? 0x00 : k->pattern == PAT_FF ? 0xff
               : k->pattern == PAT_ASC ? (uint8_t)i : (uint8_t)(31 - i);
    return 32;
}

static int crc_kat_run(uint32_t (*crc)(uint32_t, const uint8_t *, size_t),
                       uint32_t (*combine)(uint32_t, uint32_t, uint64_t), int c)
{
    int fails = 0;
    uint8_t buf[64];
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++) {
        uint32_t want = c ? kats[i].crc32c : kats[i].crc32;
        size_t n = kat_message(&kats[i], buf), h = n / 3;
        fails += crc(0, buf, n) != want;
        fails += crc(crc(0, buf, h), buf + h, n - h) != want;
        fails += combine(crc(0, buf, h), crc(0, buf + h, n - h), n - h) != want;
    }
    /* zlib's convention: a NULL buffer gives the initial value 0. */
    fails += crc(0x12345678u, NULL, 9) != 0;
    return fails;
}

int ic_kat_crc32(void)
{
    return crc_kat_run(ic_crc32, ic_crc32_combine, 0);
}

int ic_kat_crc32c(void)
{
    return crc_kat_run(ic_crc32c, ic_crc32c_combine, 1);
}
