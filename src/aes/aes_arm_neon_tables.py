#!/usr/bin/env python3
"""Nibble tables of the one-block S-box of aes_arm_neon.c, and a check.

GF(2^8) (FIPS 197 4.2, modulo x^8 + x^4 + x^3 + x + 1) is mapped onto the
tower field GF(2^4)[y]/(y^2 + y + lam) (GF(2^4) modulo x^4 + x + 1, lam the
first value for which the quadratic is irreducible) by the GF(2)-linear
isomorphism phi that sends x to beta, the first root of the AES polynomial
in the tower field.  An element is the byte a1 << 4 | a0 for a1 y + a0.

Its inverse is (a1 y + a0 + a1) / D with D = lam a1^2 + a1 a0 + a0^2 (the
product of a1 y + a0 and its conjugate a1 (y + 1) + a0): one GF(2^4)
inversion, three GF(2^4) products and two squarings, all of them 16-entry
lookups on nibbles (products through log and exp: log a + log b, then exp
from a 32-entry table; log 0 is a sentinel >= 32 that makes TBL return 0).

Tables (each 16 entries but exp, 32):
  tlo, thi   phi of the low / high nibble (XORed: phi is linear)
  dlo, dhi   phi o Linv, Linv the linear part of the inverse affine map
  log, linv  log_2 n and log_2 1/n in GF(2^4) (0: the sentinel 0x20)
  sql, sq    lam n^2 and n^2
  exp        2^s for s = 0..29
  ulo, uhi   L o phi^-1, L the linear part of the affine map (no 0x63:
             aes_arm_neon.c folds it into the round keys)
  olo, ohi   phi^-1

Run it to print the C initialisers; it asserts that the lookups give the
S-box of FIPS 197 5.1.1 (less 0x63) and its inverse for all 256 bytes.
"""


def gmul(a, b, poly, n):
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a >> n:
            a ^= poly
    return r


def g16(a, b):
    return gmul(a, b, 0x13, 4)


def g256(a, b):
    return gmul(a, b, 0x11B, 8)


LAM = [l for l in range(1, 16) if all(g16(y, y) ^ y ^ l for y in range(16))][0]


def tmul(x, z):
    a1, a0, b1, b0 = x >> 4, x & 15, z >> 4, z & 15
    hh = g16(a1, b1)  # y^2 = y + lam
    return (hh ^ g16(a1, b0) ^ g16(a0, b1)) << 4 | (g16(hh, LAM) ^ g16(a0, b0))


def tpow(x, e):
    r = 1
    for _ in range(e):
        r = tmul(r, x)
    return r


BETA = [b for b in range(2, 256) if tpow(b, 8) ^ tpow(b, 4) ^ tpow(b, 3) ^ b ^ 1 == 0][0]
BASIS = [tpow(BETA, i) for i in range(8)]


def phi(x):
    r = 0
    for i in range(8):
        if x >> i & 1:
            r ^= BASIS[i]
    return r


PHIINV = {phi(x): x for x in range(256)}


def lin(x):  # FIPS 197 5.1.1 without the constant
    return sum((((x >> i) ^ (x >> ((i + 4) % 8)) ^ (x >> ((i + 5) % 8)) ^ (x >> ((i + 6) % 8))
                 ^ (x >> ((i + 7) % 8))) & 1) << i for i in range(8))


def lininv(x):  # FIPS 197 5.3.2 without the constant
    return sum((((x >> ((i + 2) % 8)) ^ (x >> ((i + 5) % 8)) ^ (x >> ((i + 7) % 8))) & 1) << i
               for i in range(8))


EXP = [1]
for _ in range(14):
    EXP.append(g16(EXP[-1], 2))
LOG = {EXP[i]: i for i in range(15)}
SENT = 0x20

T = {
    'tlo': [phi(n) for n in range(16)],
    'thi': [phi(n << 4) for n in range(16)],
    'dlo': [phi(lininv(n)) for n in range(16)],
    'dhi': [phi(lininv(n << 4)) for n in range(16)],
    'log': [SENT] + [LOG[n] for n in range(1, 16)],
    'linv': [SENT] + [(15 - LOG[n]) % 15 for n in range(1, 16)],
    'sql': [g16(LAM, g16(n, n)) for n in range(16)],
    'sq': [g16(n, n) for n in range(16)],
    'ulo': [lin(PHIINV[n]) for n in range(16)],
    'uhi': [lin(PHIINV[n << 4]) for n in range(16)],
    'olo': [PHIINV[n] for n in range(16)],
    'ohi': [PHIINV[n << 4] for n in range(16)],
    'exp': [EXP[s % 15] for s in range(30)] + [0, 0],
}


def tbl(t, i):  # TBL: an index past the table gives 0
    return t[i] if i < len(t) else 0


def tower_inv(t):
    a0, a1 = t & 15, t >> 4
    l1, l0 = T['log'][a1], T['log'][a0]
    d = T['sql'][a1] ^ T['sq'][a0] ^ tbl(T['exp'], l1 + l0)
    li = T['linv'][d]
    return tbl(T['exp'], l1 + li) << 4 | tbl(T['exp'], T['log'][a0 ^ a1] + li)


def sub(x):
    b = tower_inv(T['tlo'][x & 15] ^ T['thi'][x >> 4])
    return T['ulo'][b & 15] ^ T['uhi'][b >> 4]


def inv_sub(x):
    b = tower_inv(T['dlo'][x & 15] ^ T['dhi'][x >> 4])
    return T['olo'][b & 15] ^ T['ohi'][b >> 4]


def main():
    for x in range(256):
        inv = 0 if x == 0 else [y for y in range(256) if g256(x, y) == 1][0]
        s = lin(inv) ^ 0x63
        assert sub(x) == s ^ 0x63 and inv_sub(s ^ 0x63) == x
    print("/* lam = 0x%x, beta = 0x%02x */" % (LAM, BETA))
    for k in ['tlo', 'thi', 'dlo', 'dhi', 'log', 'linv', 'sql', 'sq', 'ulo', 'uhi', 'olo', 'ohi', 'exp']:
        print("    .%s = {%s}," % (k, ", ".join("0x%02x" % b for b in T[k])))


if __name__ == "__main__":
    main()
