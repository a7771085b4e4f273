/*
 * fdio.c - whole reads and writes on file descriptors, and fd_write_path
 * (ir/fdio.h).
 */
#define _DEFAULT_SOURCE /* realpath with a NULL buffer, fchmod */

#include "ir/fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* ---- fd_write_path ---------------------------------------------------- */

static jp_status write_error(jp_err *err, const char *path, int e)
{
	return jp_fail(err, JP_EIO, "cannot write '%s': %s", path,
		       e == EISDIR ? "it is a directory" : strerror(e));
}

/* The descriptor PATH names without opening anything ("-", /dev/stdout,
 * /dev/fd/N, ...), or -1. */
static int named_fd(const char *path)
{
	static const char *const prefixes[] = {"/dev/fd/", "/proc/self/fd/"};
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	if (!strcmp(path, "/dev/stdin"))
		return STDIN_FILENO;
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		size_t n = strlen(prefixes[i]);
		if (strncmp(path, prefixes[i], n) || !path[n])
			continue;
		long fd = 0;
		for (const char *p = path + n; *p; p++) {
			if (*p < '0' || *p > '9' || fd > 1000000)
				return -1;
			fd = fd * 10 + (*p - '0');
		}
		return (int)fd;
	}
	return -1;
}

static jp_status write_to_fd(const char *path, int fd, const void *buf,
			     size_t len, jp_err *err)
{
	if (fd == STDOUT_FILENO)
		fflush(stdout);
	else if (fd == STDERR_FILENO)
		fflush(stderr);
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return write_error(err, path, errno);
	if ((fl & O_ACCMODE) == O_RDONLY)
		return write_error(err, path, EBADF);
	return fd_write_all(fd, buf, len) ? JP_OK
					  : write_error(err, path, errno);
}

/* Opens PATH (FLAGS | O_WRONLY) and writes it in place. */
static jp_status write_in_place(const char *path, int flags, const void *buf,
				size_t len, jp_err *err)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0666);
	if (fd < 0)
		return write_error(err, path, errno);
	bool ok = fd_write_all(fd, buf, len);
	int e = errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		e = errno;
	}
	return ok ? JP_OK : write_error(err, path, e);
}

/* Writes TARGET (a regular file or nothing; PATH is what the user named)
 * through a temporary file beside it and a rename.  MODE: the permission
 * bits to keep, or -1 for a new file. */
static jp_status write_atomic(const char *path, const char *target, int mode,
			      const void *buf, size_t len, jp_err *err)
{
	static unsigned counter;
	size_t n = strlen(target) + 48;
	char *tmp = malloc(n);
	if (!tmp)
		return jp_fail(err, JP_ENOMEM, "out of memory writing '%s'",
			       path);
	snprintf(tmp, n, "%s.tmp-%ld-%u", target, (long)getpid(), counter++);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return write_error(err, path, e);
	}
	bool ok = (mode < 0 || fchmod(fd, (mode_t)mode) == 0) &&
		  fd_write_all(fd, buf, len) && fsync(fd) == 0;
	int e = errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (ok && rename(tmp, target) != 0) {
		ok = false;
		e = errno;
	}
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok ? JP_OK : write_error(err, path, e);
}

jp_status fd_write_path(const char *path, const void *buf, size_t len,
			jp_err *err)
{
	if (!path || !path[0])
		return jp_fail(err, JP_EIO, "cannot write '': empty file name");
	int fd = named_fd(path);
	if (fd >= 0)
		return write_to_fd(path, fd, buf, len, err);
	struct stat st, lst;
	if (lstat(path, &lst) != 0) {
		if (errno != ENOENT)
			return write_error(err, path, errno);
		return write_atomic(path, path, -1, buf, len, err);
	}
	if (stat(path, &st) != 0) {
		if (errno != ENOENT || !S_ISLNK(lst.st_mode))
			return write_error(err, path, errno);
		/* a dangling link: nothing to keep, create what it names */
		return write_in_place(path, O_CREAT | O_TRUNC, buf, len, err);
	}
	if (S_ISDIR(st.st_mode))
		return write_error(err, path, EISDIR);
	if (!S_ISREG(st.st_mode))
		return write_in_place(path, 0, buf, len, err);
	int mode = (int)(st.st_mode & 07777);
	if (!S_ISLNK(lst.st_mode))
		return write_atomic(path, path, mode, buf, len, err);
	char *target = realpath(path, NULL);
	if (!target)
		return write_error(err, path, errno);
	jp_status s = write_atomic(path, target, mode, buf, len, err);
	free(target);
	return s;
}
