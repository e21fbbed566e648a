/*
 * fuzz_crc.c - differential target for CRC-32 and CRC-32C (incore/crc.h).
 *
 * The input picks the CRC, a starting value, the cut points and a
 * misalignment of the message, and the message (long ones expanded from a
 * seed, so the folding backends' bulk loops run).  The portable
 * implementation (the table's last entry) in one call from the starting
 * value is the reference; every available implementation must give it
 * when the message is fed in pieces, chained through the returned value
 * (zlib's convention), and from any buffer alignment.  Then, with the
 * portable one: combining the CRCs of the pieces with ic_crc32(c)_combine
 * gives the CRC of the whole, and a NULL buffer gives 0 whatever the
 * arguments (zlib's crc32(x, Z_NULL, n)).
 */
#include "fuzz_common.h"

typedef uint32_t (*crc_fn)(uint32_t, const uint8_t *, size_t);
typedef uint32_t (*comb_fn)(uint32_t, uint32_t, uint64_t);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    uint8_t sel = fz_u8(&in);
    int c = sel & 1;
    const char *prim = c ? "crc32c" : "crc32";
    crc_fn f = c ? ic_crc32c : ic_crc32;
    comb_fn comb = c ? ic_crc32c_combine : ic_crc32_combine;
    uint32_t start = (sel & 2) ? fz_u32(&in) : 0;
    unsigned off = fz_u8(&in);
    uint64_t nulllen = fz_u64(&in);
    size_t len;
    fz_splits s;
    uint8_t *msg = fz_split_message(&in, &len, &s);

    uint8_t *base, *buf = fz_alloc_at(len, off, &base);
    memcpy(buf, msg, len);

    fz_select(prim, fz_portable(prim));
    uint32_t ref = f(start, msg, len);

    size_t n = ic_impl_count(prim);
    for (size_t i = 0; i < n; i++) {
        if (!ic_impl_available(prim, i))
            continue;
        fz_select(prim, i);
        uint32_t v = start;
        for (size_t k = 0; k <= s.n; k++)
            v = f(v, buf + FZ_PIECE_OFF(&s, k), FZ_PIECE_LEN(&s, k));
        FZ_CHECK(v == ref, "%s impl %s: %08lx in %zu pieces from %08lx at offset %u, want %08lx (len %zu)",
                 prim, ic_impl_name(prim, i), (unsigned long)v, s.n + 1, (unsigned long)start, off % 64,
                 (unsigned long)ref, len);
        FZ_CHECK(f(start, NULL, (size_t)nulllen) == 0, "%s impl %s: NULL buffer did not give 0", prim,
                 ic_impl_name(prim, i));
    }
    fz_select(prim, fz_portable(prim));

    /* combine: CRC(A || B) from CRC(A), CRC(B), |B|, over every piece */
    uint32_t acc = f(0, msg, 0);
    for (size_t k = 0; k <= s.n; k++) {
        size_t pl = FZ_PIECE_LEN(&s, k);
        acc = comb(acc, f(0, msg + FZ_PIECE_OFF(&s, k), pl), pl);
    }
    uint32_t whole = f(0, msg, len);
    FZ_CHECK(acc == whole, "%s_combine over %zu pieces: %08lx, want %08lx", prim, s.n + 1,
             (unsigned long)acc, (unsigned long)whole);
    /* combining with an empty B leaves A */
    FZ_CHECK(comb(ref, f(0, msg, 0), 0) == ref, "%s_combine with an empty B changed A", prim);

    fz_select_auto(prim);
    free(base);
    free(msg);
    return 0;
}
