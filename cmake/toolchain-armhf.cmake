# Cross build for 32-bit ARM (armhf) with Debian's arm-linux-gnueabihf-gcc, whose
# default target is Debian's armhf baseline (ARMv7-A, Thumb-2, VFPv3-D16, hard-float
# ABI, no NEON): the library is built for that, and only the backend files that use
# NEON ask for it (IC_TARGET_BEGIN(IC_TARGET_ARM_NEON)), selected at run time from HWCAP.
# ctest runs every test under QEMU user mode (package qemu-user).  IC_QEMU_CPU picks
# the emulated CPU (default cortex-a7: NEON without the ARMv8 crypto extensions;
# max: AArch32 with them), so one build can be tested with features on and off.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabihf)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(IC_QEMU_CPU "cortex-a7" CACHE STRING "QEMU -cpu value for running the tests")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm;-L;/usr/arm-linux-gnueabihf;-cpu;${IC_QEMU_CPU})
