/*
 * padlock_model.c - an instruction model of VIA PadLock for x86 Linux
 * (x86-64 and 32-bit programs: built as either),
 * written from the VIA PadLock Programming Guide (VIA Technologies,
 * 4 Aug 2005; "the guide" below).
 *
 * Built as libincore_padlock_model.so.  Any unchanged program started with
 * LD_PRELOAD=libincore_padlock_model.so can execute PadLock instructions on
 * an Intel or AMD CPU: those opcodes are undefined there and raise #UD,
 * which Linux delivers as SIGILL; the constructor below installs a SIGILL
 * handler (sigaction, SA_SIGINFO) that decodes the instruction at the
 * faulting RIP, reads and writes registers (through the ucontext) and
 * memory as the guide specifies, advances RIP past the instruction and
 * returns.  Instructions modelled:
 *
 *   F3 0F A7 C8/D0/D8/E0/E8  REP XCRYPTECB/CBC/CTR/CFB/OFB  chapter 3
 *   F3 0F A6 C8/D0           REP XSHA1/XSHA256               chapter 4
 *   0F A7 C0, F3 0F A7 C0    XSTORE, REP XSTORE              chapter 2
 *   F3 0F A6 C0              REP MONTMUL                     chapter 5
 *
 * The arithmetic is this file's own textbook AES (FIPS 197), SHA-1 /
 * SHA-256 (FIPS 180-4) and 32-bit-digit Montgomery multiplication (MM.C,
 * 6.5): table-driven, simple, and independent of incore
 * (this object does not link the library), so a backend checked under the
 * model is checked against separate code.  model_check.c checks the model
 * alone against FIPS 197 / FIPS 180 / SP 800-38A vectors and the guide's
 * own Monte Carlo values (BAES.C).
 *
 * The guide's rules the model applies (section numbers of the guide):
 *  - prefixes: XCRYPT and XSHA need REP (without it: #UD); an operand-size
 *    prefix is #UD (3.1 "REP Prefix", 4.1); REPNE is undefined (the model
 *    stops); an address-size prefix (0x67) makes the pointers and counts
 *    32-bit; segment prefixes are ignored (ES is always used).
 *  - units: each can be turned off (PADLOCK_MODEL_UNITS); an instruction of
 *    a disabled unit raises #UD, as the guide says for a unit that is not
 *    present or not enabled; XCRYPTCTR needs ACE2 (the Esther column of
 *    chapter 3's tables), and the ALIGN and DGEST control-word bits are
 *    Esther (ACE2) features as well.
 *  - alignment (3.1 "Memory Formats", 3.2 "Control Word Pointer", 4.1):
 *    the control word (EDX), key (EBX), IV (EAX) and hash (EDI) pointers
 *    must be 16-byte aligned, and the data pointers (ESI, EDI) too unless
 *    the control word's ALIGN bit is set and the mode is not ECB; anything
 *    else is a general-protection fault, which Linux turns into SIGSEGV:
 *    the model prints what was misaligned and kills the program with
 *    SIGSEGV as the hardware would.  With ALIGN set, the 112 bytes after
 *    the control word are the microcode's scratch area: the model writes
 *    into them, so a caller that did not allocate 128 bytes finds out.
 *    XSHA likewise owns 128 bytes at EDI (4.1): the model writes past the
 *    hash into the rest of them.
 *  - the key reload rule (1 "Multi-Tasking", 3.2 "EFLAGS[30]"): the
 *    control word and key are loaded only when EFLAGS bit 30 is 0, and the
 *    instruction then sets it; any store of EFLAGS clears it.  The bit
 *    cannot be carried in the real EFLAGS (the kernel masks it out on
 *    sigreturn), so the model keeps it per thread: it is cleared by XSHA
 *    (4 "PHE": the XSHA microcode overwrites the control word), by a
 *    modelled interrupt, and by a PUSHF;POPF pair (0x9C 0x9D, the guide's
 *    recommended sequence) among the 64 bytes before the instruction (also
 *    across a page boundary) - the model cannot watch every instruction, so it takes the
 *    code that reloads near the XCRYPT as reloading each time, as BAES.C's
 *    loops and incore's backends do.  When bit 30 is set and the control
 *    word or key in memory differ from what was loaded, the model does
 *    what the hardware does - it uses the stale ones - and says so on
 *    stderr (PADLOCK_MODEL_QUIET=1 silences it).
 *  - ECB always works on pairs of blocks (3.3): with an odd count the block
 *    after the last one is read too (it must be readable) but not stored;
 *    and with ECX = 0 the first blocks are still read (1 "REP Prefixes").
 *  - chaining state after the instruction (3.1 "Initialization Vector
 *    Pointer"): CBC and CFB encryption change EAX itself (to point at the
 *    last ciphertext block), OFB, CTR and CBC/CFB decryption change the
 *    16 bytes at [EAX]; CTR increments only the last two bytes, as a 16-bit
 *    big-endian counter, wrapping without carry.  In digest mode (DGEST)
 *    CBC and CFB do not advance EDI.
 *  - registers after completion: XCRYPT: ECX = 0, ESI and EDI advanced by
 *    the bytes stored.  XSHA: EAX = ECX, ESI advanced, ECX and EDI kept,
 *    hash stored little-endian (4.3).  XSTORE: EAX = MSR 0x110B[31:5] and
 *    the byte count, EDI advanced by the random bytes stored; REP XSTORE
 *    leaves ECX = 0 and an undefined count field (the model puts 0x15 there)
 *    and may store up to 7 bytes past the end (2.1 "REP Count").
 *    REP MONTMUL (5.1): ECX = 0, EDX = 0, EAX undefined (the model puts
 *    0xA5A5A5A5 there), ESI unchanged, T = A B 2^-ECX mod M plus at most
 *    one M; the 32 scratch bytes overwritten.  ECX must be 256..32768 in
 *    steps of 128 and EAX 0 (else: undefined, the model stops); A, B, T,
 *    M and Scratch 16-byte aligned (else #GP); T all zero at the start
 *    and A, B, M zero in the 128 bits above ECX (else: the model stops,
 *    5.1 and MM.C); mZeroPrime must be -M^-1 mod 2^32 (else it stops).
 *  - interrupts (1 "REP Prefixes and Exception Handling", 2.1, 3.1, 4.1):
 *    with PADLOCK_MODEL_INTERRUPT=N every N-th PadLock instruction stops
 *    half way with the registers and memory the guide describes for an
 *    interrupted instruction (XCRYPT: ECX decremented, ESI/EDI and the
 *    chaining state advanced; XSHA: ESI and EAX advanced, intermediate hash
 *    stored; REP XSTORE: ECX and EDI; REP MONTMUL: ECX kept, the partial
 *    product in T, the restart state in EAX), RIP left on the instruction and
 *    EFLAGS[30] cleared, so the instruction restarts as after an interrupt.
 *  - XSTORE availability (2.1): with PADLOCK_MODEL_RNG_EMPTY=N (default 4)
 *    every N-th plain XSTORE finds fewer than 8 bytes ready and stores
 *    nothing (count 0); 0 means never.  The random bytes come from
 *    getrandom(2).  PADLOCK_MODEL_RNG_MSR sets the MSR 0x110B image
 *    returned in EAX (default 0x40: enabled, whitener on).
 *  - CPU variant (PADLOCK_MODEL_CPU): "esther" (default) is the guide's
 *    C7; "nano" adds the REP XSHA block form of VIA Nano and Zhaoxin
 *    (EAX = all ones, ECX = 64-byte blocks, no padding), which the guide
 *    does not describe.  On "esther" that register state is EAX above ECX,
 *    undefined; the model makes it do nothing (xsha_blocks), so that a
 *    known-answer probe for the form fails there instead of stopping the
 *    program.  CPUID answers the same for both: no bit announces the form.
 *  - the C7 CTR errata (6.6 CTR_ERRATA.C): PADLOCK_MODEL_CTR_ERRATA=1
 *    makes the counter advance one extra time when a REP XCRYPTCTR
 *    completes a block count that is a multiple of 2 (also at a modelled
 *    interrupt, so the restarted part then uses a wrong counter).
 *
 * CPUID: where the CPU supports CPUID faulting (arch_prctl ARCH_SET_CPUID,
 * many Intel CPUs), the model makes CPUID fault (SIGSEGV), answers leaf 0
 * with the vendor "CentaurHauls" and leaves 0xC0000000 / 0xC0000001 with
 * the modelled units present and enabled, and runs the real CPUID for the
 * rest.  Where it is not supported (AMD), programs must be told another
 * way (incore: INCORE_CPU=+padlock-ace,...).  PADLOCK_MODEL_STATS=1 prints
 * the number of instructions modelled at exit; xsha1-continued and
 * xsha256-continued count the REP XSHAs a program started at a restart
 * point of its own (EAX a non-zero multiple of 64, [EDI] the value after
 * those bytes: a message continued from a chaining value the program kept,
 * 4.1 "Bytes Hashed: EAX"), not counting the restarts of the model's own
 * interrupts.
 *
 * Single-threaded and multi-threaded programs both work: the ACE state is
 * per thread, as EFLAGS is.
 */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#define TLS __thread __attribute__((tls_model("initial-exec")))

/* 32-bit x86: the same code on the 32-bit register file (the names below
 * are x86-64's; the ucontext slots are EAX..EIP), addresses of 32 bits. */
#if defined(__i386__)
#define REG_RAX REG_EAX
#define REG_RBX REG_EBX
#define REG_RCX REG_ECX
#define REG_RDX REG_EDX
#define REG_RSI REG_ESI
#define REG_RDI REG_EDI
#define REG_RIP REG_EIP
#define ADDR_MASK UINT64_C(0xFFFFFFFF)
#else
#define ADDR_MASK (~UINT64_C(0))
#endif
/* a register as an unsigned value of its width (greg_t is signed: an
 * address above 2 GiB in a 32-bit program must not sign-extend) */
#define GREG_U(x) ((uint64_t)(uintptr_t)(x))

/* ======================================================================
 * Reference AES (FIPS 197), byte-oriented, from the definitions.
 * ==================================================================== */
static uint8_t sbox[256], inv_sbox[256];
static uint8_t mul_tab[16][256];   /* mul_tab[c][x] = c * x in GF(2^8), for the MixColumns constants */

static uint8_t xtime(uint8_t a) { return (uint8_t)((a << 1) ^ ((a >> 7) * 0x1b)); }

static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (; b; b >>= 1, a = xtime(a))
        if (b & 1)
            p ^= a;
    return p;
}

static uint8_t rotl8(uint8_t x, int n) { return (uint8_t)((x << n) | (x >> (8 - n))); }

/* 5.1.1: the S-box is the multiplicative inverse in GF(2^8) followed by
 * the affine map b ^ rotl(b,1..4) ^ 0x63. */
static void aes_tables(void)
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x; y++)
            if (gmul((uint8_t)x, (uint8_t)y) == 1) {
                inv = (uint8_t)y;
                break;
            }
        uint8_t s = inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63;
        sbox[x] = s;
        inv_sbox[s] = (uint8_t)x;
        for (int c = 0; c < 16; c++)
            mul_tab[c][x] = gmul((uint8_t)c, (uint8_t)x);
    }
}

/* state s[r + 4c] (3.4: the input bytes fill the columns) */
static void add_round_key(uint8_t s[16], const uint8_t k[16])
{
    for (int i = 0; i < 16; i++)
        s[i] ^= k[i];
}

static void sub_bytes(uint8_t s[16], const uint8_t box[256])
{
    for (int i = 0; i < 16; i++)
        s[i] = box[s[i]];
}

/* 5.1.2: row r rotates left by r (inverse: right by r) */
static void shift_rows(uint8_t s[16], int inverse)
{
    uint8_t t[16];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            int from = inverse ? (c - r + 4) % 4 : (c + r) % 4;
            t[r + 4 * c] = s[r + 4 * from];
        }
    memcpy(s, t, 16);
}

/* 5.1.3 / 5.3.3: columns times {03}x^3+{01}x^2+{01}x+{02}, or the inverse
 * {0b}x^3+{0d}x^2+{09}x+{0e}. */
static void mix_column(uint8_t *a, int inverse)
{
    static const uint8_t fwd[4] = {2, 3, 1, 1}, inv[4] = {14, 11, 13, 9};
    const uint8_t *m = inverse ? inv : fwd;
    uint8_t t[4];
    for (int r = 0; r < 4; r++)
        t[r] = mul_tab[m[(4 - r) % 4]][a[0]] ^ mul_tab[m[(5 - r) % 4]][a[1]] ^
               mul_tab[m[(6 - r) % 4]][a[2]] ^ mul_tab[m[(7 - r) % 4]][a[3]];
    memcpy(a, t, 4);
}

static void mix_columns(uint8_t s[16], int inverse)
{
    for (int c = 0; c < 4; c++)
        mix_column(s + 4 * c, inverse);
}

/* 5.1 Cipher with nr rounds and round keys rk[0..nr] */
static void aes_encrypt(const uint8_t rk[][16], unsigned nr, const uint8_t in[16], uint8_t out[16])
{
    uint8_t s[16];
    memcpy(s, in, 16);
    add_round_key(s, rk[0]);
    for (unsigned r = 1; r <= nr; r++) {
        sub_bytes(s, sbox);
        shift_rows(s, 0);
        if (r != nr)
            mix_columns(s, 0);
        add_round_key(s, rk[r]);
    }
    memcpy(out, s, 16);
}

/* 5.3.5 Equivalent Inverse Cipher with round keys dk[0..nr] in the order
 * they are used (dk[0] = last encryption round key, dk[nr] = the key). */
static void aes_decrypt(const uint8_t dk[][16], unsigned nr, const uint8_t in[16], uint8_t out[16])
{
    uint8_t s[16];
    memcpy(s, in, 16);
    add_round_key(s, dk[0]);
    for (unsigned r = 1; r <= nr; r++) {
        sub_bytes(s, inv_sbox);
        shift_rows(s, 1);
        if (r != nr)
            mix_columns(s, 1);
        add_round_key(s, dk[r]);
    }
    memcpy(out, s, 16);
}

/* 5.2 KeyExpansion for nk words of key, producing nrk round keys (the
 * hardware generator may be asked for up to 17: rounds 1..16). */
static void aes_expand(uint8_t rk[][16], const uint8_t *key, unsigned nk, unsigned nrk)
{
    uint8_t w[17 * 16];
    uint8_t rcon = 1;
    memcpy(w, key, 4 * nk);
    for (unsigned i = nk; i < 4 * nrk; i++) {
        uint8_t t[4];
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0) {
            uint8_t t0 = t[0];
            t[0] = sbox[t[1]] ^ rcon;
            t[1] = sbox[t[2]];
            t[2] = sbox[t[3]];
            t[3] = sbox[t0];
            rcon = xtime(rcon);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = sbox[t[j]];
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
    memcpy(rk, w, 16 * nrk);
}

/* 5.3.5: the decryption schedule of the Equivalent Inverse Cipher. */
static void aes_dec_schedule(uint8_t dk[][16], const uint8_t rk[][16], unsigned nr)
{
    for (unsigned i = 0; i <= nr; i++) {
        memcpy(dk[i], rk[nr - i], 16);
        if (i != 0 && i != nr)
            mix_columns(dk[i], 1);
    }
}

/* ======================================================================
 * Reference SHA-1 and SHA-256 compression (FIPS 180-4 6.1.2, 6.2.2).
 * ==================================================================== */
static uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void sha1_block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int t = 0; t < 16; t++)
        w[t] = be32(p + 4 * t);
    for (int t = 16; t < 80; t++)
        w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    for (int t = 0; t < 80; t++) {
        uint32_t f, k;
        if (t < 20) { f = (b & c) | (~b & d); k = 0x5a827999; }
        else if (t < 40) { f = b ^ c ^ d; k = 0x6ed9eba1; }
        else if (t < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8f1bbcdc; }
        else { f = b ^ c ^ d; k = 0xca62c1d6; }
        uint32_t tmp = rol(a, 5) + f + e + k + w[t];
        e = d; d = c; c = rol(b, 30); b = a; a = tmp;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

/* 4.2.2: the first 32 bits of the fractional parts of the cube roots of
 * the first 64 primes. */
static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static void sha256_block(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64], v[8];
    for (int t = 0; t < 16; t++)
        w[t] = be32(p + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    memcpy(v, h, sizeof v);
    for (int t = 0; t < 64; t++) {
        uint32_t S1 = ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25);
        uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
        uint32_t t1 = v[7] + S1 + ch + K256[t] + w[t];
        uint32_t S0 = ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22);
        uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
        uint32_t t2 = S0 + maj;
        memmove(v + 1, v, 7 * sizeof v[0]);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++)
        h[i] += v[i];
}

/* ======================================================================
 * Configuration, statistics, faults.
 * ==================================================================== */
enum { U_RNG = 1, U_ACE = 2, U_ACE2 = 4, U_PHE = 8, U_PMM = 16 };
static unsigned units = U_RNG | U_ACE | U_ACE2 | U_PHE | U_PMM;
static unsigned long interrupt_every, rng_empty_every = 4;
static uint32_t rng_msr = 0x40;    /* 2.2: RESET value, RNG enabled */
static int ctr_errata, quiet, stats;
static int nano;                   /* PADLOCK_MODEL_CPU=nano: the XSHA block form */
static struct sigaction old_ill, old_segv;
static int cpuid_faulting;

enum { I_ECB, I_CBC, I_CTR, I_CFB, I_OFB, I_SHA1, I_SHA256, I_SHA1_CONT, I_SHA256_CONT,
       I_SHA1_BLOCKS, I_SHA256_BLOCKS, I_SHA_ONES_NOOP,
       I_XSTORE, I_REPXSTORE, I_MONTMUL, I_MONTMUL_CARRY, I_CPUID, I_INTR, I_N };
static const char *const stat_names[I_N] = {
    "xcrypt-ecb", "xcrypt-cbc", "xcrypt-ctr", "xcrypt-cfb", "xcrypt-ofb", "xsha1", "xsha256",
    "xsha1-continued", "xsha256-continued", "xsha1-blocks", "xsha256-blocks", "xsha-eax-ones-ignored",
    "xstore", "rep-xstore", "montmul", "montmul-carry", "cpuid", "interrupted"};
static _Atomic unsigned long counts[I_N];
static _Atomic unsigned long executed, xstores;

static void say(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof buf - 1)
        n = (int)sizeof buf - 1;
    if (write(2, buf, (size_t)n) < 0) { /* nothing to do */ }
}

/* #GP (misaligned operand): Linux delivers SIGSEGV for a general
 * protection fault in user mode; so does the model. */
static void fault_gp(const char *what, uint64_t addr, uint64_t rip)
{
    say("padlock model: #GP at rip %#llx: %s %#llx is not 16-byte aligned\n",
        (unsigned long long)rip, what, (unsigned long long)addr);
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    _exit(128 + SIGSEGV);
}

/* #UD: what the CPU does without the unit (or with a forbidden prefix). */
static void fault_ud(const char *why, uint64_t rip)
{
    say("padlock model: #UD at rip %#llx: %s\n", (unsigned long long)rip, why);
    signal(SIGILL, SIG_DFL);
    raise(SIGILL);
    _exit(128 + SIGILL);
}

/* Behaviour the guide leaves undefined: stop rather than guess. */
static void undefined(const char *why, uint64_t rip)
{
    say("padlock model: undefined behaviour at rip %#llx: %s\n", (unsigned long long)rip, why);
    abort();
}

/* ======================================================================
 * Decoding and registers.
 * ==================================================================== */
typedef struct {
    greg_t *g;
    uint64_t rip, amask;   /* address-size mask: 2^64-1, or 2^32-1 with 0x67; 2^32-1 in 32-bit code */
    unsigned len;          /* instruction length including prefixes */
    int rep, repne, opsize, asize;   /* asize: an 0x67 prefix */
    uint8_t op, modrm;     /* 0xA6 / 0xA7 and the ModRM byte */
} insn;

static uint64_t reg(const insn *in, int r) { return GREG_U(in->g[r]) & in->amask; }
/* a 32-bit register write zero-extends in 64-bit mode */
static void set_reg(insn *in, int r, uint64_t v) { in->g[r] = (greg_t)(v & in->amask); }

static int decode(const uint8_t *p, insn *in)
{
    unsigned i = 0;
    in->rep = in->repne = in->opsize = in->asize = 0;
    in->amask = ADDR_MASK;
    for (; i < 14; i++) {
        uint8_t b = p[i];
        if (b == 0xF3) in->rep = 1;
        else if (b == 0xF2) in->repne = 1;
        else if (b == 0x66) in->opsize = 1;
        else if (b == 0x67) { in->amask = 0xFFFFFFFFu; in->asize = 1; }
        else if (b == 0x26 || b == 0x2E || b == 0x36 || b == 0x3E || b == 0x64 || b == 0x65) continue;
#if defined(__x86_64__)
        else if ((b & 0xF0) == 0x40 && p[i + 1] == 0x0F) continue;   /* REX: no effect */
#endif
        else break;
    }
    if (p[i] != 0x0F || (p[i + 1] != 0xA6 && p[i + 1] != 0xA7))
        return 0;
    in->op = p[i + 1];
    in->modrm = p[i + 2];
    in->len = i + 3;
    if (in->op == 0xA7)
        return in->modrm == 0xC0 || in->modrm == 0xC8 || in->modrm == 0xD0 || in->modrm == 0xD8 ||
               in->modrm == 0xE0 || in->modrm == 0xE8;
    return in->modrm == 0xC0 || in->modrm == 0xC8 || in->modrm == 0xD0;
}

/* Should this execution stop half way, as if interrupted? */
static int interrupt_now(void)
{
    unsigned long n = atomic_fetch_add(&executed, 1) + 1;
    return interrupt_every && n % interrupt_every == 0;
}

/* ======================================================================
 * ACE: REP XCRYPT (chapter 3).
 * ==================================================================== */
#define CW_ROUND  0x00Fu
#define CW_DGEST  0x010u
#define CW_ALIGN  0x020u
#define CW_CIPHR  0x040u
#define CW_KEYGN  0x080u
#define CW_INTER  0x100u
#define CW_CRYPT  0x200u
#define CW_KSIZE  0xC00u

/* The engine's registers: control word and round keys, loaded when
 * EFLAGS[30] is 0.  Per thread, as EFLAGS is. */
typedef struct {
    int eflags30;            /* the model's copy of EFLAGS bit 30 */
    uint8_t cw_image[16];    /* control word as loaded */
    uint8_t key_image[256];  /* key memory as loaded (16 or 256 bytes used) */
    unsigned key_bytes;
    uint32_t cw;
    unsigned nr;
    uint8_t rk[17][16];      /* encryption round keys (CFB, OFB, CTR; ECB/CBC encrypt) */
    uint8_t dk[17][16];      /* decryption round keys in use order (ECB/CBC decrypt) */
} ace_regs;
static TLS ace_regs ace;

/* The guide's recommended PUSHF; POPF (0x9C 0x9D) shortly before this
 * instruction: the model takes it as an EFLAGS store that cleared bit 30.
 * The 64 bytes before RIP may start on the previous page (the instruction
 * can sit just past a page boundary with its PUSHF; POPF before it), which
 * may be unmapped: they are read with process_vm_readv on this process,
 * which fails instead of faulting; if it fails, only the bytes in RIP's own
 * page are looked at. */
static int reload_sequence_before(uint64_t rip)
{
    uint8_t buf[64];
    unsigned back = 64;
    const uint8_t *p = buf + sizeof buf;
    struct iovec local = {buf, sizeof buf};
    struct iovec remote = {(void *)(uintptr_t)(rip - sizeof buf), sizeof buf};
    if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)sizeof buf) {
        back = (unsigned)(rip & 0xFFF) < 64 ? (unsigned)(rip & 0xFFF) : 64;
        p = (const uint8_t *)(uintptr_t)rip;
    }
    for (unsigned i = 2; i <= back; i++)
        if (p[-(long)i] == 0x9C && p[-(long)i + 1] == 0x9D)
            return 1;
    return 0;
}

static void ace_load(const insn *in, const uint8_t *cwp, const uint8_t *key)
{
    uint32_t cw = (uint32_t)cwp[0] | (uint32_t)cwp[1] << 8 | (uint32_t)cwp[2] << 16 |
                  (uint32_t)cwp[3] << 24;
    unsigned ksize = (cw & CW_KSIZE) >> 10, nr = cw & CW_ROUND ? cw & CW_ROUND : 16;
    if (cw & 0xFFFFF000u)
        undefined("reserved control word bits 31:12 set", in->rip);
    if (ksize == 3)
        undefined("control word key size 3 (reserved)", in->rip);
    if (cw & CW_CIPHR)
        undefined("control word CIPHR = 1 (only AES is defined)", in->rip);
    if (cw & CW_INTER)
        undefined("intermediate-result mode (CW[8]) is not modelled", in->rip);
    if (!(units & U_ACE2) && (cw & (CW_ALIGN | CW_DGEST)))
        undefined("ALIGN / DGEST control word bits on an ACE (Nehemiah) unit", in->rip);
    memcpy(ace.cw_image, cwp, 16);
    ace.cw = cw;
    ace.nr = nr;
    if (!(cw & CW_KEYGN)) {
        /* 3.2 "Extended Keys": hardware generation, 128-bit keys only */
        if (ksize != 0)
            undefined("hardware key generation (KEYGN = 0) with a 192/256-bit key size", in->rip);
        aes_expand(ace.rk, key, 4, nr + 1);
        aes_dec_schedule(ace.dk, ace.rk, nr);
        memcpy(ace.key_image, key, 16);
        ace.key_bytes = 16;
    } else {
        /* application-provided: "the hardware always loads sixteen 128-bit
         * values", the key (or, for decryption, the first key used) first */
        if (nr > 15)
            undefined("loaded key schedule with 16 rounds needs 17 round keys", in->rip);
        memcpy(ace.key_image, key, 256);
        ace.key_bytes = 256;
        /* one schedule, used as loaded: by the inverse cipher for ECB/CBC
         * decryption, forward by every mode that only needs the forward
         * cipher (CFB, OFB, CTR whatever CRYPT says, as OpenSSL's and
         * Linux's PadLock code load encryption keys for them) */
        memcpy(ace.rk, key, 256);
        memcpy(ace.dk, key, 256);
    }
    ace.eflags30 = 1;
}

/* EFLAGS[30] is 1 and the memory no longer matches what is loaded. */
static void stale_warning(const insn *in, const uint8_t *cwp, const uint8_t *key)
{
    if (quiet)
        return;
    if (memcmp(ace.cw_image, cwp, 16) != 0 || memcmp(ace.key_image, key, ace.key_bytes) != 0)
        say("padlock model: REP XCRYPT at rip %#llx runs with the control word and key loaded "
            "earlier (EFLAGS[30] = 1, no PUSHF;POPF before it) although the ones in memory "
            "changed; the hardware would use the stale ones too\n",
            (unsigned long long)in->rip);
}

static void ctr_inc16(uint8_t ctr[16])
{
    uint16_t c = (uint16_t)(ctr[14] << 8 | ctr[15]);
    c++;
    ctr[14] = (uint8_t)(c >> 8);
    ctr[15] = (uint8_t)c;
}

/* ECB and CBC: the direction the control word says. */
static void block_cipher(const uint8_t in[16], uint8_t out[16])
{
    if (ace.cw & CW_CRYPT)
        aes_decrypt(ace.dk, ace.nr, in, out);
    else
        aes_encrypt(ace.rk, ace.nr, in, out);
}

/* CFB, OFB, CTR: the forward cipher only (keystream). */
static void forward(const uint8_t in[16], uint8_t out[16])
{
    aes_encrypt(ace.rk, ace.nr, in, out);
}

static void do_xcrypt(insn *in)
{
    static const int ids[] = {[0xC8 >> 3 & 7] = I_ECB, [0xD0 >> 3 & 7] = I_CBC,
                              [0xD8 >> 3 & 7] = I_CTR, [0xE0 >> 3 & 7] = I_CFB,
                              [0xE8 >> 3 & 7] = I_OFB};
    int mode = ids[in->modrm >> 3 & 7];
    if (!in->rep)
        fault_ud("XCRYPT without the REP prefix", in->rip);
    if (in->opsize)
        fault_ud("operand-size prefix on REP XCRYPT", in->rip);
    if (in->repne)
        undefined("REPNE prefix on XCRYPT", in->rip);
    if (!(units & U_ACE))
        fault_ud("ACE not present or not enabled", in->rip);
    if (mode == I_CTR && !(units & U_ACE2))
        fault_ud("REP XCRYPTCTR needs ACE2", in->rip);

    uint64_t cwa = reg(in, REG_RDX), keya = reg(in, REG_RBX), iva = reg(in, REG_RAX);
    uint64_t src = reg(in, REG_RSI), dst = reg(in, REG_RDI), n = reg(in, REG_RCX);
    if (cwa & 15)
        fault_gp("control word pointer EDX", cwa, in->rip);
    if (keya & 15)
        fault_gp("key pointer EBX", keya, in->rip);
    if (mode != I_ECB && (iva & 15))
        fault_gp("IV pointer EAX", iva, in->rip);
    const uint8_t *cwp = (const uint8_t *)(uintptr_t)cwa;
    const uint8_t *key = (const uint8_t *)(uintptr_t)keya;

    if (reload_sequence_before(in->rip))
        ace.eflags30 = 0;
    if (!ace.eflags30)
        ace_load(in, cwp, key);
    else
        stale_warning(in, cwp, key);

    int unaligned_ok = (ace.cw & CW_ALIGN) && mode != I_ECB;
    if (!unaligned_ok && (src & 15))
        fault_gp("source pointer ESI", src, in->rip);
    if (!unaligned_ok && (dst & 15))
        fault_gp("destination pointer EDI", dst, in->rip);
    int digest = (ace.cw & CW_DGEST) && (mode == I_CBC || mode == I_CFB);
    int enc = !(ace.cw & CW_CRYPT);

    /* ECX = 0 still loads the first block(s) (1, "REP Prefixes") */
    if (n == 0) {
        volatile const uint8_t *s = (const uint8_t *)(uintptr_t)src;
        for (unsigned i = 0; i < (mode == I_ECB ? 32u : 16u); i += 8)
            (void)s[i];
        in->g[REG_RIP] += in->len;
        return;
    }

    /* how far this execution gets: all, or half when "interrupted" */
    uint64_t todo = n;
    int intr = 0;
    if (interrupt_now()) {
        uint64_t k = (mode == I_ECB || mode == I_CTR) ? (n / 2) & ~UINT64_C(1) : n / 2;
        if (k >= 1 && k < n) {
            todo = k;
            intr = 1;
        }
    }

    uint8_t iv[16], blk[16], out[16];
    if (mode != I_ECB)
        memcpy(iv, (const void *)(uintptr_t)iva, 16);
    if ((ace.cw & CW_ALIGN) && ((src | dst) & 15) && mode != I_ECB)
        memset((uint8_t *)(uintptr_t)cwa + 16, 0xA5, 112);   /* microcode scratch */
    uint64_t last_ct = 0;   /* CBC/CFB encryption: address of the last ciphertext block */
    for (uint64_t i = 0; i < todo; i++) {
        const uint8_t *ip = (const uint8_t *)(uintptr_t)((src + 16 * i) & in->amask);
        uint8_t *op = (uint8_t *)(uintptr_t)((dst + (digest ? 0 : 16 * i)) & in->amask);
        memcpy(blk, ip, 16);            /* copy first: ESI == EDI is allowed */
        switch (mode) {
        case I_ECB:
            block_cipher(blk, out);
            break;
        case I_CBC:
            if (enc) {
                for (int j = 0; j < 16; j++)
                    blk[j] ^= iv[j];
                block_cipher(blk, out);
                memcpy(iv, out, 16);
            } else {
                block_cipher(blk, out);
                for (int j = 0; j < 16; j++)
                    out[j] ^= iv[j];
                memcpy(iv, blk, 16);
            }
            break;
        case I_CFB: {
            uint8_t ks[16];
            forward(iv, ks);   /* CRYPT only says which block is fed back */
            for (int j = 0; j < 16; j++)
                out[j] = blk[j] ^ ks[j];
            memcpy(iv, enc ? out : blk, 16);
            break;
        }
        case I_OFB:
            forward(iv, iv);
            for (int j = 0; j < 16; j++)
                out[j] = blk[j] ^ iv[j];
            break;
        case I_CTR: {
            uint8_t ks[16];
            forward(iv, ks);
            for (int j = 0; j < 16; j++)
                out[j] = blk[j] ^ ks[j];
            ctr_inc16(iv);
            break;
        }
        }
        memcpy(op, out, 16);
        last_ct = (uint64_t)(uintptr_t)op;
    }
    /* ECB pairs blocks: an odd count reads the next block too (3.3) */
    if (mode == I_ECB && (todo & 1) && !intr) {
        volatile const uint8_t *extra = (const uint8_t *)(uintptr_t)((src + 16 * todo) & in->amask);
        for (int j = 0; j < 16; j += 8)
            (void)extra[j];
    }
    if (mode == I_CTR && ctr_errata && todo % 2 == 0)
        ctr_inc16(iv);   /* C7 stepping 8 errata (6.6) */

    /* chaining state (3.1 "Initialization Vector Pointer") */
    if ((mode == I_CBC || mode == I_CFB) && enc && (last_ct & 15)) {
        /* EAX itself changes, and must stay aligned: with ALIGN and a
         * misaligned output the block goes through the aligned scratch
         * area after the control word (3.2), and EAX points there */
        memcpy((uint8_t *)(uintptr_t)cwa + 16, iv, 16);
        set_reg(in, REG_RAX, cwa + 16);
    } else if ((mode == I_CBC || mode == I_CFB) && enc)
        set_reg(in, REG_RAX, last_ct);     /* EAX itself changes */
    else if (mode != I_ECB)
        memcpy((void *)(uintptr_t)iva, iv, 16);
    set_reg(in, REG_RSI, src + 16 * todo);
    if (!digest)
        set_reg(in, REG_RDI, dst + 16 * todo);
    set_reg(in, REG_RCX, n - todo);
    atomic_fetch_add(&counts[mode], 1);
    if (intr) {
        ace.eflags30 = 0;     /* the interrupt stored EFLAGS */
        atomic_fetch_add(&counts[I_INTR], 1);
        return;               /* RIP stays: the instruction restarts */
    }
    in->g[REG_RIP] += in->len;
}

/* ======================================================================
 * PHE: REP XSHA1 / REP XSHA256 (chapter 4).
 * ==================================================================== */
/* the restart point an interrupted XSHA of this thread was left at, so
 * that its restart is not counted as a continued message */
static TLS uint64_t xsha_left_rip, xsha_left_eax;

/* EAX = all ones (of the operand size: 2^64 - 1 in 64-bit code, 2^32 - 1
 * in 32-bit code or with an address-size prefix), ECX = blocks.
 *  - Nano variant: the block form of VIA Nano and Zhaoxin (not in the
 *    guide): ECX 64-byte blocks at ESI hashed into the chaining value at
 *    EDI, no padding; the value is read and stored as in the guide's form
 *    (EDI 16-byte aligned, checked by the caller, little-endian words,
 *    4.3, the rest of the 128 bytes the microcode's), and stored after
 *    every block.  As a REP instruction: ESI advanced and ECX counted
 *    down per block, EAX and EDI kept; an interrupt leaves ECX blocks to
 *    do and RIP on the instruction.  Blocks counted (xsha*-blocks).
 *  - Esther variant (the guide's C7, the default): for the guide this is
 *    EAX above ECX, undefined.  The model gives it one defined outcome, so
 *    that a known-answer probe can run and fail: nothing happens (no
 *    memory written, registers kept, RIP advanced), counted as
 *    xsha-eax-ones-ignored.  A program that used the form without probing
 *    gets unchanged chaining values and wrong digests. */
/* n 64-byte blocks at src into the state h (is256: SHA-256, else SHA-1),
 * the state stored to h8 as little-endian words after every block, as the
 * guide says PHE does (4.1). */
static void hash_blocks(const insn *in, int is256, uint32_t h[8], uint8_t *h8, uint64_t src, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *p = (const uint8_t *)(uintptr_t)((src + 64 * i) & in->amask);
        if (is256)
            sha256_block(h, p);
        else
            sha1_block(h, p);
        memcpy(h8, h, 4 * (is256 ? 8 : 5));
    }
}

static void xsha_blocks(insn *in, int is256, uint64_t src, uint64_t hp, uint64_t nblocks)
{
    ace.eflags30 = 0;                 /* XSHA rewrites the ACE control word (1, "PHE") */
    if (!nano) {
        atomic_fetch_add(&counts[I_SHA_ONES_NOOP], 1);
        in->g[REG_RIP] += in->len;
        return;
    }
    uint8_t *h8 = (uint8_t *)(uintptr_t)hp;
    unsigned nw = is256 ? 8 : 5;
    uint32_t h[8];
    memcpy(h, h8, 4 * nw);            /* little-endian words (4.3) */
    memset(h8 + 32, 0x5A, 96);
    uint64_t todo = nblocks;
    int intr = 0;
    if (interrupt_now() && nblocks >= 2) {
        todo = nblocks / 2;
        intr = 1;
    }
    hash_blocks(in, is256, h, h8, src, todo);
    atomic_fetch_add(&counts[is256 ? I_SHA256 : I_SHA1], 1);
    atomic_fetch_add(&counts[is256 ? I_SHA256_BLOCKS : I_SHA1_BLOCKS], todo);
    set_reg(in, REG_RSI, src + 64 * todo);
    set_reg(in, REG_RCX, nblocks - todo);
    if (intr) {
        atomic_fetch_add(&counts[I_INTR], 1);
        return;                       /* RIP stays: the instruction restarts */
    }
    in->g[REG_RIP] += in->len;
}

static void do_xsha(insn *in)
{
    int is256 = in->modrm == 0xD0;
    if (!in->rep)
        fault_ud("XSHA without the REP prefix", in->rip);
    if (in->opsize)
        fault_ud("operand-size prefix on REP XSHA", in->rip);
    if (in->repne)
        undefined("REPNE prefix on XSHA", in->rip);
    if (!(units & U_PHE))
        fault_ud("PHE not present or not enabled", in->rip);
    uint64_t src = reg(in, REG_RSI), hp = reg(in, REG_RDI);
    uint64_t total = reg(in, REG_RCX), done = reg(in, REG_RAX);
    if (hp & 15)
        fault_gp("hash pointer EDI", hp, in->rip);
    if (done == in->amask) {          /* EAX all ones: the block form, or nothing */
        xsha_blocks(in, is256, src, hp, total);
        return;
    }
    if (done > total || (done % 64) != 0)
        undefined("EAX (bytes hashed) is not 0, nor a restart point (a multiple of 64 "
                  "not above ECX)", in->rip);
    if (done != 0 && !(in->rip == xsha_left_rip && done == xsha_left_eax))
        atomic_fetch_add(&counts[is256 ? I_SHA256_CONT : I_SHA1_CONT], 1);
    xsha_left_rip = xsha_left_eax = 0;
    uint8_t *h8 = (uint8_t *)(uintptr_t)hp;
    unsigned nw = is256 ? 8 : 5;
    uint32_t h[8];
    memcpy(h, h8, 4 * nw);            /* little-endian words (4.3) */
    memset(h8 + 32, 0x5A, 96);        /* the rest of the 128 bytes is the microcode's */
    ace.eflags30 = 0;                 /* XSHA rewrites the ACE control word (1, "PHE") */

    uint64_t whole = (total - done) / 64, todo = whole;
    int intr = 0;
    if (interrupt_now() && whole >= 2) {
        todo = whole / 2;
        intr = 1;
    }
    hash_blocks(in, is256, h, h8, src, todo);
    src += 64 * todo;
    done += 64 * todo;
    atomic_fetch_add(&counts[is256 ? I_SHA256 : I_SHA1], 1);
    if (intr) {
        set_reg(in, REG_RSI, src);
        set_reg(in, REG_RAX, done);
        xsha_left_rip = in->rip;
        xsha_left_eax = reg(in, REG_RAX);
        atomic_fetch_add(&counts[I_INTR], 1);
        return;
    }
    /* the padding of FIPS 180-4 5.1.1, done by the microcode */
    uint8_t last[128];
    uint64_t rest = total - done, bits = total * 8;
    memset(last, 0, sizeof last);
    memcpy(last, (const void *)(uintptr_t)src, (size_t)rest);
    last[rest] = 0x80;
    size_t nb = rest + 9 <= 64 ? 64 : 128;
    for (int i = 0; i < 8; i++)
        last[nb - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t off = 0; off < nb; off += 64)
        if (is256)
            sha256_block(h, last + off);
        else
            sha1_block(h, last + off);
    memcpy(h8, h, 4 * nw);
    set_reg(in, REG_RSI, src + rest);
    set_reg(in, REG_RAX, total);
    in->g[REG_RIP] += in->len;
}

/* ======================================================================
 * PMM: REP MONTMUL (chapter 5).
 *
 * T = A * B * 2^-ECX mod M, not fully reduced (T < 2M for A, B < M: the
 * caller subtracts M once when T >= M, as MMTEST.C's MulMon does), from
 * the definition (P. Montgomery, "Modular multiplication without trial
 * division", Math. Comp. 44, 1985) one 32-bit digit of B at a time, the
 * digit size of the hardware's mZeroPrime and of MM.C's loop (6.5):
 *   for i < ECX/32:  t = (t + A b_i + u M) / 2^32,  u = (t + A b_i) m' mod 2^32
 * where m' is the context's mZeroPrime (-M^-1 mod 2^32).  The partial
 * product lives in the T buffer itself and is stored after every step
 * ("continuously updated in memory", 5.1), which is also the restart
 * state of an interrupted instruction.  Plain 32x32->64-bit arithmetic of
 * its own; it shares nothing with incore's 64-bit CIOS code.
 *
 * The context at ESI (5.1 "Pointer to Montgomery Context"): the guide
 * gives the 32-bit layout (a 32-bit mZeroPrime, then the pointers A, B, T,
 * M and Scratch), which 32-bit programs get.  In 64-bit mode the model reads it as that C struct
 * compiled for x86-64: mZeroPrime at 0, the five 64-bit pointers at 8, 16,
 * 24, 32, 40 (an assumption: the guide predates 64-bit VIA CPUs; an
 * address-size prefix, which would make the pointers 32-bit, is left
 * undefined).
 * ==================================================================== */
#define PMM_MAX_WORDS (32768 / 32 + 4)

typedef struct {
    uint32_t mzp;
    uint64_t a, b, t, m, scratch;
} pmm_ctx;

static void pmm_read_ctx(const insn *in, pmm_ctx *c)
{
    const uint8_t *p = (const uint8_t *)(uintptr_t)reg(in, REG_RSI);
    uint64_t ptr[5];
    memcpy(&c->mzp, p, 4);
#if defined(__i386__)
    uint32_t p32[5];   /* the guide's own layout: pointers at 4, 8, 12, 16, 20 */
    memcpy(p32, p + 4, sizeof p32);
    for (int i = 0; i < 5; i++)
        ptr[i] = p32[i];
#else
    memcpy(ptr, p + 8, sizeof ptr);
#endif
    c->a = ptr[0];
    c->b = ptr[1];
    c->t = ptr[2];
    c->m = ptr[3];
    c->scratch = ptr[4];
}

/* A big integer of the context: 16-byte aligned (5.1 "Memory Formats"),
 * ECX bits plus the 128 bits of the guide's bigint (VALUE[MAX_WORDS+4]),
 * read whole before anything is written (5.1: every buffer is touched
 * before the calculation starts, so a page fault comes first).  For A, B
 * and M those extra words must be zero: MM.C's loop reads them once the
 * partial product has overflowed. */
static const uint32_t *pmm_operand(const insn *in, const char *what, uint64_t addr, unsigned len,
                                   uint32_t *copy, int pad_zero)
{
    if (addr & 15)
        fault_gp(what, addr, in->rip);
    memcpy(copy, (const void *)(uintptr_t)addr, 4 * (size_t)(len + 4));
    for (unsigned i = len; pad_zero && i < len + 4; i++)
        if (copy[i] != 0)
            undefined("a MONTMUL operand has non-zero words in the 128 bits above ECX", in->rip);
    return copy;
}

/* One step of the loop: t = (t + a bi + u m) / 2^32 over len + 4 words
 * (the top ones hold the carries); returns 1 when the partial product
 * reached above ECX bits, the overflow of 5.2 that costs the hardware
 * extra inner-loop passes. */
static int pmm_step(uint32_t *t, const uint32_t *a, uint32_t bi, const uint32_t *m, uint32_t mzp,
                    unsigned len)
{
    uint64_t x = (uint64_t)a[0] * bi + t[0];
    uint32_t u = (uint32_t)x * mzp;
    uint64_t y = (uint64_t)u * m[0] + (uint32_t)x;      /* low word becomes 0 */
    uint64_t c1 = x >> 32, c2 = y >> 32;
    for (unsigned j = 1; j < len + 4; j++) {
        x = (uint64_t)a[j] * bi + t[j] + c1;
        y = (uint64_t)u * m[j] + (uint32_t)x + c2;
        c1 = x >> 32;
        c2 = y >> 32;
        t[j - 1] = (uint32_t)y;
    }
    t[len + 3] = (uint32_t)(c1 + c2);
    return t[len] != 0 || t[len + 1] != 0;
}

static void do_montmul(insn *in)
{
    if (!in->rep)
        fault_ud("MONTMUL without the REP prefix", in->rip);
    if (in->repne)
        undefined("REPNE prefix on MONTMUL (5.1: undefined)", in->rip);
    if (in->asize)
        undefined("address-size prefix on MONTMUL in 64-bit mode (the context layout with "
                  "32-bit addresses is not specified)", in->rip);
    if (!(units & U_PMM))
        fault_ud("PMM not present or not enabled", in->rip);
    /* "the full 32 bit EAX and ECX registers are used regardless of any
     * address or operand prefix" */
    uint32_t bits = (uint32_t)in->g[REG_RCX], state = (uint32_t)in->g[REG_RAX];
    if (bits < 256 || bits > 32768 || bits % 128 != 0)
        undefined("MONTMUL ECX outside 256..32768 or not a multiple of 128", in->rip);
    unsigned len = bits / 32;
    if (state >= len)
        undefined("MONTMUL EAX is neither 0 nor a restart state this model left", in->rip);

    pmm_ctx c;
    pmm_read_ctx(in, &c);
    uint32_t a[PMM_MAX_WORDS], b[PMM_MAX_WORDS], m[PMM_MAX_WORDS], t[PMM_MAX_WORDS];  /* 16 KiB */
    pmm_operand(in, "MONTMUL A", c.a, len, a, 1);
    pmm_operand(in, "MONTMUL B", c.b, len, b, 1);
    pmm_operand(in, "MONTMUL M", c.m, len, m, 1);
    pmm_operand(in, "MONTMUL T", c.t, len, t, 0);
    if (c.scratch & 15)
        fault_gp("MONTMUL scratch buffer", c.scratch, in->rip);
    if (!(m[0] & 1))
        undefined("MONTMUL with an even modulus (no mZeroPrime exists)", in->rip);
    if ((uint32_t)(m[0] * c.mzp) != 0xFFFFFFFFu)
        undefined("MONTMUL mZeroPrime is not -M^-1 mod 2^32", in->rip);
    if (state == 0)
        for (unsigned i = 0; i < len + 4; i++)
            if (t[i] != 0)
                undefined("MONTMUL T buffer not all zero at the start (5.1: \"initially must be "
                          "all zero\")", in->rip);
    /* the scratch area belongs to the microcode: leave marks in it */
    memset((void *)(uintptr_t)c.scratch, 0x5A, 32);

    unsigned stop = len;
    int intr = 0;
    if (interrupt_now() && len - state >= 2) {
        stop = state + (len - state) / 2;
        intr = 1;
    }
    uint32_t *tm = (uint32_t *)(uintptr_t)c.t;
    int carried = 0;
    for (unsigned i = state; i < stop; i++) {
        carried |= pmm_step(t, a, b[i], m, c.mzp, len);
        memcpy(tm, t, 4 * (size_t)(len + 4));        /* partial product in memory */
    }
    atomic_fetch_add(&counts[I_MONTMUL], 1);
    if (carried)
        atomic_fetch_add(&counts[I_MONTMUL_CARRY], 1);
    if (intr) {
        /* ECX kept, the state in EAX, EDX some temporary (5.1) */
        in->g[REG_RAX] = (greg_t)stop;
        in->g[REG_RDX] = (greg_t)t[0];
        atomic_fetch_add(&counts[I_INTR], 1);
        return;                                      /* RIP stays: restarts */
    }
    in->g[REG_RCX] = 0;
    in->g[REG_RDX] = 0;
    in->g[REG_RAX] = (greg_t)0xA5A5A5A5u;            /* undefined after completion */
    in->g[REG_RIP] += in->len;
}

/* ======================================================================
 * RNG: XSTORE / REP XSTORE (chapter 2).
 * ==================================================================== */
static void random_bytes(uint8_t *p, size_t n)
{
    while (n) {
        ssize_t r = getrandom(p, n, 0);
        if (r <= 0)
            continue;
        p += r;
        n -= (size_t)r;
    }
}

/* One internal XSTORE: the quality factor's store (2.1 table); returns the
 * random byte count. */
static unsigned xstore_once(uint8_t *dst, unsigned q)
{
    static const unsigned random_n[4] = {8, 4, 2, 1}, stored_n[4] = {8, 4, 4, 4};
    uint8_t b[8] = {0};
    random_bytes(b, random_n[q]);
    memcpy(dst, b, stored_n[q]);       /* one or two four-byte stores */
    return random_n[q];
}

static void do_xstore(insn *in)
{
    if (in->repne)
        undefined("REPNE prefix on XSTORE", in->rip);
    if (!(units & U_RNG) || !(rng_msr & 0x40))
        fault_ud("RNG not present or not enabled", in->rip);
    unsigned q = (unsigned)in->g[REG_RDX] & 3;   /* only EDX[1:0] count */
    uint64_t dst = reg(in, REG_RDI);
    uint32_t status = rng_msr & ~UINT32_C(0x1F);
    if (!in->rep) {
        unsigned long k = atomic_fetch_add(&xstores, 1) + 1;
        unsigned got = 0;
        if (!(rng_empty_every && k % rng_empty_every == 0))   /* else: < 8 bytes ready */
            got = xstore_once((uint8_t *)(uintptr_t)dst, q);
        in->g[REG_RAX] = (greg_t)(status | got);               /* full EAX, zero-extended */
        set_reg(in, REG_RDI, dst + got);
        atomic_fetch_add(&counts[I_XSTORE], 1);
        in->g[REG_RIP] += in->len;
        return;
    }
    uint64_t n = reg(in, REG_RCX), todo = n;
    int intr = 0;
    if (interrupt_now() && n >= 16) {
        todo = n / 2;
        intr = 1;
    }
    uint64_t left = todo;
    while (left) {
        unsigned got = xstore_once((uint8_t *)(uintptr_t)(dst & in->amask), q);
        uint64_t take = got < left ? got : left;   /* the last store may overrun */
        dst += take;
        left -= take;
    }
    set_reg(in, REG_RDI, dst);
    set_reg(in, REG_RCX, n - todo);
    in->g[REG_RAX] = (greg_t)(status | 0x15);       /* count field undefined for REP */
    atomic_fetch_add(&counts[I_REPXSTORE], 1);
    if (intr) {
        atomic_fetch_add(&counts[I_INTR], 1);
        return;
    }
    in->g[REG_RIP] += in->len;
}

/* ======================================================================
 * Handlers.
 * ==================================================================== */
static void sigill_body(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    insn in;
    in.g = uc->uc_mcontext.gregs;
    in.rip = GREG_U(in.g[REG_RIP]);
    if (!decode((const uint8_t *)(uintptr_t)in.rip, &in)) {
        /* not ours: give the program its own SIGILL disposition back and let
         * the instruction fault again */
        sigaction(SIGILL, &old_ill, NULL);
        (void)sig;
        (void)si;
        return;
    }
#if defined(__i386__)
    if (in.asize)
        undefined("address-size prefix in 32-bit code (16-bit addresses) is not modelled", in.rip);
#endif
    if (in.op == 0xA7 && in.modrm == 0xC0)
        do_xstore(&in);
    else if (in.op == 0xA7)
        do_xcrypt(&in);
    else if (in.modrm == 0xC0)
        do_montmul(&in);
    else
        do_xsha(&in);
}

/* CPUID faulting: CPUID raises SIGSEGV; answer as a VIA CPU. */
static void real_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                         : "a"(leaf), "c"(sub));
}

static uint32_t centaur_edx(void)
{
    uint32_t edx = 0;
    if (units & U_RNG) edx |= 3u << 2;
    if (units & U_ACE) edx |= 3u << 6;
    if (units & U_ACE2) edx |= 3u << 8;
    if (units & U_PHE) edx |= 3u << 10;
    if (units & U_PMM) edx |= 3u << 12;
    return edx;
}

static void sigsegv_body(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    greg_t *g = uc->uc_mcontext.gregs;
    const uint8_t *p = (const uint8_t *)(uintptr_t)g[REG_RIP];
    if (!(cpuid_faulting && si->si_code == SI_KERNEL && p[0] == 0x0F && p[1] == 0xA2)) {
        sigaction(SIGSEGV, &old_segv, NULL);   /* a real fault: the program's own way */
        (void)sig;
        return;
    }
    uint32_t leaf = (uint32_t)g[REG_RAX], sub = (uint32_t)g[REG_RCX], r[4];
    syscall(SYS_arch_prctl, ARCH_SET_CPUID, 1);
    real_cpuid(leaf, sub, r);
    syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0);
    if (leaf == 0) {
        memcpy(&r[1], "Cent", 4);
        memcpy(&r[3], "aurH", 4);
        memcpy(&r[2], "auls", 4);
    } else if (leaf == 0xC0000000u) {
        r[0] = 0xC0000001u;
        r[1] = r[2] = r[3] = 0;
    } else if (leaf == 0xC0000001u) {
        uint32_t r1[4];
        syscall(SYS_arch_prctl, ARCH_SET_CPUID, 1);
        real_cpuid(1, 0, r1);
        syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0);
        r[0] = r1[0];
        r[1] = r[2] = 0;
        r[3] = centaur_edx();
    }
    g[REG_RAX] = r[0];
    g[REG_RBX] = r[1];
    g[REG_RCX] = r[2];
    g[REG_RDX] = r[3];
    g[REG_RIP] += 2;
    atomic_fetch_add(&counts[I_CPUID], 1);
}

/* The handlers as installed: the program's errno as it was on return (the
 * model's system calls, such as process_vm_readv failing with EFAULT in
 * reload_sequence_before, must not change it under the program). */
static void on_sigill(int sig, siginfo_t *si, void *ctx)
{
    int saved = errno;
    sigill_body(sig, si, ctx);
    errno = saved;
}

static void on_sigsegv(int sig, siginfo_t *si, void *ctx)
{
    int saved = errno;
    sigsegv_body(sig, si, ctx);
    errno = saved;
}

static unsigned long env_ul(const char *name, unsigned long dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtoul(s, NULL, 0) : dflt;
}

static void parse_units(const char *s)
{
    static const struct { const char *name; unsigned bit; } names[] = {
        {"rng", U_RNG}, {"ace", U_ACE}, {"ace2", U_ACE2}, {"phe", U_PHE}, {"pmm", U_PMM}};
    units = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strlen(names[i].name) == n && strncmp(s, names[i].name, n) == 0)
                units |= names[i].bit;
        s += n + (s[n] == ',');
    }
    if (units & U_ACE2)
        units |= U_ACE;   /* ACE2 "includes all original ACE capability" */
}

__attribute__((constructor)) static void padlock_model_init(void)
{
    aes_tables();
    if (getenv("PADLOCK_MODEL_UNITS"))
        parse_units(getenv("PADLOCK_MODEL_UNITS"));
    interrupt_every = env_ul("PADLOCK_MODEL_INTERRUPT", 0);
    rng_empty_every = env_ul("PADLOCK_MODEL_RNG_EMPTY", 4);
    rng_msr = (uint32_t)env_ul("PADLOCK_MODEL_RNG_MSR", 0x40);
    ctr_errata = (int)env_ul("PADLOCK_MODEL_CTR_ERRATA", 0);
    quiet = (int)env_ul("PADLOCK_MODEL_QUIET", 0);
    stats = (int)env_ul("PADLOCK_MODEL_STATS", 0);
    if (getenv("PADLOCK_MODEL_CPU")) {
        const char *c = getenv("PADLOCK_MODEL_CPU");
        if (strcmp(c, "nano") == 0)
            nano = 1;
        else if (strcmp(c, "esther") != 0) {
            say("padlock model: PADLOCK_MODEL_CPU=%s: want esther or nano\n", c);
            _exit(2);
        }
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigill;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGILL, &sa, &old_ill);
    if (!env_ul("PADLOCK_MODEL_NO_CPUID", 0) &&
        syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0) == 0) {
        sa.sa_sigaction = on_sigsegv;
        sigaction(SIGSEGV, &sa, &old_segv);
        cpuid_faulting = 1;
    }
    if (getenv("PADLOCK_MODEL_STATS"))
        say("padlock model: loaded (%s; units%s%s%s%s%s; CPUID %s)\n", nano ? "nano" : "esther",
            units & U_RNG ? " rng" : "", units & U_ACE ? " ace" : "",
            units & U_ACE2 ? " ace2" : "", units & U_PHE ? " phe" : "",
            units & U_PMM ? " pmm" : "",
            cpuid_faulting ? "faulted: answers as CentaurHauls" : "not faultable here");
}

__attribute__((destructor)) static void padlock_model_fini(void)
{
    if (!stats)
        return;
    char buf[512];
    int n = snprintf(buf, sizeof buf, "padlock model: pid %d executed", (int)getpid());
    for (int i = 0; i < I_N && n < (int)sizeof buf; i++)
        if (atomic_load(&counts[i]))
            n += snprintf(buf + n, sizeof buf - (size_t)n, " %s %lu", stat_names[i],
                          atomic_load(&counts[i]));
    say("%s\n", buf);
}
