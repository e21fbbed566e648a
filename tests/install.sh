#!/bin/sh
# install.sh CMAKE BUILD_DIR [CC [CFLAGS [LDFLAGS]]]: `cmake --install` puts
# the libraries (SONAME libincore.so.MAJOR), the headers (with the generated
# version.h), incore.pc, the CMake package, the incore command, its plot
# script and the man pages where GNUInstallDirs says; a program outside the
# tree (tests/consumer) builds and runs against the install with pkg-config
# and with find_package(incore), and against this source tree with
# add_subdirectory() (which builds no tests); an installed incore (also
# after its prefix was moved) runs the installed share/incore/plot_speed.py,
# while a copy of the executable outside both the build and the install
# still finds the source tree's script.  The package version file takes a
# request for this major version only, and the examples installed under
# share/doc/incore/examples build against the install and run.  CC and the
# flags are the build's,
# so that a sanitizer build's consumers link its runtime.
cmake="$1"; build="$2"; cc="${3:-cc}"; cflags="${4:-}"; ldflags="${5:-}"
src=$(cd "$(dirname "$0")/.." && pwd)
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
cmp -s "$T/prefix/share/incore/plot_speed.py" "$src/scripts/plot_speed.py" \
    && ok || bad "installed plot_speed.py is not scripts/plot_speed.py"

# The version, as the build generated it from project(VERSION).
ver=$(sed -n 's/^#define IC_VERSION_STRING "\(.*\)"/\1/p' "$build/include/incore/version.h")
major=${ver%%.*}
[ -n "$ver" ] && [ -f "$T/prefix/include/incore/version.h" ] && ok || bad "no version.h (version '$ver')"
libdir=$(cd "$T/prefix" && ls -d lib*/pkgconfig 2>/dev/null | head -n 1); libdir=${libdir%/pkgconfig}
[ -n "$libdir" ] && ok || bad "no incore.pc installed"
for f in "libincore.so.$ver" "libincore.so.$major" libincore.so pkgconfig/incore.pc \
         cmake/incore/incoreConfig.cmake cmake/incore/incoreConfigVersion.cmake; do
    [ -e "$T/prefix/$libdir/$f" ] && ok || bad "not installed: $libdir/$f"
done
if command -v readelf >/dev/null 2>&1; then
    readelf -d "$T/prefix/$libdir/libincore.so.$ver" | grep -q "SONAME.*\[libincore\.so\.$major\]" \
        && ok || bad "SONAME is not libincore.so.$major: $(readelf -d "$T/prefix/$libdir/libincore.so.$ver" | grep SONAME)"
fi
# The man pages where the build made them (scdoc present), and `man`
# finds them there.
for m in 1 3; do
    if [ -f "$build/man/incore.$m" ]; then
        [ -f "$T/prefix/share/man/man$m/incore.$m" ] && ok || bad "not installed: man$m/incore.$m"
        if command -v man >/dev/null 2>&1; then
            MANPATH="$T/prefix/share/man" man -w $m incore 2>/dev/null | grep -q "^$T/prefix/share/man/man$m/incore.$m" \
                && ok || bad "man -w $m incore: $(MANPATH="$T/prefix/share/man" man -w $m incore 2>&1)"
            word=$([ $m = 1 ] && echo threads || echo ic_aes_gcm_key_seal)
            MANPATH="$T/prefix/share/man" MANPAGER=cat PAGER=cat man $m incore 2>/dev/null | grep -q -e "$word" \
                && ok || bad "man $m incore does not show $word"
        fi
    fi
done

run_consumer() {   # run_consumer WHAT EXE
    out=$("$2" 2>&1); st=$?
    [ $st -eq 0 ] && [ "$out" = "incore $ver ok" ] && ok || bad "$1: exit $st: $out"
}
gen=""; command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
cmake_consumer() {   # cmake_consumer DIR ARGS...: configure and build tests/consumer
    d="$1"; shift
    "$cmake" -S "$src/tests/consumer" -B "$d" $gen -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
        -DIC_EXPECT_VERSION="$ver" "$@" >"$T/log" 2>&1 \
        && "$cmake" --build "$d" >>"$T/log" 2>&1
}

# pkg-config: the flags it gives build a program that runs.
if command -v pkg-config >/dev/null 2>&1; then
    export PKG_CONFIG_PATH="$T/prefix/$libdir/pkgconfig"
    [ "$(pkg-config --modversion incore)" = "$ver" ] && ok || bad "pkg-config --modversion: $(pkg-config --modversion incore 2>&1)"
    pc=$(pkg-config --cflags --libs incore) && ok || bad "pkg-config --cflags --libs incore failed"
    $cc $cflags "$src/tests/consumer/consumer.c" -o "$T/pc_consumer" $pc $ldflags \
        -Wl,-rpath,"$T/prefix/$libdir" >"$T/log" 2>&1 \
        && ok || bad "pkg-config consumer did not build: $(cat "$T/log")"
    run_consumer "pkg-config consumer" "$T/pc_consumer"
    readelf -d "$T/pc_consumer" 2>/dev/null | grep -q "NEEDED.*libincore\.so\.$major" \
        && ok || bad "pkg-config consumer does not need libincore.so.$major"
else
    bad "pkg-config not found (scripts/install-deps.sh installs it)"
fi

# find_package(incore CONFIG): incore::incore and incore::incore_static.
if cmake_consumer "$T/fp" -DCMAKE_PREFIX_PATH="$T/prefix"; then
    ok
    run_consumer "find_package consumer (shared)" "$T/fp/consumer_shared"
    run_consumer "find_package consumer (static)" "$T/fp/consumer_static"
else
    bad "find_package consumer did not build: $(cat "$T/log")"
fi

# The package version file: a request for this major version (any minor up
# to this one) is met, one for the next major or an earlier one is not.
fp_version() {   # fp_version REQUEST: configure a project that asks for it
    mkdir -p "$T/ver"
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(v LANGUAGES C)\nfind_package(incore %s CONFIG REQUIRED)\n' \
        "$1" >"$T/ver/CMakeLists.txt"
    rm -rf "$T/ver/b"
    "$cmake" -S "$T/ver" -B "$T/ver/b" $gen -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$T/prefix" >"$T/log" 2>&1
}
minor=$(echo "$ver" | cut -d. -f2)
fp_version "$major.0" && ok || bad "find_package(incore $major.0) refused $ver: $(cat "$T/log")"
fp_version "$major.$minor" && ok || bad "find_package(incore $major.$minor) refused $ver: $(cat "$T/log")"
fp_version "$((major + 1)).0" && bad "find_package(incore $((major + 1)).0) accepted $ver" || ok
if [ "$major" -gt 0 ]; then
    fp_version "$((major - 1)).9" && bad "find_package(incore $((major - 1)).9) accepted $ver" || ok
fi

# The installed examples build as a project of their own against the
# install (find_package(incore 1.0)) and run.
exdir="$T/prefix/share/doc/incore/examples"
if [ -f "$exdir/CMakeLists.txt" ] && "$cmake" -S "$exdir" -B "$T/ex" $gen -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
        -DCMAKE_PREFIX_PATH="$T/prefix" >"$T/log" 2>&1 && "$cmake" --build "$T/ex" >>"$T/log" 2>&1; then
    ok
    head -c 3000 /dev/urandom >"$T/exmsg"; head -c 32 /dev/urandom >"$T/exkey"
    "$T/ex/example_hash_file" "$T/exmsg" >"$T/h1" 2>&1 && "$T/prefix/bin/incore" sha256sum "$T/exmsg" >"$T/h2" \
        && cmp -s "$T/h1" "$T/h2" && ok || bad "installed example hash_file: $(cat "$T/h1")"
    for aead in gcm xchacha; do
        "$T/ex/example_seal_file" $aead seal "$T/exkey" "$T/exmsg" "$T/exs" \
            && "$T/ex/example_seal_file" $aead open "$T/exkey" "$T/exs" "$T/exo" && cmp -s "$T/exo" "$T/exmsg" \
            && ok || bad "installed example seal_file $aead: no round trip"
        rm -f "$T/exs" "$T/exo"
    done
    [ "$(printf 123456789 | "$T/ex/example_crc_stream")" = e3069283 ] && ok || bad "installed example crc_stream"
    readelf -d "$T/ex/example_hash_file" 2>/dev/null | grep -q "NEEDED.*libincore\.so\.$major" \
        && ok || bad "installed examples do not link libincore.so.$major"
else
    bad "installed examples did not build: $(cat "$T/log" 2>/dev/null)"
fi

# add_subdirectory(<this source tree>): the libraries only, no tests, no
# vector download, no command.
if cmake_consumer "$T/sub" -DINCORE_SOURCE="$src"; then
    ok
    run_consumer "add_subdirectory consumer (shared)" "$T/sub/consumer_shared"
    run_consumer "add_subdirectory consumer (static)" "$T/sub/consumer_static"
    [ ! -e "$T/sub/incore/tests" ] && [ ! -e "$T/sub/incore/incore" ] && ! grep -q "Fetching" "$T/log" \
        && ok || bad "add_subdirectory built tests or the command"
else
    bad "add_subdirectory consumer did not build: $(cat "$T/log")"
fi

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
# incore.pc finds its prefix from where it lies.
if command -v pkg-config >/dev/null 2>&1; then
    inc=$(PKG_CONFIG_PATH="$T/moved/$libdir/pkgconfig" pkg-config --variable=includedir incore)
    [ -f "$inc/incore/incore.h" ] && ok || bad "moved incore.pc: includedir $inc"
fi
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
