/*
 * sha_impl.h - what every SHA-1 / SHA-2 implementation provides, and the
 * Merkle-Damgard plumbing (buffering, padding) the drivers share.
 *
 * A backend only compresses whole blocks into a chaining value held in
 * native integers (uint32_t[5] for SHA-1, uint32_t[8] for SHA-224/256,
 * uint64_t[8] for the SHA-512 family); a backend that wants another layout
 * converts on entry and exit.  Blocks may be at any alignment.  The drivers
 * (sha1.c, sha256.c, sha512.c) do argument checks, buffering of partial
 * blocks, padding and output, through the implementation whose registry
 * index the context recorded at init.
 */
#ifndef INCORE_SHA_IMPL_H
#define INCORE_SHA_IMPL_H

#include "core/internal.h"
#include "incore/sha.h"

/* finish is optional (NULL: the driver pads through compress).  It is for
 * hardware that always pads, such as VIA PadLock PHE: given the chaining
 * value after `done` bytes (a multiple of 64) and the rest of the message
 * (any length), it hashes the rest with the FIPS 180-4 padding of a
 * message of done + len bytes, leaving the final chaining value in state.
 * The drivers call it for the buffered tail at final, and for the whole
 * message in a one-shot. */
typedef struct ic_sha1_ops {
    void (*compress)(uint32_t state[5], const uint8_t *blocks, size_t nblocks);
    void (*finish)(uint32_t state[5], uint64_t done, const uint8_t *rest, size_t len);
} ic_sha1_ops;

typedef struct ic_sha256_ops {
    void (*compress)(uint32_t state[8], const uint8_t *blocks, size_t nblocks);
    void (*finish)(uint32_t state[8], uint64_t done, const uint8_t *rest, size_t len);
} ic_sha256_ops;

typedef struct ic_sha512_ops {
    void (*compress)(uint64_t state[8], const uint8_t *blocks, size_t nblocks);
} ic_sha512_ops;

/* FIPS 180-4 4.2.2 / 4.2.3 round constants (sha2_k.c). */
extern const uint32_t ic_sha256_k[64];
extern const uint64_t ic_sha512_k[80];

/* The portable implementations (registry name "port"), always last. */
extern const ic_sha1_ops ic_sha1_port_ops;
extern const ic_sha256_ops ic_sha256_port_ops;
extern const ic_sha512_ops ic_sha512_port_ops;

/* The drivers' shared-by-variant entry points, for the public wrappers and
 * for the generic ic_hash_* of hash.c.  init: IC_ERR_PARAM when alg is not
 * of the family; update/final: IC_ERR_STATE when ctx was not initialised
 * for alg. */
int ic_sha256_init_as(ic_sha256_ctx *ctx, ic_hash_alg alg);
int ic_sha256_update_as(ic_sha256_ctx *ctx, const uint8_t *in, size_t len, ic_hash_alg alg);
int ic_sha256_final_as(ic_sha256_ctx *ctx, uint8_t *out, ic_hash_alg alg);
int ic_sha512_init_as(ic_sha512_ctx *ctx, ic_hash_alg alg);
int ic_sha512_update_as(ic_sha512_ctx *ctx, const uint8_t *in, size_t len, ic_hash_alg alg);
int ic_sha512_final_as(ic_sha512_ctx *ctx, uint8_t *out, ic_hash_alg alg);

/* 1 when a context was set up by the init of this variant and not wiped
 * since (check word and implementation index; see core/internal.h). */
int ic_sha1_ctx_ok(const ic_sha1_ctx *ctx);
int ic_sha256_ctx_ok(const ic_sha256_ctx *ctx, ic_hash_alg alg);
int ic_sha512_ctx_ok(const ic_sha512_ctx *ctx, ic_hash_alg alg);
int ic_hash_ctx_ok(const ic_hash_ctx *ctx);

/* Context check words: nonzero, one per variant, so a context is only used
 * by the functions of the variant that initialised it (and a zeroed, wiped
 * or garbage context by none); see core/internal.h. */
#define IC_CHECK_SHA(alg) (UINT32_C(0x5a1c0000) | (uint32_t)(alg))

/*
 * The chaining value as big-endian bytes (5.2: the digest before any
 * truncation).  One byte-swapped store per word where the compiler has a
 * byte swap: GCC vectorises a loop of the byte-by-byte ic_store32_be into
 * some 250 instructions, a third of the cost of hashing 64 bytes with
 * SHA-NI.
 */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#define IC_SHA_BSWAP32(v) (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? __builtin_bswap32(v) : (v))
#define IC_SHA_BSWAP64(v) (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? __builtin_bswap64(v) : (v))
#endif

static inline void ic_sha_out32(uint8_t *out, const uint32_t *h, int n)
{
    for (int i = 0; i < n; i++) {
#if defined(IC_SHA_BSWAP32)
        uint32_t v = IC_SHA_BSWAP32(h[i]);
        memcpy(out + 4 * i, &v, 4);
#else
        ic_store32_be(out + 4 * i, h[i]);
#endif
    }
}

static inline void ic_sha_out64(uint8_t *out, const uint64_t *h, int n)
{
    for (int i = 0; i < n; i++) {
#if defined(IC_SHA_BSWAP64)
        uint64_t v = IC_SHA_BSWAP64(h[i]);
        memcpy(out + 8 * i, &v, 8);
#else
        ic_store64_be(out + 8 * i, h[i]);
#endif
    }
}

/* The leftmost n bytes (a multiple of 4: the SHA-512 family's digests)
 * of the chaining value h, big-endian: a truncated digest straight into
 * the caller's buffer, no copy to wipe. */
static inline void ic_sha_out64_bytes(uint8_t *out, const uint64_t *h, size_t n)
{
    ic_sha_out64(out, h, (int)(n / 8));
    if (n % 8 != 0)   /* SHA-512/224: half of word 3 */
        ic_store32_be(out + n - 4, (uint32_t)(h[n / 8] >> 32));
}

/*
 * Absorb len bytes into a block buffer of size bs holding fill bytes:
 * top the buffer up and compress it when full, compress the whole blocks of
 * the input straight from the caller's memory (no copy), and keep the tail.
 * blocks(st, p, n) compresses n blocks at p.  Returns the new fill.
 */
static inline size_t ic_md_absorb(void *st, void (*blocks)(void *st, const uint8_t *p, size_t n),
                                  uint8_t *buf, size_t bs, size_t fill,
                                  const uint8_t *in, size_t len)
{
    if (len == 0)
        return fill;       /* in may be NULL then: memcpy must not see it */
    if (fill) {
        size_t take = bs - fill < len ? bs - fill : len;
        memcpy(buf + fill, in, take);
        fill += take;
        in += take;
        len -= take;
        if (fill < bs)
            return fill;
        blocks(st, buf, 1);
        fill = 0;
    }
    if (len >= bs) {
        blocks(st, in, len / bs);
        in += len - len % bs;
        len %= bs;
    }
    memcpy(buf, in, len);
    return len;
}

/*
 * The padding of FIPS 180-4 5.1: a 1 bit, zeros, then the message length
 * in bits as a big-endian field of lenbytes (8 or 16) bytes ending the
 * last block.  lenfield holds that field already encoded.  Needs one extra
 * block when fewer than lenbytes + 1 bytes are free.
 */
static inline void ic_md_pad(void *st, void (*blocks)(void *st, const uint8_t *p, size_t n),
                             uint8_t *buf, size_t bs, size_t fill,
                             const uint8_t *lenfield, size_t lenbytes)
{
    buf[fill++] = 0x80;
    if (fill > bs - lenbytes) {
        ic_zero_tail(buf, fill, bs);   /* fixed-size stores (internal.h) */
        blocks(st, buf, 1);
        fill = 0;
    }
    ic_zero_tail(buf, fill, bs);
    memcpy(buf + bs - lenbytes, lenfield, lenbytes);
    blocks(st, buf, 1);
}

/*
 * A whole message in one go (the one-shots, ic_hash): no context, at most
 * two calls of the compression function.  Whole blocks go straight from
 * the caller's memory, except when the message is shorter than two blocks:
 * then it is copied with its padding into one buffer, so a 64-byte message
 * (two blocks with the padding) is one call.  lenfield: the length field
 * already encoded, lenbytes (8 or 16) long.  blocks(st, p, n) as above.
 */
static inline void ic_md_oneshot(void *st, void (*blocks)(void *st, const uint8_t *p, size_t n),
                                 size_t bs, const uint8_t *in, size_t len,
                                 const uint8_t *lenfield, size_t lenbytes)
{
    uint8_t buf[3 * 128];
    size_t lead = len < 2 * bs ? 0 : len - len % bs;
    size_t rest = len - lead;                 /* < 2 * bs */
    size_t total = (rest + 1 + lenbytes + bs - 1) / bs * bs;

    if (lead)
        blocks(st, in, lead / bs);
    /* with fixed-size moves (internal.h): a short message's libc calls
     * (copy, zeros, wipe) cost as much as a third of its compression */
    ic_copy_padded(buf, total, rest ? in + lead : in, rest);   /* in may be NULL when len is 0 */
    buf[rest] = 0x80;
    memcpy(buf + total - lenbytes, lenfield, lenbytes);
    blocks(st, buf, total / bs);
    ic_wipe_blocks(buf, total / 16);
}

/* The one-shots of each family (sha1.c, sha256.c, sha512.c), for ic_hash,
 * without a context: with an implementation that has finish (hardware that
 * pads), one finish over everything; otherwise ic_md_oneshot.  out and in
 * already checked; alg of the family. */
int ic_sha1_oneshot(uint8_t *out, const uint8_t *in, size_t len);
int ic_sha256_oneshot_as(uint8_t *out, const uint8_t *in, size_t len, ic_hash_alg alg);
int ic_sha512_oneshot(ic_hash_alg alg, uint8_t *out, const uint8_t *in, size_t len);

/*
 * SHA-1, SHA-224 and SHA-256 share 64-byte blocks, a 64-bit byte count and
 * the limit of 5.1.1: at most 2^64 - 1 bits, so 2^61 - 1 bytes.  Update
 * (after the caller checked the context: steps 1 of common.h's order) and
 * padding for their contexts.
 */
#define IC_MD64_BLOCK 64
#define IC_MD64_MAX_BYTES ((UINT64_C(1) << 61) - 1)
/* n bytes within that limit (a function, so that a 32-bit size_t argument
 * is no "always true" comparison) */
static inline int ic_md64_fits(uint64_t n) { return n <= IC_MD64_MAX_BYTES; }

static inline int ic_md64_update(uint64_t *count, uint8_t *buf,
                                 void *st, void (*blocks)(void *st, const uint8_t *p, size_t n),
                                 const void *in, size_t len)
{
    IC_NULL_CHECK(in, len);
    if (*count > IC_MD64_MAX_BYTES || len > IC_MD64_MAX_BYTES - *count)
        return IC_ERR_TOOLONG;
    ic_md_absorb(st, blocks, buf, IC_MD64_BLOCK, (size_t)(*count % IC_MD64_BLOCK), in, len);
    *count += len;
    return IC_OK;
}

static inline void ic_md64_pad(void *st, void (*blocks)(void *st, const uint8_t *p, size_t n),
                               uint8_t *buf, uint64_t count)
{
    uint8_t lenfield[8];
    ic_store64_be(lenfield, count << 3);
    ic_md_pad(st, blocks, buf, IC_MD64_BLOCK, (size_t)(count % IC_MD64_BLOCK), lenfield, 8);
}

#endif
