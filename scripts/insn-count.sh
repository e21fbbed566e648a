#!/bin/sh
# insn-count.sh ARCH QEMU_CPU [IMPL...] - instructions per 16-byte block of
# incore's AES modes and AES-128-GCM on an emulated ARM CPU, for backends
# that cannot be timed on this machine.
#
#   sh scripts/insn-count.sh aarch64 cortex-a53 neon ct64
#   sh scripts/insn-count.sh armhf cortex-a7 neon ct64
#
# ARCH is aarch64 or armhf; the cross build must exist (build-ARCH, made by
# `make test-cross-...` or cmake with cmake/toolchain-ARCH.cmake). IMPL is
# an "aes" backend (INCORE_IMPL=aes=IMPL; GCM pairs it with ghash=neon, or
# with pmull for aes=ce); default: neon ct64.
#
# How: scripts/insn_count.c is linked statically against build-ARCH's
# libincore.a and run under qemu-ARCH -singlestep -d nochain,exec, which
# logs one line, with the function name, per executed instruction.  Each
# operation runs over 8 and over 136 blocks in separate processes; the
# difference of the counts over 128 blocks, without the driver's own code
# (main, and calloc's zeroing and bookkeeping), is the figure: start-up,
# key expansion and the per-message work cancel out.  The counts are exact
# for the emulated instruction stream; cycles depend on the core (dual
# issue, NEON width) and are not estimated here.
set -e
arch=$1 cpu=$2
[ -n "$arch" ] && [ -n "$cpu" ] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
impls=${*:-neon ct64}
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build-$arch
case $arch in
    aarch64) cc=aarch64-linux-gnu-gcc qemu=qemu-aarch64 mask=-aes,-pmull ;;
    armhf) cc=arm-linux-gnueabihf-gcc qemu=qemu-arm mask=-aes,-pmull ;;
    *) echo "insn-count: ARCH is aarch64 or armhf" >&2; exit 2 ;;
esac
[ -f "$build/libincore.a" ] || { echo "insn-count: $build/libincore.a missing (build it first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$cc -O2 -static -I"$src/include" -I"$build/include" "$src/scripts/insn_count.c" "$build/libincore.a" \
    -o "$tmp/drv" -lm
lo=8 hi=136
# count IMPL OP N: instructions outside the driver's own code
count() {
    ghash=neon
    [ "$1" = ce ] && ghash=pmull
    m=$mask
    [ "$1" = ce ] && m=
    env INCORE_CPU="$m" INCORE_IMPL="aes=$1,ghash=$ghash" \
        $qemu -cpu "$cpu" -singlestep -d nochain,exec -D "$tmp/log" "$tmp/drv" "$2" "$3" >/dev/null
    awk '$1 == "Trace" && $NF !~ /^(main|__memset.*|_int_.*|malloc|calloc|free|.*strto.*)$/ { n++ }
         END { print n + 0 }' "$tmp/log"
}
echo "instructions per 16-byte block, AES-128 ($arch, qemu -cpu $cpu; $((hi - lo))-block difference)"
printf '%-8s' impl
for op in ctr ecb-enc ecb-dec cbc-enc cbc-dec gcm; do printf ' %8s' "$op"; done
echo
for impl in $impls; do
    printf '%-8s' "$impl"
    for op in ctr ecb-enc ecb-dec cbc-enc cbc-dec gcm; do
        a=$(count "$impl" "$op" $lo) b=$(count "$impl" "$op" $hi)
        printf ' %8.1f' "$(echo "($b - $a) / ($hi - $lo)" | bc -l)"
    done
    echo
done
