/*
 * speed_openssl_latest.c - the shared module behind the `openssl-latest`
 * peer of `incore speed`: the newest OpenSSL release's libcrypto, linked in
 * statically, behind one exported function.
 *
 * Not part of the incore command (CMakeLists.txt leaves it out of the
 * tools): scripts/build-openssl-latest.sh builds OpenSSL's libcrypto.a and
 * links this file with it into openssl-latest.so, exporting nothing but
 * incore_openssl_latest_sym() (a version script) and hiding every libcrypto
 * symbol (--exclude-libs,ALL, -Bsymbolic).  `incore speed` dlopen()s the
 * module beside the system's libcrypto.so.3, and both define the same
 * names (EVP_CipherInit_ex, ...): with nothing but the entry point
 * exported, neither library's calls can bind to the other's functions.
 *
 * incore_openssl_latest_sym(name) returns the address of the libcrypto
 * function called name, as dlsym() would for the shared library, so the
 * measurement code of the `openssl` peer (speed_peers.c, speed_bn.c) runs
 * unchanged on either library.  The table lists exactly the calls those
 * two files look up; the prototypes come from this OpenSSL's own headers,
 * so a call that changed or went away fails the module's build.
 */
#define OPENSSL_SUPPRESS_DEPRECATED   /* RSA_*, SHA256: deprecated, still exported */
#include <string.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>

#if OPENSSL_VERSION_MAJOR < 4
#error "openssl-latest is meant for OpenSSL 4 or newer"
#endif

typedef void (*ossl_fn)(void);

void *incore_openssl_latest_sym(const char *name);

#define F(fn) {#fn, (ossl_fn)fn}
static const struct {
    const char *name;
    ossl_fn fn;
} table[] = {
    /* speed_peers.c: ciphers, digests, MACs, random bytes */
    F(OpenSSL_version), F(EVP_CIPHER_fetch), F(EVP_CIPHER_free), F(EVP_CIPHER_CTX_new),
    F(EVP_CIPHER_CTX_free), F(EVP_CipherInit_ex), F(EVP_CipherUpdate), F(EVP_CipherFinal_ex),
    F(EVP_CIPHER_CTX_set_padding), F(EVP_CIPHER_CTX_ctrl), F(EVP_MD_fetch), F(EVP_MD_free),
    F(EVP_MD_CTX_new), F(EVP_MD_CTX_free), F(EVP_DigestInit_ex), F(EVP_DigestUpdate),
    F(EVP_DigestFinal_ex), F(EVP_MAC_fetch), F(EVP_MAC_free), F(EVP_MAC_CTX_new),
    F(EVP_MAC_CTX_free), F(EVP_MAC_init), F(EVP_MAC_update), F(EVP_MAC_final), F(RAND_bytes),
    /* speed_bn.c: modexp, RSA verification and signing */
    F(BN_CTX_new), F(BN_CTX_free), F(BN_new), F(BN_free), F(BN_bin2bn), F(BN_bn2binpad),
    F(BN_set_flags), F(BN_MONT_CTX_new), F(BN_MONT_CTX_set), F(BN_MONT_CTX_free),
    F(BN_mod_exp_mont_consttime), F(RSA_new), F(RSA_free), F(RSA_set0_key), F(RSA_verify),
    F(SHA256), F(RSA_set0_factors), F(RSA_set0_crt_params), F(EVP_PKEY_new), F(EVP_PKEY_free),
    F(EVP_PKEY_assign), F(EVP_PKEY_CTX_new), F(EVP_PKEY_CTX_free), F(EVP_PKEY_sign_init),
    F(EVP_PKEY_CTX_set_rsa_padding), F(EVP_PKEY_CTX_set_signature_md), F(EVP_sha256),
    F(EVP_PKEY_sign),
};

void *incore_openssl_latest_sym(const char *name)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0) {
            void *p;
            memcpy(&p, &table[i].fn, sizeof p);   /* function -> object pointer, as dlsym */
            return p;
        }
    return NULL;
}
