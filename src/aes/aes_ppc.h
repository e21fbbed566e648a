/*
 * aes_ppc.h - what the POWER8 AES backend (aes_ppc_p8.c) shares with the
 * POWER8 GHASH / AES-GCM code: the round-key layout inside ic_aes_key, the
 * vector helpers that keep every register in one byte order, and the
 * batch helpers (the cipher on up to 8 registers, step by step for a
 * stitched loop; the counter blocks of CTR and GCM).
 *
 * The one rule ("POWER8 in-core Cryptography: The Unofficial Guide",
 * chapter 4 "Endianness" and chapter 6): the crypto instructions see a register as 16 bytes, byte 0 the
 * leftmost (most significant) one, whatever the byte order of the host.  So
 * every 16-byte block of data enters a register through p8_load_be() (a
 * plain load on big-endian ppc64, load plus one byte permute on ppc64le) and
 * leaves through p8_store_be().  After that a register holds the block as a
 * big-endian 128-bit number on both hosts: vcipher, vpmsumd, vadduqm,
 * vsldoi and the constants below then behave identically on ppc64 and
 * ppc64le, and no other code needs an #ifdef on the byte order.
 *
 * Round-key layout ("p8" keys):
 *   storage[16*i], i = 0..rounds: encryption round key i of FIPS 197
 *   section 5.2 as the register image vec_st leaves in memory, i.e. already
 *   in the big-endian register order above.  vec_ld (an aligned load, no
 *   byte permute) gives back the register vcipher wants: the swap is paid
 *   once at key setup instead of at every use (chapter 4 "Strategy").
 * Decryption uses the same keys in reverse order: vncipher applies
 * AddRoundKey before InvMixColumns, which is FIPS 197's straightforward
 * Inverse Cipher (section 5.3), so no InvMixColumns'ed key copy is needed.
 *
 * The helpers need <altivec.h> and a POWER8 target (vector crypto), so they
 * are only seen by files compiled for it (IC_TARGET_BEGIN(IC_TARGET_POWER8)
 * before this header); anything else sees only the ops declaration.
 */
#ifndef INCORE_AES_PPC_H
#define INCORE_AES_PPC_H

#include "aes/aes_impl.h"

#if defined(__powerpc64__)

/* The POWER8 implementation (registry entry "p8", aes_ppc_p8.c). */
extern const ic_aes_ops ic_aes_p8_ops;

/* 1 when k was expanded by the p8 backend, so its storage has the layout
 * above and a POWER8 GCM may run the rounds on it directly. */
static inline int aes_ppc_key_native(const ic_aes_key *k)
{
    return ic_aes_ops_of(k) == &ic_aes_p8_ops;   /* k checked by the caller */
}

#if defined(__CRYPTO__) && defined(__VSX__)
#include <altivec.h>
#undef vector
#undef pixel
#undef bool

typedef __vector unsigned char p8_u8;
typedef __vector unsigned int p8_u32;
typedef __vector unsigned long long p8_u64;
typedef __vector unsigned __int128 p8_u128;

/* 16 bytes of memory (any alignment) -> register, byte 0 leftmost. */
static inline p8_u8 p8_load_be(const uint8_t *p)
{
    return vec_xl_be(0, (unsigned char *)(uintptr_t)p);
}

static inline void p8_store_be(p8_u8 v, uint8_t *p)
{
    vec_xst_be(v, 0, (unsigned char *)p);
}

/* Round key i of a p8 key (aligned: storage is _Alignas(64)). */
static inline p8_u8 p8_rk(const ic_aes_key *k, unsigned i)
{
    return vec_ld((int)(16 * i), (const unsigned char *)k->storage);
}

/* The four round instructions (GCC's builtins take 64x2 vectors, chapter 4
 * "Functions"). */
static inline p8_u8 p8_enc(p8_u8 s, p8_u8 k)
{
    return (p8_u8)__builtin_crypto_vcipher((p8_u64)s, (p8_u64)k);
}
static inline p8_u8 p8_enclast(p8_u8 s, p8_u8 k)
{
    return (p8_u8)__builtin_crypto_vcipherlast((p8_u64)s, (p8_u64)k);
}
static inline p8_u8 p8_dec(p8_u8 s, p8_u8 k)
{
    return (p8_u8)__builtin_crypto_vncipher((p8_u64)s, (p8_u64)k);
}
static inline p8_u8 p8_declast(p8_u8 s, p8_u8 k)
{
    return (p8_u8)__builtin_crypto_vncipherlast((p8_u64)s, (p8_u64)k);
}

/* The batch helpers below must be inlined into their loops, or the lane
 * arrays go through the stack between calls: GCC's size heuristics would
 * otherwise keep some of them out of line. */
#define P8_INLINE static inline __attribute__((always_inline))

/* Blocks per batch of the parallel modes. */
#define P8_LANES 8

/* for (i = 0; i < n; i++), fully unrolled: with n a constant (8 or 1) the
 * lane arrays below become separate registers. */
#define P8_EACH(i, n) _Pragma("GCC unroll 8") for (size_t i = 0; i < (n); i++)

/* ---- the block cipher on n registers at once -------------------------------
 * Round r's key is loaded once and applied to all n blocks, so the n
 * vcipher of a round are independent and fill the pipeline.  The rounds are
 * straight-line code with constant step numbers: steps 1..9 exist for every
 * key size, AES-192 / AES-256 add steps 10-11 / 10-13 (FIPS 197 section 5:
 * Nr = 10, 12, 14), then the last one.  With a loop over the rounds GCC
 * copies all eight lanes between registers at the end of every iteration.
 * The branches depend on the key size only, which is public.
 *
 * Step t uses round key t to encrypt and round key Nr - t to decrypt (the
 * same keys backwards, see the layout above). */
P8_INLINE p8_u8 p8_step_key(const ic_aes_key *k, unsigned t, int dec)
{
    return p8_rk(k, dec ? k->rounds - t : t);
}

/* Step 0: AddRoundKey alone. */
P8_INLINE void p8_whiten(const ic_aes_key *k, p8_u8 s[], const size_t n, int dec)
{
    p8_u8 key = p8_step_key(k, 0, dec);
    P8_EACH(i, n) s[i] = vec_xor(s[i], key);
}

/* Step t, 0 < t < Nr: one full round. */
P8_INLINE void p8_round(const ic_aes_key *k, p8_u8 s[], const size_t n, unsigned t, int dec)
{
    p8_u8 key = p8_step_key(k, t, dec);
    P8_EACH(i, n) s[i] = dec ? p8_dec(s[i], key) : p8_enc(s[i], key);
}

/* Steps 9 .. Nr (the part after the eight rounds every key size has); a
 * stitched caller runs steps 0..8 itself around other work. */
P8_INLINE void p8_cipher_tail(const ic_aes_key *k, p8_u8 s[], const size_t n, int dec)
{
    const unsigned nr = k->rounds;
    p8_round(k, s, n, 9, dec);
    if (nr > 10) {
        p8_round(k, s, n, 10, dec);
        p8_round(k, s, n, 11, dec);
    }
    if (nr > 12) {
        p8_round(k, s, n, 12, dec);
        p8_round(k, s, n, 13, dec);
    }
    p8_u8 key = p8_step_key(k, nr, dec);
    P8_EACH(i, n) s[i] = dec ? p8_declast(s[i], key) : p8_enclast(s[i], key);
}

/* s[i] = E(K, s[i]) (dec = 0) or D(K, s[i]) (dec = 1) for i < n. */
P8_INLINE void p8_cipher(const ic_aes_key *k, p8_u8 s[], const size_t n, int dec)
{
    p8_whiten(k, s, n, dec);
    _Pragma("GCC unroll 8") for (unsigned t = 1; t <= 8; t++)
        p8_round(k, s, n, t, dec);
    p8_cipher_tail(k, s, n, dec);
}

/* ---- counters -----------------------------------------------------------
 * A counter register holds the block as a big-endian 128-bit number, so
 * counter + i is one vadduqm (SP 800-38A's CTR: the carry runs through all
 * 16 bytes) or, for GCM, one vadduwm, which adds per 32-bit word: only the
 * last word changes and it wraps mod 2^32, SP 800-38D's inc32. */
/* A register whose last (least significant) 32-bit word is n, the rest 0
 * (the counter increments): vsldoi by 4 takes bytes 4..19 of zero || (n in
 * every word), i.e. 12 zero bytes then one copy of n.  vsldoi counts bytes
 * from the left of the register on both hosts (GCC does not renumber
 * vec_sld for little-endian, checked under QEMU on both). */
static inline p8_u8 p8_word(uint32_t n)
{
    return vec_sld(vec_splats((unsigned char)0), (p8_u8)vec_splats(n), 4);
}

P8_INLINE p8_u8 p8_ctr_add(p8_u8 c, p8_u8 inc, int inc32)
{
    if (inc32)
        return (p8_u8)vec_add((p8_u32)c, (p8_u32)inc);
    return (p8_u8)vec_add((p8_u128)c, (p8_u128)inc);
}

/* s[0..n) = the next n counter blocks, *ctr advanced past them (one and
 * two: p8_word(1), p8_word(2)).  Lanes 0 and 1 come from the counter, each
 * later lane two on from the one before: only two increments take
 * registers (the stitched GCM loop needs all the others) and no lane is
 * more than four adds from the counter. */
P8_INLINE void p8_counters(p8_u8 s[], const size_t n, p8_u8 *ctr, p8_u8 one, p8_u8 two, int inc32)
{
    s[0] = *ctr;
    if (n == 1) {
        *ctr = p8_ctr_add(*ctr, one, inc32);
        return;
    }
    s[1] = p8_ctr_add(*ctr, one, inc32);
    P8_EACH(i, n - 2) s[i + 2] = p8_ctr_add(s[i], two, inc32);
    *ctr = p8_ctr_add(s[n - 2], two, inc32);
}

#endif /* __CRYPTO__ && __VSX__ */
#endif /* __powerpc64__ */
#endif
