/*
 * cpu.c - the feature set the library selects implementations from:
 * what the architecture detector found, minus a mask taken from INCORE_CPU
 * (or ic_cpu_set_mask()), in the spirit of OpenSSL's OPENSSL_ia32cap.
 *
 * INCORE_CPU syntax (comma separated, case sensitive):
 *   none            portable code only
 *   all             no mask (the default)
 *   -vaes,-avx512f  everything detected except these
 *   aesni,pclmul    only these (and only if detected)
 *   +padlock-ace    force a feature on although detection did not find it:
 *                   a testing aid, as OPENSSL_ia32cap's set bits are, for
 *                   running backends under an instruction model or an
 *                   emulator (tests/padlock_model/); on a real CPU without
 *                   the feature the forced code faults (SIGILL).  A forced
 *                   feature is also kept by any "only" list.
 * A name the library does not know makes the whole setting invalid: it is
 * reported on stderr and by ic_env_error(), and no mask is applied, so a
 * typo never silently tests the wrong backend.
 */
#include "core/internal.h"
#include "core/registry.h"
#include <stdio.h>
#include <stdlib.h>

static const char *const feature_names[IC_CPU_NBITS] = {
    [IC_CPU_SSSE3] = "ssse3", [IC_CPU_SSE42] = "sse4.2", [IC_CPU_AESNI] = "aesni",
    [IC_CPU_PCLMUL] = "pclmul", [IC_CPU_AVX] = "avx", [IC_CPU_AVX2] = "avx2",
    [IC_CPU_BMI2] = "bmi2", [IC_CPU_ADX] = "adx", [IC_CPU_SHANI] = "sha-ni",
    [IC_CPU_AVX512F] = "avx512f", [IC_CPU_AVX512VL] = "avx512vl",
    [IC_CPU_AVX512BW] = "avx512bw", [IC_CPU_AVX512IFMA] = "avx512ifma",
    [IC_CPU_VAES] = "vaes", [IC_CPU_VPCLMUL] = "vpclmul", [IC_CPU_GFNI] = "gfni",
    [IC_CPU_RDRAND] = "rdrand", [IC_CPU_RDSEED] = "rdseed",
    [IC_CPU_PADLOCK_RNG] = "padlock-rng", [IC_CPU_PADLOCK_ACE] = "padlock-ace",
    [IC_CPU_PADLOCK_ACE2] = "padlock-ace2", [IC_CPU_PADLOCK_PHE] = "padlock-phe",
    [IC_CPU_PADLOCK_PMM] = "padlock-pmm",
    [IC_CPU_NEON] = "neon", [IC_CPU_ARM_AES] = "aes", [IC_CPU_ARM_PMULL] = "pmull",
    [IC_CPU_ARM_SHA1] = "sha1", [IC_CPU_ARM_SHA2] = "sha2", [IC_CPU_ARM_SHA512] = "sha512",
    [IC_CPU_ARM_CRC32] = "crc32", [IC_CPU_ARM_RNG] = "rng",
    [IC_CPU_PPC_ALTIVEC] = "altivec", [IC_CPU_PPC_VSX] = "vsx",
    [IC_CPU_PPC_ARCH207] = "arch2.07", [IC_CPU_PPC_VCRYPTO] = "vcrypto",
    [IC_CPU_PPC_ARCH300] = "arch3.00", [IC_CPU_PPC_DARN] = "darn",
    [IC_CPU_PREFER_YMM] = "prefer-ymm",
    [IC_CPU_PADLOCK_PHE_PARTIAL] = "padlock-phe-partial",
};

const char *ic_cpu_feature_name(unsigned bit)
{
    return bit < IC_CPU_NBITS ? feature_names[bit] : NULL;
}

static int feature_by_name(const char *s, size_t n)
{
    for (int i = 0; i < IC_CPU_NBITS; i++)
        if (strlen(feature_names[i]) == n && strncmp(feature_names[i], s, n) == 0)
            return i;
    return -1;
}

int ic_cpu_parse_force(uint64_t *keep, uint64_t *force, const char *spec)
{
    uint64_t only = 0, drop = 0, plus = 0;
    int have_only = 0;
    if (!spec || !keep || !force)
        return IC_ERR_NULL;
    if (strcmp(spec, "none") == 0) {
        *keep = 0;
        *force = 0;
        return IC_OK;
    }
    if (strcmp(spec, "all") == 0 || *spec == 0) {
        *keep = ~UINT64_C(0);
        *force = 0;
        return IC_OK;
    }
    for (const char *p = spec; *p;) {
        size_t n = strcspn(p, ",");
        int neg = *p == '-', pos = *p == '+';
        int bit = feature_by_name(p + (neg | pos), n - (size_t)(neg | pos));
        if (bit < 0)
            return IC_ERR_SYNTAX;
        if (neg) {
            drop |= IC_F(bit);
        } else if (pos) {
            plus |= IC_F(bit);
        } else {
            only |= IC_F(bit);
            have_only = 1;
        }
        p += n;
        if (*p == ',' && *++p == 0)
            return IC_ERR_SYNTAX; /* trailing comma */
    }
    *keep = ((have_only ? only : ~UINT64_C(0)) & ~drop) | plus;
    *force = plus;
    return IC_OK;
}

int ic_cpu_parse(uint64_t *keep, const char *spec)
{
    uint64_t force;
    return ic_cpu_parse_force(keep, &force, spec);
}

/* Build the "unknown feature" message with the list of valid names. */
static void report_bad_cpu_env(const char *spec)
{
    char msg[1024];
    size_t n = (size_t)snprintf(msg, sizeof msg,
                                "INCORE_CPU=\"%s\" is not valid (ignored); use none, all, or a comma "
                                "list of features, each optionally prefixed by - to drop it or + to force it on:", spec);
    for (int i = 0; i < IC_CPU_NBITS && n < sizeof msg; i++)
        n += (size_t)snprintf(msg + n, sizeof msg - n, " %s", feature_names[i]);
    ic_env_report(msg);
}

/* Called once by the registry's initialisation. */
void ic_cpu_init(ic_cpu_state *st)
{
    st->detected = ic_cpu_detect_arch(st->model, sizeof st->model);
    st->keep = ~UINT64_C(0);
    st->forced = 0;
    const char *env = getenv("INCORE_CPU");
    if (env && ic_cpu_parse_force(&st->keep, &st->forced, env) != IC_OK) {
        st->keep = ~UINT64_C(0);
        st->forced = 0;
        report_bad_cpu_env(env);
    }
    /* forced features count as detected: selection, ic_cpu_features() and
     * `incore info` see them; ic_cpu_forced() says which they are */
    st->detected |= st->forced;
#if defined(__x86_64__) || defined(__i386__)   /* as sha_x86_padlock.c */
    /* PHE's block form has no CPUID bit: it is detected by running it on a
     * known input (sha_x86_padlock.c), which needs the PHE unit itself -
     * usable here, found by CPUID or forced, and not masked off.  The
     * probe's result counts as detected, so the mask applies to it as to
     * any feature (INCORE_CPU=-padlock-phe-partial). */
    uint64_t phe = IC_F(IC_CPU_PADLOCK_PHE), partial = IC_F(IC_CPU_PADLOCK_PHE_PARTIAL);
    if ((st->detected & st->keep & phe) && !(st->detected & partial) &&
        ic_padlock_phe_partial_probe())
        st->detected |= partial;
#endif
}
