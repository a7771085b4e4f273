/*
 * hash.h - SHA-256, for content-addressed files (the proof cache).
 *
 * A plain implementation of FIPS 180-4 SHA-256, written for jitprove.  It
 * is used where a key must stay stable across machines and releases and
 * collisions must be out of the question: two different trace pairs that
 * hashed alike would make the proof cache hand one pair's verdict to the
 * other.  Speed is secondary; the inputs are a few kilobytes of trace text.
 *
 * Usage: hash_init, any number of hash_update calls, hash_final.  A
 * hash_ctx needs no cleanup and may be copied.
 */
#ifndef JP_FUZZ_HASH_H
#define JP_FUZZ_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_SIZE     32		  /* bytes of a digest */
#define HASH_HEX_SIZE (2 * HASH_SIZE + 1) /* hex digits plus NUL */

typedef struct hash_ctx {
	uint32_t h[8];	   /* chaining state */
	uint64_t nbytes;   /* bytes hashed so far */
	uint8_t block[64]; /* pending partial block */
	uint32_t nblock;   /* bytes in block */
} hash_ctx;

void hash_init(hash_ctx *c);
void hash_update(hash_ctx *c, const void *data, size_t len);
/* Appends the padding and writes the digest; C must be re-initialised
 * before it is used again. */
void hash_final(hash_ctx *c, uint8_t out[HASH_SIZE]);

/* The digest as 64 lowercase hex digits. */
void hash_hex(const uint8_t digest[HASH_SIZE], char out[HASH_HEX_SIZE]);

/* One-shot: the hex digest of DATA. */
void hash_hex_of(const void *data, size_t len, char out[HASH_HEX_SIZE]);

#endif
