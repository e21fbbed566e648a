#!/bin/sh
# man_coverage.sh MAN_SCD INCLUDE_DIR: every function a public header
# declares (IC_API) is named in incore(3), and every header has its section
# there, so that the manual cannot fall behind the headers.
man="$1"; inc="$2"
fail=0; n=0
for f in $(grep -h 'IC_API' "$inc"/incore/*.h | grep -v '#define' \
           | sed -n 's/.*[ *]\(ic_[a-z0-9_]*\)(.*/\1/p' | sort -u); do
    n=$((n + 1))
    grep -qw "$f" "$man" || { echo "not in $(basename "$man"): $f"; fail=$((fail + 1)); }
done
for h in "$inc"/incore/*.h; do
    b=$(basename "$h")
    case $b in incore.h|version.h) continue ;; esac
    grep -q "incore/$b" "$man" || { echo "no section for incore/$b in $(basename "$man")"; fail=$((fail + 1)); }
done
[ $n -gt 100 ] || { echo "only $n functions found in $inc/incore/*.h"; fail=$((fail + 1)); }
echo "$n functions checked"
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, $fail failed"; fi
[ $fail -eq 0 ]
