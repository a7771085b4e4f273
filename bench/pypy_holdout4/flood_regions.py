# Count connected regions in a pseudo-random grid with an explicit-stack flood fill.

WIDTH = 400
HEIGHT = 300


def make_grid(w, h, seed):
    grid = []
    x = seed
    for r in range(h):
        row = []
        for c in range(w):
            x = (x * 69069 + 1) % 4294967296
            row.append(1 if (x >> 16) % 100 < 55 else 0)
        grid.append(row)
    return grid


def flood(grid, sr, sc, label):
    h = len(grid)
    w = len(grid[0])
    stack = [(sr, sc)]
    grid[sr][sc] = label
    size = 0
    while stack:
        r, c = stack.pop()
        size += 1
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < h and 0 <= nc < w and grid[nr][nc] == 1:
                grid[nr][nc] = label
                stack.append((nr, nc))
    return size


def count_regions(grid):
    label = 2
    sizes = []
    for r in range(len(grid)):
        for c in range(len(grid[r])):
            if grid[r][c] == 1:
                sizes.append(flood(grid, r, c, label))
                label += 1
    return sizes


if __name__ == "__main__":
    total_regions = 0
    biggest = 0
    for seed in range(20):
        sizes = count_regions(make_grid(WIDTH, HEIGHT, seed))
        total_regions += len(sizes)
        biggest = max(biggest, max(sizes))
    print("regions:", total_regions, "largest:", biggest)
