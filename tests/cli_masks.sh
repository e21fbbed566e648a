#!/bin/sh
# cli_masks.sh INCORE [EMULATOR...]: INCORE_CPU masks reach every AES and
# GHASH backend, the AArch64 SHA, CRC and hwrand ones, and the x86-64 SHA
# and CRC ones, from the command line.  For each mask, `incore info` must select the best implementation
# the remaining features allow, and `incore selftest -v` must pass and run
# exactly the implementations the mask leaves available.  Masks that need
# features this CPU lacks (per the `detected` line of `incore info`) are
# skipped; "none" always runs.
incore="$1"; shift
EMU="$*"
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

$EMU "$incore" info >"$out" 2>"$err" || bad "info exit $?"
detected=" $(sed -n 's/^detected *//p' "$out") "
has() {   # has FEATURE...: all detected
    for f in "$@"; do
        case "$detected" in *" $f "*) ;; *) return 1 ;; esac
    done
}
# impl names listed for a primitive in the current $out
listed() {
    awk -v p="$1" '
        /^primitive/ { t = 1; next }
        t && /^[^ ]/ { cur = $1; if (cur == p) print $2; next }
        t && /^ / && cur == p { print $1 }' "$out"
}
# the implementation info marks selected for a primitive
selected() {
    awk -v p="$1" '
        /^primitive/ { t = 1; next }
        t && /^[^ ]/ { cur = $1; if (cur == p && $4 == "*") print $2; next }
        t && /^ / && cur == p && $3 == "*" { print $1 }' "$out"
}
ghash_impls=" $(listed ghash | tr '\n' ' ') "
aes_impls=" $(listed aes | tr '\n' ' ') "
# built PRIM IMPL: this build has the entry (sha512/ce and poly1305/neon are
# AArch64-only; the CPU of another build may still report the feature)
built_impls=" $(for p in sha1 sha256 sha512 crc32 crc32c chacha20 poly1305; do listed $p | sed "s|^|$p/|"; done | tr '\n' ' ') "
built() { case "$built_impls" in *" $1/$2 "*) return 0 ;; esac; return 1; }

# check MASK PRIM WANT [NOT...]: under INCORE_CPU=MASK, PRIM selects WANT,
# selftest passes and runs PRIM/WANT but none of the NOT implementations.
check() {
    mask=$1; prim=$2; want=$3; shift 3
    INCORE_CPU=$mask $EMU "$incore" info >"$out" 2>"$err"; st=$?
    [ $st -eq 0 ] && ok || bad "INCORE_CPU=$mask info exit $st: $(cat "$err")"
    got=$(selected "$prim")
    [ "$got" = "$want" ] && ok || bad "INCORE_CPU=$mask: $prim selects '$got', expected '$want'"
    INCORE_CPU=$mask $EMU "$incore" selftest -v >"$out" 2>"$err"; st=$?
    [ $st -eq 0 ] && grep -q ' 0 failed' "$out" && ok || bad "INCORE_CPU=$mask selftest: $(tail -3 "$out")"
    grep -q "^ok *$prim/$want\$" "$out" && ok || bad "INCORE_CPU=$mask selftest did not run $prim/$want"
    for n in "$@"; do
        grep -q "$prim/$n\$" "$out" && bad "INCORE_CPU=$mask selftest ran masked-out $prim/$n" || ok
    done
}

# AES: vaes512 (VAES on ZMM) > vaes (VAES-256) > ni (AES-NI) > avx2
# (bitsliced on YMM, x86-64 builds) > ssse3 (vector-permute, SSSE3) > ct64
# (portable); every CPU family takes the first usable entry (the table in
# docs/architecture.md, checked by cli_selection.sh); masking the Zen 4
# trait (-prefer-ymm), which only entries read, changes nothing.
# noni: the entry without AES instructions this CPU and build select.
noni=ssse3
case "$aes_impls" in *" avx2 "*) has avx2 ssse3 && noni=avx2 ;; esac
if has vaes vpclmul avx2 aesni ssse3 avx512f avx512vl avx512bw; then
    check ""            aes vaes512
    check -prefer-ymm   aes vaes512
    check -avx512f      aes vaes   vaes512   # the 256-bit path on AVX-512 machines
    check -avx512bw     aes vaes   vaes512
elif has vaes vpclmul avx2 aesni ssse3; then
    check ""            aes vaes
fi
if has vaes vpclmul avx2 aesni ssse3; then
    check -vpclmul      aes ni   vaes512 vaes   # their XTS tweak step uses VPCLMULQDQ
    check -vaes         aes ni   vaes512 vaes
    check -avx2         aes ni   vaes512 vaes
    check -vaes,-aesni  aes $noni vaes512 vaes ni
fi
if has aesni ssse3; then
    check -aesni        aes $noni vaes512 vaes ni
    [ $noni = avx2 ] && check -aesni,-avx2 aes ssse3 vaes512 vaes ni avx2
    check -aesni,-ssse3 aes ct64 vaes512 vaes ni avx2 ssse3
    check -ssse3        aes ct64 vaes512 vaes ni avx2 ssse3
fi
if has ssse3; then
    # AES-GCM without AES-NI: avx2 or ssse3 for the CTR half, then
    # whichever GHASH is left (unstitched: no stitched loop knows their keys)
    if has pclmul; then
        # GHASH on AVX2 integer multiplies where the CPU has AVX2, else ct64
        gh=ct64; has avx2 && gh=avx2
        check -aesni,-vaes,-pclmul  aes   $noni vaes512 vaes ni
        check -aesni,-vaes,-pclmul  ghash $gh   vpclmul512 vpclmul clmul
        INCORE_CPU=-aesni,-vaes,-pclmul $EMU "$incore" speed aes-128-gcm --sizes 64 --seconds 0.01 \
            --repeats 1 >"$out" 2>"$err"
        grep -q " $noni+$gh " "$out" && ok || bad "INCORE_CPU=-aesni,-vaes,-pclmul: GCM not on $noni+$gh: $(cat "$out" "$err")"
        INCORE_CPU=-aesni,-vaes,-vpclmul $EMU "$incore" speed aes-128-gcm --sizes 64 --seconds 0.01 \
            --repeats 1 >"$out" 2>"$err"
        grep -q " $noni+clmul " "$out" && ok || bad "INCORE_CPU=-aesni,-vaes,-vpclmul: GCM not on $noni+clmul: $(cat "$out" "$err")"
    fi
fi
check none aes ct64 vaes512 vaes ni avx2 ssse3

# Montgomery multiplication, when the x86 backends are built:
# ifma (AVX-512 IFMA from 3072 bits, the adx rows below: needs both) >
# adx (MULX + ADCX/ADOX) > port.
montmul_impls=" $(listed montmul | tr '\n' ' ') "
case "$montmul_impls" in *" adx "*)
    if has avx512f avx512ifma bmi2 adx; then
        check ""            montmul ifma
        check -avx512ifma   montmul adx ifma
    fi
    if has bmi2 adx; then
        check -avx512f      montmul adx ifma
        check -adx          montmul port adx ifma
        check -bmi2         montmul port adx ifma
    fi
    ;;
esac
check none montmul port adx ifma

# GHASH, when its x86 backends are built: vpclmul512 > vpclmul > clmul >
# avx2 (integer multiplies, no PCLMULQDQ) > ct64.
case "$ghash_impls" in *" clmul "*)
    if has vpclmul pclmul avx2 avx512f avx512vl avx512bw; then
        check ""            ghash vpclmul512
        check -avx512f  ghash vpclmul vpclmul512
    fi
    if has vpclmul pclmul avx2; then
        check -vpclmul  ghash clmul vpclmul512 vpclmul
    fi
    if has pclmul avx2; then
        check -pclmul       ghash avx2 vpclmul512 vpclmul clmul
        check -pclmul,-avx2 ghash ct64 vpclmul512 vpclmul clmul avx2
    elif has pclmul; then
        check -pclmul   ghash ct64 vpclmul512 vpclmul clmul
    fi
    check none ghash ct64 vpclmul512 vpclmul clmul avx2
    ;;
esac

# GHASH on ARM NEON (004, branch arm-c): any PMULL entry > neon (vmull.p8)
# > ct64.  -pmull on a core with NEON (aarch64 max, a53) must reach neon;
# a core without PMULL (armhf cortex-a7) selects neon unmasked.
case "$ghash_impls" in *" neon "*)
    if has neon pmull; then
        check -pmull        ghash neon pmull
    elif has neon; then
        check ""            ghash neon
    fi
    if has neon; then
        check -pmull,-neon  ghash ct64 neon pmull
    fi
    check none ghash ct64 neon pmull
    ;;
esac

# AArch64 SHA, CRC and RNDR: sha*/ce > port; crc32*/armv8 (CRC32 +
# PMULL) > armv8-serial (CRC32) > slice8; hwrand/rndr > none.
if has sha1 && built sha1 ce; then
    check ""       sha1   ce
    check -sha1    sha1   port ce
fi
if has sha2 && built sha256 ce; then
    check ""       sha256 ce
    check -sha2    sha256 port ce
fi
if has sha512 && built sha512 ce; then
    check ""       sha512 ce
    check -sha512  sha512 port ce
fi
if has crc32 pmull && built crc32 armv8; then
    for p in crc32 crc32c; do
        check ""       $p armv8
        check -pmull   $p armv8-serial armv8
    done
fi
if has crc32 && built crc32 armv8-serial; then
    for p in crc32 crc32c; do
        check -crc32   $p slice8 armv8 armv8-serial
    done
fi
# ChaCha20 / Poly1305 on NEON: neon > c; -neon reaches c.
for p in chacha20 poly1305; do
    if has neon && built $p neon; then
        check ""       $p neon
        check -neon    $p c neon
    fi
    built $p neon && check none $p c neon
done
if has rng; then
    check ""       hwrand rndr
    check -rng     hwrand none rndr
fi
# ARM: aes ce > neon (bitsliced, for cores without the AES instructions)
# > ct64 on HWCAP aes; ghash pmull > ct64 on HWCAP pmull.  Each mask must
# reach the portable entry, and masking one must not move the other.  -aes
# on a core with the crypto extensions (aarch64 cortex-a53, armhf max)
# selects neon as a cortex-a7 does unmasked, and its self-test runs the
# AES and AES-GCM known answers through it.
case "$aes_impls" in *" ce "*)
    if has aes; then
        check ""        aes ce
        check -pmull    aes ce
        if has neon; then
            check -aes       aes neon ce
            check -aes,-neon aes ct64 ce neon
        else
            check -aes       aes ct64 ce
        fi
    elif has neon; then
        check ""        aes neon ce
        check -neon     aes ct64 ce neon
    fi
    check none aes ct64 ce neon
    ;;
esac
case "$ghash_impls" in *" pmull "*)
    if has pmull; then
        check ""        ghash pmull
        check -aes      ghash pmull
        # without PMULL the NEON entry takes over where it exists (above)
        has neon || check -pmull ghash ct64 pmull
    fi
    check none ghash ct64 pmull
    ;;
esac

# x86-64 hashes and checksums: sha1/sha256 shani > port; sha512
# avx512 > avx2 > port;
# crc32 vpclmul512 > vpclmul (256-bit, also what a Zen 3 without AVX-512
# gets) > clmul > slice8; crc32c the same, then sse42 (CRC32 instruction,
# streams joined by PCLMULQDQ) > slice8.
if has sha-ni ssse3 sse4.2 && built sha1 shani; then
    for p in sha1 sha256; do
        check ""        $p shani
        check -sha-ni   $p port shani
        check -sse4.2   $p port shani
    done
fi
if has avx2 bmi2 && built sha512 avx2; then
    if has avx512f avx512vl; then
        check ""        sha512 avx512
        check -avx512f  sha512 avx2 avx512
    fi
    check -bmi2         sha512 port avx512 avx2
    check -avx2         sha512 port avx512 avx2
fi
if has pclmul ssse3 sse4.2 && built crc32 clmul; then
    if has avx512f avx512vl vpclmul avx2; then
        for p in crc32 crc32c; do
            check ""         $p vpclmul512
            check -avx512f   $p vpclmul vpclmul512
        done
    fi
    if has vpclmul avx2; then
        for p in crc32 crc32c; do
            check -vpclmul   $p clmul vpclmul512 vpclmul
            check -avx2      $p clmul vpclmul512 vpclmul
        done
    fi
    check -pclmul   crc32  slice8 vpclmul512 vpclmul clmul
    check -pclmul   crc32c slice8 vpclmul512 vpclmul clmul sse42
    check -ssse3    crc32c sse42 vpclmul512 vpclmul clmul
    check -sse4.2   crc32  slice8 vpclmul512 vpclmul clmul
    check -sse4.2   crc32c slice8 vpclmul512 vpclmul clmul sse42
    for p in crc32 crc32c; do
        check none  $p slice8 vpclmul512 vpclmul clmul
    done
fi
# "+name" forces a feature on (a testing aid for tests/padlock_model):
# info lists it on a "forced" line and the entry that needs it becomes
# available; nothing runs it here (without the model it would fault).
case "$aes_impls" in *" padlock "*)
    INCORE_CPU=+padlock-ace $EMU "$incore" info >"$out" 2>"$err"; st=$?
    if [ $st -eq 0 ] && grep -q '^forced *padlock-ace$' "$out" && grep -Eq '^ +padlock +yes' "$out"; then
        ok
    else
        bad "INCORE_CPU=+padlock-ace: exit $st, $(grep -E '^forced|padlock' "$out" | tr '\n' ' ')"
    fi
    INCORE_CPU=+nonesuch $EMU "$incore" info >"$out" 2>"$err"; st=$?
    if [ $st -eq 2 ] && ! grep -q '^forced' "$out"; then ok; else bad "INCORE_CPU=+nonesuch: exit $st"; fi
    ;;
esac

echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
