# clitest.sh - sourced by the tests/cli_*.sh scripts that take
# "INCORE [EMULATOR...]": the command and emulator, pass/fail counting, a
# scratch directory removed on exit, and run(), which runs the command with
# its stdout, stderr and status in $d/out, $d/err and $st.
incore="$1"; shift
EMU="$*"
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
run() { $EMU "$incore" "$@" >"$d/out" 2>"$d/err"; st=$?; }
# finish: the summary line; fails if a check failed or none ran
finish() {
    echo "$pass passed, $fail failed"
    [ $fail -eq 0 ] && [ $pass -gt 0 ]
}
