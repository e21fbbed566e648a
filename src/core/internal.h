/*
 * internal.h - what every incore source file shares and users never see:
 * endian-explicit loads and stores, rotations, the CPU feature bits and the
 * implementation registry.
 *
 * Portable code must never rely on the host byte order: all multi-byte
 * values are read and written through ic_load / ic_store below, so the same
 * source is right on big-endian ppc64 and little-endian everything else.
 */
#ifndef INCORE_INTERNAL_H
#define INCORE_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "incore/common.h"

/* ---- loads and stores (memcpy lets the compiler emit one move) -------- */
static inline uint32_t ic_load32_le(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static inline uint32_t ic_load32_be(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24;
}
static inline uint64_t ic_load64_le(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint64_t)ic_load32_le(b) | (uint64_t)ic_load32_le(b + 4) << 32;
}
static inline uint64_t ic_load64_be(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return (uint64_t)ic_load32_be(b) << 32 | (uint64_t)ic_load32_be(b + 4);
}
static inline void ic_store32_le(void *p, uint32_t v)
{
    uint8_t *b = (uint8_t *)p;
    b[0] = (uint8_t)v; b[1] = (uint8_t)(v >> 8); b[2] = (uint8_t)(v >> 16); b[3] = (uint8_t)(v >> 24);
}
static inline void ic_store32_be(void *p, uint32_t v)
{
    uint8_t *b = (uint8_t *)p;
    b[3] = (uint8_t)v; b[2] = (uint8_t)(v >> 8); b[1] = (uint8_t)(v >> 16); b[0] = (uint8_t)(v >> 24);
}
static inline void ic_store64_le(void *p, uint64_t v)
{
    ic_store32_le(p, (uint32_t)v);
    ic_store32_le((uint8_t *)p + 4, (uint32_t)(v >> 32));
}
static inline void ic_store64_be(void *p, uint64_t v)
{
    ic_store32_be(p, (uint32_t)(v >> 32));
    ic_store32_be((uint8_t *)p + 4, (uint32_t)v);
}
static inline uint32_t ic_rotl32(uint32_t x, unsigned n) { return (x << (n & 31)) | (x >> ((32 - n) & 31)); }
static inline uint32_t ic_rotr32(uint32_t x, unsigned n) { return (x >> (n & 31)) | (x << ((32 - n) & 31)); }
static inline uint64_t ic_rotr64(uint64_t x, unsigned n) { return (x >> (n & 63)) | (x << ((64 - n) & 63)); }

/* out = a ^ b over n bytes (any alignment; out may be a or b, or overlap
 * neither).  Eight bytes a step: a byte loop costs 5 instructions a byte
 * on the short-message paths (a 64-byte ChaCha20-Poly1305 message's
 * keystream, a GCM tail). */
static inline void ic_xor_bytes(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        x ^= y;
        memcpy(out + i, &x, 8);
    }
    for (; i < n; i++)
        out[i] = a[i] ^ b[i];
}

/* ---- short buffers on the per-message paths ----------------------------
 * A short message's glue (a GCM first block, a hash's padded tail) pays
 * for every libc call: GCC writes a memcpy or memset of variable size as
 * one, and a fixed-size one above 128 bytes as REP STOSQ / MOVSQ (~30
 * cycles).  These use fixed-size moves only, branching on the length,
 * which is public. */

/* Copy n bytes between buffers that do not overlap: 16-byte moves, the
 * last one ending at n and overlapping the one before (the same bytes);
 * under 16 bytes two overlapping 8-, 4- or 2-byte moves.  Nothing past
 * d + n or s + n is touched. */
static inline void ic_copy_small(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 16) {
        for (size_t i = 0; i + 16 < n; i += 16)
            memcpy(d + i, s + i, 16);
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n != 0) {
        d[0] = s[0];
        if (n >= 2)
            memcpy(d + n - 2, s + n - 2, 2);
    }
}

/* Zero n <= 16 bytes at p (a partial block's padding) with two
 * overlapping fixed-size stores, as ic_copy_small does. */
static inline void ic_zero_small(uint8_t *p, size_t n)
{
    static const uint8_t zero[8];
    if (n >= 8) {
        memcpy(p, zero, 8);
        memcpy(p + n - 8, zero, 8);
    } else if (n >= 4) {
        memcpy(p, zero, 4);
        memcpy(p + n - 4, zero, 4);
    } else if (n != 0) {
        p[0] = 0;
        p[n - 1] = 0;
        if (n == 3)
            p[1] = 0;
    }
}

/* 16 bytes given as two little-endian words, written with one 16-byte
 * store where the compiler has generic vectors: a block made here and read
 * back at once as a 16-byte load (GCM's J0 and lengths block, by ctr32 and
 * GHASH) must not come from two or more smaller stores, which the CPU
 * cannot forward to the load: it would wait for them to reach the cache,
 * and on GCM's path to the tag that cost a 64-byte message 20 %. */
static inline void ic_store_2x64le(uint8_t *p, uint64_t lo, uint64_t hi)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    typedef uint64_t ic_u64x2 __attribute__((vector_size(16)));
    ic_u64x2 v = {lo, hi};
    memcpy(p, &v, 16);
#else
    ic_store64_le(p, lo);
    ic_store64_le(p + 8, hi);
#endif
}

/* v with its bytes reversed: the little-endian word of v's big-endian
 * bytes (the compiler makes it one BSWAP). */
static inline uint64_t ic_be_word64(uint64_t v)
{
    uint8_t t[8];
    ic_store64_be(t, v);
    return ic_load64_le(t);
}

/* Zero nb 16-byte blocks at p, one store a block; as a wipe (the compiler
 * cannot drop the stores, and the barrier in the loop also keeps it from
 * turning the loop back into a memset call). */
static inline void ic_wipe_blocks(uint8_t *p, size_t nb)
{
#if defined(__GNUC__)
    for (size_t i = 0; i < nb; i++) {
        memset(p + 16 * i, 0, 16);
        __asm__ __volatile__("" : : "r"(p) : "memory");
    }
#else
    ic_wipe(p, 16 * nb);
#endif
}

/* Zero p[from .. size) (size a multiple of 16, from <= size) with
 * fixed-size stores: up to the next 16-byte boundary, then whole blocks. */
static inline void ic_zero_tail(uint8_t *p, size_t from, size_t size)
{
    size_t a = (from + 15) & ~(size_t)15;
    ic_zero_small(p + from, a - from);
    ic_wipe_blocks(p + a, (size - a) / 16);
}

/* d[0 .. n) = s, d[n .. size) = 0 (size a multiple of 16, n <= size; s
 * not read when n is 0): a partial block copied into a padded buffer (a
 * hash's last blocks, a keystream block, GCM's first blocks). */
static inline void ic_copy_padded(uint8_t *d, size_t size, const uint8_t *s, size_t n)
{
    if (n != 0)
        ic_copy_small(d, s, n);
    ic_zero_tail(d, n, size);
}

/* ic_wipe of a small fixed size n, inline: a few stores instead of a call
 * to ic_wipe and from there to memset. */
#if defined(__GNUC__)
#define IC_WIPE_FIXED(p, n) do { memset((p), 0, (n)); __asm__ __volatile__("" : : "r"(p) : "memory"); } while (0)
#else
#define IC_WIPE_FIXED(p, n) ic_wipe((p), (n))
#endif

/* Bad-input helper: a NULL pointer is only fine when its length is 0. */
#define IC_NULL_CHECK(p, len) do { if ((p) == NULL && (len) != 0) return IC_ERR_NULL; } while (0)

/* len > max for a byte count against a 64-bit limit of a standard.  A
 * function, not the comparison written inline: where size_t has 32 bits
 * the inline form is always false and -Wtype-limits says so. */
static inline int ic_len_over(uint64_t len, uint64_t max) { return len > max; }

/* 1 when [out, out+len) and [in, in+len) overlap other than exactly. */
static inline int ic_bad_overlap(const void *out, const void *in, size_t len)
{
    uintptr_t o = (uintptr_t)out, i = (uintptr_t)in;
    if (len == 0 || o == i)
        return 0;
    return o < i + len && i < o + len;
}

/* ---- CPU feature bits ---------------------------------------------------
 * One namespace for every architecture; names in cpu.c (for INCORE_CPU).   */
enum {
    /* x86-64 */
    IC_CPU_SSSE3, IC_CPU_SSE42, IC_CPU_AESNI, IC_CPU_PCLMUL, IC_CPU_AVX,
    IC_CPU_AVX2, IC_CPU_BMI2, IC_CPU_ADX, IC_CPU_SHANI, IC_CPU_AVX512F,
    IC_CPU_AVX512VL, IC_CPU_AVX512BW, IC_CPU_AVX512IFMA, IC_CPU_VAES,
    IC_CPU_VPCLMUL, IC_CPU_GFNI, IC_CPU_RDRAND, IC_CPU_RDSEED,
    /* VIA / Centaur PadLock (present and enabled) */
    IC_CPU_PADLOCK_RNG, IC_CPU_PADLOCK_ACE, IC_CPU_PADLOCK_ACE2,
    IC_CPU_PADLOCK_PHE, IC_CPU_PADLOCK_PMM,
    /* ARM (AArch64 and 32-bit) */
    IC_CPU_NEON, IC_CPU_ARM_AES, IC_CPU_ARM_PMULL, IC_CPU_ARM_SHA1,
    IC_CPU_ARM_SHA2, IC_CPU_ARM_SHA512, IC_CPU_ARM_CRC32, IC_CPU_ARM_RNG,
    /* POWER */
    IC_CPU_PPC_ALTIVEC, IC_CPU_PPC_VSX, IC_CPU_PPC_ARCH207,
    IC_CPU_PPC_VCRYPTO, IC_CPU_PPC_ARCH300, IC_CPU_PPC_DARN,
    /* x86-64 trait, not an instruction set (appended, so the bits above keep
     * their public positions): the CPU runs 512-bit vector operations as
     * two 256-bit halves (AMD Zen 4).  Selection ignores it (every family
     * takes the first usable entry: docs/architecture.md, "Selection per
     * CPU family"); entries read it for width choices measured on Zen 4
     * inside themselves (Poly1305's four-lane range).                    */
    IC_CPU_PREFER_YMM,
    /* VIA PadLock PHE's block form without padding (REP XSHA with EAX = all
     * ones, ECX = blocks; VIA Nano and Zhaoxin, not in the programming
     * guide): no CPUID bit announces it, so it is found by a known-answer
     * probe on the engine (ic_padlock_phe_partial_probe) when PHE is usable;
     * appended, so the public positions of the bits above stay.       */
    IC_CPU_PADLOCK_PHE_PARTIAL,
    IC_CPU_NBITS
};
#define IC_F(bit) (UINT64_C(1) << (bit))

/* Arch detection, one file per family; returns found bits (unmasked). */
uint64_t ic_cpu_detect_arch(char *model, size_t modelcap);
/* PadLock features from the vendor string (12 bytes of leaf 0 EBX,EDX,ECX),
 * leaf 1 EDX as the OS reports it (FXSR, SSE), EAX of leaf 0xC0000000 and
 * EDX of leaf 0xC0000001 (cpu_padlock.c; pure, built on every architecture
 * so its tests run everywhere). */
uint64_t ic_cpu_padlock_features(const char vendor[12], uint32_t edx_1, uint32_t max_c0, uint32_t edx_c1);
int ic_cpu_padlock_vendor(const char vendor[12]);   /* CentaurHauls or Zhaoxin's */
/* 1 when REP XSHA1 and REP XSHA256 with EAX = all ones hash ECX whole
 * blocks into the chaining value without padding, checked against known
 * intermediate values (sha_x86_padlock.c; x86 only).  Executes XSHA: only
 * for a CPU with PHE usable (detected or forced, not masked off). */
int ic_padlock_phe_partial_probe(void);
/* Features INCORE_CPU forces on with "+name" (a testing aid: instruction
 * models, emulators); they count as detected.  cpu.c parses them. */
int ic_cpu_parse_force(uint64_t *keep, uint64_t *force, const char *spec);

/* ---- implementation registry -------------------------------------------
 * Each primitive has a table of ic_impl entries, best first, portable last
 * (needs == 0).  ops points at a primitive-specific struct of function
 * pointers declared in the family's own internal header.
 *
 * A backend file defines its own entry, after its ops:
 *
 *     IC_BACKEND(crc32c, sse42, IC_F(IC_CPU_SSE42) | IC_F(IC_CPU_PCLMUL), &sse42_ops);
 *
 * (the constant ic_backend_crc32c_sse42, named "sse42"; IC_BACKEND_NAMED
 * gives a name that is not an identifier, "armv8-serial"), and compiles
 * its code for those features with IC_TARGET_BEGIN (core/target.h).  The
 * family's src/<family>/<family>_impls.c is the one list of the entries:
 *
 *     IC_IMPLS(crc32c)
 *     {
 *     #if defined(__x86_64__)
 *         IC_IMPL(crc32c, sse42);
 *     #endif
 *         IC_IMPL(crc32c, slice8);
 *     }
 *
 * one line per backend, best first, each declaring the entry it appends.
 * At initialisation the registry runs every list into ic_impl_table, by
 * value: a context's index then reaches its ops with one load at a fixed
 * address, as it did from a constant table (IC_IMPL_OPS), where an array
 * of pointers to the entries would take two.  ic_impls_<prim> is the row
 * of a primitive and ic_nimpls_<prim> its length.                        */
typedef struct ic_impl {
    const char *name;     /* "ct64", "ni", "vaes", "p8", ...           */
    uint64_t    needs;    /* all of these IC_F() bits must be present  */
    const void *ops;
} ic_impl;

#define IC_BACKEND_NAMED(prim, id, name, needs, ops) \
    extern const ic_impl ic_backend_##prim##_##id; \
    const ic_impl ic_backend_##prim##_##id = { (name), (needs), (ops) }
#define IC_BACKEND(prim, id, needs, ops) IC_BACKEND_NAMED(prim, id, #id, needs, ops)

/* The list being built (registry.c); IC_IMPL appends to the one its
 * IC_IMPLS function was given. */
typedef struct ic_impl_list ic_impl_list;
void ic_impl_list_add(ic_impl_list *l, const ic_impl *e);
#define IC_IMPLS(prim) void ic_impls_list_##prim(ic_impl_list *ic_impl_list_)
#define IC_IMPL(prim, id) do { \
        extern const ic_impl ic_backend_##prim##_##id; \
        ic_impl_list_add(ic_impl_list_, &ic_backend_##prim##_##id); \
    } while (0)

typedef enum {
    IC_PRIM_AES, IC_PRIM_GHASH, IC_PRIM_SHA1, IC_PRIM_SHA256, IC_PRIM_SHA512,
    IC_PRIM_CHACHA20, IC_PRIM_POLY1305, IC_PRIM_CRC32, IC_PRIM_CRC32C,
    IC_PRIM_HWRAND, IC_PRIM_MONTMUL,
    IC_PRIM_COUNT
} ic_prim;

/* Entries a table may have (test_dispatch checks every table); at most 64,
 * the bits of the per-call index test's word (ic_impl_index_ok). */
#define IC_IMPL_MAX 16
/* The tables, filled once at initialisation (before any context can have
 * an index) and not written after; read through ic_impls_<prim>.  Hidden,
 * as its definition is: the compiler then addresses it directly from
 * every file, not through a GOT entry (a load more). */
extern ic_impl ic_impl_table[IC_PRIM_COUNT][IC_IMPL_MAX] __attribute__((visibility("hidden")));
/* The length of p's table (initialises the registry if need be), and the
 * number of entries its list has, which is more when the list is longer
 * than IC_IMPL_MAX (the rest are dropped; test_dispatch). */
size_t ic_impl_len(ic_prim p);
size_t ic_impl_listed(ic_prim p);

/* Each family's list (IC_IMPLS, in its <family>_impls.c), and
 * (IC_PRIM_ID_aes = IC_PRIM_AES, ...) the primitive's number by the
 * table's name, for IC_IMPL_OPS. */
#define IC_IMPL_TABLE(prim, P) \
    void ic_impls_list_##prim(ic_impl_list *l); enum { IC_PRIM_ID_##prim = IC_PRIM_##P }
IC_IMPL_TABLE(aes, AES);            IC_IMPL_TABLE(ghash, GHASH);       IC_IMPL_TABLE(sha1, SHA1);
IC_IMPL_TABLE(sha256, SHA256);      IC_IMPL_TABLE(sha512, SHA512);     IC_IMPL_TABLE(chacha20, CHACHA20);
IC_IMPL_TABLE(poly1305, POLY1305);  IC_IMPL_TABLE(crc32, CRC32);       IC_IMPL_TABLE(crc32c, CRC32C);
IC_IMPL_TABLE(hwrand, HWRAND);      IC_IMPL_TABLE(montmul, MONTMUL);

#define ic_impls_aes ((const ic_impl *)ic_impl_table[IC_PRIM_AES])
#define ic_nimpls_aes ic_impl_len(IC_PRIM_AES)
#define ic_impls_ghash ((const ic_impl *)ic_impl_table[IC_PRIM_GHASH])
#define ic_nimpls_ghash ic_impl_len(IC_PRIM_GHASH)
#define ic_impls_sha1 ((const ic_impl *)ic_impl_table[IC_PRIM_SHA1])
#define ic_nimpls_sha1 ic_impl_len(IC_PRIM_SHA1)
#define ic_impls_sha256 ((const ic_impl *)ic_impl_table[IC_PRIM_SHA256])
#define ic_nimpls_sha256 ic_impl_len(IC_PRIM_SHA256)
#define ic_impls_sha512 ((const ic_impl *)ic_impl_table[IC_PRIM_SHA512])
#define ic_nimpls_sha512 ic_impl_len(IC_PRIM_SHA512)
#define ic_impls_chacha20 ((const ic_impl *)ic_impl_table[IC_PRIM_CHACHA20])
#define ic_nimpls_chacha20 ic_impl_len(IC_PRIM_CHACHA20)
#define ic_impls_poly1305 ((const ic_impl *)ic_impl_table[IC_PRIM_POLY1305])
#define ic_nimpls_poly1305 ic_impl_len(IC_PRIM_POLY1305)
#define ic_impls_crc32 ((const ic_impl *)ic_impl_table[IC_PRIM_CRC32])
#define ic_nimpls_crc32 ic_impl_len(IC_PRIM_CRC32)
#define ic_impls_crc32c ((const ic_impl *)ic_impl_table[IC_PRIM_CRC32C])
#define ic_nimpls_crc32c ic_impl_len(IC_PRIM_CRC32C)
#define ic_impls_hwrand ((const ic_impl *)ic_impl_table[IC_PRIM_HWRAND])
#define ic_nimpls_hwrand ic_impl_len(IC_PRIM_HWRAND)
#define ic_impls_montmul ((const ic_impl *)ic_impl_table[IC_PRIM_MONTMUL])
#define ic_nimpls_montmul ic_impl_len(IC_PRIM_MONTMUL)

/* The ops of the implementation selected for p right now.  Thread-safe;
 * the first call runs detection and reads INCORE_CPU / INCORE_IMPL.       */
const void *ic_ops(ic_prim p);

/* The same, inline, for entry points whose whole job may take a few
 * nanoseconds (a 16-byte CRC): one load of the published ops, falling back
 * to ic_ops() until the first initialisation has finished.  registry.c
 * publishes every change of selection here. */
extern _Atomic(const void *) ic_selected_ops[IC_PRIM_COUNT];
static inline const void *ic_ops_fast(ic_prim p)
{
    const void *o = atomic_load_explicit(&ic_selected_ops[p], memory_order_acquire);
    return o ? o : ic_ops(p);
}

/* ic_cpu_features() for code that runs inside a backend (so after the
 * first initialisation): one relaxed load of the mask registry.c publishes
 * at init and at every ic_cpu_set_mask, instead of a call through the PLT
 * and the init check on every call of a path that reads a CPU property
 * (XTS's tweak step, Poly1305's lane count, PadLock's ACE2 and PHE block
 * form). */
extern _Atomic uint64_t ic_cpu_enabled_bits;
static inline uint64_t ic_cpu_enabled(void)
{
    return atomic_load_explicit(&ic_cpu_enabled_bits, memory_order_relaxed);
}

/* ---- contexts and keys ---------------------------------------------------
 * A context or key lives in the caller's memory, where a bug in the
 * caller's program may overwrite it.  So it never holds a function
 * pointer: it records the index of its implementation in the constant
 * table of its primitive (fixed at init, so it never switches backend half
 * way), and a check word that init sets and wipe clears.  Every entry point
 * validates both (and any count it will use as an offset) before it
 * touches anything; a failure is IC_ERR_STATE.  The words differ per
 * context type, so one kind of context is never taken for another.       */
#define IC_CHECK_AES        UINT32_C(0x6b41e5c1)
#define IC_CHECK_AES_ENC    UINT32_C(0x6b41e5e7)   /* the AES half of a GCM key */
#define IC_CHECK_GHASH      UINT32_C(0x6b9a54c3)
#define IC_CHECK_POLY1305   UINT32_C(0x6b913057)
#define IC_CHECK_CHACHAPOLY UINT32_C(0x6bcc2013)
#define IC_CHECK_XTS        UINT32_C(0x6b7e5a11)
#define IC_CHECK_GCMKEY     UINT32_C(0x6b6c3e17)
#define IC_CHECK_GCMCTX     UINT32_C(0x6b6c3c75)
#define IC_CHECK_CPKEY      UINT32_C(0x6bc9a25d)
#define IC_CHECK_MONT       UINT32_C(0x6b3e7a11)
#define IC_CHECK_RSAPUB     UINT32_C(0x6b25a0b7)
#define IC_CHECK_RSAPRIV    UINT32_C(0x6b25a1c3)

/* Index of the implementation selected for p right now (for init). */
uint32_t ic_impl_index(ic_prim p);
/* Index of the entry of p whose ops are ops, or UINT32_MAX (tests). */
uint32_t ic_impl_index_of(ic_prim p, const void *ops);
/* Bit i of ic_impl_runnable[p] is set when entry i of p's table exists
 * and this CPU runs its code (its needs are detected, forced ones
 * included): written once at initialisation, all 0 before it. */
extern _Atomic uint64_t ic_impl_runnable[IC_PRIM_COUNT];
/* 1 when entry i of p's table exists and this CPU runs its code: a stored
 * index's test without a branch, for the checks that run on every call
 * (ic_aes_key_valid, ic_ghash_key_valid; see ic_impl_ops_at).  One load
 * and a shift: GCM checks two keys in each of its four calls a message,
 * and testing the table entry's needs against the CPU word instead (two
 * dependent loads) costs a 64-byte message 3-4 %.  Before
 * initialisation no entry passes, and no context can have been set up in
 * this process by then. */
static inline int ic_impl_index_ok(ic_prim p, uint32_t i)
{
    /* bounded by the word, not by IC_IMPL_MAX: only bits of stored entries
     * are ever set, and a shift by i & 63 is x86's BT without the mask */
    uint64_t m = atomic_load_explicit(&ic_impl_runnable[p], memory_order_relaxed);
    return (i < 64) & (int)((m >> (i & 63)) & 1);
}
/* ic_impl_ops_at's way when the quick test fails: a bad index (NULL), or
 * a call before initialisation (ic_impl_runnable still 0), which
 * initialises and tests again. */
const void *ic_impl_ops_slow(ic_prim p, const ic_impl *t, uint32_t i);
/* Entry i of p's table t, NULL when i is out of range or names code this
 * CPU cannot run: the only way from an index read out of caller memory to
 * code.  The second test matters when a caller's bug overwrote a context
 * and left its check word intact (fuzz_api's op_garble found it: an index
 * moved to the IFMA Poly1305 entry faulted with SIGILL on a CPU without
 * IFMA); a mask (INCORE_CPU, ic_cpu_set_mask) only steers selection, so a
 * context made before one keeps its code. */
static inline const void *ic_impl_ops_at(ic_prim p, const ic_impl *t, uint32_t i)
{
    return ic_impl_index_ok(p, i) ? t[i].ops : ic_impl_ops_slow(p, t, i);
}
#define IC_IMPL_OPS(prim, i) ic_impl_ops_at((ic_prim)IC_PRIM_ID_##prim, ic_impls_##prim, (i))

/* ---- self-test --------------------------------------------------------
 * Each family provides a known-answer test of its primitive run through the
 * public API with whatever implementation is selected now (src/<family>/
 * <family>_kat.c).  It returns the number of failed answers, 0 when all are
 * right.  `incore selftest` and ic_selftest() call it once per available
 * implementation.                                                          */
/* Hex string (trusted, from a KAT table: even length, lower or upper case)
 * to bytes; returns the byte count.  Shared by the families' KAT files. */
size_t ic_kat_unhex(uint8_t *out, const char *hex);

int ic_kat_aes(void);      int ic_kat_ghash(void);    /* ghash: via AES-GCM */
int ic_kat_sha1(void);     int ic_kat_sha256(void);   int ic_kat_sha512(void);
int ic_kat_chacha20(void); int ic_kat_poly1305(void);
int ic_kat_crc32(void);    int ic_kat_crc32c(void);
int ic_kat_hwrand(void);   /* health check: 2 draws differ, not stuck */
int ic_kat_montmul(void);  /* modexp known answers (src/bn/bn_kat.c) */

#endif
