# A one-dimensional cellular automaton (rule 110 and rule 30) on a wrapped list of ints, with density and pattern stats.


class Automaton(object):
    def __init__(self, rule, width):
        self.table = [(rule >> k) & 1 for k in range(8)]
        self.width = width
        self.cells = [0] * width
        self.cells[width // 2] = 1
        self.generation = 0

    def step(self):
        cells = self.cells
        w = self.width
        table = self.table
        nxt = [0] * w
        for i in range(w):
            left = cells[i - 1]
            right = cells[(i + 1) % w]
            nxt[i] = table[(left << 2) | (cells[i] << 1) | right]
        self.cells = nxt
        self.generation += 1

    def density(self):
        return sum(self.cells) / float(self.width)

    def render(self, start, stop):
        return "".join("#" if c else "." for c in self.cells[start:stop])


class CountingAutomaton(Automaton):
    def __init__(self, rule, width):
        Automaton.__init__(self, rule, width)
        self.seen = {}

    def step(self):
        Automaton.step(self)
        key = tuple(self.cells[:16])
        self.seen[key] = self.seen.get(key, 0) + 1


def main():
    results = []
    for rule in (110, 30):
        a = CountingAutomaton(rule, 200)
        dens = 0.0
        for _ in range(600):
            a.step()
            dens += a.density()
        results.append((rule, a.generation, "%.5f" % (dens / a.generation),
                        len(a.seen), a.render(90, 110)))
    for r in results:
        print(" ".join(str(x) for x in r))


if __name__ == "__main__":
    main()
