/* registry.h - shared between cpu.c and registry.c only. */
#ifndef INCORE_REGISTRY_H
#define INCORE_REGISTRY_H
#include "core/internal.h"

typedef struct {
    uint64_t detected;   /* what the CPU has            */
    uint64_t keep;       /* mask from INCORE_CPU / API  */
    uint64_t forced;     /* "+name" items of INCORE_CPU (included in detected) */
    char model[128];
} ic_cpu_state;

void ic_cpu_init(ic_cpu_state *st);
/* Record an INCORE_* configuration error: printed once on stderr, kept for
 * ic_env_error(). */
void ic_env_report(const char *msg);
#endif
