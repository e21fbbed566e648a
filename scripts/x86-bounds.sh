#!/bin/sh
# x86-bounds.sh: build scripts/x86_bounds.c for this CPU and run it: the
# issue rates of VAESENC, VPCLMULQDQ, VPMADD52LUQ and MULX in TSC ticks, and
# from them the lower bound in TSC c/B of AES, GHASH and AES-GCM, the unit
# of `incore speed` (docs/benchmarks.md puts the two side by side).  Needs
# an x86-64 CPU with AVX-512F, VAES, VPCLMULQDQ and IFMA, and cc.
set -e
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
${CC:-cc} -O2 -mavx512f -mvaes -mvpclmulqdq -mavx512ifma -mbmi2 -o "$bin" "$here/x86_bounds.c"
"$bin"
