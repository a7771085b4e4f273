/*
 * test_hash.c - SHA-256 against the FIPS 180-4 example vectors, and
 * independence from how the input is split into hash_update calls.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz/hash.h"

static void check_vector(const char *msg, const char *want)
{
	char hex[HASH_HEX_SIZE];
	hash_hex_of(msg, strlen(msg), hex);
	CHECK_STREQ(hex, want);
}

static void test_vectors(void)
{
	check_vector("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca4959"
			 "91b7852b855");
	check_vector("abc",
		     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb41"
		     "0ff61f20015ad");
	check_vector("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd4"
		     "19db06c1");
	check_vector("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		     "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac4503"
		     "7afee9d1");
}

/* One million 'a', fed in uneven pieces. */
static void test_million(void)
{
	char buf[1000];
	memset(buf, 'a', sizeof buf);
	hash_ctx c;
	hash_init(&c);
	size_t left = 1000000, step = 1;
	while (left > 0) {
		size_t n = step < left ? step : left;
		hash_update(&c, buf, n);
		left -= n;
		step = step % 997 + 1;
	}
	uint8_t d[HASH_SIZE];
	char hex[HASH_HEX_SIZE];
	hash_final(&c, d);
	hash_hex(d, hex);
	CHECK_STREQ(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d"
			 "39ccc7112cd0");
}

/* Every length around the block and padding boundaries gives the same
 * digest whether hashed at once or byte by byte, and no two lengths
 * collide. */
static void test_splits(void)
{
	unsigned char msg[200];
	for (int i = 0; i < 200; i++)
		msg[i] = (unsigned char)(i * 37 + 11);
	char prev[HASH_HEX_SIZE] = "";
	int same = 1, distinct = 1;
	for (size_t len = 0; len <= 130; len++) {
		char whole[HASH_HEX_SIZE], bytes[HASH_HEX_SIZE];
		hash_hex_of(msg, len, whole);
		hash_ctx c;
		uint8_t d[HASH_SIZE];
		hash_init(&c);
		for (size_t i = 0; i < len; i++)
			hash_update(&c, msg + i, 1);
		hash_final(&c, d);
		hash_hex(d, bytes);
		same &= strcmp(whole, bytes) == 0;
		distinct &= strcmp(whole, prev) != 0;
		memcpy(prev, whole, sizeof prev);
	}
	CHECK(same);
	CHECK(distinct);
}

int main(void)
{
	test_vectors();
	test_million();
	test_splits();
	return check_summary("test_hash");
}
