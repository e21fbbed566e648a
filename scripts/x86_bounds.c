/*
 * x86_bounds.c - the hardware limit of this x86-64 CPU for the bulk loops,
 * in TSC ticks (the unit of `incore speed`'s c/B), measured: loops of
 * independent instructions (no dependency between them within a dozen, so
 * only the issue rate counts) timed with RDTSC.  Built and run by
 * scripts/x86-bounds.sh; needs AVX-512F, VAES and VPCLMULQDQ (and IFMA for
 * the VPMADD52 line).
 *
 * From the rates it prints the lower bound in TSC c/B of:
 *  - AES-128 and AES-256 on ZMM (CTR, ECB, XTS: 10 or 14 VAESENC per four
 *    blocks) and on YMM (two blocks);
 *  - GHASH on ZMM: three VPCLMULQDQ per four blocks (Karatsuba), the
 *    aggregated reduction (two per batch of 16 blocks or more) left out;
 *  - AES-GCM: the AES and GHASH instructions of 64 bytes mixed in one loop,
 *    which is the bound whether or not the two share a port;
 * and the rate of VPMADD52LUQ (the IFMA multiply) and of MULX.
 */
#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>

#define ITERS 200000

/* Ticks per iteration of `body`, which issues `n` instructions on 12
 * independent registers; the best of 7 runs (load on the machine only
 * lengthens a run). */
#define TIME_LOOP(label, n, body)                                                  \
    static double label(void)                                                      \
    {                                                                              \
        double best = 1e30;                                                        \
        for (int run = 0; run < 7; run++) {                                        \
            uint64_t t0 = __rdtsc();                                               \
            for (long i = 0; i < ITERS; i++)                                       \
                __asm__ volatile(body ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", \
                                 "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",  \
                                 "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",      \
                                 "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10",     \
                                 "r11");                                           \
            double t = (double)(__rdtsc() - t0) / ITERS;                           \
            best = t < best ? t : best;                                            \
        }                                                                          \
        return best / (n);                                                         \
    }

#define R12(op, w) \
    op " %%" w "15, %%" w "0, %%" w "0\n\t" op " %%" w "15, %%" w "1, %%" w "1\n\t" \
    op " %%" w "15, %%" w "2, %%" w "2\n\t" op " %%" w "15, %%" w "3, %%" w "3\n\t" \
    op " %%" w "15, %%" w "4, %%" w "4\n\t" op " %%" w "15, %%" w "5, %%" w "5\n\t" \
    op " %%" w "15, %%" w "6, %%" w "6\n\t" op " %%" w "15, %%" w "7, %%" w "7\n\t" \
    op " %%" w "15, %%" w "8, %%" w "8\n\t" op " %%" w "15, %%" w "9, %%" w "9\n\t" \
    op " %%" w "15, %%" w "10, %%" w "10\n\t" op " %%" w "15, %%" w "11, %%" w "11\n\t"
#define C12(w) \
    "vpclmulqdq $0x11, %%" w "15, %%" w "0, %%" w "0\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "1, %%" w "1\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "2, %%" w "2\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "3, %%" w "3\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "4, %%" w "4\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "5, %%" w "5\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "6, %%" w "6\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "7, %%" w "7\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "8, %%" w "8\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "9, %%" w "9\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "10, %%" w "10\n\t" \
    "vpclmulqdq $0x11, %%" w "15, %%" w "11, %%" w "11\n\t"

TIME_LOOP(aes_zmm, 12, R12("vaesenc", "zmm"))
TIME_LOOP(aes_ymm, 12, R12("vaesenc", "ymm"))
TIME_LOOP(clmul_zmm, 12, C12("zmm"))
TIME_LOOP(clmul_ymm, 12, C12("ymm"))
TIME_LOOP(ifma_zmm, 12, R12("vpmadd52luq", "zmm"))
/* 64 bytes of AES-GCM on ZMM: 10 (AES-128) or 14 (AES-256) VAESENC and 3
 * VPCLMULQDQ, on registers of their own */
#define V(r) "vaesenc %%zmm15, %%zmm" #r ", %%zmm" #r "\n\t"
#define P(r) "vpclmulqdq $0x11, %%zmm15, %%zmm" #r ", %%zmm" #r "\n\t"
#define AES10 V(0) V(1) V(2) V(3) V(4) V(5) V(6) V(7) V(8) V(9)
TIME_LOOP(gcm128, 1, AES10 P(10) P(11) P(12))
TIME_LOOP(gcm256, 1, AES10 V(0) V(1) V(2) V(3) P(10) P(11) P(12))
TIME_LOOP(mulx, 8, "mulx %%r8, %%rax, %%rbx\n\tmulx %%r8, %%rcx, %%r9\n\t"
                   "mulx %%r8, %%r10, %%r11\n\tmulx %%r8, %%rax, %%rbx\n\t"
                   "mulx %%r8, %%rcx, %%r9\n\tmulx %%r8, %%r10, %%r11\n\t"
                   "mulx %%r8, %%rax, %%rbx\n\tmulx %%r8, %%rcx, %%r9\n\t")

int main(void)
{
    double az = aes_zmm(), ay = aes_ymm(), cz = clmul_zmm(), cy = clmul_ymm();
    double im = ifma_zmm(), g128 = gcm128(), g256 = gcm256(), mx = mulx();
    printf("TSC ticks per instruction (independent, best of 7):\n");
    printf("  VAESENC zmm %.3f  ymm %.3f   VPCLMULQDQ zmm %.3f  ymm %.3f\n", az, ay, cz, cy);
    printf("  VPMADD52LUQ zmm %.3f   MULX %.3f\n", im, mx);
    printf("lower bounds, TSC c/B:\n");
    printf("  AES-128 (CTR/ECB/XTS) zmm %.3f  ymm %.3f\n", 10 * az / 64, 10 * ay / 32);
    printf("  AES-256 (CTR/ECB/XTS) zmm %.3f  ymm %.3f\n", 14 * az / 64, 14 * ay / 32);
    printf("  GHASH zmm %.3f  ymm %.3f (3 multiplies per block, reduction not counted)\n",
           3 * cz / 64, 3 * cy / 32);
    printf("  AES-128-GCM zmm %.3f  AES-256-GCM zmm %.3f (the AES and GHASH instructions of\n"
           "    64 bytes in one loop, reduction not counted)\n", g128 / 64, g256 / 64);
    return 0;
}
