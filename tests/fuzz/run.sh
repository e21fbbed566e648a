#!/bin/sh
# run.sh - build and run the libFuzzer targets of tests/fuzz/.
#
#   run.sh build DIR                   configure DIR with clang (the library and
#                                      the targets with -fsanitize=fuzzer,address,
#                                      undefined) and build the targets
#   run.sh grow  DIR SECONDS [NAME..]  run each target SECONDS, new inputs going
#                                      into tests/fuzz/corpus/NAME/, then minimize
#                                      that directory with -merge=1 (make fuzz)
#   run.sh check DIR SECONDS NAME      run NAME for SECONDS from the committed
#                                      corpus, which stays untouched (the suite)
#
# Environment: CC (default clang), FUZZ_CFLAGS (extra compiler flags, e.g.
# -fno-sanitize=... while a known library bug is being fixed), FUZZ_ARGS
# (extra libFuzzer flags).  Any crash, leak, sanitizer report or failed check
# makes the run fail; libFuzzer leaves the input as DIR/artifacts/crash-*.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,17p' "$0"; exit 2; }

# Every target the build has (fuzz_provider only where OpenSSL 3's
# development files were found); one it left out is named.
targets() {
    for f in "$here"/fuzz_*.c; do
        t=$(basename "$f" .c | sed 's/^fuzz_//')
        if [ -x "$dir/tests/fuzz/fuzz_$t" ]; then echo "$t"; else echo "fuzz_$t not built in $dir: not run" >&2; fi
    done
}

# Flags every run shares: inputs up to 4 KiB (a target expands longer
# messages from a seed itself), 10 s per input at most, 2 GB of memory.
common="-max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=0"

case "$cmd" in
build)
    cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_C_COMPILER="${CC:-clang}" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIC_FUZZ_LIBFUZZER=ON \
        -DINCORE_BUILD_TOOLS=OFF -DIC_FUZZ_CI_SECONDS=0 \
        -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined ${FUZZ_CFLAGS:-}" \
        >/dev/null
    cmake --build "$dir" --target fuzz_targets -j "${JOBS:-2}"
    ;;
grow)
    secs=${3:-60}; shift 3 || shift $#
    names=${*:-$(targets)}
    mkdir -p "$dir/artifacts"
    failed=""
    for t in $names; do
        corpus="$here/corpus/$t"
        mkdir -p "$corpus"
        echo "== fuzz_$t: $secs s, corpus $corpus ($(ls "$corpus" | wc -l) files)"
        # a crash ends this target's run, not the others'; reported at the end
        "$dir/tests/fuzz/fuzz_$t" $common -max_total_time="$secs" \
            -artifact_prefix="$dir/artifacts/$t-" ${FUZZ_ARGS:-} "$corpus" 2>"$dir/fuzz-$t.log" ||
            { tail -n 40 "$dir/fuzz-$t.log"; failed="$failed $t"; }
        # keep only the inputs that add edge coverage (hit counts ignored:
        # with them the corpus grows to thousands of files)
        min="$dir/min-$t"
        rm -rf "$min"; mkdir -p "$min"
        "$dir/tests/fuzz/fuzz_$t" $common -merge=1 -use_counters=0 -use_value_profile=0 -artifact_prefix="$dir/artifacts/$t-merge-" \
            "$min" "$corpus" 2>"$dir/merge-$t.log" ||
            { cat "$dir/merge-$t.log"; exit 1; }
        rm -f "$corpus"/*
        cp "$min"/* "$corpus"/ 2>/dev/null || true
        echo "   corpus now $(ls "$corpus" | wc -l) files, $(du -sk "$corpus" | cut -f1) KiB"
    done
    if [ -n "$failed" ]; then
        echo "FAILED:$failed (inputs in $dir/artifacts/, logs in $dir/fuzz-NAME.log)"
        exit 1
    fi
    ;;
check)
    secs=${3:?seconds}; t=${4:?target}
    new="$dir/new-$t"
    rm -rf "$new"; mkdir -p "$new" "$dir/artifacts"
    # new inputs go to the first directory; the committed one is only read
    exec "$dir/tests/fuzz/fuzz_$t" $common -max_total_time="$secs" \
        -artifact_prefix="$dir/artifacts/$t-" ${FUZZ_ARGS:-} "$new" "$here/corpus/$t"
    ;;
*)
    sed -n '2,17p' "$0"; exit 2 ;;
esac
