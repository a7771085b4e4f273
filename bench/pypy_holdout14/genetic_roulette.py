# Genetic algorithm with roulette-wheel selection, one-point crossover and mutation on bit-string genomes, driven by a seeded LCG.


class LCG(object):
    def __init__(self, seed):
        self.state = seed

    def next_int(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % 18446744073709551616
        return self.state >> 33

    def uniform(self):
        return self.next_int() / 2147483648.0

    def below(self, n):
        return self.next_int() % n


TARGET = "1011001110001111010101100110100011110000101011001101"


def fitness(genome):
    score = 0
    run = 0
    for i in range(len(genome)):
        if genome[i] == TARGET[i]:
            score += 1
            run += 1
            if run >= 4:
                score += 1
        else:
            run = 0
    return float(score) + 0.5


def roulette(population, weights, total, rng):
    pick = rng.uniform() * total
    acc = 0.0
    for i in range(len(population)):
        acc += weights[i]
        if acc >= pick:
            return population[i]
    return population[-1]


def crossover(a, b, rng):
    cut = 1 + rng.below(len(a) - 1)
    return a[:cut] + b[cut:], b[:cut] + a[cut:]


def mutate(genome, rate, rng):
    chars = list(genome)
    for i in range(len(chars)):
        if rng.uniform() < rate:
            chars[i] = "0" if chars[i] == "1" else "1"
    return "".join(chars)


def evolve(seed, pop_size, generations):
    rng = LCG(seed)
    n = len(TARGET)
    population = []
    for _ in range(pop_size):
        population.append("".join("1" if rng.below(2) else "0" for _ in range(n)))
    best = ("", 0.0)
    for gen in range(generations):
        weights = [fitness(g) for g in population]
        total = sum(weights)
        for g, w in zip(population, weights):
            if w > best[1]:
                best = (g, w)
        if best[0] == TARGET:
            return gen, best
        nxt = [best[0]]
        while len(nxt) < pop_size:
            a = roulette(population, weights, total, rng)
            b = roulette(population, weights, total, rng)
            c, d = crossover(a, b, rng)
            nxt.append(mutate(c, 0.015, rng))
            nxt.append(mutate(d, 0.015, rng))
        population = nxt[:pop_size]
    return generations, best


def main():
    solved = 0
    gens = 0
    score_sum = 0.0
    for run in range(30):
        gen, best = evolve(1000 + run * 17, 60, 120)
        gens += gen
        score_sum += best[1]
        if best[0] == TARGET:
            solved += 1
    print("solved", solved, "generations", gens, "mean best %.3f" % (score_sum / 30))


main()
