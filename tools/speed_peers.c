/*
 * speed_peers.c - the peers `incore speed --vs` measures beside incore:
 * OpenSSL's libcrypto (the system's, and the newest release's as built by
 * scripts/build-openssl-latest.sh), libsodium, zlib, ISA-L and libgcrypt
 * (GMP's modexp is in speed_bn.c, intel-ipsec-mb in speed_ipsecmb.c).
 *
 * The trick is that incore depends on none of them: each library is opened
 * at run time with dlopen() and the few functions measured are looked up
 * with dlsym() into function pointers whose prototypes are written out here
 * (from the libraries' public headers), so neither the headers nor the
 * libraries are needed to build the tool, and a missing peer is a line in
 * the report rather than a failure.
 *
 * The two OpenSSL peers run the same code on two libraries in one process:
 * "openssl" is the system's libcrypto.so.3, "openssl-latest" a module
 * (openssl-latest.so, from tools/speed_openssl_latest.c) holding the newest
 * release's libcrypto linked in statically with all of its symbols hidden,
 * so the two never bind to each other's functions.  The module exports one
 * call, incore_openssl_latest_sym(name), which does for it what dlsym()
 * does for the shared library (speed_ossl_sym below).  It is looked for at
 * $INCORE_OPENSSL_LATEST (the .so), else in $INCORE_OPENSSL_LATEST_CACHE,
 * else in ${XDG_CACHE_HOME:-$HOME/.cache}/incore/openssl-VERSION, where the
 * script puts it.
 *
 * Each peer is called the way its own users call it:
 *  - OpenSSL through EVP, with the key set once per context
 *    (EVP_CipherInit_ex with the key at setup) and the IV per message
 *    (EVP_CipherInit_ex with only the IV), as `openssl speed -evp` does;
 *    digests through a reused EVP_MD_CTX (EVP_DigestInit_ex / Update /
 *    Final_ex) with the EVP_MD fetched once; HMAC and Poly1305 through a
 *    reused EVP_MAC_CTX keyed per message (EVP_MAC_init / update / final).
 *  - libsodium through its one-shot calls (crypto_aead_*_encrypt in
 *    combined mode, crypto_stream_chacha20_ietf_xor_ic,
 *    crypto_onetimeauth_poly1305, crypto_hash_sha256/512,
 *    crypto_auth_hmacsha256); AES-256-GCM only where
 *    crypto_aead_aes256gcm_is_available() says the CPU runs it.
 *  - zlib's crc32(0, buf, len) and ISA-L's crc32_gzip_refl(0, buf, len)
 *    (same values as zlib: ISA-L inverts on entry and exit itself) and
 *    crc32_iscsi(buf, len, ~0), whose result is the raw register, so the
 *    CRC-32C value is its complement.
 *  - libgcrypt (GnuPG's, Debian's libgcrypt20) through a cipher handle
 *    opened and keyed once per job (gcry_cipher_open / setkey) with the IV,
 *    counter or nonce set per message, as its users (GnuTLS-style) do;
 *    AEADs with gcry_cipher_gettag / checktag; Poly1305 and HMAC through a
 *    MAC handle keyed per message (gcry_mac_setkey / write / read); hashes
 *    and CRC-32 through gcry_md_hash_buffer (its CRC-32 is zlib's value,
 *    stored big-endian).  gcry_check_version() initialises it once, with
 *    secure memory off (GCRYCTL_DISABLE_SECMEM): nothing here needs it.
 * speed.c checks every peer's output against incore's before it measures,
 * so a table never compares two different operations.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "incore/incore.h"
#include "tools.h"

/* ---- OpenSSL libcrypto (3.0 and newer) ------------------------------------ */
typedef struct evp_opaque evp_opaque;   /* every EVP object is opaque here */
#define EVP_CTRL_AEAD_GET_TAG 0x10     /* openssl/evp.h */
#define EVP_CTRL_AEAD_SET_TAG 0x11
/* OSSL_PARAM as in openssl/core.h, to name HMAC's digest once at setup. */
typedef struct {
    const char *key;
    unsigned int data_type;
    void *data;
    size_t data_size;
    size_t return_size;
} ossl_param;
#define OSSL_PARAM_UTF8_STRING 4
#define OSSL_PARAM_UNMODIFIED ((size_t)-1)

typedef struct {
    const char *(*version)(int);
    evp_opaque *(*cipher_fetch)(void *, const char *, const char *);
    void (*cipher_free)(evp_opaque *);
    evp_opaque *(*cctx_new)(void);
    void (*cctx_free)(evp_opaque *);
    int (*cipher_init)(evp_opaque *, const evp_opaque *, void *, const uint8_t *,
                       const uint8_t *, int);
    int (*cipher_update)(evp_opaque *, uint8_t *, int *, const uint8_t *, int);
    int (*cipher_final)(evp_opaque *, uint8_t *, int *);
    int (*set_padding)(evp_opaque *, int);
    int (*cctx_ctrl)(evp_opaque *, int, int, void *);
    evp_opaque *(*md_fetch)(void *, const char *, const char *);
    void (*md_free)(evp_opaque *);
    evp_opaque *(*mdctx_new)(void);
    void (*mdctx_free)(evp_opaque *);
    int (*digest_init)(evp_opaque *, const evp_opaque *, void *);
    int (*digest_update)(evp_opaque *, const void *, size_t);
    int (*digest_final)(evp_opaque *, uint8_t *, unsigned *);
    evp_opaque *(*mac_fetch)(void *, const char *, const char *);
    void (*mac_free)(evp_opaque *);
    evp_opaque *(*macctx_new)(evp_opaque *);
    void (*macctx_free)(evp_opaque *);
    int (*mac_init)(evp_opaque *, const uint8_t *, size_t, const ossl_param *);
    int (*mac_update)(evp_opaque *, const uint8_t *, size_t);
    int (*mac_final)(evp_opaque *, uint8_t *, size_t *, size_t);
    int (*rand_bytes)(uint8_t *, int);
} ossl_api;
static ossl_api ossl_apis[2];   /* [0] openssl, [1] openssl-latest */

/* Which of the two OpenSSL peers: the index of its library. */
static int ossl_index(int peer)
{
    return peer == SPEED_OPENSSL_LATEST;
}

/* The version of the newest release scripts/build-openssl-latest.sh builds
 * (CMake reads it from the script), which names its cache directory. */
#ifndef IC_OPENSSL_LATEST_VERSION
#define IC_OPENSSL_LATEST_VERSION "4.0.3"
#endif
#define OSSL_LATEST_SCRIPT "scripts/build-openssl-latest.sh"

typedef struct {
    int tried;
    void *h;
    void *(*lookup)(const char *);   /* openssl-latest: the module's entry point */
    const char *name;                /* for messages: the soname or module path */
    char why[4400];
} ossl_library;
static ossl_library ossl_lib[2];
static char ossl_latest_module[4096];   /* the module's path */

/* Where the openssl-latest module is: $INCORE_OPENSSL_LATEST, else
 * openssl-latest.so in $INCORE_OPENSSL_LATEST_CACHE, else in the cache
 * directory the script uses by default. */
static void ossl_latest_path(char *path, size_t len)
{
    const char *e = getenv("INCORE_OPENSSL_LATEST"), *dir = getenv("INCORE_OPENSSL_LATEST_CACHE");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (e && *e)
        snprintf(path, len, "%s", e);
    else if (dir && *dir)
        snprintf(path, len, "%s/openssl-latest.so", dir);
    else if (xdg && *xdg)
        snprintf(path, len, "%s/incore/openssl-%s/openssl-latest.so", xdg, IC_OPENSSL_LATEST_VERSION);
    else
        snprintf(path, len, "%s/.cache/incore/openssl-%s/openssl-latest.so", home ? home : "",
                 IC_OPENSSL_LATEST_VERSION);
}

/* Open the peer's library once: the system's libcrypto, or the module and
 * its entry point.  0, or -1 with L->why set. */
static int ossl_open(int i)
{
    ossl_library *L = &ossl_lib[i];
    if (L->tried)
        return L->h ? 0 : -1;
    L->tried = 1;
    if (i == 0) {
        static const char *const so[] = {"libcrypto.so.3", "libcrypto.so"};
        for (size_t k = 0; k < 2 && !L->h; k++) {
            L->h = dlopen(so[k], RTLD_NOW | RTLD_LOCAL);
            if (!L->h && k == 0) /* the first name's error says what is missing */
                snprintf(L->why, sizeof L->why, "%s", dlerror());
        }
        L->name = so[0];
        return L->h ? 0 : -1;
    }
    const char *path = ossl_latest_module;
    ossl_latest_path(ossl_latest_module, sizeof ossl_latest_module);
    L->name = path;
    if (access(path, F_OK) != 0) {
        snprintf(L->why, sizeof L->why, "no module at %s: build it with " OSSL_LATEST_SCRIPT
                 " (OpenSSL %s from crates.io, needs cargo), or set INCORE_OPENSSL_LATEST to its path",
                 path, IC_OPENSSL_LATEST_VERSION);
        return -1;
    }
    L->h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *f = L->h ? dlsym(L->h, "incore_openssl_latest_sym") : NULL;
    if (!L->h) {
        snprintf(L->why, sizeof L->why, "%s (rebuild it with " OSSL_LATEST_SCRIPT ")", dlerror());
    } else if (!f) {
        snprintf(L->why, sizeof L->why, "%s lacks incore_openssl_latest_sym (not built by " OSSL_LATEST_SCRIPT ")",
                 path);
        L->h = NULL;   /* kept loaded, but unusable */
    } else {
        memcpy(&L->lookup, &f, sizeof f);   /* object <- function pointer, POSIX */
    }
    return L->h ? 0 : -1;
}

void *speed_ossl_sym(int peer, const char *name, char *why, size_t whylen)
{
    int i = ossl_index(peer);
    void *f = NULL;
    if (ossl_open(i) == 0) {
        f = i ? ossl_lib[i].lookup(name) : dlsym(ossl_lib[i].h, name);
        if (!f)
            snprintf(ossl_lib[i].why, sizeof ossl_lib[i].why, "%s lacks %s", ossl_lib[i].name, name);
    }
    if (!f)
        snprintf(why, whylen, "%s", ossl_lib[i].why);
    return f;
}

/* ---- libsodium ----------------------------------------------------------- */
typedef int (*sodium_aead_enc)(uint8_t *c, unsigned long long *clen, const uint8_t *m,
                               unsigned long long mlen, const uint8_t *ad,
                               unsigned long long adlen, const uint8_t *nsec,
                               const uint8_t *npub, const uint8_t *k);
typedef int (*sodium_aead_dec)(uint8_t *m, unsigned long long *mlen, uint8_t *nsec,
                               const uint8_t *c, unsigned long long clen, const uint8_t *ad,
                               unsigned long long adlen, const uint8_t *npub,
                               const uint8_t *k);
static struct {
    int (*init)(void);
    const char *(*version)(void);
    sodium_aead_enc c20p1305_enc, xc20p1305_enc, aesgcm_enc;
    sodium_aead_dec aesgcm_dec, c20p1305_dec;
    int (*aesgcm_available)(void);
    int (*chacha20_xor_ic)(uint8_t *, const uint8_t *, unsigned long long, const uint8_t *,
                           uint32_t, const uint8_t *);
    int (*poly1305)(uint8_t *, const uint8_t *, unsigned long long, const uint8_t *);
    int (*sha256)(uint8_t *, const uint8_t *, unsigned long long);
    int (*sha512)(uint8_t *, const uint8_t *, unsigned long long);
    int (*hmacsha256)(uint8_t *, const uint8_t *, unsigned long long, const uint8_t *);
} sod;

/* ---- zlib and ISA-L ------------------------------------------------------ */
static struct {
    const char *(*version)(void);
    unsigned long (*crc32)(unsigned long, const uint8_t *, unsigned);
} zlib;
static struct {
    uint32_t (*crc32_gzip_refl)(uint32_t, const uint8_t *, uint64_t);
    unsigned (*crc32_iscsi)(uint8_t *, int, unsigned);
} isal;

/* ---- libgcrypt (prototypes and constants from gcrypt.h 1.10) ------------ */
typedef struct gcry_opaque gcry_opaque;   /* gcry_cipher_hd_t, gcry_mac_hd_t */
enum {
    GCRYCTL_DISABLE_SECMEM = 37, GCRYCTL_INITIALIZATION_FINISHED = 38,
    GCRY_CIPHER_AES128 = 7, GCRY_CIPHER_AES192 = 8, GCRY_CIPHER_AES256 = 9, GCRY_CIPHER_CHACHA20 = 316,
    GCRY_MODE_ECB = 1, GCRY_MODE_CFB = 2, GCRY_MODE_CBC = 3, GCRY_MODE_STREAM = 4, GCRY_MODE_OFB = 5,
    GCRY_MODE_CTR = 6, GCRY_MODE_GCM = 9, GCRY_MODE_POLY1305 = 10, GCRY_MODE_XTS = 13,
    GCRY_MD_SHA1 = 2, GCRY_MD_SHA256 = 8, GCRY_MD_SHA384 = 9, GCRY_MD_SHA512 = 10, GCRY_MD_SHA224 = 11,
    GCRY_MD_CRC32 = 302, GCRY_MD_SHA512_256 = 327,
    GCRY_MAC_HMAC_SHA256 = 101, GCRY_MAC_POLY1305 = 501
};
static struct {
    const char *(*check_version)(const char *);
    unsigned (*control)(int, ...);
    unsigned (*cipher_open)(gcry_opaque **, int, int, unsigned);
    void (*cipher_close)(gcry_opaque *);
    unsigned (*cipher_setkey)(gcry_opaque *, const void *, size_t);
    unsigned (*cipher_setiv)(gcry_opaque *, const void *, size_t);
    unsigned (*cipher_setctr)(gcry_opaque *, const void *, size_t);
    unsigned (*cipher_encrypt)(gcry_opaque *, void *, size_t, const void *, size_t);
    unsigned (*cipher_decrypt)(gcry_opaque *, void *, size_t, const void *, size_t);
    unsigned (*cipher_gettag)(gcry_opaque *, void *, size_t);
    unsigned (*cipher_checktag)(gcry_opaque *, const void *, size_t);
    unsigned (*cipher_authenticate)(gcry_opaque *, const void *, size_t);
    void (*md_hash_buffer)(int, void *, const void *, size_t);
    unsigned (*mac_open)(gcry_opaque **, int, unsigned, void *);
    void (*mac_close)(gcry_opaque *);
    unsigned (*mac_setkey)(gcry_opaque *, const void *, size_t);
    unsigned (*mac_write)(gcry_opaque *, const void *, size_t);
    unsigned (*mac_read)(gcry_opaque *, void *, size_t *);
    const char *version;
} gcry;

/* One symbol to look up: where to store it and its name. */
typedef struct {
    void *slot;
    const char *name;
} sym;
#define SYM(var, name) {(void *)&(var), name}

typedef struct {
    const char *name;
    const char *sonames[4];
    const sym *syms;
    size_t nsyms;
    int loaded;               /* 0 not tried, 1 ok, -1 failed */
    char why[256];
} peer_lib;

#define OSYM(field, name) {offsetof(ossl_api, field), name}
/* The calls of the OpenSSL peers, by their place in ossl_api. */
static const struct {
    size_t off;
    const char *name;
} ossl_syms[] = {
    OSYM(version, "OpenSSL_version"),
    OSYM(cipher_fetch, "EVP_CIPHER_fetch"),
    OSYM(cipher_free, "EVP_CIPHER_free"),
    OSYM(cctx_new, "EVP_CIPHER_CTX_new"),
    OSYM(cctx_free, "EVP_CIPHER_CTX_free"),
    OSYM(cipher_init, "EVP_CipherInit_ex"),
    OSYM(cipher_update, "EVP_CipherUpdate"),
    OSYM(cipher_final, "EVP_CipherFinal_ex"),
    OSYM(set_padding, "EVP_CIPHER_CTX_set_padding"),
    OSYM(cctx_ctrl, "EVP_CIPHER_CTX_ctrl"),
    OSYM(md_fetch, "EVP_MD_fetch"),
    OSYM(md_free, "EVP_MD_free"),
    OSYM(mdctx_new, "EVP_MD_CTX_new"),
    OSYM(mdctx_free, "EVP_MD_CTX_free"),
    OSYM(digest_init, "EVP_DigestInit_ex"),
    OSYM(digest_update, "EVP_DigestUpdate"),
    OSYM(digest_final, "EVP_DigestFinal_ex"),
    OSYM(mac_fetch, "EVP_MAC_fetch"),
    OSYM(mac_free, "EVP_MAC_free"),
    OSYM(macctx_new, "EVP_MAC_CTX_new"),
    OSYM(macctx_free, "EVP_MAC_CTX_free"),
    OSYM(mac_init, "EVP_MAC_init"),
    OSYM(mac_update, "EVP_MAC_update"),
    OSYM(mac_final, "EVP_MAC_final"),
    OSYM(rand_bytes, "RAND_bytes"),
};
static const sym sod_syms[] = {
    SYM(sod.init, "sodium_init"),
    SYM(sod.version, "sodium_version_string"),
    SYM(sod.c20p1305_enc, "crypto_aead_chacha20poly1305_ietf_encrypt"),
    SYM(sod.xc20p1305_enc, "crypto_aead_xchacha20poly1305_ietf_encrypt"),
    SYM(sod.aesgcm_enc, "crypto_aead_aes256gcm_encrypt"),
    SYM(sod.aesgcm_dec, "crypto_aead_aes256gcm_decrypt"),
    SYM(sod.c20p1305_dec, "crypto_aead_chacha20poly1305_ietf_decrypt"),
    SYM(sod.aesgcm_available, "crypto_aead_aes256gcm_is_available"),
    SYM(sod.chacha20_xor_ic, "crypto_stream_chacha20_ietf_xor_ic"),
    SYM(sod.poly1305, "crypto_onetimeauth_poly1305"),
    SYM(sod.sha256, "crypto_hash_sha256"),
    SYM(sod.sha512, "crypto_hash_sha512"),
    SYM(sod.hmacsha256, "crypto_auth_hmacsha256"),
};
static const sym zlib_syms[] = {
    SYM(zlib.version, "zlibVersion"),
    SYM(zlib.crc32, "crc32"),
};
static const sym isal_syms[] = {
    SYM(isal.crc32_gzip_refl, "crc32_gzip_refl"),
    SYM(isal.crc32_iscsi, "crc32_iscsi"),
};

static const sym gcry_syms[] = {
    SYM(gcry.check_version, "gcry_check_version"),
    SYM(gcry.control, "gcry_control"),
    SYM(gcry.cipher_open, "gcry_cipher_open"),
    SYM(gcry.cipher_close, "gcry_cipher_close"),
    SYM(gcry.cipher_setkey, "gcry_cipher_setkey"),
    SYM(gcry.cipher_setiv, "gcry_cipher_setiv"),
    SYM(gcry.cipher_setctr, "gcry_cipher_setctr"),
    SYM(gcry.cipher_encrypt, "gcry_cipher_encrypt"),
    SYM(gcry.cipher_decrypt, "gcry_cipher_decrypt"),
    SYM(gcry.cipher_gettag, "gcry_cipher_gettag"),
    SYM(gcry.cipher_checktag, "gcry_cipher_checktag"),
    SYM(gcry.cipher_authenticate, "gcry_cipher_authenticate"),
    SYM(gcry.md_hash_buffer, "gcry_md_hash_buffer"),
    SYM(gcry.mac_open, "gcry_mac_open"),
    SYM(gcry.mac_close, "gcry_mac_close"),
    SYM(gcry.mac_setkey, "gcry_mac_setkey"),
    SYM(gcry.mac_write, "gcry_mac_write"),
    SYM(gcry.mac_read, "gcry_mac_read"),
};

#define NSYMS(a) (sizeof(a) / sizeof((a)[0]))
static peer_lib libs[SPEED_NPEERS] = {
    /* ossl_load: the system's libcrypto, and the module of the newest release */
    [SPEED_OPENSSL] = {"openssl", {NULL}, NULL, 0, 0, ""},
    [SPEED_OPENSSL_LATEST] = {"openssl-latest", {NULL}, NULL, 0, 0, ""},
    [SPEED_LIBSODIUM] = {"libsodium", {"libsodium.so", "libsodium.so.23", "libsodium.so.26"},
                         sod_syms, NSYMS(sod_syms), 0, ""},
    [SPEED_ZLIB] = {"zlib", {"libz.so.1", "libz.so"}, zlib_syms, NSYMS(zlib_syms), 0, ""},
    [SPEED_ISAL] = {"isal", {"libisal.so.2", "libisal.so"}, isal_syms, NSYMS(isal_syms), 0, ""},
    [SPEED_LIBGCRYPT] = {"libgcrypt", {"libgcrypt.so.20", "libgcrypt.so"}, gcry_syms, NSYMS(gcry_syms), 0, ""},
    /* GMP: only the modexp rows; speed_bn.c looks its functions up */
    [SPEED_GMP] = {"gmp", {"libgmp.so.10", "libgmp.so"}, NULL, 0, 0, ""},
    /* speed_ipsecmb.c loads and calls it */
    [SPEED_IPSECMB] = {"ipsecmb", {NULL}, NULL, 0, 0, ""},
    [SPEED_IPSECMB_JOB] = {"ipsecmb-job", {NULL}, NULL, 0, 0, ""},
};

static int is_ipsecmb(int peer)
{
    return peer == SPEED_IPSECMB || peer == SPEED_IPSECMB_JOB;
}

const char *speed_peer_name(int peer)
{
    return peer >= 0 && peer < SPEED_NPEERS ? libs[peer].name : NULL;
}

/* An OpenSSL peer: its library (speed_ossl_sym) and every call of
 * ossl_syms into its ossl_api. */
static void ossl_load(int peer)
{
    peer_lib *L = &libs[peer];
    ossl_api *api = &ossl_apis[ossl_index(peer)];
    L->loaded = 1;
    for (size_t i = 0; i < NSYMS(ossl_syms); i++) {
        void *f = speed_ossl_sym(peer, ossl_syms[i].name, L->why, sizeof L->why);
        if (!f) {
            L->loaded = -1;
            return;
        }
        memcpy((char *)api + ossl_syms[i].off, &f, sizeof f);   /* object <- function pointer, POSIX */
    }
}

/* dlopen the first soname that exists, then every symbol; the handle is
 * kept for the life of the process (the peers are never unloaded). */
int speed_peer_load(int peer, char *why, size_t whylen)
{
    if (is_ipsecmb(peer))
        return speed_ipsecmb_load(why, whylen);
    peer_lib *L = &libs[peer];
    if (L->loaded == 0 && speed_is_openssl(peer)) {
        ossl_load(peer);
    } else if (L->loaded == 0) {
        void *h = NULL;
        for (int i = 0; i < 4 && L->sonames[i] && !h; i++) {
            h = dlopen(L->sonames[i], RTLD_NOW | RTLD_LOCAL);
            if (!h && i == 0) /* the first name's error says what is missing */
                snprintf(L->why, sizeof L->why, "%s", dlerror());
        }
        L->loaded = h ? 1 : -1;
        for (size_t i = 0; h && i < L->nsyms; i++) {
            void *f = dlsym(h, L->syms[i].name);
            if (!f) {
                snprintf(L->why, sizeof L->why, "%s lacks %s", L->sonames[0], L->syms[i].name);
                L->loaded = -1;
                break;
            }
            memcpy(L->syms[i].slot, &f, sizeof f); /* object <- function pointer, POSIX */
        }
        if (L->loaded == 1 && peer == SPEED_LIBGCRYPT) {
            /* initialise once: version check (also returns the version),
             * no secure memory, initialisation finished */
            gcry.version = gcry.check_version(NULL);
            gcry.control(GCRYCTL_DISABLE_SECMEM, 0);
            gcry.control(GCRYCTL_INITIALIZATION_FINISHED, 0);
            if (!gcry.version) {
                snprintf(L->why, sizeof L->why, "gcry_check_version() failed");
                L->loaded = -1;
            }
        }
        if (L->loaded == 1 && peer == SPEED_LIBSODIUM && sod.init() < 0) {
            snprintf(L->why, sizeof L->why, "sodium_init() failed");
            L->loaded = -1;
        }
    }
    if (L->loaded < 0)
        snprintf(why, whylen, "%s", L->why);
    return L->loaded > 0 ? 0 : -1;
}

/* The library's own version string, for the report header. */
const char *speed_peer_version(int peer)
{
    if (is_ipsecmb(peer))
        return speed_ipsecmb_version();
    if (libs[peer].loaded <= 0)
        return "";
    switch (peer) {
    case SPEED_OPENSSL:
    case SPEED_OPENSSL_LATEST: return ossl_apis[ossl_index(peer)].version(0);   /* OPENSSL_VERSION */
    case SPEED_LIBSODIUM: return sod.version();
    case SPEED_ZLIB: return zlib.version();
    case SPEED_LIBGCRYPT: return gcry.version;
    default: return libs[peer].sonames[0];       /* ISA-L exports no version call */
    }
}

/* Which peers have which algorithm, and the API measured there. */
const char *speed_peer_call(int peer, const speed_alg *a)
{
    int k = a->kind;
    if (k == SK_MODEXP)
        return speed_bn_peer_call(peer, a);
    if (is_ipsecmb(peer))
        return speed_ipsecmb_call(peer == SPEED_IPSECMB_JOB, a);
    switch (peer) {
    case SPEED_OPENSSL:
    case SPEED_OPENSSL_LATEST:
        if (k == SK_RANDOM || k == SK_RANDSRC)   /* its DRBG: the peer of ours and of the sources */
            return "RAND_bytes";
        if (k <= SK_GCM_OPEN || k == SK_CHACHA20 || k == SK_C20P1305 || k == SK_C20P1305_OPEN || k == SK_XTS_ENC ||
            k == SK_XTS_DEC)
            return "EVP_Cipher";
        if (k == SK_HASH)
            return "EVP_Digest";
        if (k == SK_HMAC || k == SK_POLY1305)
            return "EVP_MAC";
        return NULL;
    case SPEED_LIBSODIUM:
        switch (k) {
        case SK_GCM_SEAL: return a->param == 32 ? "crypto_aead_aes256gcm_encrypt" : NULL;
        case SK_GCM_OPEN: return a->param == 32 ? "crypto_aead_aes256gcm_decrypt" : NULL;
        case SK_C20P1305: return "crypto_aead_chacha20poly1305_ietf_encrypt";
        case SK_C20P1305_OPEN: return "crypto_aead_chacha20poly1305_ietf_decrypt";
        case SK_XC20P1305: return "crypto_aead_xchacha20poly1305_ietf_encrypt";
        case SK_CHACHA20: return "crypto_stream_chacha20_ietf_xor_ic";
        case SK_POLY1305: return "crypto_onetimeauth_poly1305";
        case SK_HMAC: return a->param == IC_HASH_SHA256 ? "crypto_auth_hmacsha256" : NULL;
        case SK_HASH:
            return a->param == IC_HASH_SHA256   ? "crypto_hash_sha256"
                   : a->param == IC_HASH_SHA512 ? "crypto_hash_sha512"
                                                : NULL;
        default: return NULL;
        }
    case SPEED_ZLIB: return k == SK_CRC32 ? "crc32" : NULL;
    case SPEED_LIBGCRYPT:
        switch (k) {
        case SK_C20P1305: case SK_C20P1305_OPEN: case SK_GCM_SEAL: case SK_GCM_OPEN: return "gcry_cipher (AEAD)";
        case SK_XC20P1305: return NULL;     /* libgcrypt has no XChaCha20 */
        case SK_POLY1305: return "gcry_mac";
        case SK_HMAC: return a->param == IC_HASH_SHA256 ? "gcry_mac" : NULL;
        case SK_HASH: case SK_CRC32: return "gcry_md_hash_buffer";
        case SK_CRC32C: case SK_RANDOM: case SK_RANDSRC: return NULL;   /* (not measured: gcry_randomize) */
        case SK_GCM_KEY: case SK_GCM_KEY_OPEN: case SK_GCM_ONESHOT: case SK_GHASH: case SK_HKDF: case SK_HWRAND:
        case SK_XTS_SECTOR: return NULL;
        default: return "gcry_cipher";      /* AES modes, ChaCha20 */
        }
    case SPEED_ISAL:
        return k == SK_CRC32 ? "crc32_gzip_refl" : k == SK_CRC32C ? "crc32_iscsi" : NULL;
    default: return NULL;
    }
}

/* OpenSSL objects of one job, and the library they belong to. */
typedef struct {
    const ossl_api *api;
    evp_opaque *cipher, *cctx, *md, *mdctx, *mac, *macctx;
} ossl_state;

static int ossl_setup(int peer, speed_job *j, char *why, size_t whylen)
{
    const speed_alg *a = j->alg;
    ossl_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    j->state = s;
    const ossl_api *const o = s->api = &ossl_apis[ossl_index(peer)];
    const char *what = a->peer_name;
    if (a->kind == SK_RANDOM || a->kind == SK_RANDSRC) {
        uint8_t b[16];   /* the first call seeds: keep it out of the timing */
        return o->rand_bytes(b, sizeof b) == 1 ? 0 : -1;
    }
    if (a->kind == SK_HASH) {
        s->md = o->md_fetch(NULL, what, NULL);
        s->mdctx = s->md ? o->mdctx_new() : NULL;
        if (!s->mdctx)
            goto fail;
    } else if (a->kind == SK_HMAC || a->kind == SK_POLY1305) {
        s->mac = o->mac_fetch(NULL, a->kind == SK_HMAC ? "HMAC" : "POLY1305", NULL);
        s->macctx = s->mac ? o->macctx_new(s->mac) : NULL;
        if (!s->macctx)
            goto fail;
        if (a->kind == SK_HMAC) {
            /* The digest is a context parameter, set once with the first key. */
            ossl_param p[2] = {{"digest", OSSL_PARAM_UTF8_STRING, (void *)what, strlen(what),
                                OSSL_PARAM_UNMODIFIED},
                               {NULL, 0, NULL, 0, 0}};
            if (o->mac_init(s->macctx, j->key, 32, p) != 1)
                goto fail;
        }
    } else {
        int enc = a->kind != SK_CBC_DEC && a->kind != SK_CFB_DEC && a->kind != SK_GCM_OPEN &&
                  a->kind != SK_C20P1305_OPEN && a->kind != SK_XTS_DEC;
        s->cipher = o->cipher_fetch(NULL, what, NULL);
        s->cctx = s->cipher ? o->cctx_new() : NULL;
        if (!s->cctx || o->cipher_init(s->cctx, s->cipher, NULL, j->key, NULL, enc) != 1)
            goto fail;
        o->set_padding(s->cctx, 0);
    }
    return 0;
fail:
    snprintf(why, whylen, "OpenSSL has no %s here", what);
    return -1;
}

/* ChaCha20 in EVP takes a 16-byte IV: the 32-bit block counter (little
 * endian) then the 96-bit nonce, RFC 8439 section 2.3 state words 12..15;
 * incore and libsodium are measured from counter 1, so is OpenSSL. */
static void ossl_chacha_iv(uint8_t iv16[16], const uint8_t *nonce)
{
    memset(iv16, 0, 4);
    iv16[0] = 1;
    memcpy(iv16 + 4, nonce, 12);
}

static void ossl_run(speed_job *j, size_t len)
{
    ossl_state *s = j->state;
    const ossl_api *const o = s->api;
    int n = 0, k = j->alg->kind;
    unsigned dn = 0;
    size_t mn = 0;
    uint8_t iv16[16];
    switch (k) {
    case SK_RANDOM:
    case SK_RANDSRC:
        if (o->rand_bytes(j->buf, (int)len) != 1)
            j->failed = 1;
        return;
    case SK_HASH:
        o->digest_init(s->mdctx, s->md, NULL);
        o->digest_update(s->mdctx, j->buf, len);
        o->digest_final(s->mdctx, j->aux, &dn);
        return;
    case SK_HMAC:
    case SK_POLY1305:
        o->mac_init(s->macctx, j->key, 32, NULL);
        o->mac_update(s->macctx, j->buf, len);
        o->mac_final(s->macctx, j->aux, &mn, sizeof j->aux);
        return;
    case SK_ECB: /* no IV: the key schedule set at setup is all */
        o->cipher_update(s->cctx, j->buf, &n, j->buf, (int)len);
        return;
    case SK_GCM_SEAL:
    case SK_C20P1305:
        o->cipher_init(s->cctx, NULL, NULL, NULL, j->iv, -1);
        if (j->aadlen)   /* out NULL: AAD */
            o->cipher_update(s->cctx, NULL, &n, j->aad, (int)j->aadlen);
        o->cipher_update(s->cctx, j->buf, &n, j->buf, (int)len);
        o->cipher_final(s->cctx, j->buf + n, &n);
        o->cctx_ctrl(s->cctx, EVP_CTRL_AEAD_GET_TAG, 16, j->aux);
        return;
    case SK_GCM_OPEN:
    case SK_C20P1305_OPEN: {
        uint8_t tag[16];
        memcpy(tag, j->ct + len, 16);
        o->cipher_init(s->cctx, NULL, NULL, NULL, j->iv, -1);
        if (j->aadlen)
            o->cipher_update(s->cctx, NULL, &n, j->aad, (int)j->aadlen);
        o->cipher_update(s->cctx, j->out, &n, j->ct, (int)len);
        o->cctx_ctrl(s->cctx, EVP_CTRL_AEAD_SET_TAG, 16, tag);
        if (o->cipher_final(s->cctx, j->out + n, &n) <= 0)
            j->failed = 1;
        return;
    }
    case SK_CHACHA20:
        ossl_chacha_iv(iv16, j->iv);
        o->cipher_init(s->cctx, NULL, NULL, NULL, iv16, -1);
        o->cipher_update(s->cctx, j->buf, &n, j->buf, (int)len);
        return;
    default: /* CBC, CFB, OFB, CTR: the IV per message, the key kept */
        o->cipher_init(s->cctx, NULL, NULL, NULL, j->iv, -1);
        o->cipher_update(s->cctx, j->buf, &n, j->buf, (int)len);
        return;
    }
}

static void ossl_free(speed_job *j)
{
    ossl_state *s = j->state;
    if (!s)
        return;
    const ossl_api *const o = s->api;
    if (s->cctx) o->cctx_free(s->cctx);
    if (s->cipher) o->cipher_free(s->cipher);
    if (s->mdctx) o->mdctx_free(s->mdctx);
    if (s->md) o->md_free(s->md);
    if (s->macctx) o->macctx_free(s->macctx);
    if (s->mac) o->mac_free(s->mac);
    free(s);
}

static void sodium_run(speed_job *j, size_t len)
{
    unsigned long long n;
    switch (j->alg->kind) {
    case SK_GCM_SEAL:
    case SK_C20P1305:
    case SK_XC20P1305: {
        sodium_aead_enc f = j->alg->kind == SK_GCM_SEAL   ? sod.aesgcm_enc
                            : j->alg->kind == SK_C20P1305 ? sod.c20p1305_enc
                                                          : sod.xc20p1305_enc;
        /* combined mode: the tag lands right after the ciphertext */
        f(j->buf, &n, j->buf, len, j->aad, j->aadlen, NULL, j->iv, j->key);
        memcpy(j->aux, j->buf + len, 16);
        return;
    }
    case SK_GCM_OPEN:
    case SK_C20P1305_OPEN:
        if ((j->alg->kind == SK_GCM_OPEN ? sod.aesgcm_dec : sod.c20p1305_dec)(j->out, &n, NULL, j->ct, len + 16, j->aad,
                                                                              j->aadlen, j->iv, j->key) != 0)
            j->failed = 1;
        return;
    case SK_CHACHA20: sod.chacha20_xor_ic(j->buf, j->buf, len, j->iv, 1, j->key); return;
    case SK_POLY1305: sod.poly1305(j->aux, j->buf, len, j->key); return;
    case SK_HMAC: sod.hmacsha256(j->aux, j->buf, len, j->key); return;
    case SK_HASH:
        (j->alg->param == IC_HASH_SHA256 ? sod.sha256 : sod.sha512)(j->aux, j->buf, len);
        return;
    default: return;
    }
}

/* libgcrypt handles of one job: a cipher handle keyed at setup, or a MAC
 * handle; hashes need neither. */
typedef struct {
    gcry_opaque *cipher, *mac;
    int md;
} gcry_state;

static int gcry_md_of(unsigned param)
{
    switch (param) {
    case IC_HASH_SHA1: return GCRY_MD_SHA1;
    case IC_HASH_SHA224: return GCRY_MD_SHA224;
    case IC_HASH_SHA256: return GCRY_MD_SHA256;
    case IC_HASH_SHA384: return GCRY_MD_SHA384;
    case IC_HASH_SHA512: return GCRY_MD_SHA512;
    case IC_HASH_SHA512_256: return GCRY_MD_SHA512_256;
    default: return 0;
    }
}

static int gcry_setup(speed_job *j, char *why, size_t whylen)
{
    const speed_alg *a = j->alg;
    gcry_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    j->state = s;
    int k = a->kind, algo = 0, mode = 0;
    unsigned keylen = 32;
    switch (k) {
    case SK_HASH:
        s->md = gcry_md_of(a->param);
        if (!s->md)
            goto fail;
        return 0;
    case SK_CRC32: s->md = GCRY_MD_CRC32; return 0;
    case SK_HMAC:
    case SK_POLY1305:
        if (gcry.mac_open(&s->mac, k == SK_HMAC ? GCRY_MAC_HMAC_SHA256 : GCRY_MAC_POLY1305, 0, NULL) != 0)
            goto fail;
        return 0;
    case SK_CHACHA20: algo = GCRY_CIPHER_CHACHA20; mode = GCRY_MODE_STREAM; break;
    case SK_C20P1305:
    case SK_C20P1305_OPEN: algo = GCRY_CIPHER_CHACHA20; mode = GCRY_MODE_POLY1305; break;
    case SK_XTS_ENC:
    case SK_XTS_DEC:   /* the key is key1 || key2: two AES keys of half the length */
        keylen = a->param;
        algo = keylen == 32 ? GCRY_CIPHER_AES128 : GCRY_CIPHER_AES256;
        mode = GCRY_MODE_XTS;
        break;
    default:
        keylen = a->param;
        algo = keylen == 16 ? GCRY_CIPHER_AES128 : keylen == 24 ? GCRY_CIPHER_AES192 : GCRY_CIPHER_AES256;
        mode = k == SK_ECB ? GCRY_MODE_ECB : k == SK_CBC_ENC || k == SK_CBC_DEC ? GCRY_MODE_CBC
             : k == SK_CFB_ENC || k == SK_CFB_DEC ? GCRY_MODE_CFB : k == SK_OFB ? GCRY_MODE_OFB
             : k == SK_CTR ? GCRY_MODE_CTR : GCRY_MODE_GCM;
    }
    if (gcry.cipher_open(&s->cipher, algo, mode, 0) != 0 || gcry.cipher_setkey(s->cipher, j->key, keylen) != 0)
        goto fail;
    return 0;
fail:
    snprintf(why, whylen, "libgcrypt has no %s here", a->name);
    return -1;
}

static void gcry_run(speed_job *j, size_t len)
{
    gcry_state *s = j->state;
    int k = j->alg->kind;
    size_t n = sizeof j->aux;
    uint8_t iv16[16];
    switch (k) {
    case SK_HASH: gcry.md_hash_buffer(s->md, j->aux, j->buf, len); return;
    case SK_CRC32: {
        uint8_t be[4];
        gcry.md_hash_buffer(s->md, be, j->buf, len);
        speed_put_le32(j->aux, (uint32_t)be[0] << 24 | (uint32_t)be[1] << 16 | (uint32_t)be[2] << 8 | be[3]);
        return;
    }
    case SK_HMAC:
    case SK_POLY1305:
        gcry.mac_setkey(s->mac, j->key, 32);
        gcry.mac_write(s->mac, j->buf, len);
        gcry.mac_read(s->mac, j->aux, &n);
        return;
    case SK_CHACHA20:   /* 16-byte IV: counter 1 (little-endian) || nonce, as OpenSSL */
        ossl_chacha_iv(iv16, j->iv);
        gcry.cipher_setiv(s->cipher, iv16, 16);
        gcry.cipher_encrypt(s->cipher, j->buf, len, NULL, 0);
        return;
    case SK_C20P1305:
    case SK_GCM_SEAL:
        gcry.cipher_setiv(s->cipher, j->iv, 12);
        if (j->aadlen)
            gcry.cipher_authenticate(s->cipher, j->aad, j->aadlen);
        gcry.cipher_encrypt(s->cipher, j->buf, len, NULL, 0);
        gcry.cipher_gettag(s->cipher, j->aux, 16);
        return;
    case SK_GCM_OPEN:
    case SK_C20P1305_OPEN:
        gcry.cipher_setiv(s->cipher, j->iv, 12);
        if (j->aadlen)
            gcry.cipher_authenticate(s->cipher, j->aad, j->aadlen);
        gcry.cipher_decrypt(s->cipher, j->out, len, j->ct, len);
        if (gcry.cipher_checktag(s->cipher, j->ct + len, 16) != 0)
            j->failed = 1;
        return;
    case SK_ECB: gcry.cipher_encrypt(s->cipher, j->buf, len, NULL, 0); return;
    case SK_CTR: gcry.cipher_setctr(s->cipher, j->iv, 16); gcry.cipher_encrypt(s->cipher, j->buf, len, NULL, 0); return;
    case SK_CBC_DEC:
    case SK_CFB_DEC:
    case SK_XTS_DEC:   /* XTS: the IV is the 16-byte tweak of the data unit */
        gcry.cipher_setiv(s->cipher, j->iv, 16);
        gcry.cipher_decrypt(s->cipher, j->buf, len, NULL, 0);
        return;
    default:   /* CBC / CFB encryption, OFB, XTS encryption */
        gcry.cipher_setiv(s->cipher, j->iv, 16);
        gcry.cipher_encrypt(s->cipher, j->buf, len, NULL, 0);
        return;
    }
}

static void gcry_free(speed_job *j)
{
    gcry_state *s = j->state;
    if (!s)
        return;
    if (s->cipher) gcry.cipher_close(s->cipher);
    if (s->mac) gcry.mac_close(s->mac);
    free(s);
}

int speed_peer_setup(int peer, speed_job *j, char *why, size_t whylen)
{
    j->state = NULL;
    if (speed_peer_load(peer, why, whylen) != 0)
        return -1;
    if (!speed_peer_call(peer, j->alg)) {
        snprintf(why, whylen, "%s has no %s", libs[peer].name, j->alg->name);
        return -1;
    }
    if (j->alg->kind == SK_MODEXP)
        return speed_bn_setup(peer, j, why, whylen);
    if (is_ipsecmb(peer))
        return speed_ipsecmb_setup(peer == SPEED_IPSECMB_JOB, j, why, whylen);
    if (speed_is_openssl(peer))
        return ossl_setup(peer, j, why, whylen);
    if (peer == SPEED_LIBGCRYPT)
        return gcry_setup(j, why, whylen);
    if (peer == SPEED_LIBSODIUM && (j->alg->kind == SK_GCM_SEAL || j->alg->kind == SK_GCM_OPEN) &&
        !sod.aesgcm_available()) {
        snprintf(why, whylen, "libsodium's AES-256-GCM needs AES-NI and PCLMUL");
        return -1;
    }
    return 0;
}

void speed_peer_run(int peer, speed_job *j, size_t len)
{
    if (j->alg->kind == SK_MODEXP) {
        speed_bn_run(peer, j, len);
        return;
    }
    if (is_ipsecmb(peer)) {
        speed_ipsecmb_run(peer == SPEED_IPSECMB_JOB, j, len);
        return;
    }
    switch (peer) {
    case SPEED_OPENSSL:
    case SPEED_OPENSSL_LATEST: ossl_run(j, len); return;
    case SPEED_LIBSODIUM: sodium_run(j, len); return;
    case SPEED_LIBGCRYPT: gcry_run(j, len); return;
    case SPEED_ZLIB: speed_put_le32(j->aux, (uint32_t)zlib.crc32(0, j->buf, (unsigned)len)); return;
    case SPEED_ISAL:
        if (j->alg->kind == SK_CRC32)
            speed_put_le32(j->aux, isal.crc32_gzip_refl(0, j->buf, len));
        else
            speed_put_le32(j->aux, ~isal.crc32_iscsi(j->buf, (int)len, 0xffffffffu));
        return;
    default: return;
    }
}

void speed_peer_free(int peer, speed_job *j)
{
    if (j->alg->kind == SK_MODEXP) {
        speed_bn_free(peer, j);
        return;
    }
    if (speed_is_openssl(peer))
        ossl_free(j);
    if (peer == SPEED_LIBGCRYPT)
        gcry_free(j);
    if (is_ipsecmb(peer))
        speed_ipsecmb_free(j);
    j->state = NULL;
}
