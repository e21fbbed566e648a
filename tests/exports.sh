#!/bin/sh
# exports.sh NM LIBINCORE_SO INCLUDE_DIR: the shared library exports exactly
# the functions the public headers declare (no internal ic_ops, ic_kat_*,
# backend tables), and every one of them.
nm="$1"; so="$2"; inc="$3"
exp=$(mktemp); decl=$(mktemp)
trap 'rm -f "$exp" "$decl"' EXIT
"$nm" -D --defined-only "$so" | awk '$2 ~ /^[TDRB]$/ {print $3}' | grep -v '^_' | sort -u >"$exp"
grep -ohE '\bic_[a-z0-9_]+ *\(' "$inc"/incore/*.h | tr -d ' (' | sort -u >"$decl"
missing=$(comm -13 "$exp" "$decl"); extra=$(comm -23 "$exp" "$decl")
fail=0
[ -z "$missing" ] || { echo "declared but not exported:"; echo "$missing"; fail=1; }
[ -z "$extra" ] || { echo "exported but not declared in a public header:"; echo "$extra"; fail=1; }
echo "$(wc -l <"$decl") public functions checked"
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
