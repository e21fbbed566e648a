/*
 * x86_bounds.c - the hardware limit of this x86-64 CPU for the bulk loops,
 * in TSC ticks (the unit of `incore speed`'s c/B), measured: loops of
 * independent instructions (no dependency between them within a dozen, so
 * only the issue rate counts) timed with RDTSC.  Built and run by
 * scripts/x86-bounds.sh; needs AVX-512F, VAES, VPCLMULQDQ, IFMA and SHA-NI.
 *
 * From the rates it prints the lower bound in TSC c/B of:
 *  - AES-128 and AES-256 on ZMM (CTR, ECB, XTS: 10 or 14 VAESENC per four
 *    blocks) and on YMM (two blocks);
 *  - GHASH on ZMM: three VPCLMULQDQ per four blocks (Karatsuba), the
 *    aggregated reduction (two per batch of 16 blocks or more) left out;
 *  - AES-GCM: the AES and GHASH instructions of 64 bytes mixed in one loop,
 *    which is the bound whether or not the two share a port;
 * and the rate of VPMADD52LUQ (the IFMA multiply) and of MULX;
 *  - ChaCha20, Poly1305 and ChaCha20-Poly1305 on ZMM: their loops' own mix
 *    of instructions (below, CHACHA64 and POLY256), all of which issue on
 *    the same two 512-bit ports, timed in one loop;
 *  - an XTS data unit of 4 KiB: its AES instructions plus the latency of
 *    encrypting the tweak (ten dependent VAESENC), which the first blocks
 *    wait for;
 *  - SHA-256 with SHA-NI: 32 SHA256RNDS2 per block, each needing the state
 *    the previous one made, so their latency is the bound.
 */
#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>

#define ITERS 200000

/* Ticks per iteration of `body`, which issues `n` instructions on 12
 * independent registers; the best of 31 runs (load on the machine only
 * lengthens a run). */
#define TIME_LOOP(label, n, body)                                                  \
    static double label(void)                                                      \
    {                                                                              \
        double best = 1e30;                                                        \
        for (int run = 0; run < 31; run++) {                                       \
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
/* ChaCha20, per 64 bytes of its 16-block pass (chacha_x86_avx512.c): 20
 * rotations, 22 additions (the rounds' 20, the feed-forward, the counter)
 * and 20 XORs of the rounds, the XOR with the data and 4 lane shuffles of
 * the transpose back to blocks: 67 instructions */
#define ROL(r) "vprold $7, %%zmm" #r ", %%zmm" #r "\n\t"
#define ADD(r) "vpaddd %%zmm15, %%zmm" #r ", %%zmm" #r "\n\t"
#define XOR(r) "vpxord %%zmm15, %%zmm" #r ", %%zmm" #r "\n\t"
#define SHF(r) "vshufi32x4 $0x44, %%zmm15, %%zmm" #r ", %%zmm" #r "\n\t"
#define RAX4(a, b, c, d) ROL(a) ADD(b) XOR(c) ROL(d) ADD(a) XOR(b) ROL(c) ADD(d) XOR(a) ROL(b) ADD(c) XOR(d)
#define CHACHA64 RAX4(0, 1, 2, 3) RAX4(4, 5, 6, 7) RAX4(8, 9, 10, 11) RAX4(0, 1, 2, 3) RAX4(4, 5, 6, 7) \
    ADD(8) ADD(9) XOR(10) SHF(11) SHF(0) SHF(1) SHF(2)
/* Poly1305 with IFMA, per 256 bytes (one two-group Horner step of
 * poly1305_x86_ifma.c): 36 multiply-adds, 11 additions, 14 shifts, 5
 * ANDs, 4 unpacks and 4 ORs or XORs: 74 instructions */
#define MAD(r) "vpmadd52luq %%zmm15, %%zmm14, %%zmm" #r "\n\t"
#define ADQ(r) "vpaddq %%zmm15, %%zmm" #r ", %%zmm" #r "\n\t"
#define SHQ(r) "vpsrlq $44, %%zmm" #r ", %%zmm" #r "\n\t"
#define ANQ(r) "vpandq %%zmm15, %%zmm" #r ", %%zmm" #r "\n\t"
#define UNP(r) "vpunpcklqdq %%zmm15, %%zmm" #r ", %%zmm" #r "\n\t"
#define MAD12 MAD(0) MAD(1) MAD(2) MAD(3) MAD(4) MAD(5) MAD(6) MAD(7) MAD(8) MAD(9) MAD(10) MAD(11)
#define POLY256 MAD12 MAD12 MAD12 ADQ(0) ADQ(1) ADQ(2) ADQ(3) ADQ(4) ADQ(5) ADQ(6) ADQ(7) ADQ(8) ADQ(9) \
    ADQ(10) SHQ(0) SHQ(1) SHQ(2) SHQ(3) SHQ(4) SHQ(5) SHQ(6) SHQ(7) SHQ(8) SHQ(9) SHQ(10) SHQ(11) SHQ(0) \
    SHQ(1) ANQ(2) ANQ(3) ANQ(4) ANQ(5) ANQ(6) UNP(7) UNP(8) UNP(9) UNP(10) XOR(11) XOR(0) XOR(1) XOR(2)
#define CHACHA256 CHACHA64 CHACHA64 CHACHA64 CHACHA64
TIME_LOOP(chacha, 1, CHACHA64)
TIME_LOOP(poly, 1, POLY256)
TIME_LOOP(chapoly, 1, CHACHA256 POLY256)
/* SHA-256: a block's 64 rounds are 32 SHA256RNDS2, each waiting for the
 * previous one's state; twelve of them in a chain */
#define S(r) "sha256rnds2 %%xmm0, %%xmm2, %%xmm1\n\tsha256rnds2 %%xmm0, %%xmm1, %%xmm2\n\t"
TIME_LOOP(sha_lat, 12, S(0) S(0) S(0) S(0) S(0) S(0))
/* ten dependent VAESENC on one XMM register: the latency of one block */
#define L(r) "vaesenc %%xmm15, %%xmm0, %%xmm0\n\t"
TIME_LOOP(aes_lat, 10, L(0) L(0) L(0) L(0) L(0) L(0) L(0) L(0) L(0) L(0))
TIME_LOOP(mulx, 8, "mulx %%r8, %%rax, %%rbx\n\tmulx %%r8, %%rcx, %%r9\n\t"
                   "mulx %%r8, %%r10, %%r11\n\tmulx %%r8, %%rax, %%rbx\n\t"
                   "mulx %%r8, %%rcx, %%r9\n\tmulx %%r8, %%r10, %%r11\n\t"
                   "mulx %%r8, %%rax, %%rbx\n\tmulx %%r8, %%rcx, %%r9\n\t")

int main(void)
{
    double az = aes_zmm(), ay = aes_ymm(), cz = clmul_zmm(), cy = clmul_ymm();
    double im = ifma_zmm(), g128 = gcm128(), g256 = gcm256(), mx = mulx();
    double cc = chacha(), po = poly(), cp = chapoly(), al = aes_lat(), sl = sha_lat();
    printf("TSC ticks per instruction (independent, best of 31):\n");
    printf("  VAESENC zmm %.3f  ymm %.3f   VPCLMULQDQ zmm %.3f  ymm %.3f\n", az, ay, cz, cy);
    printf("  VPMADD52LUQ zmm %.3f   MULX %.3f\n", im, mx);
    printf("lower bounds, TSC c/B:\n");
    printf("  AES-128 (CTR/ECB/XTS) zmm %.3f  ymm %.3f\n", 10 * az / 64, 10 * ay / 32);
    printf("  AES-256 (CTR/ECB/XTS) zmm %.3f  ymm %.3f\n", 14 * az / 64, 14 * ay / 32);
    printf("  GHASH zmm %.3f  ymm %.3f (3 multiplies per block, reduction not counted)\n",
           3 * cz / 64, 3 * cy / 32);
    printf("  AES-128-GCM zmm %.3f  AES-256-GCM zmm %.3f (the AES and GHASH instructions of\n"
           "    64 bytes in one loop, reduction not counted)\n", g128 / 64, g256 / 64);
    printf("  ChaCha20 zmm %.3f  Poly1305 (IFMA) %.3f  ChaCha20-Poly1305 %.3f (the loops' own\n"
           "    instruction mix, CHACHA64 and POLY256)\n", cc / 64, po / 256, cp / 256);
    printf("  AES-128-XTS 4 KiB data unit %.3f  AES-256-XTS %.3f (the AES of 256 blocks and\n"
           "    the latency of the tweak's encryption, VAESENC latency %.3f ticks)\n",
           (10 * az * 64 + 10 * al) / 4096, (14 * az * 64 + 14 * al) / 4096, al);
    printf("  SHA-256 (SHA-NI) %.3f (32 dependent SHA256RNDS2 a block, latency %.3f ticks)\n",
           32 * sl / 64, sl);
    return 0;
}
