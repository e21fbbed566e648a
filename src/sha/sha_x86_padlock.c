/*
 * sha_x86_padlock.c - SHA-1 and SHA-256 (and SHA-224, which is SHA-256 with
 * another initial value) on the VIA PadLock Hash Engine: the "padlock"
 * entries of ic_impls_sha1 and ic_impls_sha256 (VIA PadLock Programming
 * Guide, chapter 4).
 *
 * REP XSHA1 (0xF3 0x0F 0xA6 0xC8) and REP XSHA256 (... 0xD0) hash ECX bytes
 * at ESI into the chaining value at EDI and always finish with the FIPS
 * 180-4 padding of an ECX-byte message: the engine cannot compress a block
 * without padding after it (the guide describes no such form).  What it
 * can do is continue a message: EAX counts the bytes already hashed, and an
 * interrupted instruction leaves ESI and EAX advanced and the intermediate
 * value at EDI after every 64-byte block, to be restarted from there (4.1,
 * "Bytes Hashed: EAX"; chapter 1: PHE keeps no state outside registers
 * and memory).  Starting the instruction in that state - EAX = bytes done
 * (a multiple of 64), [EDI] = the value after them, ESI = the rest, ECX =
 * the total - is the "partial message" form this file uses:
 *  - finish: the driver's buffered tail at final, and the whole message of
 *    a one-shot (ic_sha1(), ic_sha256(), ic_hash()), in hardware, padding
 *    included;
 *  - compress (whole blocks of a streaming update, no padding allowed):
 *    the portable code, since the engine would pad.  So a streaming hash
 *    runs in hardware only for its last block(s), a one-shot entirely.
 *    Later VIA processors (Nano) have a form without padding (EAX =
 *    0xFFFFFFFF, ECX = blocks) that the guide does not describe; on the
 *    guide's PHE it is EAX above ECX, undefined, and the guide has no
 *    CPUID bit for it, so it is not used (docs/backends.md).
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

static void padlock_sha1_finish(uint32_t state[5], uint64_t done, const uint8_t *rest, size_t len)
{
    _Alignas(16) uint8_t h[128];
    if (!phe_fits(done + len)) {
        sw_finish(state, ic_sha1_port_ops.compress, done, rest, len);
        return;
    }
    memcpy(h, state, 20);               /* native = little-endian words (4.3) */
    xsha1(h, rest, (unsigned long)done, (unsigned long)(done + len));
    memcpy(state, h, 20);
    ic_wipe(h, sizeof h);
}

static void padlock_sha256_finish(uint32_t state[8], uint64_t done, const uint8_t *rest, size_t len)
{
    _Alignas(16) uint8_t h[128];
    if (!phe_fits(done + len)) {
        sw_finish(state, ic_sha256_port_ops.compress, done, rest, len);
        return;
    }
    memcpy(h, state, 32);
    xsha256(h, rest, (unsigned long)done, (unsigned long)(done + len));
    memcpy(state, h, 32);
    ic_wipe(h, sizeof h);
}

/* Whole blocks without padding: not something the engine does. */
static void padlock_sha1_compress(uint32_t state[5], const uint8_t *blocks, size_t n)
{
    ic_sha1_port_ops.compress(state, blocks, n);
}

static void padlock_sha256_compress(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    ic_sha256_port_ops.compress(state, blocks, n);
}

static const ic_sha1_ops sha1_padlock_ops = { padlock_sha1_compress, padlock_sha1_finish };
static const ic_sha256_ops sha256_padlock_ops = { padlock_sha256_compress, padlock_sha256_finish };
IC_BACKEND(sha1, padlock, IC_F(IC_CPU_PADLOCK_PHE), &sha1_padlock_ops);
IC_BACKEND(sha256, padlock, IC_F(IC_CPU_PADLOCK_PHE), &sha256_padlock_ops);

#endif
