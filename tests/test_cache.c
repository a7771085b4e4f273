/*
 * test_cache.c - the proof cache: what the key depends on (and what it
 * ignores), round trips of entries, read-only mode, and that damaged or
 * misplaced entries are misses rather than verdicts.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fuzz/cache.h"
#include "ir/parse.h"

static ir_trace *parse(const char *text, int width)
{
	ir_parse_opts po = {.width = width};
	ir_trace *t = NULL;
	jp_err err;
	if (ir_parse(text, strlen(text), &po, &t, &err))
		fprintf(stderr, "parse: %s\n", err.msg);
	return t;
}

static void key_of(const char *a, const char *b, int width, ver_mode mode,
		   bool failargs, char key[HASH_HEX_SIZE])
{
	ir_trace *o = parse(a, width), *p = parse(b, width);
	pc_params pp = {width, mode, failargs};
	key[0] = '\0';
	if (o && p)
		CHECK(pc_key(o, p, &pp, key, NULL) == JP_OK);
	ir_trace_free(o);
	ir_trace_free(p);
}

static const char *orig_a = "[i0]\ni1 = int_add(i0, 1)\nfinish(i1)\n";
static const char *orig_a_spaced = "# a comment\n[ i0 ]\n  i1 = int_add( i0 "
				   ",  1 )   # why\n\nfinish(i1)\n";
static const char *opt_a = "[i0]\ni1 = int_add(1, i0)\nfinish(i1)\n";
static const char *opt_b = "[i0]\ni1 = int_add(i0, 2)\nfinish(i1)\n";

static void test_key(void)
{
	char k1[HASH_HEX_SIZE], k2[HASH_HEX_SIZE], k3[HASH_HEX_SIZE];
	char k4[HASH_HEX_SIZE], k5[HASH_HEX_SIZE], k6[HASH_HEX_SIZE];
	char k7[HASH_HEX_SIZE];
	key_of(orig_a, opt_a, 64, VER_MODE_AUTO, false, k1);
	key_of(orig_a_spaced, opt_a, 64, VER_MODE_AUTO, false, k2);
	key_of(orig_a, opt_b, 64, VER_MODE_AUTO, false, k3);
	key_of(orig_a, opt_a, 32, VER_MODE_AUTO, false, k4);
	key_of(orig_a, opt_a, 64, VER_MODE_TRACE, false, k5);
	key_of(orig_a, opt_a, 64, VER_MODE_AUTO, true, k6);
	key_of(opt_a, orig_a, 64, VER_MODE_AUTO, false, k7);
	CHECK(strlen(k1) == 64);
	CHECK(strspn(k1, "0123456789abcdef") == 64);
	/* Comments and spacing of the files do not matter ... */
	CHECK_STREQ(k1, k2);
	/* ... every other ingredient does, including which side is which. */
	CHECK(strcmp(k1, k3) != 0);
	CHECK(strcmp(k1, k4) != 0);
	CHECK(strcmp(k1, k5) != 0);
	CHECK(strcmp(k1, k6) != 0);
	CHECK(strcmp(k1, k7) != 0);
	char v[64];
	pc_solver_version(v, sizeof v);
	CHECK(strchr(v, '.') != NULL);
}

static char *make_tmpdir(void)
{
	char tmpl[] = "/tmp/jp-test-cache-XXXXXX";
	char *d = mkdtemp(tmpl);
	return d ? strdup(d) : NULL;
}

static void rm_rf(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

/* Number of entries in DIR/xx whose name contains NEEDLE ("" = all). */
static int count_files(const char *dir, const char *needle)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char sub[1024];
		snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			n += count_files(sub, needle);
		else if (strstr(e->d_name, needle))
			n++;
	}
	closedir(d);
	return n;
}

static const char *key_a =
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
static const char *key_b =
    "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";

static void test_roundtrip(void)
{
	char *dir = make_tmpdir();
	CHECK(dir != NULL);
	if (!dir)
		return;
	char sub[600];
	snprintf(sub, sizeof sub, "%s/nested/cache", dir);
	pc_cache c;
	CHECK(pc_open(&c, sub, PC_READ_WRITE, NULL) == JP_OK);
	pc_entry e;
	CHECK(!pc_lookup(&c, key_a, &e));
	CHECK(c.stats.misses == 1);
	/* Strings with newlines and lines that look like the format's own
	 * keywords must come back byte for byte. */
	const char *cex = "counterexample: output 0\nend\nfield what 3\n"
			  "inputs:\n  i0 = 0x1\n";
	pc_entry put = {VER_REFUTED, VER_MODE_ALIGNED,
			(char *)"output 0 (same value)", (char *)cex,
			(char *)"{\"verdict\":\"refuted\"}"};
	CHECK(pc_store(&c, key_a, &put, NULL) == JP_OK);
	CHECK(pc_lookup(&c, key_a, &e));
	CHECK(e.verdict == VER_REFUTED);
	CHECK(e.mode_used == VER_MODE_ALIGNED);
	CHECK_STREQ(e.what, "output 0 (same value)");
	CHECK_STREQ(e.cex, cex);
	CHECK_STREQ(e.json, "{\"verdict\":\"refuted\"}");
	pc_entry_free(&e);
	pc_entry proved = {VER_PROVED, VER_MODE_INFERRED, NULL, NULL, NULL};
	CHECK(pc_store(&c, key_b, &proved, NULL) == JP_OK);
	CHECK(pc_lookup(&c, key_b, &e));
	CHECK(e.verdict == VER_PROVED && e.mode_used == VER_MODE_INFERRED);
	CHECK(e.what == NULL && e.cex == NULL && e.json == NULL);
	pc_entry_free(&e);
	/* Unknowns are never stored. */
	char key_c[HASH_HEX_SIZE];
	memcpy(key_c, key_a, sizeof key_c);
	key_c[0] = 'a';
	pc_entry unk = {VER_UNKNOWN, VER_MODE_AUTO, NULL, NULL, NULL};
	CHECK(pc_store(&c, key_c, &unk, NULL) == JP_OK);
	CHECK(!pc_lookup(&c, key_c, &e));
	CHECK(c.stats.writes == 2 && c.stats.hits == 2);
	/* Every write went through a temporary file that is gone now. */
	CHECK(count_files(sub, "") == 2);
	CHECK(count_files(sub, ".tmp") == 0);

	/* A damaged entry is a miss, counted as bad. */
	char path[800];
	pc_entry_path(&c, key_b, path, sizeof path);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("jitprove-proof-cache 1\nkey ", f);
		fclose(f);
	}
	uint32_t bad = c.stats.bad;
	CHECK(!pc_lookup(&c, key_b, &e));
	CHECK(c.stats.bad == bad + 1);
	/* So is a good entry under the wrong name (its key differs). */
	char wrong[800];
	pc_entry_path(&c, key_a, wrong, sizeof wrong);
	char cmd[4000];
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", wrong, path);
	CHECK(system(cmd) == 0);
	CHECK(!pc_lookup(&c, key_b, &e));
	CHECK(c.stats.bad == bad + 2);
	/* A truncated entry (no "end" line) too. */
	snprintf(cmd, sizeof cmd, "head -c 60 '%s' > '%s.x' && mv '%s.x' '%s'",
		 wrong, wrong, wrong, wrong);
	CHECK(system(cmd) == 0);
	CHECK(!pc_lookup(&c, key_a, &e));
	pc_close(&c);
	rm_rf(dir);
	free(dir);
}

static void test_read_only(void)
{
	char *dir = make_tmpdir();
	CHECK(dir != NULL);
	if (!dir)
		return;
	char missing[600];
	snprintf(missing, sizeof missing, "%s/absent", dir);
	pc_cache c;
	/* A read-only cache may be missing: every lookup misses, and it is
	 * never created. */
	CHECK(pc_open(&c, missing, PC_READ_ONLY, NULL) == JP_OK);
	pc_entry e, put = {VER_PROVED, VER_MODE_AUTO, NULL, NULL, NULL};
	CHECK(!pc_lookup(&c, key_a, &e));
	CHECK(pc_store(&c, key_a, &put, NULL) == JP_OK);
	CHECK(c.stats.writes == 0);
	struct stat st;
	CHECK(stat(missing, &st) != 0);
	pc_close(&c);
	/* Entries written by a read-write cache are read by a read-only
	 * one, which adds nothing. */
	CHECK(pc_open(&c, dir, PC_READ_WRITE, NULL) == JP_OK);
	CHECK(pc_store(&c, key_a, &put, NULL) == JP_OK);
	pc_close(&c);
	CHECK(pc_open(&c, dir, PC_READ_ONLY, NULL) == JP_OK);
	CHECK(pc_lookup(&c, key_a, &e));
	pc_entry_free(&e);
	CHECK(pc_store(&c, key_b, &put, NULL) == JP_OK);
	CHECK(count_files(dir, "") == 1);
	pc_close(&c);
	/* A file where the directory should be is an error. */
	char file[600];
	snprintf(file, sizeof file, "%s/plain", dir);
	FILE *f = fopen(file, "w");
	if (f)
		fclose(f);
	jp_err err;
	CHECK(pc_open(&c, file, PC_READ_WRITE, &err) == JP_EIO);
	pc_mode m;
	CHECK(pc_parse_mode("read-only", &m, NULL) == JP_OK &&
	      m == PC_READ_ONLY);
	CHECK(pc_parse_mode("read-write", &m, NULL) == JP_OK &&
	      m == PC_READ_WRITE);
	CHECK(pc_parse_mode("rw", &m, &err) == JP_EINPUT);
	rm_rf(dir);
	free(dir);
}

int main(void)
{
	test_key();
	test_roundtrip();
	test_read_only();
	return check_summary("test_cache");
}
