# Cross build for aarch64 with Debian's aarch64-linux-gnu-gcc; ctest runs every test
# under QEMU user mode (package qemu-user).  IC_QEMU_CPU picks the emulated
# CPU (default max), so one build can be tested with features on and off.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(IC_QEMU_CPU "max" CACHE STRING "QEMU -cpu value for running the tests")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu;-cpu;${IC_QEMU_CPU})
