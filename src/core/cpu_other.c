/* cpu_other.c - architectures incore has no detector for: no features, so
 * every primitive runs its portable implementation. */
#include "core/internal.h"

#if !defined(__x86_64__) && !defined(_M_X64) && !defined(__i386__) && !defined(__aarch64__) && \
    !defined(__arm__) && !defined(__powerpc64__) && !defined(__powerpc__)
uint64_t ic_cpu_detect_arch(char *model, size_t modelcap)
{
    if (modelcap)
        model[0] = 0;
    return 0;
}
const char *ic_cpu_arch(void) { return "generic"; }
#endif
