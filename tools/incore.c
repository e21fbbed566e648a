/*
 * incore.c - the `incore` command: what the library found on this machine,
 * its self-test, and coreutils-compatible checksum tools.
 *
 *   incore info                    CPU, features, implementations
 *   incore selftest [-v]           known answers for every available implementation
 *   incore speed [ALG...] [--vs PEERS] [--impl all] ...   throughput, beside the peers
 *   incore sha256sum [-c] FILE...  (and sha1sum, sha224sum, sha384sum, sha512sum,
 *                                   crc32, crc32c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "incore/incore.h"
#include "tools.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: incore COMMAND [ARGS]\n"
            "\n"
            "commands:\n"
            "  info                 CPU model, detected and enabled features, every\n"
            "                       implementation of every primitive (available, selected)\n"
            "  selftest [-v]        known-answer tests of every implementation this CPU can\n"
            "                       run; exit status 0 only if all pass\n"
            "  speed [ALG...] [--quick] [--impl all] [--vs openssl,libsodium,zlib,isal]\n"
            "                       MiB/s and cycles/byte per message size (speed --help)\n"
            "  sha1sum, sha224sum, sha256sum, sha384sum, sha512sum, crc32, crc32c [FILE...]\n"
            "                       print or check (-c) checksums like coreutils' sha256sum\n"
            "  version              print the library version\n"
            "  help                 this text\n"
            "\n"
            "environment:\n"
            "  INCORE_CPU=none | -feat,-feat | feat,feat   mask CPU features (see `incore info`)\n"
            "  INCORE_IMPL=prim=impl[,prim=impl]            force implementations\n");
}

static void print_features(const char *label, uint64_t f)
{
    printf("%-10s", label);
    int any = 0;
    for (unsigned b = 0; ic_cpu_feature_name(b); b++)
        if (f >> b & 1) {
            printf(" %s", ic_cpu_feature_name(b));
            any = 1;
        }
    printf("%s\n", any ? "" : " (none)");
}

static int cmd_info(void)
{
    printf("incore %s\n", ic_version());
    printf("arch       %s\n", ic_cpu_arch());
    printf("cpu        %s\n", *ic_cpu_model() ? ic_cpu_model() : "(unknown)");
    print_features("detected", ic_cpu_detected());
    print_features("enabled", ic_cpu_features());
    if (ic_env_error())
        printf("warning    %s\n", ic_env_error());
    printf("\n%-10s %-12s %-10s %s\n", "primitive", "impl", "available", "selected");
    for (size_t p = 0; ic_prim_name(p); p++) {
        const char *prim = ic_prim_name(p);
        for (size_t i = 0; i < ic_impl_count(prim); i++) {
            const char *name = ic_impl_name(prim, i);
            printf("%-10s %-12s %-10s %s\n", i == 0 ? prim : "", name,
                   ic_impl_available(prim, i) ? "yes" : "no",
                   strcmp(name, ic_impl_selected(prim)) == 0 ? "*" : "");
        }
    }
    return ic_env_error() ? 2 : 0;
}

/* Every available implementation of every primitive, each selected in turn. */
static int cmd_selftest(int argc, char **argv)
{
    int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    int failed = 0, ran = 0;
    for (size_t p = 0; ic_prim_name(p); p++) {
        const char *prim = ic_prim_name(p);
        for (size_t i = 0; i < ic_impl_count(prim); i++) {
            if (!ic_impl_available(prim, i))
                continue;
            const char *name = ic_impl_name(prim, i);
            int st = ic_impl_select(prim, name);
            if (st == IC_OK)
                st = ic_selftest(prim);
            ran++;
            if (st != IC_OK) {
                failed++;
                printf("FAIL %s/%s: %s\n", prim, name, ic_status_str(st));
            } else if (verbose) {
                printf("ok   %s/%s\n", prim, name);
            }
        }
        ic_impl_select(prim, NULL);
    }
    printf("selftest: %d implementations, %d passed, %d failed\n", ran, ran - failed, failed);
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "info") == 0)
        return cmd_info();
    if (strcmp(cmd, "selftest") == 0)
        return cmd_selftest(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("incore %s\n", ic_version());
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "speed") == 0)
        return incore_cmd_speed(argc - 1, argv + 1);
    if (incore_is_sum_cmd(cmd))
        return incore_cmd_sum(cmd, argc - 1, argv + 1);
    fprintf(stderr, "incore: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
