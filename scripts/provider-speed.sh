#!/bin/sh
# openssl speed on the incore provider against the same command on
# OpenSSL's default provider, interleaved (incore, default, incore, ...) so
# that both see the same machine load; the best of REPEATS runs of SECONDS
# each, in MB/s (10^6 bytes), and the ratio.  docs/openssl.md has a table.
# Usage: scripts/provider-speed.sh <directory of incore.so> [ALG:SIZE ...]
set -eu
MODDIR=$1; shift
SECONDS_EACH=${SECONDS_EACH:-1} REPEATS=${REPEATS:-3}
[ $# -gt 0 ] || set -- aes-128-gcm:64 aes-128-gcm:1024 aes-128-gcm:16384 aes-256-gcm:64 aes-256-gcm:1024 \
    aes-256-gcm:16384 chacha20-poly1305:64 chacha20-poly1305:1024 chacha20-poly1305:16384 \
    sha256:64 sha256:1024 sha256:16384 sha512:64 sha512:1024 sha512:16384
# openssl speed (3.0) fetches its -evp algorithm implicitly, ignoring
# -propquery: only the library context's default properties steer that
# fetch, so each side gets a configuration file of its own (the incore one
# requires provider=incore: a fetch cannot fall back to default).
CONF=$(mktemp -d)
trap 'rm -rf "$CONF"' EXIT
here=$(dirname "$0")
sh "$here/provider-conf.sh" "$MODDIR" provider=incore > "$CONF/incore.cnf"
sh "$here/provider-conf.sh" - provider=default > "$CONF/default.cnf"
one() {   # alg size provider -> bytes per second
    OPENSSL_CONF="$CONF/$3.cnf" openssl speed -evp "$1" -bytes "$2" -seconds "$SECONDS_EACH" -mr 2>/dev/null |
        awk -F: '/^\+F:/ { print $NF }'
}
printf '%-20s %6s %10s %10s %6s\n' ALG BYTES incore default ratio
for spec; do
    alg=${spec%:*} size=${spec#*:} bi=0 bd=0 r=0
    while [ $r -lt "$REPEATS" ]; do
        i=$(one "$alg" "$size" incore); d=$(one "$alg" "$size" default)
        bi=$(echo "$i $bi" | awk '{print ($1 > $2) ? $1 : $2}')
        bd=$(echo "$d $bd" | awk '{print ($1 > $2) ? $1 : $2}')
        r=$((r + 1))
    done
    echo "$alg $size $bi $bd" | awk '{printf "%-20s %6d %10.0f %10.0f %5.2fx\n", $1, $2, $3 / 1e6, $4 / 1e6, $3 / $4}'
done
