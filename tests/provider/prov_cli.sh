#!/bin/sh
# OpenSSL's own programs on the incore provider:
#   openssl enc, dgst, mac, kdf and rand with -provider-path/-provider incore
#   -propquery provider=incore against the same commands on default;
#   a TLS loopback, openssl s_server -rev and s_client, for TLS 1.3 with
#   TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384 and
#   TLS_CHACHA20_POLY1305_SHA256 and TLS 1.2 with ECDHE-RSA-AES128-GCM-SHA256
#   and ECDHE-RSA-CHACHA20-POLY1305, and the CBC suite ECDHE-RSA-AES256-SHA384
#   (with and without encrypt-then-MAC): 1 MiB of lines each way, both programs
#   configured by docs/openssl.md's configuration (incore preferred for
#   every algorithm it has).  The provider's byte counters
#   (INCORE_PROVIDER_TRACE) prove that both programs ran the record cipher
#   on incore: at least 2 MiB each (1 MiB sealed, 1 MiB opened).
#   curl fetching 1 MiB from s_server -WWW (TLS 1.3 and 1.2); CMS and
#   PKCS#12 between incore and default; Python's ssl (a TLS 1.3 loopback,
#   1 MiB each way) and hashlib through the same configuration file
#   (prov_python.py).
# Usage: prov_cli.sh <openssl> <directory of incore.so> <RSA key (PEM)> <python3> <curl>
set -eu
OPENSSL=$1 MODDIR=$(cd "$2" && pwd) KEY=$(cd "$(dirname "$3")" && pwd)/$(basename "$3") PYTHON=$4 CURL=${5:-curl}
[ -x "$(command -v "$OPENSSL")" ] || { echo "FAIL: no openssl program ($OPENSSL)"; exit 1; }
[ -f "$MODDIR/incore.so" ] || { echo "FAIL: no $MODDIR/incore.so"; exit 1; }
[ -x "$(command -v "$CURL")" ] || { echo "FAIL: no curl program ($CURL; scripts/install-deps.sh installs it)"; exit 1; }
T=$(mktemp -d)
trap 'kill $srv 2>/dev/null || true; rm -rf "$T"' EXIT
srv=
fails=0 passes=0
pass() { passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

INC="-provider-path $MODDIR -provider incore -propquery provider=incore"

# ---- enc and dgst --------------------------------------------------------
head -c 100003 /dev/urandom > "$T/in"
K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
for c in aes-128-cbc aes-192-cbc aes-256-cbc aes-128-ecb aes-256-ctr aes-128-cfb aes-256-ofb chacha20; do
    case $c in aes-128*) k=$(echo $K | cut -c1-32);; aes-192*) k=$(echo $K | cut -c1-48);; *) k=$K;; esac
    ivarg="-iv $IV"; [ $c = aes-128-ecb ] && ivarg=
    : > "$T/trace"
    INCORE_PROVIDER_TRACE="$T/trace" "$OPENSSL" enc -$c -K $k $ivarg -in "$T/in" -out "$T/e1" $INC
    "$OPENSSL" enc -$c -K $k $ivarg -in "$T/in" -out "$T/e2"
    INCORE_PROVIDER_TRACE="$T/trace" "$OPENSSL" enc -d -$c -K $k $ivarg -in "$T/e2" -out "$T/d1" $INC
    if cmp -s "$T/e1" "$T/e2" && cmp -s "$T/d1" "$T/in" && [ "$(awk '{n += $3} END {print n + 0}' "$T/trace")" -ge 200006 ]; then
        pass
    else
        fail "openssl enc -$c: incore and default differ, or incore did not run"
    fi
done
for d in sha1 sha224 sha256 sha384 sha512 sha512-224 sha512-256; do
    : > "$T/trace"
    a=$(INCORE_PROVIDER_TRACE="$T/trace" "$OPENSSL" dgst -$d -r $INC < "$T/in" | cut -d' ' -f1)
    b=$("$OPENSSL" dgst -$d -r < "$T/in" | cut -d' ' -f1)
    if [ -n "$a" ] && [ "$a" = "$b" ] && grep -q ' 100003$' "$T/trace"; then pass; else fail "openssl dgst -$d"; fi
done
# openssl mac and kdf
cmp_cmd() {   # what, counter, command...: same output on incore (traced) and default
    what=$1 ctr=$2 sub=$3; shift 3
    : > "$T/trace"
    a=$(INCORE_PROVIDER_TRACE="$T/trace" "$OPENSSL" $sub $INC "$@" 2>&1) || a="failed: $a"
    set -- $sub "$@"
    b=$("$OPENSSL" "$@" 2>&1) || b="failed: $b"
    if [ "$a" = "$b" ] && grep -q " $ctr " "$T/trace"; then pass; else fail "$what: '$a' against '$b'"; fi
}
for d in SHA1 SHA256 SHA512-256; do
    cmp_cmd "openssl mac HMAC $d" HMAC mac -digest $d -macopt hexkey:$K -in "$T/in" HMAC
done
cmp_cmd "openssl mac POLY1305" Poly1305 mac -macopt hexkey:$K -in "$T/in" POLY1305
for mode in EXTRACT_AND_EXPAND EXTRACT_ONLY EXPAND_ONLY; do
    len=80; [ $mode = EXTRACT_ONLY ] && len=48
    cmp_cmd "openssl kdf HKDF $mode" HKDF kdf -keylen $len -kdfopt digest:SHA384 -kdfopt mode:$mode \
        -kdfopt hexkey:$K$K -kdfopt hexsalt:$IV -kdfopt info:label HKDF
done

# openssl rand: the library's DRBG is incore's
: > "$T/trace"
a=$(INCORE_PROVIDER_TRACE="$T/trace" "$OPENSSL" rand $INC -hex 64 2>&1) || a=
if [ ${#a} -eq 128 ] && grep -q ' CTR-DRBG 64$' "$T/trace"; then pass; else fail "openssl rand: '$a'"; fi

# without -propquery a program does not pick incore unless configured to
: > "$T/trace"
INCORE_PROVIDER_TRACE="$T/trace" "$OPENSSL" dgst -sha256 -provider-path "$MODDIR" -provider default < "$T/in" > /dev/null
[ ! -s "$T/trace" ] && pass || fail "the trace names incore where it was not loaded"

# ---- TLS loopback ---------------------------------------------------------
sh "$(dirname "$0")/../../scripts/provider-conf.sh" "$MODDIR" "?provider=incore" > "$T/openssl.cnf"
"$OPENSSL" req -x509 -key "$KEY" -subj /CN=localhost -days 2 -out "$T/cert.pem" 2>/dev/null
# 1 MiB of 64-character lines (s_server -rev sends each line back reversed)
head -c 786432 /dev/urandom | "$OPENSSL" base64 > "$T/lines"
echo CLOSE >> "$T/lines"
want=$(wc -c < "$T/lines")

tls() {   # name, server arguments, client arguments, counter name
    : > "$T/trace"
    rm -f "$T/srv.out"
    OPENSSL_CONF="$T/openssl.cnf" INCORE_PROVIDER_TRACE="$T/trace" \
        "$OPENSSL" s_server -accept 0 -naccept 1 -rev -cert "$T/cert.pem" -key "$KEY" $2 \
        > "$T/srv.out" 2>&1 < /dev/null &
    srv=$!
    port= i=0
    while [ -z "$port" ] && [ $i -lt 100 ]; do
        port=$(sed -n 's/^ACCEPT .*:\([0-9][0-9]*\)$/\1/p' "$T/srv.out" 2>/dev/null || true)
        [ -n "$port" ] || { sleep 0.05; i=$((i + 1)); }
    done
    [ -n "$port" ] || { fail "$1: s_server did not start: $(cat "$T/srv.out")"; return; }
    OPENSSL_CONF="$T/openssl.cnf" INCORE_PROVIDER_TRACE="$T/trace" \
        "$OPENSSL" s_client -connect 127.0.0.1:$port -quiet -ign_eof $3 < "$T/lines" > "$T/cli.out" 2> "$T/cli.err" || true
    wait $srv || true
    srv=
    got=$(wc -c < "$T/cli.out")
    # two processes, each with at least 2 MiB through incore's record cipher
    n=$(awk -v c="$4" '$2 == c && $3 >= 2 * 786432 * 4 / 3 { k++ } END { print k + 0 }' "$T/trace")
    if [ "$got" -ge $((want - 6)) ] && [ "$n" -eq 2 ]; then
        pass
        echo "$1: $got bytes back; incore trace: $(awk -v c="$4" '$2 == c {printf "%s ", $3}' "$T/trace")"
    else
        fail "$1: $got of $want bytes back, $n of 2 processes ran $4 on incore"
        cat "$T/trace" "$T/cli.err" "$T/srv.out" | tail -20
    fi
}
tls "TLS 1.3 TLS_AES_128_GCM_SHA256" "-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256" \
    "-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256" AES-128-GCM
tls "TLS 1.3 TLS_AES_256_GCM_SHA384" "-tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384" \
    "-tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384" AES-256-GCM
tls "TLS 1.3 TLS_CHACHA20_POLY1305_SHA256" "-tls1_3 -ciphersuites TLS_CHACHA20_POLY1305_SHA256" \
    "-tls1_3 -ciphersuites TLS_CHACHA20_POLY1305_SHA256" ChaCha20-Poly1305
tls "TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256" "-tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256" \
    "-tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256" AES-128-GCM
tls "TLS 1.2 ECDHE-RSA-CHACHA20-POLY1305" "-tls1_2 -cipher ECDHE-RSA-CHACHA20-POLY1305" \
    "-tls1_2 -cipher ECDHE-RSA-CHACHA20-POLY1305" ChaCha20-Poly1305
# CBC suites: the provider removes the TLS padding and the MAC (encrypt-
# then-MAC, the default, and MAC-then-encrypt)
tls "TLS 1.2 ECDHE-RSA-AES256-SHA384 (encrypt-then-MAC)" "-tls1_2 -cipher ECDHE-RSA-AES256-SHA384" \
    "-tls1_2 -cipher ECDHE-RSA-AES256-SHA384" AES-CBC
# (a SHA-1 or SHA-256 suite without encrypt-then-MAC runs OpenSSL's
# stitched AES-CBC-HMAC ciphers, which incore does not offer)
tls "TLS 1.2 ECDHE-RSA-AES256-SHA384 (MAC-then-encrypt)" "-tls1_2 -cipher ECDHE-RSA-AES256-SHA384 -no_etm" \
    "-tls1_2 -cipher ECDHE-RSA-AES256-SHA384 -no_etm" AES-CBC

# curl against s_server -WWW: a 1 MiB file over TLS 1.3 (ChaCha20-Poly1305)
# and TLS 1.2 (ECDHE-RSA-AES128-GCM-SHA256), curl and s_server both on the
# configuration; each side at least 1 MiB through incore's record cipher.
head -c 1048576 /dev/urandom > "$T/file.bin"
www() {   # name, s_server arguments, curl arguments, counter name
    : > "$T/trace"
    rm -f "$T/srv.out" "$T/got.bin"
    (cd "$T" && OPENSSL_CONF="$T/openssl.cnf" INCORE_PROVIDER_TRACE="$T/trace" \
        exec "$OPENSSL" s_server -accept 0 -naccept 1 -WWW -cert "$T/cert.pem" -key "$KEY" $2 \
        > "$T/srv.out" 2>&1 < /dev/null) &
    srv=$!
    port= i=0
    while [ -z "$port" ] && [ $i -lt 100 ]; do
        port=$(sed -n 's/^ACCEPT .*:\([0-9][0-9]*\)$/\1/p' "$T/srv.out" 2>/dev/null || true)
        [ -n "$port" ] || { sleep 0.05; i=$((i + 1)); }
    done
    [ -n "$port" ] || { fail "curl $1: s_server did not start: $(cat "$T/srv.out")"; return; }
    OPENSSL_CONF="$T/openssl.cnf" INCORE_PROVIDER_TRACE="$T/trace" \
        "$CURL" -sS -k $3 -o "$T/got.bin" "https://127.0.0.1:$port/file.bin" 2> "$T/curl.err" || true
    wait $srv || true
    srv=
    n=$(awk -v c="$4" '$2 == c && $3 >= 1048576 { k++ } END { print k + 0 }' "$T/trace")
    if cmp -s "$T/got.bin" "$T/file.bin" && [ "$n" -eq 2 ]; then
        pass
    else
        fail "curl $1: file differs or $n of 2 processes ran $4 on incore: $(cat "$T/curl.err")"
    fi
}
# In the sanitizer build the module needs libasan preloaded into each
# program, and curl hangs at start-up with it (before any TLS), so there
# the curl checks do not run, and this says so.
if [ -n "${INCORE_PROV_NO_CURL:-}" ]; then
    echo "NOT RUN: the curl checks ($INCORE_PROV_NO_CURL)"
else
www "TLS 1.3 ChaCha20-Poly1305" "-tls1_3 -ciphersuites TLS_CHACHA20_POLY1305_SHA256" \
    "--tlsv1.3 --tls13-ciphers TLS_CHACHA20_POLY1305_SHA256" ChaCha20-Poly1305
www "TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256" "-tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256" \
    "--tlsv1.2 --tls-max 1.2 --ciphers ECDHE-RSA-AES128-GCM-SHA256" AES-128-GCM
fi

# CMS and PKCS#12 with incore preferred, against default: keys, a
# certificate, AuthEnvelopedData (AES-256-GCM) and EnvelopedData
# (AES-128-CBC) each way, a PKCS#12 file written and read
(
    cd "$T"
    export OPENSSL_CONF="$T/openssl.cnf"
    "$OPENSSL" genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -aes-256-cbc -pass pass:pw -out ec.pem &&
    "$OPENSSL" req -x509 -key ec.pem -passin pass:pw -subj /CN=cms -days 1 -out ec.crt &&
    "$OPENSSL" pkcs12 -export -in ec.crt -inkey ec.pem -passin pass:pw -passout pass:p12 -out ec.p12 &&
    "$OPENSSL" pkcs12 -in ec.p12 -passin pass:p12 -nodes -noout &&
    head -c 5000 in > msg &&
    for c in aes-256-gcm aes-128-cbc; do
        for enc in "$T/openssl.cnf" /dev/null; do
            dec="$T/openssl.cnf"; [ "$enc" = /dev/null ] || dec=/dev/null
            OPENSSL_CONF=$enc "$OPENSSL" cms -encrypt -binary -$c -in msg -out m.cms -recip ec.crt &&
            OPENSSL_CONF=$dec "$OPENSSL" cms -decrypt -binary -in m.cms -recip ec.crt -inkey ec.pem \
                -passin pass:pw -out m.out && cmp -s m.out msg || exit 1
        done
    done
) > "$T/cms.log" 2>&1 && pass || fail "CMS/PKCS#12 with incore preferred: $(tail -3 "$T/cms.log")"

# Python's ssl and hashlib through the same configuration: one process,
# both ends of a TLS 1.3 connection (AES-256-GCM, Python's default suite)
# moving 1 MiB each way, so 4 MiB through incore, and 1 MiB of SHA-256.
: > "$T/trace"
if OPENSSL_CONF="$T/openssl.cnf" INCORE_PROVIDER_TRACE="$T/trace" \
        "$PYTHON" "$(dirname "$0")/prov_python.py" "$T/cert.pem" "$KEY" \
   && awk '$2 == "AES-256-GCM" && $3 >= 4 * 1048576 { g = 1 } $2 == "SHA2-256" && $3 >= 1048576 { h = 1 }
           END { exit !(g && h) }' "$T/trace"; then
    pass
else
    fail "python ssl/hashlib did not run on incore: $(cat "$T/trace")"
fi

echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
