/*
 * aes_ct64.c - portable, constant-time AES-128/192/256 (FIPS 197), bitsliced
 * over 64-bit words, four blocks at a time.
 *
 * The trick (Kaesper and Schwabe, "Faster and Timing-Attack Resistant
 * AES-GCM", CHES 2009; the same layout as BearSSL's aes_ct64): the state of
 * four blocks is held as eight 64-bit words q[0..7], word q[b] holding bit b
 * of each of the 4 x 16 state bytes.  SubBytes then becomes a Boolean
 * circuit evaluated on whole words - 64 S-boxes per gate - with no table and
 * no branch, so nothing depends on the key or the data.  The circuit is the
 * 113-gate, depth-16 one of Boyar and Peralta ("A depth-16 circuit for the
 * AES S-box", IACR ePrint 2011/332), used here as a published fact.
 *
 * Bit position p of a word q[b], for byte (row r, column c) of block k:
 *
 *     p = 16*r + 4*c + k
 *
 * so each AES row is a 16-bit lane.  ShiftRows is then a rotation inside
 * each 16-bit lane, and MixColumns, which combines row r with rows r+1..r+3
 * of the same column, is made of 64-bit rotations by 16 and 32 bits.
 *
 * Everything that moves bytes in and out of that layout goes through
 * ic_load32_le / ic_store32_le, so the code is right on big-endian hosts.
 * Serial modes (CBC and CFB encryption, OFB) use one lane of four; ECB, CTR
 * and the decryptions of CBC and CFB fill all four.
 */
#include "aes/aes_impl.h"
#include "aes/aes_lanes.h"

#define CT64_LANES 4                      /* blocks per bitsliced state */
#define CT64_RK_BYTES (8 * sizeof(uint64_t)) /* one bitsliced round key */

/* ---- the S-box circuit ---------------------------------------------------
 * Boyar-Peralta number the input bits U0 (most significant) .. U7 (least)
 * and the outputs S0 (msb) .. S7, so U_i is q[7 - i].  The three layers are
 * kept as in the paper: a linear "top" (T1..T27), a non-linear middle that
 * inverts in GF(2^4)^2 (M1..M63, 32 ANDs), and a linear "bottom" (L0..L29)
 * that also applies the affine map of FIPS 197 section 5.1.1 (the XNORs are
 * its constant 0x63).                                                     */
static void ct64_sbox(uint64_t q[8])
{
#define BP_T uint64_t
#include "aes/aes_sbox_bp.inc"
#undef BP_T
    q[6] = ~q[6];
    q[5] = ~q[5];
    q[1] = ~q[1];
    q[0] = ~q[0];
}

/* The inverse affine map of FIPS 197 section 5.3.2,
 *     b_i = b'_{i+2} ^ b'_{i+5} ^ b'_{i+7} ^ (0x05)_i     (indices mod 8).
 * With S = A o inv (A the forward affine map), A^-1 o S o A^-1 = inv o A^-1,
 * which is InvSubBytes: the forward circuit between two of these maps gives
 * the inverse S-box for 2 x 18 extra gates, still without any table.    */
static void ct64_inv_affine(uint64_t q[8])
{
    uint64_t a[8];
    for (int i = 0; i < 8; i++)
        a[i] = q[(i + 2) & 7] ^ q[(i + 5) & 7] ^ q[(i + 7) & 7];
    for (int i = 0; i < 8; i++)
        q[i] = a[i];
    q[0] = ~q[0];
    q[2] = ~q[2];
}

static void ct64_inv_sbox(uint64_t q[8])
{
    ct64_inv_affine(q);
    ct64_sbox(q);
    ct64_inv_affine(q);
}

/* ---- into and out of the bitsliced layout --------------------------------
 * transpose8 exchanges, for every byte position m of the eight words, the
 * word index with the bit index: afterwards bit i of byte m of x[j] is what
 * was bit j of byte m of x[i].  It is three rounds of "swapmove" (swap the
 * bits selected by a mask between two words, one shifted), for distances 1,
 * 2 and 4, and it is its own inverse.                                      */
static inline void swapmove(uint64_t *lo, uint64_t *hi, unsigned n, uint64_t mask)
{
    uint64_t t = ((*lo >> n) ^ *hi) & mask;
    *hi ^= t;
    *lo ^= t << n;
}

static void transpose8(uint64_t x[8])
{
    for (int i = 0; i < 8; i += 2)
        swapmove(&x[i], &x[i + 1], 1, UINT64_C(0x5555555555555555));
    for (int i = 0; i < 8; i += 4) {
        swapmove(&x[i], &x[i + 2], 2, UINT64_C(0x3333333333333333));
        swapmove(&x[i + 1], &x[i + 3], 2, UINT64_C(0x3333333333333333));
    }
    for (int i = 0; i < 4; i++)
        swapmove(&x[i], &x[i + 4], 4, UINT64_C(0x0F0F0F0F0F0F0F0F));
}

/* Byte r of w goes to byte 2r of the result (and back). */
static inline uint64_t spread_bytes(uint32_t w)
{
    uint64_t x = w;
    x = (x | x << 16) & UINT64_C(0x0000FFFF0000FFFF);
    x = (x | x << 8) & UINT64_C(0x00FF00FF00FF00FF);
    return x;
}

static inline uint32_t gather_bytes(uint64_t x)
{
    x &= UINT64_C(0x00FF00FF00FF00FF);
    x = (x | x >> 8) & UINT64_C(0x0000FFFF0000FFFF);
    return (uint32_t)(x | x >> 16);
}

/* Why this packing: after transpose8, byte m of x[i] ends at bit 8m + i of
 * every q[b].  We want p = 16r + 4c + k = 8m + i, i.e. m = 2r + (c >> 1) and
 * i = 4(c & 1) + k.  So x[k] interleaves columns 0 and 2 of block k (column
 * 0 in the even bytes, 2 in the odd ones) and x[4 + k] columns 1 and 3.
 * Column c is the little-endian word at offset 4c (FIPS 197 section 3.4:
 * in[r + 4c] is row r of column c).                                       */
static inline void pack_block(uint64_t x[8], unsigned k, const uint32_t w[4])
{
    x[k] = spread_bytes(w[0]) | spread_bytes(w[2]) << 8;
    x[k + 4] = spread_bytes(w[1]) | spread_bytes(w[3]) << 8;
}

static inline void unpack_block(const uint64_t x[8], unsigned k, uint32_t w[4])
{
    w[0] = gather_bytes(x[k]);
    w[2] = gather_bytes(x[k] >> 8);
    w[1] = gather_bytes(x[k + 4]);
    w[3] = gather_bytes(x[k + 4] >> 8);
}

/* Load n (1..4) blocks; unused lanes are zero. */
static void ct64_load(uint64_t q[8], const uint8_t *in, size_t n)
{
    uint32_t w[4] = {0, 0, 0, 0};
    for (unsigned k = 0; k < CT64_LANES; k++) {
        if (k < n)
            for (unsigned c = 0; c < 4; c++)
                w[c] = ic_load32_le(in + 16 * k + 4 * c);
        else
            w[0] = w[1] = w[2] = w[3] = 0;
        pack_block(q, k, w);
    }
    transpose8(q);
}

static void ct64_store(uint8_t *out, uint64_t q[8], size_t n)
{
    uint32_t w[4];
    transpose8(q);
    for (unsigned k = 0; k < n; k++) {
        unpack_block(q, k, w);
        for (unsigned c = 0; c < 4; c++)
            ic_store32_le(out + 16 * k + 4 * c, w[c]);
    }
}

/* ---- the round functions ------------------------------------------------- */

/* Round keys live in k->storage as (rounds + 1) x 8 native uint64_t, written
 * and read with memcpy (no cast of the byte array), which compilers turn into
 * plain loads.                                                            */
static inline void add_round_key(uint64_t q[8], const ic_aes_key *k, unsigned r)
{
    uint64_t rk[8];
    memcpy(rk, k->storage + r * CT64_RK_BYTES, sizeof rk);
    for (int i = 0; i < 8; i++)
        q[i] ^= rk[i];
}

/* ShiftRows (FIPS 197 5.1.2): row r moves left by r columns, i.e. inside
 * its 16-bit lane bit 4c + k takes the bit at 4(c + r) + k: a right rotation
 * of the lane by 4r.  Row 0 stays, rows 1..3 rotate by 4, 8, 12.          */
static inline uint64_t shift_rows1(uint64_t x)
{
    return (x & UINT64_C(0x000000000000FFFF))
         | (x & UINT64_C(0x00000000FFF00000)) >> 4 | (x & UINT64_C(0x00000000000F0000)) << 12
         | (x & UINT64_C(0x0000FF0000000000)) >> 8 | (x & UINT64_C(0x000000FF00000000)) << 8
         | (x & UINT64_C(0xF000000000000000)) >> 12 | (x & UINT64_C(0x0FFF000000000000)) << 4;
}

/* InvShiftRows (5.3.1): the opposite rotations. */
static inline uint64_t inv_shift_rows1(uint64_t x)
{
    return (x & UINT64_C(0x000000000000FFFF))
         | (x & UINT64_C(0x000000000FFF0000)) << 4 | (x & UINT64_C(0x00000000F0000000)) >> 12
         | (x & UINT64_C(0x0000FF0000000000)) >> 8 | (x & UINT64_C(0x000000FF00000000)) << 8
         | (x & UINT64_C(0xFFF0000000000000)) >> 4 | (x & UINT64_C(0x000F000000000000)) << 12;
}

static void shift_rows(uint64_t q[8])
{
    for (int i = 0; i < 8; i++)
        q[i] = shift_rows1(q[i]);
}

static void inv_shift_rows(uint64_t q[8])
{
    for (int i = 0; i < 8; i++)
        q[i] = inv_shift_rows1(q[i]);
}

/* MixColumns (5.1.3): b_r = 2a_r ^ 3a_{r+1} ^ a_{r+2} ^ a_{r+3}
 *                         = 2(a_r ^ a_{r+1}) ^ a_{r+1} ^ (a_{r+2} ^ a_{r+3}).
 * Row r+1 is brought onto row r by rotating the word right by 16, so with
 * n = rot16(q) and t = q ^ n the result is xtime(t) ^ n ^ rot32(t).  xtime
 * (multiplication by x modulo x^8+x^4+x^3+x+1) on bit planes moves plane i
 * to i+1 and folds plane 7 into planes 0, 1, 3 and 4.                     */
static void mix_columns(uint64_t q[8])
{
    uint64_t n[8], t[8];
    for (int i = 0; i < 8; i++) {
        n[i] = ic_rotr64(q[i], 16);
        t[i] = q[i] ^ n[i];
    }
    q[0] = t[7] ^ n[0] ^ ic_rotr64(t[0], 32);
    q[1] = t[0] ^ t[7] ^ n[1] ^ ic_rotr64(t[1], 32);
    q[2] = t[1] ^ n[2] ^ ic_rotr64(t[2], 32);
    q[3] = t[2] ^ t[7] ^ n[3] ^ ic_rotr64(t[3], 32);
    q[4] = t[3] ^ t[7] ^ n[4] ^ ic_rotr64(t[4], 32);
    q[5] = t[4] ^ n[5] ^ ic_rotr64(t[5], 32);
    q[6] = t[5] ^ n[6] ^ ic_rotr64(t[6], 32);
    q[7] = t[6] ^ n[7] ^ ic_rotr64(t[7], 32);
}

/* InvMixColumns (5.3.3) as MixColumns after a cheap pre-map: the inverse
 * polynomial 0b x^3 + 0d x^2 + 09 x + 0e equals (03 x^3 + x^2 + x + 02) times
 * (04 x^2 + 05) modulo x^4 + 1 (Daemen and Rijmen, "The Design of Rijndael",
 * 4.1.3).  The pre-map is a_r ^ 4(a_r ^ a_{r+2}); multiplying u by 4 = x^2
 * on bit planes: z0 = u6, z1 = u6^u7, z2 = u0^u7, z3 = u1^u6,
 * z4 = u2^u6^u7, z5 = u3^u7, z6 = u4, z7 = u5.                           */
static void inv_mix_columns(uint64_t q[8])
{
    uint64_t u[8];
    for (int i = 0; i < 8; i++)
        u[i] = q[i] ^ ic_rotr64(q[i], 32);
    q[0] ^= u[6];
    q[1] ^= u[6] ^ u[7];
    q[2] ^= u[0] ^ u[7];
    q[3] ^= u[1] ^ u[6];
    q[4] ^= u[2] ^ u[6] ^ u[7];
    q[5] ^= u[3] ^ u[7];
    q[6] ^= u[4];
    q[7] ^= u[5];
    mix_columns(q);
}

/* Cipher (FIPS 197 5.1) on four bitsliced blocks. */
static void ct64_encrypt(const ic_aes_key *k, uint64_t q[8])
{
    const unsigned nr = k->rounds;
    add_round_key(q, k, 0);
    for (unsigned r = 1; r < nr; r++) {
        ct64_sbox(q);
        shift_rows(q);
        mix_columns(q);
        add_round_key(q, k, r);
    }
    ct64_sbox(q);
    shift_rows(q);
    add_round_key(q, k, nr);
}

/* InvCipher (5.3); InvShiftRows and InvSubBytes commute, both being
 * byte-wise, so their order inside a round does not matter.              */
static void ct64_decrypt(const ic_aes_key *k, uint64_t q[8])
{
    const unsigned nr = k->rounds;
    add_round_key(q, k, nr);
    for (unsigned r = nr - 1; r > 0; r--) {
        inv_shift_rows(q);
        ct64_inv_sbox(q);
        add_round_key(q, k, r);
        inv_mix_columns(q);
    }
    inv_shift_rows(q);
    ct64_inv_sbox(q);
    add_round_key(q, k, 0);
}

/* n (1..4) blocks through the cipher (dec = 0) or its inverse (dec = 1);
 * out may equal in. */
static void ct64_blocks(const ic_aes_key *k, uint8_t *out, const uint8_t *in, size_t n, int dec)
{
    uint64_t q[8];
    ct64_load(q, in, n);
    if (dec)
        ct64_decrypt(k, q);
    else
        ct64_encrypt(k, q);
    ct64_store(out, q, n);
    ic_wipe(q, sizeof q); /* keystream (CTR/OFB) or plaintext (decryption) */
}

/* ---- key schedule ---------------------------------------------------------
 * KeyExpansion (FIPS 197 5.2) on 32-bit words w[i] = key bytes 4i..4i+3
 * loaded little-endian, so that byte 0 of the word is its low byte:
 * RotWord is then a right rotation by 8 and Rcon goes into the low byte.
 * SubWord goes through the same bitsliced circuit as the data (the word in
 * bytes 0..3 of x[0], one transpose8 each way), so the schedule has no
 * table lookup either.  Each round key is then replicated into the four
 * lanes and converted to the bitsliced layout once.                        */
static uint32_t sub_word(uint32_t w)
{
    uint64_t x[8] = {w, 0, 0, 0, 0, 0, 0, 0};
    transpose8(x);
    ct64_sbox(x);
    transpose8(x);
    uint32_t r = (uint32_t)x[0];
    ic_wipe(x, sizeof x);
    return r;
}

void ic_aes_key_words(uint32_t w[4 * 15], const uint8_t *key, size_t keylen)
{
    const unsigned nk = (unsigned)(keylen / 4), nr = nk + 6, nw = 4 * (nr + 1);
    uint32_t rcon = 1;

    for (unsigned i = 0; i < nk; i++)
        w[i] = ic_load32_le(key + 4 * i);
    for (unsigned i = nk; i < nw; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word(ic_rotr32(t, 8)) ^ rcon;
            /* next Rcon: xtime of a public constant */
            rcon = (rcon << 1) ^ (0x11b & -(rcon >> 7));
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
}

static void ct64_setkey(ic_aes_key *k, const uint8_t *key, size_t keylen)
{
    uint32_t w[4 * 15];
    const unsigned nr = (unsigned)(keylen / 4) + 6;
    ic_aes_key_words(w, key, keylen);
    k->rounds = nr;
    for (unsigned r = 0; r <= nr; r++) {
        uint64_t x[8];
        for (unsigned lane = 0; lane < CT64_LANES; lane++)
            pack_block(x, lane, &w[4 * r]);
        transpose8(x);
        memcpy(k->storage + r * CT64_RK_BYTES, x, sizeof x);
        ic_wipe(x, sizeof x);
    }
    ic_wipe(w, sizeof w);
}

/* ---- modes on whole blocks (argument checks and tails are in aes.c) ----- */


/* ECB, CBC/CFB decryption and CTR (ctr: SP 800-38A 6.5 with the whole
 * block a 128-bit big-endian integer, as OpenSSL's CTR; ctr32: SP 800-38D
 * inc32) over the eight lanes (aes_lanes.h) */
AES_LANES_MODES(ct64, ct64_blocks, CT64_LANES)

/* The two serial encryptions of SP 800-38A, one lane used:
 *   CBC (6.2):    C_i = E(P_i ^ C_{i-1})
 *   CFB128 (6.3): C_i = P_i ^ E(C_{i-1})
 * with C_0 = IV; the register x is left in iv so that calls chain.      */
static void ct64_serial_enc(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks, int cfb)
{
    uint8_t x[16];
    memcpy(x, iv, 16);
    for (; nblocks; nblocks--, in += 16, out += 16) {
        if (!cfb)
            ic_xor_bytes(x, x, in, 16);
        ct64_blocks(k, x, x, 1, 0);
        if (cfb)
            ic_xor_bytes(x, x, in, 16);
        memcpy(out, x, 16);
    }
    memcpy(iv, x, 16);
}

AES_LANES_SERIAL_MODES(ct64, ct64_serial_enc)

/* OFB (SP 800-38A 6.4) is serial: O_i = E(O_{i-1}), C_i = P_i ^ O_i. */
static void ct64_ofb(const ic_aes_key *k, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                     size_t nblocks)
{
    for (; nblocks; nblocks--, in += 16, out += 16) {
        ct64_blocks(k, iv, iv, 1, 0);
        ic_xor_bytes(out, in, iv, 16);
    }
}

static const ic_aes_ops ct64_ops = {
    .setkey = ct64_setkey,
    .ecb_enc = ct64_ecb_enc,
    .ecb_dec = ct64_ecb_dec,
    .cbc_enc = ct64_cbc_enc,
    .cbc_dec = ct64_cbc_dec,
    .ctr = ct64_ctr,
    .ctr32 = ct64_ctr32,
    .cfb_enc = ct64_cfb_enc,
    .cfb_dec = ct64_cfb_dec,
    .ofb = ct64_ofb,
    .stitch = 0,   /* no stitched AES-GCM loop knows the bitsliced layout */
};

IC_BACKEND(aes, ct64, 0, &ct64_ops);
