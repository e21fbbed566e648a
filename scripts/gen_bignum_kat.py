#!/usr/bin/env python3
"""Writes tests/vectors/bignum_modexp.txt: modular exponentiation answers
from Python's built-in pow(b, e, n), an implementation independent of
incore's, for every leg (the cross legs have no GMP).  Deterministic: the
seed is fixed, so a rerun writes the same file.

    python3 scripts/gen_bignum_kat.py > tests/vectors/bignum_modexp.txt
"""
import random

rng = random.Random(16)


def hexb(v, nbytes):
    return "%0*x" % (2 * nbytes, v) if nbytes else ""


def rec(comment, n, b, e, blen=None, elen=None):
    nbytes = (n.bit_length() + 7) // 8
    blen = nbytes if blen is None else blen
    elen = max(1, (e.bit_length() + 7) // 8) if elen is None else elen
    print("# " + comment)
    print("N = " + hexb(n, nbytes))
    print("B = " + hexb(b, blen))
    print("E = " + hexb(e, elen))
    print("R = " + hexb(pow(b, e, n), nbytes))
    print()


def odd_modulus(bits):
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


print(__doc__.strip().replace("\n", "\n# ").join(["# ", ""]))
print("# Fields: N modulus, B base, E exponent, R = B^E mod N; big-endian hex,")
print("# R as long as N.  B and E may carry leading zero bytes (lengths count).")
print()

for bits in (512, 521, 768, 1024, 1031, 1536, 2048, 3072, 4096):
    n = odd_modulus(bits)
    rec("random, %d-bit modulus, exponent as long" % bits, n, rng.randrange(n), rng.getrandbits(bits))
for bits in (2048, 4096):
    n = odd_modulus(bits)
    rec("%d-bit modulus, e = 65537" % bits, n, rng.randrange(n), 65537)
n = odd_modulus(8192)
rec("8192-bit modulus (the maximum), 256-bit exponent", n, rng.randrange(n), rng.getrandbits(256))
n = odd_modulus(1024)
rec("exponent longer than the modulus (2048 bits)", n, rng.randrange(n), rng.getrandbits(2048) | 1 << 2047)
rec("short base with leading zero bytes", n, 0x1234, rng.getrandbits(1024), blen=40)
rec("exponent with leading zero bytes", n, rng.randrange(n), 5, elen=64)
rec("exponent 1", n, rng.randrange(n), 1)
rec("exponent 2", n, rng.randrange(n), 2)
rec("base 0", n, 0, rng.getrandbits(1024))
rec("base 1", n, 1, rng.getrandbits(1024))
rec("base n - 1, even exponent", n, n - 1, rng.getrandbits(1024) & ~1)
rec("base n - 1, odd exponent", n, n - 1, rng.getrandbits(1024) | 1)
rec("all-ones exponent", n, rng.randrange(n), (1 << 1024) - 1)
for k in (127, 521, 1279, 2048, 4096):
    n = (1 << k) - 1
    rec("modulus 2^%d - 1, base n - 1 (all ones but the last bit)" % k, n, n - 1, rng.getrandbits(k))
    rec("modulus 2^%d - 1, all-ones exponent" % k, n, rng.randrange(n), n)
for bits in (3, 5, 17, 63, 64, 65, 96, 127, 128, 129):
    n = odd_modulus(bits) if bits > 2 else 3
    rec("small modulus of %d bits (limb edges)" % bits, n, rng.randrange(n), rng.getrandbits(bits + 7))
n = 3
rec("modulus 3", n, 2, 3)
n = (1 << 2048) - 159     # odd, near the top of its length
rec("modulus 2^2048 - 159 (top limb all ones)", n, n - 2, rng.getrandbits(2048))
n = (1 << 2047) + 1        # 2^2047 + 1: top bit only and the low bit
rec("modulus 2^2047 + 1 (sparse)", n, rng.randrange(n), rng.getrandbits(2048))
