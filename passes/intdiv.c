/* intdiv.c - division by a constant through a multiplication (the magic
 * numbers the optimizer emits); the contract is in intdiv.h. */
#include "intdiv.h"

#include "ir/sem.h"

bool idiv_magic(int w, uint64_t k, uint64_t *mul, int *shift)
{
	if (k < 3 || k > sem_maxint(w) || (k & (k - 1)) == 0)
		return false;
	int l = 64;
	while (!((k >> (l - 1)) & 1))
		l--;
	/* ceil(2^e / k) by binary long division; the quotient is below 2^W
	 * (see the header), so every prefix of it fits in 64 bits, and the
	 * remainder stays below k < 2^63 so doubling it cannot overflow. */
	int e = w - 1 + l;
	uint64_t r = 0, q = 0;
	for (int i = e; i >= 0; i--) {
		r = (r << 1) | (i == e ? 1u : 0u);
		q <<= 1;
		if (r >= k) {
			r -= k;
			q |= 1;
		}
	}
	if (r)
		q++;
	if (q > sem_allones(w))
		return false;
	*mul = q;
	*shift = l - 1;
	return true;
}
