/* tools.h - the subcommands of the `incore` command, one file each. */
#ifndef INCORE_TOOLS_H
#define INCORE_TOOLS_H

/* tools/sums.c: sha1sum ... sha512sum, crc32, crc32c (coreutils-compatible).
 * argv[0] is the command name; returns the exit status. */
int incore_is_sum_cmd(const char *cmd);
int incore_cmd_sum(const char *algo, int argc, char **argv);

#endif
