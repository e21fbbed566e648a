/* cpu_linux.h - auxv and /proc/cpuinfo helpers for the detectors. */
#ifndef INCORE_CPU_LINUX_H
#define INCORE_CPU_LINUX_H
#include <stddef.h>
unsigned long ic_hwcap(int which);   /* 1: AT_HWCAP, 2: AT_HWCAP2 */
void ic_cpuinfo_model(char *model, size_t cap, const char *const *keys);
#endif
