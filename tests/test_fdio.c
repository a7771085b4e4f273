/*
 * test_fdio.c - fd_write_path: what each kind of path gets (a new file, a
 * replaced regular file keeping its mode, a symlink kept as a link, a
 * dangling link, a directory, a FIFO, a device, "-", /dev/stdout and
 * /dev/fd/N written at the descriptor's offset), and no temporary file left
 * behind.  Devices are private nodes made with mknod (skipped where that is
 * not allowed), never the machine's /dev/full.
 */
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"
#include "ir/fdio.h"

static char dir[64];

static const char *at(const char *name)
{
	static char buf[4][512];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static bool holds(const char *path, const char *text)
{
	char buf[256];
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return !strcmp(buf, text);
}

static jp_status wr(const char *path, const char *text, jp_err *err)
{
	return fd_write_path(path, text, strlen(text), err);
}

/* No "*.tmp-*" file is left in the directory. */
static bool no_temporaries(void)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool ok = true;
	struct dirent *e;
	while ((e = readdir(d)))
		ok &= strstr(e->d_name, ".tmp-") == NULL;
	closedir(d);
	return ok;
}

static void test_regular(void)
{
	jp_err err;
	CHECK(wr(at("new.json"), "one\n", &err) == JP_OK);
	CHECK(holds(at("new.json"), "one\n"));
	/* replaced atomically, keeping its mode */
	chmod(at("new.json"), 0640);
	CHECK(wr(at("new.json"), "two\n", &err) == JP_OK);
	CHECK(holds(at("new.json"), "two\n"));
	struct stat st;
	CHECK(stat(at("new.json"), &st) == 0 && S_ISREG(st.st_mode) &&
	      (st.st_mode & 07777) == 0640);
	CHECK(no_temporaries());
	/* a missing directory: an error naming the path */
	CHECK(wr(at("nodir/x.json"), "x", &err) == JP_EIO);
	CHECK(strstr(err.msg, "nodir/x.json") != NULL);
	CHECK(strstr(err.msg, "No such file") != NULL);
}

static void test_links(void)
{
	jp_err err;
	struct stat st;
	/* a link to a regular file: the target is replaced, the link stays */
	put(at("target.xml"), "old");
	CHECK(symlink("target.xml", at("link.xml")) == 0);
	CHECK(wr(at("link.xml"), "new", &err) == JP_OK);
	CHECK(lstat(at("link.xml"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(holds(at("target.xml"), "new"));
	CHECK(no_temporaries());
	/* a dangling link: the file it names is created */
	CHECK(symlink("made.xml", at("dangling.xml")) == 0);
	CHECK(wr(at("dangling.xml"), "made", &err) == JP_OK);
	CHECK(lstat(at("dangling.xml"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(holds(at("made.xml"), "made"));
}

static void test_directory(void)
{
	jp_err err;
	mkdir(at("adir"), 0777);
	CHECK(wr(at("adir"), "x", &err) == JP_EIO);
	CHECK(strstr(err.msg, "is a directory") != NULL);
	struct stat st;
	CHECK(stat(at("adir"), &st) == 0 && S_ISDIR(st.st_mode));
}

static void test_fifo(void)
{
	jp_err err;
	CHECK(mkfifo(at("fifo"), 0666) == 0);
	/* a reader first, so that opening for writing does not block */
	int rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	CHECK(rd >= 0);
	CHECK(wr(at("fifo"), "through the fifo", &err) == JP_OK);
	char buf[64] = {0};
	ssize_t n = rd >= 0 ? read(rd, buf, sizeof buf - 1) : -1;
	CHECK(n == 16 && !strcmp(buf, "through the fifo"));
	if (rd >= 0)
		close(rd);
	struct stat st;
	CHECK(lstat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
	/* a link to the fifo is written through, not replaced */
	CHECK(symlink("fifo", at("fifo-link")) == 0);
	rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	CHECK(wr(at("fifo-link"), "via link", &err) == JP_OK);
	memset(buf, 0, sizeof buf);
	n = rd >= 0 ? read(rd, buf, sizeof buf - 1) : -1;
	CHECK(n == 8 && !strcmp(buf, "via link"));
	if (rd >= 0)
		close(rd);
	CHECK(lstat(at("fifo-link"), &st) == 0 && S_ISLNK(st.st_mode));
}

static void test_devices(void)
{
	jp_err err;
	struct stat st;
	CHECK(wr("/dev/null", "discarded", &err) == JP_OK);
	CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	/* a private copy of /dev/full (1,7): the write error is reported and
	 * the node stays a device */
	if (mknod(at("full"), S_IFCHR | 0666, makedev(1, 7)) != 0) {
		fprintf(stderr,
			"test_fdio: mknod not allowed (%s): the full "
			"device case is skipped\n",
			strerror(errno));
		return;
	}
	CHECK(wr(at("full"), "no room", &err) == JP_EIO);
	CHECK(strstr(err.msg, "No space left on device") != NULL);
	CHECK(lstat(at("full"), &st) == 0 && S_ISCHR(st.st_mode));
	CHECK(no_temporaries());
}

/* "-", /dev/stdout and /dev/fd/N write to the open descriptor at its
 * offset: a report to /dev/stdout of `jitprove ci ... >> log` is appended,
 * the log is not replaced. */
static void test_descriptors(void)
{
	jp_err err;
	int fd = open(at("stdout.txt"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, "head|", 5) == 5);
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	jp_status a = wr("/dev/stdout", "stdout|", &err);
	jp_status b = wr("-", "dash|", &err);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	char name[64];
	snprintf(name, sizeof name, "/dev/fd/%d", fd);
	jp_status c = wr(name, "fd|", &err);
	snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
	jp_status d = wr(name, "proc", &err);
	CHECK(a == JP_OK && b == JP_OK && c == JP_OK && d == JP_OK);
	close(fd);
	CHECK(holds(at("stdout.txt"), "head|stdout|dash|fd|proc"));
	/* a descriptor that is not open */
	CHECK(wr("/dev/fd/987", "x", &err) == JP_EIO);
	CHECK(strstr(err.msg, "/dev/fd/987") != NULL);
	/* a pipe, as bash's >(...) gives */
	int p[2];
	CHECK(pipe(p) == 0);
	snprintf(name, sizeof name, "/dev/fd/%d", p[1]);
	CHECK(wr(name, "piped", &err) == JP_OK);
	close(p[1]);
	char buf[16] = {0};
	CHECK(read(p[0], buf, sizeof buf - 1) == 5 && !strcmp(buf, "piped"));
	close(p[0]);
}

static void cleanup(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (rmdir(at(e->d_name)) != 0)
			unlink(at(e->d_name));
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/jp-fdio-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_regular();
	test_links();
	test_directory();
	test_fifo();
	test_devices();
	test_descriptors();
	cleanup();
	return check_summary("test_fdio");
}
