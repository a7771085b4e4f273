# Breadth-first search shortest paths through generated mazes stored as lists of strings, counting reachable cells and path lengths.


def lcg(seed):
    while True:
        seed = (seed * 1103515245 + 12345) % 2147483648
        yield seed >> 8


def make_maze(width, height, rng):
    grid = [["#"] * width for _ in range(height)]
    stack = [(1, 1)]
    grid[1][1] = "."
    while stack:
        x, y = stack[-1]
        options = []
        for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            nx, ny = x + dx, y + dy
            if 0 < nx < width - 1 and 0 < ny < height - 1 and grid[ny][nx] == "#":
                options.append((nx, ny, dx, dy))
        if not options:
            stack.pop()
            continue
        nx, ny, dx, dy = options[next(rng) % len(options)]
        grid[y + dy // 2][x + dx // 2] = "."
        grid[ny][nx] = "."
        stack.append((nx, ny))
    # knock out a few extra walls so there are loops
    for _ in range(width * height // 40):
        x = 1 + next(rng) % (width - 2)
        y = 1 + next(rng) % (height - 2)
        grid[y][x] = "."
    return ["".join(row) for row in grid]


def bfs(maze, start, goal):
    height = len(maze)
    width = len(maze[0])
    dist = {start: 0}
    queue = [start]
    head = 0
    while head < len(queue):
        cell = queue[head]
        head += 1
        if cell == goal:
            return dist[cell], len(dist)
        x, y = cell
        d = dist[cell] + 1
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < width and 0 <= ny < height and maze[ny][nx] != "#":
                if (nx, ny) not in dist:
                    dist[(nx, ny)] = d
                    queue.append((nx, ny))
    return -1, len(dist)


def open_cells(maze):
    total = 0
    for row in maze:
        total += row.count(".")
    return total


def dead_ends(maze):
    count = 0
    for y in range(1, len(maze) - 1):
        row = maze[y]
        for x in range(1, len(row) - 1):
            if row[x] != ".":
                continue
            walls = 0
            if row[x - 1] == "#":
                walls += 1
            if row[x + 1] == "#":
                walls += 1
            if maze[y - 1][x] == "#":
                walls += 1
            if maze[y + 1][x] == "#":
                walls += 1
            if walls == 3:
                count += 1
    return count


def main():
    rng = lcg(20240611)
    total_len = 0
    total_seen = 0
    total_open = 0
    total_dead = 0
    unreachable = 0
    for trial in range(6000):
        w = 41 + 2 * (trial % 5)
        h = 31 + 2 * (trial % 3)
        maze = make_maze(w, h, rng)
        length, seen = bfs(maze, (1, 1), (w - 2, h - 2))
        if length < 0:
            unreachable += 1
        else:
            total_len += length
        total_seen += seen
        total_open += open_cells(maze)
        total_dead += dead_ends(maze)
    print("paths", total_len, "seen", total_seen, "open", total_open)
    print("dead ends", total_dead, "unreachable", unreachable)


main()
