/*
 * fuzz_rsa.c - the RSA private-key calls (incore/rsa.h) on one fixed
 * 2048-bit key (tests/rsa_testkey.h), loaded once per available "montmul"
 * implementation (a key records the implementation selected at its init).
 *
 * The first byte picks one of four operations, with hashes and lengths
 * from the input:
 *   0  OAEP decryption of fuzzer bytes of any length: the status is IC_OK
 *      or IC_ERR_AUTH and nothing else (rsa.h: every ciphertext defect is
 *      the one status), on IC_ERR_AUTH neither out nor *outlen is touched,
 *      on IC_OK the message fits k - 2 hLen - 2; every implementation gives
 *      the same status and bytes (the blinding differs on every call, so a
 *      blinding bug shows as a disagreement).
 *   1  OAEP round trip: a message, label and seed from the input,
 *      encrypted with the public half and decrypted under every
 *      implementation; then one flipped ciphertext bit must be refused.
 *   2  PKCS #1 v1.5 signature of a message: identical under every
 *      implementation (it is deterministic), verified by the public half;
 *      one flipped bit must fail to verify.
 *   3  PSS with the caller's salt of 0..300 bytes: IC_ERR_PARAM exactly
 *      when the salt cannot fit (emLen < hLen + sLen + 2), else the same
 *      signature everywhere and it verifies with that salt length.
 * Each verify in 2 and 3 runs in the message and the _digest form too,
 * which must agree.
 * Nothing is written outside the outputs (canaries around them).
 */
#include "fuzz_common.h"
#include "../rsa_testkey.h"

#define K 256                     /* the key's modulus bytes              */
#define MAX_IMPLS 8

static ic_rsa_private_key keys[MAX_IMPLS];
static size_t key_impl[MAX_IMPLS];
static size_t nkeys;

static size_t unhex(uint8_t *out, const char *h)
{
    size_t n = 0;
    for (; h[0] && h[1]; h += 2) {
        unsigned v;
        FZ_CHECK(sscanf(h, "%2x", &v) == 1, "bad hex in rsa_testkey.h");
        out[n++] = (uint8_t)v;
    }
    return n;
}

/* The test key under every available montmul implementation, once. */
static void load_keys(void)
{
    static uint8_t part[RK_PARTS][K];
    size_t len[RK_PARTS];
    if (nkeys)
        return;
    for (int i = 0; i < RK_PARTS; i++)
        len[i] = unhex(part[i], rsa_testkey_hex[i]);
    FZ_CHECK(len[RK_N] == K, "the test key is not 2048 bits");
    for (size_t i = 0; i < ic_impl_count("montmul") && nkeys < MAX_IMPLS; i++) {
        if (!ic_impl_available("montmul", i))
            continue;
        fz_select("montmul", i);
        int st = ic_rsa_private_key_init(&keys[nkeys], part[RK_N], len[RK_N], part[RK_E], len[RK_E],
                                         part[RK_D], len[RK_D], part[RK_P], len[RK_P], part[RK_Q], len[RK_Q],
                                         part[RK_DP], len[RK_DP], part[RK_DQ], len[RK_DQ], part[RK_QINV],
                                         len[RK_QINV]);
        FZ_CHECK(st == IC_OK, "%s: ic_rsa_private_key_init = %d", ic_impl_name("montmul", i), st);
        key_impl[nkeys++] = i;
    }
    fz_select_auto("montmul");
    FZ_CHECK(nkeys > 0, "no montmul implementation available");
}

static const char *impl_of(size_t k) { return ic_impl_name("montmul", key_impl[k]); }

static void op_decrypt_any(fz_in *in, ic_hash_alg h, ic_hash_alg mgf)
{
    uint8_t ct[K + 2], label[32], first[K];
    size_t ctlen = fz_upto(in, K + 2), labellen = fz_upto(in, sizeof label), firstlen = 0;
    size_t cap = K - 2 * ic_hash_digest_size(h) - 2;
    int firstst = 0;
    fz_take(in, label, labellen);
    fz_take(in, ct, ctlen);
    for (size_t k = 0; k < nkeys; k++) {
        uint8_t *base, *out = fz_alloc_at(cap, 0, &base);
        size_t outlen = 12345;
        int st = ic_rsa_decrypt_oaep(&keys[k], h, mgf, out, cap, &outlen, ct, ctlen, label, labellen);
        FZ_CHECK(st == IC_OK || st == IC_ERR_AUTH, "%s: decrypt of %zu fuzzer bytes = %d", impl_of(k), ctlen,
                 st);
        if (st == IC_ERR_AUTH) {
            FZ_CHECK(outlen == 12345, "%s: *outlen written on IC_ERR_AUTH", impl_of(k));
            fz_check_canary(base, 0, 0, "decrypt refused");
        } else {
            FZ_CHECK(outlen <= cap, "%s: outlen %zu over %zu", impl_of(k), outlen, cap);
            fz_check_canary(base, 0, cap, "decrypt");
        }
        if (k == 0) {
            firstst = st, firstlen = st == IC_OK ? outlen : 0;
            memcpy(first, out, firstlen);
        } else {
            FZ_CHECK(st == firstst, "%s: status %d, %s said %d", impl_of(k), st, impl_of(0), firstst);
            if (st == IC_OK)
                FZ_CHECK(outlen == firstlen && memcmp(out, first, outlen) == 0, "%s: other plaintext",
                         impl_of(k));
        }
        free(base);
    }
}

static void op_oaep_round_trip(fz_in *in, ic_hash_alg h, ic_hash_alg mgf)
{
    size_t hlen = ic_hash_digest_size(h), cap = K - 2 * hlen - 2;
    uint8_t seed[IC_HASH_MAX_DIGEST_SIZE], label[32], msg[K], ct[K], out[K];
    size_t msglen = fz_upto(in, cap), labellen = fz_upto(in, sizeof label);
    size_t flip = fz_u16(in) % (8 * K);
    fz_take(in, seed, hlen);
    fz_take(in, label, labellen);
    fz_take(in, msg, msglen);
    int st = ic_rsa_encrypt_oaep_seed(&keys[0].pub, h, mgf, ct, K, msg, msglen, label, labellen, seed, hlen);
    FZ_CHECK(st == IC_OK, "encrypt_oaep_seed of %zu bytes = %d", msglen, st);
    for (size_t k = 0; k < nkeys; k++) {
        size_t outlen = 0;
        st = ic_rsa_decrypt_oaep(&keys[k], h, mgf, out, cap, &outlen, ct, K, label, labellen);
        FZ_CHECK(st == IC_OK && outlen == msglen, "%s: round trip: status %d, %zu bytes of %zu", impl_of(k),
                 st, outlen, msglen);
        FZ_CHECK_MEM(out, msg, msglen, "OAEP round trip");
    }
    ct[flip / 8] ^= (uint8_t)(1u << (flip % 8));
    for (size_t k = 0; k < nkeys; k++) {
        size_t outlen = 777;
        st = ic_rsa_decrypt_oaep(&keys[k], h, mgf, out, cap, &outlen, ct, K, label, labellen);
        FZ_CHECK(st == IC_ERR_AUTH && outlen == 777, "%s: ciphertext bit %zu flipped: status %d", impl_of(k),
                 flip, st);
    }
}

/* Sign under every key; all signatures must equal the first. */
static int sign_all(int pss, ic_hash_alg h, ic_hash_alg mgf, const uint8_t *salt, size_t saltlen,
                    const uint8_t *msg, size_t msglen, uint8_t sig[K])
{
    int first = 0;
    for (size_t k = 0; k < nkeys; k++) {
        uint8_t *base, *s = fz_alloc_at(K, (unsigned)k * 7, &base);
        int st = pss ? ic_rsa_sign_pss_salt(&keys[k], h, mgf, s, K, msg, msglen, salt, saltlen)
                     : ic_rsa_sign_pkcs1v15(&keys[k], h, s, K, msg, msglen);
        if (k == 0) {
            first = st;
            if (st == IC_OK)
                memcpy(sig, s, K);
        } else {
            FZ_CHECK(st == first, "%s: sign status %d, %s said %d", impl_of(k), st, impl_of(0), first);
            if (st == IC_OK)
                FZ_CHECK_MEM(s, sig, K, "signature differs between montmul implementations");
        }
        fz_check_canary(base, (unsigned)k * 7, st == IC_OK ? K : 0, "signature");
        free(base);
    }
    return first;
}

static void op_sign(fz_in *in, int pss, ic_hash_alg h, ic_hash_alg mgf)
{
    uint8_t salt[300], sig[K];
    size_t hlen = ic_hash_digest_size(h), saltlen = pss ? fz_upto(in, sizeof salt) : 0;
    size_t flip = fz_u16(in) % (8 * K), msglen;
    fz_take(in, salt, saltlen);
    uint8_t *msg = fz_message(in, &msglen);
    int want = pss && K < hlen + saltlen + 2 ? IC_ERR_PARAM : IC_OK;
    int st = sign_all(pss, h, mgf, saltlen ? salt : NULL, saltlen, msg, msglen, sig);
    FZ_CHECK(st == want, "%s sign: status %d, want %d (salt %zu)", pss ? "PSS" : "PKCS1v15", st, want, saltlen);
    if (st == IC_OK) {
        const ic_rsa_public_key *pub = &keys[0].pub;
        uint8_t dg[IC_HASH_MAX_DIGEST_SIZE];
        FZ_CHECK(ic_hash(h, dg, sizeof dg, msg, msglen) == IC_OK, "hash of the message");
        for (int round = 0; round < 2; round++) {
            int v = pss ? ic_rsa_verify_pss(pub, h, mgf, saltlen, sig, K, msg, msglen)
                        : ic_rsa_verify_pkcs1v15(pub, h, sig, K, msg, msglen);
            FZ_CHECK(v == (round == 0 ? IC_OK : IC_ERR_AUTH), "verify %s: %d",
                     round == 0 ? "of the signature" : "with a flipped bit", v);
            int vd = pss ? ic_rsa_verify_pss_digest(pub, h, mgf, saltlen, sig, K, dg, hlen)
                         : ic_rsa_verify_pkcs1v15_digest(pub, h, sig, K, dg, hlen);
            FZ_CHECK(vd == v, "verify of the digest: %d, of the message %d", vd, v);
            sig[flip / 8] ^= (uint8_t)(1u << (flip % 8));
        }
    }
    free(msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = { data, size };
    load_keys();
    uint8_t op = fz_u8(&in);
    ic_hash_alg h = (ic_hash_alg)(fz_u8(&in) % IC_HASH_COUNT);
    ic_hash_alg mgf = (ic_hash_alg)(fz_u8(&in) % IC_HASH_COUNT);
    switch (op % 4) {
    case 0: op_decrypt_any(&in, h, mgf); break;
    case 1: op_oaep_round_trip(&in, h, mgf); break;
    case 2: op_sign(&in, 0, h, mgf); break;
    default: op_sign(&in, 1, h, mgf); break;
    }
    return 0;
}
