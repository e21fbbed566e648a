#!/bin/sh
# cli_selection.sh INCORE [EMULATOR...]: the per-CPU-family selection table
# of docs/architecture.md ("Selection per CPU family") is what the library
# selects.  For every profile of this build's architecture:
#  - `incore info --cpu FEATURES` (the automatic choice for a CPU with
#    exactly those features, computed without running anything) must give
#    the table's implementation for every primitive, on any machine;
#  - where this CPU has all of the profile's features, `INCORE_CPU=FEATURES
#    incore info` (the real selection, masked down to the profile) must
#    mark the same implementations selected.
# An architecture the table has no profile for fails, so a new port gets a
# row.  Profiles the CPU cannot express are named as checked by --cpu only.
incore="$1"; shift
EMU="$*"
here=$(cd "$(dirname "$0")" && pwd)
doc="$here/../docs/architecture.md"
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
out=$(mktemp); tab=$(mktemp)
trap 'rm -f "$out" "$tab"' EXIT

[ -r "$doc" ] || { echo "FAIL: $doc not readable"; echo "0 passed, 1 failed"; exit 1; }
env -u INCORE_CPU -u INCORE_IMPL $EMU "$incore" info >"$out" 2>/dev/null || bad "incore info: exit $?"
arch=$(sed -n 's/^arch *//p' "$out")
detected=" $(sed -n 's/^detected *//p' "$out") "
prims=$(awk '/^primitive/ { t = 1; next } t && /^[^ ]/ && NF >= 3 { print $1 } t && /^$/ { exit }' "$out")

# "profile|arch list|features" from the first table of the section and
# "profile|impl|impl|..." (in the header's primitive order) from the second;
# the header of the second gives the primitive of each column.
awk '
    /^### Selection per CPU family/ { sec = 1; next }
    sec && /^### / { exit }
    sec && /^\| profile \| arch \|/ { t = 1; next }
    sec && /^\| profile \| aes \|/ { t = 2; n = split($0, h, /\|/); hdr = ""
        for (i = 3; i < n; i++) { x = h[i]; gsub(/ /, "", x); hdr = hdr " " x }
        print "H" hdr; next }
    sec && t && /^\|---/ { next }
    sec && t && /^\|/ { n = split($0, c, /\|/); row = ""
        for (i = 2; i < n; i++) { v = c[i]; gsub(/^ +| +$|`/, "", v); row = row (i > 2 ? "|" : "") v }
        print t ":" row; next }
    sec && t && !/^\|/ { t = 0 }
' "$doc" >"$tab"
cols=$(sed -n 's/^H //p' "$tab")
[ -n "$cols" ] || bad "no selection table in $doc"

# selected PRIM: what `incore info` in $out marks selected
selected() {
    awk -v p="$1" '
        /^primitive/ { t = 1; next }
        t && /^[^ ]/ { cur = $1; if (cur == p && $4 == "*") print $2; next }
        t && /^ / && cur == p && $3 == "*" { print $1 }' "$out"
}
# auto_for PRIM: the pick `incore info --cpu` put in $out
auto_for() { awk -v p="$1" '/^primitive/ { t = 1; next } t && $1 == p { print $2 }' "$out"; }
has_all() {
    [ "$1" = none ] && return 0
    for f in $(echo "$1" | tr ',' ' '); do
        case "$detected" in *" $f "*) ;; *) return 1 ;; esac
    done
}

profiles=0; real=0; cpu_only=""
while IFS='|' read -r name arches cpus features; do
    name=${name#1:}
    case ", $arches," in *", $arch,"*|*", any,"*) ;; *) continue ;; esac
    picks=$(grep "^2:$name|" "$tab" | cut -d'|' -f2- | tr '|' ' ')
    [ -n "$picks" ] || { bad "profile $name has no row of picks"; continue; }
    profiles=$((profiles + 1))
    for mode in cpu real; do
        if [ $mode = cpu ]; then
            env -u INCORE_CPU -u INCORE_IMPL $EMU "$incore" info --cpu "$features" >"$out" 2>&1 ||
                { bad "$name: incore info --cpu $features: exit $?"; continue; }
        else
            if ! has_all "$features"; then
                cpu_only="$cpu_only $name"
                continue
            fi
            real=$((real + 1))
            env -u INCORE_IMPL INCORE_CPU="$features" $EMU "$incore" info >"$out" 2>&1 ||
                { bad "$name: INCORE_CPU=$features incore info: exit $?"; continue; }
        fi
        set -- $picks
        for prim in $cols; do
            want=$1; shift
            case " $(echo $prims) " in *" $prim "*) ;; *) bad "table column $prim is no primitive"; continue ;; esac
            got=$([ $mode = cpu ] && auto_for "$prim" || selected "$prim")
            [ "$got" = "$want" ] && ok || bad "$name ($mode): $prim is $got, the table says $want"
        done
    done
done <<EOF
$(grep '^1:' "$tab")
EOF

[ "$profiles" -gt 0 ] || bad "no profile in the table for arch $arch"
echo "arch $arch: $profiles profiles checked with --cpu, $real of them also by INCORE_CPU on this CPU"
[ -z "$cpu_only" ] || echo "   by --cpu only (this CPU lacks features they name):$cpu_only"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
