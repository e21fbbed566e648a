#!/bin/sh
# api_std.sh CMAKE BUILD_DIR TESTS_BINARY_DIR TARGET...: build each
# api_std_<std> target (tests/api_std.c as C99, C11, C++11/14/17/20 with
# -Wall -Wextra -Werror -pedantic against libincore.a) and run it.  The
# targets are left out of the normal build so that headers which do not
# compile in some standard fail this test rather than the whole build.
cmake="$1"; build="$2"; bindir="$3"; shift 3
pass=0; fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
[ $# -ge 2 ] || { echo "FAIL: no api_std targets given"; fail=1; }
for t in "$@"; do
    if ! "$cmake" --build "$build" --target "$t" >"$log" 2>&1; then
        fail=$((fail + 1))
        echo "FAIL: $t does not compile: $(grep -c 'error:' "$log") errors, the first ones:"
        grep -E 'error:|Error ' "$log" | head -8 | sed 's/^/    /'
    elif ! "$bindir/$t" >"$log" 2>&1; then
        fail=$((fail + 1))
        echo "FAIL: $t runs wrong:"
        sed 's/^/    /' "$log"
    else
        pass=$((pass + 1))
        echo "ok   $t: $(head -1 "$log")"
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
