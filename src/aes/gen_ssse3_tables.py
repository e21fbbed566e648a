#!/usr/bin/env python3
"""gen_ssse3_tables.py - the nibble tables of aes_x86_ssse3.c, and the
checks behind them.

    python3 src/aes/gen_ssse3_tables.py

prints the rows of vp_tab[] from enc_lo to doq (paste them over the rows
of the same names) and the two affine constants, after checking

  - the inversion of the file's header (io, jo from the nibbles i, k with
    1/0 stored as 0x80, PSHUFB's zero) against the AES field inverse for
    all 256 bytes, and
  - one AES-128 encryption and decryption of FIPS 197 appendix C.1 run
    through the tables, the rotating ShiftRows frame and the round-key
    layout exactly as the C code does.

The field is GF(2)[x]/(x^8+x^4+x^3+x+1) (FIPS 197 4.2); F = GF(2^4) is its
subfield {x : x^16 = x}, encoded as nibbles in the basis 1, g, g^2, g^3 of
a root g of z^4 + z + 1; GF(2^8) = F(beta), beta^2 + beta + nu = 0.
"""


def gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11B
        b >>= 1
    return r


def gpow(a, e):
    r = 1
    while e:
        if e & 1:
            r = gmul(r, a)
        a = gmul(a, a)
        e >>= 1
    return r


def ginv(a):
    return gpow(a, 254) if a else 0


def rotl8(x, n):
    return ((x << n) | (x >> (8 - n))) & 0xFF


def lin_a(x):          # linear part of the SubBytes affine map (FIPS 197 5.1.1)
    return x ^ rotl8(x, 1) ^ rotl8(x, 2) ^ rotl8(x, 3) ^ rotl8(x, 4)


def lin_a_inv(y):      # its inverse (FIPS 197 5.3.2 without the 0x05)
    return rotl8(y, 1) ^ rotl8(y, 3) ^ rotl8(y, 6)


SBOX = [lin_a(ginv(x)) ^ 0x63 for x in range(256)]
assert SBOX[0x53] == 0xED and all(lin_a_inv(lin_a(x)) == x for x in range(256))

# F, its nibble encoding, nu and beta
SUB = [x for x in range(256) if gpow(x, 16) == x]
G = min(g for g in SUB if g > 1 and gpow(g, 4) == g ^ 1)
EMB = []
for n in range(16):
    e = 0
    for b in range(4):
        if n >> b & 1:
            e ^= gpow(G, b)
    EMB.append(e)
UNEMB = {e: n for n, e in enumerate(EMB)}


def fmul(a, b):
    return UNEMB[gmul(EMB[a], EMB[b])]


def finv(a):
    return UNEMB[ginv(EMB[a])]


NU = min(n for n in range(16) if all(fmul(t, t) ^ t ^ n for t in range(16)))
BETA = min(b for b in range(256) if gmul(b, b) ^ b ^ EMB[NU] == 0)
BETA16 = gpow(BETA, 16)
assert BETA ^ BETA16 == 1

# T: AES byte -> (i << 4) | (i ^ j) for x = i*beta + j*beta^16
T = [None] * 256
for i in range(16):
    for j in range(16):
        T[gmul(EMB[i], BETA) ^ gmul(EMB[j], BETA16)] = (i << 4) | (i ^ j)
assert all(T[a ^ b] == T[a] ^ T[b] for a in range(256) for b in range(256))


def C(x):              # the decryption state map, T o A^-1 (linear part)
    return T[lin_a_inv(x)]


INF = 0x80
INV = [INF] + [finv(n) for n in range(1, 16)]
AK = [INF] + [fmul(finv(NU), finv(k)) for k in range(1, 16)]


def shuf(tab, idx):
    return 0 if idx & 0x80 else tab[idx & 15]


def core(s):
    k, i = s & 15, s >> 4
    ak, j = shuf(AK, k), i ^ k
    io = shuf(INV, shuf(INV, i) ^ ak) ^ j
    jo = shuf(INV, shuf(INV, j) ^ ak) ^ i
    return io, jo


PI1 = gmul(EMB[NU], BETA) ^ gmul(EMB[NU ^ 1], BETA16)
PI2 = gmul(EMB[NU ^ 1], BETA) ^ gmul(EMB[NU], BETA16)
P = [0] + [gmul(ginv(EMB[n]), PI1) for n in range(1, 16)]
Q = [0] + [gmul(ginv(EMB[n]), PI2) for n in range(1, 16)]
for x in range(256):
    io, jo = core(T[x])
    assert shuf(P, io) ^ shuf(Q, jo) == ginv(x), x

TABLES = [
    ("enc_lo", [T[v] for v in range(16)]),
    ("enc_hi", [T[v << 4] for v in range(16)]),
    ("dec_lo", [C(v) for v in range(16)]),
    ("dec_hi", [C(v << 4) for v in range(16)]),
    ("inv", INV),
    ("g", AK),
    ("s1p", [T[lin_a(v)] for v in P]), ("s1q", [T[lin_a(v)] for v in Q]),
    ("s2p", [T[gmul(2, lin_a(v))] for v in P]), ("s2q", [T[gmul(2, lin_a(v))] for v in Q]),
    ("sop", [lin_a(v) for v in P]), ("soq", [lin_a(v) for v in Q]),
]
for m in (14, 11, 13, 9):
    TABLES.append(("d%dp" % m, [C(gmul(m, v)) for v in P]))
    TABLES.append(("d%dq" % m, [C(gmul(m, v)) for v in Q]))
TABLES += [("dop", P), ("doq", Q)]
TAB = dict(TABLES)

# ---- a model of the C code's rounds, checked against FIPS 197 C.1 ----
SR = [4 * ((c + r) % 4) + r for c in range(4) for r in range(4)]
IDN = list(range(16))


def comp(x, y):        # permutation "x after y" as a PSHUFB index
    return [y[x[d]] for d in range(16)]


def srpow(m):
    r = IDN
    for _ in range(m % 4):
        r = comp(SR, r)
    return r


def rot(k):
    return [4 * c + (r + k) % 4 for c in range(4) for r in range(4)]


def conj(m, k):        # SR^-m o rot_k o SR^m
    return comp(srpow(4 - m), comp(rot(k), srpow(m)))


def pshufb(v, idx):
    return [0 if i & 0x80 else v[i & 15] for i in idx]


def xor(a, b):
    return [x ^ y for x, y in zip(a, b)]


def vmap(v, lo, hi):
    return [lo[x & 15] ^ hi[x >> 4] for x in v]


def lookup(v, p, q):   # p[io] ^ q[jo] for every byte
    return [shuf(p, io) ^ shuf(q, jo) for io, jo in map(core, v)]


def key_words(key):
    nk = len(key) // 4
    nr = nk + 6
    w = [list(key[4 * i:4 * i + 4]) for i in range(nk)]
    rc = 1
    for i in range(nk, 4 * (nr + 1)):
        t = list(w[i - 1])
        if i % nk == 0:
            t = [SBOX[b] for b in t[1:] + t[:1]]
            t[0] ^= rc
            rc = gmul(rc, 2)
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        w.append([a ^ b for a, b in zip(w[i - nk], t)])
    return [sum(w[4 * r:4 * r + 4], []) for r in range(nr + 1)], nr


def inv_mix(col):
    return [gmul(14, col[r]) ^ gmul(11, col[(r + 1) % 4]) ^ gmul(13, col[(r + 2) % 4]) ^
            gmul(9, col[(r + 3) % 4]) for r in range(4)]


def schedules(key):
    w, nr = key_words(key)
    ek, dk = [], []
    for r in range(nr + 1):
        if r == nr:
            ek.append([b ^ 0x63 for b in w[r]])
        else:
            v = [T[b] ^ (T[0x63] if r else 0) for b in w[r]]
            ek.append(pshufb(v, srpow(4 - r)))
    for r in range(nr + 1):
        src = w[nr - r]
        if r == nr:
            dk.append(list(src))
            continue
        if r:
            src = sum((inv_mix(src[4 * c:4 * c + 4]) for c in range(4)), [])
        dk.append(pshufb([C(b) ^ T[0x05] for b in src], srpow(r)))
    return ek, dk, nr


def encrypt(ek, nr, blk):
    x = xor(vmap(blk, TAB["enc_lo"], TAB["enc_hi"]), ek[0])
    for r in range(1, nr):
        a = lookup(x, TAB["s1p"], TAB["s1q"])
        d = lookup(x, TAB["s2p"], TAB["s2q"])
        m = r & 3
        xx = xor(d, pshufb(a, conj(m, 1)))     # 2A ^ B
        x = xor(xor(xx, pshufb(xx, conj(m, 1))), xor(pshufb(a, conj(m, 3)), ek[r]))
    return xor(pshufb(lookup(x, TAB["sop"], TAB["soq"]), srpow(nr)), ek[nr])


def decrypt(dk, nr, blk):
    x = xor(vmap(blk, TAB["dec_lo"], TAB["dec_hi"]), dk[0])
    for r in range(1, nr):
        t = {mm: lookup(x, TAB["d%dp" % mm], TAB["d%dq" % mm]) for mm in (9, 11, 13, 14)}
        m = (4 - r) & 3
        x = xor(xor(pshufb(t[11], conj(m, 1)), pshufb(t[13], conj(m, 2))),
                xor(pshufb(t[9], conj(m, 3)), xor(t[14], dk[r])))
    return xor(pshufb(lookup(x, TAB["dop"], TAB["doq"]), srpow(4 - nr)), dk[nr])


KEY = bytes(range(16))
PT = bytes.fromhex("00112233445566778899aabbccddeeff")
CT = bytes.fromhex("69c4e0d86a7b0430d8cdb78070b4c55a")
ek, dk, nr = schedules(KEY)
assert bytes(encrypt(ek, nr, list(PT))) == CT
assert bytes(decrypt(dk, nr, list(CT))) == PT

print("/* nu = %d, g = 0x%02x, beta = 0x%02x */" % (NU, G, BETA))
for name, t in TABLES:
    print("    /* %-6s */ T16(%s)," % (name, ", ".join("0x%02x" % v for v in t)))
print("#define VP_T63 0x%02x" % T[0x63])
print("#define VP_T05 0x%02x" % T[0x05])
