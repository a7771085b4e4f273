/*
 * fdio.c - whole reads and writes on file descriptors (ir/fdio.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "ir/fdio.h"

#include <errno.h>
#include <unistd.h>

bool fd_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t k = write(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		len -= (size_t)k;
	}
	return true;
}

bool fd_read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len > 0) {
		ssize_t k = read(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		len -= (size_t)k;
	}
	return true;
}
