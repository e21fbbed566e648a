#!/bin/sh
# cli_errors.sh INCORE [EMULATOR...]: every usage error of `incore` (an
# unknown option, a missing or bad value, an extra argument, an unknown
# command or source, conflicting options) is reported the same way: nothing
# on stdout, exactly two lines on stderr, "incore CMD: <what is wrong>" and
# "see 'incore CMD --help'" ("incore: ..." and "see 'incore help'" for the
# command itself), exit status 2.  The checksum commands keep coreutils'
# form and status (1), which tests/cli_sums.sh compares with coreutils.
. "$(dirname "$0")/clitest.sh"

# usage_error CMD PATTERN ARGS...: `incore ARGS` is a usage error of CMD
# ("" for incore itself) whose first line matches PATTERN.
usage_error() {
    cmd=$1 pat=$2; shift 2
    run "$@"
    if [ -n "$cmd" ]; then pre="incore $cmd: "; see="see 'incore $cmd --help'"; else
        pre="incore: "; see="see 'incore help'"; fi
    if [ $st -eq 2 ] && [ ! -s "$d/out" ] && [ "$(wc -l <"$d/err")" -eq 2 ] &&
       [ "$(head -1 "$d/err" | cut -c1-${#pre})" = "$pre" ] && head -1 "$d/err" | grep -q -- "$pat" &&
       [ "$(sed -n 2p "$d/err")" = "$see" ]; then
        ok
    else
        bad "incore $*: exit $st (want 2), stdout $(wc -c <"$d/out") bytes, stderr $(wc -l <"$d/err") lines (want 2): $(head -3 "$d/err")"
    fi
}

# the command itself
usage_error "" "unknown command 'frobnicate'" frobnicate
usage_error "" "missing COMMAND"
usage_error "" "unknown command '-x'" -x

# commands without operands: unknown option, extra argument
for cmd in info selftest version; do
    usage_error $cmd "unknown option '--frobnicate'" $cmd --frobnicate
    usage_error $cmd "unknown option '-x'" $cmd -x
    usage_error $cmd "unexpected argument 'extra'" $cmd extra
done
usage_error selftest "unexpected argument 'extra'" selftest -v extra
usage_error "" "unknown command 'frobnicate'" help frobnicate
usage_error help "unexpected argument 'extra'" help info extra

# rand
usage_error rand "unknown option '--frobnicate'" rand --frobnicate 8
usage_error rand "missing the byte count" rand
usage_error rand "missing the byte count" rand --hex
usage_error rand "bad byte count 'abc'" rand abc
usage_error rand "bad byte count '-5'" rand -5
usage_error rand "bad byte count '1.5K'" rand 1.5K
usage_error rand "bad byte count '99999999999999999999'" rand 99999999999999999999
usage_error rand "unexpected argument '6'" rand 5 6
usage_error rand "option '--source' needs a value" rand --source
usage_error rand "option '--source' needs a value" rand --source --hex 8
usage_error rand "option '-out' needs a value" rand 8 -out
usage_error rand "exclude each other" rand -hex -base64 5
usage_error rand "unknown source 'bogus'" rand --source bogus 8
grep -q "drbg" "$d/err" && ok || bad "rand --source bogus: the message lists the sources: $(cat "$d/err")"

# rngtest
usage_error rngtest "unknown option '--frobnicate'" rngtest --frobnicate
usage_error rngtest "unexpected argument 'b'" rngtest a b
usage_error rngtest "option '--bytes' needs a value" rngtest --bytes
usage_error rngtest "option '--source' needs a value" rngtest --source --bytes 1M
usage_error rngtest "bad byte count '100000Q'" rngtest --source drbg --bytes 100000Q
usage_error rngtest "bad byte count '-1'" rngtest --source drbg --bytes -1
usage_error rngtest "at least 2500" rngtest --source drbg --bytes 0
usage_error rngtest "at least 2500" rngtest --source drbg --bytes 2499
usage_error rngtest "exclude each other" rngtest --source drbg file
usage_error rngtest "unknown source 'bogus'" rngtest --source bogus
usage_error rngtest "needs a FILE" rngtest --source drbg --bytes all

# speed: options whose value is missing or is the next option, bad
# numbers, unknown names, conflicting output formats
usage_error speed "unknown option '--frobnicate'" speed --frobnicate
usage_error speed "unknown option '-x'" speed -x
usage_error speed "unknown algorithm 'no-such-alg'" speed no-such-alg
usage_error speed "option '--json' takes no value" speed --json=1 sha256
usage_error speed "--vs needs a value" speed --vs --seconds 0.01 sha256
usage_error speed "--seconds needs a value" speed --seconds --json sha256
for o in --sizes --sweep --seconds --repeats --stat --impl --vs --plot --aad --misalign --threads; do
    usage_error speed "$o needs a value" speed sha256 $o
done
usage_error speed "unknown peer 'nobody'" speed --vs nobody sha256
usage_error speed "unknown peer 'nobody'" speed --vs openssl,nobody sha256
usage_error speed "bad --vs ''" speed --vs= sha256
for v in 0 -1 1e999 nan abc 3601; do
    usage_error speed "bad --seconds '$v'" speed --seconds=$v sha256
done
for v in 0 -3 102 x; do
    usage_error speed "bad --repeats '$v'" speed --repeats=$v sha256
done
for v in mean min Best ''; do
    usage_error speed "bad --stat '$v'" speed --stat=$v sha256
done
for v in 0 -1 257 99999999999; do
    usage_error speed "bad --threads '$v'" speed --threads=$v sha256
done
for v in 0 -64 65m 99999999999999999999 64, ,64 1k5; do
    usage_error speed "bad --sizes '$v'" speed --sizes=$v sha256
done
usage_error speed "bad --sweep '64:16:8'" speed --sweep 64:16:8 sha256
usage_error speed "bad --sweep '16:64:x1'" speed --sweep 16:64:x1 sha256
usage_error speed "gives more than" speed --sweep 1:64m:1 sha256
usage_error speed "bad --aad '65537'" speed --aad 65537 sha256
usage_error speed "bad --misalign '64'" speed --misalign 64 sha256
usage_error speed "bad --impl 'some'" speed --impl some sha256
usage_error speed "--json and --csv exclude each other" speed --json --csv sha256
usage_error speed "--csv and --json exclude each other" speed --csv --json sha256
usage_error speed "--json and --markdown exclude each other" speed --json --markdown sha256
usage_error speed "--markdown and --csv exclude each other" speed --markdown --csv sha256

# --help: the whole usage on stdout, nothing on stderr, exit 0
for cmd in info selftest version speed rand rngtest sha256sum crc32c; do
    run $cmd --help
    [ $st -eq 0 ] && [ ! -s "$d/err" ] && [ "$(wc -l <"$d/out")" -gt 2 ] && grep -qi "^usage: incore $cmd" "$d/out" \
        && ok || bad "$cmd --help: exit $st, stderr '$(cat "$d/err")'"
done
# every --help names the exit statuses
for cmd in info selftest version speed rand rngtest; do
    run $cmd --help
    grep -q '^Exit status' "$d/out" && ok || bad "$cmd --help does not say its exit status"
done

# the checksum commands: coreutils' form (two lines, exit 1)
run sha256sum --frobnicate
[ $st -eq 1 ] && [ ! -s "$d/out" ] && [ "$(wc -l <"$d/err")" -eq 2 ] &&
    grep -q "^incore sha256sum: unrecognized option '--frobnicate'" "$d/err" &&
    grep -q "^Try 'incore sha256sum --help' for more information" "$d/err" && ok ||
    bad "sha256sum --frobnicate: exit $st: $(cat "$d/err")"

finish
