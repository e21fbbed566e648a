/*
 * cpu_padlock.c - VIA / Centaur / Zhaoxin PadLock detection as a pure
 * function of CPUID values, so it is tested on every machine (tests/
 * test_padlock_detect.c feeds it leaf dumps of real CPUs) while cpu_x86.c
 * only executes CPUID and passes the registers on.
 *
 * VIA PadLock Programming Guide, chapter 1,
 * "CPUID": if leaf 0xC0000000 returns EAX >= 0xC0000001, leaf 0xC0000001
 * EDX holds a "present" and an "enabled" bit per unit:
 *   RNG  2 / 3     ACE  6 / 7     ACE2  8 / 9
 *   PHE 10 / 11    PMM 12 / 13
 * A unit that is present but disabled (MSR 0x1107 bit 28, or MSR 0x110B bit
 * 6 for the RNG) raises #UD on its instructions, so a feature counts only
 * when both bits are set.  The Centaur leaves are only meaningful on the
 * vendors that define them: "CentaurHauls" (VIA) and "  Shanghai  "
 * (Zhaoxin, whose CPUs carry PadLock on).  Other vendors may return garbage
 * in that range (Intel repeats its highest basic leaf).
 *
 * The guide's third condition ("Enabling PadLock"): the PadLock units sit
 * in the SSE datapath, and without CR4[9] (the OS enables FXSAVE/FXRSTOR,
 * and so SSE) every unit behaves as disabled, whatever the enable bits
 * say.  User code cannot read CR4: a unit counts only on a CPU with FXSR
 * and SSE (leaf 1 EDX bits 24, 25), which every OS that supports SSE runs
 * with CR4[9] set (x86-64 always; Linux on 32-bit x86 whenever the CPU has
 * FXSR; the auxiliary vector of a 32-bit process on a 64-bit kernel does
 * not carry leaf 1 EDX, so it cannot tell more).
 *
 * The guide's table of PadLock CPUs (all family 6, type 0, CentaurHauls):
 * Nehemiah C5XL (stepping 3) RNG; Nehemiah C5P (steppings 8-F) RNG and
 * ACE; Esther C5J (steppings 8-F) RNG, ACE2, PHE, PMM, with EDX[9:8] a
 * copy of EDX[7:6] ("ACE2 includes all original ACE capability").  The
 * Centaur leaf says exactly that on each, so detection reads the leaf and
 * no model or stepping: the stepping-specific behaviour the guide lists is
 * no feature difference - C5XL has no FCR (MSR 0x1107: kernel business),
 * Nehemiah has no ALIGN control-word bit (aes_x86_padlock.c never sets it),
 * the RNG MSR's count fields differ (rand_x86_xstore.c does not read them),
 * and Esther stepping 8's REP XCRYPTCTR errata is checked for on every CPU
 * (aes_x86_padlock.c, CTR).  VIA's later Nano (and Zhaoxin's CPUs) keep
 * the same bits for the same five units.
 */
#include "core/internal.h"

int ic_cpu_padlock_vendor(const char vendor[12])
{
    return memcmp(vendor, "CentaurHauls", 12) == 0 || memcmp(vendor, "  Shanghai  ", 12) == 0;
}

uint64_t ic_cpu_padlock_features(const char vendor[12], uint32_t edx_1, uint32_t max_c0, uint32_t edx_c1)
{
    static const struct { uint8_t bit; uint8_t feat; } units[] = {
        {2, IC_CPU_PADLOCK_RNG}, {6, IC_CPU_PADLOCK_ACE}, {8, IC_CPU_PADLOCK_ACE2},
        {10, IC_CPU_PADLOCK_PHE}, {12, IC_CPU_PADLOCK_PMM},
    };
    uint64_t f = 0;
    if (!ic_cpu_padlock_vendor(vendor))
        return 0;
    /* "EAX >= 0xC0000001": below 0xC0000000 the range is not implemented
     * at all (the CPU answered for another leaf). */
    if (max_c0 < 0xC0000001u || max_c0 > 0xC00000FFu)
        return 0;
    if (((edx_1 >> 24) & 3u) != 3u)   /* FXSR and SSE: CR4[9], the guide's condition 3 */
        return 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (((edx_c1 >> units[i].bit) & 3u) == 3u)   /* present and enabled */
            f |= IC_F(units[i].feat);
    return f;
}
