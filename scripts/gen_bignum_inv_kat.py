#!/usr/bin/env python3
"""Writes tests/vectors/bignum_modinv.txt: modular inverses from Python's
built-in pow(a, -1, n), an implementation independent of incore's, for
every leg (the cross legs have no GMP).  Deterministic: the seed is fixed,
so a rerun writes the same file.

    python3 scripts/gen_bignum_inv_kat.py > tests/vectors/bignum_modinv.txt
"""
import math
import random

rng = random.Random(1616)


def hexb(v, nbytes):
    return "%0*x" % (2 * nbytes, v)


def rec(comment, n, a):
    nbytes = (n.bit_length() + 7) // 8
    r = pow(a, -1, n) if math.gcd(a, n) == 1 else 0
    print("# " + comment)
    print("N = " + hexb(n, nbytes))
    print("A = " + hexb(a, nbytes))
    print("R = " + hexb(r, nbytes))
    print()


def odd_modulus(bits):
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


print(__doc__.strip().replace("\n", "\n# ").join(["# ", ""]))
print("# Fields: N odd modulus, A < N, R = A^-1 mod N, or all zero when")
print("# gcd(A, N) > 1 (the inverse then reports failure and zeroes its")
print("# output); big-endian hex, each as long as N.")
print()

# random moduli: limb edges of the radix-2^64 / 2^32 limbs and of the
# inverse's radix-2^62 / 2^30 digits, then the RSA sizes and the maximum
for bits in (2, 3, 5, 7, 17, 29, 30, 31, 32, 33, 59, 60, 61, 62, 63, 64, 65, 66, 93, 120, 123, 124, 125,
             126, 127, 128, 129, 186, 187, 188, 190, 191, 192, 255, 256, 257, 511, 512, 521, 1024, 1031,
             1536, 2048, 3072, 4096, 6000, 8192):
    n = odd_modulus(bits) if bits > 2 else 3
    rec("random, %d-bit modulus" % bits, n, rng.randrange(1, n))
for bits in (256, 2048):
    n = odd_modulus(bits)
    rec("%d-bit modulus, a = 1" % bits, n, 1)
    rec("%d-bit modulus, a = 2" % bits, n, 2)
    rec("%d-bit modulus, a = n - 1" % bits, n, n - 1)
    rec("%d-bit modulus, a = n - 2" % bits, n, n - 2)
    rec("%d-bit modulus, a = (n + 1) / 2 (the inverse of 2)" % bits, n, (n + 1) // 2)
    rec("%d-bit modulus, a = 0 (no inverse)" % bits, n, 0)
    rec("%d-bit modulus, a = 2^%d (a power of two)" % (bits, bits - 2), n, 1 << (bits - 2))
    rec("%d-bit modulus, a with one low bit" % bits, n, rng.getrandbits(bits - 1) << 1 | 1)
# composite moduli: a sharing a factor has no inverse
for bits in (64, 512, 2048, 4096):
    p = odd_modulus(bits // 2)
    q = odd_modulus(bits - bits // 2)
    n = p * q
    rec("%d-bit n = p q, a = p (no inverse)" % n.bit_length(), n, p)
    rec("%d-bit n = p q, a a multiple of q (no inverse)" % n.bit_length(), n, q * rng.randrange(1, p))
    a = rng.randrange(1, n)
    rec("%d-bit n = p q, random a (gcd %d)" % (n.bit_length(), math.gcd(a, n)), n, a)
n = 3 * 5 * 7 * 11 * 13 * 17 * 19 * 23 * 29 * 31 * 37 * 41 * 43 * 47
rec("n the product of the odd primes up to 47, a = 47 (no inverse)", n, 47)
rec("n the product of the odd primes up to 47, a = 53", n, 53)
n = 3 ** 1000
rec("n = 3^1000, a = 3^999 (no inverse)", n, 3 ** 999)
rec("n = 3^1000, a = 2^1500", n, 2 ** 1500)
for k in (61, 127, 521, 2048, 4096, 8192):
    n = (1 << k) - 1
    rec("modulus 2^%d - 1, a = 2^%d" % (k, k // 3), n, 1 << (k // 3))
    rec("modulus 2^%d - 1, a = n - 1" % k, n, n - 1)
n = 3
rec("modulus 3, a = 1", n, 1)
rec("modulus 3, a = 2", n, 2)
n = (1 << 2048) - 159     # odd, near the top of its length
rec("modulus 2^2048 - 159 (top limb all ones)", n, n - 2)
n = (1 << 2047) + 1        # 2^2047 + 1 = 3 * ...: top bit only and the low bit
rec("modulus 2^2047 + 1 (sparse), random a", n, rng.randrange(1, n))
rec("modulus 2^2047 + 1 (sparse), a = 3 (no inverse)", n, 3)
n = (1 << 8191) + 1
rec("modulus 2^8191 + 1 (sparse, the maximum length), a = 2^8190", n, 1 << 8190)
# Fibonacci neighbours: the slowest case of Euclid's algorithm
f = [1, 2]
while f[-1].bit_length() < 2048:
    f.append(f[-1] + f[-2])
n, a = (f[-1], f[-2]) if f[-1] % 2 else (f[-2], f[-3])
rec("Fibonacci neighbours, %d-bit modulus" % n.bit_length(), n, a)
