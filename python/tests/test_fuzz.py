"""Bad input never crashes: every entry point called with arguments of
random types, sizes and counts raises one of the documented exceptions or
returns."""
import os

from hypothesis import given, settings
from hypothesis import strategies as st

import incore

ALLOWED = (TypeError, ValueError, BufferError, OverflowError, incore.InvalidTag)

values = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True), st.text(max_size=40),
    st.binary(max_size=300), st.binary(max_size=64).map(bytearray), st.binary(max_size=64).map(memoryview),
    st.binary(min_size=4, max_size=64).map(lambda b: memoryview(bytearray(b))[::2]),
    st.sampled_from(["sha256", "SHA512", "sha512_256", "md5", "", "sha256\0", incore.sha1, len]),
    st.lists(st.integers(0, 255), max_size=4), st.just(object()),
)

KEYS = [os.urandom(n) for n in (16, 24, 32, 64)]
OBJECTS = [incore.AESGCM(KEYS[0]), incore.AESGCM(KEYS[2]), incore.ChaCha20Poly1305(KEYS[2]),
           incore.XChaCha20Poly1305(KEYS[2]), incore.AESXTS(KEYS[3])]
FUNCS = [incore.new, incore.sha1, incore.sha256, incore.sha512_224, incore.hmac_new, incore.hkdf, incore.crc32,
         incore.crc32c, incore.crc32_combine, incore.crc32c_combine, incore.compare_digest, incore.random_bytes,
         incore.rngtest, incore.AESGCM, incore.ChaCha20Poly1305, incore.XChaCha20Poly1305, incore.AESXTS,
         incore.AESGCM.generate_key, incore.AESXTS.generate_key]
for o in OBJECTS:
    FUNCS += [o.encrypt, o.decrypt]
    if hasattr(o, "encrypt_into"):
        FUNCS += [o.encrypt_into, o.decrypt_into]
H = incore.sha384(b"x")
M = incore.hmac_new(b"k", b"x", "sha1")
FUNCS += [H.update, H.copy, H.digest, M.update, M.hexdigest]


def call(fn, args, kwargs):
    try:
        fn(*args, **kwargs)
    except ALLOWED:
        pass


@settings(max_examples=int(os.environ.get("INCORE_FUZZ_EXAMPLES", "400")))
@given(fn=st.sampled_from(FUNCS), args=st.lists(values, max_size=5),
       kwargs=st.dictionaries(st.sampled_from(["data", "value", "usedforsecurity", "key", "msg", "digestmod",
                                               "salt", "info", "name", "x"]), values, max_size=2))
def test_argument_fuzz(fn, args, kwargs):
    if fn is incore.random_bytes and args and isinstance(args[0], int) and args[0] > 1 << 24:
        args = [1 << 24]
    call(fn, args, kwargs)
