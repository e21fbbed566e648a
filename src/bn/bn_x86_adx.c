/*
 * bn_x86_adx.c - Montgomery multiplication with MULX, ADCX and ADOX
 * (BMI2 + ADX, the target of this file).
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
#include "core/target.h"

#if defined(__x86_64__)
IC_TARGET_BEGIN("bmi2,adx")
#include "bn/bn_impl.h"
#include "core/ct.h"

#if defined(IC_BN_HAVE_ADX)
#include <immintrin.h>

typedef unsigned long long ull;

#if defined(IC_MSAN)
/* *r = a + b + c, returns the carry out, for the MemorySanitizer build
 * (the ct_msan leg, IC_MSAN: core/ct.h), the only one that uses the C rows
 * at the end of this file: MSan has no rule for the add-with-carry
 * intrinsic and checks its operands strictly, so the sum is plain C; the
 * data flow it checks is the same. */
static inline unsigned char adc(unsigned char c, ull a, ull b, ull *r)
{
    unsigned __int128 s = (unsigned __int128)a + b + c;
    *r = (ull)s;
    return (unsigned char)(s >> 64);
}
#endif

#if !defined(IC_MSAN)
/* One limb j of a row: MULX x * v[j] (x in RDX), the low half through
 * ADCX onto limb j of t, the previous limb's high half (in prev) through
 * ADOX, the sum stored at byte offset so from t (0, or -8 for a row that
 * shifts t down a limb). */
#define ADX_STEP(o, so, hi, prev)                          \
    "mulx " #o "(%[vp]), %[lo], %[" #hi "]\n\t"          \
    "adcx " #o "(%[tp]), %[lo]\n\t"                      \
    "adox %[" #prev "], %[lo]\n\t"                       \
    "mov %[lo], " #so "(%[tp])\n\t"
/* Four limbs, the high halves alternating between A and B. */
#define ADX_ROW4(s0, s1, s2, s3) \
    ADX_STEP(0, s0, A, B) ADX_STEP(8, s1, B, A) ADX_STEP(16, s2, A, B) ADX_STEP(24, s3, B, A)

/* The passes of four limbs of a row: a loop counting nl down in RCX (LEA
 * and JRCXZ leave CF and OF alone), or for the sizes of RSA's moduli and
 * CRT halves (16, 32, 48 and 64 limbs) the same block written out that
 * many times by the assembler (.rept), which spares the loop's counter and
 * branch in every pass (about 10 % of a row on Zen 3).  ROWS4(n) picks one
 * for nl, which is public: BODY is a macro of the loop head and tail. */
#define LOOP_HEAD "1:\n\t"
#define LOOP_TAIL "lea -4(%[cnt]), %[cnt]\n\tjrcxz 2f\n\tjmp 1b\n2:\n\t"
#define REPT_HEAD(q) ".rept " #q "\n\t"
#define REPT_TAIL ".endr\n\t"
#define ROWS4(nl, BODY)                                            \
    switch (nl) {                                                  \
    case 16: BODY(REPT_HEAD(4), REPT_TAIL); break;                 \
    case 32: BODY(REPT_HEAD(8), REPT_TAIL); break;                 \
    case 48: BODY(REPT_HEAD(12), REPT_TAIL); break;                \
    case 64: BODY(REPT_HEAD(16), REPT_TAIL); break;                \
    default: BODY(LOOP_HEAD, LOOP_TAIL); break;                    \
    }

/* The CIOS rows for nl a multiple of 4 (every RSA size), four limbs per
 * pass.  row_mac4: t[0..nl+1] += x * v[0..nl-1], t[nl+1] 0 on entry.
 * MULX; the low half through ADCX into t[j], the previous high half
 * through ADOX; the high halves alternate between two registers, so no
 * move carries them; the loop steps with LEA and JRCXZ, which leave CF
 * and OF alone. */
static inline void row_mac4(ull *t, ull x, const ull *v, size_t nl)
{
    ull lo, A, B;
#define ROW_MAC4(HEAD, TAIL)                                                  \
    __asm__ volatile(                                                         \
        "xor %k[B], %k[B]\n\t"                                               \
        HEAD                                                                  \
        ADX_ROW4(0, 8, 16, 24)                                                \
        "lea 32(%[vp]), %[vp]\n\t"                                           \
        "lea 32(%[tp]), %[tp]\n\t"                                           \
        TAIL                                                                  \
        "mov $0, %k[A]\n\t"                  /* t[nl] += B + CF + OF */      \
        "mov (%[tp]), %[lo]\n\t"                                             \
        "adcx %[B], %[lo]\n\t"                                               \
        "adox %[A], %[lo]\n\t"                                               \
        "mov %[lo], (%[tp])\n\t"                                             \
        "mov $0, %k[lo]\n\t"                                                 \
        "adcx %[A], %[lo]\n\t"                                               \
        "adox %[A], %[lo]\n\t"                                               \
        "mov %[lo], 8(%[tp])\n\t"                                            \
        : [tp] "+&r"(t), [vp] "+&r"(v), [cnt] "+&c"(nl), [lo] "=&r"(lo), [A] "=&r"(A), [B] "=&r"(B) \
        : "d"(x)                                                              \
        : "cc", "memory")
    ROWS4(nl, ROW_MAC4)
#undef ROW_MAC4
}

/* row_red4: t = (t + m * n) / 2^64 over t[0..nl+1], storing limb j at
 * j - 1 (t[-1] takes the zero low limb, so t must have a limb before it). */
static inline void row_red4(ull *t, ull m, const ull *n, size_t nl)
{
    ull lo, A, B;
#define ROW_RED4(HEAD, TAIL)                                                  \
    __asm__ volatile(                                                         \
        "xor %k[B], %k[B]\n\t"                                               \
        HEAD                                                                  \
        ADX_ROW4(-8, 0, 8, 16)                                                \
        "lea 32(%[vp]), %[vp]\n\t"                                           \
        "lea 32(%[tp]), %[tp]\n\t"                                           \
        TAIL                                                                  \
        "mov $0, %k[A]\n\t"                                                  \
        "mov (%[tp]), %[lo]\n\t"                                             \
        "adcx %[B], %[lo]\n\t"                                               \
        "adox %[A], %[lo]\n\t"                                               \
        "mov %[lo], -8(%[tp])\n\t"                                           \
        "mov 8(%[tp]), %[lo]\n\t"                                            \
        "adcx %[A], %[lo]\n\t"                                               \
        "adox %[A], %[lo]\n\t"                                               \
        "mov %[lo], (%[tp])\n\t"                                             \
        : [tp] "+&r"(t), [vp] "+&r"(n), [cnt] "+&c"(nl), [lo] "=&r"(lo), [A] "=&r"(A), [B] "=&r"(B) \
        : "d"(m)                                                              \
        : "cc", "memory")
    ROWS4(nl, ROW_RED4)
#undef ROW_RED4
}

/* t[0..len-1] += x * v[0..len-1], returning the limb that carries out of
 * the top (the sum is below 2^(64 (len + 1)), so it fits); any len >= 1:
 * len mod 4 single steps first, then four limbs per pass.  For the
 * squaring, whose rows have every length. */
static inline ull row_mac_ret(ull *t, ull x, const ull *v, size_t len)
{
    ull lo, A, B;
    size_t rem = len & 3, quads = len >> 2;
    __asm__ volatile(
        "xor %k[B], %k[B]\n\t"
        "1:\n\t"
        "jrcxz 3f\n\t"
        "mulx (%[vp]), %[lo], %[A]\n\t"
        "adcx (%[tp]), %[lo]\n\t"
        "adox %[B], %[lo]\n\t"
        "mov %[lo], (%[tp])\n\t"
        "mov %[A], %[B]\n\t"
        "lea 8(%[vp]), %[vp]\n\t"
        "lea 8(%[tp]), %[tp]\n\t"
        "lea -1(%[cnt]), %[cnt]\n\t"
        "jmp 1b\n"
        "3:\n\t"
        "mov %[quads], %[cnt]\n\t"             /* MOV leaves the flags */
        "4:\n\t"
        "jrcxz 2f\n\t"
        ADX_ROW4(0, 8, 16, 24)
        "lea 32(%[vp]), %[vp]\n\t"
        "lea 32(%[tp]), %[tp]\n\t"
        "lea -1(%[cnt]), %[cnt]\n\t"
        "jmp 4b\n"
        "2:\n\t"                               /* carry out = B + CF + OF */
        "mov $0, %k[A]\n\t"
        "adcx %[A], %[B]\n\t"
        "adox %[A], %[B]\n\t"
        : [tp] "+&r"(t), [vp] "+&r"(v), [cnt] "+&c"(rem), [lo] "=&r"(lo), [A] "=&r"(A), [B] "=&r"(B)
        : "d"(x), [quads] "r"(quads)
        : "cc", "memory");
    return B;
}

/* The cross products of the squaring for a fixed nl (16 and 32: the
 * CRT halves of RSA-2048 and RSA-4096, and 2048-bit moduli): rows
 * T[2i+1 ..] += a[i] a[i+1 .. nl-1], each carry limb stored at T[i+nl],
 * i = 0 .. nl-2, written out by the assembler with no branch at all: the
 * row length L (a symbol of the assembly, counted down by .set) picks
 * L mod 4 single steps and L / 4 four-limb blocks.  row_mac_ret's loop
 * and branches per row cost about a tenth of a squaring at 16 limbs.
 * T zero on entry over T[1 .. 2nl-2]. */
#define SQR_TRI_ASM(NL)                                                       \
    __asm__ volatile(                                                         \
        ".set ic_adx_L, " #NL " - 1\n\t"                                      \
        ".rept " #NL " - 1\n\t"                                               \
        "mov (%[vp]), %%rdx\n\t"             /* rdx = a[i], vp = a + i + 1 */ \
        "lea 8(%[vp]), %[vp]\n\t"                                            \
        "xor %k[B], %k[B]\n\t"                                               \
        ".rept ic_adx_L %% 4\n\t"                                              \
        "mulx (%[vp]), %[lo], %[A]\n\t"                                      \
        "adcx (%[tp]), %[lo]\n\t"                                            \
        "adox %[B], %[lo]\n\t"                                               \
        "mov %[lo], (%[tp])\n\t"                                             \
        "mov %[A], %[B]\n\t"                                                 \
        "lea 8(%[vp]), %[vp]\n\t"                                            \
        "lea 8(%[tp]), %[tp]\n\t"                                            \
        ".endr\n\t"                                                           \
        ".rept ic_adx_L / 4\n\t"                                              \
        ADX_ROW4(0, 8, 16, 24)                                                \
        "lea 32(%[vp]), %[vp]\n\t"                                           \
        "lea 32(%[tp]), %[tp]\n\t"                                           \
        ".endr\n\t"                                                           \
        "mov $0, %k[A]\n\t"                  /* T[i+nl] = B + CF + OF */     \
        "adcx %[A], %[B]\n\t"                                                \
        "adox %[A], %[B]\n\t"                                                \
        "mov %[B], (%[tp])\n\t"                                              \
        "lea (16 - 8 * ic_adx_L)(%[tp]), %[tp]\n\t"   /* T + 2 (i+1) + 1 */  \
        "lea (-8 * ic_adx_L)(%[vp]), %[vp]\n\t"       /* a + i + 1 */        \
        ".set ic_adx_L, ic_adx_L - 1\n\t"                                     \
        ".endr\n\t"                                                           \
        : [tp] "+&r"(tp), [vp] "+&r"(vp), [lo] "=&r"(lo), [A] "=&r"(A), [B] "=&r"(B) \
        :                                                                     \
        : "rdx", "cc", "memory")

static void sqr_tri_fixed(ull *T, const ull *a, size_t nl)
{
    ull *tp = T + 1, lo, A, B;
    const ull *vp = a;
    if (nl == 16)
        SQR_TRI_ASM(16);
    else
        SQR_TRI_ASM(32);
}

/* T[k..k+nl] += x * n, nl a multiple of 4, then the row's top limb (its
 * carry out, B + CF + OF, below 2^64 by the sizes) and cin (0 or 1) added
 * into T[k+nl]; returns that addition's carry out (0 or 1).  The SOS
 * reduction's row: t points at T[k]. */
static inline ull row_red_sos4(ull *t, ull x, const ull *v, size_t nl, ull cin)
{
    ull lo, A, B;
#define ROW_SOS4(HEAD, TAIL)                                                  \
    __asm__ volatile(                                                         \
        "xor %k[B], %k[B]\n\t"                                               \
        HEAD                                                                  \
        ADX_ROW4(0, 8, 16, 24)                                                \
        "lea 32(%[vp]), %[vp]\n\t"                                           \
        "lea 32(%[tp]), %[tp]\n\t"                                           \
        TAIL                                                                  \
        "mov $0, %k[A]\n\t"                                                  \
        "adcx %[A], %[B]\n\t"                                                \
        "adox %[A], %[B]\n\t"               /* B: the row's carry limb */   \
        "add %[cin], %[B]\n\t"                                               \
        "adc $0, %k[A]\n\t"                                                  \
        "add %[B], (%[tp])\n\t"                                              \
        "adc $0, %k[A]\n\t"                  /* at most one of the two */    \
        : [tp] "+&r"(t), [vp] "+&r"(v), [cnt] "+&c"(nl), [lo] "=&r"(lo), [A] "=&r"(A), [B] "=&r"(B) \
        : "d"(x), [cin] "r"(cin)                                              \
        : "cc", "memory")
    ROWS4(nl, ROW_SOS4)
#undef ROW_SOS4
    return A;
}

/* T[0..2nl-1] = 2 T + sum a[j]^2 2^(128 j): the doubling (ADCX of each
 * limb onto itself, the carry chain shifting the bits up) and the squares
 * of the diagonal (ADOX) in one pass, two limbs per a[j]. */
#define DIAG_STEP(ao, to)                                                     \
    "mov " #ao "(%[ap]), %%rdx\n\t"                                          \
    "mulx %%rdx, %[lo], %[hi]\n\t"                                           \
    "mov " #to "(%[tp]), %[x0]\n\t"                                          \
    "mov " #to "+8(%[tp]), %[x1]\n\t"                                        \
    "adcx %[x0], %[x0]\n\t"                                                  \
    "adcx %[x1], %[x1]\n\t"                                                  \
    "adox %[lo], %[x0]\n\t"                                                  \
    "adox %[hi], %[x1]\n\t"                                                  \
    "mov %[x0], " #to "(%[tp])\n\t"                                          \
    "mov %[x1], " #to "+8(%[tp])\n\t"
static inline void sqr_diag(ull *T, const ull *a, size_t nl)
{
    ull lo, hi, x0, x1;
    if (nl % 4 == 0) {                          /* nl is public: four limbs of a a pass */
#define SQR_DIAG4(HEAD, TAIL)                                                 \
    __asm__ volatile(                                                         \
        "xor %k[lo], %k[lo]\n\t"                                             \
        HEAD                                                                  \
        DIAG_STEP(0, 0) DIAG_STEP(8, 16) DIAG_STEP(16, 32) DIAG_STEP(24, 48)  \
        "lea 32(%[ap]), %[ap]\n\t"                                           \
        "lea 64(%[tp]), %[tp]\n\t"                                           \
        TAIL                                                                  \
        : [tp] "+&r"(T), [ap] "+&r"(a), [cnt] "+&c"(nl), [lo] "=&r"(lo), [hi] "=&r"(hi), \
          [x0] "=&r"(x0), [x1] "=&r"(x1)                                      \
        :                                                                     \
        : "rdx", "cc", "memory")
        ROWS4(nl, SQR_DIAG4)
#undef SQR_DIAG4
        return;
    }
    __asm__ volatile(
        "xor %k[lo], %k[lo]\n\t"
        "1:\n\t"
        DIAG_STEP(0, 0)
        "lea 8(%[ap]), %[ap]\n\t"
        "lea 16(%[tp]), %[tp]\n\t"
        "lea -1(%[cnt]), %[cnt]\n\t"
        "jrcxz 2f\n\t"
        "jmp 1b\n"
        "2:\n\t"
        : [tp] "+&r"(T), [ap] "+&r"(a), [cnt] "+&c"(nl), [lo] "=&r"(lo), [hi] "=&r"(hi),
          [x0] "=&r"(x0), [x1] "=&r"(x1)
        :
        : "rdx", "cc", "memory");
}
#undef DIAG_STEP

/* r = t - n when t (nl limbs and top, 0 or 1) is >= n, else t (t < 2n);
 * r must not overlap t.  One SBB chain writes t - n into r and leaves the
 * borrow; then each limb is picked by masks.  (Subtracting n & mask in a
 * second chain needed the borrow saved across the AND, a SETC/BT round
 * trip of about 3 cycles a limb: a tenth of a 16-limb product.)  The loop
 * counts nl, the only branch. */
static inline void adx_final_sub(ull *r, const ull *t, ull top, const ull *n, size_t nl)
{
    ull x, mask, tp = (ull)t, np = (ull)n, rp = (ull)r, cnt = nl;
#define SUB_STEP(o)                                                           \
    "mov " #o "(%[tp]), %[x]\n\t"                                            \
    "sbb " #o "(%[np]), %[x]\n\t"                                            \
    "mov %[x], " #o "(%[rp])\n\t"
#define FINAL_SUB_ASM(STEPS, BYTES)                                           \
    __asm__ volatile(                                                         \
        "clc\n\t"                                                            \
        "1:\n\t"                                                             \
        STEPS                                                                 \
        "lea " #BYTES "(%[tp]), %[tp]\n\t"                                   \
        "lea " #BYTES "(%[np]), %[np]\n\t"                                   \
        "lea " #BYTES "(%[rp]), %[rp]\n\t"                                   \
        "dec %[cnt]\n\t"                   /* DEC leaves CF */              \
        "jnz 1b\n\t"                                                         \
        "sbb %[mask], %[mask]\n\t"          /* all ones on a borrow: t < n unless top */ \
        : [tp] "+&r"(tp), [np] "+&r"(np), [rp] "+&r"(rp), [cnt] "+&r"(cnt), [x] "=&r"(x), \
          [mask] "=&r"(mask)                                                  \
        :                                                                     \
        : "cc", "memory")
    if (nl % 4 == 0) {                         /* nl is public: four limbs a pass */
        cnt = nl / 4;
        FINAL_SUB_ASM(SUB_STEP(0) SUB_STEP(8) SUB_STEP(16) SUB_STEP(24), 32);
    } else {
        FINAL_SUB_ASM(SUB_STEP(0), 8);
    }
#undef FINAL_SUB_ASM
#undef SUB_STEP
    ull keep_t = mask & (top - 1);             /* borrow and no top: t < n */
    for (size_t k = 0; k < nl; k++)
        r[k] = (t[k] & keep_t) | (r[k] & ~keep_t);
}

/* r = a^2 R^-1 mod n: the square by halves (each cross product a[i] a[j],
 * i < j, once; then doubled and the squares a[i]^2 added), about nl^2 / 2
 * multiplications instead of nl^2, then the Montgomery reduction of the
 * 2 nl limbs one row per limb (separated operand scanning, Koc et al.). */
static void adx_sqr(ic_limb *r, const ic_limb *a, const ic_limb *n, ic_limb n0, size_t nl)
{
    ull T[2 * IC_BN_MAX_LIMBS];
    const ull *x = (const ull *)a;
    memset(T, 0, 2 * nl * sizeof T[0]);
    if (nl == 16 || nl == 32)                   /* nl is public */
        sqr_tri_fixed(T, x, nl);
    else
        for (size_t i = 0; i + 1 < nl; i++)     /* T[2i+1 ..] += a[i] a[i+1 ..] */
            T[i + nl] = row_mac_ret(T + 2 * i + 1, x[i], x + i + 1, nl - 1 - i);
    sqr_diag(T, x, nl);                         /* a^2 < 2^(128 nl): no carry out */
    ull carry = 0;
    if (nl % 4 == 0) {                          /* nl is public */
        for (size_t i = 0; i < nl; i++)         /* T += m n 2^(64 i), m clearing T[i] */
            carry = row_red_sos4(T + i, T[i] * (ull)n0, (const ull *)n, nl, carry);
    } else {
        for (size_t i = 0; i < nl; i++) {
            ull c = row_mac_ret(T + i, T[i] * (ull)n0, (const ull *)n, nl);
            unsigned __int128 s = (unsigned __int128)T[i + nl] + c + carry;
            T[i + nl] = (ull)s;
            carry = (ull)(s >> 64);
        }
    }
    adx_final_sub((ull *)r, T + nl, carry, (const ull *)n, nl);
    ic_wipe(T, 2 * nl * sizeof T[0]);
}

static void adx_mul(ic_limb *r, const ic_limb *a, const ic_limb *b,
                    const ic_limb *n, ic_limb n0, size_t nl)
{
    ull tb[IC_BN_MAX_LIMBS + 3], *t = tb + 1;
    memset(t, 0, (nl + 2) * sizeof t[0]);
    for (size_t i = 0; i < nl; i++) {
        t[nl + 1] = 0;
        if (nl % 4 == 0) {                      /* nl is public */
            row_mac4(t, a[i], (const ull *)b, nl);
            row_red4(t, t[0] * (ull)n0, (const ull *)n, nl);
        } else {                                /* other sizes: the general row, then in C */
            unsigned __int128 s = (unsigned __int128)t[nl] + row_mac_ret(t, a[i], (const ull *)b, nl);
            t[nl] = (ull)s;
            t[nl + 1] = (ull)(s >> 64);
            s = (unsigned __int128)t[nl] + row_mac_ret(t, t[0] * (ull)n0, (const ull *)n, nl);
            t[nl] = (ull)s;
            t[nl + 1] += (ull)(s >> 64);
            memmove(t, t + 1, (nl + 1) * sizeof t[0]);   /* t[0] is 0: divide by 2^64 */
        }
    }
    adx_final_sub((ull *)r, t, t[nl], (const ull *)n, nl);
    ic_wipe(tb, (nl + 3) * sizeof tb[0]);
}
#else
/* The MemorySanitizer build: the same steps with the intrinsics (an asm
 * block's inputs would be checked strictly and its outputs come out clean,
 * core/ct.h), so the check sees the data flow. */
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

#endif

#if !defined(IC_MSAN)
static const ic_mont_ops adx_ops = { adx_mul, adx_sqr, NULL, 0, NULL };
#else
static const ic_mont_ops adx_ops = { adx_mul, NULL, NULL, 0, NULL };
#endif
IC_BACKEND(montmul, adx, IC_F(IC_CPU_BMI2) | IC_F(IC_CPU_ADX), &adx_ops);

#endif /* IC_BN_HAVE_ADX */
IC_TARGET_END
#endif
