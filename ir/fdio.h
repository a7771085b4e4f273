/*
 * fdio.h - whole reads and writes on file descriptors (pipes, files), and
 * the one way jitprove writes a file a user named.
 *
 * read(2) and write(2) may move fewer bytes than asked (a pipe's buffer is
 * full or empty, a signal arrives); fd_write_all and fd_read_all loop until
 * all of it has moved.  They return false on an error or, for reads, an end
 * of file before LEN bytes; errno then says which.  Nothing here prints or
 * exits.
 */
#ifndef JP_IR_FDIO_H
#define JP_IR_FDIO_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/err.h"

/* Writes all LEN bytes of BUF to FD, retrying after EINTR. */
bool fd_write_all(int fd, const void *buf, size_t len);

/* Reads exactly LEN bytes from FD into BUF, retrying after EINTR. */
bool fd_read_all(int fd, void *buf, size_t len);

/* Writes LEN bytes of BUF as the file PATH: every report, reduced trace,
 * benchmark result and cache entry goes out through here, so that a path
 * means the same to every command.  What happens depends on what PATH is:
 *
 *   "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N
 *       the descriptor already open in this process (standard output for
 *       "-"), written at its current offset: never reopened, truncated or
 *       replaced (stdio's buffer of stdout or stderr is flushed first);
 *   missing, a regular file, or a symbolic link to a regular file
 *       atomically: a temporary file beside the target (for a link, beside
 *       the file it points to, which is replaced; the link stays a link),
 *       synced to disk, then renamed over the target.  A replaced file
 *       keeps its permission bits.  A reader sees the old content or the
 *       new, never part of either;
 *   a dangling symbolic link
 *       the file it names is created and written;
 *   anything else (a device such as /dev/null or /dev/full, a FIFO, a
 *   socket, a link to one)
 *       opened and written in place; nothing is created or renamed;
 *   a directory
 *       an error.
 *
 * Errors: JP_EIO, "cannot write 'PATH': REASON" (is a directory, no space
 * left on device, ...).  On an error nothing at PATH has been replaced
 * and no temporary file is left behind (written in place, a device or
 * FIFO may have received part of the bytes). */
jp_status fd_write_path(const char *path, const void *buf, size_t len,
			jp_err *err);

#endif
