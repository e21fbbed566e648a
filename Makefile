# Thin wrapper over CMake + Ninja.  The two commands of the README:
#   make run     build, then `incore info`, `incore selftest`, `incore speed --quick`
#   make test    install what the suite needs, build, run the native suite, the
#                native suite again under ASan+UBSan, the cross legs under QEMU
#                (aarch64 as max, cortex-a53 and cortex-a72; armhf as
#                cortex-a7 and max; ppc64le as power8, 9 and 10; big-endian
#                ppc64 as power8 and power7), the AVX-512 backends' tests
#                under an x86 emulator where X86EMU names one (test-x86emu),
#                and the VIA PadLock backends under the instruction model
#                (test-padlock-model), and the suite as 32-bit x86 code
#                with the PadLock backends under the 32-bit model (test-i686),
#                and the Python package's tests (test-python)
#   make fuzz    build the libFuzzer targets with clang and run each
#                FUZZ_SECONDS, growing tests/fuzz/corpus/ (tests/fuzz/README.md)
BUILD   ?= build
JOBS    ?= 2
CMAKE   ?= cmake
# extra configure arguments for every build, e.g. -DIC_VECTORS_CACHE=$HOME/.cache/incore-vectors
CMAKE_ARGS ?=
CROSS   ?= aarch64 ppc64le ppc64 armhf
FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= $(BUILD)-fuzz
CROSS_LEGS ?= aarch64-max aarch64-cortex-a53 aarch64-cortex-a72 ppc64le-power8 ppc64le-power9 ppc64le-power10 ppc64-power8 ppc64-power7 armhf-cortex-a7 armhf-max

.PHONY: all build build-tests run test deps test-native test-asan test-cross test-x86emu test-padlock-model test-i686 test-python clean bench-doc bench-doc-render openssl-latest fuzz $(addprefix test-cross-,$(CROSS_LEGS))

all: build

# A first `make build`/`make run` configures with the tests off: the main
# job needs no vector package, so it works offline.  test-native turns them
# on in the same directory (only then are the vector packages fetched, once
# into the cache); a build directory that has them keeps them.
$(BUILD)/build.ninja:
	$(CMAKE) -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DINCORE_BUILD_TESTS=OFF $(CMAKE_ARGS)

build: $(BUILD)/build.ninja
	$(CMAKE) --build $(BUILD) -j $(JOBS)

build-tests:
	$(CMAKE) -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DINCORE_BUILD_TESTS=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/incore info
	./$(BUILD)/incore selftest
	./$(BUILD)/incore speed --quick

# docs/benchmarks.md (scripts/bench-doc.py): bench-doc measures this machine
# with `incore speed --vs all --json` (about 10 minutes; BENCH_SECONDS per
# figure, default 0.2), writes docs/bench/<cpu>.jsonl and regenerates the
# page and docs/plots/; bench-doc-render only regenerates them from the
# stored docs/bench/*.jsonl.
PYTHON3 ?= python3
bench-doc: build
	$(PYTHON3) scripts/bench-doc.py measure $(BUILD)

bench-doc-render:
	$(PYTHON3) scripts/bench-doc.py render

# The openssl-latest peer of `incore speed` (the newest OpenSSL release,
# beside the system's): fetched with cargo from crates.io, built into a
# module in ~/.cache/incore (about two minutes, once; then a no-op).  Not a
# part of `make test`: tests/cli_speed.sh checks its rows when it is there.
openssl-latest:
	JOBS=$(JOBS) sh scripts/build-openssl-latest.sh

deps:
	sh scripts/install-deps.sh

test: deps test-native test-asan test-cross test-x86emu test-padlock-model test-i686 test-python

# ctest prints the per-test results; the list of implementations the suite
# exercised follows, so a missing backend shows.
test-native: build-tests
	rm -f $(BUILD)/exercised.txt
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	@sh scripts/exercised.sh $(BUILD) native

# The sanitizer leg: the whole native suite built with gcc's ASan+UBSan, any
# UB report fatal, in a build directory outside the source tree (one per
# checkout), so a test that found its files through the working directory
# rather than through the build would fail here.  Tests that cannot run under
# ASan (the valgrind constant-time test) are not built there (INCORE_SANITIZE)
# and, should a block add one anyway, not run; nor are the libFuzzer runs
# (fuzz_build, fuzz_run_*: their own ASan+UBSan build, already run by
# test-native) - the corpus replays (fuzz_replay_*) do run.
ASAN_BUILD ?= $(or $(TMPDIR),/tmp)/incore-asan-$(shell printf '%s' '$(CURDIR)' | cksum | cut -d' ' -f1)
NOT_UNDER_SANITIZERS = ^(test_ct(_.*)?|ct_.*|fuzz_build|fuzz_run_.*)$$
SANITIZER_ENV = ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:strict_string_checks=1 \
                UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

test-asan:
	$(CMAKE) -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DCMAKE_C_COMPILER=gcc -DINCORE_SANITIZE=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(ASAN_BUILD) -j $(JOBS)
	rm -f $(ASAN_BUILD)/exercised.txt
	$(SANITIZER_ENV) ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) \
	    -E '$(NOT_UNDER_SANITIZERS)'
	@sh scripts/exercised.sh $(ASAN_BUILD) asan

# Each leg is ARCH-CPU: one cross build per ARCH, run under QEMU with -cpu CPU
# (reconfiguring only changes the emulator line, nothing is recompiled), so
# a leg costs only its test time (about 1.5 min for an aarch64 one on 2 cores).
# LEG_CTEST_<leg> adds ctest arguments for one leg.  QEMU's cortex-a72
# reports exactly the HWCAP of its cortex-a53 (AES, PMULL, SHA-1/256, CRC32;
# no SHA-512, no RNG: 0x8fb, HWCAP2 0) and the two legs share one build; its
# power10 selects what its power9 does (the same backends exercised: p8
# AES/GHASH/SHA/CRC, p9 montmul, darn).  Those two legs run the whole suite
# but the three longest tests, RSA private keys (SigGen subset, RSA Labs
# and Wycheproof sets), RSA public keys and the GCM CAVP files, which run
# the same code on their twin leg and took 75 of a twin leg's ~130 s of
# test time; every selection test and every differential test still runs
# on each CPU.  The RSA tests (LEG_RSA_SKIP) run once per montmul backend
# and word size: armhf-max, aarch64-cortex-a53 and ppc64-power7 leave them
# to their twin legs (cortex-a7, max, power8), which run the same
# montmul/port code; on armhf-max they took 234 s of its 447 s of test
# time.  Their GCM CAVP runs stay (other AES and GHASH backends there).
# power7 has no vector crypto: that leg shows the portable path is chosen at
# run time.  It runs the big-endian build: Debian's ppc64le compiler targets
# POWER8 (the ppc64le ABI minimum), so a ppc64le binary cannot start on a POWER7.
LEG_TWIN_SKIP = -E '^(test_rsa_priv|test_rsa|test_gcm_cavp)$$'
LEG_CTEST_aarch64-cortex-a72 = $(LEG_TWIN_SKIP)
LEG_CTEST_ppc64le-power10 = $(LEG_TWIN_SKIP)
LEG_RSA_SKIP = -E '^(test_rsa_priv|test_rsa|test_rsa_key)$$'
LEG_CTEST_armhf-max = $(LEG_RSA_SKIP)
LEG_CTEST_aarch64-cortex-a53 = $(LEG_RSA_SKIP)
LEG_CTEST_ppc64-power7 = $(LEG_RSA_SKIP)

test-cross: $(addprefix test-cross-,$(CROSS_LEGS))

$(addprefix test-cross-,$(CROSS_LEGS)): test-cross-%:
	@arch=$$(echo $* | cut -d- -f1); cpu=$$(echo $* | cut -d- -f2-); dir=$(BUILD)-$$arch; \
	set -e; echo "== cross leg $$arch, qemu -cpu $$cpu"; \
	$(CMAKE) -S . -B $$dir -G Ninja -DCMAKE_BUILD_TYPE=Release \
	    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-$$arch.cmake -DIC_QEMU_CPU=$$cpu $(CMAKE_ARGS) >/dev/null; \
	$(CMAKE) --build $$dir -j $(JOBS); \
	rm -f $$dir/exercised.txt; \
	ctest --test-dir $$dir --output-on-failure -j $(JOBS) $(LEG_CTEST_$*); \
	sh scripts/exercised.sh $$dir $*


# The AVX-512, VAES-512 and IFMA backends on a CPU without them, and the
# instruction counts of test_ct_insncount, under an x86-64 emulator with
# those extensions (scripts/x86emu-leg.sh says which tests run when).  The
# emulator is optional and not part of this repository: X86EMU (a make
# variable or the environment) names its runner, e.g.
#   make test-x86emu X86EMU=/opt/x86emu/x86emu-run
# Without one the leg lists the backends this machine leaves unexercised
# ("not exercised") and succeeds; it fails when X86EMU names no executable.
# The AES, GCM, XTS, hash and bignum differential tests there run only the
# 512-bit backends (INCORE_TEST_IMPLS; the others ran natively), and
# test_xts, test_hash_diff and test_bignum a lighter sweep
# (INCORE_TEST_EMULATED: test_xts 4 random lengths and a 64 KiB largest
# unit; test_bignum reaches the IFMA engine from 1024 bits, the dual one
# too; test_montmul checks ifma against port one product at a time).
X86EMU       ?=
X86EMU_TESTS ?= test_chacha test_chacha_stream test_poly1305 test_ct_insncount test_aes_x86 test_gcm_x86 test_xts test_hash_diff test_bignum test_montmul
X86EMU_ENV   ?= INCORE_TEST_EMULATED=1 INCORE_TEST_IMPLS=aes/vaes512,ghash/vpclmul512,sha512/avx512,crc32/vpclmul512,crc32c/vpclmul512,montmul/ifma
test-x86emu:
	@X86EMU='$(X86EMU)' X86EMU_TESTS='$(X86EMU_TESTS)' X86EMU_ENV='$(X86EMU_ENV)' \
	    FORCE_X86EMU='$(FORCE_X86EMU)' CMAKE='$(CMAKE)' CMAKE_ARGS='$(CMAKE_ARGS)' JOBS='$(JOBS)' \
	    sh scripts/x86emu-leg.sh $(BUILD)

# VIA PadLock under the instruction model of tests/padlock_model:
# the native build's programs that reach the PadLock backends, run with
# LD_PRELOAD=libincore_padlock_model.so (features from the model's CPUID
# where CPUID can be made to fault, else forced with INCORE_CPU=+name), plus
# the AES/GCM/SHA/HMAC/bignum/RSA corpus replays and an interrupted-instructions pass,
# the streamed SHA checks again on the model's Nano variant (PHE block form);
# prints the backends exercised (tests/padlock_model/run_leg.sh).  Not the
# sanitizer or valgrind programs: a preloaded object and ASan do not mix,
# and valgrind does not deliver the SIGILL.  A few minutes on 2 cores.
PADLOCK_MODEL_TESTS ?= test_padlock_detect test_aes test_aes_cavp test_gcm test_gcm_cavp \
                       test_sha test_sha_cavp test_hmac test_hmac_cavp test_hkdf test_rand test_badinput \
                       test_bignum test_montmul test_rsa
test-padlock-model: build
	sh tests/padlock_model/run_leg.sh $(BUILD) $(PADLOCK_MODEL_TESTS)

# 32-bit x86 (i686): the suite built by Debian's i686-linux-gnu-gcc
# (cmake/toolchain-i686.cmake: 32-bit size_t, no unsigned __int128, 32-bit
# bignum limbs, every x86 backend that exists in 32-bit mode) in its own
# build directory, run natively (an x86-64 kernel runs 32-bit programs), then
# the PadLock backends in 32-bit mode under the 32-bit instruction model.
# CMake takes the build as a cross build, so the valgrind and MSan
# constant-time runs and the libFuzzer runs are not part of it (the native
# leg has them; the fuzz corpus replays do run here), nor the GMP comparison
# of test_bignum (no 32-bit libgmp).  Not run here either, to keep the leg
# short (about 50% of its test time): the bignum and RSA tests (test_bignum,
# test_rsa, test_rsa_key, test_rsa_priv), whose 32-bit-limb C code is the
# one the armhf legs run (test_montmul runs here, and under the model on
# PMM), and the GCM CAVP files, whose backends' differential tests
# (test_gcm, test_gcm_x86) and KATs do run.  The model pass runs a shorter
# list than test-padlock-model (I686_PADLOCK_TESTS; PADLOCK_LEG_LIGHT=1
# leaves out its second interrupted test_gcm).  Prints its wall time.
I686_BUILD ?= $(BUILD)-i686
I686_CTEST ?= -E '^(test_bignum|test_rsa|test_rsa_key|test_rsa_priv|test_gcm_cavp)$$'
I686_PADLOCK_TESTS ?= test_padlock_detect test_aes test_gcm test_sha test_hmac test_rand test_montmul
test-i686:
	@set -e; start=$$(date +%s); echo "== i686 leg (32-bit x86)"; \
	$(CMAKE) -S . -B $(I686_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i686.cmake $(CMAKE_ARGS) >/dev/null; \
	$(CMAKE) --build $(I686_BUILD) -j $(JOBS); \
	rm -f $(I686_BUILD)/exercised.txt; \
	ctest --test-dir $(I686_BUILD) --output-on-failure -j $(JOBS) $(I686_CTEST); \
	sh scripts/exercised.sh $(I686_BUILD) i686; \
	PADLOCK_LEG_LIGHT=1 sh tests/padlock_model/run_leg.sh $(I686_BUILD) $(I686_PADLOCK_TESTS); \
	echo "i686 leg: $$(( $$(date +%s) - start )) s wall"

# The Python package (python/, docs/python.md): a fresh virtual environment
# with the pinned test requirements from PyPI (python/tests/requirements.txt),
# the wheel built by pip through scikit-build-core (the library compiled with
# its tests off, JOBS at a time) and installed, then its pytest suite.
# Prints its wall time.
PY_VENV ?= $(BUILD)-python/venv
PIP_FLAGS = -q --disable-pip-version-check
test-python:
	@set -e; start=$$(date +%s); echo "== python package"; \
	rm -rf $(PY_VENV); $(PYTHON3) -m venv $(PY_VENV); \
	$(PY_VENV)/bin/python -m pip install $(PIP_FLAGS) -r python/tests/requirements.txt; \
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) $(PY_VENV)/bin/python -m pip install $(PIP_FLAGS) ./python; \
	PYTHONDONTWRITEBYTECODE=1 $(PY_VENV)/bin/pytest -q -p no:cacheprovider python/tests; \
	echo "python leg: $$(( $$(date +%s) - start )) s wall"

# libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined) in a build
# directory of their own; each runs FUZZ_SECONDS and its new inputs are
# merged, minimized, into tests/fuzz/corpus/<target>/.
fuzz:
	JOBS=$(JOBS) FUZZ_CFLAGS="$(FUZZ_CFLAGS)" sh tests/fuzz/run.sh build $(FUZZ_BUILD)
	FUZZ_ARGS="$(FUZZ_ARGS)" sh tests/fuzz/run.sh grow $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(addprefix $(BUILD)-,$(CROSS)) $(ASAN_BUILD) $(FUZZ_BUILD) $(BUILD)-x86emu $(I686_BUILD) $(BUILD)-python
