/*
 * hash.c - SHA-256 (FIPS 180-4), see hash.h.
 *
 * Written from the standard's description: the message is padded with a
 * 1 bit, zeros and its 64-bit length to a multiple of 512 bits, and each
 * block goes through 64 rounds of the compression function.  Words are
 * big-endian.
 */
#include "hash.h"

#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the first
 * 64 primes (FIPS 180-4, 4.2.2). */
static const uint32_t round_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void store_be32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)(x >> 24);
	p[1] = (uint8_t)(x >> 16);
	p[2] = (uint8_t)(x >> 8);
	p[3] = (uint8_t)x;
}

/* The message schedule: the 16 words of the block, extended to 64. */
static void schedule(const uint8_t *block, uint32_t w[64])
{
	for (int i = 0; i < 16; i++)
		w[i] = load_be32(block + 4 * i);
	for (int i = 16; i < 64; i++) {
		uint32_t s0 =
		    rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 =
		    rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
}

static void compress(uint32_t h[8], const uint8_t *block)
{
	uint32_t w[64];
	schedule(block, w);
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
	uint32_t e = h[4], f = h[5], g = h[6], k = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = k + s1 + ch + round_k[i] + w[i];
		uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = s0 + maj;
		k = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += k;
}

void hash_init(hash_ctx *c)
{
	/* The first 32 bits of the fractional parts of the square roots of
	 * the first 8 primes (FIPS 180-4, 5.3.3). */
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
				       0xa54ff53a, 0x510e527f, 0x9b05688c,
				       0x1f83d9ab, 0x5be0cd19};
	memcpy(c->h, iv, sizeof iv);
	c->nbytes = 0;
	c->nblock = 0;
}

void hash_update(hash_ctx *c, const void *data, size_t len)
{
	const uint8_t *p = data;
	c->nbytes += len;
	while (len > 0) {
		size_t take = 64 - c->nblock;
		if (take > len)
			take = len;
		memcpy(c->block + c->nblock, p, take);
		c->nblock += (uint32_t)take;
		p += take;
		len -= take;
		if (c->nblock == 64) {
			compress(c->h, c->block);
			c->nblock = 0;
		}
	}
}

void hash_final(hash_ctx *c, uint8_t out[HASH_SIZE])
{
	uint64_t bits = c->nbytes * 8;
	uint8_t pad[72] = {0x80};
	/* Pad to 56 bytes mod 64, leaving room for the 8-byte length. */
	size_t npad = (c->nblock < 56 ? 56 : 120) - c->nblock;
	uint8_t len[8];
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	uint64_t keep = c->nbytes;
	hash_update(c, pad, npad);
	hash_update(c, len, 8);
	c->nbytes = keep;
	for (int i = 0; i < 8; i++)
		store_be32(out + 4 * i, c->h[i]);
}

void hash_hex(const uint8_t digest[HASH_SIZE], char out[HASH_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < HASH_SIZE; i++) {
		out[2 * i] = digits[digest[i] >> 4];
		out[2 * i + 1] = digits[digest[i] & 15];
	}
	out[2 * HASH_SIZE] = '\0';
}

void hash_hex_of(const void *data, size_t len, char out[HASH_HEX_SIZE])
{
	hash_ctx c;
	uint8_t d[HASH_SIZE];
	hash_init(&c);
	hash_update(&c, data, len);
	hash_final(&c, d);
	hash_hex(d, out);
}
