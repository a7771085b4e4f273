# Convert integers to Roman numerals and back, checking the round trip.

VALUES = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
    (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
    (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]

DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def to_roman(n):
    parts = []
    for value, sym in VALUES:
        while n >= value:
            parts.append(sym)
            n -= value
    return "".join(parts)


def from_roman(s):
    total = 0
    prev = 0
    for ch in reversed(s):
        v = DIGITS[ch]
        if v < prev:
            total -= v
        else:
            total += v
            prev = v
    return total


def main():
    total_len = 0
    mismatches = 0
    longest = ""
    for rep in range(20):
        for n in range(1, 4000):
            r = to_roman(n)
            if from_roman(r) != n:
                mismatches += 1
            total_len += len(r)
            if len(r) > len(longest):
                longest = r
    print("total_len", total_len, "mismatches", mismatches, "longest", longest)


if __name__ == "__main__":
    main()
