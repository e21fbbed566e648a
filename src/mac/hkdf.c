/*
 * hkdf.c - HKDF (RFC 5869), the HMAC-based extract-and-expand key
 * derivation function, over any ic_hash_alg.
 *
 *   PRK  = HMAC(salt, IKM)                                      (2.2)
 *   T(i) = HMAC(PRK, T(i-1) || info || i),  T(0) empty, i = 1..N (2.3)
 *   OKM  = first L bytes of T(1) || T(2) || ...,  L <= 255 * HashLen
 *
 * Expand keys HMAC with the PRK once and copies that keyed context for
 * every T(i), so the PRK is processed once however long the output.
 */
#include "core/internal.h"
#include "incore/hmac.h"

/* 1 when [a, a+alen) and [b, b+blen) share a byte (exact equality too). */
static int ranges_overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return alen && blen && x < y + blen && y < x + alen;
}

/* An empty salt is HMAC's empty key, which pads to the same block as the
 * HashLen zero bytes that 2.2 prescribes when no salt is given.  ic_hmac
 * checks prk's capacity against HashLen (IC_ERR_SIZE). */
int ic_hkdf_extract(ic_hash_alg alg, uint8_t *prk, size_t prklen,
                    const uint8_t *salt, size_t saltlen, const uint8_t *ikm, size_t ikmlen)
{
    return ic_hmac(alg, prk, prklen, ikm, ikmlen, salt, saltlen);
}

int ic_hkdf_expand(ic_hash_alg alg, uint8_t *okm, size_t okmlen,
                   const uint8_t *info, size_t infolen, const uint8_t *prk, size_t prklen)
{
    ic_hmac_ctx keyed, c;
    uint8_t t[IC_HASH_MAX_DIGEST_SIZE];
    size_t n = ic_hash_digest_size(alg), done = 0;
    int st;

    IC_NULL_CHECK(okm, okmlen);
    IC_NULL_CHECK(info, infolen);
    IC_NULL_CHECK(prk, prklen);
    if (!n)
        return IC_ERR_PARAM;
    if (prklen < n)
        return IC_ERR_KEYLEN;          /* 2.3: PRK of at least HashLen octets */
    if (okmlen > 255 * n)
        return IC_ERR_TOOLONG;         /* 2.3: the counter is one octet */
    if (ranges_overlap(okm, okmlen, info, infolen))
        return IC_ERR_OVERLAP;
    st = ic_hmac_init(&keyed, alg, prk, prklen);
    for (uint8_t i = 1; st == IC_OK && done < okmlen; i++) {
        size_t take = okmlen - done < n ? okmlen - done : n;
        c = keyed;
        if (i > 1)
            st = ic_hmac_update(&c, t, n);
        if (st == IC_OK)
            st = ic_hmac_update(&c, info, infolen);
        if (st == IC_OK)
            st = ic_hmac_update(&c, &i, 1);
        if (st == IC_OK)
            st = ic_hmac_final(&c, t, sizeof t);
        if (st == IC_OK)
            memcpy(okm + done, t, take);
        done += take;
    }
    ic_wipe(&c, sizeof c);
    ic_wipe(&keyed, sizeof keyed);
    ic_wipe(t, sizeof t);
    return st;
}

int ic_hkdf(ic_hash_alg alg, uint8_t *okm, size_t okmlen,
            const uint8_t *info, size_t infolen, const uint8_t *salt, size_t saltlen,
            const uint8_t *ikm, size_t ikmlen)
{
    uint8_t prk[IC_HASH_MAX_DIGEST_SIZE];
    size_t n = ic_hash_digest_size(alg);
    int st;

    IC_NULL_CHECK(okm, okmlen);
    IC_NULL_CHECK(info, infolen);
    IC_NULL_CHECK(salt, saltlen);
    IC_NULL_CHECK(ikm, ikmlen);
    if (!n)
        return IC_ERR_PARAM;
    if (okmlen > 255 * n)
        return IC_ERR_TOOLONG;
    if (ranges_overlap(okm, okmlen, info, infolen))
        return IC_ERR_OVERLAP;
    st = ic_hkdf_extract(alg, prk, sizeof prk, salt, saltlen, ikm, ikmlen);
    if (st == IC_OK)
        st = ic_hkdf_expand(alg, okm, okmlen, info, infolen, prk, n);
    ic_wipe(prk, sizeof prk);
    return st;
}
