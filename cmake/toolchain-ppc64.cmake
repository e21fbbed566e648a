# Cross build for ppc64 with Debian's powerpc64-linux-gnu-gcc; ctest runs every test
# under QEMU user mode (package qemu-user).  IC_QEMU_CPU picks the emulated
# CPU (default power8), so one build can be tested with features on and off.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64)
set(CMAKE_C_COMPILER powerpc64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/powerpc64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(IC_QEMU_CPU "power8" CACHE STRING "QEMU -cpu value for running the tests")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64;-L;/usr/powerpc64-linux-gnu;-cpu;${IC_QEMU_CPU})
