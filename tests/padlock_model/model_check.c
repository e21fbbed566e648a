/*
 * model_check.c - the PadLock instruction model checked on its own,
 * without incore: run under LD_PRELOAD=libincore_padlock_model.so, it
 * executes PadLock instructions directly (inline assembly, as the guide's
 * sample programs do) and compares with published answers:
 *  - FIPS 197 appendix C (AES-128/192/256 example vectors), through ECB
 *    with hardware key generation (128) and application-loaded schedules
 *    (all sizes), both directions;
 *  - SP 800-38A F.2.1/F.2.2 (CBC), F.3.13/F.3.14 (CFB128), F.4.1/F.4.2 (OFB),
 *    F.5.1/F.5.2 (CTR: its counters never carry past the low 16 bits, so
 *    ACE's 16-bit counter gives the same blocks);
 *  - FIPS 180-2 / 180-4 examples: SHA-1 and SHA-256 of "abc", of the
 *    448-bit two-block message, of "" and of a million 'a';
 *  - REP MONTMUL: MM.C's two Mathematica cases (6.5), A R R^-1 = A for
 *    Mersenne moduli up to 4096 bits, and (M - 1)^2 R^-1 = 1 for
 *    M = 2^ECX - 1 (where the partial product overflows ECX bits, 5.2);
 *  - the guide: the BAES.C Monte Carlo results (6.2, cbc_monte_e128 /
 *    cbc_monte_d128; only with --baes, as its 8 million single-block
 *    instructions take minutes through signals), the register and memory
 *    effects of chapters 2-4 (EAX/[EAX] after CBC/CFB/OFB/CTR, ECX, ESI,
 *    EDI, EAX == ECX after XSHA, the 16-bit CTR wrap, the ECB odd-count
 *    read, XSTORE counts and status, REP XSTORE), the EFLAGS[30] key
 *    reload rule, and the faults (misaligned operands: SIGSEGV; no REP:
 *    SIGILL), each fault in a child process;
 *  - the REP XSHA block form (EAX all ones, ECX blocks; not in the guide)
 *    on the model's two CPU variants: nothing on the default Esther, and
 *    on Nano (a copy of this program run with PADLOCK_MODEL_CPU=nano)
 *    FIPS 180-4 chaining values as little-endian words, its registers,
 *    the million 'a' through it, and #GP for a misaligned EDI.
 * Runs the same under PADLOCK_MODEL_INTERRUPT=1 (every instruction
 * interrupted half way and restarted), which ctest does too.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static int passed, failed;
#define CHECK(c, ...) do { if (c) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                          printf(__VA_ARGS__); printf("\n"); } } while (0)

static void unhex(uint8_t *out, const char *h)
{
    for (size_t i = 0; h[2 * i]; i++) {
        unsigned v;
        sscanf(h + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

#include "insn.h"

static _Alignas(16) uint8_t cw[128], key[256], iv[16], buf_in[256], buf_out[256];

static void set_cw(uint32_t v)
{
    memset(cw, 0, sizeof cw);
    memcpy(cw, &v, 4);
}

/* ---- AES ------------------------------------------------------------------ */
static void test_fips197(void)
{
    static const char *keys[3] = {
        "000102030405060708090a0b0c0d0e0f",
        "000102030405060708090a0b0c0d0e0f1011121314151617",
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"};
    static const char *cts[3] = {"69c4e0d86a7b0430d8cdb78070b4c55a",
                                 "dda97ca4864cdfe06eaf70a0ec0d7191",
                                 "8ea2b7ca516745bfeafc49904b496089"};
    uint8_t k[32], pt[16], ct[16];
    unhex(pt, "00112233445566778899aabbccddeeff");
    for (unsigned s = 0; s < 3; s++) {
        unsigned nk = 4 + 2 * s, nr = nk + 6;
        unhex(k, keys[s]);
        unhex(ct, cts[s]);
        for (int dec = 0; dec < 2; dec++) {
            schedule(key, k, nk, dec);
            set_cw(nr | 0x80u | (unsigned)s << 10 | (dec ? 0x200u : 0));   /* loaded keys */
            memcpy(buf_in, dec ? ct : pt, 16);
            regs r = xcrypt_0xc8(cw, key, NULL, buf_in, buf_out, 1);
            CHECK(memcmp(buf_out, dec ? pt : ct, 16) == 0, "FIPS 197 C.%u %s, loaded keys", s + 1,
                  dec ? "decrypt" : "encrypt");
            CHECK(r.ecx == 0 && r.esi == buf_in + 16 && r.edi == buf_out + 16, "ECB registers");
        }
    }
    /* C.1 with hardware-generated keys (KEYGN = 0): only the key at EBX */
    unhex(k, keys[0]);
    memcpy(key, k, 16);
    memset(key + 16, 0xEE, 240);     /* must not be read as a schedule */
    for (int dec = 0; dec < 2; dec++) {
        set_cw(10 | (dec ? 0x200u : 0));
        unhex(buf_in, dec ? cts[0] : "00112233445566778899aabbccddeeff");
        xcrypt_0xc8(cw, key, NULL, buf_in, buf_out, 1);
        unhex(ct, dec ? "00112233445566778899aabbccddeeff" : cts[0]);
        CHECK(memcmp(buf_out, ct, 16) == 0, "FIPS 197 C.1 %s, hardware keys", dec ? "dec" : "enc");
    }
}

/* SP 800-38A appendix F, AES-128, 4 blocks each */
static const char *P38A = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                          "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
static void run_mode(const char *name, int modrm, int dec, const char *ivh, const char *cth)
{
    uint8_t k[16], ivc[16], ct[64], pt[64];
    unhex(k, "2b7e151628aed2a6abf7158809cf4f3c");
    unhex(ivc, ivh);
    unhex(ct, cth);
    unhex(pt, P38A);
    memcpy(key, k, 16);
    /* hardware keys; CFB decryption sets CRYPT (chapter 3: it says which
     * block is fed back), OFB and CTR run the same way both directions */
    set_cw(10 | (dec && modrm != 0xe8 && modrm != 0xd8 ? 0x200u : 0));
    memcpy(iv, ivc, 16);
    memcpy(buf_in, dec ? ct : pt, 64);
    regs r;
    switch (modrm) {
    case 0xd0: r = xcrypt_0xd0(cw, key, iv, buf_in, buf_out, 4); break;
    case 0xe0: r = xcrypt_0xe0(cw, key, iv, buf_in, buf_out, 4); break;
    case 0xe8: r = xcrypt_0xe8(cw, key, iv, buf_in, buf_out, 4); break;
    default: r = xcrypt_0xd8(cw, key, iv, buf_in, buf_out, 4); break;
    }
    CHECK(memcmp(buf_out, dec ? pt : ct, 64) == 0, "SP 800-38A %s %s", name, dec ? "decrypt" : "encrypt");
    CHECK(r.ecx == 0 && r.esi == buf_in + 64 && r.edi == buf_out + 64, "%s registers", name);
    /* chaining state, 3.1 "Initialization Vector Pointer" */
    if ((modrm == 0xd0 || modrm == 0xe0) && !dec)
        CHECK(r.eax == buf_out + 48 && memcmp(iv, ivc, 16) == 0,
              "%s encrypt: EAX points at the last ciphertext block, [IV] unchanged", name);
    else if (modrm == 0xd0 || modrm == 0xe0)
        CHECK(r.eax == iv && memcmp(iv, ct + 48, 16) == 0, "%s decrypt: [EAX] = last ciphertext", name);
    else if (modrm == 0xd8) {
        unsigned c16 = (unsigned)(ivc[14] << 8 | ivc[15]) + 4;
        ivc[14] = (uint8_t)(c16 >> 8);
        ivc[15] = (uint8_t)c16;
        CHECK(r.eax == iv && memcmp(iv, ivc, 16) == 0, "CTR: [EAX] advanced by 4");
    } else
        CHECK(r.eax == iv, "OFB: EAX kept, [EAX] updated");
}

static void test_sp800_38a(void)
{
    const char *iv0 = "000102030405060708090a0b0c0d0e0f";
    for (int dec = 0; dec < 2; dec++) {
        run_mode("CBC", 0xd0, dec, iv0,
                 "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
                 "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7");
        run_mode("CFB128", 0xe0, dec, iv0,
                 "3b3fd92eb72dad20333449f8e83cfb4ac8a64537a0b3a93fcde3cdad9f1ce58b"
                 "26751f67a3cbb140b1808cf187a4f4dfc04b05357c5d1c0eeac4c66f9ff7f2e6");
        run_mode("OFB", 0xe8, dec, iv0,
                 "3b3fd92eb72dad20333449f8e83cfb4a7789508d16918f03f53c52dac54ed825"
                 "9740051e9c5fecf64344f7a82260edcc304c6528f659c77866a510d9c1d6ae5e");
        run_mode("CTR", 0xd8, dec, "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
                 "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
                 "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee");
    }
}

/* 16-bit big-endian counter, no carry into byte 13 (3.1 "Counter Mode") */
static void test_ctr_wrap(void)
{
    uint8_t one[16], two[16];
    memset(key, 0x42, 16);
    set_cw(10);
    memset(buf_in, 0, 32);
    memset(iv, 0x77, 14);
    iv[14] = 0xff; iv[15] = 0xff;
    xcrypt_0xd8(cw, key, iv, buf_in, buf_out, 2);
    CHECK(iv[13] == 0x77 && iv[14] == 0x00 && iv[15] == 0x01, "CTR counter wraps without carry");
    memcpy(one, buf_out + 16, 16);
    /* the second block's counter is ..77 77 00 00: encrypt it in ECB */
    memset(buf_in, 0x77, 14);
    buf_in[14] = buf_in[15] = 0;
    xcrypt_0xc8(cw, key, NULL, buf_in, two, 2);   /* reads 32 bytes: pairs */
    CHECK(memcmp(one, two, 16) == 0, "second CTR block is E(nonce || 0000)");
}

/* ECB pairs blocks: odd count reads one more block, stores only ECX */
static void test_ecb_odd(void)
{
    memset(key, 1, 16);
    set_cw(10);
    memset(buf_out, 0xCC, 64);
    regs r = xcrypt_0xc8(cw, key, NULL, buf_in, buf_out, 3);
    CHECK(r.ecx == 0 && r.esi == buf_in + 48 && r.edi == buf_out + 48, "odd ECB registers");
    CHECK(buf_out[48] == 0xCC && buf_out[63] == 0xCC, "odd ECB stores ECX blocks only");
}

/* EFLAGS[30]: without an EFLAGS store the loaded key stays in use */
static void test_key_reload(void)
{
    uint8_t a[16], b[16], c[16];
    set_cw(10);
    memset(key, 0x11, 16);
    memset(buf_in, 0, 32);
    xcrypt_0xc8(cw, key, NULL, buf_in, a, 2);          /* loads key 0x11.. */
    memset(key, 0x22, 16);
    ecb_noreload(cw, key, buf_in, b, 2);               /* EFLAGS[30] still 1 */
    CHECK(memcmp(a, b, 16) == 0, "no PUSHF;POPF: the old key is still used (as on hardware)");
    xcrypt_0xc8(cw, key, NULL, buf_in, c, 2);          /* PUSHF;POPF: reload */
    CHECK(memcmp(a, c, 16) != 0, "PUSHF;POPF before: the new key is loaded");
    /* XSHA clears EFLAGS[30] (chapter 1, "PHE") */
    memset(key, 0x11, 16);
    _Alignas(16) uint32_t h[32] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    xsha(0, "", 0, h, 0);
    ecb_noreload(cw, key, buf_in, b, 2);
    CHECK(memcmp(a, b, 16) == 0, "after XSHA the key is reloaded");
}

/* REP XCRYPTECB at the first byte of a page with its PUSHF;POPF in the
 * last two bytes of the page before: the model must see that reload across
 * the page boundary (it once looked only within RIP's page and kept a stale
 * key, which sent incore's CTR wrong when the library's layout put an
 * XCRYPT just past a page boundary). */
static void ecb_reload_at_page_start(const void *cwp, const void *k, const void *in, void *out,
                                     unsigned long n)
{
/* x86-64: past the red zone first; 32-bit code has none */
#if defined(__x86_64__)
#define SP_DOWN "lea -128(%%rsp), %%rsp\n\t"
#define SP_UP   "lea 128(%%rsp), %%rsp"
#else
#define SP_DOWN ""
#define SP_UP   ""
#endif
    __asm__ __volatile__(SP_DOWN
                         "jmp 2f\n\t"
                         ".p2align 12\n"
                         "2:\n\t"
                         ".fill 4094,1,0x90\n\t"
                         "pushf\n\t"
                         "popf\n\t"
                         ".byte 0xf3,0x0f,0xa7,0xc8\n\t"
                         SP_UP
                         : "+S"(in), "+D"(out), "+c"(n)
                         : "b"(k), "d"(cwp) : "memory", "cc");
}

static void test_key_reload_page_start(void)
{
    uint8_t a[16], b[16], c[16];
    set_cw(10);
    memset(buf_in, 0, 32);
    memset(key, 0x33, 16);
    xcrypt_0xc8(cw, key, NULL, buf_in, a, 2);             /* loads key 0x33.. */
    memset(key, 0x44, 16);
    xcrypt_0xc8(cw, key, NULL, buf_in, b, 2);             /* E(0x44.., 0) */
    memset(key, 0x33, 16);
    xcrypt_0xc8(cw, key, NULL, buf_in, c, 2);             /* back to 0x33.. */
    memset(key, 0x44, 16);
    ecb_reload_at_page_start(cw, key, buf_in, c, 2);
    CHECK(memcmp(a, b, 16) != 0 && memcmp(b, c, 16) == 0,
          "PUSHF;POPF at the end of the page before the instruction: the new key is loaded");
}

/* The model's handler must leave the program's errno as it was: an XCRYPT
 * (REP XCRYPTECB; RET) at the first byte of a page after an unreadable one,
 * where reading the 64 bytes before the instruction fails (EFAULT), is
 * executed with errno set and errno is compared after it. */
static void test_errno_kept(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    uint8_t *m = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m != MAP_FAILED, "mmap for the errno check");
    if (m == MAP_FAILED)
        return;
    static const uint8_t code[] = {0xf3, 0x0f, 0xa7, 0xc8, 0xc3};
    memcpy(m + pg, code, sizeof code);
    int prot = mprotect(m + pg, (size_t)pg, PROT_READ | PROT_EXEC) == 0 && mprotect(m, (size_t)pg, PROT_NONE) == 0;
    CHECK(prot, "mprotect for the errno check");
    if (!prot) {
        munmap(m, 2 * (size_t)pg);
        return;
    }
    set_cw(10);
    memset(key, 0x33, 16);
    memset(buf_in, 0, 32);
    const void *in = buf_in;
    void *out = buf_out;
    unsigned long n = 1;
    errno = 4321;
#if defined(__x86_64__)
    __asm__ __volatile__(SP_DOWN   /* past the red zone, as above */
                         "call *%[f]\n\t"
                         SP_UP
                         : "+S"(in), "+D"(out), "+c"(n)
                         : "b"(key), "d"(cw), [f] "r"(m + pg) : "rax", "r8", "r9", "r10", "r11", "memory", "cc");
#else
    /* EAX is clobbered (the ECB leaves it alone; the call's ABI may not):
     * the target in it, so no register is left unnamed */
    __asm__ __volatile__("call *%%eax"
                         : "+S"(in), "+D"(out), "+c"(n)
                         : "b"(key), "d"(cw), "a"(m + pg) : "memory", "cc");
#endif
    int e = errno;
    CHECK(e == 4321, "errno kept across an XCRYPT after an unreadable page: %d", e);
    munmap(m, 2 * (size_t)pg);
}

/* BAES.C (guide 6.2): 400 x 10000 CBC single-block encryptions with the
 * key (dtxt) changed every 10000 and reloaded by PUSHF;POPF; the final
 * values are the guide's cbc_monte_e128 / cbc_monte_d128. */
static void test_baes(void)
{
    static const uint32_t want_e[4] = {0xBF4C842F, 0x0DA7EB78, 0x0196A4A7, 0xB61A8F38};
    static const uint32_t want_d[4] = {0x1EB78F9B, 0xF9EF5C03, 0x4613FACB, 0xE0EFACE5};
    _Alignas(16) static uint32_t ctxt[8], dtxt[8], zero[8];
    for (int dec = 0; dec < 2; dec++) {
        memset(ctxt, 0, sizeof ctxt); memset(dtxt, 0, sizeof dtxt); memset(zero, 0, sizeof zero);
        set_cw(dec ? 0x20a : 0x00a);
        for (int k = 0; k < 400; k++) {
            for (int j = 0; j < 10000; j++) {
                if (j == 0)
                    xcrypt_0xd0(cw, dtxt, zero, ctxt, ctxt + 4, 1);     /* KEYS: reload */
                else
                    cbc_noreload(cw, dtxt, zero, ctxt, ctxt + 4, 1);
                for (int n = 0; n < 4; n++) {
                    if (dec) { zero[n] = ctxt[n]; ctxt[n] = ctxt[4 + n]; }
                    else { ctxt[n] = zero[n]; zero[n] = ctxt[4 + n]; }
                }
            }
            for (int n = 0; n < 4; n++)
                dtxt[n] ^= dec ? ctxt[n] : zero[n];
        }
        CHECK(memcmp(dec ? ctxt : zero, dec ? want_d : want_e, 16) == 0,
              "BAES.C CBC Monte Carlo %s", dec ? "decrypt" : "encrypt");
    }
}

/* ---- SHA -------------------------------------------------------------------- */
static void test_sha(void)
{
    static const uint32_t iv1[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    static const uint32_t iv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    static const struct { const char *msg; long reps; const char *d1, *d256; } v[] = {
        {"abc", 1, "a9993e364706816aba3e25717850c26c9cd0d89d",
         "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", 1, "da39a3ee5e6b4b0d3255bfef95601890afd80709",
         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
         "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"a", 1000000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
         "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t len = strlen(v[i].msg) * (size_t)v[i].reps;
        uint8_t *m = malloc(len + 1);
        for (long r = 0; r < v[i].reps; r++)
            memcpy(m + r * (long)strlen(v[i].msg), v[i].msg, strlen(v[i].msg));
        for (int is256 = 0; is256 < 2; is256++) {
            _Alignas(16) uint32_t h[32];
            uint8_t d[32], want[32];
            memcpy(h, is256 ? iv256 : iv1, is256 ? 32 : 20);
            regs r = xsha(is256, m, len, h, 0);
            unsigned nw = is256 ? 8 : 5;
            for (unsigned w = 0; w < nw; w++)          /* 4.3: BSWAP each word */
                for (int b = 0; b < 4; b++)
                    d[4 * w + b] = (uint8_t)(h[w] >> (24 - 8 * b));
            unhex(want, is256 ? v[i].d256 : v[i].d1);
            CHECK(memcmp(d, want, 4 * nw) == 0, "FIPS 180 SHA-%s of %zu bytes", is256 ? "256" : "1", len);
            CHECK((unsigned long)r.eax == len && r.ecx == len && r.esi == m + len && r.edi == h,
                  "XSHA registers: EAX == ECX, ESI advanced, ECX and EDI kept");
        }
        /* The restart form (4.1 "Bytes Hashed: EAX"): EAX = bytes already
         * hashed (a multiple of 64), [EDI] = the chaining value after them
         * as little-endian words, ESI = the rest, ECX = the total.  What an
         * interrupted XSHA leaves, and what a streamed hash issues at final
         * from the chaining value it kept.  Here the million 'a' continued
         * after its first block, from the FIPS 180-4 compression of one
         * block of 64 'a' bytes (6.1.2, 6.2.2; computed independently of
         * the model), must give the FIPS digest. */
        if (v[i].reps == 1000000) {
            static const uint32_t a64_1[5] = {0xda4968eb, 0x2e377c1f, 0x884e8f52, 0x83524beb,
                                              0xe74ebdbd};
            static const uint32_t a64_256[8] = {0xdf5bb81c, 0xe81e0626, 0xfb45a894, 0x4fd40f31,
                                                0xb25e6816, 0xd6d499c1, 0xab904929, 0x00635e66};
            for (int is256 = 0; is256 < 2; is256++) {
                _Alignas(16) uint32_t h[32];
                uint8_t d[32], want[32];
                unsigned nw = is256 ? 8 : 5;
                memcpy(h, is256 ? a64_256 : a64_1, 4 * nw);
                regs r = xsha(is256, m + 64, len, h, 64);
                for (unsigned w = 0; w < nw; w++)
                    for (int b = 0; b < 4; b++)
                        d[4 * w + b] = (uint8_t)(h[w] >> (24 - 8 * b));
                unhex(want, is256 ? v[i].d256 : v[i].d1);
                CHECK(memcmp(d, want, 4 * nw) == 0, "SHA-%s continued after 64 of %zu bytes",
                      is256 ? "256" : "1", len);
                CHECK((unsigned long)r.eax == len && r.ecx == len && r.esi == m + len && r.edi == h,
                      "continued XSHA registers: EAX == ECX, ESI advanced by ECX - EAX");
            }
        }
        free(m);
    }
    /* ctest runs this program again with PADLOCK_MODEL_INTERRUPT=1, which
     * interrupts every XSHA of more than one block and restarts it from
     * the state it left */
}

/* ---- the XSHA block form (EAX = all ones) on the two CPU variants ----------- */
static const uint32_t blk_iv1[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
static const uint32_t blk_iv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
/* FIPS 180-4 compression of one block of 64 'a' bytes from the initial
 * value (computed independently of the model; test_sha uses them too) */
static const uint32_t blk_a64_1[5] = {0xda4968eb, 0x2e377c1f, 0x884e8f52, 0x83524beb, 0xe74ebdbd};
static const uint32_t blk_a64_256[8] = {0xdf5bb81c, 0xe81e0626, 0xfb45a894, 0x4fd40f31,
                                        0xb25e6816, 0xd6d499c1, 0xab904929, 0x00635e66};

/* Esther (the guide's C7, the model's default): EAX all ones is EAX above
 * ECX, undefined by the guide; the model's defined outcome is nothing at
 * all, so a program's known-answer probe fails and goes on. */
static void test_sha_blocks_esther(void)
{
    for (int is256 = 0; is256 < 2; is256++) {
        _Alignas(16) uint32_t h[32];
        uint8_t a[128];
        memset(a, 'a', sizeof a);
        memset(h, 0x33, sizeof h);
        memcpy(h, is256 ? blk_iv256 : blk_iv1, is256 ? 32 : 20);
        uint32_t before[32];
        memcpy(before, h, sizeof h);
        regs r = xsha(is256, a, 2, h, (unsigned long)-1);
        CHECK(memcmp(h, before, sizeof h) == 0, "esther: XSHA%s with EAX all ones writes nothing",
              is256 ? "256" : "1");
        CHECK(r.esi == a && r.ecx == 2 && r.edi == h && (unsigned long)r.eax == (unsigned long)-1,
              "esther: XSHA with EAX all ones keeps the registers");
    }
}

/* Nano: ECX 64-byte blocks hashed into [EDI], no padding, the value in the
 * guide's format (little-endian words at a 16-byte aligned EDI). */
static void misaligned_hash_blocks(void)
{
    memset(buf_in, 'a', 64);
    xsha(1, buf_in, 1, buf_out + 4, (unsigned long)-1);
}

static void test_sha_blocks_nano(void)
{
    static const char *const d1 = "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
                      *const d256 = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    size_t len = 1000000;   /* 15625 blocks: FIPS 180's million 'a' */
    uint8_t *m = malloc(len);
    memset(m, 'a', len);
    for (int is256 = 0; is256 < 2; is256++) {
        _Alignas(16) uint32_t h[32];
        unsigned nw = is256 ? 8 : 5;
        const char *name = is256 ? "256" : "1";
        /* one block: the chaining value stored as little-endian words */
        memset(h, 0, sizeof h);
        memcpy(h, is256 ? blk_iv256 : blk_iv1, 4 * nw);
        regs r = xsha(is256, m, 1, h, (unsigned long)-1);
        CHECK(memcmp(h, is256 ? blk_a64_256 : blk_a64_1, 4 * nw) == 0,
              "nano: XSHA%s block form, one block of 'a': FIPS 180-4 chaining value", name);
        CHECK(r.esi == m + 64 && r.ecx == 0 && r.edi == h && (unsigned long)r.eax == (unsigned long)-1,
              "nano: block form registers: ESI advanced by 64 ECX, ECX 0, EAX and EDI kept");
        /* the rest of the million in two block-form instructions, then the
         * guide's continued form with nothing left but the padding */
        r = xsha(is256, m + 64, 7000, h, (unsigned long)-1);
        CHECK(r.esi == m + 64 * 7001 && r.ecx == 0, "nano: 7000 blocks, ESI advanced");
        r = xsha(is256, m + 64 * 7001, 15625 - 7001, h, (unsigned long)-1);
        r = xsha(is256, m + len, len, h, len);
        uint8_t d[32], want[32];
        for (unsigned w = 0; w < nw; w++)
            for (int b = 0; b < 4; b++)
                d[4 * w + b] = (uint8_t)(h[w] >> (24 - 8 * b));
        unhex(want, is256 ? d256 : d1);
        CHECK(memcmp(d, want, 4 * nw) == 0 && r.esi == m + len && (unsigned long)r.eax == len,
              "nano: SHA-%s of a million 'a': block form, then the padding by the continued form",
              name);
    }
    free(m);
}

static int child_signal(void (*fn)(void));

/* The Nano checks run in a copy of this program started with
 * PADLOCK_MODEL_CPU=nano (the model reads its variant at load). */
static void test_sha_blocks(const char *self)
{
    test_sha_blocks_esther();
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        setenv("PADLOCK_MODEL_CPU", "nano", 1);
        execl(self, self, "--nano", (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(p, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the Nano variant's checks (--nano) passed");
}

/* ---- RNG ------------------------------------------------------------------- */
static void test_xstore(void)
{
    static const unsigned want[4] = {8, 4, 2, 1};
    uint8_t b[64];
    for (unsigned q = 0; q < 4; q++) {
        int got_data = 0;
        for (int tries = 0; tries < 8 && !got_data; tries++) {
            memset(b, 0xEE, sizeof b);
            regs r = xstore(b, q | 0xFFFFFFF0u, 0, 0);     /* upper EDX bits ignored */
            unsigned n = (unsigned)(uintptr_t)r.eax & 0x1f;
            CHECK(((uintptr_t)r.eax & 0x40) != 0, "XSTORE status has ENBL (MSR 0x110B bit 6)");
            CHECK(n == 0 || n == want[q], "XSTORE quality %u stored %u bytes", q, n);
            CHECK(r.edi == b + n, "EDI advanced by the count");
            if (n == 0) {
                CHECK(b[0] == 0xEE, "nothing stored when no data was ready");
                continue;
            }
            got_data = 1;
            unsigned stored = q == 0 ? 8 : 4;
            for (unsigned i = n; i < stored; i++)
                CHECK(b[i] == 0, "quality %u: store padded with zeros", q);
            CHECK(b[stored] == 0xEE, "quality %u: one or two four-byte stores only", q);
        }
        CHECK(got_data, "XSTORE quality %u returned data within 8 tries", q);
    }
    uint8_t x[48], y[48];
    memset(x, 0, sizeof x);
    regs r = xstore(x, 0, 1, 37);
    CHECK(r.ecx == 0 && r.edi == x + 37, "REP XSTORE: ECX = 0, EDI advanced by ECX");
    xstore(y, 0, 1, 37);
    CHECK(memcmp(x, y, 37) != 0, "two REP XSTOREs differ");
}

/* ---- PMM ---------------------------------------------------------------------- */
/* Numbers of up to 4096 + 128 bits as 32-bit words, least significant first. */
#define MMW (4096 / 32 + 4)
static _Alignas(16) uint32_t mm_a[MMW], mm_b[MMW], mm_t[MMW], mm_m[MMW], mm_s[8];

/* -m^-1 mod 2^32 by Newton's iteration (the guide's bigIntInvMon computes
 * the same bit by bit). */
static uint32_t neg_inv32(uint32_t m0)
{
    uint32_t x = m0;
    for (int i = 0; i < 5; i++)
        x *= 2 - m0 * x;
    return (uint32_t)0 - x;
}

/* r = x 2^k mod m for 64-bit m, by doubling (the checker's own arithmetic;
 * v + v mod m without a wider type: 32-bit builds have no __int128). */
static uint64_t mul_pow2_mod(uint64_t x, unsigned k, uint64_t m)
{
    uint64_t v = x % m;
    while (k--)
        v = v >= m - v ? v - (m - v) : v + v;
    return v;
}

static mm_regs run_montmul(unsigned bits, uint32_t mzp)
{
    static mm_ctx c;
    c.mzeroprime = mzp;
    c.a = mm_a; c.b = mm_b; c.t = mm_t; c.m = mm_m; c.scratch = mm_s;
    memset(mm_t, 0, sizeof mm_t);
    return montmul(&c, bits);
}

static void set_words(uint32_t *w, uint64_t v)
{
    memset(w, 0, 4 * MMW);
    w[0] = (uint32_t)v;
    w[1] = (uint32_t)(v >> 32);
}

/* MM.C's two sample cases (6.5, from Mathematica): c = a b mod m, and
 * rm = R^2 mod m for their R = 2^k (which checks the checker's doubling).
 * REP MONTMUL with ECX = 256 gives T = a b 2^-256 mod m (+ m at most);
 * T 2^256 mod m must be c. */
static void test_montmul_guide(void)
{
    static const struct { uint64_t m, a, b, k, rm, c; } cases[] = {
        {0x10a4201d, 0xa46aa5a, 0xb4a3016, 0x20, 0xa65c865, 0xd71a93},
        {0xf180d8c8b1ad8f1fu, 0xa78c9241808a4e34u, 0x9c8a755b17821505u, 0x40,
         0x5cdcb8ef8a4e7317u, 0x3b5ab8b2823c75b5u},
    };
    for (unsigned i = 0; i < 2; i++) {
        CHECK(mul_pow2_mod(1, (unsigned)(2 * cases[i].k), cases[i].m) == cases[i].rm,
              "MM.C case %u: rm = 2^(2k) mod m", i + 1);
        set_words(mm_a, cases[i].a);
        set_words(mm_b, cases[i].b);
        set_words(mm_m, cases[i].m);
        memset(mm_s, 0xEE, sizeof mm_s);
        mm_regs r = run_montmul(256, neg_inv32(mm_m[0]));
        uint64_t t = (uint64_t)mm_t[0] | (uint64_t)mm_t[1] << 32;
        int small = 1;
        for (unsigned j = 2; j < MMW; j++)
            small &= mm_t[j] == 0;
        CHECK(small && (t < cases[i].m || t - cases[i].m < cases[i].m), "MM.C case %u: T < 2m", i + 1);
        CHECK(mul_pow2_mod(t, 256, cases[i].m) == cases[i].c, "MM.C case %u: T 2^256 = a b mod m",
              i + 1);
        CHECK(r.ecx == 0 && r.edx == 0 && r.esi != NULL, "MONTMUL: ECX = 0, EDX = 0 after");
        CHECK(mm_s[0] != 0xEEEEEEEEu, "MONTMUL: the scratch area is the microcode's");
    }
}

/* Identities that need no big arithmetic: for M = 2^p - 1 < 2^ECX,
 * R = 2^ECX = 2^(ECX - p) mod M, so MONTMUL(A, 2^(ECX - p)) = A mod M; with
 * p = ECX (M just below R, where the partial product overflows ECX bits,
 * 5.2) MONTMUL(A, 1) = A.  T may exceed M by one M: T is A or A + M. */
static void test_montmul_mersenne(void)
{
    static const unsigned cases[][2] = {{256, 255}, {640, 521}, {1280, 1279}, {2304, 2203},
                                        {256, 256}, {2048, 2048}, {4096, 4096}, {4096, 4095}};
    unsigned seed = 12345;
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned bits = cases[i][0], p = cases[i][1], len = bits / 32;
        memset(mm_m, 0, sizeof mm_m);
        for (unsigned j = 0; j < p; j++)
            mm_m[j / 32] |= 1u << (j % 32);
        memset(mm_a, 0, sizeof mm_a);
        for (unsigned j = 0; j < len; j++) {
            seed = seed * 1103515245u + 12345u;
            mm_a[j] = seed ^ (seed << 13);
        }
        if (p % 32)
            mm_a[p / 32] &= (1u << (p % 32)) - 1;
        for (unsigned j = (p + 31) / 32; j < len; j++)
            mm_a[j] = 0;
        mm_a[(p - 1) / 32] &= ~(1u << ((p - 1) % 32));      /* A < M */
        memset(mm_b, 0, sizeof mm_b);
        mm_b[(bits - p) / 32] = 1u << ((bits - p) % 32);
        run_montmul(bits, neg_inv32(mm_m[0]));
        /* T == A, or T == A + M */
        int eq = memcmp(mm_t, mm_a, 4 * (size_t)(len + 4)) == 0;
        uint64_t carry = 0;
        int eq_plus_m = 1;
        for (unsigned j = 0; j < len + 4; j++) {
            uint64_t s = (uint64_t)mm_a[j] + mm_m[j] + carry;
            eq_plus_m &= (uint32_t)s == mm_t[j];
            carry = s >> 32;
        }
        CHECK(eq || eq_plus_m, "MONTMUL(A, R mod M) = A for M = 2^%u - 1, ECX = %u", p, bits);
        if (p != bits)
            continue;
        /* (M - 1)^2 R^-1 = 1 mod M when R = 1 mod M: the partial product
         * runs above 2^ECX here (the overflow of 5.2); T is 1 or M + 1 */
        memcpy(mm_a, mm_m, sizeof mm_a);
        mm_a[0] ^= 1;
        memcpy(mm_b, mm_a, sizeof mm_b);
        run_montmul(bits, neg_inv32(mm_m[0]));
        int one = 1, mp1 = 1;               /* T = 1, or T = M + 1 = 2^ECX */
        for (unsigned j = 0; j < len + 4; j++) {
            one &= mm_t[j] == (j == 0);
            mp1 &= mm_t[j] == (j == len);
        }
        CHECK(one || mp1, "MONTMUL(M - 1, M - 1) = R^-1 = 1 for M = 2^%u - 1", p);
    }
}

/* ---- faults, each in a child ------------------------------------------------ */
static int child_signal(void (*fn)(void))
{
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        int devnull = open("/dev/null", 1);
        if (devnull >= 0) dup2(devnull, 2);
        fn();
        _exit(0);
    }
    int st = 0;
    waitpid(p, &st, 0);
    return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}
static void misaligned_key(void) { set_cw(10); xcrypt_0xc8(cw, key + 8, NULL, buf_in, buf_out, 2); }
static void misaligned_ecb(void) { set_cw(10 | 0x20); xcrypt_0xc8(cw, key, NULL, buf_in + 4, buf_out, 2); }
static void misaligned_cbc_noalign(void) { set_cw(10); xcrypt_0xd0(cw, key, iv, buf_in + 4, buf_out, 2); }
static void misaligned_cw(void) { set_cw(10); xcrypt_0xd0(cw + 4, key, iv, buf_in, buf_out, 2); }
static void misaligned_hash(void) { xsha(0, "abc", 3, buf_out + 4, 0); }
/* EAX above ECX, not all ones and not a restart point (4.1): undefined */
static void xsha_eax_above(void) { xsha(1, buf_in, 1, buf_out, 128); }
static void sha_no_rep(void) { __asm__ __volatile__(".byte 0x0f,0xa6,0xc8" ::: "memory"); }
static void xcrypt_opsize(void) { __asm__ __volatile__(".byte 0x66,0xf3,0x0f,0xa7,0xc8" ::: "memory"); }
static void montmul_misaligned(void)
{
    static mm_ctx c;
    set_words(mm_m, 0x10a4201d);
    c.mzeroprime = neg_inv32(mm_m[0]);
    c.a = mm_a + 1; c.b = mm_b; c.t = mm_t; c.m = mm_m; c.scratch = mm_s;
    montmul(&c, 256);
}
static void montmul_no_rep(void) { __asm__ __volatile__(".byte 0x0f,0xa6,0xc0" ::: "memory"); }

static void test_faults(void)
{
    CHECK(child_signal(misaligned_key) == SIGSEGV, "misaligned key: #GP (SIGSEGV)");
    CHECK(child_signal(misaligned_ecb) == SIGSEGV, "ECB faults on misaligned data even with ALIGN");
    CHECK(child_signal(misaligned_cbc_noalign) == SIGSEGV, "CBC misaligned data without ALIGN: #GP");
    CHECK(child_signal(misaligned_cw) == SIGSEGV, "misaligned control word: #GP");
    CHECK(child_signal(misaligned_hash) == SIGSEGV, "misaligned hash pointer: #GP");
    CHECK(child_signal(sha_no_rep) == SIGILL, "XSHA without REP: #UD");
    CHECK(child_signal(xsha_eax_above) == SIGABRT, "XSHA with EAX above ECX: undefined, the model stops");
    CHECK(child_signal(xcrypt_opsize) == SIGILL, "operand-size prefix on XCRYPT: #UD");
    CHECK(child_signal(montmul_misaligned) == SIGSEGV, "MONTMUL with a misaligned A: #GP");
    CHECK(child_signal(montmul_no_rep) == SIGILL, "MONTMUL without REP: #UD");
    /* with ALIGN, CBC takes misaligned data and uses the 112 bytes after
     * the control word as scratch */
    uint8_t k[16], ivc[16], ct[64], pt[64];
    unhex(k, "2b7e151628aed2a6abf7158809cf4f3c");
    unhex(ivc, "000102030405060708090a0b0c0d0e0f");
    unhex(pt, P38A);
    unhex(ct, "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2");
    memcpy(key, k, 16);
    set_cw(10 | 0x20);
    memcpy(iv, ivc, 16);
    memcpy(buf_in + 3, pt, 32);
    xcrypt_0xd0(cw, key, iv, buf_in + 3, buf_out + 5, 2);
    CHECK(memcmp(buf_out + 5, ct, 32) == 0, "CBC with ALIGN on misaligned buffers");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--nano") == 0) {
        test_sha_blocks_nano();
        CHECK(child_signal(misaligned_hash_blocks) == SIGSEGV,
              "nano: block form with a misaligned hash pointer: #GP (SIGSEGV)");
        printf("nano: %d passed, %d failed\n", passed, failed);
        return failed != 0 || passed == 0;
    }
    make_sbox();
    test_fips197();
    test_sp800_38a();
    test_ctr_wrap();
    test_ecb_odd();
    test_key_reload();
    test_key_reload_page_start();
    test_errno_kept();
    test_sha();
    test_sha_blocks("/proc/self/exe");
    test_xstore();
    test_montmul_guide();
    test_montmul_mersenne();
    test_faults();
    if (argc > 1 && strcmp(argv[1], "--baes") == 0)
        test_baes();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0 || passed == 0;
}
