/*
 * replay.c - runs a libFuzzer target without libFuzzer: every file named
 * on the command line, and every regular file of every directory named
 * there (not recursive, in name order so runs are reproducible), is fed
 * once to LLVMFuzzerTestOneInput.  Built with the ordinary compiler and
 * linked with one target's source and the library, it is how `make test`
 * replays the committed corpus on every leg, cross legs included (the
 * corpus path arrives as an argument, so QEMU user mode needs no access
 * to the build's working directory).
 *
 * A check that fails inside the target aborts, so the test fails with the
 * name of the file being replayed printed just before.  Finding no input
 * at all is a failure too: a replay that ran nothing proves nothing.
 */
/* 64-bit inode numbers and offsets on 32-bit hosts: without this, glibc's
 * 32-bit readdir() and stat() fail with EOVERFLOW on a file system with
 * inode numbers above 2^32 (seen on the armhf leg under QEMU), and the
 * replay would find no input. */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (buf == NULL) {
            fprintf(stderr, "%s: out of memory\n", path);
            fclose(f);
            return 1;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return 1;
    }
    /* name first: if the target aborts, this is the input to look at */
    fprintf(stderr, "replay %s (%zu bytes)\n", path, n);
    /* an exact-size copy, so ASan / valgrind see reads past the input */
    uint8_t *exact = malloc(n ? n : 1);
    if (exact == NULL)
        return 1;
    if (n)
        memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    replayed++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        perror(dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int bad = 0;
    for (;;) {
        errno = 0;
        if ((e = readdir(d)) == NULL) {
            if (errno != 0) {   /* an error, not the end: say so, count it */
                perror(dir);
                bad = 1;
            }
            break;
        }
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            char **nn = realloc(names, cap * sizeof *names);
            if (nn == NULL)
                return 1;
            names = nn;
        }
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        if (names[n] == NULL)
            return 1;
        snprintf(names[n], l, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) != 0) {
            perror(names[i]);
            bad = 1;
        } else if (S_ISREG(st.st_mode)) {
            bad |= run_file(names[i]);
        }
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            bad = 1;
        } else if (S_ISDIR(st.st_mode)) {
            bad |= run_dir(argv[i]);
        } else {
            bad |= run_file(argv[i]);
        }
    }
    printf("%s: replayed %lu inputs\n", argv[0], replayed);
    if (replayed == 0) {
        printf("no input replayed: counting that as a failure\n");
        return 1;
    }
    return bad;
}
