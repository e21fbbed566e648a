#!/bin/sh
# cli_rand.sh INCORE [EMULATOR...]: `incore rand` (sizes, -hex, -base64,
# --source, errors) and `incore rngtest`: it passes on good streams
# (ic_random, every healthy entropy source of this machine, /dev/urandom)
# and fails on bad ones (a constant, a biased and a short-period stream),
# with the exit status, the report and --json agreeing; `incore info`
# lists the entropy sources with their health.
. "$(dirname "$0")/clitest.sh"
run() { $EMU "$incore" "$@"; }   # output to the caller

# ---- incore rand ----
run rand 1000 >"$d/r" && [ "$(wc -c <"$d/r")" -eq 1000 ] && ok || bad "rand 1000: 1000 bytes"
run rand 0 >"$d/r" && [ "$(wc -c <"$d/r")" -eq 0 ] && ok || bad "rand 0: nothing"
run rand 2K >"$d/r" && [ "$(wc -c <"$d/r")" -eq 2048 ] && ok || bad "rand 2K"
h=$(run rand -hex 16); [ ${#h} -eq 32 ] && echo "$h" | grep -qx '[0-9a-f]*' && ok || bad "rand -hex 16: '$h'"
[ "$(run rand -hex 16)" != "$h" ] && ok || bad "two rand -hex 16 equal"
run rand -base64 100 >"$d/b" && [ "$(head -1 "$d/b" | wc -c)" -eq 65 ] && ok || bad "base64 lines of 64"
if command -v base64 >/dev/null; then
    [ "$(base64 -d <"$d/b" | wc -c)" -eq 100 ] && ok || bad "rand -base64 100 decodes to 100 bytes"
fi
run rand -out "$d/o" 77 && [ "$(wc -c <"$d/o")" -eq 77 ] && ok || bad "rand -out"
for args in "" "abc" "-hex -base64 5" "--bogus 5" "5 6" "--source"; do
    run rand $args >/dev/null 2>"$d/e"; st=$?
    [ $st -eq 2 ] && ok || bad "rand $args: exit $st, want 2"
done
run rand --source nonesuch 8 >/dev/null 2>"$d/e"; st=$?
[ $st -eq 2 ] && grep -q "unknown source 'nonesuch'" "$d/e" && ok || bad "rand --source nonesuch: exit $st"
# the output cannot be written: exit 2
run rand -out "$d" 8 2>"$d/e"; st=$?
[ $st -eq 2 ] && grep -q "^incore rand: $d: " "$d/e" && ok || bad "rand -out DIRECTORY: exit $st: $(cat "$d/e")"
if [ -w /dev/full ]; then
    run rand 8 -out /dev/full 2>"$d/e"; st=$?
    [ $st -eq 2 ] && grep -q "^incore rand: /dev/full: write error" "$d/e" && ok || bad "rand -out /dev/full: exit $st: $(cat "$d/e")"
fi
run rand --help | grep -q '^usage: incore rand' && ok || bad "rand --help"
run rngtest --help | grep -q '^usage: incore rngtest' && ok || bad "rngtest --help"

# ---- sources: every healthy one gives bytes and passes rngtest ----
run info >"$d/info" || bad "info"
grep -q '^randsrc ' "$d/info" && ok || bad "info lists the entropy sources"
# (os is the first row, after the "randsrc" label, where no hardware source is built: armhf)
grep -Eq '^(randsrc)? +os +8 +6 +20/512 ' "$d/info" && ok || bad "info: os source credited 8 bits, cutoffs 6 and 20/512"
sources=$(awk '/^source / {s = 1; next} s && NF >= 6 && $NF == "ok" {print $(NF-5)}' "$d/info")
[ -n "$sources" ] && ok || bad "no healthy source listed"
for s in $sources drbg; do
    run rand --source "$s" -hex 64 | grep -qx '[0-9a-f]\{128\}' && ok || bad "rand --source $s"
    run rngtest --source "$s" --bytes 1M >"$d/t"; st=$?
    [ $st -eq 0 ] && grep -q "^rngtest: PASS" "$d/t" && ok && echo "rngtest --source $s: pass" ||
        { bad "rngtest --source $s: exit $st"; cat "$d/t"; }
    # the rate the source delivered: a positive figure, in the report and the JSON
    rate=$(sed -n 's/^  rate: \([0-9.e+]*\) Mbit\/s .*/\1/p' "$d/t")
    awk -v r="$rate" 'BEGIN { exit !(r + 0 > 0) }' && ok && echo "  $s: $rate Mbit/s" ||
        bad "rngtest --source $s: no rate: $(grep rate "$d/t")"
    run rngtest --source "$s" --bytes 2500 --json | grep -Eq '"bytes_per_second":[0-9.]+(e[+-]?[0-9]+)?,' && ok ||
        bad "rngtest --source $s --json: no bytes_per_second"
done

# ---- rngtest on files ----
run rand 1M >"$d/good"
run rngtest "$d/good" >"$d/t"; st=$?
[ $st -eq 0 ] && ok || { bad "rngtest on ic_random output: exit $st"; cat "$d/t"; }
run rngtest --json - <"$d/good" >"$d/j"; st=$?
[ $st -eq 0 ] && grep -q '"pass":true}$' "$d/j" && grep -q '"name":"fips-140-2","ran":true' "$d/j" &&
    grep -q '"bytes_per_second":null,' "$d/j" && ok ||
    bad "rngtest --json on stdin: exit $st: $(cat "$d/j")"
if [ -r /dev/urandom ]; then
    head -c 1048576 /dev/urandom >"$d/ur"
    run rngtest "$d/ur" >/dev/null && ok || bad "rngtest on /dev/urandom"
fi
head -c 100000 /dev/zero | tr '\000' 'A' >"$d/const"
# biased: bytes 0..63 mapped onto 64..127 (a quarter of the values never occur)
tr '\000-\077' '\100-\177' <"$d/good" >"$d/biased"
# weak: one bit of every byte stuck at 1
tr '\000-\177' '\200-\377' <"$d/good" >"$d/stuckbit"
for f in const biased stuckbit; do
    run rngtest "$d/$f" >"$d/t"; st=$?
    [ $st -eq 1 ] && grep -q '^rngtest: FAIL' "$d/t" && ok || bad "rngtest on $f: exit $st, want 1"
    run rngtest --json "$d/$f" >"$d/j"; st=$?
    [ $st -eq 1 ] && grep -q '"pass":false}$' "$d/j" && ok || bad "rngtest --json on $f: exit $st"
done
run rngtest --bytes 2000 "$d/good" >/dev/null 2>&1; st=$?
[ $st -eq 2 ] && ok || bad "rngtest on 2000 bytes: exit $st, want 2"
run rngtest "$d/nonexistent" >/dev/null 2>&1; st=$?
[ $st -eq 2 ] && ok || bad "rngtest on a missing file: exit $st, want 2"
run rngtest --source os "$d/good" >/dev/null 2>&1; st=$?
[ $st -eq 2 ] && ok || bad "rngtest --source and FILE: exit $st, want 2"

finish
