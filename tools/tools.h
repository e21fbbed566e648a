/* tools.h - the subcommands of the `incore` command, one file each. */
#ifndef INCORE_TOOLS_H
#define INCORE_TOOLS_H

/* tools/sums.c: sha1sum ... sha512sum, crc32, crc32c (coreutils-compatible).
 * argv[0] is the command name; returns the exit status. */
int incore_is_sum_cmd(const char *cmd);
int incore_cmd_sum(const char *algo, int argc, char **argv);

/* tools/speed.c: `incore speed`, throughput of every primitive beside the
 * peers (tools/speed_peers.c).  argv[0] is "speed"; returns the exit status. */
int incore_cmd_speed(int argc, char **argv);

/* tools/rand.c: `incore rand` and `incore rngtest`. */
int incore_cmd_rand(int argc, char **argv);
int incore_cmd_rngtest(int argc, char **argv);

/* tools/info.c: the report of `incore info` (without --cpu), onto f. */
#include <stdio.h>
void incore_info_write(FILE *f);

/* tools/rand.c: the JSON object of `incore rngtest --json` for the n bytes
 * at p (input "buffer"), onto out; 0 when every test passes, 1 when one
 * fails, 2 below 2,500 bytes or out of memory (nothing written). */
#include <stddef.h>
#include <stdint.h>
int incore_rngtest_json(FILE *out, const uint8_t *p, size_t n);

/* tools/info.c: a usage error of `incore CMD` (cmd NULL: of `incore`
 * itself), as every command but the checksum ones reports it: two lines on
 * stderr, "incore CMD: <what is wrong>" and "see 'incore CMD --help'".
 * Returns 2, the exit status of a usage error. */
int incore_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- shared by tools/speed.c and tools/speed_peers.c ------------------- */
#include <stddef.h>
#include <stdint.h>

/* What one measured operation is; every provider implements the same kinds. */
enum speed_kind {
    SK_ECB, SK_CBC_ENC, SK_CBC_DEC, SK_CFB_ENC, SK_CFB_DEC, SK_OFB, SK_CTR,
    SK_GCM_SEAL, SK_GCM_OPEN, SK_HASH, SK_HMAC, SK_CHACHA20, SK_POLY1305,
    SK_C20P1305, SK_XC20P1305, SK_CRC32, SK_CRC32C, SK_XTS_ENC, SK_XTS_DEC,
    SK_C20P1305_OPEN,   /* opens an incore seal, as SK_GCM_OPEN */
    /* AES-GCM sealed and opened through a reusable key object (peer:
     * intel-ipsec-mb's direct calls on keys expanded once), and incore only
     * (no peer has them): sealed through the raw-key one-shot call (key
     * expanded per message); GHASH alone; HKDF (the message as IKM); XTS
     * through the sector-number call, one sector number per data unit */
    SK_GCM_KEY, SK_GCM_KEY_OPEN, SK_GCM_ONESHOT, SK_GHASH, SK_HKDF, SK_XTS_SECTOR,
    SK_MODEXP,   /* param: modulus bits; measured in operations per second */
    /* random bytes: no output to compare, kinds from here on */
    SK_RANDOM,   /* ic_random: no input, output differs per call */
    SK_RANDSRC,  /* one entropy source (param: index in speed.c's name list) */
    SK_HWRAND    /* ic_rand_hw: the selected raw hardware source, no health tests */
};
enum {
    SPEED_OPENSSL,          /* the system's libcrypto.so.3 */
    SPEED_OPENSSL_LATEST,   /* the newest release, scripts/build-openssl-latest.sh */
    SPEED_LIBSODIUM, SPEED_ZLIB, SPEED_ISAL, SPEED_LIBGCRYPT, SPEED_GMP,
    SPEED_IPSECMB, SPEED_IPSECMB_JOB,   /* intel-ipsec-mb: direct API, job API */
    SPEED_NPEERS
};
/* The two OpenSSL peers run the same calls, each on its own library. */
static inline int speed_is_openssl(int peer)
{
    return peer == SPEED_OPENSSL || peer == SPEED_OPENSSL_LATEST;
}

typedef struct speed_alg {
    const char *name;      /* "aes-128-ctr" */
    int kind;              /* enum speed_kind */
    unsigned param;        /* AES key bytes (XTS: both halves); ic_hash_alg for SK_HASH / SK_HMAC */
    const char *prims[2];  /* incore primitives it runs on (for --impl all) */
    const char *peer_name; /* OpenSSL's name for it ("AES-128-CTR", "SHA256") */
} speed_alg;

/* One provider's view of one algorithm at one size.  Every provider gets
 * the same key, IV and message bytes, so their outputs can be compared. */
typedef struct speed_job {
    const speed_alg *alg;
    const uint8_t *key, *iv;   /* fixed test key and IV / nonce          */
    uint8_t *buf;              /* message, transformed in place          */
    uint8_t *out;              /* output of the *_OPEN kinds             */
    const uint8_t *ct;         /* ciphertext || tag the *_OPEN kinds open */
    const uint8_t *aad;        /* AEADs: aadlen bytes of AAD per message  */
    size_t aadlen;             /* (--aad N; 0 by default)                */
    uint8_t aux[64];           /* digest, tag or CRC (little-endian)     */
    int failed;                /* an open refused the tag, or similar    */
    void *state;               /* provider's own (contexts, keys)        */
} speed_job;

/* A CRC into j->aux, least significant byte first (how every provider's
 * CRC is stored for the comparison). */
static inline void speed_put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}
/* Load a peer library; 0 on success, else -1 with the reason in why. */
int  speed_peer_load(int peer, char *why, size_t whylen);
const char *speed_peer_name(int peer);      /* "openssl", ... */
const char *speed_peer_version(int peer);   /* the library's own version */
/* The peer's function measured for a, or NULL when it has no such alg. */
const char *speed_peer_call(int peer, const speed_alg *a);
/* 0 when the peer (loaded) runs a; else -1 with why filled. */
int  speed_peer_setup(int peer, speed_job *j, char *why, size_t whylen);
void speed_peer_run(int peer, speed_job *j, size_t len);
void speed_peer_free(int peer, speed_job *j);
/* An OpenSSL peer's libcrypto function called name (its library opened on
 * first use), or NULL with why filled: what dlsym() gives for the system's
 * library, and the module's own lookup for openssl-latest. */
void *speed_ossl_sym(int peer, const char *name, char *why, size_t whylen);

/* tools/speed_bn.c: the SK_MODEXP rows for incore (peer -1), GMP and
 * OpenSSL; the same contract as the speed_peer_* calls above. */
const char *speed_bn_peer_call(int peer, const speed_alg *a);
const char *speed_bn_impl(const speed_alg *a, const char *selected);
int  speed_bn_setup(int peer, speed_job *j, char *why, size_t whylen);
void speed_bn_run(int peer, speed_job *j, size_t len);
void speed_bn_free(int peer, speed_job *j);
/* tools/speed_ipsecmb.c: intel-ipsec-mb, job = 0 its direct API, 1 its
 * job API; the same contract as the speed_peer_* calls. */
int  speed_ipsecmb_load(char *why, size_t whylen);
const char *speed_ipsecmb_version(void);
const char *speed_ipsecmb_call(int job, const speed_alg *a);
int  speed_ipsecmb_setup(int job, speed_job *j, char *why, size_t whylen);
void speed_ipsecmb_run(int job, speed_job *j, size_t len);
void speed_ipsecmb_free(speed_job *j);

#endif
