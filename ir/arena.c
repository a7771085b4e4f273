#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_chunk {
	arena_chunk *next;
	size_t size;
	_Alignas(16) unsigned char data[];
};

enum { CHUNK_MIN = 16 * 1024 };

void arena_init(arena *a)
{
	a->head = NULL;
	a->used = 0;
	a->total = 0;
}

void arena_free(arena *a)
{
	arena_chunk *c = a->head;
	while (c) {
		arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	arena_init(a);
}

void arena_reset(arena *a)
{
	if (!a->head)
		return;
	/* Keep the oldest chunk: it is the one every trace needs. */
	arena_chunk *c = a->head;
	while (c->next) {
		arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = c;
	a->used = 0;
	a->total = 0;
	memset(c->data, 0, c->size);
}

void *arena_alloc(arena *a, size_t size)
{
	/* Refuse sizes that would wrap when rounded up or when the chunk
	 * header is added: they could otherwise come back as a tiny block. */
	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
	if (!a->head || a->head->size - a->used < size) {
		size_t want = size > CHUNK_MIN ? size : CHUNK_MIN;
		if (a->head && a->head->size * 2 > want &&
		    a->head->size < (1u << 24))
			want = a->head->size * 2;
		arena_chunk *c = calloc(1, sizeof *c + want);
		if (!c)
			return NULL;
		c->size = want;
		c->next = a->head;
		a->head = c;
		a->used = 0;
	}
	void *p = a->head->data + a->used;
	a->used += size;
	a->total += size;
	return p;
}

char *arena_strndup(arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void *arena_grow(arena *a, void *old, size_t oldn, size_t newn, size_t size)
{
	if (newn <= oldn)
		return old;
	if (size && newn > SIZE_MAX / size)
		return NULL;
	void *p = arena_alloc(a, newn * size);
	if (p && old && oldn)
		memcpy(p, old, oldn * size);
	return p;
}
