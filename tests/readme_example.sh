#!/bin/sh
# readme_example.sh README CC CFLAGS LIBINCORE_A PEM INCLUDE_DIR...: the
# first ```c block of README.md is a complete program; it compiles as
# printed (-Wall -Wextra -Werror, C11) against the headers and the static
# library of this build and runs with exit status 0, once without arguments
# and once with an RSA private key in PEM (the RSA part).
readme="$1"; cc="$2"; cflags="$3"; lib="$4"; pem="$5"; shift 5
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
awk '/^```c$/ { if (!done) { inblock = 1; next } }
     /^```$/  { if (inblock) { inblock = 0; done = 1; next } }
     inblock  { print }' "$readme" >"$T/example.c"
grep -q 'int main' "$T/example.c" || { echo "FAIL: the first c block of $readme has no main()"; exit 1; }
inc=""
for d in "$@"; do inc="$inc -I$d"; done
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror $cflags $inc "$T/example.c" "$lib" -pthread -o "$T/example" 2>"$T/log" \
    || { echo "FAIL: the README example does not compile:"; cat "$T/log"; exit 1; }
pass=0; fail=0
out=$("$T/example" 2>&1); st=$?
[ $st -eq 0 ] && [ "$out" = ok ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: exit $st: $out"; }
out=$("$T/example" "$pem" 2>&1); st=$?
[ $st -eq 0 ] && [ "$out" = ok ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: with $pem: exit $st: $out"; }
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
