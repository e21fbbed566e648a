/*
 * cpu_x86.c - x86 feature detection (x86-64 and 32-bit x86): CPUID leaves
 * 1 and 7, XGETBV to
 * confirm the OS saves the YMM/ZMM state (a CPU flag alone is not enough:
 * AVX code on an OS that does not save YMM corrupts registers), and the
 * Centaur leaf 0xC0000001 for VIA PadLock, where each unit has a "present"
 * and an "enabled" bit (VIA PadLock Programming Guide, chapter 1:
 * RNG bits 2/3, ACE 6/7, ACE2 8/9, PHE 10/11, PMM 12/13).
 */
#include "core/internal.h"
#include <stdio.h>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <cpuid.h>

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

/* bit of register r (0=eax..3=edx) set -> feature f */
#define HAS(reg, bit) (((reg) >> (bit)) & 1u)

static uint64_t detect_leaf1_7(uint32_t maxleaf)
{
    uint32_t r1[4], r7[4] = {0, 0, 0, 0};
    uint64_t f = 0;
    cpuid(1, 0, r1);
    if (maxleaf >= 7)
        cpuid(7, 0, r7);
    uint32_t ecx = r1[2], ebx7 = r7[1], ecx7 = r7[2];
    int osxsave = HAS(ecx, 27);
    uint64_t xcr0 = osxsave ? xgetbv0() : 0;
    int ymm_ok = (xcr0 & 0x6) == 0x6;              /* XMM | YMM state   */
    int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;  /* opmask, ZMM_Hi256, Hi16_ZMM */

    if (HAS(ecx, 9))  f |= IC_F(IC_CPU_SSSE3);
    if (HAS(ecx, 20)) f |= IC_F(IC_CPU_SSE42);
    if (HAS(ecx, 25)) f |= IC_F(IC_CPU_AESNI);
    if (HAS(ecx, 1))  f |= IC_F(IC_CPU_PCLMUL);
    if (HAS(ecx, 30)) f |= IC_F(IC_CPU_RDRAND);
    if (HAS(ebx7, 18)) f |= IC_F(IC_CPU_RDSEED);
    if (HAS(ebx7, 8))  f |= IC_F(IC_CPU_BMI2);
    if (HAS(ebx7, 19)) f |= IC_F(IC_CPU_ADX);
    if (HAS(ebx7, 29)) f |= IC_F(IC_CPU_SHANI);
    if (HAS(ecx7, 8))  f |= IC_F(IC_CPU_GFNI);
    if (ymm_ok) {
        if (HAS(ecx, 28))  f |= IC_F(IC_CPU_AVX);
        if (HAS(ebx7, 5))  f |= IC_F(IC_CPU_AVX2);
        /* VAES / VPCLMULQDQ have 256-bit (VEX) forms usable without AVX-512 */
        if (HAS(ecx7, 9))  f |= IC_F(IC_CPU_VAES);
        if (HAS(ecx7, 10)) f |= IC_F(IC_CPU_VPCLMUL);
    }
    if (zmm_ok) {
        if (HAS(ebx7, 16)) f |= IC_F(IC_CPU_AVX512F);
        if (HAS(ebx7, 31)) f |= IC_F(IC_CPU_AVX512VL);
        if (HAS(ebx7, 30)) f |= IC_F(IC_CPU_AVX512BW);
        if (HAS(ebx7, 21)) f |= IC_F(IC_CPU_AVX512IFMA);
    }
    return f;
}

/* PadLock: the Centaur leaves, read only on the vendors that define them,
 * decoded by the pure ic_cpu_padlock_features() (cpu_padlock.c), with
 * leaf 1 EDX for the FXSR/SSE condition. */
static uint64_t detect_padlock(const char vendor[13])
{
    uint32_t r[4] = {0, 0, 0, 0}, r1[4] = {0, 0, 0, 0}, l1[4];
    if (!ic_cpu_padlock_vendor(vendor))
        return 0;   /* not a Centaur / Zhaoxin CPU: do not touch the range */
    cpuid(1, 0, l1);
    cpuid(0xC0000000u, 0, r);
    if (r[0] >= 0xC0000001u)
        cpuid(0xC0000001u, 0, r1);
    return ic_cpu_padlock_features(vendor, l1[3], r[0], r1[3]);
}

static void brand(char *model, size_t cap)
{
    uint32_t r[4], b[12];
    cpuid(0x80000000u, 0, r);
    if (r[0] < 0x80000004u || cap == 0)
        return;
    for (uint32_t i = 0; i < 3; i++)
        cpuid(0x80000002u + i, 0, b + 4 * i);
    char s[49];
    memcpy(s, b, 48);
    s[48] = 0;
    const char *p = s;
    while (*p == ' ')
        p++;
    snprintf(model, cap, "%s", p);
}

/* Traits by CPU family: AMD family 19h with AVX-512 (Zen 4) runs every
 * 512-bit operation as two 256-bit halves.  The trait does not steer the
 * selection of entries (docs/architecture.md, "Selection per CPU family":
 * the 512-bit AES and GHASH entries are faster there too); entries read it
 * for width choices inside themselves that were measured on Zen 4
 * (Poly1305's four-lane range in poly1305_x86_ifma.c).  Intel parts and
 * AMD family 1Ah (Zen 5, full 512-bit data paths) get no trait. */
static uint64_t detect_traits(const char vendor[13], uint64_t f)
{
    uint32_t r[4];
    if (!(f & IC_F(IC_CPU_AVX512F)) || strcmp(vendor, "AuthenticAMD") != 0)
        return 0;
    cpuid(1, 0, r);
    uint32_t family = (r[0] >> 8) & 0xf;
    if (family == 0xf)
        family += (r[0] >> 20) & 0xff;
    return family == 0x19 ? IC_F(IC_CPU_PREFER_YMM) : 0;
}

uint64_t ic_cpu_detect_arch(char *model, size_t modelcap)
{
    uint32_t r[4];
    char vendor[13];
    cpuid(0, 0, r);
    memcpy(vendor, &r[1], 4);
    memcpy(vendor + 4, &r[3], 4);
    memcpy(vendor + 8, &r[2], 4);
    vendor[12] = 0;
    brand(model, modelcap);
    uint64_t f = detect_leaf1_7(r[0]) | detect_padlock(vendor);
    return f | detect_traits(vendor, f);
}

#if defined(__x86_64__) || defined(_M_X64)
const char *ic_cpu_arch(void) { return "x86-64"; }
#else
const char *ic_cpu_arch(void) { return "x86"; }
#endif
#endif
