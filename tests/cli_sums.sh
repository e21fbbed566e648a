#!/bin/sh
# cli_sums.sh - the checksum commands of `incore` against GNU coreutils.
#
#   sh tests/cli_sums.sh <path-to-incore> [emulator words...]
#
# The emulator words (e.g. "qemu-ppc64 -L /usr/powerpc64-linux-gnu") are put
# in front of every incore invocation; coreutils runs natively.  Each case
# runs `incore <algo> ARGS` and coreutils `<algo> ARGS` on the same files and
# compares stdout, stderr (our "incore sha256sum: " prefix mapped to
# coreutils' "sha256sum: ") and the exit status; the CRC commands, which
# coreutils lacks, are checked against known values (CRC catalogue check
# values, zlib).  Prints "N passed, N failed"; exits 1 on any failure.
# POSIX sh (dash) only.

if [ $# -lt 1 ]; then
    echo "usage: sh $0 <incore> [emulator...]" >&2
    exit 2
fi
INCORE=$1
shift
case $INCORE in
    /*) ;;
    *) INCORE=$(pwd)/$INCORE ;;
esac

# One shell-quoted command line: emulator words, then incore.
squote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
RUN=
for w in "$@"; do
    RUN="$RUN $(squote "$w")"
done
RUN="$RUN $(squote "$INCORE")"
ic() { eval "$RUN \"\$@\""; }

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
cd "$T" || exit 1

for tool in sha1sum sha224sum sha256sum sha384sum sha512sum; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "coreutils $tool not found: cannot compare"
        fail "coreutils $tool missing"
    fi
done

: > empty
printf 'a' > one
printf '123456789' > nine
dd if=/dev/urandom of=big bs=1024 count=1024 2>/dev/null
[ "$(wc -c < big)" -eq 1048576 ] || fail "could not make the 1 MiB random file"
printf 'x' > 'back\slash'
printf 'y' > 'with space'
printf 'z' > 'paren(s)'
NL=$(printf 'new\nline')
CR=$(printf 'carriage\rreturn')
printf 'n' > "$NL"
printf 'r' > "$CR"

# same CASE STDIN ALGO ARGS...: incore vs coreutils, stdout/stderr/status.
same() {
    what=$1 in=$2 alg=$3
    shift 3
    ic "$alg" "$@" < "$in" > ic.out 2> ic.err
    r1=$?
    "$alg" "$@" < "$in" > cu.out 2> cu.err
    r2=$?
    sed "s/incore $alg/$alg/g" ic.err > ic.err2
    if [ $r1 -ne $r2 ]; then
        fail "$what: exit $r1, coreutils $r2"
        sed 's/^/    incore: /' ic.err2
    elif ! cmp -s ic.out cu.out; then
        fail "$what: stdout differs"
        diff cu.out ic.out | sed 's/^/    /' | head -20
    elif ! cmp -s ic.err2 cu.err; then
        fail "$what: stderr differs"
        diff cu.err ic.err2 | sed 's/^/    /' | head -20
    else
        pass
    fi
}

# expect CASE STATUS OUT-FILE WANT-TEXT: exit status and exact output.
expect() {
    if [ "$2" -ne "$3" ]; then
        fail "$1: exit $3, want $2"
    elif [ "$(cat "$4")" != "$5" ]; then
        fail "$1: got '$(cat "$4")', want '$5'"
    else
        pass
    fi
}

# ---- printing: every SHA variant, files and stdin -------------------------
for alg in sha1sum sha224sum sha256sum sha384sum sha512sum; do
    same "$alg files" empty $alg empty one big
    same "$alg stdin" big $alg
    same "$alg dash" one $alg - empty
    same "$alg -b" empty $alg -b one big
    same "$alg --tag" empty $alg --tag one nine
done
same "escaped names" empty sha256sum 'back\slash' 'with space' 'paren(s)' "$NL" "$CR"
same "quoted names in errors" empty sha256sum "it's" 'a b' "$NL" "$(printf 'c\001')"
same "-- ends options" empty sha256sum -- one

# ---- checking ---------------------------------------------------------------
sha256sum empty one big > good.sums
same "-c ok" empty sha256sum -c good.sums
same "-c ok, list on stdin" good.sums sha256sum -c
same "-c --quiet ok" empty sha256sum -c --quiet good.sums
sha512sum -b one big > bin.sums
same "-c binary lines" empty sha512sum -c bin.sums
sha256sum --tag one nine > tag.sums
same "-c BSD tagged lines" empty sha256sum -c tag.sums
sha1sum 'back\slash' 'with space' 'paren(s)' "$NL" "$CR" > esc.sums
same "-c escaped names" empty sha1sum -c esc.sums
tr 'a-f' 'A-F' < good.sums > upper.sums
same "-c upper-case hex" empty sha256sum -c upper.sums

# one wrong digest: "one: FAILED" and the WARNING line, exit 1
sed 's/^\(.\)/0/' good.sums > bad.sums
{ printf '0'; sed -n '2s/^.//p' good.sums; } > bad1.sums
sed -n '1p;3p' good.sums >> bad1.sums
same "-c mismatch" empty sha256sum -c bad1.sums
same "-c mismatches" empty sha256sum -c bad.sums
same "-c --quiet mismatch" empty sha256sum -c --quiet bad1.sums
same "-c --status mismatch" empty sha256sum -c --status bad1.sums
ic sha256sum -c bad1.sums > o 2> e
r=$?
[ $r -eq 1 ] && grep -q '^one: FAILED$' o && grep -q 'sha256sum: WARNING: 1 computed checksum did NOT match' e \
    && pass || fail "-c mismatch: exit $r, FAILED line and WARNING expected"

# improperly formatted lines
{ cat good.sums; echo 'this is not a checksum line'; echo; echo '# comment'; } > badline.sums
same "-c bad line" empty sha256sum -c badline.sums
same "-c -w bad line" empty sha256sum -c -w badline.sums
same "-c --strict bad line" empty sha256sum -c --strict badline.sums
ic sha256sum -c badline.sums > o 2> e
r=$?
[ $r -eq 0 ] && grep -q 'sha256sum: WARNING: 1 line is improperly formatted' e \
    && pass || fail "-c bad line: exit $r (want 0) and WARNING expected"
ic sha256sum -c --strict badline.sums > o 2> e
[ $? -eq 1 ] && pass || fail "-c --strict bad line must exit 1"
echo 'nothing here' > junk.sums
same "-c no valid lines" empty sha256sum -c junk.sums
same "-c wrong digest length" empty sha512sum -c good.sums

# missing files
same "missing file" empty sha256sum nosuch one
ic sha256sum nosuch one > o 2> e
r=$?
[ $r -eq 1 ] && [ "$(cat e)" = "incore sha256sum: nosuch: No such file or directory" ] \
    && grep -q '  one$' o && pass || fail "missing file: exit $r, stderr '$(cat e)'"
{ cat good.sums; sed -n '1s/empty$/nosuch/p' good.sums; } > missing.sums
same "-c missing listed file" empty sha256sum -c missing.sums
same "-c --ignore-missing" empty sha256sum -c --ignore-missing missing.sums
ic sha256sum -c missing.sums > o 2> e
r=$?
[ $r -eq 1 ] && grep -q '^nosuch: FAILED open or read$' o \
    && grep -q 'sha256sum: WARNING: 1 listed file could not be read' e \
    && pass || fail "-c missing listed file: exit $r"
same "-c missing list" empty sha256sum -c nosuch.sums
same "directory" empty sha256sum .

# options
same "--status without -c" empty sha256sum --status one
same "--tag with -c" empty sha256sum --tag -c good.sums
same "unknown long option" empty sha256sum --frobnicate one
same "unknown short option" empty sha256sum -x one
same "abbreviated --stat" empty sha256sum -c --stat bad1.sums
ic sha256sum --help > o 2> e
[ $? -eq 0 ] && grep -q '^Usage: incore sha256sum' o && pass || fail "--help"

# ---- -z / --zero: NUL-terminated lines, names not escaped ------------------
# coreutils: "end each output line with NUL, not newline, and disable file
# name escaping"; printing only, -c with -z is refused (exit 1).
for alg in sha1sum sha224sum sha256sum sha384sum sha512sum; do
    same "$alg -z" empty $alg -z empty one big
done
same "--zero, stdin" one sha256sum --zero
same "-z -b" empty sha256sum -z -b one nine
same "-z --tag" empty sha256sum -z --tag one 'back\slash'
same "-zb grouped" empty sha256sum -zb one
same "--ze abbreviated" empty sha256sum --ze one
same "--zero=1" empty sha256sum --zero=1 one
same "-z names not escaped" empty sha256sum -z 'back\slash' 'with space' "$NL" "$CR"
same "-z missing file" empty sha256sum -z nosuch one
same "-z -c refused" empty sha256sum -z -c good.sums
same "-c --zero refused" empty sha256sum -c --zero good.sums
same "--tag -z -c refused" empty sha256sum --tag -z -c good.sums
sha256sum -z one nine > zero.sums
same "-c on a NUL-terminated list" empty sha256sum -c zero.sums
# the same facts without coreutils: two NUL-ended lines, no newline at all
ic sha256sum -z one "$NL" > o 2> e
r=$?
nuls=$(tr -cd '\000' < o | wc -c)
nls=$(tr -cd '\n' < o | wc -c)
[ $r -eq 0 ] && [ "$nuls" -eq 2 ] && [ "$nls" -eq 1 ] && [ "$(head -c 1 o)" != '\' ] \
    && [ "$(tr '\000' '|' < o)" = "$(sha256sum one | cut -c1-64)  one|$(sha256sum "$NL" | cut -c2-65)  $NL|" ] \
    && pass || fail "-z: exit $r, $nuls NULs and $nls newlines (the one in the name), want 2 and 1"
ic crc32c -z nine > o
r=$?
[ $r -eq 0 ] && [ "$(tr '\000' '|' < o)" = "e3069283  nine|" ] && pass || fail "crc32c -z: exit $r"
ic crc32 -z --tag nine > o
[ "$(tr '\000' '|' < o)" = "CRC32 (nine) = cbf43926|" ] && pass || fail "crc32 -z --tag"
ic crc32 -c -z good.sums > o 2> e
[ $? -eq 1 ] && grep -q 'crc32: the --zero option is not supported when verifying checksums' e \
    && pass || fail "crc32 -c -z must be refused"
ic sha256sum --help > o
grep -q -- '-z, --zero' o && pass || fail "--help lists -z"

# ---- option combinations: coreutils' order and wording ----------------------
same "--tag -t -c" empty sha256sum --tag -t -c good.sums
same "--status --warn (last wins)" empty sha256sum --status --warn one
same "--warn --quiet (last wins)" empty sha256sum --warn --quiet one
same "--quiet --status (last wins)" empty sha256sum --quiet --status one
same "--strict without -c" empty sha256sum --strict one

# ---- CRC-32 / CRC-32C (values: CRC catalogue, zlib, RFC 3720) -------------
ic crc32 nine > o
expect "crc32 123456789" 0 $? o "cbf43926  nine"
ic crc32c nine > o
expect "crc32c 123456789" 0 $? o "e3069283  nine"
ic crc32 < nine > o
expect "crc32 stdin" 0 $? o "cbf43926  -"
ic crc32 empty one > o
expect "crc32 empty, a" 0 $? o "00000000  empty
e8b7be43  one"
ic crc32c one > o
expect "crc32c a" 0 $? o "c1d04330  one"
dd if=/dev/zero of=zero32 bs=32 count=1 2>/dev/null
ic crc32c zero32 > o
expect "crc32c 32 zeros (RFC 3720)" 0 $? o "8a9136aa  zero32"
ic crc32 --tag nine > o
expect "crc32 --tag" 0 $? o "CRC32 (nine) = cbf43926"
for alg in crc32 crc32c; do
    ic $alg empty one nine big > crc.sums
    ic $alg -c crc.sums > o 2> e
    expect "$alg -c ok" 0 $? o "empty: OK
one: OK
nine: OK
big: OK"
    sed '3s/^./f/' crc.sums > crcbad.sums
    if [ "$(sed -n 3p crc.sums)" = "$(sed -n 3p crcbad.sums)" ]; then
        sed '3s/^./0/' crc.sums > crcbad.sums
    fi
    ic $alg -c crcbad.sums > o 2> e
    r=$?
    [ $r -eq 1 ] && grep -q '^nine: FAILED$' o && grep -q "$alg: WARNING: 1 computed checksum did NOT match" e \
        && pass || fail "$alg -c mismatch: exit $r"
done
# a regular file of 16 MiB or more: crc32/crc32c read it in parts on threads
# and join them; CRC-32 against gzip's trailer, CRC-32C against the
# sequential read of a pipe, also from stdin and from an offset into it
dd if=/dev/urandom of=huge bs=1048576 count=17 2>/dev/null
head -c 12345 big >> huge
hexof() { sed 's/ .*//' "$1"; }
if command -v gzip >/dev/null 2>&1; then
    want=$(gzip -1 -c huge | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')
    ic crc32 huge > o
    [ "$(hexof o)" = "$want" ] && pass || fail "crc32 of 17 MiB: $(hexof o), gzip says $want"
else
    fail "gzip not found: cannot check crc32 of a large file"
fi
for alg in crc32 crc32c; do
    cat huge | ic $alg > seq.o
    ic $alg huge > par.o
    [ "$(hexof par.o)" = "$(hexof seq.o)" ] && pass || fail "$alg of 17 MiB in parts differs from a pipe"
    ic $alg - < huge > par.o
    [ "$(hexof par.o)" = "$(hexof seq.o)" ] && pass || fail "$alg of 17 MiB on stdin differs from a pipe"
    tail -c +1001 huge | ic $alg > seq.o
    { dd bs=1000 count=1 of=/dev/null 2>/dev/null; ic $alg; } < huge > par.o
    [ "$(hexof par.o)" = "$(hexof seq.o)" ] && pass || fail "$alg of stdin from offset 1000 differs"
done
rm -f huge
# a CRC list is not a SHA-256 list, and the other way round
ic sha256sum -c crc.sums > o 2> e
[ $? -eq 1 ] && grep -q 'no properly formatted checksum lines found' e && pass || fail "sha256sum -c on crc list"
ic crc32 -c good.sums > o 2> e
[ $? -eq 1 ] && pass || fail "crc32 -c on sha256 list"

# -j N: several files digested at once, the output (and the diagnostics)
# exactly what one-at-a-time gives, in argument order, whatever finishes
# first: a large file first, small ones after it, a missing one between.
dd if=/dev/zero of=large bs=65536 count=64 2>/dev/null
for alg in sha256sum sha512sum crc32 crc32c; do
    ic $alg large one missing nine empty big one > seq.o 2> seq.e; r1=$?
    for j in "-j 3" "-j4" "--jobs=2" "--jobs 8" "-zj 2"; do
        ic $alg $j large one missing nine empty big one > par.o 2> par.e; r2=$?
        if [ "$j" = "-zj 2" ]; then
            ic $alg -z large one missing nine empty big one > seq.o 2> seq.e; r1=$?
        fi
        [ $r1 -eq 1 ] && [ $r2 -eq 1 ] && cmp -s seq.o par.o && cmp -s seq.e par.e \
            && pass || fail "$alg $j: exit $r1/$r2, output or diagnostics differ from one at a time"
    done
    ic $alg --tag -j 2 one nine > par.o && ic $alg --tag one nine > seq.o && cmp -s seq.o par.o \
        && pass || fail "$alg --tag -j 2"
    ic $alg -j 2 one nine < /dev/null > par.o && ic $alg -c par.o > o && pass || fail "$alg -j output checks with -c"
done
printf 'from stdin' | ic sha256sum -j 2 one - nine > par.o
[ "$(sed -n 2p par.o)" = "$(printf 'from stdin' | sha256sum | sed 's/ .*//')  -" ] && pass || fail "-j with stdin"
for j in "-j 0" "-j 257" "-j x" "--jobs=" "-j"; do
    ic sha256sum $j one > o 2> e; r=$?
    [ $r -eq 1 ] && grep -q "Try 'incore sha256sum --help'" e && [ ! -s o ] && pass || fail "sha256sum $j: exit $r"
done
ic sha256sum --help > o && grep -q -- '--jobs' o && pass || fail "--help names --jobs"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
