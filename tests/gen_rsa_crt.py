#!/usr/bin/env python3
"""gen_rsa_crt.py IN OUT - add the CRT parts of each key to a CAVP RSA SigGen file.

The FIPS 186-2 SigGen15 / SigGenPSS files give each key as n, e and d only;
incore's private keys take p, q, dp, dq and qinv too.  This copies IN to OUT
and writes, after every "d = " line, the lines "p = ", "q = ", "dp = ",
"dq = " and "qinv = " (hex, p > q, qinv = q^-1 mod p).  p and q come from n,
e and d by the method of NIST SP 800-56B Rev. 2, Appendix C.2: with
de - 1 = 2^t r (r odd), for g = 2, 3, ... the sequence g^r, g^2r, ... mod n
reaches 1, and the element before it, when it is not -1, shares a factor
with n.  ic_rsa_private_key_init checks p q = n and the rest, so a wrong
derivation fails the test rather than passing it.
"""
import math
import sys


def factor(n, e, d):
    k = d * e - 1
    t = 0
    r = k
    while r % 2 == 0:
        r //= 2
        t += 1
    for g in range(2, 10000):
        y = pow(g, r, n)
        if y in (1, n - 1):
            continue
        for _ in range(t):
            x = y * y % n
            if x == 1:
                p = math.gcd(y - 1, n)
                return max(p, n // p), min(p, n // p)
            if x == n - 1:
                break
            y = x
    raise SystemExit("gen_rsa_crt.py: could not factor a modulus (is d right?)")


def hexof(v):
    h = "%x" % v
    return h if len(h) % 2 == 0 else "0" + h


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: gen_rsa_crt.py IN OUT")
    n = e = None
    out = []
    with open(sys.argv[1]) as f:
        for line in f:
            out.append(line)
            key, _, val = line.strip().partition(" = ")
            if key == "n":
                n = int(val, 16)
            elif key == "e":
                e = int(val, 16)
            elif key == "d":
                d = int(val, 16)
                p, q = factor(n, e, d)
                for name, v in (("p", p), ("q", q), ("dp", d % (p - 1)), ("dq", d % (q - 1)),
                                ("qinv", pow(q, -1, p))):
                    out.append("%s = %s\n" % (name, hexof(v)))
    with open(sys.argv[2], "w") as f:
        f.writelines(out)


main()
