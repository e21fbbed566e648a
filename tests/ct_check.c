/*
 * ct_check.c - the constant-time check: every primitive that
 * handles secrets, through every implementation this CPU (as the checker
 * presents it) can run, with the secrets marked so that a checker reports
 * any branch or memory address computed from them.
 *
 * One source, two checkers:
 *  - valgrind memcheck (ctest `ct_valgrind`): secrets are marked undefined
 *    with VALGRIND_MAKE_MEM_UNDEFINED, and memcheck reports "conditional
 *    jump or move depends on uninitialised value(s)" and "use of
 *    uninitialised value" (an address) wherever they decide control flow
 *    or a memory index - the ctgrind idea (A. Langley, 2010).  Valgrind's
 *    CPUID has no VAES, VPCLMULQDQ or AVX-512, so it reaches ni, clmul and
 *    the portable code;
 *  - clang's MemorySanitizer (ctest `ct_msan`, built with clang into its own
 *    directory): __msan_poison / __msan_unpoison, reports the same uses,
 *    and runs natively, so the VAES/VPCLMULQDQ backends are checked too.
 * What is secret: keys, plaintexts, and every value derived from them
 * (round keys, H, J0 for a GCM IV that is not 12 bytes, keystream, tags
 * before they are output, HKDF output).  What is public: IVs and nonces,
 * AAD, lengths, the CTR-mode counter (the IV of that mode), and for the
 * opens the ciphertext and the tag.  The library may declassify only the
 * verdict of a tag comparison (src/core/ct.h); this program declassifies
 * only outputs, after the call that produced them returned, to compare
 * them.
 *
 * Each case runs twice, unmarked and marked, writing everything it gets
 * back (outputs and status codes) into a transcript; the two transcripts
 * must be equal, so a case that did not run or ran differently under the
 * marks fails too.  Under valgrind the error count is read after each case
 * (VALGRIND_COUNT_ERRORS) so a report is attributed to a case; ctest also
 * passes --error-exitcode.  Run outside both checkers, the program only
 * compares transcripts; with --require it then fails, so the ctest leg
 * cannot pass without a checker.  Sizes are small (valgrind runs ~50x
 * slower) but every batched path is reached: lengths past two batches of
 * the widest backend (32 blocks, vaes512 and the ZMM GCM loop).
 */
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "bn/bn_impl.h"
#include "bn/bn_mod.h"
#include "rsa_testkey.h"
#include "drbg/ctr_drbg.h"
#include "rand/rand_source.h"

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define CT_MSAN 1
#endif
#endif

#if defined(CT_MSAN)
#include <sanitizer/msan_interface.h>
#define SECRET(p, n) __msan_poison((p), (n))
#define PUBLIC(p, n) __msan_unpoison((p), (n))
#define CT_CHECKER "MemorySanitizer"
#define CT_ACTIVE 1
#define CT_ERRORS 0UL           /* MSan stops at the first report */
#elif defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define PUBLIC(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#define CT_CHECKER "valgrind memcheck"
#define CT_ACTIVE (RUNNING_ON_VALGRIND != 0)
#define CT_ERRORS ((unsigned long)VALGRIND_COUNT_ERRORS)
#endif
#endif
#if !defined(SECRET)
#define SECRET(p, n) ((void)(p), (void)(n))
#define PUBLIC(p, n) ((void)(p), (void)(n))
#define CT_CHECKER "none (valgrind headers missing)"
#define CT_ACTIVE 0
#define CT_ERRORS 0UL
#endif

/* ---- transcript and inputs --------------------------------------------- */

static int marking;                 /* 1 in the marked run of a case */
static uint8_t *tr;                 /* what the current run got back */
static size_t trlen, trcap = 1 << 20;

static void put(const void *p, size_t n)
{
    if (n > trcap - trlen) {        /* trlen is public: a plain branch */
        fprintf(stderr, "transcript full\n");
        exit(2);
    }
    memcpy(tr + trlen, p, n);
    trlen += n;
}
/* A status is public: branch on it, as every caller does (a verify whose
 * verdict was not declassified is reported here). */
static volatile unsigned long nerrors;
static void put_status(int st)
{
    if (st != IC_OK)
        nerrors++;                  /* volatile: a real branch, not a cmov */
    put(&st, sizeof st);
}

/* Deterministic bytes: the same in both runs of a case. */
static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        p[i] = (uint8_t)(x >> 11);
    }
}

/* Fill, then mark secret in the marked run. */
static void secret(uint8_t *p, size_t n, uint32_t seed)
{
    fill(p, n, seed);
    if (marking)
        SECRET(p, n);
}

static uint8_t key[64], pt[2200], ct[2200], out[2200], out2[2200], iv[64], aad[300], tag[16], tag2[16];

/* Run a case unmarked and marked; the transcripts must match and the
 * checker must not have reported anything. */
static void run_case(const char *prim, const char *impl, void (*fn)(void))
{
    static uint8_t *ref;
    size_t reflen;
    unsigned long e0 = CT_ERRORS, e1;
    if (ref == NULL)
        ref = tl_xmalloc(trcap);
    marking = 0, trlen = 0;
    fn();
    memcpy(ref, tr, trlen);
    reflen = trlen;
    marking = 1, trlen = 0;
    fn();
    PUBLIC(tr, trlen);              /* outputs, compared after the fact */
    marking = 0;
    e1 = CT_ERRORS;
    CHECK(trlen == reflen, "%s/%s: transcript length %zu marked, %zu unmarked", prim, impl, trlen, reflen);
    CHECK_MEM(tr, ref, trlen < reflen ? trlen : reflen, "%s/%s: same results with secrets marked", prim, impl);
    CHECK(e1 == e0, "%s/%s: %lu reports by %s", prim, impl, e1 - e0, CT_CHECKER);
    printf("  %-9s %-13s %zu bytes of results, %lu reports\n", prim, impl, trlen, e1 - e0);
}

/* ---- big numbers ------------------------------------------------------------ */
/* The modulus is secret too (an RSA-CRT prime); only its length is public.
 * ic_mont_modexp: base and exponent secret; ic_mont_modexp_public: the base only.
 * A top bit set in each so the lengths, which are public, are what the
 * test says; limb edges: 65 bits (two 64-bit limbs, three 32-bit ones). */
static void case_modexp(void)
{
    /* 128 and 384 bytes: the ifma entry's engine (from 1024 bits; 384
     * with a short exponent to keep valgrind's run short) */
    static const size_t nlen[] = {9, 64, 128, 384};
    static uint8_t n[384], b[384], e[384], r[384];
    for (size_t i = 0; i < sizeof nlen / sizeof nlen[0]; i++) {
        size_t len = nlen[i], elen = len > 128 ? 32 : len;
        if (len < 2 || len > sizeof n)          /* (tells GCC n[len - 1] is in range) */
            continue;
        fill(n, len, 40 + (uint32_t)i);
        n[0] = (uint8_t)(len == 9 ? 1 : n[0] | 0x80);
        n[len - 1] |= 1;
        fill(b, len, 50 + (uint32_t)i);
        b[0] = 0;                               /* below n */
        fill(e, elen, 60 + (uint32_t)i);
        e[elen - 1] |= 1;                       /* not zero */
        if (marking) {
            SECRET(n, len);
            SECRET(b, len);
            SECRET(e, elen);
        }
        ic_mont_ctx c;
        put_status(ic_mont_init(&c, n, len));
        put_status(ic_mont_modexp(&c, r, len, b, len, e, elen));
        put(r, len);
        if (marking)
            PUBLIC(e, elen);                    /* a public exponent */
        put_status(ic_mont_modexp_public(&c, r, len, b, len, e, elen));
        put(r, len);
        ic_mont_wipe(&c);
    }
    /* the dual exponentiation (two RSA-CRT halves): 1024-bit moduli, each
     * with its own secret base and exponent */
    static uint8_t n2[2][128], b2[2][128], e2[2][32], r2[2][128];
    ic_mont_ctx c2[2];
    ic_bn_modexp_job job[2];
    for (int k = 0; k < 2; k++) {
        fill(n2[k], 128, 70 + (uint32_t)k);
        n2[k][0] |= 0x80;
        n2[k][127] |= 1;
        fill(b2[k], 128, 72 + (uint32_t)k);
        b2[k][0] = 0;
        fill(e2[k], 32, 74 + (uint32_t)k);
        if (marking) {
            SECRET(n2[k], 128);
            SECRET(b2[k], 128);
            SECRET(e2[k], 32);
        }
        put_status(ic_mont_init(&c2[k], n2[k], 128));
        job[k] = (ic_bn_modexp_job){ &c2[k], r2[k], 128, b2[k], 128, e2[k], 32 };
    }
    put_status(ic_bn_modexp2(&job[0], &job[1]));
    put(r2[0], 128);
    put(r2[1], 128);
    ic_mont_wipe(&c2[0]);
    ic_mont_wipe(&c2[1]);
}

/* The modular inverse (bn_mod.h, bn_inv.c): modulus and a secret, only
 * their length public; the verdict is secret too and goes into the
 * transcript unread.  65 bits (limb and digit edges), 512, 2048 and 8192
 * bits; a = 0 and a = n - 1 at 512 bits (no inverse, and an inverse of
 * f = -1's kind). */
static void case_modinv(void)
{
    static const size_t nlen[] = {9, 64, 64, 64, 256, 1024};
    static uint8_t n[1024], a[1024], r[1024];
    for (size_t i = 0; i < sizeof nlen / sizeof nlen[0]; i++) {
        size_t len = nlen[i];
        if (len < 2 || len > sizeof n)
            continue;
        fill(n, len, 80 + (uint32_t)i);
        n[0] = (uint8_t)(len == 9 ? 1 : n[0] | 0x80);
        n[len - 1] |= 1;
        fill(a, len, 90 + (uint32_t)i);
        a[0] = 0;                               /* below n */
        if (i == 2)
            memset(a, 0, len);                  /* no inverse */
        if (i == 3) {
            memcpy(a, n, len);                  /* n - 1 */
            a[len - 1] ^= 1;
        }
        if (marking) {
            SECRET(n, len);
            SECRET(a, len);
        }
        ic_mont_ctx c;
        put_status(ic_mont_init(&c, n, len));
        int ok = ic_bn_mod_inv(&c, r, a);
        put(&ok, sizeof ok);
        put(r, len);
        ic_mont_wipe(&c);
    }
}

/* RSA (a 2048-bit key): d, p, q, dp, dq, qinv secret from before init (the
 * prime contexts, the CRT and the fault check then run on secrets), the
 * OAEP message secret; n, e, the message to sign and the ciphertexts
 * public.  Decryption of a good ciphertext and of one whose padding is
 * wrong (the Manger / Bleichenbacher case: only the verdict may leak). */
static void case_rsa(void)
{
    static uint8_t part[RK_PARTS][256];
    static ic_rsa_private_key k;
    size_t len[RK_PARTS];
    for (int i = 0; i < RK_PARTS; i++) {
        len[i] = (size_t)tl_hex(part[i], sizeof part[i], rsa_testkey_hex[i]);
        if (marking && i >= RK_D)
            SECRET(part[i], len[i]);
    }
    put_status(ic_rsa_private_key_init(&k, part[RK_N], len[RK_N], part[RK_E], len[RK_E], part[RK_D], len[RK_D],
                                       part[RK_P], len[RK_P], part[RK_Q], len[RK_Q], part[RK_DP], len[RK_DP],
                                       part[RK_DQ], len[RK_DQ], part[RK_QINV], len[RK_QINV]));
    uint8_t msg[20], seed[32], sig[256], ctext[256], back[256];
    size_t outlen = 0;
    fill(msg, sizeof msg, 70);
    fill(seed, sizeof seed, 71);
    put_status(ic_rsa_sign_pkcs1v15(&k, IC_HASH_SHA256, sig, sizeof sig, msg, sizeof msg));
    /* outputs made public before the comparison: the blinding makes them
     * depend on ic_random's bytes, which MSan treats as unknown even in the
     * unmarked run */
    PUBLIC(sig, sizeof sig);
    put(sig, sizeof sig);
    put_status(ic_rsa_sign_pss_salt(&k, IC_HASH_SHA256, IC_HASH_SHA256, sig, sizeof sig, msg, sizeof msg, seed,
                                    32));
    PUBLIC(sig, sizeof sig);
    put(sig, sizeof sig);
    if (marking)
        SECRET(msg, sizeof msg);                /* now the OAEP plaintext */
    put_status(ic_rsa_encrypt_oaep_seed(&k.pub, IC_HASH_SHA256, IC_HASH_SHA256, ctext, sizeof ctext, msg,
                                        sizeof msg, NULL, 0, seed, 32));
    PUBLIC(ctext, sizeof ctext);                /* a ciphertext is public */
    put(ctext, sizeof ctext);
    put_status(ic_rsa_decrypt_oaep(&k, IC_HASH_SHA256, IC_HASH_SHA256, back, sizeof back, &outlen, ctext,
                                   sizeof ctext, NULL, 0));
    PUBLIC(back, outlen);
    put(back, outlen);
    ctext[200] ^= 0x40;                            /* padding now wrong */
    put_status(ic_rsa_decrypt_oaep(&k, IC_HASH_SHA256, IC_HASH_SHA256, back, sizeof back, &outlen, ctext,
                                   sizeof ctext, NULL, 0));
    ic_rsa_private_key_wipe(&k);
}

/* RSA keys from their encodings: every byte of the PKCS #8 and PKCS #1
 * files of a 2048-bit key secret, PEM and DER.  The reader may make public
 * the structure (tags, lengths, the version, the OID, the PEM framing and
 * the class of each base64 character) and n and e, nothing else: the
 * base64 values and the secret numbers must go to init untouched by a
 * branch or an index. */
static void case_rsa_key(void)
{
    static const char *const files[] = { "rsa2048.pem", "rsa2048.der", "rsa2048_pkcs1.pem", "rsa2048_pkcs1.der" };
    static ic_rsa_private_key k;
    static uint8_t buf[4096];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/rsa_keys/%s", tl_data_dir(), files[i]);
        FILE *f = fopen(path, "rb");
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f)
            fclose(f);
        CHECK(n > 0, "%s: cannot read", path);
        if (marking)
            SECRET(buf, n);
        put_status(strstr(files[i], ".pem") ? ic_rsa_private_key_from_pem(&k, buf, n)
                                            : ic_rsa_private_key_from_der(&k, buf, n));
        size_t size = ic_rsa_private_key_size(&k);
        put(&size, sizeof size);
        ic_rsa_private_key_wipe(&k);
    }
}

/* ---- AES modes ------------------------------------------------------------ */

/* The modes with an IV (CBC, CFB, OFB, CTR: the IV and CTR's counter are
 * public), and whether they take whole blocks only. */
typedef int (*aes_iv_mode)(const ic_aes_key *, uint8_t *, const uint8_t *, size_t, uint8_t[16]);
static const struct { aes_iv_mode fn; int whole; } aes_iv_modes[] = {
    {ic_aes_cbc_encrypt, 1}, {ic_aes_cbc_decrypt, 1}, {ic_aes_cfb128_encrypt, 0},
    {ic_aes_cfb128_decrypt, 0}, {ic_aes_ofb_crypt, 0}, {ic_aes_ctr_crypt, 0},
};

static void case_aes(void)
{
    static const size_t klen[] = {16, 24, 32};
    static const size_t blen[] = {16, 48, 144, 272, 528, 1072};  /* 1, 3, 9, 17, 33, 67 blocks */
    static const size_t slen[] = {1, 17, 100, 300, 530, 1100};  /* stream modes: any length */
    for (size_t ki = 0; ki < 3; ki++) {
        ic_aes_key k;
        uint8_t v[16];
        secret(key, klen[ki], 1 + (uint32_t)ki);
        put_status(ic_aes_key_init(&k, key, klen[ki]));
        for (size_t li = 0; li < sizeof blen / sizeof blen[0]; li++) {
            size_t n = blen[li];
            secret(pt, n, 10 + (uint32_t)li);
            put_status(ic_aes_ecb_encrypt(&k, out, pt, n));
            put(out, n);
            put_status(ic_aes_ecb_decrypt(&k, out2, pt, n));
            put(out2, n);
            for (size_t m = 0; m < sizeof aes_iv_modes / sizeof aes_iv_modes[0]; m++) {
                n = aes_iv_modes[m].whole ? blen[li] : slen[li];
                secret(pt, n, 30 + (uint32_t)li);
                fill(v, 16, 20 + (uint32_t)m);
                if (aes_iv_modes[m].fn == ic_aes_ctr_crypt && li == 3)
                    memset(v + 8, 0xff, 8);   /* a carry out of the low 64 bits */
                put_status(aes_iv_modes[m].fn(&k, out, pt, n, v));
                put(out, n), put(v, 16);
            }
        }
        ic_aes_key_wipe(&k);
    }
}

/* ---- XTS-AES: key, tweak and data secret --------------------------------- */

static void case_xts(void)
{
    /* 1 block, stealing after 1 block, 6 blocks + 4, 2 batches of every
     * backend (32 blocks), 33 blocks + 2 bytes, and 130 blocks + 10 bytes
     * (ni's tweaks in general registers, from 1 KiB) */
    static const size_t lens[] = {16, 17, 100, 512, 530, 2090};
    for (size_t kl = 32; kl <= 64; kl += 32) {
        ic_aes_xts_key k;
        secret(key, kl, 800 + (uint32_t)kl);
        put_status(ic_aes_xts_key_init(&k, key, kl));
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            size_t n = lens[li];
            secret(iv, 16, 810 + (uint32_t)li);
            secret(pt, n, 820 + (uint32_t)li);
            put_status(ic_aes_xts_encrypt(&k, out, pt, n, iv));
            put(out, n);
            put_status(ic_aes_xts_decrypt(&k, out2, pt, n, iv));
            put(out2, n);
            put_status(ic_aes_xts_encrypt_sector(&k, out, pt, n, 0x1234 + li));
            put(out, n);
        }
        ic_aes_xts_key_wipe(&k);
    }
}

/* ---- AES-GCM (and through it GHASH with a secret H) ------------------- */

static void gcm_one(size_t kl, size_t ivl, size_t aadl, size_t n, uint32_t seed)
{
    ic_aes_gcm_ctx c;
    size_t half = n / 2 + 3 > n ? n : n / 2 + 3;   /* a split that leaves a partial block */
    /* the public ciphertext and tag the opens get: sealed before anything
     * is marked (the same in both runs) */
    fill(key, kl, seed), fill(pt, n, seed + 1), fill(iv, ivl, seed + 2), fill(aad, aadl, seed + 3);
    put_status(ic_aes_gcm_seal(ct, tag2, 16, pt, n, aad, aadl, iv, ivl, key, kl));

    secret(key, kl, seed), secret(pt, n, seed + 1);
    put_status(ic_aes_gcm_seal(out, tag, 16, pt, n, aad, aadl, iv, ivl, key, kl));
    put(out, n), put(tag, 16);
    put_status(ic_aes_gcm_open(out, tag2, 16, ct, n, aad, aadl, iv, ivl, key, kl));
    put(out, n);
    tag2[0] ^= 1;
    put_status(ic_aes_gcm_open(out, tag2, 16, ct, n, aad, aadl, iv, ivl, key, kl));
    put(out, n);
    tag2[0] ^= 1;

    /* the same through a reusable key object (secret AES schedule and H) */
    ic_aes_gcm_key gk;
    put_status(ic_aes_gcm_key_init(&gk, key, kl));
    put_status(ic_aes_gcm_key_seal(&gk, out, tag, 16, pt, n, aad, aadl, iv, ivl));
    put(out, n), put(tag, 16);
    put_status(ic_aes_gcm_key_open(&gk, out, tag2, 16, ct, n, aad, aadl, iv, ivl));
    put(out, n);
    tag2[0] ^= 1;
    put_status(ic_aes_gcm_key_open(&gk, out, tag2, 16, ct, n, aad, aadl, iv, ivl));
    put(out, n);
    tag2[0] ^= 1;

    /* streaming under the same key object, in two pieces */
    put_status(ic_aes_gcm_init(&c, &gk, iv, ivl));
    put_status(ic_aes_gcm_aad(&c, aad, aadl));
    put_status(ic_aes_gcm_encrypt(&c, out, pt, half));
    put_status(ic_aes_gcm_encrypt(&c, out + half, pt + half, n - half));
    put_status(ic_aes_gcm_final(&c, tag, 12));
    put(out, n), put(tag, 12);
    for (int bad = 0; bad < 2; bad++) {
        put_status(ic_aes_gcm_init(&c, &gk, iv, ivl));
        put_status(ic_aes_gcm_aad(&c, aad, aadl));
        put_status(ic_aes_gcm_decrypt(&c, out, ct, half));
        put_status(ic_aes_gcm_decrypt(&c, out + half, ct + half, n - half));
        tag2[15] ^= (uint8_t)bad;
        put_status(ic_aes_gcm_final_verify(&c, tag2, 16));
        tag2[15] ^= (uint8_t)bad;
        put(out, n);
    }
    ic_aes_gcm_wipe(&c);
    ic_aes_gcm_key_wipe(&gk);
}

static void case_gcm(void)
{
    static const size_t ivs[] = {1, 8, 12, 16, 60};
    for (size_t i = 0; i < 5; i++) {
        gcm_one(16, ivs[i], 20, 0, 100 + 10 * (uint32_t)i);
        gcm_one(16, ivs[i], 0, 17, 101 + 10 * (uint32_t)i);
        gcm_one(32, ivs[i], 13, 300, 102 + 10 * (uint32_t)i);
    }
    /* past two batches of the 16-block loop, and a long AAD (GHASH
     * batches on public data under the secret H); AES-192 once */
    gcm_one(16, 16, 300, 530, 150);
    gcm_one(32, 12, 20, 530, 151);
    gcm_one(24, 60, 5, 200, 152);
    /* past two batches of the 32-block ZMM loop (and its 16-block tail) */
    gcm_one(16, 16, 20, 1100, 153);
    gcm_one(32, 12, 0, 1100, 154);
    /* several 32-block batches of the ZMM loop (67-block halves,
     * decrypting too) and open's one-call GHASH of 134 blocks
     * (vpclmul512's 32-block batches and their rest) */
    gcm_one(16, 12, 0, 2150, 155);
}

/* ---- ChaCha20, Poly1305 and the AEADs ------------------------------------ */

static void case_chacha20(void)
{
    static const size_t lens[] = {1, 64, 300, 530};
    uint8_t sub[32];
    for (size_t i = 0; i < 4; i++) {
        size_t n = lens[i];
        secret(key, 32, 200 + (uint32_t)i), secret(pt, n, 210 + (uint32_t)i), fill(iv, 24, 220);
        put_status(ic_chacha20_xor(out, pt, n, iv, 1, key));
        put(out, n);
        put_status(ic_xchacha20_xor(out, pt, n, iv, 0, key));
        put(out, n);
    }
    put_status(ic_hchacha20(sub, iv, key));
    put(sub, 32);
}

static void case_poly1305(void)
{
    /* 1100: enough groups that the x86 vector backends pair their Horner
     * steps (h r^2L + m r^L) */
    static const size_t lens[] = {0, 15, 16, 100, 300, 530, 1100};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t n = lens[i];
        ic_poly1305_ctx p;
        fill(key, 32, 300 + (uint32_t)i), fill(pt, n, 310 + (uint32_t)i);
        put_status(ic_poly1305(tag2, pt, n, key)); /* the public tag to verify */
        secret(key, 32, 300 + (uint32_t)i), secret(pt, n, 310 + (uint32_t)i);
        put_status(ic_poly1305(tag, pt, n, key));
        put(tag, 16);
        put_status(ic_poly1305_init(&p, key));
        put_status(ic_poly1305_update(&p, pt, n / 3));
        put_status(ic_poly1305_update(&p, pt + n / 3, n - n / 3));
        put_status(ic_poly1305_final(&p, tag));
        put(tag, 16);
        put_status(ic_poly1305_verify(tag2, pt, n, key));
        for (int bad = 0; bad < 2; bad++) {
            put_status(ic_poly1305_init(&p, key));
            put_status(ic_poly1305_update(&p, pt, n));
            put_status(ic_poly1305_final_verify(&p, tag2));
            tag2[3] ^= 0x40;
        }
        put_status(ic_poly1305_verify(tag2, pt, n, key));
    }
}

static void cp_one(int x, size_t aadl, size_t n, uint32_t seed)
{
    ic_chacha20_poly1305_ctx c;
    ic_chacha20_poly1305_key k;
    size_t half = n / 2 + 1 > n ? n : n / 2 + 1;
    int (*seal)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                const uint8_t *) = x ? ic_xchacha20_poly1305_seal : ic_chacha20_poly1305_seal;
    int (*open)(uint8_t *, const uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                const uint8_t *) = x ? ic_xchacha20_poly1305_open : ic_chacha20_poly1305_open;
    fill(key, 32, seed), fill(pt, n, seed + 1), fill(iv, 24, seed + 2), fill(aad, aadl, seed + 3);
    put_status(seal(ct, tag2, pt, n, aad, aadl, iv, key));

    secret(key, 32, seed), secret(pt, n, seed + 1);
    put_status(seal(out, tag, pt, n, aad, aadl, iv, key));
    put(out, n), put(tag, 16);
    put_status(open(out, tag2, ct, n, aad, aadl, iv, key));
    put(out, n);
    tag2[7] ^= 2;
    put_status(open(out, tag2, ct, n, aad, aadl, iv, key));
    put(out, n);
    tag2[7] ^= 2;

    /* the key object and the streaming calls on it (the context builds its
     * one-time key and, for XChaCha20, its subkey from the key object) */
    put_status(ic_chacha20_poly1305_key_init(&k, key));
    put_status(x ? ic_xchacha20_poly1305_key_seal(&k, out, tag, pt, n, aad, aadl, iv)
                 : ic_chacha20_poly1305_key_seal(&k, out, tag, pt, n, aad, aadl, iv));
    put(out, n), put(tag, 16);
    put_status(x ? ic_xchacha20_poly1305_key_open(&k, out, tag2, ct, n, aad, aadl, iv)
                 : ic_chacha20_poly1305_key_open(&k, out, tag2, ct, n, aad, aadl, iv));
    put(out, n);
    put_status(x ? ic_xchacha20_poly1305_init(&c, &k, iv) : ic_chacha20_poly1305_init(&c, &k, iv));
    put_status(ic_chacha20_poly1305_aad(&c, aad, aadl));
    put_status(ic_chacha20_poly1305_encrypt(&c, out, pt, half));
    put_status(ic_chacha20_poly1305_encrypt(&c, out + half, pt + half, n - half));
    put_status(ic_chacha20_poly1305_final(&c, tag));
    put(out, n), put(tag, 16);
    for (int bad = 0; bad < 2; bad++) {
        put_status(x ? ic_xchacha20_poly1305_init(&c, &k, iv) : ic_chacha20_poly1305_init(&c, &k, iv));
        put_status(ic_chacha20_poly1305_aad(&c, aad, aadl));
        put_status(ic_chacha20_poly1305_decrypt(&c, out, ct, n));
        tag2[0] ^= (uint8_t)(bad << 7);
        put_status(ic_chacha20_poly1305_final_verify(&c, tag2));
        tag2[0] ^= (uint8_t)(bad << 7);
        put(out, n);
    }
    ic_chacha20_poly1305_wipe(&c);
    ic_chacha20_poly1305_key_wipe(&k);
}

static void case_aead(void)
{
    for (int x = 0; x < 2; x++) {
        cp_one(x, 0, 0, 400 + 10 * (uint32_t)x);
        cp_one(x, 12, 63, 401 + 10 * (uint32_t)x);
        cp_one(x, 40, 530, 402 + 10 * (uint32_t)x);
    }
}

/* ---- SHA, HMAC, HKDF ------------------------------------------------------ */

static const ic_hash_alg *family_algs(const char *prim, size_t *n)
{
    static const ic_hash_alg a1[] = {IC_HASH_SHA1};
    static const ic_hash_alg a256[] = {IC_HASH_SHA224, IC_HASH_SHA256};
    static const ic_hash_alg a512[] = {IC_HASH_SHA384, IC_HASH_SHA512, IC_HASH_SHA512_224, IC_HASH_SHA512_256};
    if (strcmp(prim, "sha1") == 0)
        return *n = 1, a1;
    if (strcmp(prim, "sha256") == 0)
        return *n = 2, a256;
    return *n = 4, a512;
}

static const char *cur_prim;

static void case_hash(void)
{
    static const size_t lens[] = {0, 3, 55, 56, 64, 111, 112, 200, 300};
    size_t na;
    const ic_hash_alg *algs = family_algs(cur_prim, &na);
    uint8_t d[IC_HASH_MAX_DIGEST_SIZE];
    for (size_t a = 0; a < na; a++) {
        size_t ds = ic_hash_digest_size(algs[a]);
        for (size_t i = 0; i < 9; i++) {
            size_t n = lens[i];
            ic_hash_ctx h;
            secret(pt, n, 500 + (uint32_t)(10 * a + i));
            put_status(ic_hash(algs[a], d, sizeof d, pt, n));
            put(d, ds);
            put_status(ic_hash_init(&h, algs[a]));
            put_status(ic_hash_update(&h, pt, n / 2));
            put_status(ic_hash_update(&h, pt + n / 2, n - n / 2));
            put_status(ic_hash_final(&h, d, sizeof d));
            put(d, ds);
        }
        /* HMAC with a secret key (shorter than, equal to and longer than
         * the block) over a secret message, and its verification */
        static const size_t kls[] = {16, 64, 200};
        static const size_t mls[] = {0, 50, 300};
        for (size_t i = 0; i < 3; i++) {
            ic_hmac_ctx m;
            fill(key, 64, 600), fill(pt, mls[i], 610 + (uint32_t)i);
            uint8_t big[200];
            fill(big, kls[i], 620 + (uint32_t)i);
            put_status(ic_hmac(algs[a], d, sizeof d, pt, mls[i], big, kls[i]));   /* public tag to verify */
            memcpy(out2, d, ds);
            secret(big, kls[i], 620 + (uint32_t)i), secret(pt, mls[i], 610 + (uint32_t)i);
            put_status(ic_hmac(algs[a], d, sizeof d, pt, mls[i], big, kls[i]));
            put(d, ds);
            put_status(ic_hmac_init(&m, algs[a], big, kls[i]));
            put_status(ic_hmac_update(&m, pt, mls[i] / 3));
            put_status(ic_hmac_update(&m, pt + mls[i] / 3, mls[i] - mls[i] / 3));
            put_status(ic_hmac_final_verify(&m, out2, ds));
            put_status(ic_hmac_verify(algs[a], out2, ds, pt, mls[i], big, kls[i]));
            out2[ds - 1] ^= 1;
            put_status(ic_hmac_verify(algs[a], out2, ds, pt, mls[i], big, kls[i]));
        }
        /* HKDF with a secret input key; salt and info public */
        {
            uint8_t prk[IC_HASH_MAX_DIGEST_SIZE], okm[100];
            secret(key, 22, 700);
            fill(iv, 13, 701), fill(aad, 10, 702);
            put_status(ic_hkdf(algs[a], okm, 42, aad, 10, iv, 13, key, 22));
            put(okm, 42);
            put_status(ic_hkdf(algs[a], okm, 100, NULL, 0, NULL, 0, key, 22));
            put(okm, 100);
            put_status(ic_hkdf_extract(algs[a], prk, sizeof prk, iv, 13, key, 22));
            put(prk, ds);
            put_status(ic_hkdf_expand(algs[a], okm, 77, aad, 10, prk, ds));
            put(okm, 77);
        }
    }
}

/* ---- CTR_DRBG and the entropy-source health tests --------------------- */

/* Entropy input, personalization and the state are secret; lengths, the
 * additional input and the request sizes public. */
static void case_drbg(void)
{
    static const size_t req[] = {0, 1, 16, 17, 64, 300};
    for (int df = 1; df >= 0; df--) {
        ic_ctr_drbg d;
        uint8_t e[48];
        secret(e, sizeof e, 90 + (uint32_t)df);
        secret(key, 32, 95);
        put_status(ic_ctr_drbg_instantiate(&d, df, e, df ? 40 : 48, NULL, 0, key, df ? 32 : 20));
        for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
            fill(aad, 20, 100 + (uint32_t)i);
            put_status(ic_ctr_drbg_generate(&d, out, req[i], aad, i & 1 ? 20 : 0));
            put(out, req[i]);
        }
        secret(e, sizeof e, 97);
        put_status(ic_ctr_drbg_reseed(&d, e, 48, aad, 7));
        put_status(ic_ctr_drbg_generate(&d, out, 33, NULL, 0));
        put(out, 33);
        ic_ctr_drbg_wipe(&d);
    }
}

/* A source whose bytes are secret (they become seed material): the
 * health tests may branch on nothing but their verdict. */
static uint32_t src_seed;
static int fill_secret(const ic_rand_src *s, uint8_t *o, size_t n)
{
    (void)s;
    secret(o, n, src_seed++);
    return 1;
}

static void case_health(void)
{
    const ic_rand_src list[] = {{"ct", 0, fill_secret, NULL, 4}};
    src_seed = 200;
    ic_rand_test_set_sources(list, 1);
    put_status(ic_rand_source_read("ct", out, 1000));
    put(out, 1000);
    ic_rand_test_set_sources(NULL, 0);
}

/* ---- every implementation ----------------------------------------------- */

/* fn once per available implementation of prim (selected while it runs);
 * label names the case in the output. */
static void each_impl(const char *prim, const char *label, void (*fn)(void))
{
    for (size_t i = 0; i < ic_impl_count(prim); i++) {
        const char *name = ic_impl_name(prim, i);
        if (!ic_impl_available(prim, i))
            continue;
        CHECK(ic_impl_select(prim, name) == IC_OK, "select %s/%s", prim, name);
        cur_prim = prim;
        run_case(label, name, fn);
        tl_exercised(prim, name);
    }
    CHECK(ic_impl_select(prim, "auto") == IC_OK, "%s: back to automatic selection", prim);
}

int main(int argc, char **argv)
{
    int require = argc > 1 && strcmp(argv[1], "--require") == 0;
    tr = tl_xmalloc(trcap);
    printf("constant-time check with %s%s\n", CT_CHECKER,
           CT_ACTIVE ? "" : ": not running under it, only the results are compared");
    if (require)
        CHECK(CT_ACTIVE, "--require: running under %s", CT_CHECKER);

    each_impl("aes", "aes", case_aes);
    each_impl("aes", "aes-xts", case_xts);
    /* GCM: every available AES implementation with every GHASH one (the
     * stitched loops run only for some pairs) */
    for (size_t i = 0; i < ic_impl_count("aes"); i++) {
        const char *an = ic_impl_name("aes", i);
        if (!ic_impl_available("aes", i))
            continue;
        CHECK(ic_impl_select("aes", an) == IC_OK, "select aes/%s", an);
        for (size_t j = 0; j < ic_impl_count("ghash"); j++) {
            const char *gn = ic_impl_name("ghash", j);
            char pair[64];
            if (!ic_impl_available("ghash", j))
                continue;
            CHECK(ic_impl_select("ghash", gn) == IC_OK, "select ghash/%s", gn);
            snprintf(pair, sizeof pair, "%s+%s", an, gn);
            run_case("gcm", pair, case_gcm);
            tl_exercised("ghash", gn);
        }
    }
    CHECK(ic_impl_select("aes", "auto") == IC_OK, "aes: back to automatic selection");
    CHECK(ic_impl_select("ghash", "auto") == IC_OK, "ghash: back to automatic selection");
    each_impl("chacha20", "chacha20", case_chacha20);
    each_impl("poly1305", "poly1305", case_poly1305);
    each_impl("chacha20", "c20p1305", case_aead);
    each_impl("sha1", "sha1", case_hash);
    each_impl("sha256", "sha256", case_hash);
    each_impl("sha512", "sha512", case_hash);
    each_impl("aes", "ctr_drbg", case_drbg);
    run_case("randsrc", "health", case_health);
    each_impl("montmul", "modexp", case_modexp);
    run_case("modinv", "(no backend)", case_modinv);
    each_impl("montmul", "rsa", case_rsa);
    run_case("rsa-key", "der+pem", case_rsa_key);
    free(tr);
    return tl_finish();
}
