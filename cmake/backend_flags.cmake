# Per-file target flags for backend sources.  Only the file that uses an
# instruction set is compiled with its flag, so a build for x86-64 still runs
# on a CPU without it: dispatch decides at run time whether the code is used.
#
#   ic_backend_flags(<arch-regex> <file-glob> <flags...>)
# applies <flags> to src files matching <file-glob> when the target processor
# matches <arch-regex>.  Families add their lines below as backends arrive.
function(ic_backend_flags archre fileglob)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "${archre}")
    file(GLOB files ${PROJECT_SOURCE_DIR}/src/${fileglob})
    foreach(f ${files})
      set_property(SOURCE ${f} APPEND PROPERTY COMPILE_OPTIONS ${ARGN})
    endforeach()
  endif()
endfunction()

set(IC_X86 "^(x86_64|AMD64|amd64)$")
set(IC_ARM64 "^(aarch64|arm64)$")
set(IC_PPC64 "^(ppc64|ppc64le|powerpc64|powerpc64le)$")
set(IC_ARM32 "^(arm|armv7l|armv7-a|armhf)$")

# AES (issue 4): AES-NI with SSSE3 (PSHUFB for the big-endian counter);
# VAES on YMM registers (AVX2 for the integer lanes).
ic_backend_flags(${IC_X86} "aes/aes_x86_ni.c" -maes -mssse3)

# GHASH / AES-GCM (src/gcm): PCLMULQDQ + PSHUFB; the stitched loops add
# AES-NI, and the 256-bit ones VAES / VPCLMULQDQ / AVX2.
ic_backend_flags(${IC_X86} "gcm/ghash_x86_clmul.c" -mpclmul -mssse3)
ic_backend_flags(${IC_X86} "gcm/ghash_x86_vpclmul.c" -mpclmul -mssse3 -mavx2 -mvpclmulqdq)
ic_backend_flags(${IC_X86} "gcm/gcm_x86_ni.c" -maes -mpclmul -mssse3)
ic_backend_flags(${IC_X86} "gcm/gcm_x86_vaes.c" -maes -mpclmul -mssse3 -mavx2 -mvaes -mvpclmulqdq)
# The same on ZMM (issue 13): AVX-512F/VL/BW on top.
ic_backend_flags(${IC_X86} "gcm/ghash_x86_vpclmul512.c" -mpclmul -mssse3 -mavx2 -mvpclmulqdq
                 -mavx512f -mavx512vl -mavx512bw)
ic_backend_flags(${IC_X86} "gcm/gcm_x86_vaes512.c" -maes -mpclmul -mssse3 -mavx2 -mvaes -mvpclmulqdq
                 -mavx512f -mavx512vl -mavx512bw)

# POWER8 in-core crypto (issue 5): vcipher/vncipher/vsbox and vpmsumd are
# ISA 2.07 vector crypto; only these files get -mcpu=power8, the rest of the
# library keeps the compiler's default target (so a big-endian ppc64 build
# runs on pre-POWER8 CPUs) and dispatch picks these files at run time.
ic_backend_flags(${IC_PPC64} "aes/aes_ppc_p8.c" -mcpu=power8 -mvsx -mcrypto)
ic_backend_flags(${IC_PPC64} "gcm/*_ppc_p8.c" -mcpu=power8 -mvsx -mcrypto)
ic_backend_flags(${IC_X86} "aes/aes_x86_vaes.c" -mvaes -mavx2 -maes -mvpclmulqdq)  # VPCLMULQDQ: the XTS tweak reduction
# VAES on ZMM (issue 13): AVX-512F for the registers, VL for the 128-bit
# forms of its instructions, BW for VPSHUFB on ZMM.
ic_backend_flags(${IC_X86} "aes/aes_x86_vaes512.c" -mvaes -mavx2 -maes -mavx512f -mavx512vl -mavx512bw -mvpclmulqdq)  # VPCLMULQDQ: the XTS tweak reduction

# AArch64 AES and GHASH (issue 10, aes/ce, ghash/pmull): the ARMv8
# Cryptographic Extension (AESE/AESD/AESMC/AESIMC, PMULL/PMULL2) for these
# files only; dispatch picks them from HWCAP_AES / HWCAP_PMULL.
ic_backend_flags(${IC_ARM64} "aes/aes_arm_ce.c" -march=armv8-a+crypto)
ic_backend_flags(${IC_ARM64} "gcm/*_arm_pmull.c" -march=armv8-a+crypto)

# GHASH on NEON vmull.p8 (issue 10, branch arm-c; 004): 32-bit ARM builds
# target the armhf baseline (VFPv3-D16, no NEON), so this file alone gets
# NEON and runs only when HWCAP_NEON says so.  AArch64 has NEON in its base.
ic_backend_flags(${IC_ARM32} "gcm/ghash_arm_neon.c" -mfpu=neon)

# The ARMv8 crypto-extension backends on 32-bit ARM (issue 10, branch
# arm10): the same sources as on AArch64 (core/cpu_arm.h), built for the
# AArch32 state of an ARMv8 core with its crypto instructions (AESE.8,
# VMULL.P64) for these files only; dispatch runs them when AT_HWCAP2
# reports AES / PMULL.
ic_backend_flags(${IC_ARM32} "aes/aes_arm_ce.c" -march=armv8-a -mfpu=crypto-neon-fp-armv8)
ic_backend_flags(${IC_ARM32} "gcm/*_arm_pmull.c" -march=armv8-a -mfpu=crypto-neon-fp-armv8)
