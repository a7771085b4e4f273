# Checks Goldbach's conjecture up to a bound with a bytearray sieve, counting prime-pair partitions and tracking the smallest first prime needed.


def sieve(limit):
    flags = bytearray([1]) * (limit + 1)
    flags[0] = 0
    flags[1] = 0
    i = 2
    while i * i <= limit:
        if flags[i]:
            j = i * i
            while j <= limit:
                flags[j] = 0
                j += i
        i += 1
    return flags


def primes_from(flags):
    out = []
    for n in range(2, len(flags)):
        if flags[n]:
            out.append(n)
    return out


def smallest_split(n, flags, primes):
    for p in primes:
        if p > n // 2:
            break
        if flags[n - p]:
            return p
    return -1


def count_partitions(n, flags, primes):
    count = 0
    for p in primes:
        if p > n // 2:
            break
        if flags[n - p]:
            count += 1
    return count


def main():
    limit = 60000
    flags = sieve(limit)
    primes = primes_from(flags)
    worst_p = 0
    worst_n = 0
    failures = 0
    acc = 0
    n = 4
    while n <= limit:
        p = smallest_split(n, flags, primes)
        if p < 0:
            failures += 1
        elif p > worst_p:
            worst_p = p
            worst_n = n
        acc = (acc * 131 + p) % 1000003
        n += 2
    partition_sum = 0
    max_parts = 0
    max_at = 0
    n = 4
    while n <= 8000:
        c = count_partitions(n, flags, primes)
        partition_sum += c
        if c > max_parts:
            max_parts = c
            max_at = n
        n += 2
    twin = 0
    for k in range(1, len(primes)):
        if primes[k] - primes[k - 1] == 2:
            twin += 1
    print("primes", len(primes), "failures", failures, "twins", twin)
    print("worst", worst_n, worst_p, "max partitions", max_at, max_parts)
    print("checksum", (acc + partition_sum * 7) % 1000003)


main()
