#!/bin/sh
# cli_usage.sh INCORE [EMULATOR...]: every subcommand of `incore` takes
# --help (usage on stdout, nothing on stderr, exit 0) and refuses what it
# does not know (nothing on stdout, what is wrong and a pointer to --help on
# stderr, exit 2; the checksum commands exit 1, as coreutils'; every form of
# usage error: tests/cli_errors.sh).
incore="$1"; shift
EMU="$*"
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
out=$(mktemp); err=$(mktemp); out2=$(mktemp)
trap 'rm -f "$out" "$err" "$out2"' EXIT
run() { $EMU "$incore" "$@" >"$out" 2>"$err"; st=$?; }

SUMS="sha1sum sha224sum sha256sum sha384sum sha512sum crc32 crc32c"

# --help: exit 0, the command's usage on stdout, stderr empty; `incore help
# CMD` prints the same
for cmd in info selftest version speed $SUMS; do
    run "$cmd" --help
    [ $st -eq 0 ] && [ ! -s "$err" ] && grep -qi "^usage: incore $cmd" "$out" && ok \
        || bad "$cmd --help: exit $st, stdout '$(head -1 "$out")', stderr '$(cat "$err")'"
    cp "$out" "$out2"
    run help "$cmd"
    [ $st -eq 0 ] && cmp -s "$out" "$out2" && ok || bad "help $cmd differs from $cmd --help ($st)"
done
for h in help --help -h; do
    run $h
    [ $st -eq 0 ] && [ ! -s "$err" ] && grep -q '^usage: incore COMMAND' "$out" \
        && grep -q 'selftest' "$out" && ok || bad "incore $h: exit $st"
done

# unknown options and operands
expect_usage() {   # WHAT STATUS PATTERN: refused with STATUS, stderr matches
    [ $st -eq "$2" ] && [ ! -s "$out" ] && grep -q -- "$3" "$err" && ok \
        || bad "$1: exit $st (want $2), stdout $(wc -c < "$out") bytes, stderr '$(head -3 "$err")'"
}
for cmd in info selftest version; do
    run "$cmd" --frobnicate
    expect_usage "$cmd --frobnicate" 2 "^incore $cmd: unknown option '--frobnicate'"
    grep -q "^see 'incore $cmd --help'" "$err" && ok || bad "$cmd --frobnicate: no pointer to --help"
    run "$cmd" -x
    expect_usage "$cmd -x" 2 "unknown option '-x'"
    run "$cmd" extra
    expect_usage "$cmd extra" 2 "^incore $cmd: unexpected argument 'extra'"
    grep -q "^see 'incore $cmd --help'" "$err" && ok || bad "$cmd extra: no pointer to --help"
done
run selftest -v extra
expect_usage "selftest -v extra" 2 "unexpected argument 'extra'"
run speed --frobnicate
expect_usage "speed --frobnicate" 2 "incore speed --help"
run speed -x
expect_usage "speed -x" 2 "unknown option '-x'"
for cmd in $SUMS; do
    run "$cmd" --frobnicate
    expect_usage "$cmd --frobnicate" 1 "Try 'incore $cmd --help'"
    run "$cmd" -x
    expect_usage "$cmd -x" 1 "invalid option -- 'x'"
done
# options that take a value refuse a missing or wrong one
for o in --aad --misalign --threads; do
    run speed $o
    expect_usage "speed $o" 2 "$o needs a value"
    run speed $o -5 sha256
    expect_usage "speed $o -5" 2 "bad $o '-5'"
done
for cmd in $SUMS; do
    run "$cmd" -j
    expect_usage "$cmd -j" 1 "option requires an argument -- 'j'"
    run "$cmd" --jobs=0
    expect_usage "$cmd --jobs=0" 1 "invalid number of jobs"
done
run help
grep -q -- '--threads' "$out" && grep -q -- '-j N' "$out" && ok || bad "incore help names --threads and -j"

# the man page (docs/man/incore.1.scd) documents every long option the
# --help texts list, and every command
man1="$(dirname "$0")/../docs/man/incore.1.scd"
if [ -f "$man1" ]; then
    for cmd in speed sha256sum rand rngtest; do
        run "$cmd" --help
        for o in $(grep -o -- '--[a-z][a-z0-9-]*' "$out" | sort -u); do
            grep -q -- "\*$o\*" "$man1" && ok || bad "incore(1) lacks $cmd's $o"
        done
    done
    for cmd in info selftest speed rand rngtest version help $SUMS; do
        grep -q "\*$cmd\*" "$man1" && ok || bad "incore(1) lacks the command $cmd"
    done
fi

run help frobnicate
expect_usage "help frobnicate" 2 "unknown command 'frobnicate'"
run help info extra
expect_usage "help info extra" 2 "unexpected argument 'extra'"
run frobnicate
expect_usage "frobnicate" 2 "unknown command 'frobnicate'"
run
expect_usage "no command" 2 "^incore: missing COMMAND"

# the flags that exist still work
run selftest --verbose
[ $st -eq 0 ] && grep -q '^ok ' "$out" && ok || bad "selftest --verbose: exit $st"
run selftest -v
[ $st -eq 0 ] && grep -q '^ok ' "$out" && ok || bad "selftest -v: exit $st"
run version
[ $st -eq 0 ] && grep -q '^incore [0-9]' "$out" && ok || bad "version: exit $st"
run --version
[ $st -eq 0 ] && grep -q '^incore [0-9]' "$out" && ok || bad "--version: exit $st"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
