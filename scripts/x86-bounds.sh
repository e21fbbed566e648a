#!/bin/sh
# x86-bounds.sh: build scripts/x86_bounds.c for this CPU and run it: the
# issue rates of VAESENC, VPCLMULQDQ, VPMADD52LUQ and MULX in TSC ticks, and
# from them the lower bound in TSC c/B of AES, GHASH, AES-GCM, ChaCha20,
# Poly1305, ChaCha20-Poly1305, a 4 KiB XTS data unit and SHA-256, the unit
# of `incore speed` (docs/benchmarks.md puts the two side by side; compare
# with `incore speed --stat best`).  Needs an x86-64 CPU with AVX-512F,
# VAES, VPCLMULQDQ, IFMA and SHA-NI, and cc.
set -e
# the program runs these instructions unconditionally: say which one the
# CPU lacks rather than die of SIGILL
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
for f in avx512f vaes vpclmulqdq avx512ifma bmi2 sha_ni; do
    case "$flags" in *" $f "*) ;; *)
        echo "x86-bounds: this CPU has no $f (needs an x86-64 CPU with AVX-512F, VAES, VPCLMULQDQ, IFMA, SHA-NI)" >&2
        exit 1 ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
${CC:-cc} -O2 -mavx512f -mvaes -mvpclmulqdq -mavx512ifma -mbmi2 -msha -o "$bin" "$here/x86_bounds.c"
"$bin"
