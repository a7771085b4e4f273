/*
 * arena.h - bump allocator for per-trace data.
 *
 * An arena owns every block it hands out; they are all released together by
 * arena_free (or kept for reuse by arena_reset).  Nothing allocated from an
 * arena may be passed to free().  Allocation failure returns NULL; callers
 * report JP_ENOMEM.  Memory is 16-byte aligned and zeroed.
 */
#ifndef JP_IR_ARENA_H
#define JP_IR_ARENA_H

#include <stddef.h>

typedef struct arena_chunk arena_chunk;

typedef struct arena {
	arena_chunk *head; /* chunk being filled; older chunks follow */
	size_t used;	   /* bytes used in head */
	size_t total;	   /* bytes handed out, for statistics */
} arena;

void arena_init(arena *a);
void arena_free(arena *a);
/* Forgets every allocation but keeps the first chunk for reuse. */
void arena_reset(arena *a);
void *arena_alloc(arena *a, size_t size);
/* Copies LEN bytes of S and appends a NUL. */
char *arena_strndup(arena *a, const char *s, size_t len);
/* Grows an arena array: returns a copy of OLD (OLDN elements of SIZE bytes)
 * with room for NEWN elements.  OLD stays valid but is wasted. */
void *arena_grow(arena *a, void *old, size_t oldn, size_t newn, size_t size);

#endif
