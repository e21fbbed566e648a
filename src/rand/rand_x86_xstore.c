/*
 * rand_x86_xstore.c - the "xstore" hardware random source: the VIA PadLock
 * random number generator read with XSTORE (VIA PadLock Programming Guide,
 * chapter 2).
 *
 * XSTORE (0x0F 0xA7 0xC0) stores what the RNG has accumulated at ES:EDI and
 * returns in EAX a copy of MSR 0x110B (bits 31:5) and the number of random
 * bytes it stored (bits 4:0), and advances EDI by that number.  EDX[1:0] is
 * the quality factor: from each full 8-byte accumulation buffer the
 * instruction keeps 8, 4, 2 or 1 bytes (EDX = 0..3).  We use 3, one random
 * byte per instruction (in a four-byte store, the other three zero): the
 * setting the guide's own RNG analysis program (6.1, CRAP.C) defaults to,
 * and the "recommended 1-byte-per-instruction rate, for greater randomness
 * at the expense of speed" of Linux's via-rng driver.  The guide measured
 * about 1.6 Mbit/s that way on a C7 (6.1's sample output).
 *
 * Checks on every instruction (2.1, 2.2):
 *  - fewer than 8 bytes accumulated: nothing stored, count 0: retry, a
 *    bounded number of times (the generator runs at some Mbit/s; an RNG
 *    that delivers nothing for XSTORE_RETRIES tries in a row is broken);
 *  - the status must say ENBL (bit 6: the RNG is on) and not RBTS (bit 13:
 *    the von Neumann whitener bypassed, raw bits); the string-filter bits
 *    14-21 are reserved on Esther with "undefined and unpredictable" values,
 *    so they are not read;
 *  - the count must be 0 or 1 (the quality factor asked for 1).
 * Plain XSTORE rather than REP XSTORE: the REP form loops inside the
 * instruction until it has every byte, so a generator that stopped would
 * hang it, and its status has no count (2.1, "Note" and "REP Prefix").
 *
 * The instruction is emitted as bytes: no assembler mnemonic is needed and
 * the file takes no target flags.
 */
#include "rand/rand_impl.h"
#if defined(__x86_64__) || defined(__i386__)

#define XSTORE_QUALITY  3u          /* EDX[1:0]: 1 random byte per store */
#define XSTORE_RETRIES  (1u << 16)  /* empty stores tolerated per 64-bit value */
#define MSR_ENBL        0x0040u
#define MSR_RBTS        0x2000u

/* XSTORE: up to 4 bytes at dst (1 random with quality 3); returns EAX. */
static inline uint32_t xstore(uint8_t dst[4], uint32_t quality)
{
    uint32_t status;
    __asm__ __volatile__(".byte 0x0f, 0xa7, 0xc0"
                         : "=a"(status), "+D"(dst)
                         : "d"(quality)
                         : "memory");
    return status;
}

static int hwrand_xstore_next64(uint64_t *out)
{
    uint8_t b[8 + 4];     /* the store is 4 bytes wide even for 1 byte */
    unsigned have = 0, empty = 0;
    while (have < 8) {
        uint32_t st = xstore(b + have, XSTORE_QUALITY);
        unsigned n = st & 0x1f;
        if ((st & MSR_ENBL) == 0 || (st & MSR_RBTS) != 0 || n > 1)
            break;                         /* off, raw bits, or not what we asked */
        if (n == 0 && ++empty > XSTORE_RETRIES)
            break;
        have += n;
    }
    int ok = have == 8;
    if (ok)
        *out = ic_load64_le(b);
    ic_wipe(b, sizeof b);
    return ok;
}

static const ic_hwrand_ops xstore_ops = { hwrand_xstore_next64 };
IC_BACKEND(hwrand, xstore, IC_F(IC_CPU_PADLOCK_RNG), &xstore_ops);

#endif
