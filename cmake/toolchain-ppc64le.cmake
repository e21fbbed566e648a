# Cross build for ppc64le with Debian's powerpc64le-linux-gnu-gcc; ctest runs every test
# under QEMU user mode (package qemu-user).  IC_QEMU_CPU picks the emulated
# CPU (default power8), so one build can be tested with features on and off.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(CMAKE_C_COMPILER powerpc64le-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/powerpc64le-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(IC_QEMU_CPU "power8" CACHE STRING "QEMU -cpu value for running the tests")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64le;-L;/usr/powerpc64le-linux-gnu;-cpu;${IC_QEMU_CPU})
