/*
 * aes_x86_padlock.c - AES on the VIA PadLock Advanced Cryptography Engine:
 * the "padlock" entry of ic_impls_aes (x86-64 and 32-bit x86, CPUs with
 * ACE; CTR uses
 * ACE2's REP XCRYPTCTR when it is there).  Everything here follows the VIA
 * PadLock Programming Guide (chapter 3 unless said otherwise); no compiler has intrinsics for these instructions, so
 * each is one small inline-assembly function.
 *
 * Key layout in ic_aes_key.storage (64-byte aligned, so every part below
 * is 16-byte aligned as 3.1 and 3.2 require of the control word and key
 * pointers):
 *   [  0, 128) control word for encryption: ROUND = Nr, KSIZE, KEYGN; the
 *              guide asks for 128 bytes there when the ALIGN bit is set
 *              (microcode scratch); ALIGN is never set here, the room is
 *              kept anyway
 *   [128, 256) control word for decryption: the same with CRYPT = 1
 *   [256, 512) 128-bit keys: the key itself (KEYGN = 0, the hardware
 *              expands it, "the normal approach for 128-bit keys");
 *              192/256-bit keys: the encryption schedule w[] of FIPS 197
 *              figure 11, padded to the sixteen 128-bit values the hardware
 *              always loads (KEYGN = 1, "the only supported option")
 *   [512, 768) 192/256-bit keys: the Equivalent Inverse Cipher schedule
 *              (FIPS 197 5.3.5) in the order it is used, the real key last
 * CFB, OFB and CTR need only the forward cipher and always point EBX at
 * the encryption key; CFB decryption sets CRYPT, which there selects which
 * block is fed back (as OpenSSL's and Linux's PadLock drivers do).
 *
 * The rules the code follows:
 *  - key reload: the engine keeps the last control word and key while
 *    EFLAGS bit 30 is set, and only an EFLAGS store clears it ("EFLAGS[30]"
 *    in 3.2).  Another key, another direction or another thread's key may
 *    have been loaded since our last call, so every instruction here is
 *    preceded by PUSHF; POPF, the sequence the guide recommends.  The push
 *    goes below the 128-byte red zone (the compiler may keep locals there).
 *  - alignment: data pointers must be 16-byte aligned (ALIGN = 0, the mode
 *    every ACE has; ECB faults on misaligned data even with ALIGN); data
 *    that is not goes through an aligned buffer on the stack, BOUNCE bytes
 *    at a time.  IVs are always copied to an aligned local.
 *  - ECB works on pairs of blocks: with an odd count the engine reads the
 *    block after the last one (3.3), which could lie past the caller's
 *    buffer: the odd last block goes through the bounce buffer.  A count of
 *    0 is never issued (the engine loads data before it tests ECX).
 *  - CTR (ACE2): the counter the engine increments is only the last 16
 *    bits, big-endian, without carry (3.1 "Counter Mode").  ic's CTR has a
 *    128-bit counter, so a call is split where the low 16 bits wrap and the
 *    caller's counter is advanced in software.
 *    Chunks are at most 4096 blocks (64 KiB, the limit VIA recommends in
 *    CTR_ERRATA.C), never in place in the caller's memory, and checked as
 *    CTR_ERRATA.C shows: on the C7 stepping with the errata an interrupted
 *    REP XCRYPTCTR may produce wrong ciphertext, visible as a counter that
 *    is neither the expected value nor (even counts) one more; the chunk is
 *    then redone from its unchanged input.
 *    Without ACE2, CTR encrypts counter blocks with ECB; so does GCM's
 *    ctr32 always, whose counter must not steer a branch (below).
 *  - chaining state: CBC and CFB encryption leave EAX pointing at the last
 *    ciphertext block (that is the next IV); OFB, CTR and the decryptions
 *    update the 16 bytes at [EAX] (3.1 "Initialization Vector Pointer").
 *
 * Constant time: the engine's timing does not depend on data or key bits
 * (one AES round per clock pair, 3.3); the software key expansion uses the
 * bitsliced S-box (ic_aes_key_words) and branch-free GF(2^8) arithmetic;
 * branches here depend only on lengths, pointer alignment and the public
 * CTR counter of ic_aes_ctr_crypt (where the 16-bit wraps fall), never on
 * GCM's ctr32 counter, which for IVs other than 96 bits is derived from the
 * hash key.
 */
#if defined(__x86_64__) || defined(__i386__)

#include "aes/aes_impl.h"

#define CW_ENC_OFF  0
#define CW_DEC_OFF  128
#define KEY_OFF     256
#define DKEY_OFF    512

#define CW_KEYGN    0x080u   /* 1: the schedule is loaded from memory */
#define CW_CRYPT    0x200u   /* 1: decrypt */

#define BOUNCE      512      /* bytes of the aligned stack buffer (32 blocks) */
#define CTR_CHUNK   4096     /* blocks per REP XCRYPTCTR (64 KiB) */

/* Every instruction below is preceded by an EFLAGS store (PUSHF; POPF) to
 * force the control word and key to be loaded (3.2 "EFLAGS[30]"); on
 * x86-64 the push is done below the red zone (32-bit code has none).
 * The operands are register-width neutral: pointers and size_t counts in
 * ESI/EDI/ECX/EAX/EBX/EDX, or their 64-bit forms. */
#if defined(__x86_64__)
#define RELOAD "lea -128(%%rsp), %%rsp\n\tpushfq\n\tpopfq\n\tlea 128(%%rsp), %%rsp\n\t"
#else
#define RELOAD "pushfl\n\tpopfl\n\t"
#endif

/* ---- one function per instruction ----------------------------------------- */

/* REP XCRYPTECB, 0xF3 0x0F 0xA7 0xC8: ECX blocks ESI -> EDI. */
static inline void xcrypt_ecb(const uint8_t *cw, const uint8_t *key, const uint8_t *in,
                              uint8_t *out, size_t n)
{
    __asm__ __volatile__(RELOAD ".byte 0xf3, 0x0f, 0xa7, 0xc8"
                         : "+S"(in), "+D"(out), "+c"(n)
                         : "b"(key), "d"(cw)
                         : "memory", "cc");
}

/* The chaining modes take the IV (CTR: the counter block) at EAX as well
 * and return EAX after the instruction: for CBC and CFB encryption the
 * address of the last ciphertext block; OFB, CTR and the decryptions leave
 * EAX and update the 16 bytes it points at.  One function per opcode:
 *   REP XCRYPTCBC 0xF3 0x0F 0xA7 0xD0     REP XCRYPTCFB 0xF3 0x0F 0xA7 0xE0
 *   REP XCRYPTOFB 0xF3 0x0F 0xA7 0xE8     REP XCRYPTCTR 0xF3 0x0F 0xA7 0xD8 (ACE2) */
#define XCRYPT_CHAIN(name, modrm)                                                          \
    static inline uint8_t *name(const uint8_t *cw, const uint8_t *key, uint8_t *iv,        \
                                const uint8_t *in, uint8_t *out, size_t n)                  \
    {                                                                                      \
        __asm__ __volatile__(RELOAD ".byte 0xf3, 0x0f, 0xa7, " modrm                        \
                             : "+S"(in), "+D"(out), "+c"(n), "+a"(iv)                      \
                             : "b"(key), "d"(cw)                                           \
                             : "memory", "cc");                                            \
        return iv;                                                                         \
    }
XCRYPT_CHAIN(xcrypt_cbc, "0xd0")
XCRYPT_CHAIN(xcrypt_cfb, "0xe0")
XCRYPT_CHAIN(xcrypt_ofb, "0xe8")
XCRYPT_CHAIN(xcrypt_ctr, "0xd8")

/* ---- key setup --------------------------------------------------------------- */

/* GF(2^8) doubling without a branch on the (secret) top bit. */
static inline uint32_t xtime4(uint32_t x)
{
    uint32_t hi = x & 0x80808080u;
    return ((x & 0x7f7f7f7fu) << 1) ^ ((hi >> 7) * 0x1b);
}

/* InvMixColumns (FIPS 197 5.3.3) of one column held as a little-endian
 * word (byte 0 = row 0): 0e a ^ 0b rot1 ^ 0d rot2 ^ 09 rot3. */
static uint32_t inv_mix_word(uint32_t a)
{
    uint32_t a2 = xtime4(a), a4 = xtime4(a2), a8 = xtime4(a4);
    uint32_t e = a8 ^ a4 ^ a2, b = a8 ^ a2 ^ a, d = a8 ^ a4 ^ a, n = a8 ^ a;
    return e ^ ic_rotr32(b, 8) ^ ic_rotr32(d, 16) ^ ic_rotr32(n, 24);
}

static void padlock_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    const unsigned nr = (unsigned)(keylen / 4) + 6;
    const uint32_t ksize = (uint32_t)(keylen - 16) / 8;     /* 0, 1, 2 */
    uint32_t cw = nr | ksize << 10 | (keylen == 16 ? 0 : CW_KEYGN);
    memset(k->storage, 0, 768);
    ic_store32_le(k->storage + CW_ENC_OFF, cw);
    ic_store32_le(k->storage + CW_DEC_OFF, cw | CW_CRYPT);
    if (keylen == 16) {
        memcpy(k->storage + KEY_OFF, key, 16);
        return;
    }
    uint32_t w[4 * 15];
    ic_aes_key_words(w, key, keylen);
    for (unsigned i = 0; i < 4 * (nr + 1); i++)
        ic_store32_le(k->storage + KEY_OFF + 4 * i, w[i]);
    /* decryption: round keys in the order the inverse cipher uses them,
     * InvMixColumns applied to all but the first and last */
    for (unsigned r = 0; r <= nr; r++)
        for (unsigned c = 0; c < 4; c++) {
            uint32_t x = w[4 * (nr - r) + c];
            ic_store32_le(k->storage + DKEY_OFF + 16 * r + 4 * c,
                          (r == 0 || r == nr) ? x : inv_mix_word(x));
        }
    ic_wipe(w, sizeof w);
}

static const uint8_t *cw_enc(const ic_aes_key *k) { return k->storage + CW_ENC_OFF; }
static const uint8_t *cw_dec(const ic_aes_key *k) { return k->storage + CW_DEC_OFF; }
static const uint8_t *key_enc(const ic_aes_key *k) { return k->storage + KEY_OFF; }
/* the key ECB/CBC decryption loads: 128-bit keys are expanded by the
 * hardware for either direction from the key itself */
static const uint8_t *key_dec(const ic_aes_key *k)
{
    return k->storage + (k->rounds == 10 ? KEY_OFF : DKEY_OFF);
}

static int aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

/* ---- the modes ------------------------------------------------------------- */

typedef enum { M_CBC, M_CFB, M_OFB } chain_mode;

/* ECB: direct when both buffers are aligned; an odd last block, and
 * everything when a buffer is misaligned, through the bounce buffer (which
 * has room for the pair the engine reads). */
static void ecb(const uint8_t *cw, const uint8_t *key, uint8_t *out, const uint8_t *in,
                size_t nblocks)
{
    _Alignas(16) uint8_t b[BOUNCE];
    size_t done = 0;
    if (aligned16(in) && aligned16(out) && nblocks >= 2) {
        done = nblocks & ~(size_t)1;
        xcrypt_ecb(cw, key, in, out, done);
    }
    while (done < nblocks) {
        size_t n = nblocks - done < BOUNCE / 16 ? nblocks - done : BOUNCE / 16;
        memcpy(b, in + 16 * done, 16 * n);
        xcrypt_ecb(cw, key, b, b, n);     /* n odd: reads b[16n..16n+15], inside b */
        memcpy(out + 16 * done, b, 16 * n);
        done += n;
    }
    ic_wipe(b, sizeof b);
}

static void padlock_ecb_enc(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ecb(cw_enc(k), key_enc(k), out, in, nblocks);
}

static void padlock_ecb_dec(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    ecb(cw_dec(k), key_dec(k), out, in, nblocks);
}

/* One run of a chaining mode over n blocks at aligned in/out; ivp is the
 * aligned 16-byte chaining value, updated for the next run. */
static void chain_run(chain_mode m, int dec, const uint8_t *cw, const uint8_t *key, uint8_t *ivp,
                      const uint8_t *in, uint8_t *out, size_t n)
{
    const uint8_t *last;
    switch (m) {
    case M_CBC:
        last = xcrypt_cbc(cw, key, ivp, in, out, n);
        break;
    case M_CFB:
        last = xcrypt_cfb(cw, key, ivp, in, out, n);
        break;
    default:
        xcrypt_ofb(cw, key, ivp, in, out, n);
        return;
    }
    if (!dec)           /* encryption: EAX moved to the last ciphertext block */
        memcpy(ivp, last, 16);
}

static void chain(chain_mode m, int dec, const uint8_t *cw, const uint8_t *key, uint8_t iv[16],
                  uint8_t *out, const uint8_t *in, size_t nblocks)
{
    _Alignas(16) uint8_t v[16], b[BOUNCE];
    memcpy(v, iv, 16);
    if (aligned16(in) && aligned16(out)) {
        chain_run(m, dec, cw, key, v, in, out, nblocks);
    } else {
        for (size_t done = 0; done < nblocks;) {
            size_t n = nblocks - done < BOUNCE / 16 ? nblocks - done : BOUNCE / 16;
            memcpy(b, in + 16 * done, 16 * n);
            chain_run(m, dec, cw, key, v, b, b, n);
            memcpy(out + 16 * done, b, 16 * n);
            done += n;
        }
        ic_wipe(b, sizeof b);
    }
    memcpy(iv, v, 16);
    ic_wipe(v, sizeof v);
}

static void padlock_cbc_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks)
{
    chain(M_CBC, 0, cw_enc(k), key_enc(k), iv, out, in, nblocks);
}

static void padlock_cbc_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks)
{
    chain(M_CBC, 1, cw_dec(k), key_dec(k), iv, out, in, nblocks);
}

static void padlock_cfb_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks)
{
    chain(M_CFB, 0, cw_enc(k), key_enc(k), iv, out, in, nblocks);
}

/* CRYPT = 1 with the encryption key: the forward cipher, ciphertext fed back */
static void padlock_cfb_dec(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks)
{
    chain(M_CFB, 1, cw_dec(k), key_enc(k), iv, out, in, nblocks);
}

static void padlock_ofb(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                        size_t nblocks)
{
    chain(M_OFB, 0, cw_enc(k), key_enc(k), iv, out, in, nblocks);
}

/* ---- CTR ---------------------------------------------------------------------- */

/* Add n to the 128-bit big-endian counter (public: ic_aes_ctr_crypt's). */
static void ctr128_add(uint8_t ctr[16], uint64_t n)
{
    for (unsigned i = 16; i-- > 0 && n;) {
        uint64_t s = (uint64_t)ctr[i] + (n & 0xff);
        ctr[i] = (uint8_t)s;
        n = (n >> 8) + (s >> 8);
    }
}

/* n <= CTR_CHUNK blocks with REP XCRYPTCTR from in to out (aligned,
 * distinct, none past a 16-bit wrap).  Returns 0 when the engine left an
 * impossible counter (CTR_ERRATA.C: an interrupted instruction on an
 * affected C7 then produced wrong blocks; the caller redoes the chunk). */
static int ctr_ace2_run(const ic_aes_key *k, const uint8_t c0[16], const uint8_t *in, uint8_t *out,
                        size_t n)
{
    _Alignas(16) uint8_t c[16];
    memcpy(c, c0, 16);
    xcrypt_ctr(cw_enc(k), key_enc(k), c, in, out, n);
    unsigned want = ((unsigned)(c0[14] << 8 | c0[15]) + (unsigned)n) & 0xffff;
    unsigned got = (unsigned)(c[14] << 8 | c[15]);
    return got == want || (n % 2 == 0 && got == ((want + 1) & 0xffff));
}

/* ic_aes_ctr_crypt's 128-bit counter on ACE2: split where the engine's
 * 16-bit counter would wrap, the caller's counter advanced here. */
static void ctr_ace2(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                     size_t nblocks)
{
    _Alignas(16) uint8_t src[BOUNCE], dst[BOUNCE];
    _Alignas(16) uint8_t c[16];
    int direct = aligned16(in) && aligned16(out) && in != out;
    memcpy(c, ctr, 16);
    while (nblocks) {
        size_t to_wrap = 0x10000u - (size_t)(c[14] << 8 | c[15]);
        size_t n = direct ? CTR_CHUNK : BOUNCE / 16;
        n = n < nblocks ? n : nblocks;
        n = n < to_wrap ? n : to_wrap;
        if (direct) {
            while (!ctr_ace2_run(k, c, in, out, n)) {
            }
        } else {
            /* never in place: a redo needs the input intact */
            memcpy(src, in, 16 * n);
            while (!ctr_ace2_run(k, c, src, dst, n)) {
            }
            memcpy(out, dst, 16 * n);
        }
        ctr128_add(c, n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    memcpy(ctr, c, 16);
    ic_wipe(src, sizeof src);
    ic_wipe(dst, sizeof dst);
}

/* CTR from counter blocks encrypted with REP XCRYPTECB (the fastest ACE
 * mode in the guide's tables) and XORed: GCM's ctr32 always (its counter
 * may derive from the key, so no branch may depend on it: inc32 here is
 * branch free), the 128-bit counter when there is no ACE2. */
static void ctr_ecb(const ic_aes_key *k, uint8_t ctr[16], int wide, uint8_t *out,
                    const uint8_t *in, size_t nblocks)
{
    _Alignas(16) uint8_t ks[BOUNCE];
    while (nblocks) {
        size_t n = nblocks < BOUNCE / 16 ? nblocks : BOUNCE / 16;
        for (size_t i = 0; i < n; i++) {
            memcpy(ks + 16 * i, ctr, 16);
            if (wide)
                ctr128_add(ctr, 1);
            else
                ic_store32_be(ctr + 12, ic_load32_be(ctr + 12) + 1);
        }
        ecb(cw_enc(k), key_enc(k), ks, ks, n);
        ic_xor_bytes(out, in, ks, 16 * n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    ic_wipe(ks, sizeof ks);
}

static void padlock_ctr(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                        size_t nblocks)
{
    if (ic_cpu_enabled() & IC_F(IC_CPU_PADLOCK_ACE2))
        ctr_ace2(k, ctr, out, in, nblocks);
    else
        ctr_ecb(k, ctr, 1, out, in, nblocks);
}

static void padlock_ctr32(const ic_aes_key *k, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                          size_t nblocks)
{
    ctr_ecb(k, ctr, 0, out, in, nblocks);
}

static const ic_aes_ops padlock_ops = {
    padlock_setkey, padlock_ecb_enc, padlock_ecb_dec, padlock_cbc_enc, padlock_cbc_dec,
    padlock_ctr, padlock_ctr32, padlock_cfb_enc, padlock_cfb_dec, padlock_ofb,
    NULL,   /* xts: the generic loop of xts.c over REP XCRYPTECB */
    0,      /* stitch: REP XCRYPT* runs whole calls, no rounds to interleave */
    NULL,   /* gcm_setkey: setkey and one ECB block */
};
IC_BACKEND(aes, padlock, IC_F(IC_CPU_PADLOCK_ACE), &padlock_ops);

#endif /* x86 */
