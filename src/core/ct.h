/*
 * ct.h - where a secret may become public: the declassify point that the
 * constant-time checks of the test suite need (issue 8).
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
 *
 * At run time this is nothing (no valgrind, no MSan) or a valgrind client
 * request, a few instructions that do nothing on a real CPU.
 */
#ifndef INCORE_CORE_CT_H
#define INCORE_CORE_CT_H

#include <stddef.h>

/* Mark n bytes at p as public (defined, unpoisoned) for the checkers. */
void ic_ct_declassify(const void *p, size_t n);

#endif
