/*
 * bn_x86_padlock.c - Montgomery multiplication on the VIA PadLock
 * Montgomery Multiplier (PMM): the "padlock" entry of ic_impls_montmul
 * (x86-64 and 32-bit x86, CPUs whose CPUID leaf 0xC0000001 EDX has PMM present and
 * enabled, bits 12/13).  Everything follows the VIA PadLock Programming
 * Guide, chapter 5 "REP MONTMUL" and its sample
 * programs MMTEST.C and MM.C (6.4, 6.5); no compiler knows the
 * instruction, so it is one inline-assembly statement.
 *
 * REP MONTMUL (F3 0F A6 C0) computes T = A B 2^-ECX mod M up to one extra
 * M (T < 2M), ECX the operand size in bits (256..32768, a multiple of
 * 128), EAX = 0 at the start, ESI a context of mZeroPrime (-M^-1 mod
 * 2^32) and pointers to A, B, T, M and a 32-byte scratch area, all of them
 * 16-byte aligned.  Every big integer is the guide's bigint: ECX bits plus
 * 128 bits (VALUE[MAX_WORDS+4]); T must be all zero at the start and its
 * extra 128 bits take the overflow of the partial product.  The context
 * is the guide's struct as the compiler lays it out: in 32-bit code the
 * guide's own (mZeroPrime, then five 32-bit pointers from offset 4); in
 * 64-bit mode mZeroPrime, then five 64-bit pointers from offset 8 (the
 * guide only shows 32-bit code, so that is this file's, and the model's,
 * reading).  The limbs are the build's ic_limb (64 bits, or 32 in a build
 * without unsigned __int128, such as 32-bit x86): the engine sees only
 * little-endian bytes.
 *
 * Operand size and constant time.  The instruction's time depends on the
 * data in one way (5.2, "Why is K_1 indeterminate?"): once the partial
 * product overflows ECX bits, every further outer pass takes an extra
 * inner-loop step.  With A, B < M and M < 2^(ECX-1) the partial product
 * stays below M + B < 2^ECX, so that never happens; hence ECX here is
 * always at least one bit wider than the limbs of the modulus (nl limbs
 * of L bits: ECX = L nl rounded up to a multiple of 128 above it, at least
 * 256), and R = 2^ECX for this backend (rbits; bignum.c computes R^2 mod n
 * for it).  For 2048-bit moduli that is ECX = 2176 (about 13% more work
 * than 2048, the guide's 4 N^2 term).  What remains depends on the
 * operand size and on the buffers' addresses (the carry store that
 * crosses a cache line, 5.2), both public.  The final subtraction of M is
 * done here with masks (ic_mont_final_sub), not with MMTEST.C's branch.
 *
 * The operands are copied into zero-padded, aligned buffers on the stack
 * (r may be a or b, and the caller's limbs are neither aligned nor padded);
 * the buffers are wiped afterwards.  An interrupted REP MONTMUL restarts
 * by itself from the state in EAX and the partial product in T (5.1
 * "REP MONTMUL State"), so nothing is needed for that here.
 */
#include "bn/bn_impl.h"

#if defined(IC_BN_HAVE_PADLOCK)
#include <stddef.h>

/* ECX of the instruction and R = 2^ECX for nl limbs (see above). */
static size_t pmm_bits(size_t nl)
{
    size_t bits = (IC_LIMB_BITS * nl + 128) & ~(size_t)127;   /* > L nl, multiple of 128 */
    return bits < 256 ? 256 : bits;
}

/* Limbs per buffer: the largest ECX (L IC_BN_MAX_LIMBS + 128) plus the
 * bigint's 128 bits. */
#define PMM_LIMBS ((IC_BN_MAX_LIMBS * IC_LIMB_BITS + 256) / IC_LIMB_BITS)

/* The Montgomery context of 5.1. */
typedef struct {
    uint32_t mzeroprime;
    const ic_limb *a, *b;
    ic_limb *t;
    const ic_limb *m;
    uint32_t *scratch;
} pmm_ctx;
_Static_assert(offsetof(pmm_ctx, a) == sizeof(void *) && offsetof(pmm_ctx, scratch) == 5 * sizeof(void *),
               "PMM context: mZeroPrime, then five pointers");

/* REP MONTMUL: ECX bits, EAX 0, ESI the context; ECX and EDX are 0 after,
 * EAX undefined, ESI unchanged. */
static inline void rep_montmul(const pmm_ctx *ctx, uint32_t bits)
{
    unsigned long c = bits, a = 0, d;
    __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, 0xc0"
                         : "+c"(c), "+a"(a), "=d"(d)
                         : "S"(ctx)
                         : "memory", "cc");
    (void)c;
    (void)a;
    (void)d;
}

typedef struct {
    _Alignas(16) ic_limb a[PMM_LIMBS];
    _Alignas(16) ic_limb b[PMM_LIMBS];
    _Alignas(16) ic_limb m[PMM_LIMBS];
    _Alignas(16) ic_limb t[PMM_LIMBS];
    _Alignas(16) uint32_t scratch[8];
} pmm_bufs;

static void padlock_mul(ic_limb *r, const ic_limb *a, const ic_limb *b, const ic_limb *n,
                        ic_limb n0, size_t nl)
{
    const size_t bits = pmm_bits(nl), words = (bits + 128) / IC_LIMB_BITS;   /* with the 128 extra bits */
    const size_t pad = (words - nl) * sizeof(ic_limb);
    pmm_bufs w;
    memcpy(w.a, a, nl * sizeof a[0]);
    memcpy(w.b, b, nl * sizeof b[0]);
    memcpy(w.m, n, nl * sizeof n[0]);
    memset(w.a + nl, 0, pad);
    memset(w.b + nl, 0, pad);
    memset(w.m + nl, 0, pad);
    memset(w.t, 0, words * sizeof w.t[0]);           /* "initially must be all zero" */
    memset(w.scratch, 0, sizeof w.scratch);
    pmm_ctx ctx = { (uint32_t)n0, w.a, w.b, w.t, w.m, w.scratch };  /* -n^-1 mod 2^32 */
    rep_montmul(&ctx, (uint32_t)bits);
    /* T < 2M < 2^(L nl + 1): limbs 0..nl-1 and a top bit in limb nl */
    ic_mont_final_sub(r, w.t, w.t[nl], n, nl);
    ic_wipe(w.a, words * sizeof w.a[0]);
    ic_wipe(w.b, words * sizeof w.b[0]);
    ic_wipe(w.m, words * sizeof w.m[0]);      /* a modulus may be a secret prime */
    ic_wipe(w.t, words * sizeof w.t[0]);
    ic_wipe(w.scratch, sizeof w.scratch);
}

static size_t padlock_rbits(size_t nbits, size_t nl)
{
    (void)nbits;
    return pmm_bits(nl);
}

static const ic_mont_ops padlock_ops = { padlock_mul, NULL, padlock_rbits, 0, NULL };
IC_BACKEND(montmul, padlock, IC_F(IC_CPU_PADLOCK_PMM), &padlock_ops);

#endif /* IC_BN_HAVE_PADLOCK */
