/*
 * test_arena.c - the bump allocator: alignment, zeroing, growth across
 * chunks, reset, strndup, grow, and refusal of impossible sizes.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "ir/arena.h"

static int aligned16(const void *p)
{
	return ((uintptr_t)p & 15) == 0;
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Small blocks of awkward sizes are aligned, zeroed and disjoint. */
static void test_small(void)
{
	arena a;
	arena_init(&a);
	size_t sizes[] = {1, 7, 15, 16, 17, 31, 33, 100, 0, 3};
	unsigned char *blocks[10];
	for (int i = 0; i < 10; i++) {
		blocks[i] = arena_alloc(&a, sizes[i]);
		CHECK(blocks[i] != NULL);
		CHECK(aligned16(blocks[i]));
		CHECK(all_zero(blocks[i], sizes[i]));
		memset(blocks[i], 0xa0 + i, sizes[i]);
	}
	/* Writing every block to its full size must not have touched the
	 * others. */
	for (int i = 0; i < 10; i++)
		for (size_t k = 0; k < sizes[i]; k++)
			CHECK(blocks[i][k] == 0xa0 + i);
	/* A zero-size request still gives a distinct, usable pointer. */
	CHECK(blocks[8] != blocks[7] && blocks[8] != blocks[9]);
	size_t requested = 0;
	for (int i = 0; i < 10; i++)
		requested += sizes[i];
	CHECK(a.total >= requested);
	arena_free(&a);
	CHECK(a.head == NULL && a.used == 0 && a.total == 0);
}

/* Many blocks force new chunks; every earlier block keeps its contents.
 * A block larger than the minimum chunk size is served whole. */
static void test_growth(void)
{
	arena a;
	arena_init(&a);
	enum { N = 5000, SZ = 40 };
	static unsigned char *blocks[N];
	int bad = 0;
	for (int i = 0; i < N; i++) {
		blocks[i] = arena_alloc(&a, SZ);
		if (!blocks[i] || !aligned16(blocks[i]) ||
		    !all_zero(blocks[i], SZ)) {
			bad++;
			continue;
		}
		memset(blocks[i], i & 0xff, SZ);
	}
	CHECK(bad == 0);
	size_t big = 1000 * 1000;
	unsigned char *p = arena_alloc(&a, big);
	CHECK(p != NULL);
	CHECK(aligned16(p));
	CHECK(p && all_zero(p, big));
	if (p)
		memset(p, 0x5a, big);
	unsigned char *after = arena_alloc(&a, 24);
	CHECK(after != NULL && aligned16(after) && all_zero(after, 24));
	for (int i = 0; i < N; i++)
		for (int k = 0; k < SZ; k++)
			bad += blocks[i] && blocks[i][k] != (i & 0xff);
	CHECK(bad == 0);
	CHECK(p && p[0] == 0x5a && p[big - 1] == 0x5a);
	CHECK(a.total >= (size_t)N * SZ + big + 24);
	arena_free(&a);
}

/* Reset forgets the blocks but keeps a chunk; memory handed out after a
 * reset is zeroed again even though it was written before. */
static void test_reset(void)
{
	arena a;
	arena_init(&a);
	arena_reset(&a); /* resetting an empty arena is allowed */
	CHECK(a.head == NULL);
	for (int round = 0; round < 3; round++) {
		int bad = 0;
		for (int i = 0; i < 2000; i++) {
			unsigned char *p = arena_alloc(&a, 64);
			if (!p || !all_zero(p, 64)) {
				bad++;
				continue;
			}
			memset(p, 0xff, 64);
		}
		CHECK(bad == 0);
		arena_reset(&a);
		CHECK(a.head != NULL);
		CHECK(a.used == 0 && a.total == 0);
	}
	unsigned char *p = arena_alloc(&a, 128);
	CHECK(p != NULL && all_zero(p, 128));
	arena_free(&a);
	/* An arena can be used again after arena_free. */
	p = arena_alloc(&a, 8);
	CHECK(p != NULL && all_zero(p, 8));
	arena_free(&a);
}

static void test_strndup_and_grow(void)
{
	arena a;
	arena_init(&a);
	char *s = arena_strndup(&a, "hello world", 5);
	CHECK_STREQ(s, "hello");
	char *e = arena_strndup(&a, "", 0);
	CHECK_STREQ(e, "");
	/* Embedded bytes are copied as they are. */
	char *z = arena_strndup(&a, "a\0b", 3);
	CHECK(z && z[0] == 'a' && z[1] == '\0' && z[2] == 'b' && z[3] == '\0');

	int *arr = arena_grow(&a, NULL, 0, 4, sizeof *arr);
	CHECK(arr != NULL);
	for (int i = 0; arr && i < 4; i++)
		arr[i] = 10 * i;
	int *arr2 = arena_grow(&a, arr, 4, 100, sizeof *arr);
	CHECK(arr2 != NULL && arr2 != arr);
	int ok = arr2 != NULL;
	for (int i = 0; arr2 && i < 4; i++)
		ok = ok && arr2[i] == 10 * i;
	for (int i = 4; arr2 && i < 100; i++)
		ok = ok && arr2[i] == 0;
	CHECK(ok);
	/* Not growing returns the same array. */
	CHECK(arena_grow(&a, arr2, 100, 50, sizeof *arr) == arr2);
	CHECK(arena_grow(&a, arr2, 100, 100, sizeof *arr) == arr2);
	/* newn * size overflowing size_t is refused, not wrapped. */
	CHECK(arena_grow(&a, arr2, 100, SIZE_MAX / 2, 4) == NULL);
	arena_free(&a);
}

/* A request too large to round up or to add a chunk header to must fail
 * rather than return a small block. */
static void test_huge(void)
{
	arena a;
	arena_init(&a);
	CHECK(arena_alloc(&a, SIZE_MAX) == NULL);
	CHECK(arena_alloc(&a, SIZE_MAX - 8) == NULL);
	CHECK(arena_alloc(&a, SIZE_MAX - 100) == NULL);
	CHECK(arena_grow(&a, NULL, 0, SIZE_MAX / 8 - 1, 8) == NULL);
	/* The arena still works afterwards. */
	void *p = arena_alloc(&a, 32);
	CHECK(p != NULL && aligned16(p));
	arena_free(&a);
}

int main(void)
{
	test_small();
	test_growth();
	test_reset();
	test_strndup_and_grow();
	test_huge();
	return check_summary("test_arena");
}
