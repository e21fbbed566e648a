/*
 * test_padlock_detect.c - PadLock detection (src/core/cpu_padlock.c) from
 * the Centaur CPUID leaves of real and documented CPUs, and the "+name"
 * form of INCORE_CPU that forces a feature on.  Pure functions: runs on
 * every architecture.
 *
 * Leaf values and where they come from:
 *  - VIA Nehemiah C5XL (RNG only), C5P (RNG + ACE) and Esther C5J (RNG,
 *    ACE2, PHE, PMM; ACE2's bits 8/9 copy ACE's 6/7): constructed from the
 *    VIA PadLock Programming Guide, chapter 1, "CPUID" and the table of
 *    processors that support PadLock: the guide's bit definitions, not a
 *    capture of real hardware.
 *  - Zhaoxin KH-40000 (family 7 model 0x5b, vendor "  Shanghai  "),
 *    three physical machines: leaf 0xC0000000 EAX = 0xC0000005 and leaf
 *    0xC0000001 EDX = 0x1ec33dff / 0x1ec13dff, and a KVM guest on one of
 *    them: EDX = 0x00003dcc; `cpuid -r` dumps quoted in the notes of
 *    github.com/martins3/martins3.github.io (docs/kernel/cpuinfo/zhaoxin/,
 *    diff of machine "182", and the QEMU cpu model notes).  ACE2 is present
 *    there (bit 8) but not enabled (bit 9 clear): the case the enable bit
 *    exists for.
 *  - VIA Nano (Isaiah): the five units with the guide's bits, constructed
 *    (the guide predates it; Linux's padlock drivers test the same bits).
 * Each dump carries the leaf 1 EDX the OS reports (FXSR bit 24, SSE bit
 * 25: the guide's CR4[9] condition): without both no unit counts.
 */
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "core/internal.h"

#define RNG  IC_F(IC_CPU_PADLOCK_RNG)
#define ACE  IC_F(IC_CPU_PADLOCK_ACE)
#define ACE2 IC_F(IC_CPU_PADLOCK_ACE2)
#define PHE  IC_F(IC_CPU_PADLOCK_PHE)
#define PMM  IC_F(IC_CPU_PADLOCK_PMM)

#define SSE_ON 0x03000000u   /* leaf 1 EDX: FXSR | SSE */

static const struct {
    const char *what, *vendor;
    uint32_t edx_1, max_c0, edx_c1;
    uint64_t want;
} dumps[] = {
    /* the guide's table: family 6, type 0; C5XL stepping 3, the others 8-F */
    {"Nehemiah C5XL (guide: RNG)", "CentaurHauls", SSE_ON, 0xC0000001u, 0x0000000Cu, RNG},
    {"Nehemiah C5P (guide: RNG, ACE)", "CentaurHauls", SSE_ON, 0xC0000001u, 0x000000CCu, RNG | ACE},
    {"Esther C5J (guide: RNG, ACE2, PHE, PMM)", "CentaurHauls", SSE_ON, 0xC0000002u, 0x00003FCCu,
     RNG | ACE | ACE2 | PHE | PMM},
    {"Nano (RNG, ACE2, PHE, PMM)", "CentaurHauls", SSE_ON, 0xC0000002u, 0x00003FCCu,
     RNG | ACE | ACE2 | PHE | PMM},
    {"Esther, OS without CR4[9] (FXSR/SSE cleared: every unit disabled)", "CentaurHauls", 0,
     0xC0000002u, 0x00003FCCu, 0},
    {"Esther, OS reports FXSR but no SSE", "CentaurHauls", 0x01000000u, 0xC0000002u, 0x00003FCCu, 0},
    {"Nehemiah C5P, OS reports SSE but no FXSR", "CentaurHauls", 0x02000000u, 0xC0000001u,
     0x000000CCu, 0},
    {"Esther, BIOS cleared FCR[28] (guide: only RNG stays enabled)", "CentaurHauls",
     SSE_ON, 0xC0000002u, 0x0000154Cu, RNG},
    {"Esther, RNG disabled in MSR 0x110B", "CentaurHauls", SSE_ON, 0xC0000002u, 0x00003FC4u,
     ACE | ACE2 | PHE | PMM},
    {"Zhaoxin KH-40000 host (martins3 notes)", "  Shanghai  ", SSE_ON, 0xC0000005u, 0x1ec33dffu,
     RNG | ACE | PHE | PMM},
    {"Zhaoxin KH-40000 host 182 after update", "  Shanghai  ", SSE_ON, 0xC0000005u, 0x1ec13dffu,
     RNG | ACE | PHE | PMM},
    {"Zhaoxin KH-40000 KVM guest", "  Shanghai  ", SSE_ON, 0xC0000005u, 0x00003dccu,
     RNG | ACE | PHE | PMM},
    {"no Centaur leaves (EAX of 0xC0000000 below 0xC0000001)", "CentaurHauls", SSE_ON, 0xC0000000u,
     0xFFFFFFFFu, 0},
    {"Intel: leaf 0xC0000000 repeats the top basic leaf", "GenuineIntel", SSE_ON, 0x00000D1Fu,
     0x00003FCCu, 0},
    {"AMD: vendor never has PadLock", "AuthenticAMD", SSE_ON, 0xC0000001u, 0x00003FCCu, 0},
};

static void test_dumps(void)
{
    for (size_t i = 0; i < sizeof dumps / sizeof dumps[0]; i++) {
        uint64_t got = ic_cpu_padlock_features(dumps[i].vendor, dumps[i].edx_1, dumps[i].max_c0,
                                               dumps[i].edx_c1);
        CHECK(got == dumps[i].want, "%s: features %#llx, want %#llx", dumps[i].what,
              (unsigned long long)got, (unsigned long long)dumps[i].want);
    }
    /* each present/enabled pair alone: only "11" counts */
    const unsigned bits[] = {2, 6, 8, 10, 12};
    const uint64_t feats[] = {RNG, ACE, ACE2, PHE, PMM};
    for (size_t i = 0; i < 5; i++)
        for (uint32_t pe = 0; pe < 4; pe++) {
            uint64_t got = ic_cpu_padlock_features("CentaurHauls", SSE_ON, 0xC0000001u, pe << bits[i]);
            CHECK(got == (pe == 3 ? feats[i] : 0), "bits %u/%u = %u%u", bits[i], bits[i] + 1,
                  pe >> 1, pe & 1);
        }
}

static void test_force(void)
{
    uint64_t keep = 0, force = 0;
    CHECK(ic_cpu_parse_force(&keep, &force, "+padlock-ace,+padlock-phe") == IC_OK &&
              force == (ACE | PHE) && keep == ~UINT64_C(0),
          "+name forces and keeps everything else");
    CHECK(ic_cpu_parse_force(&keep, &force, "-aesni,-vaes,+padlock-ace") == IC_OK &&
              force == ACE && keep == (~UINT64_C(0) & ~IC_F(IC_CPU_AESNI) & ~IC_F(IC_CPU_VAES)),
          "drops and forces together");
    CHECK(ic_cpu_parse_force(&keep, &force, "sse4.2,+padlock-rng") == IC_OK &&
              force == RNG && keep == (IC_F(IC_CPU_SSE42) | RNG),
          "an only-list keeps the forced feature too");
    CHECK(ic_cpu_parse_force(&keep, &force, "none") == IC_OK && keep == 0 && force == 0, "none");
    CHECK(ic_cpu_parse_force(&keep, &force, "+padlock-bogus") == IC_ERR_SYNTAX, "unknown +name");
    CHECK(ic_cpu_parse_force(&keep, &force, "+") == IC_ERR_SYNTAX, "bare '+'");
    CHECK(ic_cpu_parse_force(&keep, NULL, "+padlock-ace") == IC_ERR_NULL, "NULL force");
    /* the public parser gives the same mask */
    CHECK(ic_cpu_parse(&keep, "+padlock-ace") == IC_OK && keep == ~UINT64_C(0),
          "ic_cpu_parse: +name keeps all");
    /* without INCORE_CPU=+..., nothing is forced in this process */
    const char *env = getenv("INCORE_CPU");
    if (!env || !strchr(env, '+'))
        CHECK(ic_cpu_forced() == 0, "nothing forced without +name");
    else
        CHECK((ic_cpu_forced() & ic_cpu_detected()) == ic_cpu_forced(), "forced counts as detected");
}

int main(void)
{
    test_dumps();
    test_force();
    return tl_finish();
}
