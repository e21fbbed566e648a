#!/bin/sh
# cli_speed.sh INCORE [EMULATOR...]: `incore speed` works - options, the
# output formats, errors - never how fast anything is (no timed test).
# Under an emulator every run is kept to one or two tiny measurements.
incore="$1"; shift
EMU="$*"
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
out=$(mktemp); err=$(mktemp); svg=$(mktemp); mv "$svg" "$svg.svg"; svg=$svg.svg
trap 'rm -f "$out" "$err" "$svg"' EXIT
speed() { $EMU "$incore" speed "$@" >"$out" 2>"$err"; }

# Fields every --json row must carry, checked with python3 when there is one:
# the figures with their units named (mib_per_s = 2^20 B/s, mb_per_s =
# 10^6 B/s: the same rate) and what produced them.
json_ok() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    assert isinstance(r["alg"], str) and isinstance(r["impl"], str) and r["impl"]
    assert r["provider"] in ("incore", "openssl", "libsodium", "zlib", "isal", "libgcrypt")
    assert isinstance(r["size"], int) and r["size"] > 0
    assert r["mib_per_s"] > 0 and r["cpb"] > 0 and r["check"] == "ok"
    assert abs(r["mb_per_s"] - r["mib_per_s"] * 1.048576) <= 1e-4 * r["mb_per_s"]
    for k in ("version", "incore_version", "arch", "cpu_model", "cpu_features", "compiler"):
        assert isinstance(r[k], str) and r[k], k
    assert r["incore_version"].count(".") == 2
    for k in ("aad", "misalign", "threads", "repeats"):
        assert isinstance(r[k], int), k
    assert r["stat"] in ("median", "best"), r["stat"]
    n += 1
sys.exit(0 if n >= int(sys.argv[2]) else 1)' "$out" "$1"
    else
        [ "$(grep -c '"alg":.*"provider":.*"impl":.*"size":.*"mib_per_s":.*"mb_per_s":.*"cpb":.*"incore_version":.*"cpu_model":.*"cpu_features":.*"compiler":' "$out")" -ge "$1" ]
    fi
}

if [ -z "$EMU" ]; then
    speed --quick; st=$?
    [ $st -eq 0 ] && ok || bad "--quick exit $st: $(cat "$err")"
    for a in aes-128-gcm sha256 chacha20-poly1305 crc32c; do
        grep -q "^$a " "$out" && ok || bad "--quick measures $a"
    done
    grep -q 'MiB/s' "$out" && grep -q 'c/B' "$out" && ok || bad "--quick prints MiB/s and c/B"
    grep -q 'reference cycles' "$out" && grep -q 'GHz' "$out" && ok || bad "--quick names the counter and its rate"
fi

# --json: one object per line, 2 sizes x 1 alg at least
speed --json --seconds 0.01 --sizes 64,256 sha256; st=$?
[ $st -eq 0 ] && ok || bad "--json exit $st: $(cat "$err")"
json_ok 2 && ok || bad "--json rows lack fields: $(head -3 "$out")"
[ "$(grep -c '"provider":"incore"' "$out")" -eq 2 ] && ok || bad "--json: one incore row per size"

grep -q '"stat":"median"' "$out" && ok || bad "--json: the median is the default figure"

# --stat best: the fastest batch, said in the header and in every row
speed --seconds 0.01 --repeats 3 --stat best --sizes 64 sha256; st=$?
[ $st -eq 0 ] && grep -q 'best of 3 batches' "$out" && ok || bad "--stat best header ($st): $(head -3 "$out")"
speed --json --seconds 0.01 --repeats 3 --stat=best --sizes 64 sha256; st=$?
[ $st -eq 0 ] && json_ok 1 && [ "$(grep -c '"stat":"best"' "$out")" -eq 1 ] && ok \
    || bad "--stat=best rows ($st): $(head -2 "$out")"

# --sweep gives A, A+STEP, ..., B; ECB rounds a size down to whole blocks
speed --json --seconds 0.01 --sweep 16:64:16 crc32; st=$?
[ $st -eq 0 ] && [ "$(grep -c '"alg":"crc32"' "$out")" -eq 4 ] && grep -q '"size":48,' "$out" \
    && ok || bad "--sweep 16:64:16 gives 4 sizes ($st)"
speed --json --seconds 0.01 --sizes 40 aes-128-ecb; st=$?
[ $st -eq 0 ] && grep -q '"size":32,' "$out" && ok || bad "ECB measures whole blocks ($st)"

# --csv header, then rows
speed --csv --seconds 0.01 --sizes 64 crc32c; st=$?
[ $st -eq 0 ] && [ "$(head -1 "$out")" = "alg,provider,impl,call,size,aad,misalign,threads,mib_per_s,mb_per_s,cpb,stat,check,version,incore_version,arch,cpu_model,cpu_features,compiler" ] \
    && grep -q '^crc32c,incore,[^,]*,ic_crc32c,64,0,0,1,[0-9.e+]*,[0-9.e+]*,[0-9.e+]*,median,ok,' "$out" \
    && ok || bad "--csv header and row ($st): $(head -2 "$out")"
if command -v python3 >/dev/null 2>&1; then
    python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(len(r) == 19 and r["stat"] == "median" and None not in r and r["cpu_features"] is not None for r in rows)' "$out" \
        && ok || bad "--csv rows do not parse as 19 fields"
fi

# --aad, --misalign, --threads: recorded in every row; the AEADs take the
# AAD (a peer too: its output is checked against incore's), the others 0
speed --json --seconds 0.01 --sizes 64 --aad 13 --misalign 5 --threads 2 --vs openssl \
    aes-128-gcm aes-128-gcm-open chacha20-poly1305 sha256; st=$?
[ $st -eq 0 ] && json_ok 4 && ok || bad "--aad/--misalign/--threads exit $st: $(cat "$err")"
grep -q '"alg":"aes-128-gcm","provider":"incore".*"aad":13,"misalign":5,"threads":2' "$out" \
    && grep -q '"alg":"chacha20-poly1305",.*"aad":13,' "$out" && grep -q '"alg":"sha256",.*"aad":0,"misalign":5,' "$out" \
    && ok || bad "--aad/--misalign/--threads not in the rows: $(head -2 "$out")"
grep -q 'AEAD messages with 13 bytes of AAD; buffers 5 bytes past 64-byte alignment; 2 processes' "$err" \
    && ok || bad "the header names --aad/--misalign/--threads: $(cat "$err")"
for o in "--aad -1" "--aad 65537" "--misalign 64" "--misalign x" "--threads 0" "--threads 257"; do
    speed $o sha256; st=$?
    [ $st -eq 2 ] && grep -q "bad ${o%% *}" "$err" && ok || bad "$o: exit $st: $(cat "$err")"
done

# the reusable-key GCM call, its one-shot counterpart, GHASH, HKDF, the
# hardware random source (a CPU without one: a note, not a failure)
speed --json --seconds 0.01 --sizes 64 aes-128-gcm-key aes-128-gcm-oneshot aes-192-gcm ghash hkdf-sha256 \
    sha512-224 hmac-sha512 aes-256-xts-sector hwrand; st=$?
[ $st -eq 0 ] && ok || bad "new rows exit $st: $(cat "$err")"
for a in aes-128-gcm-key aes-128-gcm-oneshot aes-192-gcm ghash hkdf-sha256 sha512-224 hmac-sha512 \
         aes-256-xts-sector; do
    grep -q "\"alg\":\"$a\",\"provider\":\"incore\"" "$out" && ok || bad "no incore row for $a"
done
grep -q '"alg":"hwrand"' "$out" || grep -q 'hwrand: incore/none not measured' "$err" \
    && ok || bad "hwrand: neither a row nor a note"
# the sector rows move the sector number from message to message: every
# variant must still agree at every size (the output check restarts it)
speed --impl all --seconds 0.01 --sizes 512,4096 aes-128-xts-sector; st=$?
[ $st -eq 0 ] && ok || bad "xts-sector --impl all exit $st: $(cat "$err")"

# --markdown tables
speed --markdown --seconds 0.01 --sizes 64 poly1305; st=$?
[ $st -eq 0 ] && grep -q '^### poly1305' "$out" && grep -q '^| incore |' "$out" \
    && ok || bad "--markdown ($st)"

# every implementation; a peer is measured beside incore, and one that cannot be
# loaded (e.g. a cross binary under QEMU) is reported, never fatal
speed --json --seconds 0.01 --sizes 64 --impl all --vs all crc32c; st=$?
[ $st -eq 0 ] && ok || bad "--impl all --vs all exit $st: $(cat "$err")"
grep -q '"provider":"incore"' "$out" && ok || bad "--impl all measures incore"
grep -q 'peer isal' "$err" && ok || bad "--vs all reports the isal peer: $(cat "$err")"
if [ -z "$EMU" ] && grep -q 'peer isal: libisal' "$err"; then
    grep -q '"provider":"isal"' "$out" && ok || bad "isal row beside incore"
fi

# intel-ipsec-mb, both APIs, every algorithm it has here, with AAD so the
# AEAD paths take it: each row's output was checked against incore's
# ("check":"ok"; a mismatch fails the run).  Where the library or its header
# is missing the header line says why and there are no rows.
speed --json --seconds 0.01 --sizes 64,1000 --aad 13 --vs ipsecmb,ipsecmb-job aes-128-gcm aes-256-gcm-open \
    aes-192-ctr chacha20-poly1305 sha1 sha512 crc32; st=$?
[ $st -eq 0 ] && ok || bad "--vs ipsecmb exit $st: $(cat "$err")"
if [ -z "$EMU" ] && grep -q 'peer ipsecmb: intel-ipsec-mb' "$err"; then
    for r in aes-128-gcm,ipsecmb aes-128-gcm,ipsecmb-job aes-256-gcm-open,ipsecmb aes-256-gcm-open,ipsecmb-job \
             aes-192-ctr,ipsecmb-job chacha20-poly1305,ipsecmb chacha20-poly1305,ipsecmb-job sha1,ipsecmb \
             sha512,ipsecmb crc32,ipsecmb; do
        [ "$(grep -c "\"alg\":\"${r%,*}\",\"provider\":\"${r#*,}\",.*\"check\":\"ok\"" "$out")" = 2 ] &&
            ok || bad "no checked $r rows at both sizes"
    done
else
    grep -q 'peer ipsecmb: not available' "$err" && ok || bad "ipsecmb neither measured nor reported missing"
    echo "note: intel-ipsec-mb not measured here: $(grep 'peer ipsecmb:' "$err")"
fi

# openssl-latest: the newest OpenSSL release, a module that
# scripts/build-openssl-latest.sh (make openssl-latest) builds into the
# cache; `make test` does not build it.  Without it, --vs all says how to
# build it and goes on, and naming it is an error that names the script.
# With it, every algorithm it has here, beside the system's OpenSSL, with
# AAD: each row's output was checked against incore's ("check":"ok").
INCORE_OPENSSL_LATEST=/nonexistent/openssl-latest.so $EMU "$incore" speed --seconds 0.01 --sizes 64 \
    --vs all sha256 >"$out" 2>"$err"; st=$?
[ $st -eq 0 ] && grep -q 'peer openssl-latest: not available (no module at /nonexistent/openssl-latest.so: build it with scripts/build-openssl-latest.sh' "$out" \
    && { grep -q '^  openssl ' "$out" || grep -q '^peer openssl: not available' "$out"; } \
    && ! grep -q '^  openssl-latest ' "$out" \
    && ok || bad "--vs all without the openssl-latest module: exit $st: $(head -12 "$out") $(cat "$err")"
INCORE_OPENSSL_LATEST=/nonexistent/openssl-latest.so $EMU "$incore" speed --seconds 0.01 --sizes 64 \
    --vs openssl,openssl-latest sha256 >"$out" 2>"$err"; st=$?
[ $st -eq 2 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] \
    && grep -q '^incore speed: --vs openssl-latest: no module at /nonexistent/openssl-latest.so: build it with scripts/build-openssl-latest.sh' "$err" \
    && ok || bad "--vs openssl-latest without the module: exit $st: $(cat "$err")"
latest_algs="aes-128-gcm aes-256-gcm-open aes-128-xts aes-256-xts aes-128-ctr aes-128-ecb aes-192-cbc-dec aes-256-cfb-enc aes-128-ofb \
    chacha20 chacha20-poly1305 poly1305 sha1 sha256 sha512 hmac-sha256 modexp2048 rsa2048-verify rsa2048-sign"
speed --json --seconds 0.01 --repeats 1 --sizes 64,1000 --aad 13 --vs openssl,openssl-latest $latest_algs; st=$?
if grep -q 'no module at' "$err"; then
    [ $st -eq 2 ] && ok || bad "--vs openssl-latest, no module: exit $st"
    echo "note: openssl-latest not exercised here (make openssl-latest builds it): $(cat "$err")"
elif [ $st -eq 0 ] || { [ -z "$EMU" ] && "$incore" info | grep -q '^arch  *x86-64$'; }; then
    [ $st -eq 0 ] && ok || bad "--vs openssl-latest exit $st: $(cat "$err")"
    grep -q '^peer openssl-latest: OpenSSL [4-9]\.' "$err" && ok || bad "openssl-latest header: $(cat "$err")"
    grep -q '"provider":"openssl-latest",.*"version":"OpenSSL [4-9]\.' "$out" && ok || bad "openssl-latest version in the rows"
    for a in $latest_algs; do
        for p in openssl openssl-latest; do
            n=$(grep -c "\"alg\":\"$a\",\"provider\":\"$p\",.*\"check\":\"ok\"" "$out")
            case $a in modexp* | rsa*) want=1 ;; *) want=2 ;; esac
            [ "$n" = "$want" ] && ok || bad "$n checked $a rows of $p, want $want"
        done
    done
else
    # a module for another architecture than this build's (the i686 leg)
    grep -q 'openssl-latest' "$err" && ok || bad "--vs openssl-latest exit $st, no reason: $(cat "$err")"
    echo "note: openssl-latest not exercised by this build: $(cat "$err")"
fi

# bad usage: exit 2 and a message
speed --frobnicate; st=$?
[ $st -eq 2 ] && grep -q "unknown option '--frobnicate'" "$err" && ok || bad "bad option exit $st"
speed no-such-alg; st=$?
[ $st -eq 2 ] && grep -q "unknown algorithm 'no-such-alg'" "$err" && ok || bad "unknown alg exit $st"
speed sha256,no-such-alg; st=$?
[ $st -eq 2 ] && grep -q "unknown algorithm 'no-such-alg'" "$err" && ok || bad "unknown alg in a list exit $st"
speed sha256,,crc32c; st=$?
[ $st -eq 2 ] && grep -q "bad algorithm list" "$err" && ok || bad "empty name in a list exit $st"
speed --json --seconds 0.01 --repeats 1 --sizes 64 sha256,crc32c; st=$?
[ $st -eq 0 ] && grep -q '"alg":"sha256"' "$out" && grep -q '"alg":"crc32c"' "$out" && ok \
    || bad "comma-separated algorithms exit $st"
speed --vs nobody sha256; st=$?
[ $st -eq 2 ] && grep -q "unknown peer" "$err" && ok || bad "unknown peer exit $st"
speed --sizes 0 sha256; st=$?
[ $st -eq 2 ] && grep -q "bad --sizes" "$err" && ok || bad "--sizes 0 exit $st"
speed --sweep 64:16:8 sha256; st=$?
[ $st -eq 2 ] && grep -q "bad --sweep" "$err" && ok || bad "--sweep B < A exit $st"
speed --seconds; st=$?
[ $st -eq 2 ] && grep -q "needs a value" "$err" && ok || bad "--seconds without value exit $st"
speed --seconds=-1 sha256; st=$?
[ $st -eq 2 ] && ok || bad "--seconds=-1 exit $st"
# a value never starts with "--"; output formats exclude one another
speed --vs --seconds 0.01 sha256; st=$?
[ $st -eq 2 ] && grep -q "^incore speed: --vs needs a value" "$err" && ok || bad "--vs --seconds: exit $st: $(cat "$err")"
speed --json --csv --seconds 0.01 --sizes 64 crc32; st=$?
[ $st -eq 2 ] && [ ! -s "$out" ] && grep -q "exclude each other" "$err" && ok || bad "--json --csv: exit $st"

# --help and --list
speed --help; st=$?
[ $st -eq 0 ] && grep -q -- '--vs' "$out" && grep -q -- '--sweep' "$out" && grep -q -- '--aad' "$out" \
    && grep -q -- '--misalign' "$out" && grep -q -- '--threads' "$out" && ok || bad "--help ($st)"
speed --list; st=$?
[ $st -eq 0 ] && ok || bad "--list exit $st"
for a in aes-128-ecb aes-256-ctr aes-256-gcm-open sha512-256 hmac-sha256 chacha20 poly1305 \
         xchacha20-poly1305 crc32 crc32c aes-192-gcm aes-256-gcm-key aes-256-gcm-oneshot sha512-224 \
         hmac-sha1 hmac-sha384 hmac-sha512 hkdf-sha256 hkdf-sha512 ghash hwrand aes-128-xts-sector; do
    grep -q "^$a " "$out" && ok || bad "--list has $a"
done

# --plot: an SVG when python3 has matplotlib, else a clear refusal before
# running.  The plot script is found through the build (this test runs from
# the build directory, which may be anywhere), never the working directory.
# one_error WHAT: failed, before measuring anything, with exactly one line
# on stderr, "incore speed: ...", and no Python traceback.
one_error() {
    [ $st -ne 0 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] \
        && grep -q '^incore speed: ' "$err" && ! grep -q Traceback "$err" && ok \
        || bad "$1: exit $st, stdout $(wc -c < "$out") bytes, stderr: $(cat "$err")"
}
if [ -z "$EMU" ]; then
    speed --seconds 0.01 --sizes 64,1024 crc32 --plot "$svg"; st=$?
    if [ $st -eq 0 ]; then
        grep -q '<svg' "$svg" && ok || bad "--plot wrote no SVG"
        grep -q "^plot: $svg\$" "$out" && ok || bad "--plot names the file it wrote"
        for p in /nonexistent-incore-dir/speed.svg "${svg%.svg}.nosuchformat" /; do
            speed --seconds 0.01 --sizes 64 crc32 --plot "$p"; st=$?
            one_error "--plot $p"
            [ $st -eq 2 ] && ok || bad "--plot $p: exit $st, want 2 (the plot cannot be written)"
            grep -q "cannot write plot '$p'" "$err" && ok || bad "--plot $p: $(cat "$err")"
        done
        [ ! -e "${svg%.svg}.nosuchformat" ] && ok || bad "--plot left the file it only checked"
        rm -f "${svg%.svg}.nosuchformat"
    else
        [ $st -eq 2 ] && grep -q 'matplotlib' "$err" && ok || bad "--plot failure exit $st: $(cat "$err")"
        one_error "--plot without matplotlib"
    fi
    # no python3 to run the script: one line, exit 2
    INCORE_PYTHON=/nonexistent/python3 $EMU "$incore" speed --sizes 64 crc32 --plot "$svg" \
        >"$out" 2>"$err"; st=$?
    [ $st -eq 2 ] && ok || bad "--plot without python exit $st"
    one_error "--plot without python"
    # a script that cannot be found: one line, exit 2
    INCORE_PLOT_SCRIPT=/nonexistent/plot_speed.py $EMU "$incore" speed --sizes 64 crc32 \
        --plot "$svg" >"$out" 2>"$err"; st=$?
    [ $st -eq 2 ] && grep -q 'plot_speed.py not found' "$err" && ok || bad "--plot, no script: exit $st"
    one_error "--plot, no script"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
