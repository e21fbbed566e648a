/*
 * cpu_arm.h - which ARM backends a build has.
 *
 * IC_ARM_LE (core/target.h): a little-endian ARM build, AArch64 or
 * 32-bit.  The NEON backends (ghash/neon, chacha20/neon) and the ARMv8
 * crypto-extension ones (aes/ce, ghash/pmull, sha1/ce, sha256/ce,
 * crc32*-armv8*) are built, from one source each, for AArch64 and for
 * 32-bit ARM (for the crypto ones, the AArch32 state of an ARMv8 core,
 * where the kernel reports the same instructions in AT_HWCAP2; cpu_arm.c).
 * The intrinsics of <arm_neon.h> / <arm_acle.h> they use exist in both;
 * the few that AArch32 lacks (vrbitq_u8, vcltq_u64, vqtbl1q_u8) have an
 * AArch32 replacement next to their use.  Little-endian only: the code
 * reinterprets byte lanes as 32- and 64-bit lanes, whose order differs on
 * big-endian ARM (which no leg builds).
 * The SHA-512 (ARMv8.2) and RNDR (ARMv8.5) entries stay AArch64-only: the
 * AArch32 instruction set has neither.
 */
#ifndef INCORE_CPU_ARM_H
#define INCORE_CPU_ARM_H

#include "core/target.h"   /* IC_ARM_LE */

/* Inside a backend file: the file's target has the crypto extension
 * (IC_TARGET_BEGIN(IC_TARGET_ARM_CE), before this header is included);
 * GCC's AArch32 target defines only the old __ARM_FEATURE_CRYPTO, AArch64
 * the split __ARM_FEATURE_AES / _SHA2. */
#if defined(__ARM_FEATURE_CRYPTO) || defined(__ARM_FEATURE_AES)
#define IC_ARM_HAVE_CRYPTO 1
#else
#define IC_ARM_HAVE_CRYPTO 0
#endif

#endif
