#!/bin/sh
# speed_ab.sh BEFORE AFTER RUNS ALG... -- two builds of `incore` measured
# alternately RUNS times each with `incore speed ALG --sizes $SIZES --json`
# (default sizes 64,1024,16384), then the median MiB/s of each and the
# ratio after/before per algorithm and size.  For before/after tables on a
# machine whose single runs are too noisy.
set -eu
[ $# -ge 4 ] || { echo "usage: $0 BEFORE AFTER RUNS ALG..." >&2; exit 2; }
before=$1 after=$2 runs=$3; shift 3
out=$(mktemp); trap 'rm -f "$out"' EXIT
for i in $(seq "$runs"); do
    for b in before after; do
        eval bin=\$$b
        "$bin" speed "$@" --sizes "${SIZES:-64,1024,16384}" --repeats 5 --seconds 0.1 --json 2>/dev/null \
            | sed "s|^|$b |" >> "$out"
    done
done
python3 - "$out" <<'PY'
import collections, json, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    who, js = line.split(' ', 1)
    r = json.loads(js)
    if r.get('provider') == 'incore':
        d[(r['alg'], r['size'], who)].append(r['mib_per_s'])
print('| algorithm | size | before MiB/s | after MiB/s | after/before |')
print('|---|---|---|---|---|')
for alg, size in sorted({(a, s) for a, s, _ in d}):
    b = statistics.median(d[(alg, size, 'before')]); a = statistics.median(d[(alg, size, 'after')])
    print(f'| {alg} | {size} | {b:.0f} | {a:.0f} | {a / b:.3f} |')
PY
