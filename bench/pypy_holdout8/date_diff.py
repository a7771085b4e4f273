# Calendar arithmetic: validate dates, convert to day numbers, and add/subtract days, rejecting bad dates via exceptions.

MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


class BadDate(ValueError):
    pass


def is_leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def month_length(y, m):
    if m == 2 and is_leap(y):
        return 29
    return MONTH_DAYS[m - 1]


def to_ordinal(y, m, d):
    if not 1 <= m <= 12:
        raise BadDate("month %d" % m)
    if not 1 <= d <= month_length(y, m):
        raise BadDate("day %d-%d-%d" % (y, m, d))
    yp = y - 1
    days = yp * 365 + yp // 4 - yp // 100 + yp // 400
    for k in range(1, m):
        days += month_length(y, k)
    return days + d


def from_ordinal(n):
    y = (n * 400) // 146097 + 1
    while to_ordinal(y, 1, 1) > n:
        y -= 1
    while to_ordinal(y + 1, 1, 1) <= n:
        y += 1
    n -= to_ordinal(y, 1, 1) - 1
    m = 1
    while n > month_length(y, m):
        n -= month_length(y, m)
        m += 1
    return y, m, n


def main():
    seed, bad, span = 99, 0, 0
    weekdays = [0] * 7
    for _ in range(5000000):
        seed = (seed * 69069 + 1) % 4294967296
        y, m, d = 1900 + seed % 250, (seed >> 9) % 13 + 1, (seed >> 14) % 31 + 1
        try:
            n = to_ordinal(y, m, d)
        except BadDate:
            bad += 1
            continue
        y2, m2, d2 = from_ordinal(n + (seed >> 20) % 1000 - 300)
        span += to_ordinal(y2, m2, d2) - n
        weekdays[n % 7] += 1
    print("bad", bad, "span", span, "weekdays", weekdays)


if __name__ == "__main__":
    main()
