# Luhn card-number and ISBN-10/ISBN-13 checksum validators run over generated digit strings, with check-digit repair.


def luhn_ok(digits):
    total = 0
    double = False
    for ch in reversed(digits):
        d = ord(ch) - 48
        if double:
            d *= 2
            if d > 9:
                d -= 9
        total += d
        double = not double
    return total % 10 == 0


def luhn_fix(digits):
    for last in "0123456789":
        cand = digits[:-1] + last
        if luhn_ok(cand):
            return cand
    raise ValueError("unfixable " + digits)


def isbn10_ok(code):
    if len(code) != 10:
        return False
    total = 0
    for i, ch in enumerate(code):
        if ch == "X" and i == 9:
            v = 10
        elif ch.isdigit():
            v = int(ch)
        else:
            return False
        total += (10 - i) * v
    return total % 11 == 0


def isbn13_ok(code):
    if len(code) != 13 or not code.isdigit():
        return False
    total = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(code))
    return total % 10 == 0


def generate(n):
    seed = 2024
    for i in range(n):
        out = []
        for _ in range(13 if i % 3 == 0 else (16 if i % 3 == 1 else 10)):
            seed = (seed * 48271) % 2147483647
            out.append(str(seed % 10))
        s = "".join(out)
        if i % 11 == 0 and len(s) == 10:
            s = s[:9] + "X"
        yield s


def main():
    cards = valid_cards = isbn10 = isbn13 = fixed = 0
    for code in generate(30000):
        if len(code) == 16:
            cards += 1
            if luhn_ok(code):
                valid_cards += 1
            elif luhn_ok(luhn_fix(code)):
                fixed += 1
        elif isbn10_ok(code):
            isbn10 += 1
        elif isbn13_ok(code):
            isbn13 += 1
    print("cards", cards, valid_cards, fixed, "isbn10", isbn10, "isbn13", isbn13)


if __name__ == "__main__":
    main()
