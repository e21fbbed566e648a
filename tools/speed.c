/*
 * speed.c - `incore speed`: throughput of every primitive and mode, for each
 * implementation this machine can run and beside the peers (OpenSSL,
 * libsodium, zlib, ISA-L, see speed_peers.c), in MiB/s and cycles per byte.
 *
 *   incore speed [ALG...] [--sizes LIST | --sweep A:B:STEP] [--seconds S]
 *                [--repeats N] [--stat median|best] [--impl all] [--vs PEER,...] [--quick]
 *                [--aad N] [--misalign N] [--threads N]
 *                [--json | --csv | --markdown] [--plot FILE.svg|.png] [--list]
 *
 * How a figure is made, and why it survives a noisy shared machine:
 *  - a measurement is one (algorithm, message size, provider); a provider is
 *    one incore implementation (or combination, for GCM and the AEADs that
 *    run on two primitives) or one peer.  Each provider first gets a batch
 *    size calibrated so that one batch of back-to-back messages takes about
 *    seconds / repeats; then the providers of one (algorithm, size) run
 *    their batches interleaved, A B C A B C ..., starting each round at the
 *    next provider, and each reports the median over its batches.  A burst
 *    of load hits every provider alike, so their ratio holds even when the
 *    absolute numbers move.  --stat best reports each provider's fastest
 *    batch instead: load only ever adds time, so the best batch is the
 *    figure to set beside a hardware bound.
 *  - time is read twice per batch: CLOCK_MONOTONIC for MiB/s (2^20 bytes per
 *    second) and the CPU's reference counter for cycles per byte: the TSC on
 *    x86-64 (its rate measured against CLOCK_MONOTONIC over 50 ms), CNTVCT
 *    on AArch64 (rate from CNTFRQ), the timebase on POWER (rate from
 *    /proc/cpuinfo).  These tick at a fixed rate, not the core clock, so the
 *    figures are "reference cycles", labelled with the rate used.
 *  - each message is what a user sends: the key set once (ic_aes_key_init,
 *    ic_aes_gcm_key_init, EVP_CipherInit_ex with the key) and the IV per message;
 *    one-shot hashes, MACs and the ChaCha AEADs as one call per message.
 *  - before measuring, every provider runs the operation once on the same
 *    key, IV and message and its output is compared with the first incore
 *    provider's: a mismatch is reported (exit status 1), so a table never
 *    compares two different operations and --impl all doubles as a
 *    differential check of the backends.
 *  - every JSON / CSV row says what produced it: units named (mib_per_s is
 *    2^20 bytes/s, mb_per_s 10^6 bytes/s), the incore version, CPU model,
 *    the features the selection saw, the compiler, the provider's version,
 *    and the AAD size, misalignment and process count of the run.
 *  - --threads N forks N processes that run each batch at once (as
 *    `openssl speed -multi`); MiB/s is then their sum, c/B their mean.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700   /* realpath */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "incore/incore.h"
#include "core/internal.h"
#include "gcm/ghash_impl.h"
#include "tools.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* ---- the algorithms ------------------------------------------------------ */

#define AES_MODE(bits, mode, kind, evp) \
    {"aes-" #bits "-" mode, kind, bits / 8, {"aes", NULL}, "AES-" #bits "-" evp}
#define AES_MODES(bits)                                                   \
    AES_MODE(bits, "ecb", SK_ECB, "ECB"),                                 \
    AES_MODE(bits, "cbc-enc", SK_CBC_ENC, "CBC"),                         \
    AES_MODE(bits, "cbc-dec", SK_CBC_DEC, "CBC"),                         \
    AES_MODE(bits, "cfb-enc", SK_CFB_ENC, "CFB"),                         \
    AES_MODE(bits, "cfb-dec", SK_CFB_DEC, "CFB"),                         \
    AES_MODE(bits, "ofb", SK_OFB, "OFB"),                                 \
    AES_MODE(bits, "ctr", SK_CTR, "CTR")
#define AES_GCM(bits)                                                                     \
    {"aes-" #bits "-gcm", SK_GCM_SEAL, bits / 8, {"aes", "ghash"}, "AES-" #bits "-GCM"}, \
    {"aes-" #bits "-gcm-open", SK_GCM_OPEN, bits / 8, {"aes", "ghash"}, "AES-" #bits "-GCM"}

/* The reusable-key GCM calls (seal and open), and the raw-key one-shot
 * call (which expands the key and H per message): the gain of
 * ic_aes_gcm_key_*. */
#define AES_GCM_KEYED(bits)                                                              \
    {"aes-" #bits "-gcm-key", SK_GCM_KEY, bits / 8, {"aes", "ghash"}, NULL},          \
    {"aes-" #bits "-gcm-key-open", SK_GCM_KEY_OPEN, bits / 8, {"aes", "ghash"}, NULL}, \
    {"aes-" #bits "-gcm-oneshot", SK_GCM_ONESHOT, bits / 8, {"aes", "ghash"}, NULL}

static const speed_alg algs[] = {
    AES_MODES(128), AES_MODES(192), AES_MODES(256),
    AES_GCM(128), AES_GCM(256),
    /* XTS: param is the whole key (key1 || key2); the tweak is the IV */
    {"aes-128-xts", SK_XTS_ENC, 32, {"aes", NULL}, "AES-128-XTS"},
    {"aes-128-xts-dec", SK_XTS_DEC, 32, {"aes", NULL}, "AES-128-XTS"},
    {"aes-256-xts", SK_XTS_ENC, 64, {"aes", NULL}, "AES-256-XTS"},
    {"aes-256-xts-dec", SK_XTS_DEC, 64, {"aes", NULL}, "AES-256-XTS"},
    /* the call disk encryption makes: ic_aes_xts_encrypt_sector, sector
     * numbers counting up (incore only) */
    {"aes-128-xts-sector", SK_XTS_SECTOR, 32, {"aes", NULL}, NULL},
    {"aes-256-xts-sector", SK_XTS_SECTOR, 64, {"aes", NULL}, NULL},
    AES_GCM(192), AES_GCM_KEYED(128), AES_GCM_KEYED(256),
    {"ghash", SK_GHASH, 0, {"ghash", NULL}, NULL},
    {"sha1", SK_HASH, IC_HASH_SHA1, {"sha1", NULL}, "SHA1"},
    {"sha224", SK_HASH, IC_HASH_SHA224, {"sha256", NULL}, "SHA224"},
    {"sha256", SK_HASH, IC_HASH_SHA256, {"sha256", NULL}, "SHA256"},
    {"sha384", SK_HASH, IC_HASH_SHA384, {"sha512", NULL}, "SHA384"},
    {"sha512", SK_HASH, IC_HASH_SHA512, {"sha512", NULL}, "SHA512"},
    {"sha512-256", SK_HASH, IC_HASH_SHA512_256, {"sha512", NULL}, "SHA512-256"},
    {"sha512-224", SK_HASH, IC_HASH_SHA512_224, {"sha512", NULL}, "SHA512-224"},
    {"hmac-sha256", SK_HMAC, IC_HASH_SHA256, {"sha256", NULL}, "SHA256"},
    {"hmac-sha1", SK_HMAC, IC_HASH_SHA1, {"sha1", NULL}, "SHA1"},
    {"hmac-sha384", SK_HMAC, IC_HASH_SHA384, {"sha512", NULL}, "SHA384"},
    {"hmac-sha512", SK_HMAC, IC_HASH_SHA512, {"sha512", NULL}, "SHA512"},
    {"hkdf-sha256", SK_HKDF, IC_HASH_SHA256, {"sha256", NULL}, NULL},
    {"hkdf-sha512", SK_HKDF, IC_HASH_SHA512, {"sha512", NULL}, NULL},
    {"chacha20", SK_CHACHA20, 0, {"chacha20", NULL}, "ChaCha20"},
    {"poly1305", SK_POLY1305, 0, {"poly1305", NULL}, "POLY1305"},
    {"chacha20-poly1305", SK_C20P1305, 0, {"chacha20", "poly1305"}, "ChaCha20-Poly1305"},
    {"chacha20-poly1305-open", SK_C20P1305_OPEN, 0, {"chacha20", "poly1305"}, "ChaCha20-Poly1305"},
    {"xchacha20-poly1305", SK_XC20P1305, 0, {"chacha20", "poly1305"}, NULL},
    {"crc32", SK_CRC32, 0, {"crc32", NULL}, NULL},
    {"crc32c", SK_CRC32C, 0, {"crc32c", NULL}, NULL},
    /* ic_random runs on the AES backend selected when it was seeded; the
     * sources are measured through their health tests (param: randsrc[]) */
    {"random", SK_RANDOM, 0, {"aes", NULL}, "RAND_bytes"},
    {"rand-rdseed", SK_RANDSRC, 0, {"hwrand", NULL}, "RAND_bytes"},
    {"rand-rdrand", SK_RANDSRC, 1, {"hwrand", NULL}, "RAND_bytes"},
    {"rand-darn", SK_RANDSRC, 2, {"hwrand", NULL}, "RAND_bytes"},
    {"rand-rndr", SK_RANDSRC, 3, {"hwrand", NULL}, "RAND_bytes"},
    {"rand-xstore", SK_RANDSRC, 4, {"hwrand", NULL}, "RAND_bytes"},
    {"rand-os", SK_RANDSRC, 5, {"hwrand", NULL}, "RAND_bytes"},
    {"hwrand", SK_HWRAND, 0, {"hwrand", NULL}, NULL},
    /* operations per second, not MiB/s: tools/speed_bn.c */
    {"modexp1024", SK_MODEXP, 1024, {"montmul", NULL}, NULL},   /* an RSA-2048 CRT half */
    {"modexp2048", SK_MODEXP, 2048, {"montmul", NULL}, NULL},
    {"modexp3072", SK_MODEXP, 3072, {"montmul", NULL}, NULL},
    {"modexp4096", SK_MODEXP, 4096, {"montmul", NULL}, NULL},
    {"rsa2048-verify", SK_MODEXP, 2048, {"montmul", NULL}, NULL},   /* PKCS#1 v1.5, SHA-256 */
    {"rsa2048-sign", SK_MODEXP, 2048, {"montmul", NULL}, NULL},     /* PKCS#1 v1.5, SHA-256 */
    {"rsa3072-sign", SK_MODEXP, 3072, {"montmul", NULL}, NULL},
    {"rsa4096-sign", SK_MODEXP, 4096, {"montmul", NULL}, NULL},
};
static const char *const randsrc[] = {"rdseed", "rdrand", "darn", "rndr", "xstore", "os"};

/* 1 when the entropy source of a SK_RANDSRC row exists and is healthy here. */
static int randsrc_usable(const speed_alg *a)
{
    ic_rand_health h;
    return ic_rand_source_health(randsrc[a->param], &h) == IC_OK;
}
#define NALGS (sizeof algs / sizeof algs[0])

/* incore's call for each kind, for the "call" column. */
static const char *incore_call(int kind)
{
    static const char *const calls[] = {
        [SK_ECB] = "ic_aes_ecb_encrypt",
        [SK_CBC_ENC] = "ic_aes_cbc_encrypt",
        [SK_CBC_DEC] = "ic_aes_cbc_decrypt",
        [SK_CFB_ENC] = "ic_aes_cfb128_encrypt",
        [SK_CFB_DEC] = "ic_aes_cfb128_decrypt",
        [SK_OFB] = "ic_aes_ofb_crypt",
        [SK_CTR] = "ic_aes_ctr_crypt",
        [SK_GCM_SEAL] = "ic_aes_gcm_init+encrypt+final",
        [SK_GCM_OPEN] = "ic_aes_gcm_init+decrypt+final_verify",
        [SK_HASH] = "ic_hash",
        [SK_HMAC] = "ic_hmac",
        [SK_CHACHA20] = "ic_chacha20_xor",
        [SK_POLY1305] = "ic_poly1305",
        [SK_C20P1305] = "ic_chacha20_poly1305_seal",
        [SK_C20P1305_OPEN] = "ic_chacha20_poly1305_open",
        [SK_XC20P1305] = "ic_xchacha20_poly1305_seal",
        [SK_CRC32] = "ic_crc32",
        [SK_CRC32C] = "ic_crc32c",
        [SK_RANDOM] = "ic_random",
        [SK_RANDSRC] = "ic_rand_source_read",
        [SK_XTS_ENC] = "ic_aes_xts_encrypt",
        [SK_XTS_DEC] = "ic_aes_xts_decrypt",
        [SK_GCM_KEY] = "ic_aes_gcm_key_seal",
        [SK_GCM_KEY_OPEN] = "ic_aes_gcm_key_open",
        [SK_GCM_ONESHOT] = "ic_aes_gcm_seal",
        [SK_XTS_SECTOR] = "ic_aes_xts_encrypt_sector",
        [SK_GHASH] = "ghash blocks",
        [SK_HKDF] = "ic_hkdf",
        [SK_HWRAND] = "ic_rand_hw",
        [SK_MODEXP] = "ic_mont_modexp",
    };
    return calls[kind];
}

/* ECB and CBC take whole blocks only: sizes are rounded down for them. */
static size_t block_of(const speed_alg *a)
{
    return a->kind == SK_ECB || a->kind == SK_CBC_ENC || a->kind == SK_CBC_DEC || a->kind == SK_GHASH
               ? IC_AES_BLOCK_SIZE
               : 1;
}

/* The kinds that take AAD (--aad). */
static int takes_aad(const speed_alg *a)
{
    return a->kind == SK_GCM_SEAL || a->kind == SK_GCM_OPEN || a->kind == SK_C20P1305 || a->kind == SK_C20P1305_OPEN ||
           a->kind == SK_XC20P1305 || a->kind == SK_GCM_KEY || a->kind == SK_GCM_KEY_OPEN ||
           a->kind == SK_GCM_ONESHOT;
}

/* Bytes of j->aux an operation writes (digest, tag, CRC). */
static size_t aux_len(const speed_alg *a)
{
    switch (a->kind) {
    case SK_HASH:
    case SK_HMAC: return ic_hash_digest_size((ic_hash_alg)a->param);
    case SK_GCM_SEAL:
    case SK_POLY1305:
    case SK_C20P1305:
    case SK_XC20P1305:
    case SK_GCM_KEY:
    case SK_GCM_ONESHOT:
    case SK_GHASH: return 16;
    case SK_HKDF: return 32;
    case SK_CRC32:
    case SK_CRC32C: return 4;
    default: return 0;
    }
}

/* ---- incore as a provider ------------------------------------------------ */

typedef struct {
    ic_aes_key aes;
    ic_aes_gcm_ctx gcm;
    ic_aes_xts_key xts;
    ic_aes_gcm_key gkey;
    ic_ghash_key ghk;
    uint64_t sector;   /* SK_XTS_SECTOR: the next data unit's number */
} incore_state;

/* Expand the key with the implementation selected now; the context keeps
 * it whatever is selected later (docs/architecture.md, Dispatch). */
static int incore_setup(speed_job *j)
{
    const speed_alg *a = j->alg;
    if (a->kind == SK_MODEXP) {
        char why[64];
        return speed_bn_setup(-1, j, why, sizeof why) ? IC_ERR_PARAM : IC_OK;
    }
    incore_state *s = aligned_alloc(64, sizeof(incore_state));
    if (!s)
        return IC_ERR_PARAM;
    memset(s, 0, sizeof *s);
    j->state = s;
    if (a->kind <= SK_CTR)
        return ic_aes_key_init(&s->aes, j->key, a->param);
    if (a->kind == SK_GCM_SEAL || a->kind == SK_GCM_OPEN)   /* the key; a message per ic_aes_gcm_init */
        return ic_aes_gcm_key_init(&s->gkey, j->key, a->param);
    if (a->kind == SK_XTS_ENC || a->kind == SK_XTS_DEC || a->kind == SK_XTS_SECTOR)
        return ic_aes_xts_key_init(&s->xts, j->key, a->param);
    if (a->kind == SK_GCM_KEY || a->kind == SK_GCM_KEY_OPEN)
        return ic_aes_gcm_key_init(&s->gkey, j->key, a->param);
    if (a->kind == SK_GHASH) {   /* H: any 16 bytes will do for timing */
        ic_ghash_key_setup(&s->ghk, (const ic_ghash_ops *)ic_ops(IC_PRIM_GHASH), j->key);
        return IC_OK;
    }
    if (a->kind == SK_HWRAND)    /* "none": no source on this CPU */
        return ic_rand_hw(NULL, 0);
    return IC_OK;
}

/* Back to the first message for the output check: the state that moves
 * from message to message (the sector rows' sector number) starts again,
 * so all variants encrypt the same data unit. */
static void incore_restart(speed_job *j)
{
    incore_state *s = j->state;
    if (s && j->alg->kind == SK_XTS_SECTOR)
        s->sector = 0;
}

static void incore_free(speed_job *j)
{
    if (j->alg->kind == SK_MODEXP) {
        speed_bn_free(-1, j);
        return;
    }
    incore_state *s = j->state;
    if (s) {
        ic_aes_key_wipe(&s->aes);
        ic_aes_gcm_wipe(&s->gcm);
        ic_aes_xts_key_wipe(&s->xts);
        ic_aes_gcm_key_wipe(&s->gkey);
        ic_wipe(&s->ghk, sizeof s->ghk);
        free(s);
    }
    j->state = NULL;
}

/* One message.  The IV is copied per message (the modes update it in place
 * to chain calls), as a protocol sets a fresh one per record. */
static void incore_run(speed_job *j, size_t len)
{
    incore_state *s = j->state;
    const speed_alg *a = j->alg;
    uint8_t *b = j->buf, iv[16];
    int st = IC_OK;
    memcpy(iv, j->iv, 16);
    switch (a->kind) {
    case SK_ECB: st = ic_aes_ecb_encrypt(&s->aes, b, b, len); break;
    case SK_CBC_ENC: st = ic_aes_cbc_encrypt(&s->aes, b, b, len, iv); break;
    case SK_CBC_DEC: st = ic_aes_cbc_decrypt(&s->aes, b, b, len, iv); break;
    case SK_CFB_ENC: st = ic_aes_cfb128_encrypt(&s->aes, b, b, len, iv); break;
    case SK_CFB_DEC: st = ic_aes_cfb128_decrypt(&s->aes, b, b, len, iv); break;
    case SK_OFB: st = ic_aes_ofb_crypt(&s->aes, b, b, len, iv); break;
    case SK_CTR: st = ic_aes_ctr_crypt(&s->aes, b, b, len, iv); break;
    case SK_GCM_SEAL:
        st = ic_aes_gcm_init(&s->gcm, &s->gkey, j->iv, IC_GCM_IV_SIZE);
        st |= ic_aes_gcm_aad(&s->gcm, j->aad, j->aadlen);
        st |= ic_aes_gcm_encrypt(&s->gcm, b, b, len);
        st |= ic_aes_gcm_final(&s->gcm, j->aux, IC_GCM_TAG_SIZE);
        break;
    case SK_GCM_OPEN:
        st = ic_aes_gcm_init(&s->gcm, &s->gkey, j->iv, IC_GCM_IV_SIZE);
        st |= ic_aes_gcm_aad(&s->gcm, j->aad, j->aadlen);
        st |= ic_aes_gcm_decrypt(&s->gcm, j->out, j->ct, len);
        st |= ic_aes_gcm_final_verify(&s->gcm, j->ct + len, IC_GCM_TAG_SIZE);
        break;
    case SK_HASH: st = ic_hash((ic_hash_alg)a->param, j->aux, sizeof j->aux, b, len); break;
    case SK_HMAC: st = ic_hmac((ic_hash_alg)a->param, j->aux, sizeof j->aux, b, len, j->key, 32); break;
    case SK_CHACHA20: st = ic_chacha20_xor(b, b, len, j->iv, 1, j->key); break;
    case SK_POLY1305: st = ic_poly1305(j->aux, b, len, j->key); break;
    case SK_C20P1305:
        st = ic_chacha20_poly1305_seal(b, j->aux, b, len, j->aad, j->aadlen, j->iv, j->key);
        break;
    case SK_XC20P1305:
        st = ic_xchacha20_poly1305_seal(b, j->aux, b, len, j->aad, j->aadlen, j->iv, j->key);
        break;
    case SK_C20P1305_OPEN:
        st = ic_chacha20_poly1305_open(j->out, j->ct + len, j->ct, len, j->aad, j->aadlen, j->iv, j->key);
        break;
    case SK_CRC32: speed_put_le32(j->aux, ic_crc32(0, b, len)); break;
    case SK_CRC32C: speed_put_le32(j->aux, ic_crc32c(0, b, len)); break;
    case SK_RANDOM: st = ic_random(b, len); break;
    case SK_RANDSRC: st = ic_rand_source_read(randsrc[a->param], b, len); break;
    case SK_XTS_ENC: st = ic_aes_xts_encrypt(&s->xts, b, b, len, j->iv); break;
    case SK_XTS_DEC: st = ic_aes_xts_decrypt(&s->xts, b, b, len, j->iv); break;
    case SK_XTS_SECTOR: st = ic_aes_xts_encrypt_sector(&s->xts, b, b, len, s->sector++); break;
    case SK_GCM_KEY:
        st = ic_aes_gcm_key_seal(&s->gkey, b, j->aux, IC_GCM_TAG_SIZE, b, len, j->aad, j->aadlen, j->iv,
                                 IC_GCM_IV_SIZE);
        break;
    case SK_GCM_KEY_OPEN:
        st = ic_aes_gcm_key_open(&s->gkey, j->out, j->ct + len, IC_GCM_TAG_SIZE, j->ct, len, j->aad, j->aadlen,
                                 j->iv, IC_GCM_IV_SIZE);
        break;
    case SK_GCM_ONESHOT:
        st = ic_aes_gcm_seal(b, j->aux, IC_GCM_TAG_SIZE, b, len, j->aad, j->aadlen, j->iv, IC_GCM_IV_SIZE,
                             j->key, a->param);
        break;
    case SK_GHASH:
        memset(j->aux, 0, 16);
        ic_ghash_key_ops(&s->ghk)->blocks(&s->ghk, j->aux, b, len / 16);
        break;
    case SK_HKDF:   /* the message as input keying material, the IV as salt */
        st = ic_hkdf((ic_hash_alg)a->param, j->aux, 32, NULL, 0, j->iv, 16, b, len);
        break;
    case SK_HWRAND: st = ic_rand_hw(b, len); break;
    case SK_MODEXP: speed_bn_run(-1, j, len); break;
    }
    if (st != IC_OK)   /* an error path is fast: never let it pass for speed */
        j->failed = 1;
}

/* ---- clocks -------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The reference counter, and the rate it ticks at if the hardware says. */
#if defined(__x86_64__) || defined(__i386__)
#define COUNTER_NAME "TSC"
static uint64_t ticks(void) { return __rdtsc(); }
static double declared_hz(void) { return 0; }
#elif defined(__aarch64__)
#define COUNTER_NAME "CNTVCT_EL0"
static uint64_t ticks(void)
{
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
}
static double declared_hz(void)
{
    uint64_t f;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
    return (double)f;
}
#elif defined(__powerpc__) || defined(__powerpc64__)
#define COUNTER_NAME "timebase"
static uint64_t ticks(void) { return __builtin_ppc_get_timebase(); }
/* Linux prints the timebase rate in /proc/cpuinfo ("timebase : 512000000"). */
static double declared_hz(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    double hz = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "timebase", 8) == 0 && strchr(line, ':'))
            hz = strtod(strchr(line, ':') + 1, NULL);
    if (f)
        fclose(f);
    return hz;
}
#else
#define COUNTER_NAME "CLOCK_MONOTONIC"
static uint64_t ticks(void) { return (uint64_t)(now_s() * 1e9); }
static double declared_hz(void) { return 1e9; }
#endif

/* Rate of ticks(): the declared one, else measured against CLOCK_MONOTONIC
 * over 50 ms of spinning (long enough that the two clock reads' cost is
 * below 1e-5 of it). */
static double counter_hz(int *measured)
{
    double hz = declared_hz();
    *measured = hz <= 0;
    if (hz > 0)
        return hz;
    double t0 = now_s(), t1;
    uint64_t c0 = ticks(), c1;
    do {
        t1 = now_s();
        c1 = ticks();
    } while (t1 - t0 < 0.05);
    return (double)(c1 - c0) / (t1 - t0);
}

/* ---- options ------------------------------------------------------------- */

enum { FMT_TABLE, FMT_JSON, FMT_CSV, FMT_MD };
#define MAX_SIZES 256
#define MAX_SIZE ((size_t)64 << 20)
#define MAX_REPEATS 101
#define MAX_IMPLS 8      /* implementations of one primitive */
#define MAX_PROVS 80     /* incore combinations + peers for one algorithm */
#define MAX_AAD 65536
#define MAX_THREADS 256

typedef struct {
    size_t sizes[MAX_SIZES];
    size_t nsizes;
    int sized;           /* --sizes / --sweep given */
    double seconds;      /* per measurement (algorithm, size, provider) */
    int repeats;
    int best;            /* --stat best: the fastest batch, not the median */
    int impl_all;
    unsigned peers;      /* 1 << SPEED_xxx */
    unsigned named;      /* the peers --vs names itself (not through "all") */
    int format;
    const char *plot;
    size_t aad;          /* --aad: AAD bytes per AEAD message */
    size_t misalign;     /* --misalign: buffers start this far past 64-byte alignment */
    int threads;         /* --threads: processes running each batch at once */
    unsigned char want[NALGS];
} speed_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: incore speed [ALG...] [OPTIONS]\n"
            "\n"
            "Throughput of incore's primitives (default: all of them) in MiB/s and\n"
            "reference cycles per byte, for each message size, beside the peers.\n"
            "ALG is a name from --list or a prefix of names (\"aes-128\", \"sha\"),\n"
            "several ALGs may be given, also as one comma-separated list.\n"
            "\"random\" is ic_random, \"rand-NAME\" one entropy source (rows of sources this\n"
            "machine lacks are skipped); their peer is OpenSSL's RAND_bytes.\n"
            "\n"
            "  --sizes LIST      message sizes in bytes, k/m suffixes allowed\n"
            "                    (default 16,64,256,1024,8192,16384; XTS data units\n"
            "                    512,4096)\n"
            "  --sweep A:B:STEP  sizes A, A+STEP, ... up to B (STEP xF: multiply by F)\n"
            "  --seconds S       time per measurement (default 0.2)\n"
            "  --repeats N       batches per measurement (default 5)\n"
            "  --stat median|best  the figure of a measurement: the median batch (the\n"
            "                    default: for ratios on a shared machine), or the\n"
            "                    fastest one (load only adds time: for comparing with\n"
            "                    what the hardware allows)\n"
            "  --impl all        every implementation this CPU runs, not only the\n"
            "                    selected one (auto: the selected one, the default);\n"
            "                    the selected row is marked *, and a line gives its\n"
            "                    speed against the fastest incore row at each size,\n"
            "                    naming that row where the pick is >3 %% behind\n"
            "  --vs LIST         also measure peers: openssl,libsodium,zlib,isal,libgcrypt,gmp,\n"
            "                    ipsecmb (intel-ipsec-mb's direct API), ipsecmb-job (its\n"
            "                    job API), openssl-latest (the newest OpenSSL release, built\n"
            "                    by scripts/build-openssl-latest.sh), or all (modexp rows:\n"
            "                    openssl, gmp; rsa2048-verify, rsaNNNN-sign: openssl; in ops/s)\n"
            "  --quick           aes-128-gcm sha256 chacha20-poly1305 crc32c at 64 and\n"
            "                    16384 bytes, 0.05 s each\n"
            "  --aad N           N bytes of AAD with every AEAD message (default 0)\n"
            "  --misalign N      message, output and AAD buffers N bytes (0..63) past a\n"
            "                    64-byte boundary (default 0)\n"
            "  --threads N       N processes run every batch at once (as openssl speed\n"
            "                    -multi): MiB/s is their sum, c/B their mean (default 1)\n"
            "  --json            one JSON object per line (alg, provider, impl, size,\n"
            "                    mib_per_s (2^20 B/s), mb_per_s (10^6 B/s), cpb, and what\n"
            "                    produced it: versions, CPU model and features, compiler)\n"
            "  --csv             the same as CSV with a header line\n"
            "  --markdown        tables as Markdown (docs/benchmarks.md)\n"
            "  --plot FILE       cycles/byte against size as SVG or PNG (needs python3\n"
            "                    with matplotlib; runs plot_speed.py from the source tree\n"
            "                    or share/incore, or $INCORE_PLOT_SCRIPT); FILE is checked\n"
            "                    before measuring\n"
            "  --list            the algorithms, their primitives and peers\n"
            "\n"
            "  --json, --csv and --markdown exclude one another.\n"
            "\n"
            "Exit status: 0; 1 if an output check or an operation failed; 2 on a usage\n"
            "error, when the plot cannot be drawn or written, or when --vs names\n"
            "openssl-latest and its module is not there.\n");
}

/* A usage error: "incore speed: <what>", then where to read more (exit 2). */
#define fail_usage(...) incore_usage_error("speed", __VA_ARGS__)

/* "16", "1k", "16K", "1m": bytes; 0 on error. */
static size_t parse_size(const char *s, const char **end)
{
    char *e;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 10);
    if (e == s || errno || *s == '-')
        return 0;
    if (*e == 'k' || *e == 'K')
        v <<= 10, e++;
    else if (*e == 'm' || *e == 'M')
        v <<= 20, e++;
    *end = e;
    return v > MAX_SIZE ? 0 : (size_t)v;
}

static int parse_sizes(speed_opts *o, const char *list)
{
    o->nsizes = 0;
    for (const char *s = list;;) {
        const char *e;
        size_t v = parse_size(s, &e);
        if (!v || (*e && *e != ','))
            return fail_usage("bad --sizes '%s': sizes are 1..64m bytes, comma separated", list);
        if (o->nsizes == MAX_SIZES)
            return fail_usage("more than %d sizes", MAX_SIZES);
        o->sizes[o->nsizes++] = v;
        if (!*e)
            return 0;
        s = e + 1;
    }
}

static int parse_sweep(speed_opts *o, const char *s)
{
    const char *e;
    size_t a = parse_size(s, &e), b = 0, step = 0;
    int mul = 0;
    if (a && *e == ':') {
        b = parse_size(e + 1, &e);
        if (b && *e == ':') {
            mul = e[1] == 'x' || e[1] == '*';
            step = parse_size(e + 1 + mul, &e);
        }
    }
    if (!a || !b || !step || *e || b < a || (mul && step < 2))
        return fail_usage("bad --sweep '%s': want A:B:STEP or A:B:xFACTOR with 1 <= A <= B", s);
    o->nsizes = 0;
    for (size_t v = a; v <= b; v = mul ? v * step : v + step) {
        if (o->nsizes == MAX_SIZES)
            return fail_usage("--sweep '%s' gives more than %d sizes", s, MAX_SIZES);
        o->sizes[o->nsizes++] = v;
    }
    return 0;
}

#define PEER_NAMES "openssl, openssl-latest, libsodium, zlib, isal, libgcrypt, gmp, ipsecmb, ipsecmb-job, all"

static int parse_peers(speed_opts *o, const char *s)
{
    o->peers = o->named = 0;
    if (!*s)
        return fail_usage("bad --vs '': name peers (" PEER_NAMES ")");
    while (*s) {
        size_t n = strcspn(s, ",");
        int hit = 0;
        for (int p = 0; p < SPEED_NPEERS; p++) {
            int named = (strlen(speed_peer_name(p)) == n && strncmp(s, speed_peer_name(p), n) == 0) ||
                        (p == SPEED_LIBSODIUM && n == 6 && strncmp(s, "sodium", 6) == 0);
            if (named || (n == 3 && strncmp(s, "all", 3) == 0))
                o->peers |= 1u << p, o->named |= (unsigned)named << p, hit = 1;
        }
        if (!hit)
            return fail_usage("unknown peer '%.*s' in --vs (" PEER_NAMES ")", (int)n, s);
        s += n + (s[n] == ',');
    }
    return 0;
}

/* An exact name selects that algorithm; otherwise every name that starts
 * with the argument ("aes-256", "sha", "crc").  A comma-separated list is
 * several arguments ("modexp2048,rsa2048-sign"). */
static int want_one_alg(speed_opts *o, const char *arg);

static int want_alg(speed_opts *o, const char *arg)
{
    const char *comma = strchr(arg, ',');
    if (comma == NULL)
        return want_one_alg(o, arg);
    char one[64];
    for (const char *s = arg;; s = comma + 1) {
        comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (n == 0 || n >= sizeof one)
            return fail_usage("bad algorithm list '%s' (names separated by single commas)", arg);
        memcpy(one, s, n);
        one[n] = 0;
        int st = want_one_alg(o, one);
        if (st != 0)
            return st;
        if (comma == NULL)
            return 0;
    }
}

static int want_one_alg(speed_opts *o, const char *arg)
{
    int hit = 0;
    for (size_t i = 0; i < NALGS; i++)
        if (strcmp(algs[i].name, arg) == 0) {
            o->want[i] = 1;
            return 0;
        }
    for (size_t i = 0; i < NALGS; i++)
        if (*arg && strncmp(algs[i].name, arg, strlen(arg)) == 0)
            o->want[i] = 1, hit = 1;
    return hit ? 0 : fail_usage("unknown algorithm '%s' (incore speed --list)", arg);
}

static int list_algs(void)
{
    printf("%-20s %-18s %s\n", "algorithm", "primitives", "peers");
    for (size_t i = 0; i < NALGS; i++) {
        const speed_alg *a = &algs[i];
        char prims[64];
        snprintf(prims, sizeof prims, "%s%s%s", a->prims[0], a->prims[1] ? "+" : "",
                 a->prims[1] ? a->prims[1] : "");
        printf("%-20s %-18s", a->name, prims);
        for (int p = 0; p < SPEED_NPEERS; p++)
            if (speed_peer_call(p, a))
                printf(" %s", speed_peer_name(p));
        printf("\n");
    }
    return 0;
}

/* Options may come in any order; "--opt=value" and "--opt value" both work. */
static int parse_args(speed_opts *o, int argc, char **argv)
{
    static const size_t dflt[] = {16, 64, 256, 1024, 8192, 16384};
    memset(o, 0, sizeof *o);
    memcpy(o->sizes, dflt, sizeof dflt);
    o->nsizes = sizeof dflt / sizeof dflt[0];
    o->seconds = 0.2;
    o->repeats = 5;
    o->threads = 1;
    int any = 0, quick = 0, sized = 0, timed = 0;
    const char *format = NULL;   /* the --json / --csv / --markdown given */
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i], *val = NULL;
        if (strncmp(arg, "--", 2) != 0 || !arg[2]) {
            if (*arg == '-' && arg[1])
                return fail_usage("unknown option '%s'", arg);
            int st = want_alg(o, arg);
            if (st)
                return st;
            any = 1;
            continue;
        }
        char *eq = strchr(arg, '=');
        size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
#define IS(name) (n == strlen(name) && strncmp(arg, name, n) == 0)
        int takes = IS("--sizes") || IS("--sweep") || IS("--seconds") || IS("--repeats") || IS("--stat") ||
                    IS("--impl") || IS("--vs") || IS("--plot") || IS("--aad") || IS("--misalign") ||
                    IS("--threads");
        if (takes) {
            /* "--vs --seconds 1": --vs has no value (a value never starts with --) */
            val = eq ? eq + 1 : (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 ? argv[++i] : NULL);
            if (!val)
                return fail_usage("%.*s needs a value", (int)n, arg);
        } else if (eq) {
            return fail_usage("option '%.*s' takes no value", (int)n, arg);
        }
        int st = 0;
        if (IS("--help")) {
            usage(stdout);
            return -1;
        } else if (IS("--list")) {
            list_algs();
            return -1;
        } else if (IS("--sizes")) {
            st = parse_sizes(o, val), sized = 1;
        } else if (IS("--sweep")) {
            st = parse_sweep(o, val), sized = 1;
        } else if (IS("--seconds")) {
            char *e;
            o->seconds = strtod(val, &e);
            timed = 1;
            if (e == val || *e || !(o->seconds > 0 && o->seconds <= 3600))
                st = fail_usage("bad --seconds '%s' (0 < S <= 3600)", val);
        } else if (IS("--repeats")) {
            char *e;
            long r = strtol(val, &e, 10);
            o->repeats = (int)r;
            if (e == val || *e || r < 1 || r > MAX_REPEATS)
                st = fail_usage("bad --repeats '%s' (1..%d)", val, MAX_REPEATS);
        } else if (IS("--stat")) {
            if (strcmp(val, "best") == 0 || strcmp(val, "median") == 0)
                o->best = strcmp(val, "best") == 0;
            else
                st = fail_usage("bad --stat '%s' (median or best)", val);
        } else if (IS("--impl")) {
            if (strcmp(val, "all") == 0)
                o->impl_all = 1;
            else if (strcmp(val, "auto") != 0)
                st = fail_usage("bad --impl '%s' (all or auto; INCORE_IMPL forces one)", val);
        } else if (IS("--vs")) {
            st = parse_peers(o, val);
        } else if (IS("--aad")) {
            const char *e;
            o->aad = *val == '0' && !val[1] ? 0 : parse_size(val, &e);
            if ((o->aad == 0 && strcmp(val, "0")) || (o->aad && (*e || o->aad > MAX_AAD)))
                st = fail_usage("bad --aad '%s' (0..%d bytes)", val, (int)MAX_AAD);
        } else if (IS("--misalign")) {
            char *e;
            long v = strtol(val, &e, 10);
            o->misalign = (size_t)v;
            if (e == val || *e || v < 0 || v > 63)
                st = fail_usage("bad --misalign '%s' (0..63)", val);
        } else if (IS("--threads")) {
            char *e;
            long v = strtol(val, &e, 10);
            o->threads = (int)v;
            if (e == val || *e || v < 1 || v > MAX_THREADS)
                st = fail_usage("bad --threads '%s' (1..%d)", val, MAX_THREADS);
        } else if (IS("--plot")) {
            o->plot = val;
        } else if (IS("--quick")) {
            quick = 1;
        } else if (IS("--json") || IS("--csv") || IS("--markdown")) {
            int f = IS("--json") ? FMT_JSON : IS("--csv") ? FMT_CSV : FMT_MD;
            if (format && o->format != f)
                st = fail_usage("%s and %s exclude each other", format, arg);
            o->format = f;
            format = arg;
        } else {
            st = fail_usage("unknown option '%s'", arg);
        }
#undef IS
        if (st)
            return st;
    }
    if (quick) { /* the README's first command: a couple of seconds */
        static const char *const q[] = {"aes-128-gcm", "sha256", "chacha20-poly1305", "crc32c"};
        if (!any)
            for (size_t i = 0; i < 4; i++)
                want_alg(o, q[i]);
        any = 1;
        if (!sized) {
            o->sizes[0] = 64, o->sizes[1] = 16384;
            o->nsizes = 2;
        }
        if (!timed)
            o->seconds = 0.05;
    }
    if (!any)
        memset(o->want, 1, sizeof o->want);
    o->sized = sized;
    return 0;
}

/* XTS encrypts data units, not messages: without --sizes / --sweep its
 * rows are measured at a 512-byte sector and a 4 KiB page or filesystem
 * block, the units disk encryption uses. */
static const size_t xts_sizes[] = {512, 4096};
static int is_xts(const speed_alg *a)
{
    return a->kind == SK_XTS_ENC || a->kind == SK_XTS_DEC || a->kind == SK_XTS_SECTOR;
}
static size_t alg_nsizes(const speed_opts *o, const speed_alg *a)
{
    if (a->kind == SK_MODEXP)   /* one operand size: the modulus's */
        return 1;
    return is_xts(a) && !o->sized ? sizeof xts_sizes / sizeof xts_sizes[0] : o->nsizes;
}

/* ---- measurement --------------------------------------------------------- */

typedef struct {
    int peer;                 /* -1: incore */
    const char *provider;     /* "incore", "openssl", ... */
    const char *call;         /* the API measured */
    char impl[48];            /* "ct64", "ct64+ct64", or the peer's API */
    const char *sel[2];       /* incore: implementations to select, or NULL */
    speed_job job;
    int mismatch;             /* output differed from the reference */
    int picked;               /* incore: what automatic selection runs */
    double *mb, *cpb;         /* per size */
    double rate[MAX_REPEATS], tpb[MAX_REPEATS];
} provider;

typedef struct {
    speed_opts *o;
    double hz;                /* counter rate */
    int hz_measured;
    uint8_t *buf, *out, *ct, *ref, *aad;   /* each misaligned by --misalign */
    const char *progress;     /* non-NULL: show progress on stderr */
    size_t cell, cells;
    double start;             /* now_s() when measuring began */
    FILE *rows;               /* --plot: JSON rows for the plot script */
    int failures;
} bench;

/* IC_OK, or the status of a refused selection: the figures would then be
 * another implementation's. */
static int select_impls(const provider *p, const speed_alg *a)
{
    for (int k = 0; k < 2; k++)
        if (p->sel[k]) {
            int st = ic_impl_select(a->prims[k], p->sel[k]);
            if (st != IC_OK)
                return st;
        }
    return IC_OK;
}

static void run_once(provider *p, size_t len)
{
    if (p->peer < 0)
        incore_run(&p->job, len);
    else
        speed_peer_run(p->peer, &p->job, len);
}

/* n messages back to back; returns seconds, ticks through *t. */
static double run_batch(provider *p, const speed_alg *a, size_t len, uint64_t n, uint64_t *t)
{
    if (select_impls(p, a) != IC_OK)
        p->job.failed = 1;
    double t0 = now_s();
    uint64_t c0 = ticks();
    for (uint64_t i = 0; i < n; i++)
        run_once(p, len);
    uint64_t c1 = ticks();
    double t1 = now_s();
    *t = c1 - c0;
    return t1 - t0;
}

/* --threads N: N processes run the same batch at once, each on its own
 * copy (fork) of the provider's state, released together through a pipe, as
 * `openssl speed -multi` does.  *mibs is the sum of their rates, *tpb the
 * mean of their ticks per byte.  -1 if a process could not be run. */
static int run_batch_multi(provider *p, const speed_alg *a, size_t len, uint64_t n, int procs,
                           double *mibs, double *tpb)
{
    int go[2], res[2], started = 0, got = 0;
    double sum = 0, tsum = 0, bytes = (double)n * (double)len, r[3];
    if (pipe(go) != 0)
        return -1;
    if (pipe(res) != 0) {
        close(go[0]), close(go[1]);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    for (; started < procs; started++) {
        pid_t pid = fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            char c;
            uint64_t t;
            close(go[1]);
            close(res[0]);
            if (read(go[0], &c, 1) != 1)
                _exit(1);
            r[0] = run_batch(p, a, len, n, &t);
            r[1] = (double)t;
            r[2] = p->job.failed;
            /* one write of 24 bytes (< PIPE_BUF): never interleaved */
            _exit(write(res[1], r, sizeof r) == (ssize_t)sizeof r ? 0 : 1);
        }
    }
    close(go[0]);
    close(res[1]);
    for (int k = 0; k < started; k++)
        if (write(go[1], "g", 1) != 1)
            break;
    close(go[1]);
    while (read(res[0], r, sizeof r) == (ssize_t)sizeof r) {
        sum += bytes / (r[0] > 0 ? r[0] : 1e-9) / 1048576.0;
        tsum += r[1] / bytes;
        p->job.failed |= r[2] != 0;
        got++;
    }
    close(res[0]);
    for (int k = 0; k < started; k++)
        while (wait(NULL) < 0 && errno == EINTR)
            ;
    if (started != procs || got != procs)
        return -1;
    *mibs = sum;
    *tpb = tsum / got;
    return 0;
}

/* Messages per batch so that one batch takes about `target` seconds:
 * grow the count until a batch is long enough to time, then scale. */
static uint64_t calibrate(provider *p, const speed_alg *a, size_t len, double target)
{
    uint64_t n = 1, t;
    double s;
    for (;;) {
        s = run_batch(p, a, len, n, &t);
        if (s >= target / 4 || n >= (UINT64_C(1) << 40))
            break;
        double f = s > 0 ? target / 2 / s : 100;
        n = (uint64_t)((double)n * (f > 100 ? 100 : f < 2 ? 2 : f) + 0.999);
    }
    double m = (double)n * target / s;
    return m < 1 ? 1 : (uint64_t)m;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --stat's name, as the header line and the JSON / CSV rows give it. */
static const char *stat_name(const speed_opts *o)
{
    return o->best ? "best" : "median";
}

/* The figure of a measurement's batches: the median, or with --stat best
 * the best (the largest rate, the smallest time per byte). */
static double batch_stat(const speed_opts *o, double *v, int n, int larger_is_better)
{
    if (!o->best)
        return median(v, n);
    double b = v[0];
    for (int i = 1; i < n; i++)
        if (larger_is_better ? v[i] > b : v[i] < b)
            b = v[i];
    return b;
}

static void fill_message(uint8_t *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        b[i] = (uint8_t)(i * 131 + 7);
}

/* Run every provider once on the same message and compare what it wrote
 * (the transformed buffer or opened plaintext, then digest / tag / CRC)
 * with the first provider's.  The reference is incore's first variant. */
static void check_outputs(bench *B, const speed_alg *a, provider *pv, int np, size_t len)
{
    size_t alen = aux_len(a);
    int open = a->kind == SK_GCM_OPEN || a->kind == SK_C20P1305_OPEN || a->kind == SK_GCM_KEY_OPEN;
    for (int i = 0; i < np; i++) {
        provider *p = &pv[i];
        fill_message(B->buf, len);
        memset(B->out, 0, len);
        memset(p->job.aux, 0, sizeof p->job.aux);
        p->job.failed = select_impls(p, a) != IC_OK;
        if (p->peer < 0)   /* the sector rows: every variant on sector 0 */
            incore_restart(&p->job);
        run_once(p, len);
        const uint8_t *got = open ? B->out : B->buf;
        if (i == 0) {
            memcpy(B->ref, got, len);
            memcpy(B->ref + len, p->job.aux, alen);
        }
        /* random bytes match nothing: a source or the DRBG only has to work */
        int bad = p->job.failed || (a->kind < SK_RANDOM && (memcmp(B->ref, got, len) != 0 ||
                                                             memcmp(B->ref + len, p->job.aux, alen) != 0));
        if (open && memcmp(got, B->ct + len + 16, len) != 0) /* the plaintext sealed */
            bad = 1;
        if (bad && !p->mismatch)
            fprintf(stderr, "incore speed: %s: %s/%s %s at %zu bytes\n", a->name, p->provider,
                    p->impl, p->job.failed ? "reported an error" : "disagrees with incore",
                    len);
        if (bad) {
            p->mismatch = 1;
            B->failures++;
        }
    }
}

/* ---- output -------------------------------------------------------------- */

/* Three or four significant figures, no exponent: 0.731, 12.45, 1234. */
static const char *num(char *s, size_t n, double v)
{
    int dec = v < 1 ? 3 : v < 10 ? 2 : v < 100 ? 2 : v < 1000 ? 1 : 0;
    snprintf(s, n, "%.*f", dec, v);
    return s;
}

static const char *size_label(char *s, size_t n, size_t v)
{
    if (v >= (1u << 20) && v % (1u << 20) == 0)
        snprintf(s, n, "%zu MiB", v >> 20);
    else if (v >= 1024 && v % 1024 == 0)
        snprintf(s, n, "%zu KiB", v >> 10);
    else
        snprintf(s, n, "%zu B", v);
    return s;
}

/* ---- what produced a figure ---------------------------------------------- */

#if defined(__clang__)
#define SPEED_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define SPEED_COMPILER "gcc " __VERSION__
#else
#define SPEED_COMPILER "unknown"
#endif

/* The CPU features the selection saw (after INCORE_CPU), space separated. */
static const char *cpu_features(void)
{
    static char s[1024];
    size_t n = 0;
    uint64_t f = ic_cpu_features();
    s[0] = 0;
    for (unsigned b = 0; b < 64 && ic_cpu_feature_name(b); b++)
        if ((f >> b & 1) && n < sizeof s)
            n += (size_t)snprintf(s + n, sizeof s - n, "%s%s", n ? " " : "", ic_cpu_feature_name(b));
    return s;
}

static const char *provider_version(const provider *p)
{
    return p->peer < 0 ? ic_version() : speed_peer_version(p->peer);
}

static const char *cpu_model(void)
{
    return *ic_cpu_model() ? ic_cpu_model() : "unknown";
}

/* A JSON string, escaped (a CPU brand string or a peer version is data). */
static void json_str(FILE *f, const char *key, const char *v)
{
    fprintf(f, ",\"%s\":\"", key);
    for (; *v; v++) {
        unsigned char c = (unsigned char)*v;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A CSV field, quoted when it has a comma, quote or space. */
static void csv_str(FILE *f, const char *v)
{
    if (!strpbrk(v, ",\" \n")) {
        fprintf(f, ",%s", v);
        return;
    }
    fputs(",\"", f);
    for (; *v; v++)
        fputs(*v == '"' ? "\"\"" : (char[2]){*v, 0}, f);
    fputc('"', f);
}

/* MiB/s (2^20 bytes/s) and MB/s (10^6 bytes/s) from the measured MiB/s. */
#define MB_OF_MIB(x) ((x) * 1048576.0 / 1e6)

static void json_row(FILE *f, const bench *B, const speed_alg *a, const provider *p,
                     size_t size, double mib, double cpb)
{
    const speed_opts *o = B->o;
    fprintf(f, "{\"alg\":\"%s\"", a->name);
    json_str(f, "provider", p->provider);
    json_str(f, "impl", p->impl);
    json_str(f, "call", p->call);
    fprintf(f, ",\"size\":%zu,\"aad\":%zu,\"misalign\":%zu,\"threads\":%d,"
               "\"mib_per_s\":%.6g,\"mb_per_s\":%.6g,\"cpb\":%.6g,\"counter\":\"%s\","
               "\"counter_hz\":%.0f,\"repeats\":%d,\"stat\":\"%s\",\"seconds\":%g,\"check\":\"%s\"",
            size, takes_aad(a) ? o->aad : 0, o->misalign, o->threads, mib, MB_OF_MIB(mib), cpb,
            COUNTER_NAME, B->hz, o->repeats, stat_name(o), o->seconds,
            p->mismatch ? "mismatch" : "ok");
    if (p->peer < 0)   /* the row automatic selection runs (always, without --impl all) */
        fprintf(f, ",\"selected\":%s", p->picked ? "true" : "false");
    json_str(f, "version", provider_version(p));
    json_str(f, "incore_version", ic_version());
    json_str(f, "arch", ic_cpu_arch());
    json_str(f, "cpu_model", cpu_model());
    json_str(f, "cpu_features", cpu_features());
    json_str(f, "compiler", SPEED_COMPILER);
    fputs("}\n", f);
}

#define CSV_HEADER "alg,provider,impl,call,size,aad,misalign,threads,mib_per_s,mb_per_s,cpb,stat,check," \
                   "version,incore_version,arch,cpu_model,cpu_features,compiler"

static void csv_row(FILE *f, const bench *B, const speed_alg *a, const provider *p, size_t size,
                    double mib, double cpb)
{
    const speed_opts *o = B->o;
    fprintf(f, "%s", a->name);
    csv_str(f, p->provider);
    csv_str(f, p->impl);
    csv_str(f, p->call);
    fprintf(f, ",%zu,%zu,%zu,%d,%.6g,%.6g,%.6g,%s,%s", size, takes_aad(a) ? o->aad : 0, o->misalign,
            o->threads, mib, MB_OF_MIB(mib), cpb, stat_name(o), p->mismatch ? "mismatch" : "ok");
    csv_str(f, provider_version(p));
    csv_str(f, ic_version());
    csv_str(f, ic_cpu_arch());
    csv_str(f, cpu_model());
    csv_str(f, cpu_features());
    csv_str(f, SPEED_COMPILER);
    fputc('\n', f);
}

/* Size actually measured for the requested one (whole blocks for ECB/CBC). */
static size_t effective(const speed_alg *a, size_t want)
{
    if (is_xts(a) && want < IC_AES_XTS_MIN_LEN)
        return IC_AES_XTS_MIN_LEN;      /* a data unit is at least one block */
    if (a->kind == SK_MODEXP)      /* one operand size: the modulus's */
        return a->param / 8;
    return want / block_of(a) * block_of(a);
}

/* With --impl all: the incore row automatic selection runs, or NULL when
 * there is no choice to show (one incore row). */
static const provider *pick_row(const bench *B, const provider *pv, int np)
{
    const provider *pick = NULL;
    int n = 0;
    for (int i = 0; i < np; i++)
        if (pv[i].peer < 0) {
            n++;
            if (pv[i].picked)
                pick = &pv[i];
        }
    return B->o->impl_all && n > 1 ? pick : NULL;
}

/* "vaes512+vpclmul512 *" for the pick, " MISMATCH" for a wrong output. */
static void row_name(char *who, size_t n, const provider *p, const provider *pick)
{
    snprintf(who, n, "%s%s%s", p->impl, p == pick ? " *" : "", p->mismatch ? " MISMATCH" : "");
}

/* Under an --impl all table: the pick's speed as a fraction of the fastest
 * incore row's at each size, and which row that was where the pick is
 * more than 3 % behind (smaller differences are within a run's spread),
 * so a user can report a wrong choice for their CPU. */
static void print_pick(const bench *B, const speed_alg *a, const provider *pv, int np,
                       const provider *pick, int md, int lead)
{
    const speed_opts *o = B->o;
    char s1[32], behind[512] = "";
    size_t nb = 0;
    if (md)
        printf("| * pick | vs the fastest incore | |");
    else
        printf("  %-*s", lead, "* pick vs fastest incore");
    for (size_t z = 0; z < o->nsizes; z++) {
        if (!effective(a, o->sizes[z])) {
            printf(md ? " - |" : " %9s", "-");
            continue;
        }
        const provider *best = pick;
        for (int i = 0; i < np; i++)
            if (pv[i].peer < 0 && pv[i].cpb[z] > 0 && pv[i].cpb[z] < best->cpb[z])
                best = &pv[i];
        double r = pick->cpb[z] > 0 ? best->cpb[z] / pick->cpb[z] : 0;
        printf(md ? " %.2fx |" : " %8.2fx", r);
        if (r < 0.97 && nb < sizeof behind)
            nb += (size_t)snprintf(behind + nb, sizeof behind - nb, "%s%s at %s", nb ? ", " : "",
                                   best->impl, size_label(s1, sizeof s1, effective(a, o->sizes[z])));
    }
    printf("\n");
    if (nb)
        printf(md ? "\nFastest where the pick is behind: %s.\n" : "  fastest where the pick is behind: %s\n",
               behind);
}

/* The table of one algorithm: a MiB/s line and a cycles/byte line per
 * provider, one column per size (or, for a long sweep, a row per size). */
/* A modexp row: one size, operations per second and reference cycles per
 * operation, with each provider's ratio to the first (incore). */
static void print_ops(const bench *B, const speed_alg *a, provider *pv, int np)
{
    int md = B->o->format == FMT_MD;
    double base = pv[0].mb[0] * 1048576.0 / (double)(a->param / 8);
    int pw = 9;   /* the provider column: as wide as its longest name */
    for (int i = 0; i < np; i++)
        pw = (int)strlen(pv[i].provider) > pw ? (int)strlen(pv[i].provider) : pw;
    if (md)
        printf("\n### %s\n\n| provider | impl | ops/s | Mcycles/op | vs first |\n|---|---|---:|---:|---:|\n",
               a->name);
    else
        printf("\n%-20s %-*s %-28s %10s %11s %9s\n", a->name, pw, "provider", "impl", "ops/s", "Mcycles/op",
               "vs first");
    const provider *pick = pick_row(B, pv, np);
    for (int i = 0; i < np; i++) {
        double ops = pv[i].mb[0] * 1048576.0 / (double)(a->param / 8);
        double mc = pv[i].cpb[0] * (double)(a->param / 8) / 1e6;
        char who[80];
        row_name(who, sizeof who, &pv[i], pick);
        if (md)
            printf("| %s | %s | %.1f | %.3f | %.2fx |\n", pv[i].provider, who, ops, mc, ops / base);
        else
            printf("%-20s %-*s %-28s %10.1f %11.3f %8.2fx\n", "", pw, pv[i].provider, who, ops, mc, ops / base);
    }
    if (pick && !md)
        printf("%-20s * automatic pick\n", "");
}

static void json_ops_row(FILE *f, const bench *B, const speed_alg *a, const provider *p, size_t size)
{
    fprintf(f,
            "{\"alg\":\"%s\",\"provider\":\"%s\",\"impl\":\"%s\",\"call\":\"%s\","
            "\"size\":%zu,\"ops_per_s\":%.6g,\"cycles_per_op\":%.6g,\"counter\":\"%s\","
            "\"counter_hz\":%.0f,\"stat\":\"%s\",\"check\":\"%s\"",
            a->name, p->provider, p->impl, p->call, size, p->mb[0] * 1048576.0 / (double)size,
            p->cpb[0] * (double)size, COUNTER_NAME, B->hz, stat_name(B->o),
            p->mismatch ? "mismatch" : "ok");
    if (p->peer < 0)
        fprintf(f, ",\"selected\":%s", p->picked ? "true" : "false");
    json_str(f, "version", provider_version(p));
    json_str(f, "incore_version", ic_version());
    json_str(f, "arch", ic_cpu_arch());
    json_str(f, "cpu_model", cpu_model());
    json_str(f, "cpu_features", cpu_features());
    json_str(f, "compiler", SPEED_COMPILER);
    fputs("}\n", f);
}

static void print_alg(const bench *B, const speed_alg *a, provider *pv, int np)
{
    const speed_opts *o = B->o;
    char s1[32], s2[32];
    if (a->kind == SK_MODEXP) {
        print_ops(B, a, pv, np);
        return;
    }
    int md = o->format == FMT_MD, w = 12, pw = 9;   /* impl and provider columns */
    const provider *pick = pick_row(B, pv, np);
    for (int i = 0; i < np; i++) {
        int l = (int)strlen(pv[i].impl) + (pv[i].mismatch ? 9 : 0) + (&pv[i] == pick ? 2 : 0);
        w = l > w ? l : w;
        l = (int)strlen(pv[i].provider);
        pw = l > pw ? l : pw;
    }
    if (o->nsizes > 8 && !md) {
        printf("\n%-20s %-*s %-*s %10s %10s %8s\n", a->name, pw, "provider", w, "impl", "size",
               "MiB/s", "c/B");
        for (size_t z = 0; z < o->nsizes; z++)
            for (int i = 0; i < np; i++)
                if (effective(a, o->sizes[z]))
                    printf("%-20s %-*s %-*s %10zu %10s %8s%s%s\n", "", pw, pv[i].provider,
                           w, pv[i].impl, effective(a, o->sizes[z]),
                           num(s1, sizeof s1, pv[i].mb[z]), num(s2, sizeof s2, pv[i].cpb[z]),
                           &pv[i] == pick ? "  *" : "", pv[i].mismatch ? "  MISMATCH" : "");
        if (pick)
            printf("%-20s * automatic pick\n", "");
        return;
    }
    if (md) {
        printf("\n### %s\n\n| provider | impl | |", a->name);
        for (size_t z = 0; z < o->nsizes; z++)
            printf(" %s |", size_label(s1, sizeof s1, effective(a, o->sizes[z])));
        printf("\n|---|---|---|");
        for (size_t z = 0; z < o->nsizes; z++)
            printf("---:|");
        printf("\n");
    } else {
        printf("\n%-*s", w + pw + 11, a->name);
        for (size_t z = 0; z < o->nsizes; z++)
            printf(" %9s", size_label(s1, sizeof s1, effective(a, o->sizes[z])));
        printf("\n");
    }
    for (int i = 0; i < np; i++)
        for (int line = 0; line < 2; line++) {
            const char *unit = line ? "c/B" : "MiB/s";
            char who[80];
            row_name(who, sizeof who, &pv[i], pick);
            if (md)
                printf("| %s | %s | %s |", line ? "" : pv[i].provider, line ? "" : who, unit);
            else
                printf("  %-*s %-*s %-6s", pw, line ? "" : pv[i].provider, w, line ? "" : who, unit);
            for (size_t z = 0; z < o->nsizes; z++) {
                const char *v = effective(a, o->sizes[z])
                                    ? num(s2, sizeof s2, line ? pv[i].cpb[z] : pv[i].mb[z])
                                    : "-";
                printf(md ? " %s |" : " %9s", v);
            }
            printf("\n");
        }
    if (pick)
        print_pick(B, a, pv, np, pick, md, pw + w + 8);
}

/* "[12/228] aes-128-ctr, 1024 bytes, ~95 s left" on a terminal; the time
 * left assumes the remaining figures cost what the finished ones did. */
static void progress(bench *B, const speed_alg *a, size_t size)
{
    if (!B->progress)
        return;
    double spent = now_s() - B->start;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s, %zu bytes", ++B->cell, B->cells, a->name, size);
    if (B->cell > 1)
        fprintf(stderr, ", ~%.0f s left",
                spent / (double)(B->cell - 1) * (double)(B->cells - B->cell + 1));
}

/* All sizes of one algorithm with its providers set up. */
static void bench_alg_sizes(bench *B, const speed_alg *a, provider *pv, int np)
{
    const speed_opts *o = B->o;
    double target = o->seconds / o->repeats;
    size_t nz = a->kind == SK_MODEXP ? 1 : o->nsizes;    /* one operand size */
    for (size_t z = 0; z < nz; z++) {
        size_t len = effective(a, o->sizes[z]);
        progress(B, a, len);
        if (!len)
            continue;
        if (a->kind == SK_GCM_OPEN || a->kind == SK_GCM_KEY_OPEN) {
            /* What every provider opens: an incore seal of the message; the
             * plaintext itself is kept after ct || tag for the check. */
            fill_message(B->ct + len + 16, len);
            if (ic_aes_gcm_seal(B->ct, B->ct + len, 16, B->ct + len + 16, len, pv[0].job.aad, pv[0].job.aadlen,
                                pv[0].job.iv, IC_GCM_IV_SIZE, pv[0].job.key, a->param) != IC_OK)
                B->failures++;
        }
        if (a->kind == SK_C20P1305_OPEN) {
            fill_message(B->ct + len + 16, len);
            if (ic_chacha20_poly1305_seal(B->ct, B->ct + len, B->ct + len + 16, len, pv[0].job.aad,
                                          pv[0].job.aadlen, pv[0].job.iv, pv[0].job.key) != IC_OK)
                B->failures++;
        }
        check_outputs(B, a, pv, np, len);
        uint64_t n[MAX_PROVS];
        for (int i = 0; i < np; i++)
            n[i] = calibrate(&pv[i], a, len, target);
        for (int r = 0; r < o->repeats; r++)
            for (int k = 0; k < np; k++) {
                int i = (k + r) % np;  /* rotate who goes first each round */
                uint64_t t;
                if (o->threads > 1) {
                    if (run_batch_multi(&pv[i], a, len, n[i], o->threads, &pv[i].rate[r], &pv[i].tpb[r])) {
                        fprintf(stderr, "incore speed: cannot run %d processes: %s\n", o->threads,
                                strerror(errno));
                        pv[i].job.failed = 1;
                        pv[i].rate[r] = pv[i].tpb[r] = 0;
                    }
                    continue;
                }
                double s = run_batch(&pv[i], a, len, n[i], &t);
                double bytes = (double)n[i] * (double)len;
                pv[i].rate[r] = bytes / (s > 0 ? s : 1e-9) / 1048576.0;
                pv[i].tpb[r] = (double)t / bytes;
            }
        for (int i = 0; i < np; i++) {
            provider *p = &pv[i];
            if (p->job.failed) { /* an error status while timing: not a figure */
                if (!p->mismatch)
                    fprintf(stderr, "incore speed: %s: %s/%s failed while timed\n", a->name,
                            p->provider, p->impl);
                p->mismatch = 1;
                B->failures++;
            }
            p->mb[z] = batch_stat(o, p->rate, o->repeats, 1);
            p->cpb[z] = batch_stat(o, p->tpb, o->repeats, 0);
            if (o->format == FMT_JSON && a->kind == SK_MODEXP)
                json_ops_row(stdout, B, a, p, len);
            else if (o->format == FMT_JSON)
                json_row(stdout, B, a, p, len, p->mb[z], p->cpb[z]);
            else if (o->format == FMT_CSV)
                csv_row(stdout, B, a, p, len, p->mb[z], p->cpb[z]);
            if (B->rows)
                json_row(B->rows, B, a, p, len, p->mb[z], p->cpb[z]);
        }
        fflush(stdout);
    }
}

static int same_name(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The incore variants of an algorithm: the selected implementation(s), or
 * with --impl all every available combination (for two primitives the
 * product, e.g. aes x ghash for GCM), best first. */
static int incore_variants(const bench *B, const speed_alg *a, provider *pv)
{
    const char *names[2][MAX_IMPLS], *pick[2];
    size_t cnt[2] = {1, 1};
    for (int k = 0; k < 2; k++) {
        names[k][0] = a->prims[k] ? ic_impl_selected(a->prims[k]) : NULL;
        if (a->kind == SK_RANDSRC && k == 0)   /* the source itself, whatever hwrand selects */
            names[k][0] = randsrc[a->param];
        pick[k] = names[k][0];
        if (!B->o->impl_all || !a->prims[k] || a->kind >= SK_RANDOM)
            continue;
        cnt[k] = 0;
        for (size_t i = 0; i < ic_impl_count(a->prims[k]) && cnt[k] < MAX_IMPLS; i++)
            if (ic_impl_available(a->prims[k], i))
                names[k][cnt[k]++] = ic_impl_name(a->prims[k], i);
    }
    int np = 0;
    for (size_t x = 0; x < cnt[0]; x++)
        for (size_t y = 0; y < cnt[1]; y++) {
            provider *p = &pv[np++];
            memset(p, 0, sizeof *p);
            p->peer = -1;
            p->provider = "incore";
            p->picked = same_name(names[0][x], pick[0]) && same_name(names[1][y], pick[1]);
            p->call = strncmp(a->name, "rsa", 3) != 0 ? incore_call(a->kind)
                      : strstr(a->name, "-sign") ? "ic_rsa_sign_pkcs1v15" : "ic_rsa_verify_pkcs1v15";
            /* a modexp row names the entry its context runs (bn_impl.h: min_limbs) */
            const char *first = a->kind == SK_MODEXP ? speed_bn_impl(a, names[0][x]) : names[0][x];
            snprintf(p->impl, sizeof p->impl, "%s%s%s", first, names[1][y] ? "+" : "",
                     names[1][y] ? names[1][y] : "");
            if (B->o->impl_all) {
                p->sel[0] = names[0][x];
                p->sel[1] = names[1][y];
            }
        }
    return np;
}

/* 64 bytes: the longest key (AES-256-XTS); its halves differ */
static const uint8_t test_key[64] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
    0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
    0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
    0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a,
    0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35,
    0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f};
static const uint8_t test_iv[24] = {
    0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88,
    0x07, 0x00, 0x00, 0x00, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47};

static void bench_alg(bench *B, const speed_alg *a)
{
    static provider pv[MAX_PROVS];
    const speed_opts *o = B->o;
    char why[256];
    const char *saved[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++)
        if (a->prims[k])
            saved[k] = ic_impl_selected(a->prims[k]);

    if (a->kind == SK_RANDSRC && !randsrc_usable(a)) {   /* not on this machine: no row */
        if (B->o->format == FMT_TABLE || B->o->format == FMT_MD)
            fprintf(stderr, "incore speed: %s: no healthy source %s here, skipped\n", a->name,
                    randsrc[a->param]);
        return;
    }
    int np = incore_variants(B, a, pv);
    for (int p = 0; p < SPEED_NPEERS; p++) {
        if (!(o->peers >> p & 1) || !speed_peer_call(p, a) || speed_peer_load(p, why, sizeof why))
            continue;
        provider *q = &pv[np];
        memset(q, 0, sizeof *q);
        q->peer = p;
        q->provider = speed_peer_name(p);
        q->call = speed_peer_call(p, a);
        /* the impl column names the function, less libsodium's prefix */
        snprintf(q->impl, sizeof q->impl, "%s",
                 strncmp(q->call, "crypto_", 7) == 0 ? q->call + 7 : q->call);
        np++;
    }
    int ok = 0;
    for (int i = 0; i < np; i++) {
        provider *p = &pv[i];
        speed_job *j = &p->job;
        j->alg = a;
        j->key = test_key;
        j->iv = test_iv;
        j->buf = B->buf;
        j->out = B->out;
        j->ct = B->ct;
        j->aad = takes_aad(a) ? B->aad : NULL;
        j->aadlen = takes_aad(a) ? o->aad : 0;
        p->mb = calloc(o->nsizes, sizeof(double));
        p->cpb = calloc(o->nsizes, sizeof(double));
        int st = 0;
        if (!p->mb || !p->cpb) {
            st = -1;
            snprintf(why, sizeof why, "out of memory");
        } else if (p->peer < 0) {
            st = select_impls(p, a);
            if (st == IC_OK)
                st = incore_setup(j);
            snprintf(why, sizeof why, "%s", ic_status_str(st));
        } else {
            st = speed_peer_setup(p->peer, j, why, sizeof why);
        }
        if (st) { /* a peer lacking this one is a note; incore failing is an error,
                   * but for a hardware random source this CPU does not have */
            fprintf(stderr, "incore speed: %s: %s/%s not measured: %s\n", a->name, p->provider,
                    p->impl, why);
            if (p->peer < 0 && !(a->kind == SK_HWRAND && st == IC_ERR_UNAVAILABLE))
                B->failures++;
            if (p->peer < 0)
                incore_free(j);
            else
                speed_peer_free(p->peer, j);
            free(p->mb);
            free(p->cpb);
            continue;
        }
        if (ok != i)
            pv[ok] = *p;
        ok++;
    }
    np = ok;
    if (np > 0 && pv[0].peer < 0) {
        bench_alg_sizes(B, a, pv, np);
        if (o->format == FMT_TABLE || o->format == FMT_MD) {
            if (B->progress)
                fprintf(stderr, "\r\033[K");
            print_alg(B, a, pv, np);
            fflush(stdout);
        }
    } else {
        B->cell += o->nsizes;
    }
    for (int i = 0; i < np; i++) {
        if (pv[i].peer < 0)
            incore_free(&pv[i].job);
        else
            speed_peer_free(pv[i].peer, &pv[i].job);
        free(pv[i].mb);
        free(pv[i].cpb);
    }
    for (int k = 0; k < 2; k++)
        if (saved[k] && o->impl_all && ic_impl_select(a->prims[k], saved[k]) != IC_OK) {
            fprintf(stderr, "incore speed: %s: cannot select %s/%s again\n", a->name, a->prims[k], saved[k]);
            B->failures++;
        }
}

/* ---- header and plot ----------------------------------------------------- */

static void print_header(const bench *B, FILE *f)
{
    const speed_opts *o = B->o;
    int md = o->format == FMT_MD;
    const char *li = md ? "- " : "";
    fprintf(f, "%sincore %s speed on %s, %s\n", li, ic_version(), ic_cpu_arch(),
            *ic_cpu_model() ? ic_cpu_model() : "(unknown cpu)");
    fprintf(f, "%sc/B: %s ticks per byte (reference cycles), counter at %.3f GHz (%s)\n", li,
            COUNTER_NAME, B->hz / 1e9,
            B->hz_measured ? "measured against CLOCK_MONOTONIC" : "as the hardware declares");
    fprintf(f, "%sMiB/s: 2^20 bytes per second; %s of %d batches of ~%.3g s per figure, "
            "providers interleaved batch by batch\n", li, stat_name(o), o->repeats,
            o->seconds / o->repeats);
    fprintf(f, "%sbuilt by %s; CPU features seen: %s\n", li, SPEED_COMPILER, cpu_features());
    if (o->aad || o->misalign || o->threads > 1)
        fprintf(f, "%sAEAD messages with %zu bytes of AAD; buffers %zu bytes past 64-byte alignment; "
                "%d process%s at once%s\n", li, o->aad, o->misalign, o->threads,
                o->threads > 1 ? "es" : "", o->threads > 1 ? " (MiB/s: their sum, c/B: their mean)" : "");
    for (int p = 0; p < SPEED_NPEERS; p++) {
        char why[1024];
        if (!(o->peers >> p & 1))
            continue;
        if (speed_peer_load(p, why, sizeof why) == 0)
            fprintf(f, "%speer %s: %s\n", li, speed_peer_name(p), speed_peer_version(p));
        else
            fprintf(f, "%speer %s: not available (%s)\n", li, speed_peer_name(p), why);
    }
}

/* The plot script: $INCORE_PLOT_SCRIPT; else, when this executable is the
 * one in the build directory it was built in, scripts/plot_speed.py of that
 * source tree (paths compiled in by CMake, so any build directory works);
 * else the installed copy, share/incore/plot_speed.py beside the
 * executable's prefix (a moved install) or at the configured prefix; and
 * last the source tree again (an executable copied elsewhere). */
#ifndef IC_PLOT_SCRIPT_SRC
#define IC_BUILD_DIR ""
#define IC_PLOT_SCRIPT_SRC ""
#define IC_PLOT_SCRIPT_REL "../share/incore/plot_speed.py"
#define IC_PLOT_SCRIPT_INSTALLED ""
#endif

static int readable(const char *path)
{
    return *path && access(path, R_OK) == 0;
}

static int find_plot_script(char *path, size_t n)
{
    const char *env = getenv("INCORE_PLOT_SCRIPT");
    if (env && *env) {
        snprintf(path, n, "%s", env);
        return readable(path) ? 0 : -1;
    }
    char exe[4096], dir[4096];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[k > 0 ? k : 0] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    char *built = *exe ? realpath(IC_BUILD_DIR, NULL) : NULL;
    int in_build_dir = built && strcmp(built, exe) == 0;
    free(built);
    if (in_build_dir && readable(IC_PLOT_SCRIPT_SRC)) {
        snprintf(path, n, "%s", IC_PLOT_SCRIPT_SRC);
        return 0;
    }
    if (*exe && (size_t)snprintf(dir, sizeof dir, "%s/%s", exe, IC_PLOT_SCRIPT_REL) < sizeof dir &&
        readable(dir)) {
        snprintf(path, n, "%s", dir);
        return 0;
    }
    const char *const fixed[] = {IC_PLOT_SCRIPT_INSTALLED, IC_PLOT_SCRIPT_SRC};
    for (size_t i = 0; i < 2; i++)
        if (readable(fixed[i])) {
            snprintf(path, n, "%s", fixed[i]);
            return 0;
        }
    return -1;
}

/* The plot script's exit statuses (scripts/plot_speed.py). */
enum { PLOT_OK = 0, PLOT_FAILED = 1, PLOT_NO_MATPLOTLIB = 3, PLOT_NO_PYTHON = 127 };

/* python3 SCRIPT --prog "incore speed" ARGS... (NULL-terminated), waiting
 * for it; its exit status.  The script reports its own errors on stderr in
 * one line prefixed "incore speed: ", so nothing is added to them here. */
static int run_plot_script(const char *script, ...)
{
    const char *argv[16];
    int argc = 0;
    const char *py = getenv("INCORE_PYTHON");
    if (!py || !*py)
        py = "python3";
    argv[argc++] = py;
    argv[argc++] = script;
    argv[argc++] = "--prog";
    argv[argc++] = "incore speed";
    va_list ap;
    va_start(ap, script);
    for (const char *a; argc < 15 && (a = va_arg(ap, const char *)) != NULL;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "incore speed: cannot run %s: %s\n", py, strerror(errno));
        return PLOT_NO_PYTHON;
    }
    if (pid == 0) {
        execvp(py, (char *const *)argv);
        fprintf(stderr, "incore speed: --plot needs python3 with matplotlib: cannot run %s: %s\n",
                py, strerror(errno));
        _exit(PLOT_NO_PYTHON);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return PLOT_FAILED;
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    fprintf(stderr, "incore speed: %s %s died (signal %d)\n", py, script,
            WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return PLOT_FAILED;
}

int incore_cmd_speed(int argc, char **argv)
{
    speed_opts o;
    int st = parse_args(&o, argc, argv);
    if (st)
        return st < 0 ? 0 : st;
    /* openssl-latest asked for by name: a module that is not there (or not
     * loadable) is an error that says how to build it, before measuring;
     * through "all" it is a line of the header. */
    char why[4400];
    if ((o.named >> SPEED_OPENSSL_LATEST & 1) && speed_peer_load(SPEED_OPENSSL_LATEST, why, sizeof why)) {
        fprintf(stderr, "incore speed: --vs openssl-latest: %s\n", why);
        return 2;
    }

    bench B = {0};
    B.o = &o;
    char script[4200], rows_path[] = "/tmp/incore-speed-XXXXXX";
    if (o.plot) {
        /* Fail before a long run, not after it: the script checks that
         * matplotlib imports, that it can write FILE in FORMAT, and says
         * what is wrong in one line. */
        if (find_plot_script(script, sizeof script) != 0) {
            fprintf(stderr, "incore speed: --plot: plot_speed.py not found (not in %s nor %s); "
                            "set INCORE_PLOT_SCRIPT\n", IC_PLOT_SCRIPT_SRC,
                    IC_PLOT_SCRIPT_INSTALLED);
            return 2;
        }
        int ck = run_plot_script(script, "--check", "-o", o.plot, (const char *)NULL);
        if (ck != PLOT_OK)   /* no matplotlib, no python, FILE not writable */
            return 2;
        int fd = mkstemp(rows_path);
        B.rows = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!B.rows) {
            fprintf(stderr, "incore speed: %s: %s\n", rows_path, strerror(errno));
            return 2;
        }
    }

    size_t maxlen = 512;       /* the largest modexp operand */
    for (size_t z = 0; z < o.nsizes; z++)
        maxlen = o.sizes[z] > maxlen ? o.sizes[z] : maxlen;
    if (!o.sized && maxlen < xts_sizes[1])
        maxlen = xts_sizes[1];
    /* room for a combined-mode tag after the message (libsodium), and for
     * the GCM-open input: ciphertext || tag || the plaintext it came from */
    size_t room = (2 * maxlen + 64 + 63) / 64 * 64 + 64, mis = o.misalign;
    uint8_t *mem[5];
    for (int k = 0; k < 5; k++)
        mem[k] = aligned_alloc(64, k == 4 ? (o.aad + mis + 63) / 64 * 64 + 64 : room);
    if (!mem[0] || !mem[1] || !mem[2] || !mem[3] || !mem[4]) {
        fprintf(stderr, "incore speed: out of memory for %zu-byte messages\n", maxlen);
        return 1;
    }
    B.buf = mem[0] + mis, B.out = mem[1] + mis, B.ct = mem[2] + mis, B.ref = mem[3];
    B.aad = mem[4] + mis;
    for (size_t i = 0; i < o.aad; i++)
        B.aad[i] = (uint8_t)(i * 29 + 3);

    B.hz = counter_hz(&B.hz_measured);
    for (size_t i = 0; i < NALGS; i++)
        B.cells += o.want[i] ? alg_nsizes(&o, &algs[i]) : 0;
    B.progress = isatty(2) ? "" : NULL;
    B.start = now_s();

    FILE *hdr = o.format == FMT_TABLE || o.format == FMT_MD ? stdout : stderr;
    print_header(&B, hdr);
    if (o.format == FMT_CSV)
        printf("%s\n", CSV_HEADER);

    for (size_t i = 0; i < NALGS; i++)
        if (o.want[i]) {
            /* the XTS rows on their own sizes (xts_sizes): a copy of the
             * options with those, for this algorithm only */
            static speed_opts xo;
            if (is_xts(&algs[i]) && !o.sized) {
                xo = o;
                memcpy(xo.sizes, xts_sizes, sizeof xts_sizes);
                xo.nsizes = alg_nsizes(&o, &algs[i]);
                B.o = &xo;
            }
            bench_alg(&B, &algs[i]);
            B.o = &o;
        }
    if (B.progress)
        fprintf(stderr, "\r\033[K");

    int rc = B.failures ? 1 : 0;
    if (o.plot) {
        fclose(B.rows);
        if (run_plot_script(script, "-o", o.plot, rows_path, (const char *)NULL) != PLOT_OK) {
            rc = 2;
        } else if (o.format == FMT_TABLE) {
            printf("\nplot: %s\n", o.plot);
        }
        unlink(rows_path);
    }
    if (B.failures)
        fprintf(stderr, "incore speed: %d check(s) failed\n", B.failures);
    for (int k = 0; k < 5; k++)
        free(mem[k]);
    return rc;
}
