# Forest-fire cellular automaton (Drossel-Schwabl) on a toroidal grid with growth, lightning and burn statistics.


class Forest:
    EMPTY, TREE, FIRE = 0, 1, 2

    def __init__(self, width, height, growth, lightning, seed):
        self.width = width
        self.height = height
        self.growth = growth
        self.lightning = lightning
        self.seed = seed
        self.cells = [0] * (width * height)
        self.nbrs = []
        for y in range(height):
            for x in range(width):
                self.nbrs.append((((y - 1) % height) * width + x, ((y + 1) % height) * width + x,
                                  y * width + (x - 1) % width, y * width + (x + 1) % width))
        self.strikes = 0

    def rand(self):
        self.seed = (self.seed * 1664525 + 1013904223) % 4294967296
        return self.seed / 4294967296.0

    def step(self):
        cells = self.cells
        new = [0] * len(cells)
        trees = burning = 0
        for i in range(len(cells)):
            s = cells[i]
            if s == Forest.FIRE:
                continue
            if s == Forest.TREE:
                a, b, c, d = self.nbrs[i]
                if cells[a] == 2 or cells[b] == 2 or cells[c] == 2 or cells[d] == 2:
                    new[i] = Forest.FIRE
                    burning += 1
                elif self.rand() < self.lightning:
                    new[i] = Forest.FIRE
                    burning += 1
                    self.strikes += 1
                else:
                    new[i] = Forest.TREE
                    trees += 1
            elif self.rand() < self.growth:
                new[i] = Forest.TREE
                trees += 1
        self.cells = new
        return trees, burning

    def render_row(self, y):
        chars = ".T*"
        row = self.cells[y * self.width:(y + 1) * self.width]
        return "".join(chars[s] for s in row)


def main():
    forest = Forest(64, 64, 0.012, 0.00004, 31337)
    density_sum = 0.0
    density_sq = 0.0
    max_fire = 0
    fires = []
    current = 0
    steps = 1200
    check = 0
    for t in range(steps):
        trees, burning = forest.step()
        d = trees / 4096.0
        density_sum += d
        density_sq += d * d
        if burning:
            current += burning
        elif current:
            fires.append(current)
            max_fire = max(max_fire, current)
            current = 0
        if t % 40 == 0:
            for ch in forest.render_row(t % 64):
                check = (check * 3 + ord(ch)) % 1000000007
    mean = density_sum / steps
    var = density_sq / steps - mean * mean
    big = len([f for f in fires if f >= 100])
    print("mean %.5f var %.6f fires %d big %d max %d strikes %d check %d"
          % (mean, var, len(fires), big, max_fire, forest.strikes, check))


main()
