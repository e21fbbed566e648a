/*
 * sha2_rounds.h - the round structure SHA-256 and SHA-512 share (FIPS
 * 180-4 6.2.2 and 6.4.2 differ only in word size, round count, constants
 * and rotation counts), as macros for the portable compression functions
 * sha256_port.c and sha512_port.c.
 *
 * The including file first defines SHA2_WORD (uint32_t / uint64_t), SHA2_K
 * (its constant table) and BSIG0, BSIG1, SSIG0, SSIG1 (4.1.2 / 4.1.3), and
 * names its schedule ring W and its working variables a..h.
 *
 * Trick: rounds are unrolled, and instead of shifting the eight working
 * variables down one place per round as the standard writes it, round t is
 * invoked with its arguments rotated, so what the standard would call "h"
 * after the shift already sits in the right name: a round only rewrites d
 * (the new e) and h (the new a), and after 8 rounds the names line up again.
 * The message schedule lives in a 16-word ring W[t mod 16]: the recurrence
 * reaches back to W[t-16] at most, so W[t] overwrites it just before round
 * t uses it.
 */
#ifndef INCORE_SHA2_ROUNDS_H
#define INCORE_SHA2_ROUNDS_H

/* Ch and Maj in the forms with one operation fewer than 4.1.2:
 * Ch(x,y,z) = z ^ (x & (y ^ z)),  Maj(x,y,z) = (x & y) | (z & (x | y)). */
#define CH(x, y, z)  ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* W_t for a constant t: the loaded word for t < 16, else expanded in place
 * (6.2.2 / 6.4.2 step 1). */
#define SCHED(t) ((t) < 16 ? W[(t) & 15]                                  \
                  : (W[(t) & 15] += SSIG1(W[((t) - 2) & 15]) + W[((t) - 7) & 15] \
                                    + SSIG0(W[((t) - 15) & 15])))

/* Step 3: T1 is added to d (the new e); T1 + T2, the new a, goes into h,
 * which the next round is passed as "a". */
#define ROUND(a, b, c, d, e, f, g, h, t) do {                             \
        SHA2_WORD t1 = h + BSIG1(e) + CH(e, f, g) + SHA2_K[t] + SCHED(t); \
        d += t1;                                                          \
        h = t1 + BSIG0(a) + MAJ(a, b, c);                                 \
    } while (0)

#define ROUND8(t) do {                                                    \
        ROUND(a, b, c, d, e, f, g, h, (t) + 0);                           \
        ROUND(h, a, b, c, d, e, f, g, (t) + 1);                           \
        ROUND(g, h, a, b, c, d, e, f, (t) + 2);                           \
        ROUND(f, g, h, a, b, c, d, e, (t) + 3);                           \
        ROUND(e, f, g, h, a, b, c, d, (t) + 4);                           \
        ROUND(d, e, f, g, h, a, b, c, (t) + 5);                           \
        ROUND(c, d, e, f, g, h, a, b, (t) + 6);                           \
        ROUND(b, c, d, e, f, g, h, a, (t) + 7);                           \
    } while (0)

#endif
