#!/bin/sh
# Print an OpenSSL 3 configuration file that loads the incore provider
# (DIR/incore.so) beside default and sets the default properties of every
# fetch to PROPS: "?provider=incore" (docs/openssl.md: incore preferred),
# "provider=incore" (required: no fetch falls back to default), or, with
# DIR "-", only default loaded and PROPS for it ("provider=default").
# Usage: scripts/provider-conf.sh DIR|- PROPS
set -eu
[ $# -eq 2 ] || { echo "usage: $0 DIR|- PROPS" >&2; exit 2; }
cat <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[provider_sect]
default = default_sect
CNF
[ "$1" = - ] || echo "incore = incore_sect"
echo "[default_sect]"
echo "activate = 1"
if [ "$1" != - ]; then
    echo "[incore_sect]"
    echo "module = $(cd "$1" && pwd)/incore.so"
    echo "activate = 1"
fi
echo "[algorithm_sect]"
echo "default_properties = $2"
