# Ranked-choice (instant-runoff) election tally over generated ballots, with elimination rounds and tie-breaking.

CANDIDATES = ["Avery", "Blake", "Casey", "Devon", "Emery", "Finley", "Gray", "Harper"]


class Lcg:
    def __init__(self, seed):
        self.state = seed

    def next(self, bound):
        self.state = (self.state * 1103515245 + 12345) % 2147483648
        return (self.state >> 8) % bound


class Ballot:
    def __init__(self, ranking):
        self.ranking = ranking
        self.pos = 0

    def current(self, eliminated):
        r = self.ranking
        while self.pos < len(r) and r[self.pos] in eliminated:
            self.pos += 1
        if self.pos < len(r):
            return r[self.pos]
        return None


def make_ballot(rng, bias):
    pool = list(range(len(CANDIDATES)))
    ranking = []
    depth = 2 + rng.next(len(pool) - 1)
    for _ in range(depth):
        k = rng.next(len(pool))
        if rng.next(4) == 0 and bias in pool:
            k = pool.index(bias)
        ranking.append(pool.pop(k))
    return Ballot(tuple(ranking))


def run_election(ballots):
    eliminated = set()
    for b in ballots:
        b.pos = 0
    rounds = []
    total = len(ballots)
    while True:
        tally = {}
        for i in range(len(CANDIDATES)):
            if i not in eliminated:
                tally[i] = 0
        exhausted = 0
        for b in ballots:
            c = b.current(eliminated)
            if c is None:
                exhausted += 1
            else:
                tally[c] += 1
        live = total - exhausted
        best = max(tally, key=lambda c: (tally[c], -c))
        rounds.append("%s:%d/%d" % (CANDIDATES[best][:3], tally[best], live))
        if tally[best] * 2 > live or len(tally) <= 2:
            return best, rounds
        worst = min(tally, key=lambda c: (tally[c], -c))
        eliminated.add(worst)


def first_choice_winner(ballots):
    counts = [0] * len(CANDIDATES)
    for b in ballots:
        counts[b.ranking[0]] += 1
    best = 0
    for i in range(1, len(counts)):
        if counts[i] > counts[best]:
            best = i
    return best


def main():
    rng = Lcg(20240611)
    wins = {}
    upsets = 0
    total_rounds = 0
    check = 0
    for election in range(350):
        n = 800 + (election % 7) * 50
        bias = election % len(CANDIDATES)
        ballots = [make_ballot(rng, bias) for _ in range(n)]
        winner, rounds = run_election(ballots)
        name = CANDIDATES[winner]
        wins[name] = wins.get(name, 0) + 1
        if first_choice_winner(ballots) != winner:
            upsets += 1
        total_rounds += len(rounds)
        for s in rounds:
            for ch in s:
                check = (check * 131 + ord(ch)) % 1000000007
    summary = ",".join("%s=%d" % (k, wins[k]) for k in sorted(wins))
    print("rounds", total_rounds, "upsets", upsets, summary, "check", check)


main()
