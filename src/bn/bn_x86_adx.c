/*
 * bn_x86_adx.c - Montgomery multiplication with MULX, ADCX and ADOX
 * (BMI2 + ADX; built with -mbmi2 -madx, cmake/backend_flags.cmake).
 *
 * The same CIOS steps as bn_port.c, but each row a[i] * b (and m * n) is
 * added with two independent carry chains: the low halves of the MULX
 * products into limb j on one chain, the high halves into limb j + 1 on
 * the other, which is what ADCX (carry flag) and ADOX (overflow flag) let
 * the CPU run side by side (Gopal et al., "Fast and constant-time
 * implementation of modular exponentiation", Intel 2012, and Intel's
 * "New instructions supporting large integer arithmetic" white paper).
 * The reduction row writes limb j to j - 1, so t is shifted for free.
 */
#include "bn/bn_impl.h"
#include "core/ct.h"

#if defined(IC_BN_HAVE_ADX)
#include <immintrin.h>

typedef unsigned long long ull;

/* *r = a + b + c, returns the carry out.  MemorySanitizer has no rule for
 * the add-with-carry intrinsic and checks its operands strictly, so its
 * build (the ct_msan leg, IC_MSAN: core/ct.h) gets the same sum in plain
 * C; the data flow it checks is the same. */
static inline unsigned char adc(unsigned char c, ull a, ull b, ull *r)
{
#if defined(IC_MSAN)
    unsigned __int128 s = (unsigned __int128)a + b + c;
    *r = (ull)s;
    return (unsigned char)(s >> 64);
#else
    return _addcarryx_u64(c, a, b, r);
#endif
}

static void adx_mul(ic_limb *r, const ic_limb *a, const ic_limb *b,
                    const ic_limb *n, ic_limb n0, size_t nl)
{
    ull t[IC_BN_MAX_LIMBS + 2];
    memset(t, 0, (nl + 1) * sizeof t[0]);
    for (size_t i = 0; i < nl; i++) {
        ull ai = a[i], hi, lo;
        unsigned char c1 = 0, c2 = 0;
        t[nl + 1] = 0;
        /* t += a[i] * b */
        for (size_t j = 0; j < nl; j++) {
            lo = _mulx_u64(ai, b[j], &hi);
            c1 = adc(c1, t[j], lo, &t[j]);
            c2 = adc(c2, t[j + 1], hi, &t[j + 1]);
        }
        c1 = adc(c1, t[nl], 0, &t[nl]);
        t[nl + 1] = (ull)c1 + c2;

        /* t = (t + m * n) / 2^64 with m making the low limb zero */
        ull m = t[0] * (ull)n0, d;
        c1 = c2 = 0;
        lo = _mulx_u64(m, n[0], &hi);
        c1 = adc(c1, t[0], lo, &d);           /* d == 0 */
        c2 = adc(c2, t[1], hi, &t[1]);
        for (size_t j = 1; j < nl; j++) {
            lo = _mulx_u64(m, n[j], &hi);
            c1 = adc(c1, t[j], lo, &t[j - 1]);
            c2 = adc(c2, t[j + 1], hi, &t[j + 1]);
        }
        c1 = adc(c1, t[nl], 0, &t[nl - 1]);
        t[nl] = t[nl + 1] + c1 + c2;
    }
    ic_mont_final_sub(r, (const ic_limb *)t, t[nl], n, nl);
    ic_wipe(t, (nl + 2) * sizeof t[0]);
}

const ic_mont_ops ic_mont_adx_ops = { adx_mul };
#endif
