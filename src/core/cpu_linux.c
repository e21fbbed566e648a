/*
 * cpu_linux.c - what the non-x86 detectors share on Linux: the auxiliary
 * vector (AT_HWCAP / AT_HWCAP2 are how the kernel tells user space which
 * optional instructions it may use; reading ID registers directly traps on
 * some kernels) and a model string from /proc/cpuinfo.
 */
#include "core/internal.h"
#include "core/cpu_linux.h"
#include <stdio.h>

#if defined(__linux__)
#include <sys/auxv.h>

unsigned long ic_hwcap(int which)
{
    return getauxval(which == 2 ? AT_HWCAP2 : AT_HWCAP);
}
#else
unsigned long ic_hwcap(int which) { (void)which; return 0; }
#endif

/* First line of /proc/cpuinfo whose key is one of keys[], value copied. */
void ic_cpuinfo_model(char *model, size_t cap, const char *const *keys)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    if (!f || cap == 0)
        goto out;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        for (const char *const *k = keys; *k; k++) {
            if (strncmp(line, *k, strlen(*k)) == 0) {
                char *v = colon + 1;
                while (*v == ' ' || *v == '\t')
                    v++;
                v[strcspn(v, "\n")] = 0;
                snprintf(model, cap, "%s", v);
                goto out;
            }
        }
    }
out:
    if (f)
        fclose(f);
}
