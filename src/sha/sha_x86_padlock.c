/*
 * sha_x86_padlock.c - SHA-1 and SHA-256 (and SHA-224, which is SHA-256 with
 * another initial value) on the VIA PadLock Hash Engine: the "padlock"
 * entries of ic_impls_sha1 and ic_impls_sha256 (VIA PadLock Programming
 * Guide, chapter 4).
 *
 * REP XSHA1 (0xF3 0x0F 0xA6 0xC8) and REP XSHA256 (... 0xD0) hash ECX bytes
 * at ESI into the chaining value at EDI and always finish with the FIPS
 * 180-4 padding of an ECX-byte message.  They can continue a message: EAX
 * counts the bytes already hashed, and an interrupted instruction leaves
 * ESI and EAX advanced and the intermediate value at EDI after every
 * 64-byte block, to be restarted from there (4.1, "Bytes Hashed: EAX";
 * chapter 1: PHE keeps no state outside registers and memory).  Starting
 * the instruction in that state - EAX = bytes done (a multiple of 64),
 * [EDI] = the value after them, ESI = the rest, ECX = the total - is the
 * "partial message" form `finish` uses: the driver's buffered tail at
 * final, and the whole message of a one-shot (ic_sha1(), ic_sha256(),
 * ic_hash()), in hardware, padding included.
 *
 * Whole blocks of a streaming update must not be padded.  The guide's PHE
 * cannot do that; VIA Nano and Zhaoxin's CPUs have a block form the guide
 * does not describe: EAX = all ones (0xFFFFFFFF, in 64-bit code RAX =
 * 2^64 - 1) and ECX = a count of 64-byte blocks hash those blocks into the
 * value at EDI without padding, in the same little-endian word format and
 * with the same 16-byte aligned 128-byte area as the guide's form (Linux's
 * padlock-sha driver, its "nano" update; GnuTLS, padlock_sha*_blocks; both
 * pass ECX as blocks and take ESI, and conservatively EDI and ECX, as
 * changed by the instruction).  No CPUID bit announces it, and on the
 * guide's PHE it is EAX above ECX, which the guide leaves undefined.  So
 * `compress` uses it only when the feature padlock-phe-partial is set, and
 * that bit is set by a known-answer probe (ic_padlock_phe_partial_probe,
 * run by cpu.c when PHE is usable): both instructions, EAX = all ones,
 * ECX = 2, on two different fixed blocks from the standard initial
 * value, must leave exactly the FIPS 180-4 chaining value after those two
 * blocks.  A CPU that does anything else with EAX = all ones - hashes
 * nothing, pads, reads ECX as bytes, hashes one block, stores the value
 * big-endian - fails it, and streamed blocks then stay in the portable
 * compression (as with INCORE_CPU=-padlock-phe-partial).
 *
 * No family/model condition besides the probe.  Linux takes the block form
 * on VIA family 6 model 0x0F and up only; GnuTLS takes it on its probe's
 * answer alone and so runs the probe on every PHE CPU, the Esther C7
 * included.  The probe is what the code relies on: a model list would add
 * nothing to a CPU that passes it, and would need the family and model
 * numbers of every Centaur and Zhaoxin part with the form, which no
 * document gives (Zhaoxin's are family 7, outside Linux's test).  What the
 * probe costs on a CPU without the form is one instruction with ECX = 2,
 * reading the 128-byte probe input and writing the 128-byte area the
 * guide gives the microcode (the instruction model's Esther variant treats
 * it as doing nothing, the probe's rejection path: tests/padlock_model).
 *
 * Byte order (4.3): the engine loads and stores the chaining value as
 * little-endian 32-bit words, i.e. as the native integers the drivers keep
 * in ctx->h on x86; the drivers convert them to the big-endian digest
 * (the "BSWAP each DWORD" the guide leaves to software).  The value goes
 * through a 16-byte aligned 128-byte buffer: EDI must be aligned (else
 * #GP) and the microcode owns 128 bytes there (4.1, "Output Data Pointer").
 * The input needs no alignment.
 *
 * XSHA clears the ACE key-loaded flag (EFLAGS[30], chapter 1 "PHE"); the
 * AES backend reloads before every instruction anyway.
 */
#include "sha/sha_impl.h"
#if defined(__x86_64__) || defined(__i386__)

/* REP XSHA1: continue from `done` bytes to `total` and pad.  The counts
 * are register wide (unsigned long: RAX/RCX, or EAX/ECX in 32-bit code,
 * where a total must fit 32 bits: finish checks). */
static inline void xsha1(uint8_t hash[128], const uint8_t *in, unsigned long done, unsigned long total)
{
    __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, 0xc8"
                         : "+S"(in), "+a"(done)
                         : "c"(total), "D"(hash)
                         : "memory", "cc");
}

/* REP XSHA256: the same for SHA-256. */
static inline void xsha256(uint8_t hash[128], const uint8_t *in, unsigned long done, unsigned long total)
{
    __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, 0xd0"
                         : "+S"(in), "+a"(done)
                         : "c"(total), "D"(hash)
                         : "memory", "cc");
}

/* The block form: EAX = all ones (register wide), ECX = nblocks 64-byte
 * blocks at ESI, no padding.  ESI, EDI, ECX and EAX are declared changed:
 * the instruction advances ESI and counts ECX down as a REP instruction
 * (how far an interrupted one got), and nothing is read back from them. */
#define XSHA_BLOCKS(name, modrm)                                                      \
    static inline void name(uint8_t hash[128], const uint8_t *in, unsigned long nblocks) \
    {                                                                                 \
        unsigned long all = (unsigned long)-1;                                        \
        uint8_t *h = hash;                                                            \
        __asm__ __volatile__(".byte 0xf3, 0x0f, 0xa6, " modrm                         \
                             : "+S"(in), "+a"(all), "+c"(nblocks), "+D"(h)            \
                             :                                                        \
                             : "memory", "cc");                                       \
    }
XSHA_BLOCKS(xsha1_blocks, "0xc8")     /* REP XSHA1   */
XSHA_BLOCKS(xsha256_blocks, "0xd0")   /* REP XSHA256 */

/* The probe: two blocks, byte i = 167 i + 13 mod 256, hashed with the
 * block form from the FIPS 180-4 initial values; the expected chaining
 * values after them were computed with an independent SHA-1/SHA-256 and
 * checked by finishing the 128-byte message and comparing with its
 * digest. */
int ic_padlock_phe_partial_probe(void)
{
    static const uint32_t iv1[5] = { 0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u,
                                     0xc3d2e1f0u };
    static const uint32_t want1[5] = { 0x94dddcb0u, 0xe8e981d6u, 0x440d5e3fu, 0xcaefaff3u,
                                       0xb72d7e8bu };
    static const uint32_t iv256[8] = { 0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                       0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u };
    static const uint32_t want256[8] = { 0x9989229fu, 0xb15f1a98u, 0x656f2ff1u, 0xbaf252dau,
                                         0x047edbc4u, 0x2f551a14u, 0xb9299d4bu, 0x5c398756u };
    uint8_t in[128];
    _Alignas(16) uint8_t h[128];
    for (unsigned i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)(167u * i + 13u);
    memset(h, 0, sizeof h);
    memcpy(h, iv1, sizeof iv1);          /* native = little-endian words (4.3) */
    xsha1_blocks(h, in, 2);
    if (memcmp(h, want1, sizeof want1) != 0)
        return 0;                        /* no second undefined instruction */
    memset(h, 0, sizeof h);
    memcpy(h, iv256, sizeof iv256);
    xsha256_blocks(h, in, 2);
    return memcmp(h, want256, sizeof want256) == 0;
}

static int phe_partial(void)
{
    return (ic_cpu_enabled() & IC_F(IC_CPU_PADLOCK_PHE_PARTIAL)) != 0;
}

/* 32-bit x86: ECX and EAX count at most 2^32 - 1 bytes, and the engine's
 * padding encodes ECX * 8 as the length; a longer message (only a stream
 * reaches that) is finished in software: the rest absorbed through the
 * portable compression, the FIPS 180-4 padding of ic_md_pad. */
static int phe_fits(uint64_t total) { return total <= (uint64_t)(unsigned long)-1; }

typedef void (*compress_fn)(uint32_t *state, const uint8_t *blocks, size_t n);
typedef struct { uint32_t *state; compress_fn f; } sw_state;

static void sw_blocks(void *st, const uint8_t *p, size_t n)
{
    sw_state *s = st;
    s->f(s->state, p, n);
}

static void sw_finish(uint32_t *state, compress_fn f, uint64_t done, const uint8_t *rest, size_t len)
{
    uint8_t buf[64], lenfield[8];
    sw_state s = { state, f };
    size_t fill = ic_md_absorb(&s, sw_blocks, buf, 64, 0, rest, len);
    ic_store64_be(lenfield, (done + len) << 3);
    ic_md_pad(&s, sw_blocks, buf, 64, fill, lenfield, 8);
    ic_wipe(buf, sizeof buf);
}

typedef void (*xsha_fn)(uint8_t hash[128], const uint8_t *in, unsigned long done, unsigned long total);
typedef void (*xsha_blocks_fn)(uint8_t hash[128], const uint8_t *in, unsigned long nblocks);

/* The chaining value (words 32-bit words) through the engine's aligned
 * 128-byte area, around one instruction: the padded form from `done`
 * bytes (finish), or the block form (compress).  always_inline, so each
 * caller's instruction is a constant. */
static inline __attribute__((always_inline)) void phe_finish(uint32_t *state, size_t words, xsha_fn run,
                                                             compress_fn port, uint64_t done,
                                                             const uint8_t *rest, size_t len)
{
    _Alignas(16) uint8_t h[128];
    if (!phe_fits(done + len)) {
        sw_finish(state, port, done, rest, len);
        return;
    }
    memcpy(h, state, 4 * words);        /* native = little-endian words (4.3) */
    run(h, rest, (unsigned long)done, (unsigned long)(done + len));
    memcpy(state, h, 4 * words);
    ic_wipe(h, sizeof h);
}

/* Whole blocks without padding: the block form where the probe found it,
 * else the portable compression.  ECX counts blocks, so a 32-bit size_t
 * count always fits. */
static inline __attribute__((always_inline)) void phe_compress(uint32_t *state, size_t words, xsha_blocks_fn run,
                                                               compress_fn port, const uint8_t *blocks,
                                                               size_t n)
{
    _Alignas(16) uint8_t h[128];
    if (n == 0 || !phe_partial()) {
        port(state, blocks, n);
        return;
    }
    memcpy(h, state, 4 * words);
    run(h, blocks, (unsigned long)n);
    memcpy(state, h, 4 * words);
    ic_wipe(h, sizeof h);
}

static void padlock_sha1_finish(uint32_t state[5], uint64_t done, const uint8_t *rest, size_t len)
{
    phe_finish(state, 5, xsha1, ic_sha1_port_ops.compress, done, rest, len);
}

static void padlock_sha256_finish(uint32_t state[8], uint64_t done, const uint8_t *rest, size_t len)
{
    phe_finish(state, 8, xsha256, ic_sha256_port_ops.compress, done, rest, len);
}

static void padlock_sha1_compress(uint32_t state[5], const uint8_t *blocks, size_t n)
{
    phe_compress(state, 5, xsha1_blocks, ic_sha1_port_ops.compress, blocks, n);
}

static void padlock_sha256_compress(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    phe_compress(state, 8, xsha256_blocks, ic_sha256_port_ops.compress, blocks, n);
}

static const ic_sha1_ops sha1_padlock_ops = { padlock_sha1_compress, padlock_sha1_finish };
static const ic_sha256_ops sha256_padlock_ops = { padlock_sha256_compress, padlock_sha256_finish };
IC_BACKEND(sha1, padlock, IC_F(IC_CPU_PADLOCK_PHE), &sha1_padlock_ops);
IC_BACKEND(sha256, padlock, IC_F(IC_CPU_PADLOCK_PHE), &sha256_padlock_ops);

#endif
