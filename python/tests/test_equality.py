"""incore's results equal those of hashlib, hmac, zlib, crc32c,
google-crc32c and pyca/cryptography: every length 0..2048 on random
bytes, then random chunkings and arguments (hypothesis)."""
import hashlib
import hmac
import os
import random
import zlib

import crc32c as crc32c_pkg
import google_crc32c
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from hypothesis import given
from hypothesis import strategies as st

import incore
from refs import xchacha20poly1305_encrypt

HASHES = ["sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"]
DATA = os.urandom(2048 + 64)
LENGTHS = range(0, 2049)


def chunks(data, cuts):
    """data split at the sorted cut points."""
    points = sorted({c % (len(data) + 1) for c in cuts})
    prev = 0
    for p in points + [len(data)]:
        yield data[prev:p]
        prev = p


@pytest.mark.parametrize("name", HASHES)
def test_hash_every_length(name):
    ours = getattr(incore, name)

    def ref(m):
        return hashlib.new(name, m)
    for n in LENGTHS:
        m = DATA[:n]
        assert ours(m).digest() == ref(m).digest(), n
        assert incore.new(name, m).hexdigest() == ref(m).hexdigest(), n


@given(name=st.sampled_from(HASHES), data=st.binary(max_size=2048),
       cuts=st.lists(st.integers(0, 2048), max_size=6))
def test_hash_chunked(name, data, cuts):
    h, r = incore.new(name), hashlib.new(name)
    for c in chunks(data, cuts):
        h.update(c)
        r.update(c)
        assert h.digest() == r.digest()   # digest() leaves the state usable
    assert h.copy().hexdigest() == r.hexdigest()


def test_hash_large_with_gil_released():
    big = os.urandom(3 << 20)
    for name in HASHES:
        assert incore.new(name, big).digest() == hashlib.new(name, big).digest()


@pytest.mark.parametrize("name", HASHES)
def test_hmac_every_length(name):
    key = DATA[-64:]
    for n in range(0, 2049, 7):
        m = DATA[:n]
        assert incore.hmac_new(key, m, name).digest() == hmac.new(key, m, name).digest(), n


@given(name=st.sampled_from(HASHES), key=st.binary(max_size=300), data=st.binary(max_size=2048),
       cuts=st.lists(st.integers(0, 2048), max_size=4))
def test_hmac_chunked(name, key, data, cuts):
    h, r = incore.hmac_new(key, digestmod=getattr(incore, name)), hmac.new(key, digestmod=name)
    for c in chunks(data, cuts):
        h.update(c)
        r.update(c)
    assert h.hexdigest() == r.hexdigest()
    assert h.name == r.name and h.digest_size == r.digest_size and h.block_size == r.block_size


@given(name=st.sampled_from(HASHES), ikm=st.binary(max_size=100), salt=st.one_of(st.none(), st.binary(max_size=100)),
       info=st.binary(max_size=100), data=st.data())
def test_hkdf(name, ikm, salt, info, data):
    alg = getattr(hashes, name.upper())()
    length = data.draw(st.integers(1, 255 * alg.digest_size))
    ref = HKDF(algorithm=alg, length=length, salt=salt, info=info).derive(ikm)
    assert incore.hkdf(name, ikm, length, salt, info) == ref


def test_crc_every_length():
    for n in LENGTHS:
        m = DATA[:n]
        assert incore.crc32(m) == zlib.crc32(m), n
        assert incore.crc32c(m) == crc32c_pkg.crc32c(m) == google_crc32c.value(m), n


@given(data=st.binary(max_size=2048), cuts=st.lists(st.integers(0, 2048), max_size=6),
       start=st.integers(0, 2**32 - 1))
def test_crc_chunked(data, cuts, start):
    a, c = start, start
    for piece in chunks(data, cuts):
        a = incore.crc32(piece, a)
        c = incore.crc32c(piece, value=c)
    assert a == zlib.crc32(data, start)
    assert c == crc32c_pkg.crc32c(data, value=start)
    g = google_crc32c.Checksum()
    g.update(data)
    assert incore.crc32c(data) == int.from_bytes(g.digest(), "big")


@given(a=st.binary(max_size=600), b=st.binary(max_size=600))
def test_crc_combine(a, b):
    assert incore.crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)
    assert incore.crc32c_combine(incore.crc32c(a), incore.crc32c(b), len(b)) == incore.crc32c(a + b)


def test_crc_combine_edges():
    b = DATA[:100]
    for c1 in (0, 1, 0xFFFFFFFF):   # 0xffffffff: the 32-bit error value of unsigned long
        assert incore.crc32_combine(c1, zlib.crc32(b), len(b)) == zlib.crc32(b, c1)
        assert incore.crc32c_combine(c1, incore.crc32c(b), len(b)) == incore.crc32c(b, c1)
    with pytest.raises(ValueError):
        incore.crc32_combine(1 << 32, 0, 1)
    with pytest.raises(ValueError):
        incore.crc32_combine(0, 1 << 32, 1)
    with pytest.raises(OverflowError):
        incore.crc32c_combine(-1, 0, 1)


def test_crc_large():
    big = os.urandom((1 << 20) + 3)
    assert incore.crc32(big) == zlib.crc32(big)
    assert incore.crc32c(big) == crc32c_pkg.crc32c(big)


def test_aead_every_length():
    rng = random.Random(1)
    for n in LENGTHS:
        key = rng.randbytes(rng.choice((16, 24, 32)))
        nonce, aad, m = rng.randbytes(12), rng.randbytes(n % 37), DATA[:n]
        ct = incore.AESGCM(key).encrypt(nonce, m, aad)
        assert ct == AESGCM(key).encrypt(nonce, m, aad), n
        assert incore.AESGCM(key).decrypt(nonce, ct, aad) == m
        k2 = rng.randbytes(32)
        ct = incore.ChaCha20Poly1305(k2).encrypt(nonce, m, aad)
        assert ct == ChaCha20Poly1305(k2).encrypt(nonce, m, aad), n
        assert incore.ChaCha20Poly1305(k2).decrypt(nonce, ct, aad) == m


@given(keylen=st.sampled_from([16, 24, 32]), nonce=st.binary(min_size=8, max_size=128),
       data=st.binary(max_size=2048), aad=st.one_of(st.none(), st.binary(max_size=200)))
def test_aesgcm_any_nonce(keylen, nonce, data, aad):
    key = os.urandom(keylen)
    ct = incore.AESGCM(key).encrypt(nonce, data, aad)
    assert ct == AESGCM(key).encrypt(nonce, data, aad)
    assert AESGCM(key).decrypt(nonce, ct, aad) == data


@given(data=st.binary(max_size=2048), aad=st.one_of(st.none(), st.binary(max_size=200)))
def test_xchacha(data, aad):
    key, nonce = os.urandom(32), os.urandom(24)
    ct = incore.XChaCha20Poly1305(key).encrypt(nonce, data, aad)
    assert ct == xchacha20poly1305_encrypt(key, nonce, data, aad or b"")
    assert incore.XChaCha20Poly1305(key).decrypt(nonce, ct, aad) == data


def test_aead_large():
    key, nonce, big = os.urandom(32), os.urandom(12), os.urandom((1 << 20) + 5)
    assert incore.AESGCM(key).encrypt(nonce, big, b"a") == AESGCM(key).encrypt(nonce, big, b"a")
    assert incore.ChaCha20Poly1305(key).encrypt(nonce, big, None) == ChaCha20Poly1305(key).encrypt(nonce, big, None)


@given(keylen=st.sampled_from([32, 64]), n=st.integers(16, 2048))
def test_xts(keylen, n):
    key, tweak, data = os.urandom(keylen), os.urandom(16), os.urandom(n)
    ref = Cipher(algorithms.AES(key), modes.XTS(tweak)).encryptor().update(data)
    x = incore.AESXTS(key)
    assert x.encrypt(tweak, data) == ref
    assert x.decrypt(tweak, ref) == data


@given(a=st.binary(max_size=80), b=st.binary(max_size=80))
def test_compare_digest(a, b):
    assert incore.compare_digest(a, b) == hmac.compare_digest(a, b)
    assert incore.compare_digest(a, a)
