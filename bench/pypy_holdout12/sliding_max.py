# Sliding-window maximum and minimum over generated readings with a monotonic deque, checked against a brute-force scan on a prefix.
from collections import deque


def readings(n, seed):
    state = seed
    out = []
    for i in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        base = (state >> 9) % 1000
        if i % 97 == 0:
            base += 5000
        out.append(base - 500)
    return out


def window_max(values, k):
    dq = deque()
    result = []
    for i, v in enumerate(values):
        while dq and values[dq[-1]] <= v:
            dq.pop()
        dq.append(i)
        if dq[0] <= i - k:
            dq.popleft()
        if i >= k - 1:
            result.append(values[dq[0]])
    return result


def window_min(values, k):
    dq = deque()
    result = []
    for i in range(len(values)):
        v = values[i]
        while dq and values[dq[-1]] >= v:
            dq.pop()
        dq.append(i)
        if dq[0] <= i - k:
            dq.popleft()
        if i >= k - 1:
            result.append(values[dq[0]])
    return result


def brute_max(values, k):
    return [max(values[i:i + k]) for i in range(len(values) - k + 1)]


def spreads(values, k):
    hi = window_max(values, k)
    lo = window_min(values, k)
    widest = 0
    where = -1
    total = 0
    for i in range(len(hi)):
        d = hi[i] - lo[i]
        total += d
        if d > widest:
            widest = d
            where = i
    return total, widest, where


def main():
    values = readings(120000, 2024)
    for k in (3, 16, 97, 500):
        total, widest, where = spreads(values, k)
        print("k=%d spread_total=%d widest=%d at=%d" % (k, total, widest, where))
    prefix = values[:3000]
    mismatches = 0
    for k in (1, 5, 40):
        fast = window_max(prefix, k)
        slow = brute_max(prefix, k)
        for a, b in zip(fast, slow):
            if a != b:
                mismatches += 1
    peaks = sum(1 for m in window_max(values, 7) if m > 4000)
    print("mismatches=%d peaks=%d" % (mismatches, peaks))


main()
