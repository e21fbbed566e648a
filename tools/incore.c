/*
 * incore.c - the `incore` command: what the library found on this machine,
 * its self-test, and coreutils-compatible checksum tools.
 *
 *   incore info                    CPU, features, implementations
 *   incore selftest [-v]           known answers for every available implementation
 *   incore version, incore help [COMMAND]; every command also takes --help
 *   incore speed [ALG...] [--vs PEERS] [--impl all] ...   throughput, beside the peers
 *   incore rand [-hex|-base64] [--source NAME] N   random bytes (tools/rand.c)
 *   incore rngtest [--source NAME] [--bytes N|all] [--json] [FILE|-]   tests of a random stream
 *   incore sha256sum [-c] FILE...  (and sha1sum, sha224sum, sha384sum, sha512sum,
 *                                   crc32, crc32c)
 */
#include <stdarg.h>
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
            "  speed [ALG...] [--quick] [--impl all] [--vs openssl,libsodium,zlib,isal,libgcrypt]\n"
            "        [--aad N] [--misalign N] [--threads N] [--json|--csv|--markdown]\n"
            "                       MiB/s and cycles/byte per message size (speed --help)\n"
            "  rand [-hex|-base64] [--source NAME] N\n"
            "                       N random bytes from ic_random (or one entropy source)\n"
            "  rngtest [--source NAME] [--bytes N|all] [--json] [FILE|-]\n"
            "                       statistical tests of the first N bytes (default 1M) of\n"
            "                       a random stream (CRAP.C, FIPS 140-2)\n"
            "  sha1sum, sha224sum, sha256sum, sha384sum, sha512sum, crc32, crc32c\n"
            "        [-c] [--tag] [-z] [-j N] [FILE...]\n"
            "                       print or check (-c) checksums like coreutils' sha256sum;\n"
            "                       -j N digests N files at once, output in argument order\n"
            "  version              print the library version\n"
            "  help [COMMAND]       this text, or COMMAND --help\n"
            "\n"
            "Every command takes --help.  A usage error is reported in two lines on\n"
            "stderr: what is wrong, and which --help to read.\n"
            "\n"
            "Exit status: 0 on success; 1 when a check fails (a self-test, a statistical\n"
            "test, a speed output check) or the random generator or a source fails; 2 on\n"
            "a usage error (for info also a malformed INCORE_CPU or INCORE_IMPL) or when a\n"
            "file cannot be read or written.  The checksum commands exit as coreutils'\n"
            "sha256sum does: 1 on a mismatch, an unreadable file or a usage error.\n"
            "\n"
            "environment:\n"
            "  INCORE_CPU=none | -feat,-feat | feat,feat   mask CPU features (see `incore info`)\n"
            "  INCORE_CPU=+feat                             force a feature on (testing aid, e.g.\n"
            "                                               under tests/padlock_model)\n"
            "  INCORE_IMPL=prim=impl[,prim=impl]            force implementations (impl \"auto\":\n"
            "                                               the automatic choice)\n");
}

/* Usage of the commands that take no operands: `incore CMD --help` prints
 * it on stdout (exit 0); a wrong argument is a usage error (exit 2). */
static const char info_usage[] =
    "usage: incore info [--cpu FEATURES]\n"
    "\n"
    "Print the library version, the CPU architecture and model, the CPU features\n"
    "detected, those forced on by INCORE_CPU=+feat (a line \"forced\", only when\n"
    "there are any) and those enabled after INCORE_CPU, and for every primitive each\n"
    "implementation, whether this CPU can run it, and which one is selected (*);\n"
    "then every entropy source of ic_random with its credited min-entropy H (bits\n"
    "per byte), its SP 800-90B cutoffs (repetition count; adaptive proportion per\n"
    "window), the samples tested (its start-up test runs here) and its health (a\n"
    "failed source is shown with the test it failed and is not used).\n"
    "\n"
    "  --cpu FEATURES  instead, the implementation automatic selection picks for\n"
    "                  each primitive on a CPU of this architecture with these\n"
    "                  features, whatever this one has (nothing is run):\n"
    "                  FEATURES in INCORE_CPU's syntax applied to every feature,\n"
    "                  e.g. aesni,pclmul,avx,avx2 (exactly these) or -avx512f\n"
    "                  (all but AVX-512F).  The per-family table in the manual\n"
    "                  gives the lists of common CPUs.\n"
    "  --help          this text\n"
    "\n"
    "Exit status: 0; 2 when INCORE_CPU or INCORE_IMPL is malformed (it is then\n"
    "ignored as a whole, and the reason is printed), FEATURES names an unknown\n"
    "feature, or on a usage error.\n";

static const char selftest_usage[] =
    "usage: incore selftest [-v|--verbose]\n"
    "\n"
    "Run the known-answer tests of every implementation of every primitive that\n"
    "this CPU can run (after INCORE_CPU), each selected in turn.\n"
    "\n"
    "  -v, --verbose   also list each implementation that passed\n"
    "      --help      this text\n"
    "\n"
    "Exit status: 0 if all pass, 1 if one fails, 2 on a usage error.\n";

static const char version_usage[] =
    "usage: incore version\n"
    "\n"
    "Print the library version.\n"
    "\n"
    "Exit status: 0; 2 on a usage error.\n";

/* Parse the arguments of a command whose only options are --help and the
 * flags in `flags` (NULL-terminated pairs of short and long spellings, each
 * setting one int).  Returns -1 to go on, else the exit status. */
typedef struct {
    const char *short_name, *long_name;
    int *set;
} flag;

static int parse_flags(const char *cmd, const char *text, int argc, char **argv, const flag *flags)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            fputs(text, stdout);
            return 0;
        }
        const flag *f = flags;
        for (; f && f->set; f++)
            if ((f->short_name && strcmp(a, f->short_name) == 0) ||
                (f->long_name && strcmp(a, f->long_name) == 0))
                break;
        if (f && f->set) {
            *f->set = 1;
            continue;
        }
        if (a[0] == '-' && a[1])
            return incore_usage_error(cmd, "unknown option '%s'", a);
        return incore_usage_error(cmd, "unexpected argument '%s'", a);
    }
    return -1;
}

/* `incore info --cpu SPEC`: the automatic choice on a CPU with the
 * features SPEC leaves of all of them (ic_impl_auto_for), so a fleet's
 * selection table can be read on any one machine of the architecture. */
static int info_for_cpu(const char *spec)
{
    uint64_t f;
    if (ic_cpu_parse(&f, spec) != IC_OK)
        return incore_usage_error("info", "bad --cpu '%s': a comma list of feature names (see "
                                  "'incore info'), none, all, or -name to leave one out", spec);
    printf("incore %s\n", ic_version());
    printf("arch       %s\n", ic_cpu_arch());
    printf("features   %s (as given to --cpu)\n", spec);
    printf("\n%-10s %s\n", "primitive", "selected");
    for (size_t p = 0; ic_prim_name(p); p++)
        printf("%-10s %s\n", ic_prim_name(p), ic_impl_auto_for(ic_prim_name(p), f));
    return 0;
}

static int cmd_info(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--cpu") == 0) {
        if (argc < 3 || argv[2][0] == 0)
            return incore_usage_error("info", "--cpu needs a feature list");
        if (argc > 3)
            return incore_usage_error("info", "unexpected argument '%s'", argv[3]);
        return info_for_cpu(argv[2]);
    }
    int st = parse_flags("info", info_usage, argc, argv, NULL);
    if (st >= 0)
        return st;
    incore_info_write(stdout);
    return ic_env_error() ? 2 : 0;
}

/* Every available implementation of every primitive, each selected in turn. */
static int cmd_selftest(int argc, char **argv)
{
    int verbose = 0;
    const flag flags[] = {{"-v", "--verbose", &verbose}, {NULL, NULL, NULL}};
    int st0 = parse_flags("selftest", selftest_usage, argc, argv, flags);
    if (st0 >= 0)
        return st0;
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
        if (ic_impl_select(prim, NULL) != IC_OK) {   /* back to the automatic choice */
            failed++;
            printf("FAIL %s: automatic selection refused\n", prim);
        }
    }
    printf("selftest: %d implementations, %d passed, %d failed\n", ran, ran - failed, failed);
    return failed ? 1 : 0;
}

static int run_command(int argc, char **argv);

/* `incore help [COMMAND]`: this text, or what `incore COMMAND --help` says. */
static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        usage(stdout);
        return 0;
    }
    if (argc > 2)
        return incore_usage_error("help", "unexpected argument '%s'", argv[2]);
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return 0;
    }
    char *sub[] = {argv[1], (char *)"--help", NULL};
    return run_command(2, sub);
}

/* argv[0] is the command name. */
static int run_command(int argc, char **argv)
{
    const char *cmd = argv[0];
    if (strcmp(cmd, "info") == 0)
        return cmd_info(argc, argv);
    if (strcmp(cmd, "selftest") == 0)
        return cmd_selftest(argc, argv);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        int st = parse_flags("version", version_usage, argc, argv, NULL);
        if (st >= 0)
            return st;
        printf("incore %s\n", ic_version());
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
        return cmd_help(argc, argv);
    if (strcmp(cmd, "speed") == 0)
        return incore_cmd_speed(argc, argv);
    if (strcmp(cmd, "rand") == 0)
        return incore_cmd_rand(argc, argv);
    if (strcmp(cmd, "rngtest") == 0)
        return incore_cmd_rngtest(argc, argv);
    if (incore_is_sum_cmd(cmd))
        return incore_cmd_sum(cmd, argc, argv);
    return incore_usage_error(NULL, "unknown command '%s'", cmd);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return incore_usage_error(NULL, "missing COMMAND (info, selftest, speed, rand, rngtest, "
                                        "sha256sum, ..., version, help)");
    return run_command(argc - 1, argv + 1);
}
