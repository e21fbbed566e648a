/*
 * cpu_arm.c - AArch64 and 32-bit ARM feature detection from the kernel's
 * HWCAP words (Linux arch/arm64/include/uapi/asm/hwcap.h and
 * arch/arm/include/uapi/asm/hwcap.h give the bit numbers used below).
 * On 32-bit ARM the crypto extensions are reported in AT_HWCAP2.
 */
#include "core/internal.h"
#include "core/cpu_linux.h"

#if defined(__aarch64__)
static const struct { int word; unsigned long bit; int feat; } arm_bits[] = {
    {1, 1ul << 1,  IC_CPU_NEON},       /* HWCAP_ASIMD  */
    {1, 1ul << 3,  IC_CPU_ARM_AES},    /* HWCAP_AES    */
    {1, 1ul << 4,  IC_CPU_ARM_PMULL},  /* HWCAP_PMULL  */
    {1, 1ul << 5,  IC_CPU_ARM_SHA1},   /* HWCAP_SHA1   */
    {1, 1ul << 6,  IC_CPU_ARM_SHA2},   /* HWCAP_SHA2   */
    {1, 1ul << 7,  IC_CPU_ARM_CRC32},  /* HWCAP_CRC32  */
    {1, 1ul << 21, IC_CPU_ARM_SHA512}, /* HWCAP_SHA512 */
    {2, 1ul << 16, IC_CPU_ARM_RNG},    /* HWCAP2_RNG   */
};
const char *ic_cpu_arch(void) { return "aarch64"; }
#elif defined(__arm__)
static const struct { int word; unsigned long bit; int feat; } arm_bits[] = {
    {1, 1ul << 12, IC_CPU_NEON},       /* HWCAP_NEON   */
    {2, 1ul << 0,  IC_CPU_ARM_AES},    /* HWCAP2_AES   */
    {2, 1ul << 1,  IC_CPU_ARM_PMULL},  /* HWCAP2_PMULL */
    {2, 1ul << 2,  IC_CPU_ARM_SHA1},   /* HWCAP2_SHA1  */
    {2, 1ul << 3,  IC_CPU_ARM_SHA2},   /* HWCAP2_SHA2  */
    {2, 1ul << 4,  IC_CPU_ARM_CRC32},  /* HWCAP2_CRC32 */
};
const char *ic_cpu_arch(void) { return "arm"; }
#endif

#if defined(__aarch64__) || defined(__arm__)
uint64_t ic_cpu_detect_arch(char *model, size_t modelcap)
{
    static const char *const keys[] = {"model name", "Hardware", "CPU part", NULL};
    unsigned long w[3] = {0, ic_hwcap(1), ic_hwcap(2)};
    uint64_t f = 0;
    for (size_t i = 0; i < sizeof arm_bits / sizeof arm_bits[0]; i++)
        if (w[arm_bits[i].word] & arm_bits[i].bit)
            f |= IC_F(arm_bits[i].feat);
    ic_cpuinfo_model(model, modelcap, keys);
    return f;
}
#endif
