# Scores generated ten-pin bowling games with Frame and Game classes, strike/spare bonuses, and invalid rolls rejected as exceptions.


class InvalidRoll(Exception):
    pass


class Frame(object):
    __slots__ = ("rolls", "last")

    def __init__(self, last):
        self.rolls = []
        self.last = last

    def pins_left(self):
        if self.last and self.rolls and self.rolls[0] == 10:
            if len(self.rolls) == 2 and self.rolls[1] != 10:
                return 10 - self.rolls[1]
            return 10
        if self.last and len(self.rolls) == 2 and self.rolls[0] + self.rolls[1] == 10:
            return 10
        return 10 - sum(self.rolls)

    def done(self):
        n = len(self.rolls)
        if not self.last:
            return n == 2 or (n == 1 and self.rolls[0] == 10)
        if n < 2:
            return False
        if n == 2:
            return self.rolls[0] + self.rolls[1] < 10
        return True


class Game(object):
    def __init__(self):
        self.frames = [Frame(i == 9) for i in range(10)]
        self.index = 0
        self.flat = []

    def roll(self, pins):
        if self.index >= 10:
            raise InvalidRoll("game over")
        frame = self.frames[self.index]
        if pins < 0 or pins > frame.pins_left():
            raise InvalidRoll("too many pins")
        frame.rolls.append(pins)
        self.flat.append(pins)
        if frame.done():
            self.index += 1

    def finished(self):
        return self.index >= 10

    def score(self):
        total = 0
        i = 0
        rolls = self.flat
        for _ in range(10):
            if rolls[i] == 10:
                total += 10 + rolls[i + 1] + rolls[i + 2]
                i += 1
            elif rolls[i] + rolls[i + 1] == 10:
                total += 10 + rolls[i + 2]
                i += 2
            else:
                total += rolls[i] + rolls[i + 1]
                i += 2
        return total


def play(seed, skill):
    game = Game()
    state = seed
    bad = 0
    while not game.finished():
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        wanted = (state >> 8) % (skill + 1)
        if wanted > 10:
            wanted = 10
        try:
            game.roll(wanted)
        except InvalidRoll:
            bad += 1
            game.roll(game.frames[game.index].pins_left())
    return game.score(), bad, len(game.flat)


def main():
    best = 0
    total = 0
    rejected = 0
    rolls = 0
    perfect = 0
    for g in range(12000):
        score, bad, n = play(g * 7919 + 3, 10 + g % 5)
        total += score
        rejected += bad
        rolls += n
        if score > best:
            best = score
        if score == 300:
            perfect += 1
    print("games=12000 total=%d best=%d avg=%.3f rejected=%d rolls=%d perfect=%d"
          % (total, best, total / 12000.0, rejected, rolls, perfect))


main()
