/*
 * bn_impl.h - what a Montgomery multiplication backend provides to the
 * big-number driver (bignum.c) through the "montmul" registry table.
 *
 * The limb is the widest word whose double-width product the compiler has:
 * 64 bits with unsigned __int128, 32 bits otherwise (the armhf leg).  It is
 * one size per build, so the portable and the x86 backends share the
 * context layout (ic_bn_words.w64 or .w32) and can be compared directly.
 */
#ifndef INCORE_BN_IMPL_H
#define INCORE_BN_IMPL_H

#include "core/internal.h"
#include "incore/bignum.h"

#if defined(__SIZEOF_INT128__)
typedef uint64_t ic_limb;
typedef unsigned __int128 ic_dlimb;
#define IC_LIMB_BITS 64
#define IC_BN_LIMBS(words) ((words).w64)
#else
typedef uint32_t ic_limb;
typedef uint64_t ic_dlimb;
#define IC_LIMB_BITS 32
#define IC_BN_LIMBS(words) ((words).w32)
#endif
#define IC_LIMB_BYTES (IC_LIMB_BITS / 8)
#define IC_BN_MAX_LIMBS (IC_BN_MAX_BITS / IC_LIMB_BITS)

struct ic_mont_exp;

typedef struct ic_mont_ops {
    /* r = a * b * R^-1 mod n, R = 2^(IC_LIMB_BITS * nl), for a, b < n;
     * the result is fully reduced (< n).  r may equal a or b.  n0 is
     * -n^-1 mod 2^IC_LIMB_BITS.  Constant time: no branch or index on a,
     * b or n, only on nl.  1 <= nl <= IC_BN_MAX_LIMBS. */
    void (*mul)(ic_limb *r, const ic_limb *a, const ic_limb *b,
                const ic_limb *n, ic_limb n0, size_t nl);
    /* r = a * a * R^-1 mod n, the same contract; NULL: mul(r, a, a). */
    void (*sqr)(ic_limb *r, const ic_limb *a, const ic_limb *n, ic_limb n0, size_t nl);
    /* log2 of the backend's R for a modulus of nbits bits in nl limbs;
     * NULL: IC_LIMB_BITS * nl.  A backend in another radix (IFMA's 2^52)
     * has its own R; the driver computes R^2 mod n for it at init. */
    size_t (*rbits)(size_t nbits, size_t nl);
    /* Smallest nl this backend is worth running at; 0: every size.  For a
     * smaller modulus ic_mont_init takes the next registry entry instead
     * (whose needs must be a subset of this one's) and records that entry
     * in the context, so the context's impl names the code that runs. */
    size_t min_limbs;
    /* Optional (NULL: the driver's window loop over mul and sqr): whole
     * exponentiations in the backend's own representation, so that it
     * converts once per exponentiation instead of once per product
     * (IFMA's radix 2^52).  njobs is 1 or 2; two jobs have equal nl and
     * elen and pub 0, and run side by side (the halves of an RSA-CRT
     * signature).  The driver has done the checks of ic_mont_modexp. */
    void (*modexp)(const struct ic_mont_exp *job, size_t njobs);
} ic_mont_ops;

/* One exponentiation for ic_mont_ops.modexp: r = base^exp mod n, fully
 * reduced.  Constant time in base, exp and n unless pub (then variable
 * time in exp only, as ic_mont_modexp_public). */
typedef struct ic_mont_exp {
    ic_limb *r;                /* nl limbs; may not overlap the inputs     */
    const ic_limb *base;       /* below n, nl limbs, not Montgomery form   */
    const ic_limb *n, *rr;     /* the context's modulus and R^2 mod n      */
    ic_limb n0;                /* -n^-1 mod 2^IC_LIMB_BITS                 */
    size_t nl;
    const uint8_t *exp;        /* elen bytes, big-endian, not all zero     */
    size_t elen;
    int pub;
} ic_mont_exp;

/* The fixed-window schedule every constant-time exponentiation follows:
 * the window width for an exponent of ebits bits (public; the table
 * costs 2^w - 2 multiplications and each window one) ... */
#define IC_BN_MAX_WIN 5
static inline unsigned ic_bn_window_bits(size_t ebits)
{
    return ebits >= 512 ? 5 : ebits >= 128 ? 4 : ebits >= 32 ? 3 : 1;
}

/* ... and bits [pos, pos + w) of the exponent (elen bytes, big-endian),
 * bits past its top reading 0: the positions are public, the bits are
 * not. */
static inline ic_limb ic_bn_exp_window(const uint8_t *exp, size_t elen, size_t pos, unsigned w)
{
    ic_limb v = 0;
    for (unsigned k = 0; k < w; k++) {
        size_t b = pos + k;
        if (b < elen * 8)
            v |= (ic_limb)((exp[elen - 1 - b / 8] >> (b % 8)) & 1) << k;
    }
    return v;
}

extern const ic_mont_ops ic_mont_port_ops;
#if defined(__x86_64__) && defined(__SIZEOF_INT128__)
/* MULX/ADCX/ADOX, IFMA (bn_x86_adx.c, bn_x86_ifma.c): 64-bit limbs and
 * 64-bit registers, so x86-64 only */
#define IC_BN_HAVE_ADX 1
#endif
#if (defined(__x86_64__) && defined(__SIZEOF_INT128__)) || defined(__i386__)
#define IC_BN_HAVE_PADLOCK 1      /* VIA PadLock PMM (bn_x86_padlock.c), any limb width */
#endif

#if defined(__powerpc64__) && defined(__SIZEOF_INT128__)
#define IC_BN_HAVE_P9 1           /* POWER9 maddld/maddhdu (bn_ppc_p9.c) */
#endif

/* One exponentiation of ic_bn_modexp2: ic_mont_modexp's arguments. */
typedef struct ic_bn_modexp_job {
    const ic_mont_ctx *ctx;
    uint8_t *out;
    size_t outlen;
    const uint8_t *base;
    size_t blen;
    const uint8_t *exp;
    size_t elen;
} ic_bn_modexp_job;

/* Two constant-time exponentiations (two moduli, e.g. the primes of an
 * RSA-CRT key) run window by window in turn: each job's result is the one
 * ic_mont_modexp gives, with its checks and statuses; the first refusal is
 * returned and nothing is written.  Internal (bignum.c). */
int ic_bn_modexp2(const ic_bn_modexp_job *a, const ic_bn_modexp_job *b);
/* Shared by the driver (bignum.c) and the modular arithmetic of bn_mod.c. */
/* r (nl limbs) = the big-endian len bytes at in; len <= nl limbs' bytes. */
void ic_bn_from_bytes(ic_limb *r, size_t nl, const uint8_t *in, size_t len);
/* The len low bytes of a, big-endian. */
void ic_bn_to_bytes(uint8_t *out, size_t len, const ic_limb *a);
/* All ones when a < n (nl limbs each), else 0; no branch. */
ic_limb ic_bn_ct_less(const ic_limb *a, const ic_limb *n, size_t nl);
/* The ops of a context that init set up and wipe did not end, or NULL. */
const ic_mont_ops *ic_mont_ctx_ops(const ic_mont_ctx *ctx);

/* Final step shared by the backends: r = t - n if t (nl limbs plus the
 * carry limb top, 0 or 1) is >= n, else t; masks, no branch.  t < 2n. */
static inline void ic_mont_final_sub(ic_limb *r, const ic_limb *t, ic_limb top,
                                     const ic_limb *n, size_t nl)
{
    ic_limb d[IC_BN_MAX_LIMBS];
    ic_limb borrow = 0;
    for (size_t j = 0; j < nl; j++) {
        ic_dlimb x = (ic_dlimb)t[j] - n[j] - borrow;
        d[j] = (ic_limb)x;
        borrow = (ic_limb)(x >> IC_LIMB_BITS) & 1;
    }
    /* t >= n exactly when the subtraction does not borrow past top */
    ic_limb keep_t = (ic_limb)0 - (borrow & (top ^ 1));
    for (size_t j = 0; j < nl; j++)
        r[j] = (t[j] & keep_t) | (d[j] & ~keep_t);
    ic_wipe(d, nl * sizeof d[0]);
}

#endif
