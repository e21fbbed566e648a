#!/bin/bash
# The CPU time of a TLS 1.3 bulk transfer over the loopback with the
# incore provider preferred, against the same on OpenSSL's default
# provider, alternating: `openssl s_server -WWW` sends a file of MIB MiB
# to `openssl s_client`, ROUNDS times each way (default 3), and the
# server's (the sender's, which encrypts) user and system CPU seconds are
# printed per run.  docs/openssl.md has a table.
# Usage: scripts/provider-tls-cpu.sh <directory of incore.so> [MIB [SUITE]]
set -eu
MODDIR=$(cd "$1" && pwd); MIB=${2:-1024}; SUITE=${3:-TLS_AES_128_GCM_SHA256}; ROUNDS=${ROUNDS:-3}
D=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$D"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$D/key.pem" \
    -out "$D/cert.pem" -subj /CN=localhost -days 1 2>/dev/null
head -c $((MIB * 1048576)) /dev/zero > "$D/f"
sh "$(dirname "$0")/provider-conf.sh" "$MODDIR" "?provider=incore" > "$D/incore.cnf"
port=$((20000 + RANDOM % 20000))
echo "provider suite bytes server-user-s server-sys-s"
for r in $(seq "$ROUNDS"); do
    for p in incore default; do
        if [ $p = incore ]; then export OPENSSL_CONF=$D/incore.cnf; else unset OPENSSL_CONF; fi
        ( cd "$D"; TIMEFORMAT="%U %S"
          { time openssl s_server -accept $port -naccept 1 -WWW -cert cert.pem -key key.pem -tls1_3 \
                -ciphersuites "$SUITE" -quiet >/dev/null 2>&1; } 2> "$D/t" ) &
        sleep 0.5
        printf 'GET /f HTTP/1.0\r\n\r\n' | openssl s_client -connect 127.0.0.1:$port -tls1_3 \
            -ciphersuites "$SUITE" -quiet -ign_eof 2>/dev/null | wc -c > "$D/n"
        wait
        echo "$p $SUITE $(cat "$D/n") $(cat "$D/t")"
        port=$((port + 1))
    done
done
