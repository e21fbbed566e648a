# Thin wrapper over CMake + Ninja.  The two commands of the README:
#   make run     build, then `incore info`, `incore selftest`, `incore speed --quick`
#   make test    install what the suite needs, build, run the native suite and
#                the three cross legs under QEMU (aarch64, ppc64le, ppc64 BE)
BUILD   ?= build
JOBS    ?= 2
CMAKE   ?= cmake
CROSS   ?= aarch64 ppc64le ppc64

.PHONY: all build run test deps test-native test-cross clean $(addprefix test-cross-,$(CROSS))

all: build

$(BUILD)/build.ninja:
	$(CMAKE) -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: $(BUILD)/build.ninja
	$(CMAKE) --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/incore info
	./$(BUILD)/incore selftest
	./$(BUILD)/incore speed --quick

bench-doc: build ; sh scripts/bench-doc.sh $(BUILD)

deps:
	sh scripts/install-deps.sh

test: deps test-native test-cross

# ctest prints the per-test results; the list of implementations the suite
# exercised follows, so a missing backend shows.
test-native: build
	rm -f $(BUILD)/exercised.txt
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	@sh scripts/exercised.sh $(BUILD) native

test-cross: $(addprefix test-cross-,$(CROSS))

$(addprefix test-cross-,$(CROSS)): test-cross-%:
	$(CMAKE) -S . -B $(BUILD)-$* -G Ninja -DCMAKE_BUILD_TYPE=Release \
	    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-$*.cmake
	$(CMAKE) --build $(BUILD)-$* -j $(JOBS)
	rm -f $(BUILD)-$*/exercised.txt
	ctest --test-dir $(BUILD)-$* --output-on-failure -j $(JOBS)
	@sh scripts/exercised.sh $(BUILD)-$* $*

clean:
	rm -rf $(BUILD) $(addprefix $(BUILD)-,$(CROSS))
