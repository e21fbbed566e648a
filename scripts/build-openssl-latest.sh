#!/bin/sh
# build-openssl-latest.sh - build the `openssl-latest` peer of `incore speed`:
# the newest OpenSSL release (4.0.x) as one shared module that `incore speed`
# loads beside the system's libcrypto.so.3, in the same process.
#
#   scripts/build-openssl-latest.sh [--print-path | --where]
#
# --print-path prints the module's path on stdout once it is built; --where
# builds nothing and says where the module is or would be, whether it is
# built, and whether cargo is there to build it.
#
# Steps, each skipped when its result is already there (a second run is a
# no-op that prints the module's path):
#  1. The source: OpenSSL's release tarball contents as the `openssl-src`
#     crate on crates.io carries them (version OSSL_CRATE below, whose
#     "+4.0.3" metadata is the OpenSSL version).  cargo fetches it through a
#     throw-away Cargo project that depends on that exact version, into
#     cargo's own registry cache ($CARGO_HOME); `cargo metadata` says where
#     the unpacked source is.  Nothing else is downloaded.
#  2. A static libcrypto.a: ./Configure no-shared -fPIC (position-independent,
#     so it can go into a shared module) without the apps, tests, docs,
#     engines and loadable modules, out of the source tree in the cache;
#     about two minutes on two cores.  The assembly code is kept: it is what
#     is measured.
#  3. The module, openssl-latest.so: tools/speed_openssl_latest.c linked with
#     libcrypto.a, -Wl,--exclude-libs,ALL (none of libcrypto's symbols is
#     exported), -Bsymbolic and a version script that exports only the
#     module's one entry point, incore_openssl_latest_sym().  So the module's
#     OpenSSL 4 calls cannot bind to the system's OpenSSL 3 (or the other way
#     round) even though both define EVP_CipherInit_ex and the rest.
#
# Everything goes to $INCORE_OPENSSL_LATEST_CACHE, by default
# ${XDG_CACHE_HOME:-$HOME/.cache}/incore/openssl-<version>; nothing is
# installed system-wide and the source tree is not written.  `incore speed
# --vs openssl-latest` finds the module there, or at $INCORE_OPENSSL_LATEST
# (a path to the .so).  Needs cargo (Debian: apt-get install cargo), perl,
# make and a C compiler ($CC, also what Configure uses; default cc).  JOBS
# sets make's parallelism (default 2).
set -eu

OSSL_CRATE=400.0.2+4.0.3
OSSL_VERSION=${OSSL_CRATE#*+}
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${INCORE_OPENSSL_LATEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/incore/openssl-$OSSL_VERSION}
module=$cache/openssl-latest.so
lib=$cache/build/libcrypto.a
CC=${CC:-cc}
jobs=${JOBS:-2}

say() { printf 'build-openssl-latest: %s\n' "$*" >&2; }

print_path=0
case ${1:-} in
--print-path) print_path=1 ;;
--where)
    if [ -f "$module" ]; then
        echo "$module (OpenSSL $OSSL_VERSION, built)"
    elif command -v cargo >/dev/null 2>&1; then
        echo "$module not built (make openssl-latest builds it: about two minutes)"
    else
        echo "$module not built (make openssl-latest builds it, with cargo: not installed; Debian package cargo)"
    fi
    exit 0 ;;
'') ;;
-h | --help)
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0 ;;
*) say "unknown argument '$1' (--print-path, --where, --help)"; exit 2 ;;
esac

mkdir -p "$cache"

# ---- 1. the source, through cargo -------------------------------------------
if [ ! -f "$lib" ]; then
    if ! command -v cargo >/dev/null 2>&1; then
        say "cargo is needed to fetch OpenSSL $OSSL_VERSION from crates.io (the openssl-src crate)"
        say "install it (Debian/Ubuntu: apt-get install cargo) and run this script again"
        exit 1
    fi
    proj=$cache/fetch
    mkdir -p "$proj/src"
    cat >"$proj/Cargo.toml" <<EOF
# Throw-away project of scripts/build-openssl-latest.sh: it only makes cargo
# fetch the OpenSSL source that the openssl-src crate carries.
[package]
name = "incore-openssl-latest-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
openssl-src = "=$OSSL_CRATE"

[workspace]
EOF
    : >"$proj/src/lib.rs"
    say "fetching openssl-src $OSSL_CRATE with cargo"
    (cd "$proj" && cargo fetch --quiet)
    # the unpacked crate: the directory of its manifest, from cargo metadata
    manifest=$(cd "$proj" && cargo metadata --format-version 1 --offline 2>/dev/null |
        tr ',' '\n' | sed -n 's/.*"manifest_path":"\([^"]*openssl-src-[^"]*Cargo\.toml\)".*/\1/p' | head -n 1)
    src=${manifest%/Cargo.toml}/openssl
    if [ -z "$manifest" ] || [ ! -f "$src/Configure" ] || [ ! -f "$src/VERSION.dat" ]; then
        say "cargo fetched openssl-src but its OpenSSL source was not found (manifest '$manifest')"
        exit 1
    fi
    got=$(sed -n 's/^MAJOR=//p; s/^MINOR=//p; s/^PATCH=//p' "$src/VERSION.dat" | paste -sd.)
    if [ "$got" != "$OSSL_VERSION" ]; then
        say "openssl-src $OSSL_CRATE holds OpenSSL $got, expected $OSSL_VERSION"
        exit 1
    fi

    # ---- 2. libcrypto.a, built out of the source tree ----------------------
    # The registry's copy stays untouched: configure and build in $cache/build.
    rm -rf "$cache/build"
    mkdir -p "$cache/build"
    say "configuring OpenSSL $OSSL_VERSION in $cache/build"
    (cd "$cache/build" && perl "$src/Configure" no-shared -fPIC no-apps no-tests no-docs \
        no-module no-legacy no-dso no-quic no-comp no-zlib \
        --prefix="$cache/unused-prefix" --openssldir="$cache/unused-prefix" >configure.log 2>&1) || {
        say "Configure failed; see $cache/build/configure.log"
        exit 1
    }
    # the public headers beside the generated ones, so the module builds
    # even after cargo's cache has been cleaned
    cp -R "$src/include" "$cache/build/src-include"
    # the generated headers first: libcrypto.a alone does not depend on
    # them, and the compiler would find the system's opensslv.h instead
    say "building libcrypto.a (about two minutes on two cores; log in $cache/build/make.log)"
    (cd "$cache/build" && make -j"$jobs" build_generated >make.log 2>&1 &&
        make -j"$jobs" libcrypto.a >>make.log 2>&1) || {
        say "make failed; see $cache/build/make.log"
        exit 1
    }
fi

# ---- 3. the module -----------------------------------------------------------
# Rebuilt when tools/speed_openssl_latest.c is newer than it (cheap: one file).
modsrc=$here/tools/speed_openssl_latest.c
if [ ! -f "$module" ] || [ "$modsrc" -nt "$module" ] || [ "$lib" -nt "$module" ]; then
    say "linking $module"
    cat >"$cache/exports.map" <<'EOF'
{ global: incore_openssl_latest_sym; local: *; };
EOF
    # The public headers of this build: the generated ones (opensslv.h,
    # configuration.h, ...) in build/include, the rest copied from the source.
    $CC -O2 -fPIC -shared -Wall -Wextra -Werror \
        -I"$cache/build/include" -I"$cache/build/src-include" \
        -o "$module.tmp" "$modsrc" "$lib" \
        -Wl,--exclude-libs,ALL -Wl,-Bsymbolic -Wl,--version-script="$cache/exports.map" \
        -Wl,-z,defs -lpthread -ldl
    mv "$module.tmp" "$module"
fi

if [ "$print_path" = 1 ]; then
    printf '%s\n' "$module"
else
    say "ready: $module (OpenSSL $OSSL_VERSION)"
    say "use: incore speed ALG --vs openssl,openssl-latest"
fi
