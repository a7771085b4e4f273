/*
 * check.h - the minimal unit-test harness used by tests/test_*.c.
 *
 * CHECK(cond) records a failure with its location and goes on; a test
 * program ends with `return check_summary("name");`, which prints
 * "name: N passed, N failed" and returns the exit status.
 */
#ifndef JP_TESTS_CHECK_H
#define JP_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

static inline void check_report(int ok, const char *file, int line,
				const char *what)
{
	if (ok) {
		check_passed++;
		return;
	}
	check_failed++;
	fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

#define CHECK(cond) check_report((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

#define CHECK_EQ_U64(a, b)                                                   \
	do {                                                                 \
		uint64_t check_a_ = (a), check_b_ = (b);                     \
		if (check_a_ != check_b_)                                    \
			fprintf(stderr, "  %s = 0x%" PRIx64 ", %s = 0x%" PRIx64 \
					"\n",                                \
				#a, check_a_, #b, check_b_);                 \
		CHECK(check_a_ == check_b_);                                 \
	} while (0)

#define CHECK_STREQ(a, b)                                                    \
	do {                                                                 \
		const char *check_a_ = (a), *check_b_ = (b);                 \
		int check_ok_ = check_a_ && check_b_ &&                      \
				strcmp(check_a_, check_b_) == 0;             \
		if (!check_ok_)                                              \
			fprintf(stderr, "  got:\n%s\n  expected:\n%s\n",     \
				check_a_ ? check_a_ : "(null)",              \
				check_b_ ? check_b_ : "(null)");             \
		CHECK(check_ok_);                                            \
	} while (0)

static inline int check_summary(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
