#!/bin/sh
# install.sh CMAKE BUILD_DIR: `cmake --install` puts the library, the
# headers, the incore command and the plot script where they belong, and an
# installed incore (also after its prefix was moved) runs the installed
# share/incore/plot_speed.py, while a copy of the executable outside both
# the build and the install still finds the source tree's script.
cmake="$1"; build="$2"
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

"$cmake" --install "$build" --prefix "$T/prefix" >"$T/log" 2>&1 && ok || bad "install: $(cat "$T/log")"
for f in bin/incore include/incore/incore.h share/incore/plot_speed.py; do
    [ -f "$T/prefix/$f" ] && ok || bad "not installed: $f"
done
ls "$T"/prefix/lib*/libincore.a >/dev/null 2>&1 && ok || bad "not installed: libincore.a"
cmp -s "$T/prefix/share/incore/plot_speed.py" "$(dirname "$0")/../scripts/plot_speed.py" \
    && ok || bad "installed plot_speed.py is not scripts/plot_speed.py"

# A stand-in for the installed script that marks what it writes, so the test
# sees which copy ran (and needs no matplotlib).
cat >"$T/prefix/share/incore/plot_speed.py" <<'EOF'
import sys
a = sys.argv[1:]
if "--check" in a:
    sys.exit(0)
with open(a[a.index("-o") + 1], "w") as f:
    f.write("<svg>the installed copy</svg>\n")
EOF
plot() {   # plot INCORE FILE
    "$1" speed --seconds 0.01 --sizes 64 crc32 --plot "$2" >"$T/out" 2>"$T/err"
}
plot "$T/prefix/bin/incore" "$T/a.svg"; st=$?
[ $st -eq 0 ] && grep -q 'the installed copy' "$T/a.svg" && ok \
    || bad "installed incore did not run the installed script (exit $st): $(cat "$T/err")"
mv "$T/prefix" "$T/moved"
plot "$T/moved/bin/incore" "$T/b.svg"; st=$?
[ $st -eq 0 ] && grep -q 'the installed copy' "$T/b.svg" && ok \
    || bad "moved install did not run its script (exit $st): $(cat "$T/err")"

# An executable copied elsewhere falls back to the source tree's script: it
# either plots (matplotlib present) or says matplotlib is missing, but it is
# never "not found".
mkdir "$T/alone" && cp "$build/incore" "$T/alone/incore"
plot "$T/alone/incore" "$T/c.svg"; st=$?
if [ $st -eq 0 ]; then
    grep -q '<svg' "$T/c.svg" && ! grep -q 'the installed copy' "$T/c.svg" && ok \
        || bad "copied incore ran the wrong script"
else
    ! grep -q 'not found' "$T/err" && grep -q matplotlib "$T/err" && ok \
        || bad "copied incore: exit $st: $(cat "$T/err")"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
