# Elo rating updates over repeated round-robin tournaments between simulated players with hidden strengths.


class Player(object):
    def __init__(self, name, strength):
        self.name = name
        self.strength = strength
        self.rating = 1500.0
        self.wins = 0
        self.losses = 0
        self.draws = 0

    def expected(self, other):
        return 1.0 / (1.0 + 10.0 ** ((other.rating - self.rating) / 400.0))


class Rng(object):
    def __init__(self, seed):
        self.state = seed

    def next_float(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return (self.state >> 11) / float(1 << 53)


def play(a, b, rng, k_factor):
    p_a = a.strength / float(a.strength + b.strength)
    r = rng.next_float()
    if r < 0.1:
        score_a = 0.5
        a.draws += 1
        b.draws += 1
    elif r < 0.1 + 0.9 * p_a:
        score_a = 1.0
        a.wins += 1
        b.losses += 1
    else:
        score_a = 0.0
        a.losses += 1
        b.wins += 1
    ea = a.expected(b)
    eb = 1.0 - ea
    a.rating += k_factor * (score_a - ea)
    b.rating += k_factor * ((1.0 - score_a) - eb)


def tournament(players, rounds, rng):
    n = len(players)
    for r in range(rounds):
        k = 32.0 if r < rounds // 2 else 16.0
        for i in range(n):
            for j in range(i + 1, n):
                if (i + j + r) % 2 == 0:
                    play(players[i], players[j], rng, k)
                else:
                    play(players[j], players[i], rng, k)


def rank_agreement(players):
    by_strength = sorted(players, key=lambda p: p.strength)
    by_rating = sorted(players, key=lambda p: p.rating)
    same = 0
    for x, y in zip(by_strength, by_rating):
        if x is y:
            same += 1
    return same


def main():
    players = []
    for i in range(24):
        players.append(Player("p%02d" % i, 1.0 + (i * 7 % 24) * 0.5))
    rng = Rng(2024)
    tournament(players, 40000, rng)
    total = sum(p.rating for p in players)
    top = max(players, key=lambda p: p.rating)
    games = sum(p.wins + p.losses + p.draws for p in players) // 2
    print("games=%d mean=%.2f top=%s %.1f agree=%d" % (
        games, total / len(players), top.name, top.rating, rank_agreement(players)))


main()
