/*
 * sha2_ppc_p8.h - what the two POWER8 SHA-2 backends (sha256_ppc_p8.c,
 * sha512_ppc_p8.c) share: the portable round structure of sha2_rounds.h
 * with Ch and Maj as one vsel each (chapter 5 of
 * "POWER8 in-core Cryptography: The Unofficial Guide"),
 * and the endian-aware message load.  Include only from files compiled for
 * POWER8 (after their IC_TARGET_BEGIN), inside #if defined(__powerpc64__).
 */
#ifndef INCORE_SHA2_PPC_P8_H
#define INCORE_SHA2_PPC_P8_H

#include <altivec.h>
#include "sha/sha2_rounds.h"

/* vec_sel(x, y, m) = (x & ~m) | (y & m): Ch(e,f,g) takes f where e is 1,
 * g where it is 0; Maj(a,b,c) is b (= a) where a and b agree, else c. */
#undef CH
#undef MAJ
#define CH(x, y, z)  vec_sel((z), (y), (x))
#define MAJ(x, y, z) vec_sel((y), (z), vec_xor((x), (y)))

/* 16 message bytes at p (any alignment) as big-endian words of vector type
 * T (5.2.1 / 5.2.2).  vec_xl of bytes gives byte i in element i on both
 * byte orders; reinterpreted as words, those are big-endian on ppc64 and
 * byte-reversed on ppc64le, where vec_revb turns each word around. */
#if defined(__LITTLE_ENDIAN__)
#define SHA2_P8_LOAD_BE(T, p) vec_revb((T)vec_xl(0, (const unsigned char *)(p)))
#else
#define SHA2_P8_LOAD_BE(T, p) ((T)vec_xl(0, (const unsigned char *)(p)))
#endif

#endif
