/*
 * sums.c - the checksum commands of `incore`: sha1sum, sha224sum, sha256sum,
 * sha384sum, sha512sum, crc32 and crc32c, drop-in compatible with GNU
 * coreutils' sha256sum (9.x) in what they print and their exit status.
 *
 *   incore sha256sum [-b|-t] [--tag] [-z] [FILE...]   print checksums
 *   incore sha256sum -c [--ignore-missing] [--quiet] [--status] [--strict] [-w]
 *                       [FILE...]                     verify checksum lists
 *
 * Line format (both ways): "<hex>  <name>" (text) or "<hex> *<name>"
 * (binary; no difference on POSIX), the BSD "--tag" form "SHA256 (<name>) =
 * <hex>", and, when checking, coreutils' "<hex> <name>" single-space form
 * when it is the first format of the list.  Names containing '\\', '\n' or
 * '\r' are escaped and the line starts with a backslash, as coreutils does.
 * -z (--zero) ends each printed line with NUL instead of newline and turns
 * that escaping off, so any name survives; as in coreutils, it only applies
 * to printing: -c with -z is refused ("the --zero option is not supported
 * when verifying checksums"), a checksum list is always newline-separated.
 * crc32 / crc32c print the CRC as 8 lowercase hex digits (printf("%08x"),
 * i.e. the value's big-endian bytes), in the same formats, so -c works
 * alike.  Diagnostics go to stderr prefixed "incore <cmd>: ", so they
 * contain coreutils' own messages ("sha256sum: WARNING: 1 computed checksum
 * did NOT match") as substrings.
 *
 * Data is read with read(2) in 64 KiB chunks and fed to the streaming APIs
 * (ic_hash_* or the chained ic_crc32 / ic_crc32c), so any file size works in
 * constant memory; crc32 / crc32c read a regular file of 16 MiB or more in
 * parts on up to 8 threads (one per CPU) and join the parts' CRCs with
 * ic_crc32(c)_combine.  -j N (--jobs N) digests up to N files at once on N
 * threads when printing sums; lines and diagnostics still come in argument
 * order, each as soon as it and every file before it are done.  (-c checks
 * the files of a list one after another.)  Options may come anywhere (GNU argument permutation),
 * short ones may be grouped (-cw), long ones abbreviated (--stat), and "--"
 * ends them.
 */
#define _GNU_SOURCE   /* sched_getaffinity and CPU_COUNT (glibc); elsewhere the online count */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "incore/incore.h"
#include "tools.h"

enum { K_HASH, K_CRC32, K_CRC32C };

typedef struct {
    const char *cmd;      /* command name                         */
    const char *tag;      /* coreutils' DIGEST_TYPE_STRING / --tag */
    int kind;
    ic_hash_alg alg;      /* K_HASH only                          */
    size_t size;          /* digest bytes                         */
} sum_algo;

static const sum_algo algos[] = {
    { "sha1sum",   "SHA1",   K_HASH,   IC_HASH_SHA1,   IC_SHA1_DIGEST_SIZE },
    { "sha224sum", "SHA224", K_HASH,   IC_HASH_SHA224, IC_SHA224_DIGEST_SIZE },
    { "sha256sum", "SHA256", K_HASH,   IC_HASH_SHA256, IC_SHA256_DIGEST_SIZE },
    { "sha384sum", "SHA384", K_HASH,   IC_HASH_SHA384, IC_SHA384_DIGEST_SIZE },
    { "sha512sum", "SHA512", K_HASH,   IC_HASH_SHA512, IC_SHA512_DIGEST_SIZE },
    { "crc32",     "CRC32",  K_CRC32,  IC_HASH_SHA1,   IC_CRC32_SIZE },
    { "crc32c",    "CRC32C", K_CRC32C, IC_HASH_SHA1,   IC_CRC32_SIZE },
};
#define MAX_DIGEST IC_HASH_MAX_DIGEST_SIZE
#define CHUNK 65536
#define MAX_JOBS 256

/* Options and running state of one invocation. */
typedef struct {
    const sum_algo *a;
    int binary, text, tag, check, ignore_missing, quiet, status, strict, warn, zero;
    int jobs;             /* -j: files digested at once (printing mode)  */
    int bsd_reversed;     /* -1 unknown, 0 standard lines seen, 1 "hex name" */
} sum_opts;

/* ---- messages --------------------------------------------------------- */

/* coreutils quotes file names in diagnostics (quotef, shell-escape style)
 * when they contain anything beyond a safe set: 'a b', "it's",
 * 'x'\''$y' for a quote among $`"\, 'o'$'\n''e' for a control character. */
static void put_quoted(FILE *f, const char *s)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                        "0123456789_-./+,:@%^=") == strlen(s)) {
        fputs(s, f);
        return;
    }
    int controls = 0;
    for (const char *p = s; *p; p++)
        controls |= (unsigned char)*p < 0x20 || *p == 0x7f;
    if (strchr(s, '\'') && !strpbrk(s, "\"$`\\") && !controls) {
        fprintf(f, "\"%s\"", s);   /* "it's": no escaping needed */
        return;
    }
    /* State: 1 inside '...', 2 inside $'...'; coreutils always opens with '. */
    int state = 1;
    fputc('\'', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f) {
            static const char ctl[] = "\a\b\t\n\v\f\r", letter[] = "abtnvfr";
            const char *named = c ? strchr(ctl, c) : NULL;
            if (state == 1)
                fputs("'$'", f);
            if (named)
                fprintf(f, "\\%c", letter[named - ctl]);
            else
                fprintf(f, "\\%03o", c);
            state = 2;
            continue;
        }
        if (state == 2)
            fputs("''", f);                /* close $'..', reopen '..' */
        state = 1;
        if (c == '\'')
            fputs("'\\''", f);
        else
            fputc(c, f);
    }
    fputc('\'', f);
}

/* "incore <cmd>: [<name>: ]<message>" on stderr, after flushing stdout so
 * the two streams interleave as they happened. */
static void diag(const sum_opts *o, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void diag(const sum_opts *o, const char *name, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "incore %s: ", o->a->cmd);
    if (name) {
        put_quoted(stderr, name);
        fputs(": ", stderr);
    }
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static int usage_error(const sum_opts *o, const char *msg)
{
    diag(o, NULL, "%s", msg);
    fprintf(stderr, "Try 'incore %s --help' for more information.\n", o->a->cmd);
    return 1;
}

static void help(const sum_algo *a)
{
    printf("Usage: incore %s [OPTION]... [FILE]...\n"
           "Print or check %s checksums%s.\n"
           "\n"
           "With no FILE, or when FILE is -, read standard input.\n"
           "  -b, --binary          read in binary mode (same as text on POSIX; marks lines with '*')\n"
           "  -c, --check           read checksums from the FILEs and check them\n"
           "      --tag             create a BSD-style checksum\n"
           "  -t, --text            read in text mode (default)\n"
           "  -z, --zero            end each output line with NUL, not newline,\n"
           "                          and disable file name escaping\n"
           "  -j, --jobs=N          digest up to N files at once (threads); output\n"
           "                          stays in argument order (default 1; -c: 1)\n"
           "\n"
           "The following five options are useful only when verifying checksums:\n"
           "      --ignore-missing  don't fail or report status for missing files\n"
           "      --quiet           don't print OK for each successfully verified file\n"
           "      --status          don't output anything, status code shows success\n"
           "      --strict          exit non-zero for improperly formatted checksum lines\n"
           "  -w, --warn            warn about improperly formatted checksum lines\n"
           "\n"
           "      --help            display this help and exit\n"
           "      --version         output version information and exit\n"
           "\n"
           "The sums are computed by the incore library with the best implementation\n"
           "for this CPU (see `incore info`).  When checking, the input should be a\n"
           "former output of this program (or of coreutils' %s).  The default mode\n"
           "is to print a line with: checksum, a space, a character indicating input\n"
           "mode ('*' for binary, ' ' for text), and name for each FILE.\n"
           "\n"
           "Exit status: 0 on success, 1 if a file could not be read, a checksum did\n"
           "not match or an option was wrong.\n",
           a->cmd, a->tag,
           a->kind == K_HASH ? " (FIPS 180-4)"
           : a->kind == K_CRC32 ? " (zlib's CRC-32, printed as %08x)"
                                : " (Castagnoli CRC-32C, printed as %08x)",
           a->kind == K_HASH ? a->cmd : "sha256sum");
    if (a->kind != K_HASH)
        printf("\nA regular file of 16 MiB or more is read in parts on up to 8 threads (one\n"
               "per CPU it may run on) and the parts' CRCs are joined.\n");
}

/* ---- digests ---------------------------------------------------------- */

/* ---- CRC of one large file on several threads ------------------------
 * A CRC is the one digest that splits: the parts of a regular file are
 * read with pread(2) and checksummed on up to SPLIT_THREADS threads, then
 * joined with ic_crc32(c)_combine (O(log n) carry-less products).  The copy
 * out of the page cache is what reading a file costs (it is all `cat`
 * does), and here each core copies its own part.  Used from SPLIT_MIN
 * bytes on; pipes, terminals and small files take the sequential loop. */
#define SPLIT_MIN ((off_t)16 << 20)
#define SPLIT_THREADS 8

typedef struct {
    int fd, kind;
    off_t off, len;       /* the part */
    off_t got;            /* bytes read: < len when the file shrank */
    uint32_t crc;
    int err;              /* errno of a failed read, or 0 */
} crc_part;

static uint32_t crc_update(int kind, uint32_t crc, const uint8_t *p, size_t n)
{
    return kind == K_CRC32 ? ic_crc32(crc, p, n) : ic_crc32c(crc, p, n);
}

static void *crc_part_run(void *arg)
{
    crc_part *c = arg;
    uint8_t *buf = malloc(CHUNK);
    if (!buf) {
        c->err = ENOMEM;
        return NULL;
    }
    while (c->got < c->len) {
        size_t want = c->len - c->got < CHUNK ? (size_t)(c->len - c->got) : CHUNK;
        ssize_t n = pread(c->fd, buf, want, c->off + c->got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            c->err = errno;
        if (n <= 0)
            break;
        c->crc = crc_update(c->kind, c->crc, buf, (size_t)n);
        c->got += n;
    }
    free(buf);
    return NULL;
}

/* The CPUs this process may run on (taskset, cgroup cpusets), else the
 * online ones: threads beyond them would only take turns. */
static long usable_cpus(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    return sysconf(_SC_NPROCESSORS_ONLN);
}

/* The CRC of fd from its offset to the size fstat gives, in parts on
 * threads.  Returns 0 with *crc set and the offset moved past what was
 * read (the caller's loop then reads whatever was appended meanwhile), 0
 * with *crc = 0 and the offset unchanged when the file is not split (not
 * regular, small, one usable CPU, it shrank while read, or a part found no
 * memory for its buffer), or a positive errno. */
static int crc_split(int kind, int fd, uint32_t *crc)
{
    struct stat sb;
    off_t start = lseek(fd, 0, SEEK_CUR);
    long ncpu = usable_cpus();
    *crc = 0;
    if (start < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size - start < SPLIT_MIN ||
        ncpu < 2)
        return 0;
    int np = ncpu < SPLIT_THREADS ? (int)ncpu : SPLIT_THREADS;
    off_t total = sb.st_size - start;
    off_t each = (total / np + CHUNK - 1) / CHUNK * CHUNK;   /* whole chunks */
    crc_part part[SPLIT_THREADS];
    pthread_t tid[SPLIT_THREADS];
    int threaded[SPLIT_THREADS] = {0};
    for (int i = 0; i < np; i++) {
        off_t off = (off_t)i * each < total ? (off_t)i * each : total;
        off_t end = off + each < total ? off + each : total;
        part[i] = (crc_part){fd, kind, start + off, end - off, 0, 0, 0};
    }
    /* part 0 on this thread; a part whose thread cannot start runs here too */
    for (int i = 1; i < np; i++)
        threaded[i] = pthread_create(&tid[i], NULL, crc_part_run, &part[i]) == 0;
    crc_part_run(&part[0]);
    for (int i = 1; i < np; i++) {
        if (threaded[i])
            pthread_join(tid[i], NULL);
        else
            crc_part_run(&part[i]);
    }
    uint32_t c = part[0].crc;
    for (int i = 0; i < np; i++) {
        if (part[i].err == ENOMEM)
            return 0;                      /* no buffer for a part: the sequential loop has one */
        if (part[i].err)
            return part[i].err;
        if (part[i].got != part[i].len)
            return 0;                      /* shrank: read it again in order */
        if (i > 0)
            c = kind == K_CRC32 ? ic_crc32_combine(c, part[i].crc, (uint64_t)part[i].len)
                                : ic_crc32c_combine(c, part[i].crc, (uint64_t)part[i].len);
    }
    if (lseek(fd, start + total, SEEK_SET) < 0)
        return errno;
    *crc = c;
    return 0;
}

/* Digest everything readable from fd.  Returns 0, a positive errno, or a
 * negative incore status. */
static int digest_fd(const sum_algo *a, int fd, uint8_t out[MAX_DIGEST])
{
    uint8_t *buf = malloc(CHUNK);   /* one per call: -j runs several at once */
    ic_hash_ctx h;
    uint32_t crc = 0;
    int st = IC_OK;

    if (!buf)
        return ENOMEM;
    if (a->kind == K_HASH && (st = ic_hash_init(&h, a->alg)) != IC_OK) {
        free(buf);
        return st;
    }
    if (a->kind != K_HASH && (st = crc_split(a->kind, fd, &crc)) != 0) {
        free(buf);
        return st;
    }
    for (;;) {
        ssize_t n = read(fd, buf, CHUNK);   /* buf is a pointer: not sizeof buf */
        if (n < 0) {
            if (errno == EINTR)
                continue;
            st = errno;
            break;
        }
        if (n == 0)
            break;
        if (a->kind == K_HASH)
            st = ic_hash_update(&h, buf, (size_t)n);
        else
            crc = crc_update(a->kind, crc, buf, (size_t)n);
        if (st != IC_OK)
            break;
    }
    if (a->kind == K_HASH) {
        if (st == IC_OK)
            st = ic_hash_final(&h, out, MAX_DIGEST);
        ic_wipe(&h, sizeof h);
    } else {
        out[0] = (uint8_t)(crc >> 24);   /* big-endian: hex reads as %08x */
        out[1] = (uint8_t)(crc >> 16);
        out[2] = (uint8_t)(crc >> 8);
        out[3] = (uint8_t)crc;
    }
    free(buf);
    return st;
}

/* Digest a named file ("-" is standard input).  Same returns as digest_fd;
 * *missing is set when the file does not exist. */
static int digest_file(const sum_algo *a, const char *name, uint8_t out[MAX_DIGEST], int *missing)
{
    *missing = 0;
    if (strcmp(name, "-") == 0)
        return digest_fd(a, STDIN_FILENO, out);
    int fd = open(name, O_RDONLY);
    if (fd < 0) {
        *missing = errno == ENOENT;
        return errno;
    }
    int st = digest_fd(a, fd, out);
    close(fd);
    return st;
}

static const char *err_str(int code)
{
    return code > 0 ? strerror(code) : ic_status_str(code);
}

static void hex(char *s, const uint8_t *d, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = digits[d[i] >> 4];
        s[2 * i + 1] = digits[d[i] & 15];
    }
    s[2 * n] = 0;
}

/* ---- file names in lines ------------------------------------------------ */

static int needs_escape(const char *name)
{
    return name[strcspn(name, "\\\n\r")] != 0;
}

static void put_name(const char *name, int escape)
{
    if (!escape) {
        fputs(name, stdout);
        return;
    }
    for (; *name; name++) {
        if (*name == '\\')
            fputs("\\\\", stdout);
        else if (*name == '\n')
            fputs("\\n", stdout);
        else if (*name == '\r')
            fputs("\\r", stdout);
        else
            putchar(*name);
    }
}

/* Undo put_name's escaping in place; 0 on an invalid escape. */
static int unescape(char *s)
{
    char *w = s;
    for (; *s; s++) {
        if (*s != '\\') {
            *w++ = *s;
            continue;
        }
        s++;
        if (*s == '\\')
            *w++ = '\\';
        else if (*s == 'n')
            *w++ = '\n';
        else if (*s == 'r')
            *w++ = '\r';
        else
            return 0;
    }
    *w = 0;
    return 1;
}

/* ---- printing mode ------------------------------------------------------ */

/* The line for name, whose digest_file() gave st and d; 1 if it printed. */
static int print_sum(const sum_opts *o, const char *name, int st, const uint8_t *d)
{
    char h[2 * MAX_DIGEST + 1];
    if (st != 0) {
        diag(o, name, "%s", err_str(st));
        return 0;
    }
    hex(h, d, o->a->size);
    int esc = !o->zero && needs_escape(name);
    if (esc)
        putchar('\\');
    if (o->tag) {
        printf("%s (", o->a->tag);
        put_name(name, esc);
        printf(") = %s", h);
    } else {
        printf("%s %c", h, o->binary ? '*' : ' ');
        put_name(name, esc);
    }
    putchar(o->zero ? '\0' : '\n');
    return 1;
}

static int sum_one(const sum_opts *o, const char *name)
{
    uint8_t d[MAX_DIGEST];
    int missing;
    int st = digest_file(o->a, name, d, &missing);
    return print_sum(o, name, st, d);
}

/* ---- printing mode, -j N: workers digest, the caller prints in order ---- */

typedef struct {
    const sum_algo *a;
    char **names;
    int n;
    uint8_t (*digest)[MAX_DIGEST];
    int *status, *done;
    int next;             /* next file a worker takes */
    pthread_mutex_t mu;
    pthread_cond_t cv;    /* a file is done */
} sum_pool;

static void *sum_worker(void *arg)
{
    sum_pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        int i = p->next < p->n ? p->next++ : -1;
        pthread_mutex_unlock(&p->mu);
        if (i < 0)
            return NULL;
        int missing;
        int st = digest_file(p->a, p->names[i], p->digest[i], &missing);
        pthread_mutex_lock(&p->mu);
        p->status[i] = st;
        p->done[i] = 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

/* Every file's line in argument order, up to o->jobs digested at once.
 * Returns 1 when every file was read; -1 when no thread could be started
 * (the caller then goes one by one). */
static int sum_parallel(const sum_opts *o, char **names, int n)
{
    sum_pool p = { o->a, names, n, NULL, NULL, NULL, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
    int nt = o->jobs < n ? o->jobs : n, started = 0, ok = 1;
    pthread_t tid[MAX_JOBS];
    p.digest = calloc((size_t)n, sizeof *p.digest);
    p.status = calloc((size_t)n, sizeof *p.status);
    p.done = calloc((size_t)n, sizeof *p.done);
    if (p.digest && p.status && p.done)
        for (; started < nt; started++)
            if (pthread_create(&tid[started], NULL, sum_worker, &p) != 0)
                break;
    if (started == 0) {
        free(p.digest), free(p.status), free(p.done);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        pthread_mutex_lock(&p.mu);
        while (!p.done[i])
            pthread_cond_wait(&p.cv, &p.mu);
        pthread_mutex_unlock(&p.mu);
        ok &= print_sum(o, names[i], p.status[i], p.digest[i]);
    }
    for (int k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    free(p.digest), free(p.status), free(p.done);
    return ok;
}

/* ---- checking mode ------------------------------------------------------ */

static int is_white(char c)
{
    return c == ' ' || c == '\t';
}

static int all_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
            return 0;
    return 1;
}

/* Split one check line (NUL-terminated, no newline) into digest and name,
 * following coreutils' split_3: optional leading blanks, optional '\\'
 * (escaped name), then either "TAG (name) = hex" or "hex  name" /
 * "hex *name" / (first format only) "hex name".  0 = improperly formatted. */
static int parse_line(sum_opts *o, char *s, char **digest, char **name)
{
    size_t hexlen = 2 * o->a->size, taglen = strlen(o->a->tag);
    int escaped = 0;
    while (is_white(*s))
        s++;
    if (*s == '\\') {
        escaped = 1;
        s++;
    }
    if (strncmp(s, o->a->tag, taglen) == 0 && (s[taglen] == ' ' || s[taglen] == '(')) {
        /* BSD form: the name ends at the LAST ')' (names may hold parens). */
        char *p = s + taglen + (s[taglen] == ' ');
        if (*p == '(') {
            char *close = strrchr(p, ')');
            if (!close)
                return 0;
            *close = 0;
            char *q = close + 1;
            while (is_white(*q))
                q++;
            if (*q++ != '=')
                return 0;
            while (is_white(*q))
                q++;
            *name = p + 1;
            *digest = q;
            if (strlen(q) != hexlen || !all_hex(q, hexlen))
                return 0;
            return !escaped || unescape(*name);
        }
    }
    if (strlen(s) < hexlen + 2 || !all_hex(s, hexlen) || !is_white(s[hexlen]))
        return 0;
    *digest = s;
    s[hexlen] = 0;
    s += hexlen + 1;
    if (s[1] == 0 || (*s != ' ' && *s != '*')) {
        /* "hex name": md5sum -r style; never mixed with the standard form. */
        if (o->bsd_reversed == 0)
            return 0;
        o->bsd_reversed = 1;
    } else if (o->bsd_reversed != 1) {
        o->bsd_reversed = 0;
        s++;
    }
    *name = s;
    if (!*s)
        return 0;
    return !escaped || unescape(s);
}

static void plural(unsigned long n, const char *one, const char *many, char *buf, size_t cap)
{
    snprintf(buf, cap, "%lu %s", n, n == 1 ? one : many);
}

/* Verify one checksum list; 1 when every listed file is present and right. */
static int check_list(sum_opts *o, const char *listname)
{
    int is_stdin = strcmp(listname, "-") == 0;
    const char *shown = is_stdin ? "standard input" : listname;
    FILE *f = is_stdin ? stdin : fopen(listname, "r");
    if (!f) {
        diag(o, listname, "%s", strerror(errno));
        return 0;
    }

    unsigned long misformatted = 0, unreadable = 0, mismatched = 0, lineno = 0;
    int properly = 0, matched = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    o->bsd_reversed = -1;
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[0] == '#')
            continue;
        if (line[len - 1] == '\n')
            line[--len] = 0;
        if (len > 0 && line[len - 1] == '\r')
            line[--len] = 0;
        if (len == 0)
            continue;
        char *digest, *name;
        if (!parse_line(o, line, &digest, &name) || (is_stdin && strcmp(name, "-") == 0)) {
            misformatted++;
            if (o->warn)
                diag(o, shown, "%lu: improperly formatted %s checksum line", lineno, o->a->tag);
            continue;
        }
        properly = 1;

        uint8_t d[MAX_DIGEST];
        char h[2 * MAX_DIGEST + 1];
        int missing;
        int st = digest_file(o->a, name, d, &missing);
        int esc = strchr(name, '\n') != NULL;  /* coreutils 9: only '\n' here */
        if (st != 0 && o->ignore_missing && missing)
            continue;
        if (st != 0) {
            diag(o, name, "%s", err_str(st));
            unreadable++;
            if (!o->status) {
                if (esc)
                    putchar('\\');
                put_name(name, esc);
                printf(": FAILED open or read\n");
            }
            continue;
        }
        hex(h, d, o->a->size);
        int ok = 1;
        for (size_t i = 0; i < 2 * o->a->size; i++)   /* hex is case-blind */
            ok &= (digest[i] | 0x20) == h[i];
        if (ok)
            matched = 1;
        else
            mismatched++;
        if (!o->status && (!ok || !o->quiet)) {
            if (esc)
                putchar('\\');
            put_name(name, esc);
            printf(": %s\n", ok ? "OK" : "FAILED");
        }
    }
    int read_err = ferror(f);
    free(line);
    if (!is_stdin)
        fclose(f);
    if (read_err) {
        diag(o, shown, "read error");
        return 0;
    }
    char buf[96];
    if (!properly) {
        diag(o, shown, "no properly formatted checksum lines found");
    } else if (!o->status) {
        if (misformatted) {
            plural(misformatted, "line is", "lines are", buf, sizeof buf);
            diag(o, NULL, "WARNING: %s improperly formatted", buf);
        }
        if (unreadable) {
            plural(unreadable, "listed file", "listed files", buf, sizeof buf);
            diag(o, NULL, "WARNING: %s could not be read", buf);
        }
        if (mismatched) {
            plural(mismatched, "computed checksum", "computed checksums", buf, sizeof buf);
            diag(o, NULL, "WARNING: %s did NOT match", buf);
        }
        if (o->ignore_missing && !matched)
            diag(o, shown, "no file was verified");
    }
    return properly && !mismatched && !unreadable && (!o->strict || !misformatted) &&
           (!o->ignore_missing || matched);
}

/* ---- options -------------------------------------------------------------- */

enum { O_BINARY = 'b', O_CHECK = 'c', O_TEXT = 't', O_WARN = 'w', O_ZERO = 'z',
       O_JOBS = 'j', O_IGNORE = 256, O_QUIET, O_STATUS, O_STRICT, O_TAG, O_HELP, O_VERSION };

static const struct { const char *name; int id; } longopts[] = {
    { "binary", O_BINARY }, { "check", O_CHECK }, { "help", O_HELP },
    { "ignore-missing", O_IGNORE }, { "jobs", O_JOBS }, { "quiet", O_QUIET }, { "status", O_STATUS },
    { "strict", O_STRICT }, { "tag", O_TAG }, { "text", O_TEXT },
    { "version", O_VERSION }, { "warn", O_WARN }, { "zero", O_ZERO },
};
#define NLONG (sizeof longopts / sizeof longopts[0])

/* Resolve "--name" (exact or unique prefix, as getopt_long); -1 on error. */
static int long_option(const sum_opts *o, const char *arg)
{
    char msg[300];
    const char *eq = strchr(arg, '=');
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    int found = -1, count = 0;
    for (size_t i = 0; i < NLONG; i++) {
        if (strncmp(longopts[i].name, arg, n) != 0)
            continue;
        if (strlen(longopts[i].name) == n) {
            found = (int)i;
            count = 1;
            break;
        }
        found = (int)i;
        count++;
    }
    if (count == 0) {
        snprintf(msg, sizeof msg, "unrecognized option '--%s'", arg);
        return usage_error(o, msg), -1;
    }
    if (count > 1) {
        snprintf(msg, sizeof msg, "option '--%.*s' is ambiguous", (int)n, arg);
        return usage_error(o, msg), -1;
    }
    if (eq && longopts[found].id != O_JOBS) {
        snprintf(msg, sizeof msg, "option '--%s' doesn't allow an argument", longopts[found].name);
        return usage_error(o, msg), -1;
    }
    return longopts[found].id;
}

/* The value of -j / --jobs: 1..MAX_JOBS; 0 and a message otherwise. */
static int jobs_value(const sum_opts *o, const char *v)
{
    char *e, msg[300];
    long n = v ? strtol(v, &e, 10) : 0;
    if (!v) {
        snprintf(msg, sizeof msg, "option requires an argument -- 'j'");
        return usage_error(o, msg), 0;
    }
    if (e == v || *e || n < 1 || n > MAX_JOBS) {
        snprintf(msg, sizeof msg, "invalid number of jobs: '%s' (1..%d)", v, MAX_JOBS);
        return usage_error(o, msg), 0;
    }
    return (int)n;
}

static void set_option(sum_opts *o, int id)
{
    switch (id) {
    case O_BINARY: o->binary = 1; o->text = 0; break;
    case O_TEXT: o->text = 1; o->binary = 0; break;
    case O_CHECK: o->check = 1; break;
    case O_WARN: o->warn = 1; o->status = o->quiet = 0; break;
    case O_QUIET: o->quiet = 1; o->status = o->warn = 0; break;
    case O_STATUS: o->status = 1; o->warn = o->quiet = 0; break;
    case O_STRICT: o->strict = 1; break;
    case O_IGNORE: o->ignore_missing = 1; break;
    case O_TAG: o->tag = 1; o->binary = 1; break;
    case O_ZERO: o->zero = 1; break;
    default: break;
    }
}

int incore_is_sum_cmd(const char *cmd)
{
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++)
        if (strcmp(cmd, algos[i].cmd) == 0)
            return 1;
    return 0;
}

int incore_cmd_sum(const char *algo, int argc, char **argv)
{
    sum_opts o = { 0 };
    int explicit_mode = 0;
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++)
        if (strcmp(algo, algos[i].cmd) == 0)
            o.a = &algos[i];
    if (!o.a) {
        fprintf(stderr, "incore: unknown checksum command '%s'\n", algo);
        return 2;
    }

    /* GNU permutation: options anywhere, "--" ends them, "-" is a file. */
    char **files = calloc((size_t)argc + 1, sizeof *files);
    if (!files) {
        diag(&o, NULL, "%s", strerror(ENOMEM));
        return 1;
    }
    int nfiles = 0, only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int ids[64], nids = 0;
        if (only_files || arg[0] != '-' || arg[1] == 0) {
            files[nfiles++] = argv[i];
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_files = 1;
            continue;
        }
        if (arg[1] == '-') {
            int id = long_option(&o, arg + 2);
            if (id < 0) {
                free(files);
                return 1;
            }
            if (id == O_JOBS) {   /* --jobs=N or --jobs N */
                const char *eq = strchr(arg, '=');
                if (!(o.jobs = jobs_value(&o, eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL))) {
                    free(files);
                    return 1;
                }
                continue;
            }
            ids[nids++] = id;
        } else {
            for (const char *p = arg + 1; *p; p++) {
                if (*p == 'j') {  /* -jN, -j N, also after grouped flags (-zj4) */
                    if (!(o.jobs = jobs_value(&o, p[1] ? p + 1 : i + 1 < argc ? argv[++i] : NULL))) {
                        free(files);
                        return 1;
                    }
                    break;
                }
                if (!strchr("bctwz", *p)) {
                    char msg[64];
                    snprintf(msg, sizeof msg, "invalid option -- '%c'", *p);
                    free(files);
                    return usage_error(&o, msg);
                }
                if (nids < 64)
                    ids[nids++] = *p;
            }
        }
        for (int k = 0; k < nids; k++) {
            if (ids[k] == O_HELP) {
                help(o.a);
                free(files);
                return 0;
            }
            if (ids[k] == O_VERSION) {
                printf("incore %s (incore) %s\n", o.a->cmd, ic_version());
                free(files);
                return 0;
            }
            explicit_mode |= ids[k] == O_BINARY || ids[k] == O_TEXT;
            set_option(&o, ids[k]);
        }
    }

    /* The option combinations coreutils refuses, with its wording, in its
     * order.  --status, --warn and --quiet cancel one another, so only the
     * last of them counts, as there. */
    const char *bad = NULL;
    if (o.tag && o.text)
        bad = "--tag does not support --text mode";
    else if (o.zero && o.check)
        bad = "the --zero option is not supported when verifying checksums";
    else if (o.tag && o.check)
        bad = "the --tag option is meaningless when verifying checksums";
    else if (explicit_mode && o.check)
        bad = "the --binary and --text options are meaningless when verifying checksums";
    else if (o.ignore_missing && !o.check)
        bad = "the --ignore-missing option is meaningful only when verifying checksums";
    else if (o.status && !o.check)
        bad = "the --status option is meaningful only when verifying checksums";
    else if (o.warn && !o.check)
        bad = "the --warn option is meaningful only when verifying checksums";
    else if (o.quiet && !o.check)
        bad = "the --quiet option is meaningful only when verifying checksums";
    else if (o.strict && !o.check)
        bad = "the --strict option is meaningful only when verifying checksums";
    if (bad) {
        free(files);
        return usage_error(&o, bad);
    }

    static char dash[] = "-";
    if (nfiles == 0)
        files[nfiles++] = dash;
    int ok = -1;
    if (!o.check && o.jobs > 1 && nfiles > 1)
        ok = sum_parallel(&o, files, nfiles);
    if (ok < 0) {
        ok = 1;
        for (int i = 0; i < nfiles; i++)
            ok &= o.check ? check_list(&o, files[i]) : sum_one(&o, files[i]);
    }
    free(files);

    if (fflush(stdout) != 0 || ferror(stdout)) {
        diag(&o, NULL, "write error: %s", strerror(errno));
        return 1;
    }
    return ok ? 0 : 1;
}
