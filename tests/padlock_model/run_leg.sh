#!/bin/sh
# run_leg.sh BUILD TEST... - the padlock-model leg of `make test`: incore's
# test programs (and the fuzz-corpus replays) that reach the VIA PadLock
# backends, run natively under the instruction model
# (LD_PRELOAD=libincore_padlock_model.so, README.md here).
#
# The features: when the model could make CPUID fault (arch_prctl
# ARCH_SET_CPUID; many Intel CPUs), `incore info` under it already detects
# PadLock and the library's own detection is used; otherwise (AMD, this
# project's usual machine) INCORE_CPU=+padlock-... forces them on.  Either
# way AES-NI/VAES, SHA-NI and RDRAND/RDSEED are masked so that the
# automatic choice is the PadLock backend everywhere (tests that walk every
# implementation reach it anyway).  A second pass runs a few programs with
# every 7th PadLock instruction interrupted half way and the C7 CTR errata
# on (PADLOCK_MODEL_INTERRUPT=7, PADLOCK_MODEL_CTR_ERRATA=1), so the
# restart paths and the CTR_ERRATA.C check are taken, and test_aes once
# more on a modelled CPU without ACE2 (CTR through ECB).  The checksum
# commands run against coreutils under the model too (the guide's PHE.C).
# MULX/ADX and IFMA are masked too, so that the montmul choice is PadLock's
# PMM (REP MONTMUL): test_bignum (modexp against GMP and MMTEST.C's sweep),
# test_montmul (each multiplication against port) and test_rsa run on it,
# and test_montmul once more under the model's overflow counter (below).
# The leg fails unless aes/padlock, sha1/padlock, sha256/padlock,
# hwrand/xstore and montmul/padlock all ran.
# The model runs as the guide's Esther C7 unless PADLOCK_MODEL_CPU=nano: on
# a Nano, REP XSHA's block form (EAX all ones, no padding) exists, and
# incore's known-answer probe for it (padlock-phe-partial) must accept it
# there and reject it on Esther; under Nano, streamed SHA-1/SHA-256, HMAC
# and `incore sha1sum`/`sha256sum` of a file must hash every whole block
# on the engine (the model's xsha*-blocks counts), under Esther none.
# The long CAVP/RSA/bignum programs run on the PadLock entries only
# (INCORE_TEST_IMPLS): the native leg runs them on every other backend.
# absolute: LD_PRELOAD is resolved in every child, and cli_sums.sh runs its
# commands from a temporary directory (a relative path is then ignored by
# ld.so, and the first PadLock instruction dies of SIGILL)
build=$(cd "$1" && pwd); shift
src=$(cd "$(dirname "$0")/../.." && pwd)
case "$(uname -m)-$(uname -s)" in
    x86_64-Linux) ;;
    *) echo "== padlock-model leg: needs an x86-64 Linux host (this is $(uname -m) $(uname -s))"; exit 0 ;;
esac
model=$build/libincore_padlock_model.so
[ -f "$model" ] || { echo "padlock-model leg: $model missing (build first)"; exit 1; }
# A 32-bit build (make test-i686) has a 32-bit model: the leg is then named
# padlock-model-i686, and the checksum test preloads it into incore alone
# (its EMULATOR arguments), not into the host's 64-bit coreutils, where
# ld.so would refuse the object with a message on stderr.
leg=padlock-model
case "$(od -An -tx1 -j4 -N1 "$model" | tr -d ' ')" in
    01) leg=padlock-model-i686 ;;
esac

mask="-aesni,-vaes,-sha-ni,-rdrand,-rdseed,-adx,-bmi2,-avx512ifma"
if LD_PRELOAD=$model "$build/incore" info | grep '^detected' | grep -q padlock-ace; then
    how="CPUID faulting: the library's detection sees the model's CentaurHauls CPU"
    cpu=$mask
else
    how="no CPUID faulting on this CPU: features forced with INCORE_CPU=+name"
    cpu="$mask,+padlock-ace,+padlock-ace2,+padlock-phe,+padlock-rng,+padlock-pmm"
fi
echo "== $leg leg: $how"
echo "   LD_PRELOAD=$model INCORE_CPU=$cpu"
rm -f "$build/exercised.txt"
fails=0
# With CPUID faulting, the library's own detection (this build's CPUID code,
# 32-bit or 64-bit) against the guide's table: the model as a Nehemiah C5XL
# (RNG), a C5P (RNG, ACE) and an Esther C5J (RNG, ACE2, PHE, PMM).
if [ "$cpu" = "$mask" ]; then
    for spec in "rng:padlock-rng" "rng,ace:padlock-rng padlock-ace" \
                "rng,ace2,phe,pmm:padlock-rng padlock-ace padlock-ace2 padlock-phe padlock-pmm"; do
        units=${spec%%:*}; want=${spec#*:}
        got=$(env LD_PRELOAD="$model" PADLOCK_MODEL_UNITS="$units" "$build/incore" info |
              sed -n 's/^detected *//p' | tr ' ' '\n' | grep '^padlock-' | tr '\n' ' ' | sed 's/ $//')
        if [ "$got" = "$want" ]; then
            printf '   %-36s %4ss  %s\n' "detect units=$units" 0 "$got"
        else
            echo "$leg leg: units $units detected as '$got', want '$want'"
            fails=$((fails + 1))
        fi
    done
fi
# The PHE block-form probe on both model variants, from `incore info`
# (the probe runs whenever PHE is usable, detected or forced): the feature
# must be found on Nano and not on Esther, where the model counts the
# probe's one instruction (xsha-eax-ones-ignored) and does nothing.
for spec in "esther:no" "nano:yes"; do
    variant=${spec%%:*}; want=${spec#*:}
    info=$(env LD_PRELOAD="$model" INCORE_CPU="$cpu" PADLOCK_MODEL_CPU="$variant" \
           PADLOCK_MODEL_STATS=1 "$build/incore" info 2>&1)
    got=no
    printf '%s\n' "$info" | grep '^detected' | grep -qw 'padlock-phe-partial' && got=yes
    probe=$(printf '%s\n' "$info" | grep 'padlock model: pid' | tail -1 |
            grep -o 'xsha[0-9]*-blocks [0-9]*\|xsha-eax-ones-ignored [0-9]*' | tr '\n' ' ')
    printf '   %-36s %4ss  %s\n' "PHE block-form probe ($variant)" 0 "padlock-phe-partial: $got; $probe"
    if [ "$got" != "$want" ] || [ -z "$probe" ]; then
        echo "$leg leg: $variant: padlock-phe-partial detected '$got', want '$want' (probe: '$probe')"
        fails=$((fails + 1))
    fi
done
run() {   # run NAME ENV... -- CMD...
    name=$1; shift
    start=$(date +%s)
    out=$(env LD_PRELOAD="$model" INCORE_CPU="$cpu" PADLOCK_MODEL_QUIET=1 "$@" 2>&1)
    st=$?
    summary=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
    printf '   %-36s %4ss  %s\n' "$name" "$(( $(date +%s) - start ))" "${summary:-exit $st}"
    if [ $st -ne 0 ]; then
        printf '%s\n' "$out" | grep -E 'FAIL|padlock model' | head -20
        fails=$((fails + 1))
    fi
}
# test_sha and test_hmac stream SHA-1 and SHA-256 messages (random splits,
# HMAC's key block before the message): the engine can only pad what it
# hashes (guide 4.1), so a streamed message reaches it at final, as REP
# XSHA continued from the chaining value of the whole blocks before
# (EAX = their length).  The model counts those (xsha*-continued,
# PADLOCK_MODEL_STATS): none means streamed hashes never reached PHE.
continued() {   # continued NAME: $out of the last run has both counts
    for a in xsha1 xsha256; do
        printf '%s\n' "$out" | grep 'padlock model: pid' | grep -q " $a-continued [1-9]" ||
            { echo "$leg leg: $1: no $a continued from a streamed state (PHE not reached)"
              fails=$((fails + 1)); }
    done
}
# blockform NAME yes|no: $out of the last run has (yes) or lacks (no)
# whole blocks hashed by the block form, for both instructions, beyond
# the 2 of incore's probe (once per process)
blockform() {
    for a in xsha1 xsha256; do
        n=$(printf '%s\n' "$out" | grep 'padlock model: pid' | tail -1 |
            sed -n "s/.* $a-blocks \([0-9]*\).*/\1/p")
        if [ "${n:-0}" -gt 2 ]; then
            [ "$2" = yes ] || { echo "$leg leg: $1: $a block form used on Esther"; fails=$((fails + 1)); }
        else
            [ "$2" = no ] || { echo "$leg leg: $1: no $a blocks on PHE beyond the probe's" \
                                    "(streamed blocks in software)"; fails=$((fails + 1)); }
        fi
    done
}
phe_counts() {   # the last run's PHE counts, for the log
    printf '%s\n' "$out" | grep 'padlock model: pid' | tail -1 |
        grep -o 'xsha[0-9a-z-]* [0-9]*' | tr '\n' ' '
}
for t in "$@"; do
    case $t in
        test_sha|test_hmac)
            run "$t" PADLOCK_MODEL_STATS=1 "$build/tests/$t"
            continued "$t"
            blockform "$t" no
            printf '   %-36s %4s   %s\n' "$t: streamed finals on PHE" "" "$(phe_counts)"
            run "$t (nano)" PADLOCK_MODEL_CPU=nano PADLOCK_MODEL_STATS=1 "$build/tests/$t"
            continued "$t (nano)"
            blockform "$t (nano)" yes
            printf '   %-36s %4s   %s\n' "$t (nano): blocks on PHE" "" "$(phe_counts)" ;;
        # on the PadLock entries only (GCM: with ct64 GHASH, a Nano's, which
        # has no PCLMULQDQ); every other backend runs them in the native leg
        test_aes_cavp) run "$t" INCORE_TEST_IMPLS=aes/padlock "$build/tests/$t" ;;
        test_gcm_cavp) run "$t" INCORE_TEST_IMPLS=aes/padlock,ghash/ct64 "$build/tests/$t" ;;
        test_rsa|test_bignum) run "$t" INCORE_TEST_IMPLS=montmul/padlock "$build/tests/$t" ;;
        *) run "$t" "$build/tests/$t" ;;
    esac
done
# `incore sha1sum`/`sha256sum` of a 200037-byte file: 3125 whole blocks,
# read and hashed as a stream.  Nano: every one of them on the block form
# (the count is exact: 3125 plus the probe's 2), the 37-byte tail on the
# continued form (one); Esther: the blocks in software, the tail on PHE.
# The digests against coreutils (run without the model).
sumfile=$(mktemp)
yes 'incore PadLock PHE, streamed' | head -c 200037 >"$sumfile"
for variant in esther nano; do
    for a in sha1 sha256; do
        start=$(date +%s)
        out=$(env LD_PRELOAD="$model" INCORE_CPU="$cpu" PADLOCK_MODEL_CPU="$variant" \
              PADLOCK_MODEL_STATS=1 "$build/incore" ${a}sum "$sumfile" 2>&1)
        st=$?
        got=$(printf '%s\n' "$out" | grep -v '^padlock model' | cut -d' ' -f1)
        want=$(${a}sum <"$sumfile" | cut -d' ' -f1)
        counts=$(phe_counts)
        blocks=0
        [ "$variant" = nano ] && blocks=3127
        ok=1
        [ $st -eq 0 ] && [ "$got" = "$want" ] || ok=0
        printf '%s\n' "$counts" | grep -q "x$a-continued 1 " || ok=0
        if [ $blocks -gt 0 ]; then
            printf '%s\n' "$counts" | grep -q "x$a-blocks $blocks " || ok=0
        else
            printf '%s\n' "$counts" | grep -q "x$a-blocks" && ok=0
        fi
        printf '   %-36s %4ss  %s\n' "incore ${a}sum of a file ($variant)" \
            "$(( $(date +%s) - start ))" "$([ $ok = 1 ] && echo "digest ok; ")$counts"
        [ $ok = 1 ] || { echo "$leg leg: incore ${a}sum ($variant): digest '$got' want '$want'," \
                              "want x$a-blocks $blocks and x$a-continued 1"; fails=$((fails + 1)); }
    done
done
rm -f "$sumfile"
for f in aes gcm sha hmac bignum rsa rsa_key; do
    [ -x "$build/tests/fuzz/fuzz_${f}_replay" ] &&
        run "fuzz_replay_$f" "$build/tests/fuzz/fuzz_${f}_replay" "$src/tests/fuzz/corpus/$f"
done
# PHE.C of the guide (6.3) as the incore command: sha1sum / sha256sum on
# sha1/padlock and sha256/padlock against coreutils
if [ "$leg" = padlock-model ]; then
    run "cli_sums (incore *sum)" sh "$src/tests/cli_sums.sh" "$build/incore"
else
    run "cli_sums (incore *sum)" env -u LD_PRELOAD \
        sh "$src/tests/cli_sums.sh" "$build/incore" env LD_PRELOAD="$model"
fi
# CRAP.C of the guide (6.1) as the incore command: the XSTORE source passes
# rngtest (64 KiB: 16 KS blocks, 26 FIPS blocks; the model traps every
# XSTORE, about 0.5 Mbit/s) and its rate is reported
run "rngtest --source xstore" "$build/incore" rngtest --source xstore --bytes 64K
rate=$(printf '%s\n' "$out" | sed -n 's/^  rate: \([0-9.e+]*\) Mbit.*/\1/p')
if printf '%s\n' "$out" | grep -q '^rngtest: PASS' && [ -n "$rate" ]; then
    printf '   %-36s %4s   %s\n' "xstore rate (the model's)" "" "$rate Mbit/s"
else
    echo "$leg leg: rngtest --source xstore: no pass or no rate"
    fails=$((fails + 1))
fi
# PADLOCK_LEG_LIGHT=1 (the i686 leg): test_gcm's interrupted pass left out
# (its AES is test_aes's, its restart paths the same instructions')
interrupted="test_aes test_sha test_gcm test_montmul"
[ "${PADLOCK_LEG_LIGHT:-0}" = 1 ] && interrupted="test_aes test_sha test_montmul"
for t in $interrupted; do
    run "$t (interrupted, CTR errata)" PADLOCK_MODEL_INTERRUPT=7 PADLOCK_MODEL_CTR_ERRATA=1 "$build/tests/$t"
done
# a CPU with ACE but no ACE2 (C3 Nehemiah C5P): CTR through ECB
run "test_aes (ACE without ACE2)" PADLOCK_MODEL_UNITS=rng,ace,phe \
    INCORE_CPU="$mask,+padlock-ace,+padlock-phe,+padlock-rng" "$build/tests/test_aes"
# REP MONTMUL's time depends on the data only when the partial product
# overflows ECX bits (guide 5.2); bn_x86_padlock.c sizes ECX so that it
# never does: the model counts every overflow (montmul-carry) and there
# must be none over test_montmul's operands (n - 1 squared included)
start=$(date +%s)
out=$(env LD_PRELOAD="$model" INCORE_CPU="$cpu" PADLOCK_MODEL_QUIET=1 PADLOCK_MODEL_STATS=1 \
      INCORE_TEST_IMPLS=montmul/padlock "$build/tests/test_montmul" 2>&1)
st=$?
stats=$(printf '%s\n' "$out" | grep 'padlock model: pid' | tail -1)
printf '   %-36s %4ss  %s\n' "montmul: no partial-product overflow" "$(( $(date +%s) - start ))" \
    "$(printf '%s\n' "$stats" | grep -o 'montmul [0-9]*\( montmul-carry [0-9]*\)\{0,1\}')"
if [ $st -ne 0 ] || ! printf '%s\n' "$stats" | grep -q ' montmul [1-9]' ||
   printf '%s\n' "$stats" | grep -q 'montmul-carry'; then
    echo "padlock-model leg: REP MONTMUL did not run, or its partial product overflowed"
    fails=$((fails + 1))
fi
sh "$src/scripts/exercised.sh" "$build" "$leg"
for want in aes/padlock sha1/padlock sha256/padlock hwrand/xstore montmul/padlock; do
    grep -qx "$want" "$build/exercised.txt" 2>/dev/null ||
        { echo "$leg leg: $want did not run"; fails=$((fails + 1)); }
done
[ $fails -eq 0 ] && echo "$leg leg: all passed" || echo "$leg leg: $fails failed"
[ $fails -eq 0 ]
