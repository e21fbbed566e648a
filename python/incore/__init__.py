"""incore: cryptographic primitives on the CPU's crypto hardware.

The interfaces are those of the standard library and of pyca/cryptography,
so that switching is one import:

* hashes as ``hashlib``: ``sha1`` .. ``sha512_256``, ``new``, ``file_digest``;
* ``hmac_new`` and ``compare_digest`` as ``hmac``, ``hkdf`` (RFC 5869);
* ``crc32`` as ``zlib.crc32``, ``crc32c`` as the ``crc32c`` package's, and
  the ``_combine`` functions;
* ``AESGCM``, ``ChaCha20Poly1305``, ``XChaCha20Poly1305`` with
  ``cryptography.hazmat.primitives.ciphers.aead``'s shapes, ``InvalidTag``;
  ``AESXTS`` for data units of disk sectors;
* ``random_bytes`` (the library's CTR_DRBG) and ``rngtest``.

Every data argument takes any C-contiguous bytes-like object without a copy.
"""

import json as _json

from incore._incore import (
    AESGCM,
    AESXTS,
    HASH,
    HMAC,
    ChaCha20Poly1305,
    InvalidTag,
    XChaCha20Poly1305,
    __version__,
    compare_digest,
    crc32,
    crc32_combine,
    crc32c,
    crc32c_combine,
    new,
    random_bytes,
    sha1,
    sha224,
    sha256,
    sha384,
    sha512,
    sha512_224,
    sha512_256,
)
from incore import _incore

__all__ = [
    "AESGCM", "AESXTS", "ChaCha20Poly1305", "XChaCha20Poly1305", "InvalidTag", "HASH", "HMAC",
    "algorithms_available", "algorithms_guaranteed", "compare_digest", "crc32", "crc32_combine",
    "crc32c", "crc32c_combine", "file_digest", "hkdf", "hmac_new", "info", "new", "random_bytes",
    "rngtest", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256",
]

algorithms_guaranteed = frozenset(
    ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"))
algorithms_available = algorithms_guaranteed

_constructors = {
    sha1: "sha1", sha224: "sha224", sha256: "sha256", sha384: "sha384", sha512: "sha512",
    sha512_224: "sha512_224", sha512_256: "sha512_256",
}


def _hash_name(digest, what):
    """The hash name of ``digest``: a name, or an incore (or hashlib) constructor."""
    if isinstance(digest, str):
        return digest
    if callable(digest):
        name = _constructors.get(digest)
        if name is None:
            name = digest().name   # a hashlib constructor, or anything with .name
        return name
    raise TypeError(f"{what}: expected a hash name or a hash constructor, "
                    f"not {type(digest).__name__}")


def hmac_new(key, msg=None, digestmod=None):
    """An HMAC object as ``hmac.new``: ``digestmod`` a name ("sha256") or a
    constructor (``incore.sha256``); it is required, as in ``hmac``."""
    if digestmod is None or digestmod == "":
        raise TypeError("Missing required parameter 'digestmod'.")
    return _incore._hmac(_hash_name(digestmod, "hmac_new"), key, msg)


def hkdf(algorithm, ikm, length, salt=None, info=b""):
    """HKDF (RFC 5869), extract then expand: ``length`` bytes of output key
    material (1 to 255 times the digest size, else ValueError).  ``algorithm``
    is a hash name or constructor; ``salt`` None is HashLen zero bytes."""
    if not isinstance(length, int):
        raise TypeError("hkdf: length must be an int")
    return _incore._hkdf(_hash_name(algorithm, "hkdf"), ikm, length, salt, info)


def file_digest(fileobj, digest, /, *, _bufsize=2**18):
    """As ``hashlib.file_digest``: the hash object of a binary file object's
    contents (read in 256 KiB pieces into one reused buffer)."""
    h = new(digest) if isinstance(digest, str) else digest()
    if hasattr(fileobj, "getbuffer"):   # io.BytesIO: no reads at all
        h.update(fileobj.getbuffer())
        return h
    if not (hasattr(fileobj, "readinto") and hasattr(fileobj, "readable") and fileobj.readable()):
        raise ValueError(f"'{fileobj!r}' is not a file-like object in binary reading mode.")
    buf = bytearray(_bufsize)
    view = memoryview(buf)
    while True:
        n = fileobj.readinto(buf)
        if n == 0:
            break
        h.update(view[:n])
    return h


def rngtest(data):
    """The statistical tests of ``incore rngtest`` over ``data`` (at least
    2,500 bytes): the dict ``incore rngtest --json`` prints, ``"pass"``
    True when every test passes."""
    return _json.loads(_incore._rngtest_json(data))


def info():
    """The report ``incore info`` prints: CPU, features, implementations,
    entropy sources."""
    return _incore._info()
