# Generates shuffled 9x9 sudoku grids, corrupts some cells, and validates rows, columns and boxes.


def base_grid():
    return [[(r * 3 + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)]


def shuffle_grid(grid, seed):
    for _ in range(20):
        seed = (seed * 214013 + 2531011) % 4294967296
        band = (seed >> 16) % 3
        a = band * 3 + (seed >> 4) % 3
        b = band * 3 + (seed >> 10) % 3
        grid[a], grid[b] = grid[b], grid[a]
        for row in grid:
            row[a], row[b] = row[b], row[a]
    return seed


def group_ok(values):
    seen = [False] * 10
    for v in values:
        if seen[v]:
            return False
        seen[v] = True
    return True


def is_valid(grid):
    for r in range(9):
        if not group_ok(grid[r]):
            return False
    for c in range(9):
        if not group_ok([grid[r][c] for r in range(9)]):
            return False
    for br in range(0, 9, 3):
        for bc in range(0, 9, 3):
            box = [grid[br + i][bc + j] for i in range(3) for j in range(3)]
            if not group_ok(box):
                return False
    return True


def main():
    seed = 99
    valid = invalid = 0
    for n in range(6000):
        grid = base_grid()
        seed = shuffle_grid(grid, seed)
        if n % 3 == 0:
            r, c = seed % 9, (seed >> 5) % 9
            grid[r][c] = grid[r][c] % 9 + 1
        ok = is_valid(grid)
        valid, invalid = valid + ok, invalid + (not ok)
    print("valid", valid, "invalid", invalid)


if __name__ == "__main__":
    main()
