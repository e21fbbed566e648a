/*
 * aes_x86_ni.c - AES with the x86-64 AES-NI instructions and SSE registers
 * (every x86-64 CPU since Westmere): the "ni" entry of ic_impls_aes.
 *
 * AESENC / AESDEC do one whole round on a 128-bit register in a few cycles
 * of latency but issue one or two per cycle (Zen 3: latency 4, two per
 * cycle), so one block at a time leaves most of the unit idle.  Every mode
 * whose blocks are independent (ECB, CBC and CFB decryption, CTR) therefore
 * keeps 8 blocks in flight - the same pipelining argument the wolfSSL pull
 * request "POWER8 hardware AES" makes for vcipher - and a final batch of 1..7
 * blocks runs as one padded 8-lane batch, which costs the same latency as
 * a single block (those modes are written once, for this file and
 * aes_x86_vaes.c, in aes_x86_modes.h).  The chained modes (CBC and CFB
 * encryption, OFB) cannot overlap blocks; there the whitening XOR of the
 * next block is folded into the AESENCLAST round key so that only the
 * 10/12/14 rounds remain on the dependency chain.
 *
 * Key expansion (FIPS 197 section 5.2) uses AESENCLAST on a broadcast
 * word for SubWord(RotWord(w)) ^ Rcon (rot_sub says why not
 * AESKEYGENASSIST) and a prefix XOR of four words by shifted copies; the
 * decryption schedule is the Equivalent Inverse Cipher of
 * section 5.3.5 (AESIMC).  The layout is documented in aes_x86.h and shared
 * with aes_x86_vaes.c and the x86 AES-GCM code.
 *
 * Nothing here branches on or indexes memory with key or data; the only
 * branches are on lengths and on the value of a CTR-mode counter (the
 * caller's public IV; never for GCM's ctr32, whose counter may be derived
 * from the key).
 */
#include "core/target.h"

#if defined(__x86_64__) || defined(__i386__)
IC_TARGET_BEGIN("aes,ssse3")
#include <immintrin.h>
#include "aes/aes_x86.h"
#include "core/ct.h"


/* ---- key expansion -------------------------------------------------------- */

/* a ^ (a << 32) ^ (a << 64) ^ (a << 96): word j becomes w[0]^...^w[j], the
 * recurrence w[i] = w[i-Nk] ^ w[i-1] unrolled over four words.            */
static inline __m128i prefix_xor4(__m128i a)
{
    a = _mm_xor_si128(a, _mm_slli_si128(a, 4));
    return _mm_xor_si128(a, _mm_slli_si128(a, 8));
}

/* The next four words after the Nk words ending with `prev`, where `t`
 * holds the transformed word (SubWord/RotWord/Rcon of w[i-1]) in every lane. */
static inline __m128i next4(__m128i prev, __m128i t)
{
    return _mm_xor_si128(prefix_xor4(prev), t);
}

/* SubWord(RotWord(w)) ^ Rcon for word j of x (FIPS 197 5.2) in every lane,
 * by AESENCLAST (ShiftRows, SubBytes, AddRoundKey) on RotWord(w) in all
 * four columns: with equal columns ShiftRows moves nothing, and the round
 * key is Rcon in every word.  One PSHUFB does RotWord and the broadcast.
 * It replaced AESKEYGENASSIST and a PSHUFD on the expansion's dependency
 * chain: on the Xeon (AVX-512, VAES) it was measured on, ic_aes_key_init
 * went from 142 to 58 TSC ticks for AES-128 and from 175 to 70 for
 * AES-256 (min of 8 x 20000 calls), so AESKEYGENASSIST is the slow step
 * there.  On Zen 3, 4 and 5 both instructions have a latency of 4 (LLVM's
 * scheduling models, X86ScheduleZnver3/4/5.td: WriteAESKeyGen and
 * WriteAESDecEnc), and PSHUFB and PSHUFD are both one shuffle, so there
 * the chain is as long as before. */
static inline __m128i rot_sub(__m128i x, int j, int rc)
{
    const int b = 4 * j;
    const __m128i rot = _mm_setr_epi8(b + 1, b + 2, b + 3, b, b + 1, b + 2, b + 3, b,
                                      b + 1, b + 2, b + 3, b, b + 1, b + 2, b + 3, b);
    return _mm_aesenclast_si128(_mm_shuffle_epi8(x, rot), _mm_set1_epi32(rc));
}

/* SubWord(w3) in every lane (AES-256, i mod Nk = 4): no RotWord, no Rcon. */
static inline __m128i sub3(__m128i x)
{
    return _mm_aesenclast_si128(_mm_shuffle_epi32(x, 0xff), _mm_setzero_si128());
}

/* AES-128: each round key is the previous one run through the recurrence. */
static void expand128(__m128i *rk, const uint8_t *key)
{
    __m128i a = _mm_loadu_si128((const __m128i *)key);
    rk[0] = a;
#define R128(i, rc) a = next4(a, rot_sub(a, 3, rc)); rk[i] = a
    R128(1, 0x01); R128(2, 0x02); R128(3, 0x04); R128(4, 0x08); R128(5, 0x10);
    R128(6, 0x20); R128(7, 0x40); R128(8, 0x80); R128(9, 0x1b); R128(10, 0x36);
#undef R128
}

/* AES-192: Nk = 6 words do not line up with 4-word round keys, so the
 * schedule is written as the word sequence w[0..51] (13 round keys,
 * rk[] viewed as words): a = w[i-6..i-3], b = w[i-2..i-1] in its low half.
 * One step gives w[i..i+3] = prefix(a) ^ T(w[i-1]) and
 * w[i+4..i+5] = prefix(b) ^ w[i+3].  Eight steps give 6*8 + 6 = 54 >= 52
 * words; the last step only needs its first four.                       */
static void expand192(__m128i *rk, const uint8_t *key)
{
    uint8_t *w = (uint8_t *)rk;
    __m128i a = _mm_loadu_si128((const __m128i *)key);
    __m128i b = _mm_loadl_epi64((const __m128i *)(key + 16));
    _mm_storeu_si128((__m128i *)w, a);
    _mm_storel_epi64((__m128i *)(w + 16), b);
#define R192(j, rc) \
    a = next4(a, rot_sub(b, 1, rc)); \
    _mm_storeu_si128((__m128i *)(w + 24 * (j)), a); \
    b = _mm_xor_si128(_mm_xor_si128(b, _mm_slli_si128(b, 4)), _mm_shuffle_epi32(a, 0xff)); \
    if ((j) < 8) _mm_storel_epi64((__m128i *)(w + 24 * (j) + 16), b)
    R192(1, 0x01); R192(2, 0x02); R192(3, 0x04); R192(4, 0x08);
    R192(5, 0x10); R192(6, 0x20); R192(7, 0x40); R192(8, 0x80);
#undef R192
}

/* AES-256: two 4-word halves alternate; the odd half uses SubWord without
 * RotWord or Rcon (FIPS 197 section 5.2, i mod Nk = 4).                  */
static void expand256(__m128i *rk, const uint8_t *key)
{
    __m128i a = _mm_loadu_si128((const __m128i *)key);
    __m128i b = _mm_loadu_si128((const __m128i *)(key + 16));
    rk[0] = a;
    rk[1] = b;
#define R256(i, rc) \
    a = next4(a, rot_sub(b, 3, rc)); rk[i] = a; \
    if ((i) < 14) { b = next4(b, sub3(a)); rk[(i) + 1] = b; }
    R256(2, 0x01); R256(4, 0x02); R256(6, 0x04); R256(8, 0x08);
    R256(10, 0x10); R256(12, 0x20); R256(14, 0x40);
#undef R256
}

/* The encryption schedule of aes_x86.h into k; returns it. */
static __m128i *expand_enc(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    __m128i *enc = (__m128i *)(k->storage + AES_X86_ENC_OFF);
    if (keylen == IC_AES128_KEY_SIZE)
        expand128(enc, key);
    else if (keylen == IC_AES192_KEY_SIZE)
        expand192(enc, key);
    else
        expand256(enc, key);
    k->rounds = (unsigned)(keylen / 4 + 6);
    return enc;
}

/* GCM's key set-up (ic_aes_ops.gcm_setkey): the encryption schedule only,
 * not the nine to thirteen AESIMC of the inverse cipher's that GCM never
 * uses, and H = E(K, 0^128) straight on the round keys (round 0 of a zero
 * block is rk[0]), not through the batched ECB entry. */
void ic_aes_x86_ni_gcm_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen, uint8_t h[16])
{
    const __m128i *rk = expand_enc(k, key, keylen);
    unsigned nr = k->rounds;
    __m128i x = rk[0];
    for (unsigned r = 1; r < nr; r++)
        x = _mm_aesenc_si128(x, rk[r]);
    _mm_storeu_si128((__m128i *)h, _mm_aesenclast_si128(x, rk[nr]));
}

void ic_aes_x86_ni_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    __m128i *enc = expand_enc(k, key, keylen);
    __m128i *dec = (__m128i *)(k->storage + AES_X86_DEC_OFF);
    unsigned nr = k->rounds;
    /* Equivalent Inverse Cipher: reversed order, InvMixColumns on the
     * inner keys so that AESDEC (which applies InvMixColumns before the
     * AddRoundKey) can use them directly. */
    dec[0] = enc[nr];
    for (unsigned i = 1; i < nr; i++)
        dec[i] = _mm_aesimc_si128(enc[nr - i]);
    dec[nr] = enc[0];
}

/* ---- eight blocks in flight ------------------------------------------------
 * The batched modes are aes_x86_modes.h; here are the SSE register type,
 * the AES-NI rounds, and how blocks move (one XMM register per block).   */

#define AESX_V __m128i
#define AESX_NBLK 8
#define AESX_FN(name) ni_##name
#define AESX_KEY(rk, r) ((rk)[r])
#define AESX_XOR _mm_xor_si128
#define AESX_ENC _mm_aesenc_si128
#define AESX_ENCLAST _mm_aesenclast_si128
#define AESX_DEC _mm_aesdec_si128
#define AESX_DECLAST _mm_aesdeclast_si128
#include "aes/aes_x86_modes.h"

#define LOAD(p, j) _mm_loadu_si128((const __m128i *)((p) + 16 * (j)))
#define STORE(p, j, v) _mm_storeu_si128((__m128i *)((p) + 16 * (j)), (v))

/* Switches, not loops, so every b[j] index is a constant and b stays in
 * registers once inlined; with n a constant (a whole batch) the switch
 * folds away.                                                            */
AESX_INLINE void load_n(__m128i b[AESX_NV], const uint8_t *p, size_t n)
{
    switch (n) {
    default: b[7] = LOAD(p, 7); /* fall through */
    case 7: b[6] = LOAD(p, 6);  /* fall through */
    case 6: b[5] = LOAD(p, 5);  /* fall through */
    case 5: b[4] = LOAD(p, 4);  /* fall through */
    case 4: b[3] = LOAD(p, 3);  /* fall through */
    case 3: b[2] = LOAD(p, 2);  /* fall through */
    case 2: b[1] = LOAD(p, 1);  /* fall through */
    case 1: b[0] = LOAD(p, 0);  /* fall through */
    case 0: break;
    }
}

AESX_INLINE void load_prev_n(__m128i b[AESX_NV], __m128i first, const uint8_t *p, size_t n)
{
    switch (n) {
    default: b[7] = LOAD(p, 6); /* fall through */
    case 7: b[6] = LOAD(p, 5);  /* fall through */
    case 6: b[5] = LOAD(p, 4);  /* fall through */
    case 5: b[4] = LOAD(p, 3);  /* fall through */
    case 4: b[3] = LOAD(p, 2);  /* fall through */
    case 3: b[2] = LOAD(p, 1);  /* fall through */
    case 2: b[1] = LOAD(p, 0);  /* fall through */
    case 1: b[0] = first;
    }
}

AESX_INLINE void store_n(uint8_t *out, const __m128i b[AESX_NV], size_t n)
{
    switch (n) {
    default: STORE(out, 7, b[7]); /* fall through */
    case 7: STORE(out, 6, b[6]);  /* fall through */
    case 6: STORE(out, 5, b[5]);  /* fall through */
    case 5: STORE(out, 4, b[4]);  /* fall through */
    case 4: STORE(out, 3, b[3]);  /* fall through */
    case 3: STORE(out, 2, b[2]);  /* fall through */
    case 2: STORE(out, 1, b[1]);  /* fall through */
    case 1: STORE(out, 0, b[0]);
    }
}

/* Block j of the batch is the counter + j (aes_x86_modes.h, CTR); inc32
 * is a constant in each caller, so only one of the ways is compiled into
 * each op, and ctr32 (GCM) has no branch on the counter's value.        */
AESX_INLINE void ctr_blocks(__m128i b[AESX_NV], __m128i c, uint64_t hi, uint64_t lo, int inc32)
{
    if (inc32) {
        for (int j = 0; j < AESX_NV; j++)
            b[j] = bswap128(_mm_add_epi32(c, _mm_set_epi32(0, 0, 0, j)));
    } else if (ctr_lastbyte_ok(c)) {
        __m128i be = bswap128(c);
        for (int j = 0; j < AESX_NV; j++)
            b[j] = _mm_add_epi8(be, _mm_set_epi8((char)j, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    } else if (ctr_lo_ok(lo)) {
        for (int j = 0; j < AESX_NV; j++)
            b[j] = bswap128(_mm_add_epi64(c, _mm_set_epi64x(0, j)));
    } else {
        for (int j = 0; j < AESX_NV; j++)
            b[j] = ctr_block(hi, lo, (uint64_t)j);
    }
}

/* ---- the serial modes -----------------------------------------------------
 * CBC-enc: C_j = E(P_j ^ C_{j-1}); CFB-enc: C_j = P_j ^ E(C_{j-1});
 * OFB: O_j = E(O_{j-1}), C_j = P_j ^ O_j.  Each block's cipher input needs
 * the previous output, so the chain is nr rounds long per block.  The
 * rounds are E(x) = AESENCLAST(f(x ^ rk0), rk_nr) where AESENCLAST ends
 * with "^ rk_nr"; since the next cipher input is (this output ^ m) ^ rk0
 * for a value m known in advance (P_{j+1}, 0 or P_j), that XOR is folded
 * into the last round key:  s' = AESENCLAST(s, rk_nr ^ m ^ rk0), and the
 * output block is recovered off the chain as s' ^ m ^ rk0.  What remains
 * on the chain is exactly nr AES rounds per block.
 *
 * mode 0 = CBC, 1 = CFB, 2 = OFB.  The register iv ends as the last
 * ciphertext (CBC, CFB) or the last O_j (OFB).                           */
AESX_INLINE void serial(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                      size_t nblocks, int mode)
{
    const __m128i *rk = (const __m128i *)aes_x86_enc_rk(k);
    unsigned nr = k->rounds;
    __m128i k0 = rk[0], kl = rk[nr];
    __m128i v = _mm_loadu_si128((const __m128i *)iv);
    /* s = cipher input ^ rk0 for the first block */
    __m128i s = _mm_xor_si128(v, k0);
    if (mode == 0)
        s = _mm_xor_si128(s, LOAD(in, 0));
    for (size_t i = 0; i < nblocks; i++) {
        for (unsigned r = 1; r < nr; r++)
            s = _mm_aesenc_si128(s, rk[r]);
        /* m: what separates this block's output from the next cipher input */
        __m128i x = LOAD(in, i), m;
        if (mode == 0)
            m = i + 1 < nblocks ? LOAD(in, i + 1) : _mm_setzero_si128();
        else if (mode == 1)
            m = x;
        else
            m = _mm_setzero_si128();
        __m128i mk = _mm_xor_si128(m, k0);
        s = _mm_aesenclast_si128(s, _mm_xor_si128(kl, mk));
        __m128i e = _mm_xor_si128(s, mk);    /* E(cipher input), off the chain */
        if (mode == 0) {
            v = e;                           /* C_j */
            STORE(out, i, v);
        } else if (mode == 1) {
            v = _mm_xor_si128(e, x);         /* C_j = E(C_{j-1}) ^ P_j */
            STORE(out, i, v);
        } else {
            v = e;                           /* O_j */
            STORE(out, i, _mm_xor_si128(e, x));
        }
    }
    _mm_storeu_si128((__m128i *)iv, v);
}

void ic_aes_x86_ni_cbc_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    if (nblocks)
        serial(k, iv, out, in, nblocks, 0);
}

void ic_aes_x86_ni_cfb_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    serial(k, iv, out, in, nblocks, 1);
}

void ic_aes_x86_ni_ofb(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks)
{
    serial(k, iv, out, in, nblocks, 2);
}

/* ---- XTS: aes_x86_xts.h on one block per register ----------------------- */
#define AESX_SLLQ _mm_slli_epi64
#define AESX_SRLQ _mm_srli_epi64
#define AESX_BSLLI _mm_bslli_si128
#define AESX_BSRLI _mm_bsrli_si128
#define AESX_XTS_LANES0(t) (t)
#define AESX_LANE128(v, l) (v)
/* the tweaks of data units of 1 KiB or more in general registers
 * (aes_x86_xts.h; Zen 3, 4 KiB: 0.390 -> 0.288 c/B; `incore speed` had
 * 512 bytes slower) */
#define AESX_XTS_GPR 1
#define AESX_XTS_GPR_MIN 64
#include "aes/aes_x86_xts.h"

const ic_aes_ops ic_aes_ni_ops = {
    ic_aes_x86_ni_setkey, ni_ecb_enc, ni_ecb_dec, ic_aes_x86_ni_cbc_enc, ni_cbc_dec,
    ni_ctr, ni_ctr32, ic_aes_x86_ni_cfb_enc, ni_cfb_dec, ic_aes_x86_ni_ofb, ni_xts,
    IC_STITCH_BIT(IC_STITCH_X86_XMM), ic_aes_x86_ni_gcm_setkey,
};

IC_BACKEND(aes, ni, IC_F(IC_CPU_AESNI) | IC_F(IC_CPU_SSSE3), &ic_aes_ni_ops);

IC_TARGET_END
#endif /* x86 */
