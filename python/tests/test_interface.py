"""Interface parity with hashlib, hmac, zlib, crc32c and cryptography:
attributes, exceptions, copy() independence, pickling refused, every kind
of buffer; the project's vectors; random bytes, rngtest, info."""
import array
import copy
import hashlib
import hmac
import io
import mmap
import os
import pickle
import subprocess
import sys
import zlib

import pytest
from cryptography.hazmat.primitives.ciphers import aead

import incore
from conftest import read_blocks

HASHES = ["sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"]
KEY16, KEY32, N12, N24 = b"k" * 16, b"K" * 32, b"n" * 12, b"N" * 24


@pytest.mark.parametrize("name", HASHES)
def test_hash_attributes(name):
    h, r = incore.new(name, b"abc"), hashlib.new(name, b"abc")
    assert (h.name, h.digest_size, h.block_size) == (r.name, r.digest_size, r.block_size)
    assert getattr(incore, name)(b"abc", usedforsecurity=False).digest() == r.digest()
    assert incore.new(name.upper(), data=b"abc").digest() == r.digest()
    assert isinstance(h, incore.HASH)


def test_hash_copy_independent():
    h = incore.sha256(b"a")
    c = h.copy()
    c.update(b"b")
    assert h.digest() == hashlib.sha256(b"a").digest()
    assert c.digest() == hashlib.sha256(b"ab").digest()
    assert h.digest() == h.digest()


def test_hash_errors():
    with pytest.raises(ValueError):
        incore.new("md5")
    with pytest.raises(ValueError):
        incore.new("sha256\0x")
    with pytest.raises(TypeError):
        incore.new(b"sha256")
    with pytest.raises(TypeError, match="encoded"):
        incore.sha256("text")
    with pytest.raises(TypeError, match="encoded"):
        incore.sha256().update("text")
    with pytest.raises(TypeError):
        incore.sha256(12)
    with pytest.raises(TypeError):
        incore.HASH()
    with pytest.raises(TypeError):
        incore.sha256(b"", True)   # usedforsecurity is keyword-only


def test_file_digest(tmp_path):
    data = os.urandom(700000)
    p = tmp_path / "f"
    p.write_bytes(data)
    with open(p, "rb") as f:
        assert incore.file_digest(f, "sha256").digest() == hashlib.sha256(data).digest()
    with open(p, "rb") as f:
        assert incore.file_digest(f, incore.sha384).hexdigest() == hashlib.sha384(data).hexdigest()
    assert incore.file_digest(io.BytesIO(data), "sha1").digest() == hashlib.sha1(data).digest()
    with open(p, "r") as f, pytest.raises(ValueError):
        incore.file_digest(f, "sha256")


def test_hmac_interface():
    h = incore.hmac_new(b"key", b"msg", "sha256")
    r = hmac.new(b"key", b"msg", "sha256")
    assert h.name == "hmac-sha256" == r.name
    assert (h.digest_size, h.block_size) == (r.digest_size, r.block_size)
    c = h.copy()
    c.update(b"more")
    assert h.hexdigest() == r.hexdigest()
    r.update(b"more")
    assert c.digest() == r.digest()
    assert incore.hmac_new(b"k", digestmod=hashlib.sha512).digest() == hmac.new(b"k", digestmod="sha512").digest()
    assert incore.hmac_new(bytearray(b"k"), memoryview(b"m"), incore.sha1).digest() == \
        hmac.new(b"k", b"m", "sha1").digest()
    with pytest.raises(TypeError, match="digestmod"):
        incore.hmac_new(b"key", b"msg")
    with pytest.raises(ValueError):
        incore.hmac_new(b"key", b"msg", "md5")
    with pytest.raises(TypeError):
        incore.hmac_new("key", b"msg", "sha256")


def test_compare_digest_types():
    assert incore.compare_digest("abc", "abc") and not incore.compare_digest("abc", "abd")
    assert incore.compare_digest(bytearray(b"x"), memoryview(b"x"))
    with pytest.raises(TypeError):
        incore.compare_digest("abc", b"abc")
    with pytest.raises(TypeError):
        incore.compare_digest("\u00e9", "\u00e9")


def test_hkdf_limits():
    assert len(incore.hkdf("sha256", b"ikm", 255 * 32)) == 255 * 32
    with pytest.raises(ValueError):
        incore.hkdf("sha256", b"ikm", 255 * 32 + 1)
    with pytest.raises(ValueError):
        incore.hkdf(incore.sha1, b"ikm", 0)
    with pytest.raises(ValueError):
        incore.hkdf("md5", b"ikm", 16)


def test_crc_interface():
    assert incore.crc32(b"123456789") == 0xCBF43926 == zlib.crc32(b"123456789")
    assert incore.crc32c(b"123456789") == 0xE3069283
    assert incore.crc32(b"abc", value=5) == zlib.crc32(b"abc", 5)
    assert incore.crc32(b"abc", -1) == zlib.crc32(b"abc", -1)
    assert incore.crc32(b"abc", 2**40 + 7) == zlib.crc32(b"abc", 2**40 + 7)

    class Index:   # an integer by __index__ (as NumPy's are), taken by zlib too
        def __index__(self):
            return 0xDEADBEEF

    assert incore.crc32(b"abc", Index()) == zlib.crc32(b"abc", Index())
    assert incore.crc32c(b"abc", value=Index()) == incore.crc32c(b"abc", 0xDEADBEEF)
    with pytest.raises(TypeError):
        incore.crc32(b"abc", 1.0)
    with pytest.raises(TypeError):
        incore.crc32("abc")
    with pytest.raises(TypeError):
        incore.crc32c(b"abc", value="1")
    with pytest.raises((ValueError, OverflowError)):
        incore.crc32_combine(2**32, 0, 1)
    with pytest.raises((ValueError, OverflowError)):
        incore.crc32c_combine(0, 0, -1)


AEADS = [(incore.AESGCM, aead.AESGCM, KEY16, N12), (incore.ChaCha20Poly1305, aead.ChaCha20Poly1305, KEY32, N12),
         (incore.XChaCha20Poly1305, None, KEY32, N24)]


@pytest.mark.parametrize("ours,ref,key,nonce", AEADS)
def test_aead_errors(ours, ref, key, nonce):
    a = ours(key)
    ct = a.encrypt(nonce, b"secret", b"ad")
    assert a.decrypt(nonce, ct, b"ad") == b"secret"
    assert a.decrypt(bytearray(nonce), memoryview(ct), bytearray(b"ad")) == b"secret"
    for bad in (ct[:-1] + bytes([ct[-1] ^ 1]), bytes([ct[0] ^ 0x80]) + ct[1:], ct[:15], b""):
        with pytest.raises(incore.InvalidTag):
            a.decrypt(nonce, bad, b"ad")
    with pytest.raises(incore.InvalidTag):
        a.decrypt(nonce, ct, b"other")
    with pytest.raises(incore.InvalidTag):
        a.decrypt(nonce, ct, None)
    with pytest.raises(ValueError):
        ours(key[:-1])
    with pytest.raises(ValueError):
        a.encrypt(nonce + b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", b"", None)
    with pytest.raises(ValueError):
        a.encrypt(b"", b"", None)
    with pytest.raises(TypeError):
        a.encrypt(nonce, "str", None)
    with pytest.raises(TypeError):
        ours("k" * len(key))
    assert not issubclass(incore.InvalidTag, ValueError)
    if ref is not None:   # cryptography rejects the same sizes
        with pytest.raises(ValueError):
            ref(key[:-1])
    buf = bytearray(6 + 16)
    assert a.encrypt_into(nonce, b"secret", b"ad", buf) == 22 and bytes(buf) == ct
    out = bytearray(6)
    assert a.decrypt_into(nonce, ct, b"ad", out) == 6 and out == b"secret"
    with pytest.raises(ValueError):
        a.encrypt_into(nonce, b"secret", b"ad", bytearray(21))
    with pytest.raises((TypeError, BufferError)):
        a.encrypt_into(nonce, b"secret", b"ad", bytes(22))   # read-only
    out = bytearray(b"untouched!")
    with pytest.raises(incore.InvalidTag):
        a.decrypt_into(nonce, b"\0" * 26, b"ad", out)
    assert out == bytearray(10)   # nothing decrypted is left in it


def test_aesgcm_nonce_lengths():
    a, r = incore.AESGCM(KEY16), aead.AESGCM(KEY16)
    for n in (7, 129):
        with pytest.raises(ValueError):
            a.encrypt(b"x" * n, b"", None)
        with pytest.raises(ValueError):
            r.encrypt(b"x" * n, b"", None)
    for n in (8, 16, 128):
        assert a.encrypt(b"x" * n, b"m", None) == r.encrypt(b"x" * n, b"m", None)


def test_generate_key():
    for bits in (128, 192, 256):
        k = incore.AESGCM.generate_key(bits)
        assert len(k) == bits // 8 and k != incore.AESGCM.generate_key(bits)
    assert len(incore.AESGCM.generate_key(bit_length=192)) == 24
    with pytest.raises(ValueError):
        incore.AESGCM.generate_key(100)
    with pytest.raises(TypeError):
        incore.AESGCM.generate_key("128")
    assert len(incore.ChaCha20Poly1305.generate_key()) == 32
    assert len(incore.XChaCha20Poly1305.generate_key()) == 32
    assert len(incore.AESXTS.generate_key(512)) == 64


def test_xts_errors():
    x = incore.AESXTS(os.urandom(64))
    with pytest.raises(ValueError):
        x.encrypt(b"t" * 16, b"short")
    with pytest.raises(ValueError):
        x.encrypt(b"t" * 15, b"x" * 16)
    with pytest.raises(ValueError):
        incore.AESXTS(b"k" * 48)
    with pytest.raises(ValueError):
        incore.AESXTS(b"k" * 32)   # equal halves


@pytest.mark.parametrize("obj", [incore.sha256(), incore.hmac_new(b"k", digestmod="sha1"), incore.AESGCM(KEY16),
                                 incore.ChaCha20Poly1305(KEY32), incore.XChaCha20Poly1305(KEY32),
                                 incore.AESXTS(os.urandom(32))])
def test_pickling_refused(obj):
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(TypeError, match="cannot pickle"):
            pickle.dumps(obj, proto)
    with pytest.raises(TypeError):
        copy.deepcopy(obj)


def buffers(data):
    """data in every kind of contiguous buffer."""
    yield data
    yield bytearray(data)
    yield memoryview(data)
    yield memoryview(bytearray(data)).toreadonly()
    if len(data) % 4 == 0:
        yield memoryview(data).cast("I")
        yield array.array("I", data)
    yield array.array("B", data)
    yield array.array("b", data)
    m = mmap.mmap(-1, len(data))
    m.write(data)
    yield m
    yield memoryview(data)[0:]


def test_every_buffer_type():
    data = os.urandom(4096 * 2)
    want = (hashlib.sha256(data).digest(), zlib.crc32(data), incore.crc32c(data),
            incore.AESGCM(KEY16).encrypt(N12, data, data))
    for b in buffers(data):
        assert incore.sha256(b).digest() == want[0], type(b)
        h = incore.sha256()
        h.update(b)
        assert h.digest() == want[0]
        assert incore.crc32(b) == want[1] and incore.crc32c(b) == want[2]
        assert incore.AESGCM(KEY16).encrypt(N12, b, b) == want[3]


def test_non_contiguous_refused():
    nc = memoryview(bytearray(64))[::2]
    for call in (lambda: incore.sha256(nc), lambda: incore.crc32(nc), lambda: incore.crc32c(nc),
                 lambda: incore.AESGCM(KEY16).encrypt(N12, nc, None), lambda: incore.sha1().update(nc),
                 lambda: incore.hmac_new(b"k", nc, "sha256"), lambda: incore.AESXTS(os.urandom(32)).encrypt(nc, nc)):
        with pytest.raises((BufferError, TypeError)):
            call()


def test_vectors_sha_hmac_hkdf():
    n = 0
    for r in read_blocks("sha_kat.txt"):
        if "MD" in r:
            msg = bytes.fromhex(r["Msg"]) * int(r.get("Repeat", "1"))
            assert incore.new(r["Alg"], msg).hexdigest() == r["MD"]
            n += 1
    for r in read_blocks("hmac_kat.txt"):
        if "MAC" in r:
            mac = incore.hmac_new(bytes.fromhex(r["Key"]), bytes.fromhex(r["Data"]), r["Alg"]).hexdigest()
            assert mac.startswith(r["MAC"])
            n += 1
    for r in read_blocks("hkdf_kat.txt"):
        if "OKM" in r:
            salt = bytes.fromhex(r["Salt"]) if r.get("Salt") else None
            okm = incore.hkdf(r["Alg"], bytes.fromhex(r["IKM"]), int(r["L"]), salt, bytes.fromhex(r.get("Info", "")))
            assert okm.hex() == r["OKM"]
            n += 1
    assert n > 20


def test_vectors_crc_gcm_chacha_xts():
    n = 0
    for r in read_blocks("crc_kat.txt"):
        if "CRC32" in r:
            m = bytes.fromhex(r["MSG"]) * int(r["REPEAT"])
            assert incore.crc32(m) == int(r["CRC32"], 16) and incore.crc32c(m) == int(r["CRC32C"], 16)
            n += 1
    for r in read_blocks("gcm_kat.txt"):
        if "Tag" in r and len(r["Tag"]) == 32:
            ct = incore.AESGCM(bytes.fromhex(r["Key"])).encrypt(bytes.fromhex(r["IV"]), bytes.fromhex(r["PT"]),
                                                                bytes.fromhex(r.get("AAD", "")))
            assert ct.hex() == r["CT"] + r["Tag"]
            n += 1
    for r in read_blocks("chacha_kat.txt"):
        if r.get("section") in ("AEAD", "XAEAD") and "TAG" in r:
            cls = incore.ChaCha20Poly1305 if r["section"] == "AEAD" else incore.XChaCha20Poly1305
            ct = cls(bytes.fromhex(r["KEY"])).encrypt(bytes.fromhex(r["NONCE"]), bytes.fromhex(r["PLAINTEXT"]),
                                                      bytes.fromhex(r["AAD"]))
            assert ct.hex() == r["CIPHERTEXT"] + r["TAG"]
            n += 1
    for r in read_blocks("xts_ieee1619.txt"):
        if "CIPHERTEXT" in r and r.get("EQUAL_HALVES") != "1":
            x = incore.AESXTS(bytes.fromhex(r["KEY1"] + r["KEY2"]))
            assert x.encrypt(bytes.fromhex(r["TWEAK"]), bytes.fromhex(r["PLAINTEXT"])).hex() == r["CIPHERTEXT"]
            n += 1
    assert n > 25


def test_random_bytes_and_fork():
    a, b = incore.random_bytes(32), incore.random_bytes(32)
    assert len(a) == 32 and a != b and incore.random_bytes(0) == b""
    with pytest.raises(ValueError):
        incore.random_bytes(-1)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child's bytes must differ from the parent's
        os.write(w, incore.random_bytes(32))
        os._exit(0)
    os.close(w)
    parent = incore.random_bytes(32)
    child = os.read(r, 32)
    os.waitpid(pid, 0)
    os.close(r)
    assert len(child) == 32 and child != parent


def test_rngtest():
    res = incore.rngtest(incore.random_bytes(1 << 18))
    assert res["pass"] is True and res["bytes"] == 1 << 18
    assert {t["name"] for t in res["tests"]} >= {"chi-square", "fips-140-2"}
    assert incore.rngtest(bytes(1 << 16))["pass"] is False
    with pytest.raises(ValueError):
        incore.rngtest(b"x" * 2499)


def test_python_m_incore(tmp_path):
    out = subprocess.run([sys.executable, "-m", "incore"], capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout
    assert out.startswith("incore " + incore.__version__) and "primitive" in out and "randsrc" in out
    # the same report but for the sources' sample counts, which grow as they are read
    assert out.split("\nsource")[0] == incore.info().split("\nsource")[0]


def test_rngtest_json_shape():
    res = incore.rngtest(os.urandom(3000))
    assert res["bytes"] == 3000 and isinstance(res["pass"], bool)
    assert isinstance(res["entropy_bits_per_byte"], float) and isinstance(res["fips"]["blocks"], int)
    assert [t["name"] for t in res["tests"]] and all(isinstance(t["ran"], bool) for t in res["tests"])
