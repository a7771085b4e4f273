/*
 * fdio.h - whole reads and writes on file descriptors (pipes, files).
 *
 * read(2) and write(2) may move fewer bytes than asked (a pipe's buffer is
 * full or empty, a signal arrives); these loop until all of it has moved.
 * They return false on an error or, for reads, an end of file before LEN
 * bytes; errno then says which.  They never print and never exit.
 */
#ifndef JP_IR_FDIO_H
#define JP_IR_FDIO_H

#include <stdbool.h>
#include <stddef.h>

/* Writes all LEN bytes of BUF to FD, retrying after EINTR. */
bool fd_write_all(int fd, const void *buf, size_t len);

/* Reads exactly LEN bytes from FD into BUF, retrying after EINTR. */
bool fd_read_all(int fd, void *buf, size_t len);

#endif
