"""python -m incore.bench: incore beside hashlib, zlib, crc32c,
google-crc32c and pyca/cryptography, in one run, as ratios.

Each row times incore's call and the peer's on the same input, alternating
the two in rounds and keeping each one's best round, so a load that changes
during the run moves both.  A peer that is not installed is named, not
timed.  Figures are MB/s (10^6 bytes per second) of input and the speedup
incore / peer."""
import argparse
import os
import sys
import time

import incore


def _best_rate(fn, size, seconds, rounds):
    """Bytes per second of fn() at its best round."""
    n = 1
    while True:   # calls per round: about seconds / rounds each
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        if dt >= seconds / rounds / 4:
            break
        n *= 4
    n = max(1, int(n * (seconds / rounds) / dt))
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return size / best


def _rows():
    """(operation, size, incore call, peer name, peer call or the reason it is missing)."""
    mib, k16, b64 = os.urandom(1 << 20), os.urandom(16 << 10), os.urandom(64)
    key16, key32, nonce = os.urandom(16), os.urandom(32), os.urandom(12)
    rows = []
    import hashlib
    import zlib
    for name in ("sha256", "sha512"):
        ours, peer = getattr(incore, name), getattr(hashlib, name)
        for data in (mib, b64):
            rows.append((f"{name}", len(data), lambda d=data, f=ours: f(d).digest(), "hashlib (OpenSSL)",
                         lambda d=data, f=peer: f(d).digest()))
    rows.append(("crc32", len(mib), lambda: incore.crc32(mib), "zlib", lambda: zlib.crc32(mib)))
    rows.append(("crc32", 64, lambda: incore.crc32(b64), "zlib", lambda: zlib.crc32(b64)))
    try:
        import crc32c
        rows.append(("crc32c", len(mib), lambda: incore.crc32c(mib), "crc32c", lambda: crc32c.crc32c(mib)))
        rows.append(("crc32c", 64, lambda: incore.crc32c(b64), "crc32c", lambda: crc32c.crc32c(b64)))
    except ImportError as e:
        rows.append(("crc32c", len(mib), lambda: incore.crc32c(mib), "crc32c", e))
    try:
        import google_crc32c
        rows.append(("crc32c", len(mib), lambda: incore.crc32c(mib), "google-crc32c",
                     lambda: google_crc32c.value(mib)))
        rows.append(("crc32c", 64, lambda: incore.crc32c(b64), "google-crc32c", lambda: google_crc32c.value(b64)))
    except ImportError as e:
        rows.append(("crc32c", len(mib), lambda: incore.crc32c(mib), "google-crc32c", e))
    try:
        from cryptography.hazmat.primitives.ciphers import aead
        for cls, key in (("AESGCM", key16), ("AESGCM", key32), ("ChaCha20Poly1305", key32)):
            ours, peer = getattr(incore, cls)(key), getattr(aead, cls)(key)
            label = f"{cls}.encrypt" + (f" (AES-{len(key) * 8})" if cls == "AESGCM" else "")
            for data in (k16, b64):
                rows.append((label, len(data), lambda d=data, o=ours: o.encrypt(nonce, d, None), "cryptography",
                             lambda d=data, p=peer: p.encrypt(nonce, d, None)))
        ours, peer = incore.AESGCM(key16), aead.AESGCM(key16)
        ct = peer.encrypt(nonce, k16, None)
        rows.append(("AESGCM.decrypt (AES-128)", len(k16), lambda: ours.decrypt(nonce, ct, None), "cryptography",
                     lambda: peer.decrypt(nonce, ct, None)))
    except ImportError as e:
        rows.append(("AESGCM.encrypt", len(k16), None, "cryptography", e))
    return rows


def _size(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB" if n >= 1 << 10 else f"{n} B"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m incore.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=0.3, help="time per figure (default 0.3)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds per row (default 5)")
    args = ap.parse_args(argv)
    print(f"incore {incore.__version__}, Python {sys.version.split()[0]}; MB/s = 10^6 bytes/s, "
          f"best of {args.rounds} alternating rounds\n")
    print("| operation | size | incore MB/s | peer | peer MB/s | incore / peer |")
    print("|---|---|---:|---|---:|---:|")
    for op, size, ours, peer_name, peer in _rows():
        if not callable(peer):
            print(f"| {op} | {_size(size)} | | {peer_name} | not installed ({peer}) | |")
            continue
        a = b = 0.0
        per = args.seconds / args.rounds
        for _ in range(args.rounds):   # interleaved: each round times both
            a = max(a, _best_rate(ours, size, per, 1))
            b = max(b, _best_rate(peer, size, per, 1))
        print(f"| {op} | {_size(size)} | {a / 1e6:,.0f} | {peer_name} | {b / 1e6:,.0f} | {a / b:.2f}x |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
