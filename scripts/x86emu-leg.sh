#!/bin/sh
# x86emu-leg.sh BUILD_DIR: the emulator leg of `make test` (make test-x86emu).
#
# The programs that reach the AVX-512, VAES-512 and IFMA backends, linked
# statically in BUILD_DIR-x86emu, run under an x86-64 user-mode emulator
# that models a CPU with those extensions (x86emu-run, an emulated Sapphire
# Rapids built on the Bochs CPU core; about 100x slower than native).  The
# emulator is not part of this repository: X86EMU names it.
#
# Which tests run:
#  - this CPU lacks one of AVX-512F, AVX-512 IFMA, VAES or VPCLMULQDQ: all of
#    X86EMU_TESTS (the native leg could not select those backends);
#  - it has them all: only test_ct_insncount, whose instruction counts (the
#    constant-time check valgrind cannot give AVX-512 code) exist only under
#    the emulator, where RDTSC counts retired instructions.
#  FORCE_X86EMU=1 runs all of X86EMU_TESTS in either case.
#
# On a host that is not x86-64, or with X86EMU empty, nothing runs: the leg lists what stays unexercised on
# this machine and exits 0.  That is not a pass of those backends, and the
# output says "not exercised".  With X86EMU set to a path that is not an
# executable, the leg fails.
#
# Environment (the Makefile passes these): X86EMU, X86EMU_TESTS, X86EMU_ENV,
# FORCE_X86EMU, CMAKE, CMAKE_ARGS, JOBS.
set -eu
build=${1:?usage: x86emu-leg.sh BUILD_DIR}
CMAKE=${CMAKE:-cmake}
JOBS=${JOBS:-2}
X86EMU=${X86EMU:-}
CMAKE_ARGS=${CMAKE_ARGS:-}
X86EMU_ENV=${X86EMU_ENV:-}
FORCE_X86EMU=${FORCE_X86EMU:-}
tests=${X86EMU_TESTS:?X86EMU_TESTS is empty}

# The 512-bit backends and the /proc/cpuinfo flags each needs beyond AVX2
# (the IC_BACKEND lines of their source files; every CPU with these flags
# also has the AVX2/BMI2/AES-NI/PCLMULQDQ the lines list as well).
BACKENDS="chacha20/avx512:avx512f,avx512vl,avx512bw
poly1305/avx512:avx512f,avx512vl
poly1305/avx512ifma:avx512f,avx512vl,avx512ifma
sha512/avx512:avx512f,avx512vl
aes/vaes512:avx512f,avx512vl,avx512bw,vaes,vpclmulqdq
ghash/vpclmul512:avx512f,avx512vl,vpclmulqdq
crc32/vpclmul512:avx512f,avx512vl,vpclmulqdq
crc32c/vpclmul512:avx512f,avx512vl,vpclmulqdq
montmul/ifma:avx512f,avx512ifma"

# X86EMU_CPUINFO: another file in /proc/cpuinfo's format (to check this
# script's choice for a CPU other than the one it runs on).
cpuinfo=${X86EMU_CPUINFO:-/proc/cpuinfo}
has_flag() { grep -qw "$1" "$cpuinfo" 2>/dev/null; }

# The backends of BACKENDS this CPU cannot run, one per line.
lacking() {
    echo "$BACKENDS" | while IFS=: read -r b flags; do
        for f in $(echo "$flags" | tr ',' ' '); do
            if ! has_flag "$f"; then echo "$b"; break; fi
        done
    done
}

if [ "$(uname -m)" != x86_64 ]; then
    # the emulator runs x86-64 programs on an x86-64 host only
    echo "== x86emu leg: SKIPPED, this machine is $(uname -m), not x86-64"
    echo "   not exercised on this machine: the x86-64 backends and test_ct_insncount"
    exit 0
fi
missing=$(lacking)
if [ -z "$FORCE_X86EMU" ] && [ -z "$missing" ]; then
    tests=test_ct_insncount
    why="this CPU has AVX-512F, IFMA, VAES and VPCLMULQDQ, so the native leg ran the 512-bit backends; only the instruction counts need the emulator"
else
    why="on the emulated CPU: this CPU lacks a backend above, or FORCE_X86EMU is set"
fi

if [ -z "$X86EMU" ]; then
    echo "== x86emu leg: SKIPPED, no emulator configured (X86EMU is empty)"
    echo "   not exercised on this machine:"
    if [ -n "$missing" ]; then
        echo "$missing" | while read -r b; do
            echo "     $b: not exercised (this CPU lacks it; the native leg could not select it)"
        done
    fi
    echo "     test_ct_insncount: not exercised (instruction counts of the constant-time check need the emulator)"
    echo "   tests not run: $tests"
    echo "   to run them: make test-x86emu X86EMU=/path/to/x86emu-run"
    exit 0
fi

if [ ! -x "$X86EMU" ]; then
    echo "x86emu leg: X86EMU=$X86EMU is not an executable file" >&2
    exit 1
fi

echo "== x86emu leg ($X86EMU): $tests"
echo "   ($why)"
dir=$build-x86emu
# shellcheck disable=SC2086 # CMAKE_ARGS and X86EMU_ENV are word lists
$CMAKE -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXE_LINKER_FLAGS=-static \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$X86EMU" $CMAKE_ARGS >/dev/null
# shellcheck disable=SC2086
$CMAKE --build "$dir" -j "$JOBS" --target $tests
rm -f "$dir/exercised.txt"
# shellcheck disable=SC2086
env INCORE_INSN_COUNT=1 $X86EMU_ENV ctest --test-dir "$dir" --output-on-failure -j "$JOBS" \
    -R "^($(echo $tests | tr ' ' '|'))\$"
sh scripts/exercised.sh "$dir" x86emu
