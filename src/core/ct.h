/*
 * ct.h - where a secret may become public: the declassify point that the
 * constant-time checks of the test suite need.
 *
 * The check (tests/ct_check.c) marks keys and plaintexts as undefined
 * memory for valgrind's memcheck, or as poisoned for clang's
 * MemorySanitizer, and fails on any branch or memory address computed from
 * them.  A tag verification has to branch on its verdict, which is secret
 * until it is taken (it is the comparison of a tag computed under the key
 * with the caller's); the library passes that verdict, and nothing else,
 * through ic_ct_declassify() before the branch, so that the checkers treat
 * it as public from there on.  Exactly the verdict: declassifying the
 * computed tag or the difference bytes would hide a leak in the compare.
 * The one other verdict is XTS key setup's "the two halves are equal"
 * (src/aes/xts.c), which its status reports anyway.  RSA (src/bn/rsa_priv.c)
 * declassifies its verdicts (key checks, the fault check, the OAEP padding
 * verdict, then the released message length) and one value: the product
 * r a of two random numbers whose inverse gives the blinding factor's,
 * independent of r by construction.
 *
 * At run time this is nothing (no valgrind, no MSan) or a valgrind client
 * request, a few instructions that do nothing on a real CPU.
 */
#ifndef INCORE_CORE_CT_H
#define INCORE_CORE_CT_H

#include <stddef.h>

/* Mark n bytes at p as public (defined, unpoisoned) for the checkers. */
void ic_ct_declassify(const void *p, size_t n);

/* IC_MSAN: this is a MemorySanitizer build (the ct_msan leg).  Two things
 * in the x86 backends need it, because MSan (clang 14) would otherwise
 * report or lose the secrets' taint where no secret decides anything:
 *  - an intrinsic it has no rule for (SHA1RNDS4, which takes an
 *    immediate) is checked strictly, a report on every call:
 *    sha1_x86_shani.c runs it on unpoisoned operands and poisons the
 *    result when an operand was poisoned (what valgrind does for it);
 *  - an inline asm has its inputs checked and its outputs marked clean,
 *    so an empty asm that only steers GCC's register allocation (gx_pin)
 *    is left out of MSan builds. */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define IC_MSAN 1
#include <sanitizer/msan_interface.h>
#endif
#endif

#endif
