/*
 * sha_kat.c - known-answer self-tests of the sha1, sha256 and sha512
 * primitives (ic_kat_sha1/256/512), run through the public API with the
 * implementation selected at the time, as `incore selftest` does for each
 * available implementation.
 *
 * The answers are the FIPS 180-4 examples published by NIST (CSRC,
 * "Cryptographic Standards and Guidelines: Examples with Intermediate
 * Values"): "abc" (one block) and the 448-bit message (two blocks once
 * padded) for SHA-1/224/256, "abc" and the 896-bit message for the SHA-512
 * family.  Each is hashed one-shot and again streamed one byte at a time
 * then in one piece, so both the buffered path and the straight-from-input
 * path of the drivers are checked.
 */
#include "sha/sha_impl.h"

static const char ABC[] = "abc";
static const char M448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char M896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                           "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

typedef struct {
    ic_hash_alg alg;
    const char *msg;
    const char *md;   /* hex */
} sha_kat;

static const sha_kat kats_sha1[] = {
    { IC_HASH_SHA1, ABC,  "a9993e364706816aba3e25717850c26c9cd0d89d" },
    { IC_HASH_SHA1, M448, "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
};

static const sha_kat kats_sha256[] = {
    { IC_HASH_SHA224, ABC,  "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7" },
    { IC_HASH_SHA224, M448, "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525" },
    { IC_HASH_SHA256, ABC,  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    { IC_HASH_SHA256, M448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
};

static const sha_kat kats_sha512[] = {
    { IC_HASH_SHA384, ABC,
      "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163"
      "1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7" },
    { IC_HASH_SHA384, M896,
      "09330c33f71147e83d192fc782cd1b4753111b173b3b05d2"
      "2fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039" },
    { IC_HASH_SHA512, ABC,
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
      "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
    { IC_HASH_SHA512, M896,
      "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
      "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
    { IC_HASH_SHA512_224, ABC,  "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa" },
    { IC_HASH_SHA512_224, M896, "23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9" },
    { IC_HASH_SHA512_256, ABC,  "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23" },
    { IC_HASH_SHA512_256, M896, "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a" },
};

/* 1 when the digest of msg is md both one-shot and streamed, else 0. */
static int kat_ok(const sha_kat *k)
{
    uint8_t want[IC_HASH_MAX_DIGEST_SIZE], got[IC_HASH_MAX_DIGEST_SIZE];
    size_t n = ic_hash_digest_size(k->alg), len = strlen(k->msg), split = len / 2;
    const uint8_t *msg = (const uint8_t *)k->msg;
    ic_hash_ctx ctx;
    int ok = strlen(k->md) == 2 * n && ic_kat_unhex(want, k->md) == n;

    ok = ok && ic_hash(k->alg, got, sizeof got, msg, len) == IC_OK && memcmp(got, want, n) == 0;

    memset(got, 0, sizeof got);
    ok = ok && ic_hash_init(&ctx, k->alg) == IC_OK;
    for (size_t i = 0; ok && i < split; i++)
        ok = ic_hash_update(&ctx, msg + i, 1) == IC_OK;
    ok = ok && ic_hash_update(&ctx, msg + split, len - split) == IC_OK
         && ic_hash_final(&ctx, got, sizeof got) == IC_OK && memcmp(got, want, n) == 0;
    return ok;
}

static int run(const sha_kat *k, size_t n)
{
    int failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += !kat_ok(&k[i]);
    return failed;
}

int ic_kat_sha1(void) { return run(kats_sha1, sizeof kats_sha1 / sizeof kats_sha1[0]); }
int ic_kat_sha256(void) { return run(kats_sha256, sizeof kats_sha256 / sizeof kats_sha256[0]); }
int ic_kat_sha512(void) { return run(kats_sha512, sizeof kats_sha512 / sizeof kats_sha512[0]); }
