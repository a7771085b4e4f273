/*
 * replay_main.c - runs a libFuzzer target without libFuzzer.
 *
 * Linked into every target when it is built with an ordinary compiler (gcc
 * included, JP_FUZZ=OFF), so reproducers and seed corpora replay in plain
 * test builds: `./fuzz_pipeline crash-1234 fuzz/corpus/fuzz_pipeline/`.
 * Each argument is a file (run once) or a directory (every regular file in
 * it, in name order, dot files skipped).  Arguments starting with '-' are
 * libFuzzer flags and are ignored, so the same command line works with
 * both builds.  A finding aborts the process, exactly as under libFuzzer;
 * otherwise the exit status is 0 when every file could be read, 2 when not.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ft_common.h"

/* Reads PATH whole; NULL on failure (reported). */
static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return NULL;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (len < cap)
			break;
		uint8_t *nb = realloc(buf, cap * 2);
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	bool bad = ferror(f) != 0;
	fclose(f);
	if (!buf || bad) {
		free(buf);
		fprintf(stderr, "replay: cannot read %s\n", path);
		return NULL;
	}
	*size = len;
	return buf;
}

static int run_file(const char *path, unsigned *count)
{
	size_t size = 0;
	uint8_t *data = read_all(path, &size);
	if (!data)
		return 2;
	/* A private copy of exactly SIZE bytes, as libFuzzer passes it, so
	 * ASan catches a target reading past the end. */
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy) {
		free(data);
		return 2;
	}
	memcpy(copy, data, size);
	free(data);
	LLVMFuzzerTestOneInput(copy, size);
	free(copy);
	(*count)++;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned *count)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "replay: cannot open directory %s\n", dir);
		return 2;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **nn = realloc(names, cap * sizeof *nn);
			if (!nn) {
				rc = 2;
				break;
			}
			names = nn;
		}
		names[n] = malloc(strlen(dir) + strlen(de->d_name) + 2);
		if (!names[n]) {
			rc = 2;
			break;
		}
		sprintf(names[n], "%s/%s", dir, de->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			rc = run_file(names[i], count);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	unsigned count = 0, paths = 0;
	int rc = 0;
	for (int i = 1; i < argc && rc == 0; i++) {
		if (argv[i][0] == '-')
			continue;
		paths++;
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: no such file %s\n", argv[i]);
			rc = 2;
		} else if (S_ISDIR(st.st_mode)) {
			rc = run_dir(argv[i], &count);
		} else {
			rc = run_file(argv[i], &count);
		}
	}
	if (paths == 0) {
		fprintf(stderr,
			"usage: %s FILE|DIR...  (replays inputs; built without "
			"libFuzzer)\n",
			argv[0]);
		return 2;
	}
	if (rc == 0)
		printf("%s: replayed %u input%s, no finding\n", argv[0], count,
		       count == 1 ? "" : "s");
	return rc;
}
