"""Threads: 8 threads hashing and sealing shared and separate objects give
the results one thread gives; the GIL is released during every large hash,
CRC and AEAD call (a Python thread beside the call keeps running)."""
import hashlib
import os
import sys
import threading
import time
import zlib

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

import incore

THREADS = 8


def run_threads(fn):
    errors, threads = [], []

    def wrap(i):
        try:
            fn(i)
        except BaseException as e:   # reported by the main thread
            errors.append(e)

    for i in range(THREADS):
        threads.append(threading.Thread(target=wrap, args=(i,)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_shared_hash_object():
    chunk = os.urandom(100000)   # above the GIL threshold: updates run without the GIL
    small = chunk[:100]
    h, hm = incore.sha256(), incore.hmac_new(b"key", digestmod="sha512")

    def work(i):
        for _ in range(20):
            h.update(chunk)
            hm.update(small)
            h.copy().digest()

    run_threads(work)
    assert h.digest() == hashlib.sha256(chunk * (20 * THREADS)).digest()
    ref = incore.hmac_new(b"key", small * (20 * THREADS), "sha512")
    assert hm.digest() == ref.digest()


def test_separate_objects_and_shared_aead():
    key = os.urandom(32)
    shared = incore.AESGCM(key)
    datas = [os.urandom(50000 + i) for i in range(THREADS)]
    results = [None] * THREADS

    def work(i):
        d = datas[i]
        out = []
        for j in range(10):
            nonce = bytes([i, j]) * 6
            ct = shared.encrypt(nonce, d, b"ad")
            assert shared.decrypt(nonce, ct, b"ad") == d
            out.append((incore.sha512(d).digest(), incore.crc32c(d), incore.crc32(d), ct))
        results[i] = out

    run_threads(work)
    ref = AESGCM(key)
    for i, d in enumerate(datas):
        for j, (dg, c, z, ct) in enumerate(results[i]):
            assert dg == hashlib.sha512(d).digest() and z == zlib.crc32(d)
            assert c == incore.crc32c(d)
            assert ct == ref.encrypt(bytes([i, j]) * 6, d, b"ad")


def progress_during(call, done):
    """How far a Python thread counted while call() ran, per try, until
    done(count) or 30 tries.  The switch interval is made long, so the
    counter (which gives the GIL up on every step) runs during call() only
    if call() releases the GIL; a stray switch can still add a few steps to
    one try, so the checks look for a try that shows the behaviour."""
    count, stop = [0], [False]

    def counter():
        while not stop[0]:
            count[0] += 1
            time.sleep(0)

    old = sys.getswitchinterval()
    t = threading.Thread(target=counter)
    t.start()
    counts = []
    try:
        while count[0] == 0:
            time.sleep(0.001)
        sys.setswitchinterval(100.0)
        # a wait for the GIL that began before reads the old interval:
        # let the counter start its waits afresh
        time.sleep(0.02)
        for _ in range(30):
            c0 = count[0]
            call()
            counts.append(count[0] - c0)
            if done(counts[-1]):
                break
        return counts
    finally:
        sys.setswitchinterval(old)
        stop[0] = True
        t.join()


def test_gil_released_for_large_calls():
    big = os.urandom(16 << 20)
    zeros = bytes(128 << 20)   # the CRCs run at tens of GB/s: a longer call
    gcm, chacha, xts = incore.AESGCM(os.urandom(16)), incore.ChaCha20Poly1305(os.urandom(32)), incore.AESXTS(os.urandom(64))
    h = incore.sha1()
    calls = {
        "sha256": lambda: incore.sha256(big), "sha512": lambda: incore.sha512(big), "update": lambda: h.update(big),
        "hmac": lambda: incore.hmac_new(b"k", big, "sha256"), "crc32": lambda: incore.crc32(zeros),
        "crc32c": lambda: incore.crc32c(zeros), "aesgcm": lambda: gcm.encrypt(b"n" * 12, big, None),
        "chacha": lambda: chacha.encrypt(b"n" * 12, big, None), "xts": lambda: xts.encrypt(b"t" * 16, big[: 1 << 24]),
        "random": lambda: incore.random_bytes(len(big)),
    }
    stalled = {}
    for name, call in calls.items():
        counts = progress_during(call, lambda c: c >= 5)
        if max(counts) < 5:
            stalled[name] = counts
    assert not stalled, f"a Python thread made no progress during: {stalled}"


def test_method_detects_a_held_gil():
    """The measure above stays near 0 for calls that keep the GIL (small inputs)."""
    small = b"x" * 100

    def many_small():
        for _ in range(20000):
            incore.sha256(small)

    counts = progress_during(many_small, lambda c: c <= 2)
    assert min(counts) <= 2, counts
