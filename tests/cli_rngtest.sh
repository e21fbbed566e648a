#!/bin/sh
# cli_rngtest.sh INCORE [EMULATOR...]: `incore rngtest` reads at most
# --bytes N bytes (1 MiB by default) and keeps its memory bounded whatever
# N is, so an endless input (/dev/urandom, a source) ends or can run long
# in constant memory; input it cannot read, and input too short for the
# tests, are reported on stderr with exit status 2.
. "$(dirname "$0")/clitest.sh"

# A cap on the address space that the command still runs under; memory
# beyond it makes the command fail.  None under an emulator or when the
# command does not start under it (sanitizers reserve terabytes): the
# checks then stand on the time limit and the byte counts alone.
VMEM=65536   # KiB
limit=""
if [ -z "$EMU" ] && (ulimit -v $VMEM && "$incore" version) >/dev/null 2>&1; then
    limit="ulimit -v $VMEM;"
    ok
else
    echo "note: no address-space limit here; checking time and byte counts only"
fi

# capped SECS ARGS...: run incore ARGS under the cap and a time limit of SECS
# seconds; st is its exit status, 124 if it was still running at the limit.
capped() {
    secs=$1; shift
    sh -c "$limit exec \"\$@\"" sh $EMU "$incore" "$@" >"$d/out" 2>"$d/err" &
    pid=$!
    t=0
    while kill -0 $pid 2>/dev/null && [ $t -lt $((secs * 10)) ]; do
        sleep 0.1 2>/dev/null || sleep 1
        t=$((t + 1))
    done
    if kill -0 $pid 2>/dev/null; then
        kill $pid; { wait $pid; } 2>/dev/null; st=124
    else
        wait $pid; st=$?
    fi
}

# 1. /dev/urandom: the first 1 MiB, within a time limit, in bounded memory
if [ -r /dev/urandom ]; then
    tl=60; [ -n "$EMU" ] && tl=600
    capped $tl rngtest /dev/urandom
    [ $st -eq 0 ] && grep -q '^rngtest: PASS' "$d/out" && grep -q '^incore rngtest: 1048576 bytes of /dev/urandom' "$d/out" \
        && ok || bad "rngtest /dev/urandom: exit $st (124: did not end in $tl s): $(tail -2 "$d/out") $(cat "$d/err")"
    grep -q 'the first 1048576 bytes of the input' "$d/out" && ok || bad "rngtest /dev/urandom does not say it read the first 1 MiB"
    capped $tl rngtest --json /dev/urandom
    [ $st -eq 0 ] && grep -q '"bytes":1048576,"more_input":true,' "$d/out" && ok \
        || bad "rngtest --json /dev/urandom: exit $st: $(cat "$d/out" "$d/err")"
    if [ -z "$EMU" ]; then
        # more than the cap, streamed
        capped 120 rngtest --bytes 80M /dev/urandom
        [ $st -eq 0 ] && grep -q '^incore rngtest: 83886080 bytes of /dev/urandom' "$d/out" && ok \
            || bad "rngtest --bytes 80M /dev/urandom: exit $st: $(tail -1 "$d/out") $(cat "$d/err")"
    fi
fi

# 2. a source with a huge N runs on (in bounded memory) until stopped; it
#    neither refuses N silently nor runs out of memory
capped 3 rngtest --source drbg --bytes 100000G
[ $st -eq 124 ] && [ ! -s "$d/err" ] && ok || bad "rngtest --source drbg --bytes 100000G: exit $st, stderr '$(cat "$d/err")'"

# 3. the default amount, and --bytes all, of a file
$EMU "$incore" rand 3M >"$d/good3"
run rngtest "$d/good3"
[ $st -eq 0 ] && grep -q "^incore rngtest: 1048576 bytes of $d/good3" "$d/out" && ok \
    || bad "rngtest on a 3 MiB file tests the first 1 MiB: exit $st: $(head -2 "$d/out")"
run rngtest --bytes all "$d/good3"
[ $st -eq 0 ] && grep -q "^incore rngtest: 3145728 bytes of $d/good3" "$d/out" && ! grep -q 'the first' "$d/out" \
    && ok || bad "rngtest --bytes all: exit $st: $(head -2 "$d/out") $(cat "$d/err")"
run rngtest --bytes 2M - <"$d/good3"
[ $st -eq 0 ] && grep -q "^incore rngtest: 2097152 bytes of standard input" "$d/out" && ok \
    || bad "rngtest --bytes 2M -: exit $st: $(head -2 "$d/out")"

# 4. input that cannot be read: stderr names it and why, exit 2, no report
read_error() {   # WHAT PATTERN
    [ $st -eq 2 ] && [ ! -s "$d/out" ] && [ "$(wc -l <"$d/err")" -eq 1 ] && grep -q -- "$2" "$d/err" \
        && ok || bad "$1: exit $st (want 2), stdout $(wc -c <"$d/out") bytes, stderr '$(cat "$d/err")'"
}
run rngtest "$d"
read_error "rngtest DIRECTORY" "^incore rngtest: $d: Is a directory"
run rngtest "$d/nonexistent"
read_error "rngtest MISSING" "^incore rngtest: $d/nonexistent: No such file"
if [ "$(id -u)" != 0 ]; then
    cp "$d/good3" "$d/locked"; chmod 000 "$d/locked"
    run rngtest "$d/locked"
    read_error "rngtest UNREADABLE" "^incore rngtest: $d/locked: Permission denied"
fi

# 5. too short for the tests: a clear message naming the input, exit 2
head -c 100 "$d/good3" >"$d/short"
run rngtest "$d/short"
read_error "rngtest on 100 bytes" "^incore rngtest: $d/short: 100 bytes; the tests need at least 2500"
run rngtest - </dev/null
read_error "rngtest on empty input" "^incore rngtest: standard input: 0 bytes; the tests need at least 2500"

finish
