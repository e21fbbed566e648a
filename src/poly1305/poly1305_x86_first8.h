/*
 * poly1305_x86_first8.h - lane permutation of the first group of an
 * 8-lane complete-decimation run (poly1305_x86_avx512.c,
 * poly1305_x86_ifma.c): with k zero blocks prefixed, lane q must hold
 * block pos(q) - k of the run, where pos(q) = (q odd ? 4 : 0) + q / 2 is
 * the position VPUNPCK[LH]QDQ of two 512-bit loads gives lane q; block b
 * sits in lane (b < 4 ? 2b : 2(b - 4) + 1).  idx[k] are the VPERMQ
 * indices, keep[k] the mask of lanes with pos(q) >= k (the others hold a
 * prefixed zero).  Indexed by k = (-n) mod 8, a function of the length.
 */
#ifndef INCORE_POLY1305_X86_FIRST8_H
#define INCORE_POLY1305_X86_FIRST8_H

#include <stdint.h>

static const int64_t ic_poly1305_first8_idx[8][8] __attribute__((aligned(64))) = {
    { 0, 1, 2, 3, 4, 5, 6, 7 }, { 0, 6, 0, 1, 2, 3, 4, 5 },
    { 0, 4, 0, 6, 0, 1, 2, 3 }, { 0, 2, 0, 4, 0, 6, 0, 1 },
    { 0, 0, 0, 2, 0, 4, 0, 6 }, { 0, 0, 0, 0, 0, 2, 0, 4 },
    { 0, 0, 0, 0, 0, 0, 0, 2 }, { 0, 0, 0, 0, 0, 0, 0, 0 },
};
static const uint8_t ic_poly1305_first8_keep[8] = { 0xff, 0xfe, 0xfa, 0xea, 0xaa, 0xa8, 0xa0, 0x80 };

#endif
