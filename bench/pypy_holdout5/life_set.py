# Conway's Game of Life on an unbounded board stored as a set of (x, y) tuples.

NEIGHBOURS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


def step(live):
    counts = {}
    for (x, y) in live:
        for (dx, dy) in NEIGHBOURS:
            key = (x + dx, y + dy)
            counts[key] = counts.get(key, 0) + 1
    new_live = set()
    for key, n in counts.items():
        if n == 3 or (n == 2 and key in live):
            new_live.add(key)
    return new_live


def seed_board(w, h, seed):
    live = set()
    s = seed
    for y in range(h):
        for x in range(w):
            s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
            if (s >> 24) < 90:
                live.add((x, y))
    return live


def bounding_box(live):
    min_x = min_y = 10 ** 9
    max_x = max_y = -10 ** 9
    for (x, y) in live:
        if x < min_x:
            min_x = x
        if x > max_x:
            max_x = x
        if y < min_y:
            min_y = y
        if y > max_y:
            max_y = y
    return min_x, min_y, max_x, max_y


if __name__ == "__main__":
    live = seed_board(60, 60, 2024)
    history = []
    for gen in range(60):
        live = step(live)
        history.append(len(live))
    box = bounding_box(live)
    print("alive", len(live), "box", box, "sum", sum(history))
