# 32-bit x86 (i686) with Debian's i686-linux-gnu-gcc (package gcc-i686-linux-gnu,
# with libc6-dev-i386-cross; not gcc-multilib, which Debian declares in conflict
# with every other gcc-*-linux-gnu cross compiler the legs need):
# a 32-bit size_t, no unsigned __int128, eight general registers (EBX the
# PIC register), the i386 System V ABI.  The binaries run natively on an
# x86-64 host, so there is no emulator; CMake still treats the build as a
# cross build (CMAKE_SYSTEM_NAME is set), which leaves out what only makes
# sense for the host's own ABI: the GMP comparison of test_bignum (the
# host's libgmp is 64-bit), the valgrind and MemorySanitizer constant-time
# runs and the libFuzzer runs (all three run on the native leg), the
# install/api_std/readme checks of the host toolchain.  -march=i686: the
# baseline Debian's i386 port targets (CMOV, no SSE); every SIMD or PadLock
# backend asks for its instruction set itself (src/core/target.h) and runs
# only where CPUID reports it.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER i686-linux-gnu-gcc)
set(CMAKE_C_FLAGS_INIT "-march=i686")
set(CMAKE_FIND_ROOT_PATH /usr/i686-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
