/*
 * info.c - the report of `incore info` (CPU, features, implementations,
 * entropy sources) written to any stream, so the Python package prints the
 * same text through the same code; and the usage error every command
 * reports.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "incore/incore.h"
#include "tools.h"

int incore_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "incore%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (cmd)
        fprintf(stderr, "\nsee 'incore %s --help'\n", cmd);
    else
        fprintf(stderr, "\nsee 'incore help'\n");
    return 2;
}

static void print_features(FILE *f, const char *label, uint64_t feats)
{
    fprintf(f, "%-10s", label);
    int any = 0;
    for (unsigned b = 0; ic_cpu_feature_name(b); b++)
        if (feats >> b & 1) {
            fprintf(f, " %s", ic_cpu_feature_name(b));
            any = 1;
        }
    fprintf(f, "%s\n", any ? "" : " (none)");
}

/* The entropy sources and their SP 800-90B health (a failed one is named
 * with the test it failed, never hidden). */
static void print_sources(FILE *f)
{
    fprintf(f, "\n%-10s %-8s %-3s %-4s %-8s %-10s %s\n", "source", "name", "H", "RCT", "APT", "samples",
           "health");
    for (size_t i = 0; ic_rand_source_name(i); i++) {
        const char *name = ic_rand_source_name(i);
        ic_rand_health h;
        int st = ic_rand_source_read(name, NULL, 0);   /* runs the start-up test (1024 samples) */
        int hst = ic_rand_source_health(name, &h);
        if (hst != IC_OK)   /* the record names the failure the read met */
            st = hst;
        char apt[16];
        snprintf(apt, sizeof apt, "%u/%u", h.apt_cutoff, h.apt_window);
        fprintf(f, "%-10s %-8s %-3u %-4u %-8s %-10llu %s%s%s\n", i == 0 ? "randsrc" : "", name, h.h,
               h.rct_cutoff, apt, (unsigned long long)h.samples,
               st == IC_OK ? "ok" : st == IC_ERR_UNAVAILABLE ? "unavailable" : "FAILED",
               h.failure ? ": " : "", h.failure ? h.failure : "");
    }
}

void incore_info_write(FILE *f)
{
    fprintf(f, "incore %s\n", ic_version());
    fprintf(f, "arch       %s\n", ic_cpu_arch());
    fprintf(f, "cpu        %s\n", *ic_cpu_model() ? ic_cpu_model() : "(unknown)");
    print_features(f, "detected", ic_cpu_detected());
    print_features(f, "enabled", ic_cpu_features());
    if (ic_cpu_forced())   /* INCORE_CPU=+name: a testing aid, say so */
        print_features(f, "forced", ic_cpu_forced());
    if (ic_env_error())
        fprintf(f, "warning    %s\n", ic_env_error());
    fprintf(f, "\n%-10s %-12s %-10s %s\n", "primitive", "impl", "available", "selected");
    for (size_t p = 0; ic_prim_name(p); p++) {
        const char *prim = ic_prim_name(p);
        for (size_t i = 0; i < ic_impl_count(prim); i++) {
            const char *name = ic_impl_name(prim, i);
            fprintf(f, "%-10s %-12s %-10s %s\n", i == 0 ? prim : "", name,
                   ic_impl_available(prim, i) ? "yes" : "no",
                   strcmp(name, ic_impl_selected(prim)) == 0 ? "*" : "");
        }
    }
    print_sources(f);
}
