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
ic_backend_flags(${IC_X86} "aes/aes_x86_vaes.c" -mvaes -mavx2 -maes -mvpclmulqdq)  # VPCLMULQDQ: the XTS tweak reduction
# VAES on ZMM (issue 13): AVX-512F for the registers, VL for the 128-bit
# forms of its instructions, BW for VPSHUFB on ZMM.
ic_backend_flags(${IC_X86} "aes/aes_x86_vaes512.c" -mvaes -mavx2 -maes -mavx512f -mavx512vl -mavx512bw -mvpclmulqdq)  # VPCLMULQDQ: the XTS tweak reduction

# POWER8 in-core crypto (issue 5): vcipher/vncipher/vsbox are ISA 2.07
# vector crypto; only this file gets -mcpu=power8, the rest of the library
# keeps the compiler's default target (so a big-endian ppc64 build runs on
# pre-POWER8 CPUs) and dispatch picks it at run time.
ic_backend_flags(${IC_PPC64} "aes/aes_ppc_p8.c" -mcpu=power8 -mvsx -mcrypto)

# AArch64 AES (issue 10, aes/ce): the ARMv8 Cryptographic Extension
# (AESE/AESD/AESMC/AESIMC) for this file only; dispatch picks it from
# HWCAP_AES.  On 32-bit ARM (branch arm10) the same source, built for the
# AArch32 state of an ARMv8 core with its crypto instructions (AESE.8),
# run when AT_HWCAP2 reports AES.
ic_backend_flags(${IC_ARM64} "aes/aes_arm_ce.c" -march=armv8-a+crypto)
ic_backend_flags(${IC_ARM32} "aes/aes_arm_ce.c" -march=armv8-a -mfpu=crypto-neon-fp-armv8)
