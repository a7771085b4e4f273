# Merge overlapping booking intervals (sorted tuples) and measure covered time.


def make_bookings(n, seed):
    bookings = []
    s = seed
    for i in range(n):
        s = (s * 214013 + 2531011) & 0x7FFFFFFF
        start = (s >> 8) % 2000000
        length = 1 + (s % 97)
        bookings.append((start, start + length))
    return bookings


def merge(intervals):
    ordered = sorted(intervals)
    merged = []
    cur_start, cur_end = ordered[0]
    for start, end in ordered:
        if start <= cur_end:
            if end > cur_end:
                cur_end = end
        else:
            merged.append((cur_start, cur_end))
            cur_start, cur_end = start, end
    merged.append((cur_start, cur_end))
    return merged


def covered(merged):
    total = 0
    for a, b in merged:
        total += b - a
    return total


def largest_gap(merged):
    best = 0
    prev_end = merged[0][1]
    for a, b in merged[1:]:
        gap = a - prev_end
        if gap > best:
            best = gap
        prev_end = b
    return best


if __name__ == "__main__":
    cov_sum = 0
    gap_sum = 0
    pieces = 0
    for day in range(12):
        merged = merge(make_bookings(20000, day * 7919 + 1))
        pieces += len(merged)
        cov_sum += covered(merged)
        gap_sum += largest_gap(merged)
    print("pieces", pieces, "covered", cov_sum, "gaps", gap_sum)
