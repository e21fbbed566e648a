/*
 * bn_ppc_p9.c - Montgomery multiplication with the POWER9 multiply-add
 * instructions (Power ISA 3.0B, "Multiply-Add Low Doubleword" maddld and
 * "Multiply-Add High Doubleword Unsigned" maddhdu): the "p9" entry of
 * ic_impls_montmul, chosen when AT_HWCAP2 says ISA 3.00 (cpu_ppc.c); this
 * file alone is compiled for POWER9 (its IC_TARGET_BEGIN).
 *
 * The same CIOS steps as bn_port.c (Koc, Acar and Kaliski 1996).  Each
 * limb step there is x = a b + t + c over 128 bits; GCC (12) compiles it
 * to mulld, mulhdu and two addc/addze pairs, six instructions, even with
 * -mcpu=power9.  maddld/maddhdu give the low and high halves of a b + t
 * directly (a b + t < 2^128 cannot overflow), so the step is four:
 *   maddld lo,a,b,t   maddhdu hi,a,b,t   addc lo,lo,c   addze c,hi
 * The carry chain through c is the same addc/addze as port's, so the
 * multiply-adds (independent of c) stay off the critical path.  The two
 * rows are small asm loops (P9_ROW), as GCC's own loop around the step
 * adds register moves.  The numbers (instructions executed under QEMU per
 * multiplication) are in docs/backends.md.  Constant time as port: no
 * branch or index on data; loops run on nl alone.
 */
#include "core/target.h"

#if defined(__powerpc64__)
IC_TARGET_BEGIN(IC_TARGET_POWER9)
#include "bn/bn_impl.h"

#if defined(IC_BN_HAVE_P9)

/* lo of a b + t + *c, *c = its high limb (a b + t + c < 2^128). */
static inline ic_limb mac(ic_limb a, ic_limb b, ic_limb t, ic_limb *c)
{
    ic_limb lo, hi;
    __asm__("maddld %[lo], %[a], %[b], %[t]\n\t"
            "maddhdu %[hi], %[a], %[b], %[t]\n\t"
            "addc %[lo], %[lo], %[c]\n\t"
            "addze %[c], %[hi]"
            : [lo] "=&r"(lo), [hi] "=&r"(hi), [c] "+r"(*c)
            : [a] "r"(a), [b] "r"(b), [t] "r"(t)
            : "xer");
    return lo;
}

/* One limb step of a row: load v[j] and t[j] (update forms: the pointers
 * advance by 8 first), multiply-add, carry in, store the sum at byte
 * offset "so" from &t[j] (0, or -8 for the reduction row, which shifts t
 * down a limb); eight instructions with the loop branch, port's loop
 * eleven. */
#define P9_ROW(so)                                       \
    "mtctr %[cnt]\n"                                     \
    "1:\n\t"                                             \
    "ldu %[vj], 8(%[pv])\n\t"                            \
    "ldu %[tj], 8(%[pt])\n\t"                            \
    "maddld %[lo], %[x], %[vj], %[tj]\n\t"               \
    "maddhdu %[hi], %[x], %[vj], %[tj]\n\t"              \
    "addc %[lo], %[lo], %[c]\n\t"                        \
    "addze %[c], %[hi]\n\t"                              \
    "std %[lo], " #so "(%[pt])\n\t"                      \
    "bdnz 1b"

/* c = carry of t[j0 + k] (+)= x v[j0 + k] + t[j0 + k] + c for k < cnt
 * (cnt >= 1), pv / pt pointing one limb below v[j0] / t[j0]; the sum goes
 * to t[j0 + k] (so 0) or t[j0 + k - 1] (so -8). */
#define P9_ROW_FN(name, so)                                                            \
    static inline ic_limb name(uintptr_t pt, uintptr_t pv, ic_limb x, ic_limb c,        \
                               size_t cnt)                                             \
    {                                                                                  \
        ic_limb lo, hi, vj, tj;                                                        \
        __asm__ volatile(P9_ROW(so)                                                    \
                         : [c] "+r"(c), [pv] "+b"(pv), [pt] "+b"(pt), [lo] "=&r"(lo),  \
                           [hi] "=&r"(hi), [vj] "=&r"(vj), [tj] "=&r"(tj)              \
                         : [x] "r"(x), [cnt] "r"(cnt)                                  \
                         : "ctr", "xer", "memory");                                    \
        return c;                                                                      \
    }
P9_ROW_FN(row_mac, 0)      /* t[j] = x v[j] + t[j] + c */
P9_ROW_FN(row_red, -8)     /* t[j - 1] = x v[j] + t[j] + c */

static void p9_mul(ic_limb *r, const ic_limb *a, const ic_limb *b, const ic_limb *n, ic_limb n0,
                   size_t nl)
{
    ic_limb t[IC_BN_MAX_LIMBS + 2];
    const uintptr_t tp = (uintptr_t)t - 8;
    memset(t, 0, (nl + 2) * sizeof t[0]);
    for (size_t i = 0; i < nl; i++) {
        ic_limb c = row_mac(tp, (uintptr_t)b - 8, a[i], 0, nl);
        ic_dlimb x = (ic_dlimb)t[nl] + c;
        t[nl] = (ic_limb)x;
        t[nl + 1] = (ic_limb)(x >> IC_LIMB_BITS);

        /* m makes limb 0 zero; limbs 1.. are written to j - 1 */
        ic_limb m = t[0] * n0;
        c = 0;
        (void)mac(m, n[0], t[0], &c);
        if (nl > 1)
            c = row_red((uintptr_t)t, (uintptr_t)n, m, c, nl - 1);
        x = (ic_dlimb)t[nl] + c;
        t[nl - 1] = (ic_limb)x;
        t[nl] = t[nl + 1] + (ic_limb)(x >> IC_LIMB_BITS);
    }
    ic_mont_final_sub(r, t, t[nl], n, nl);
    ic_wipe(t, (nl + 2) * sizeof t[0]);
}

static const ic_mont_ops p9_ops = { p9_mul, NULL, NULL, 0, NULL };
IC_BACKEND(montmul, p9, IC_F(IC_CPU_PPC_ARCH300), &p9_ops);

#endif /* IC_BN_HAVE_P9 */
IC_TARGET_END
#endif
