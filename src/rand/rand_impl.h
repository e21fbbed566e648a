/*
 * rand_impl.h - what a hardware random source provides to the driver in
 * rand.c through the "hwrand" registry table.
 *
 * next64 returns 1 and one fresh 64-bit value from the hardware, or 0 when
 * the instruction kept reporting failure through the backend's bounded
 * retries (an entropy source may run dry for a moment: Intel's DRNG guide
 * and the ISA 3.0 description of DARN both tell software to retry, and both
 * imply that "forever" is wrong).  The portable "none" entry has
 * next64 == NULL: no hardware, IC_ERR_UNAVAILABLE.
 */
#ifndef INCORE_RAND_IMPL_H
#define INCORE_RAND_IMPL_H

#include "core/internal.h"

typedef struct ic_hwrand_ops {
    int (*next64)(uint64_t *out);
} ic_hwrand_ops;

#endif
