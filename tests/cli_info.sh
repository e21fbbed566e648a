#!/bin/sh
# cli_info.sh INCORE [EMULATOR...]: `incore info`, `selftest`, and the
# handling of malformed INCORE_CPU / INCORE_IMPL values.
incore="$1"; shift
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# $EMU words are the remaining arguments
EMU="$*"

$EMU "$incore" info >"$out" 2>"$err"; st=$?
[ $st -eq 0 ] && ok || bad "info exit $st"
for prim in aes ghash sha1 sha256 sha512 chacha20 poly1305 crc32 crc32c hwrand; do
    grep -q "^$prim " "$out" && ok || bad "info lists $prim"
done
grep -q '\*' "$out" && ok || bad "info marks a selected implementation"

# A CPU without crypto extensions (the power7 leg sets this): every primitive
# runs its portable implementation, i.e. the last row of its block in `info`.
if [ -n "$INCORE_EXPECT_PORTABLE" ]; then
    notport=$(awk '/^source / {exit}
                   /^(incore|arch|cpu|detected|enabled|warning|primitive)/ || NF == 0 {next}
                   /^[^ ]/ {prim = $1; n[prim] = 0}
                   {n[prim]++; if ($NF == "*") sel[prim] = n[prim]}
                   END {for (p in n) if (sel[p] != n[p]) printf "%s ", p}' "$out")
    [ -z "$notport" ] && ok || bad "portable not selected on a CPU without crypto for: $notport"
fi

INCORE_CPU=none $EMU "$incore" info >"$out" 2>"$err"; st=$?
[ $st -eq 0 ] && ok || bad "INCORE_CPU=none info exit $st"
grep -q '^enabled *(none)' "$out" && ok || bad "INCORE_CPU=none disables every feature"

INCORE_CPU=bogus $EMU "$incore" info >"$out" 2>"$err"; st=$?
[ $st -ne 0 ] && ok || bad "malformed INCORE_CPU must fail info"
grep -q 'INCORE_CPU="bogus" is not valid' "$err" && ok || bad "malformed INCORE_CPU message on stderr"

INCORE_IMPL=aes=nonesuch $EMU "$incore" info >"$out" 2>"$err"; st=$?
[ $st -ne 0 ] && ok || bad "malformed INCORE_IMPL must fail info"
grep -q 'names no implementation' "$err" && ok || bad "INCORE_IMPL message on stderr"

INCORE_IMPL=aes=ct64, $EMU "$incore" info >"$out" 2>"$err"; st=$?
[ $st -ne 0 ] && grep -q 'trailing comma' "$err" && ok || bad "INCORE_IMPL trailing comma refused"

INCORE_IMPL=nope=x $EMU "$incore" info >"$out" 2>"$err"
grep -q 'names no primitive' "$err" && ok || bad "INCORE_IMPL unknown primitive message"

# "auto" is accepted where an implementation name is, as by ic_impl_select():
# the primitive keeps the automatic choice, and a later item for the same
# primitive overrides an earlier one.
sel() {   # the implementation `info` marks selected for primitive $1
    awk -v p="$1" '/^primitive/ {t = 1; next}
                   t && /^[^ ]/ {cur = $1; if (cur == p && $4 == "*") print $2; next}
                   t && /^ / && cur == p && $3 == "*" {print $1}' "$out"
}
$EMU "$incore" info >"$out" 2>"$err"
auto_aes=$(sel aes); auto_ghash=$(sel ghash)
INCORE_IMPL=aes=auto $EMU "$incore" info >"$out" 2>"$err"; st=$?
[ $st -eq 0 ] && [ ! -s "$err" ] && ! grep -q '^warning' "$out" && ok \
    || bad "INCORE_IMPL=aes=auto refused (exit $st): $(cat "$err")"
[ -n "$auto_aes" ] && [ "$(sel aes)" = "$auto_aes" ] && ok \
    || bad "INCORE_IMPL=aes=auto selects '$(sel aes)', automatic is '$auto_aes'"
INCORE_IMPL=aes=ct64,ghash=ct64,aes=auto $EMU "$incore" info >"$out" 2>"$err"; st=$?
[ $st -eq 0 ] && [ "$(sel aes)" = "$auto_aes" ] && [ "$(sel ghash)" = ct64 ] && ok \
    || bad "INCORE_IMPL=aes=ct64,ghash=ct64,aes=auto: exit $st, aes '$(sel aes)' (want '$auto_aes'), ghash '$(sel ghash)' (want ct64) $(cat "$err")"
INCORE_IMPL=nope=auto $EMU "$incore" info >"$out" 2>"$err"; st=$?
[ $st -ne 0 ] && grep -q 'names no primitive' "$err" && ok || bad "INCORE_IMPL=nope=auto must be refused"
INCORE_IMPL=aes=autox $EMU "$incore" info >"$out" 2>"$err"; st=$?
[ $st -ne 0 ] && grep -q 'names no implementation' "$err" && ok || bad "INCORE_IMPL=aes=autox must be refused"
[ -n "$auto_ghash" ] || bad "info shows no selected ghash"

$EMU "$incore" selftest >"$out" 2>"$err"; st=$?
[ $st -eq 0 ] && ok || bad "selftest exit $st: $(cat "$out")"
grep -q ' 0 failed' "$out" && ok || bad "selftest summary"

INCORE_CPU=none $EMU "$incore" selftest >"$out" 2>"$err"; st=$?
[ $st -eq 0 ] && ok || bad "selftest portable-only exit $st"

$EMU "$incore" frobnicate >"$out" 2>"$err"; st=$?
[ $st -eq 2 ] && ok || bad "unknown command exit $st"
grep -q "unknown command" "$err" && ok || bad "unknown command message"

$EMU "$incore" --help >"$out" 2>"$err"; st=$?
[ $st -eq 0 ] && grep -q INCORE_CPU "$out" && ok || bad "--help"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
