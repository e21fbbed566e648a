/*
 * insn.h - PadLock instructions as the guide's sample programs use them
 * (inline assembly, registers as chapters 2-4 specify), and a caller-side
 * AES key schedule: shared by the model's own checks (model_check.c,
 * model_diff.c).  Each XCRYPT wrapper stores EFLAGS first (PUSHF; POPF),
 * except the *_noreload ones, which keep 72 bytes of NOPs between any such
 * store and the instruction.
 */
#ifndef PADLOCK_MODEL_INSN_H
#define PADLOCK_MODEL_INSN_H
#include <stdint.h>
#include <string.h>

/* ---- instruction wrappers: registers as chapter 3/4/2 specify ------------ */
typedef struct { void *esi, *edi, *eax; unsigned long ecx; } regs;

#define XCRYPT(MODRM, RELOAD)                                                            \
    static inline regs xcrypt_##MODRM(const void *cw, const void *key, void *iv, const void *in, \
                               void *out, unsigned long n)                              \
    {                                                                                    \
        regs r = {(void *)in, out, iv, n};                                               \
        __asm__ __volatile__(RELOAD ".byte 0xf3,0x0f,0xa7," #MODRM                       \
                             : "+S"(r.esi), "+D"(r.edi), "+c"(r.ecx), "+a"(r.eax)        \
                             : "b"(key), "d"(cw) : "memory", "cc");                       \
        return r;                                                                        \
    }
#define RELOAD "pushf; popf;"
XCRYPT(0xc8, RELOAD) XCRYPT(0xd0, RELOAD) XCRYPT(0xd8, RELOAD) XCRYPT(0xe0, RELOAD)
XCRYPT(0xe8, RELOAD)
/* no EFLAGS store in the 64 bytes before: the loaded key stays */
static inline regs ecb_noreload(const void *cw, const void *key, const void *in, void *out, unsigned long n)
{
    regs r = {(void *)in, out, NULL, n};
    __asm__ __volatile__(".fill 72,1,0x90; .byte 0xf3,0x0f,0xa7,0xc8"
                         : "+S"(r.esi), "+D"(r.edi), "+c"(r.ecx), "+a"(r.eax)
                         : "b"(key), "d"(cw) : "memory", "cc");
    return r;
}
static inline regs cbc_noreload(const void *cw, const void *key, void *iv, const void *in, void *out,
                         unsigned long n)
{
    regs r = {(void *)in, out, iv, n};
    __asm__ __volatile__(".fill 72,1,0x90; .byte 0xf3,0x0f,0xa7,0xd0"
                         : "+S"(r.esi), "+D"(r.edi), "+c"(r.ecx), "+a"(r.eax)
                         : "b"(key), "d"(cw) : "memory", "cc");
    return r;
}

static inline regs xsha(int is256, const void *in, unsigned long len, void *hash, unsigned long done)
{
    regs r = {(void *)in, hash, (void *)done, len};
    if (is256)
        __asm__ __volatile__(".byte 0xf3,0x0f,0xa6,0xd0"
                             : "+S"(r.esi), "+D"(r.edi), "+c"(r.ecx), "+a"(r.eax) :: "memory", "cc");
    else
        __asm__ __volatile__(".byte 0xf3,0x0f,0xa6,0xc8"
                             : "+S"(r.esi), "+D"(r.edi), "+c"(r.ecx), "+a"(r.eax) :: "memory", "cc");
    return r;
}

static inline regs xstore(void *out, unsigned long quality, int rep, unsigned long n)
{
    regs r = {NULL, out, NULL, n};
    if (rep)
        __asm__ __volatile__(".byte 0xf3,0x0f,0xa7,0xc0"
                             : "+D"(r.edi), "+c"(r.ecx), "=a"(r.eax) : "d"(quality) : "memory", "cc");
    else
        __asm__ __volatile__(".byte 0x0f,0xa7,0xc0"
                             : "+D"(r.edi), "+c"(r.ecx), "=a"(r.eax) : "d"(quality) : "memory", "cc");
    return r;
}

/* REP MONTMUL (chapter 5): ECX bits, EAX 0, ESI the context (its layout
 * as the C struct of 5.1 compiled for x86-64). */
typedef struct {
    uint32_t mzeroprime;
    uint32_t *a, *b, *t, *m, *scratch;
} mm_ctx;
typedef struct { const void *esi; unsigned long ecx, eax, edx; } mm_regs;
static inline mm_regs montmul(const mm_ctx *ctx, unsigned long bits)
{
    mm_regs r = {ctx, bits, 0, 0x1234};
    __asm__ __volatile__(".byte 0xf3,0x0f,0xa6,0xc0"
                         : "+S"(r.esi), "+c"(r.ecx), "+a"(r.eax), "+d"(r.edx) :: "memory", "cc");
    return r;
}

/* ---- a caller-side key schedule (FIPS 197 5.2 / 5.3.5), as software must
 * provide for 192/256-bit keys (guide 3.2) ------------------------------ */
static uint8_t sb[256];   /* filled by make_sbox() */
static inline uint8_t gm(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (; b; b >>= 1, a = (uint8_t)((a << 1) ^ ((a >> 7) * 0x1b)))
        if (b & 1) p ^= a;
    return p;
}
static inline void make_sbox(void)
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0, s;
        for (int y = 1; y < 256 && x; y++)
            if (gm((uint8_t)x, (uint8_t)y) == 1) { inv = (uint8_t)y; break; }
        s = inv;
        for (int k = 1; k < 5; k++)
            s ^= (uint8_t)((inv << k) | (inv >> (8 - k)));
        sb[x] = s ^ 0x63;
    }
}
/* enc: w[] as in FIPS 197 figure 11; dec: equivalent-inverse keys in the
 * order they are used (the real key last, guide 3.2) */
static inline void schedule(uint8_t sched[256], const uint8_t *key, unsigned nk, int dec)
{
    unsigned nr = nk + 6;
    uint8_t w[240], rc = 1;
    memcpy(w, key, 4 * nk);
    for (unsigned i = nk; i < 4 * (nr + 1); i++) {
        uint8_t t[4];
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0) {
            uint8_t t0 = t[0];
            t[0] = sb[t[1]] ^ rc; t[1] = sb[t[2]]; t[2] = sb[t[3]]; t[3] = sb[t0];
            rc = gm(rc, 2);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++) t[j] = sb[t[j]];
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
    memset(sched, 0, 256);
    for (unsigned r = 0; r <= nr; r++) {
        uint8_t *d = sched + 16 * r;
        memcpy(d, w + 16 * (dec ? nr - r : r), 16);
        if (dec && r != 0 && r != nr)
            for (int c = 0; c < 4; c++) {
                uint8_t a[4];
                memcpy(a, d + 4 * c, 4);
                for (int k = 0; k < 4; k++)
                    d[4 * c + k] = gm(a[k], 14) ^ gm(a[(k + 1) % 4], 11) ^ gm(a[(k + 2) % 4], 13) ^
                                   gm(a[(k + 3) % 4], 9);
            }
    }
}

#endif
