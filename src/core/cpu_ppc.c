/*
 * cpu_ppc.c - POWER feature detection from AT_HWCAP / AT_HWCAP2, as chapter 3
 * of "POWER8 in-core Cryptography: The Unofficial Guide" recommends: the in-core crypto instructions
 * (vcipher, vpmsumd, vshasigma) are ISA 2.07 and reported by
 * PPC_FEATURE2_VEC_CRYPTO; DARN is ISA 3.00 (POWER9).  Never assume them from
 * the compiler target: a ppc64le build must still run on a POWER7.
 * Bit values from Linux arch/powerpc/include/uapi/asm/cputable.h.
 */
#include "core/internal.h"
#include "core/cpu_linux.h"

#if defined(__powerpc64__) || defined(__powerpc__)
#define PPC_FEATURE_HAS_ALTIVEC  0x10000000ul
#define PPC_FEATURE_HAS_VSX      0x00000080ul
#define PPC_FEATURE2_ARCH_2_07   0x80000000ul
#define PPC_FEATURE2_VEC_CRYPTO  0x02000000ul
#define PPC_FEATURE2_ARCH_3_00   0x00800000ul
#define PPC_FEATURE2_DARN        0x00200000ul

uint64_t ic_cpu_detect_arch(char *model, size_t modelcap)
{
    static const char *const keys[] = {"cpu", NULL};
    unsigned long h1 = ic_hwcap(1), h2 = ic_hwcap(2);
    uint64_t f = 0;
    if (h1 & PPC_FEATURE_HAS_ALTIVEC) f |= IC_F(IC_CPU_PPC_ALTIVEC);
    if (h1 & PPC_FEATURE_HAS_VSX)     f |= IC_F(IC_CPU_PPC_VSX);
    if (h2 & PPC_FEATURE2_ARCH_2_07)  f |= IC_F(IC_CPU_PPC_ARCH207);
    if (h2 & PPC_FEATURE2_VEC_CRYPTO) f |= IC_F(IC_CPU_PPC_VCRYPTO);
    if (h2 & PPC_FEATURE2_ARCH_3_00)  f |= IC_F(IC_CPU_PPC_ARCH300);
    /* DARN is part of ISA 3.00; newer kernels also set a DARN bit. */
    if (h2 & (PPC_FEATURE2_ARCH_3_00 | PPC_FEATURE2_DARN)) f |= IC_F(IC_CPU_PPC_DARN);
    ic_cpuinfo_model(model, modelcap, keys);
    return f;
}

const char *ic_cpu_arch(void)
{
#if defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
    return "ppc64le";
#elif defined(__powerpc64__)
    return "ppc64";
#else
    return "ppc";
#endif
}
#endif
