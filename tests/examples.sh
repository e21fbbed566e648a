#!/bin/sh
# examples.sh EXAMPLES_DIR INCORE [EMULATOR...]: the programs of examples/
# do what they say: seal_file seals and opens a file with AES-256-GCM and
# XChaCha20-Poly1305 (round trip, fresh nonces, a flipped bit or a wrong key
# refused with no output), hash_file gives `incore sha256sum`'s lines,
# crc_stream `incore crc32c`'s value.
dir="$1"; incore="$2"; shift 2
EMU="$*"
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
ex() { p=$1; shift; $EMU "$dir/example_$p" "$@"; }

head -c 32 /dev/urandom > "$T/key"
head -c 32 /dev/urandom > "$T/key2"
head -c 100000 /dev/urandom > "$T/msg"
: > "$T/empty"
for aead in gcm xchacha; do
    n=$([ $aead = gcm ] && echo 12 || echo 24)
    for m in msg empty; do
        ex seal_file $aead seal "$T/key" "$T/$m" "$T/s1" && ex seal_file $aead seal "$T/key" "$T/$m" "$T/s2" \
            && ok || bad "$aead seal $m"
        [ "$(wc -c < "$T/s1")" -eq $(( $(wc -c < "$T/$m") + n + 16 )) ] && ok || bad "$aead $m: sealed size"
        ! cmp -s "$T/s1" "$T/s2" && ok || bad "$aead $m: two seals alike (nonce reused?)"
        rm -f "$T/o"
        ex seal_file $aead open "$T/key" "$T/s1" "$T/o" && cmp -s "$T/o" "$T/$m" && ok \
            || bad "$aead $m: open does not give the message back"
    done
    # a flipped bit anywhere (nonce, ciphertext, tag) and a wrong key: refused, no output
    for pos in 0 $((n + 5)) $(( $(wc -c < "$T/s1") - 1 )); do
        ex seal_file $aead seal "$T/key" "$T/msg" "$T/s1"
        python3 -c 'import sys; p=int(sys.argv[2]); b=bytearray(open(sys.argv[1],"rb").read()); b[p]^=1; open(sys.argv[1],"wb").write(b)' \
            "$T/s1" "$pos" 2>/dev/null || { printf '\001' | dd of="$T/s1" bs=1 seek="$pos" conv=notrunc 2>/dev/null; }
        rm -f "$T/o"
        ex seal_file $aead open "$T/key" "$T/s1" "$T/o" 2>"$T/err"; st=$?
        [ $st -eq 1 ] && [ ! -e "$T/o" ] && grep -q 'authentication failed' "$T/err" && ok \
            || bad "$aead: byte $pos changed: exit $st, $(cat "$T/err")"
    done
    ex seal_file $aead seal "$T/key" "$T/msg" "$T/s1"
    rm -f "$T/o"
    ex seal_file $aead open "$T/key2" "$T/s1" "$T/o" 2>/dev/null; st=$?
    [ $st -eq 1 ] && [ ! -e "$T/o" ] && ok || bad "$aead: wrong key: exit $st"
done
ex seal_file nope seal "$T/key" "$T/msg" "$T/o" 2>/dev/null; [ $? -eq 2 ] && ok || bad "seal_file usage"

ex hash_file "$T/msg" "$T/empty" > "$T/h1" && $EMU "$incore" sha256sum "$T/msg" "$T/empty" > "$T/h2" \
    && cmp -s "$T/h1" "$T/h2" && ok || bad "hash_file differs from incore sha256sum"
ex crc_stream < "$T/msg" > "$T/c1" && [ "$(cat "$T/c1")" = "$($EMU "$incore" crc32c < "$T/msg" | cut -d' ' -f1)" ] \
    && ok || bad "crc_stream differs from incore crc32c"
printf 123456789 | ex crc_stream > "$T/c1" && [ "$(cat "$T/c1")" = e3069283 ] && ok || bad "crc_stream check value"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
