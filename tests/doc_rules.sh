#!/bin/sh
# doc_rules.sh SOURCE_DIR [FILE...]: the text rules every file of the
# repository follows (the doc_rules test).  A file describes what the code
# does and why; it does not narrate how the project was built, and it cites
# documents by title, never by a path outside this repository.  Flagged:
#   - development-log references: the word session(s) or issue(s) followed
#     by a number (a "#" before it too), and the phrase for the person who
#     led the work (the rule the-lead below);
#   - paths outside the repository: the directory of shared files beside a
#     checkout, a design file that is not in the repository (the design is
#     docs/architecture.md);
#   - source-document file names (three digits, an underscore and sixteen
#     hex digits) and "seed" numbers that stand for them.
# SOURCE_DIR alone: every file of the tree (git ls-files in a git checkout,
# else find), except .ci/, whose CI scripts may name the CI machine's
# layout.  With FILE arguments (paths relative to SOURCE_DIR): only those.
# Prints FILE:LINE:TEXT for each hit and exits 1 if there is one.
#
# The patterns are written with character classes so that this file does
# not match them, and a self-test on planted lines runs first: a pattern
# that stopped matching would otherwise pass every tree.
set -u
export LC_ALL=C
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

# One extended regular expression per rule (name, then pattern).
RULES='session-number	(^|[^[:alnum:]_])[Ss]ession(s)?[ ]+#?[0-9]
issue-number	(^|[^[:alnum:]_])[Ii]ssue(s)?[ ]?#?[0-9]
the-lead	(^|[^[:alnum:]_])[Tt]he[ ]+[l]ead([^[:alnum:]_]|$)
shared-dir	[.][.]/[s]hared([^[:alnum:]_]|$)
design-file	(^|[^[:alnum:]_])[D]ESIGN[.]md
seed-file	0[0][0-4]_[0-9a-f]{16}
seed-number	(^|[^[:alnum:]_])[Ss]eeds?[ ]+0?0[0-4]([^[:alnum:]_]|$)'

# scan FILE...: print FILE:LINE:TEXT [rule] for every hit; status 0 if none.
scan() {
    found=0
    tab=$(printf '\t')
    while IFS="$tab" read -r name re; do
        [ -n "$name" ] || continue
        # -I: binary files (fuzz corpora) are not text
        if out=$(grep -nHIE -- "$re" "$@" 2>/dev/null); then
            printf '%s\n' "$out" | sed "s/\$/   [$name]/"
            found=1
        fi
    done <<EOF
$RULES
EOF
    return $found
}

# doc_rules.sh --scan FILE...: the scan alone (what xargs runs below).
if [ "${1:-}" = --scan ]; then
    shift
    scan "$@"
    exit $?
fi
src=${1:?usage: doc_rules.sh SOURCE_DIR [FILE...]}
shift

# Self-test: one planted line per rule must be caught, and near misses
# (words that contain a rule's letters in an allowed sense) must not be.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
{
    printf '%s\n' "## Sess""ion 9" "see iss""ue 13 for it" "(iss""ue #4)" "asked by the le""ad" \
        "in ../sha""red/tools" "per DES""IGN.md" "003""_63d1d83b02113275.txt" "(se""ed 003)"
} > "$tmp/planted.txt"
{
    printf '%s\n' "the leading zero bytes" "the VAESENC issue rate" "a session key" \
        "misleading" "shared library" "designs" "seed 31 bytes" "0xC2000000_00000000_00000000_00000001"
} > "$tmp/clean.txt"
nrules=$(printf '%s\n' "$RULES" | grep -c .)
hits=$(cd "$tmp" && scan planted.txt | cut -d: -f2 | sort -u | grep -c .)
rules_hit=$(cd "$tmp" && scan planted.txt | sed 's/.*\[\([a-z-]*\)\]$/\1/' | sort -u | grep -c .)
if [ "$hits" -ne 8 ] || [ "$rules_hit" -ne "$nrules" ]; then
    echo "doc_rules self-test FAILED: planted lines caught $hits of 8, rules that fired $rules_hit of $nrules:"
    (cd "$tmp" && scan planted.txt)
    exit 1
fi
if clean=$(cd "$tmp" && scan clean.txt); then :; else
    echo "doc_rules self-test FAILED: false positives:"
    printf '%s\n' "$clean"
    exit 1
fi
echo "doc_rules self-test: $nrules rules, each caught its planted line; no false positive"

cd "$src" || exit 1
list="$tmp/files"
if [ $# -gt 0 ]; then
    printf '%s\n' "$@" > "$list"
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ -n "$(git ls-files | head -1)" ]; then
    git ls-files > "$list"
else
    find . -type f ! -path './.git/*' ! -path './.vectors/*' ! -path './build*' | sed 's|^\./||' > "$list"
fi
# .ci/ may name the CI machine's layout; files deleted in the work tree are skipped
grep -v '^\.ci/' "$list" | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done > "$list.scan"
n=$(grep -c . "$list.scan")
if [ "$n" -eq 0 ]; then
    echo "doc_rules: no files to check"
    exit 1
fi
# xargs: many files per grep, file names with spaces kept whole
hits=$(tr '\n' '\0' < "$list.scan" | xargs -0 sh "$self" --scan)
if [ -n "$hits" ]; then
    printf '%s\n' "$hits"
    echo "doc_rules: $(printf '%s\n' "$hits" | grep -c .) lines in $n files break the rules above (say what the code does and why; cite documents by title and section)"
    exit 1
fi
echo "doc_rules: $n files, no hit"
