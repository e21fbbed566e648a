/*
 * target.h - the instruction sets of a backend file, declared in the file.
 *
 * A backend file opens with
 *
 *     #include "core/target.h"
 *     #if defined(__x86_64__)
 *     IC_TARGET_BEGIN("sse4.2,pclmul")
 *     #include "crc/crc_impl.h"          (every other include after it)
 *     ...
 *     IC_TARGET_END
 *     #endif
 *
 * and every function between the two lines is compiled for those
 * instruction sets, and only those functions: the rest of the library keeps
 * the compiler's baseline, and dispatch runs the file's code only on a CPU
 * that has them (the needs of its IC_BACKEND entry, core/internal.h).
 *
 * GCC: #pragma GCC target, which also defines the feature macros
 * (__SSE4_2__, __ARM_FEATURE_AES, __CRYPTO__, ...) from that point on.
 * clang: a target attribute on each function declared in between (clang
 * has no target pragma); the feature macros stay undefined, so a header
 * section for wider registers tests IC_TARGET_MACROS (below).  clang builds
 * x86-64 only here (the fuzz and MemorySanitizer builds); its ARM and POWER
 * target strings are not GCC's, and the ARM/POWER files' checks of the
 * feature macros would stop such a build with an #error.
 *
 * IC_TARGET_BEGIN comes before every other #include: the static inline
 * helpers of the headers (intrinsics wrappers, the family's shared loops)
 * must be compiled for the file's target to be inlined into its
 * functions, and GCC's <arm_neon.h> on 32-bit ARM and <altivec.h> need the
 * target before they are read.  So this header holds only macros, and the
 * architecture test around the pair may use only predefined macros and
 * the ones here (IC_ARM_LE).
 *
 * The string is the compiler's target-attribute syntax; on ARM it differs
 * between AArch64 and 32-bit ARM, so the shared ARM strings are named
 * below, and so are POWER's.  The pair replaced per-file -m flags in CMake:
 * every backend's object code is the same as it was with them (GCC 12,
 * x86-64, AArch64, armhf, ppc64le and ppc64), so no file needs a flag.
 */
#ifndef INCORE_TARGET_H
#define INCORE_TARGET_H

#define IC_TARGET_STR_(x) #x
#define IC_TARGET_STR(x) IC_TARGET_STR_(x)

#if defined(__clang__)
#define IC_TARGET_BEGIN(t) \
    _Pragma(IC_TARGET_STR(clang attribute push(__attribute__((target(t))), apply_to = function)))
#define IC_TARGET_END _Pragma("clang attribute pop")
#define IC_TARGET_MACROS 0
#elif defined(__GNUC__)
#define IC_TARGET_BEGIN(t) _Pragma("GCC push_options") _Pragma(IC_TARGET_STR(GCC target(t)))
#define IC_TARGET_END _Pragma("GCC pop_options")
#define IC_TARGET_MACROS 1
#else
#error "incore's backends need GCC or clang (#pragma GCC target or clang's target attribute)"
#endif

/* 32-bit x86 with a baseline below SSE2 (the i686 build: the VIA C3 has
 * SSE only): GCC 12's <immintrin.h> always reads the AVX512-FP16 headers,
 * whose _Float16 the compiler accepts only when the file's baseline has
 * SSE2, whatever the target pragma in force says, so every backend file
 * including <immintrin.h> would fail.  No backend uses FP16: their include
 * guards are defined here, and <immintrin.h> skips them. */
#if defined(__i386__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SSE2__)
#define __AVX512FP16INTRIN_H_INCLUDED
#define __AVX512FP16VLINTRIN_H_INCLUDED
#endif

/* IC_ARM_LE: a little-endian ARM build, AArch64 or 32-bit (core/cpu_arm.h
 * says which backends that builds).  Here, not there, because a backend
 * file tests it before its IC_TARGET_BEGIN. */
#if (defined(__aarch64__) || defined(__arm__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IC_ARM_LE 1
#else
#define IC_ARM_LE 0
#endif

/* The ARM targets shared by several files.  AArch64 has NEON in its base
 * and the crypto extension (AESE, PMULL, SHA1C, SHA256H) as "+crypto".
 * 32-bit builds target the armhf baseline (VFPv3-D16, no NEON): a NEON
 * file asks for the NEON unit, a crypto-extension file for the AArch32
 * state of an ARMv8 core with its crypto instructions (AESE.8, VMULL.P64,
 * ...), which the kernel reports in AT_HWCAP2 (core/cpu_arm.c).           */
#if defined(__aarch64__)
#define IC_TARGET_ARM_NEON   "+simd"
#define IC_TARGET_ARM_CE     "+crypto"
#define IC_TARGET_ARM_CE_CRC "+crc+crypto"
#elif defined(__arm__)
#define IC_TARGET_ARM_NEON   "fpu=neon"
#define IC_TARGET_ARM_CE     "arch=armv8-a,fpu=crypto-neon-fp-armv8"
#define IC_TARGET_ARM_CE_CRC "arch=armv8-a+crc,fpu=crypto-neon-fp-armv8"
#endif

/* POWER8 (ISA 2.07: VSX, vector crypto) and POWER9 (ISA 3.0).  GCC's
 * "cpu=power8" alone leaves out a setting that -mcpu=power8 makes for the
 * whole file: allow-movmisalign, unaligned vector moves as single
 * instructions.  A big-endian build, whose baseline is older, then loaded
 * vectors through pairs of GPRs (crc_ppc_p8.c: 509 instructions instead of
 * 353); with it the code is the same as -mcpu's. */
#define IC_TARGET_POWER8 "cpu=power8,allow-movmisalign"
#define IC_TARGET_POWER9 "cpu=power9,allow-movmisalign"

#endif
