# A min-cost path dynamic program over generated grids, moving right, down or diagonally, with path reconstruction.


class Grid(object):
    def __init__(self, rows, cols, seed):
        self.rows = rows
        self.cols = cols
        self.cells = []
        for r in range(rows):
            row = []
            for c in range(cols):
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                row.append(1 + (seed >> 8) % 9)
            self.cells.append(row)
        self.seed = seed

    def cost(self, r, c):
        return self.cells[r][c]


class DiagonalGrid(Grid):
    def step_penalty(self, dr, dc):
        if dr and dc:
            return 2
        return 0


def min_path(grid):
    rows, cols = grid.rows, grid.cols
    best = [[0] * cols for _ in range(rows)]
    back = [[None] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            here = grid.cost(r, c)
            if r == 0 and c == 0:
                best[r][c] = here
                continue
            choice = None
            low = -1
            for dr, dc in ((1, 0), (0, 1), (1, 1)):
                pr, pc = r - dr, c - dc
                if pr < 0 or pc < 0:
                    continue
                cand = best[pr][pc] + grid.step_penalty(dr, dc)
                if low < 0 or cand < low:
                    low = cand
                    choice = (pr, pc)
            best[r][c] = low + here
            back[r][c] = choice
    path = []
    pos = (rows - 1, cols - 1)
    while pos is not None:
        path.append(pos)
        pos = back[pos[0]][pos[1]]
    path.reverse()
    return best[rows - 1][cols - 1], path


def main():
    seed = 7
    total = 0
    longest = 0
    diag_moves = 0
    for trial in range(60):
        g = DiagonalGrid(30 + trial % 7, 40 - trial % 5, seed)
        seed = g.seed
        cost, path = min_path(g)
        total += cost
        longest = max(longest, len(path))
        for i in range(1, len(path)):
            if path[i][0] != path[i - 1][0] and path[i][1] != path[i - 1][1]:
                diag_moves += 1
    print("total", total, "longest", longest, "diag", diag_moves)


if __name__ == "__main__":
    main()
