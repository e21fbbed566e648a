#!/bin/sh
# symbols.sh NM LIBINCORE_A: every global symbol the static library defines
# starts with ic_, so a program that defines a symbol of the same name as
# one of the library's internals (ghash_ct64_ops, sha256_blocks...) can never
# link against the wrong one.  NM is the nm of the target (the cross nm on
# the cross legs).  Under ASan each global g also gets an ODR indicator
# "__odr_asan.g", accepted when g itself starts with ic_.  32-bit x86 PIC
# code gets GCC's __x86.get_pc_thunk.<reg> (loads EIP into a register):
# hidden, in COMDAT groups every object shares, so also accepted.
nm="$1"; lib="$2"
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
all=$(mktemp); names=$(mktemp)
trap 'rm -f "$all" "$names"' EXIT

# -P: "name type value [size]" per symbol, "archive[member]:" per member;
# -g --defined-only: global (external) symbols this archive defines.
if ! "$nm" -g --defined-only -P "$lib" >"$all"; then
    bad "$nm -g --defined-only -P $lib failed"
fi
awk 'NF >= 3 && $1 !~ /:$/ {print $1 " " $2}' "$all" | sort -u >"$names"
n=$(wc -l <"$names")
# a check that sees no symbols proves nothing: the public API must be there
[ "$n" -ge 50 ] && ok || bad "only $n global symbols in $lib"
for want in ic_version ic_sha256 ic_aes_key_init ic_aes_gcm_seal ic_crc32 ic_alloc ic_free; do
    grep -q "^$want " "$names" && ok || bad "$want is not defined in $lib"
done

offenders=$(awk '{ s = $1; sub(/^__odr_asan[.]/, "", s); if (s !~ /^ic_/ && s !~ /^__x86[.]get_pc_thunk[.][a-z]+$/) print "  " $1 " (" $2 ")" }' "$names")
if [ -z "$offenders" ]; then
    ok
else
    bad "global symbols of $lib without the ic_ prefix:"
    echo "$offenders"
fi
echo "$n global symbols checked"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
