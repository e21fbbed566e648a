/*
 * test_alloc.c - ic_alloc / ic_free, the heap home of key and context
 * objects: every block is aligned to IC_OBJECT_ALIGN and zeroed over its
 * whole rounded-up size; size 0 and sizes that would wrap when rounded give
 * NULL; ic_free takes NULL.  That ic_free wipes before it frees cannot be
 * observed from here (the block is gone); what is checked is that the wipe
 * stays inside the block, which the sanitizer leg would report otherwise.
 */
#include <stdint.h>
#include <string.h>
#include "testlib.h"

_Static_assert(IC_OBJECT_ALIGN == 64, "IC_OBJECT_ALIGN is the alignment of the context fields");
_Static_assert((IC_OBJECT_ALIGN & (IC_OBJECT_ALIGN - 1)) == 0, "IC_OBJECT_ALIGN is a power of two");

static size_t round_up(size_t n)
{
    return (n + IC_OBJECT_ALIGN - 1) / IC_OBJECT_ALIGN * IC_OBJECT_ALIGN;
}

/* Aligned, zeroed up to the rounded size, writable over size, freed. */
static void test_sizes(void)
{
    static const size_t sizes[] = { 1, 15, 63, 64, 65, 127, 128, 1000, 2240, 10240, 1u << 20 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        uint8_t *p = ic_alloc(n);
        if (!CHECK(p != NULL, "ic_alloc(%zu)", n))
            continue;
        CHECK((uintptr_t)p % IC_OBJECT_ALIGN == 0, "ic_alloc(%zu) is %d-byte aligned", n, IC_OBJECT_ALIGN);
        CHECK(tl_all_byte(p, round_up(n), 0), "ic_alloc(%zu) is zeroed (%zu bytes)", n, round_up(n));
        memset(p, 0xa5, n);
        ic_free(p, n);
    }
}

/* Fresh blocks are zeroed even where the heap handed back a block that
 * held data before. */
static void test_reuse(void)
{
    for (int round = 0; round < 64; round++) {
        uint8_t *p = ic_alloc(192);
        if (!CHECK(p != NULL, "ic_alloc(192), round %d", round))
            return;
        if (!CHECK(tl_all_byte(p, 192, 0), "round %d: zeroed", round))
            break;
        memset(p, 0xff, 192);
        ic_free(p, 192);
    }
}

static void test_refused(void)
{
    CHECK(ic_alloc(0) == NULL, "ic_alloc(0) is NULL");
    CHECK(ic_alloc(SIZE_MAX) == NULL, "ic_alloc(SIZE_MAX) is NULL");
    CHECK(ic_alloc(SIZE_MAX - (IC_OBJECT_ALIGN - 2)) == NULL, "a size that wraps when rounded up is NULL");
    ic_free(NULL, 0);
    ic_free(NULL, 4096);
    CHECK(1, "ic_free(NULL, ...) returns");
}

int main(void)
{
    test_sizes();
    test_reuse();
    test_refused();
    return tl_finish();
}
