# Books rational time intervals (numerator/denominator pairs) into rooms, raising and catching Overlap and BadInterval exceptions in the hot path, with per-room utilisation.


class BadInterval(Exception):
    pass


class Overlap(Exception):
    def __init__(self, room, other):
        Exception.__init__(self, room)
        self.room = room
        self.other = other


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def norm(num, den):
    if den == 0:
        raise BadInterval("zero denominator")
    g = gcd(abs(num), den)
    return num // g, den // g


def less(a, b):
    return a[0] * b[1] < b[0] * a[1]


class Room(object):
    def __init__(self, name):
        self.name = name
        self.slots = []

    def book(self, start, end):
        if not less(start, end):
            raise BadInterval("empty")
        for s, e in self.slots:
            if less(start, e) and less(s, end):
                raise Overlap(self.name, (s, e))
        self.slots.append((start, end))

    def used(self):
        num, den = 0, 1
        for s, e in self.slots:
            n = e[0] * s[1] - s[0] * e[1]
            d = e[1] * s[1]
            num, den = norm(num * d + n * den, den * d)
        return num, den


def requests(count):
    seed = 99
    for i in range(count):
        seed = (seed * 214013 + 2531011) % 4294967296
        den = (seed >> 4) % 6
        a = (seed >> 8) % 480
        length = 1 + (seed >> 18) % 40
        yield i, a, a + length - (seed >> 25) % 3 * 5, den


def main():
    rooms = [Room("r%d" % k) for k in range(6)]
    booked = 0
    overlaps = 0
    bad = 0
    clash = 0
    for i, a, b, den in requests(12000):
        try:
            start = norm(a, den)
            end = norm(b, den)
            room = rooms[i % len(rooms)]
            try:
                room.book(start, end)
            except Overlap as exc:
                clash = (clash + exc.other[0][0]) % 1000003
                rooms[(i + 1) % len(rooms)].book(start, end)
            booked += 1
        except Overlap:
            overlaps += 1
        except BadInterval:
            bad += 1
    acc = 0
    for room in rooms:
        num, den = room.used()
        acc = (acc * 131 + num * 7 + den) % 1000000007
    print("booked", booked, "overlaps", overlaps, "bad", bad)
    print("checksum", (acc + clash) % 1000000007)


main()
