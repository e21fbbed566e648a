/*
 * bn_port.c - portable Montgomery multiplication: CIOS (coarsely
 * integrated operand scanning, Koc, Acar and Kaliski, "Analyzing and
 * comparing Montgomery multiplication algorithms", IEEE Micro 1996) on
 * the limb of bn_impl.h, 64-bit with unsigned __int128 or 32-bit.
 *
 * Each outer step adds a[i] * b to the accumulator t and then m * n with
 * m chosen so that the lowest limb becomes zero, and shifts t down one
 * limb.  t stays below 2n, so one masked subtraction at the end reduces it.
 */
#include "bn/bn_impl.h"

static void port_mul(ic_limb *r, const ic_limb *a, const ic_limb *b,
                     const ic_limb *n, ic_limb n0, size_t nl)
{
    ic_limb t[IC_BN_MAX_LIMBS + 2];
    memset(t, 0, (nl + 2) * sizeof t[0]);
    for (size_t i = 0; i < nl; i++) {
        ic_limb ai = a[i], c = 0;
        for (size_t j = 0; j < nl; j++) {
            ic_dlimb x = (ic_dlimb)ai * b[j] + t[j] + c;
            t[j] = (ic_limb)x;
            c = (ic_limb)(x >> IC_LIMB_BITS);
        }
        ic_dlimb x = (ic_dlimb)t[nl] + c;
        t[nl] = (ic_limb)x;
        t[nl + 1] = (ic_limb)(x >> IC_LIMB_BITS);

        ic_limb m = t[0] * n0;
        x = (ic_dlimb)m * n[0] + t[0];
        c = (ic_limb)(x >> IC_LIMB_BITS);
        for (size_t j = 1; j < nl; j++) {
            x = (ic_dlimb)m * n[j] + t[j] + c;
            t[j - 1] = (ic_limb)x;
            c = (ic_limb)(x >> IC_LIMB_BITS);
        }
        x = (ic_dlimb)t[nl] + c;
        t[nl - 1] = (ic_limb)x;
        t[nl] = t[nl + 1] + (ic_limb)(x >> IC_LIMB_BITS);
    }
    ic_mont_final_sub(r, t, t[nl], n, nl);
    ic_wipe(t, (nl + 2) * sizeof t[0]);   /* the size this call used */
}

const ic_mont_ops ic_mont_port_ops = { port_mul, NULL, NULL, 0, NULL };

IC_BACKEND(montmul, port, 0, &ic_mont_port_ops);
