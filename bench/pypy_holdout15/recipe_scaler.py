# Recipe scaler with exact fractions as integer pairs: servings scaling, unit normalisation, mixed-number output, shopping list.

VOLUME = {"tsp": 1, "tbsp": 3, "cup": 48}
WEIGHT = {"g": 1, "kg": 1000}
INGREDIENTS = ["flour", "sugar", "butter", "milk", "salt", "yeast", "oats", "honey", "cocoa", "rice"]
UNITS = ["tsp", "tbsp", "cup", "g", "kg", "pinch"]


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


class Qty:
    def __init__(self, num, den):
        if den == 0:
            raise ZeroDivisionError("zero denominator")
        g = gcd(num, den)
        self.num = num // g
        self.den = den // g

    def mul(self, other):
        return Qty(self.num * other.num, self.den * other.den)

    def add(self, other):
        return Qty(self.num * other.den + other.num * self.den, self.den * other.den)

    def less(self, other):
        return self.num * other.den < other.num * self.den

    def fmt(self):
        whole, rem = divmod(self.num, self.den)
        if rem == 0:
            return str(whole)
        if whole == 0:
            return "%d/%d" % (rem, self.den)
        return "%d %d/%d" % (whole, rem, self.den)


def normalise(qty, unit):
    if unit in VOLUME:
        base, table, order = qty.mul(Qty(VOLUME[unit], 1)), VOLUME, ("cup", "tbsp", "tsp")
    else:
        base, table, order = qty.mul(Qty(WEIGHT[unit], 1)), WEIGHT, ("kg", "g")
    for name in order:
        q = base.mul(Qty(1, table[name]))
        if not q.less(Qty(1, 4)) or name == order[-1]:
            eighths = Qty((q.num * 8 + q.den // 2) // q.den, 8)
            return eighths, name, base


def make_recipes(count, seed):
    recipes = []
    for r in range(count):
        items = []
        for k in range(4 + r % 4):
            seed = (seed * 214013 + 2531011) % 2147483648
            name = INGREDIENTS[(seed >> 16) % len(INGREDIENTS)]
            unit = UNITS[(seed >> 8) % len(UNITS)]
            items.append((name, Qty(1 + (seed >> 4) % 11, 1 + (seed >> 20) % 4), unit))
        recipes.append((2 + r % 5, items))
    return recipes


def main():
    recipes = make_recipes(40, 12345)
    check = 0
    skipped = 0
    empty = 0
    shopping = {}
    for rnd in range(50):
        for base_serv, items in recipes:
            for target in range(13):
                try:
                    factor = Qty(target, base_serv)
                    per_serving = Qty(1, target)
                except ZeroDivisionError:
                    empty += 1
                    continue
                lines = []
                for name, qty, unit in items:
                    try:
                        shown, shown_unit, base = normalise(qty.mul(factor), unit)
                    except KeyError:
                        skipped += 1
                        continue
                    key = (name, "vol" if unit in VOLUME else "wt")
                    shopping[key] = shopping.get(key, Qty(0, 1)).add(base.mul(per_serving))
                    lines.append("%s %s %s" % (shown.fmt(), shown_unit, name))
                text = "; ".join(lines)
                for ch in text[::3]:
                    check = (check * 33 + ord(ch)) % 1000000007
    total = [(k, shopping[k]) for k in sorted(shopping)]
    summary = ", ".join("%s/%s=%s" % (k[0], k[1], q.fmt()) for k, q in total[:5])
    print("skipped", skipped, "empty", empty, "check", check, summary)


main()
