# Knight move generator with Warnsdorff-heuristic tours, tour validation, algebraic notation and path-count DP.

OFFSETS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
FILES = "abcdefghijkl"


class Board:
    def __init__(self, n):
        self.n = n
        self.moves = [self.gen_moves(sq) for sq in range(n * n)]

    def gen_moves(self, sq):
        n = self.n
        r, c = divmod(sq, n)
        out = []
        for dr, dc in OFFSETS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n:
                out.append(rr * n + cc)
        return out

    def degree(self, sq, visited):
        d = 0
        for t in self.moves[sq]:
            if not visited[t]:
                d += 1
        return d

    def tour(self, start, tiebreak):
        size = self.n * self.n
        visited = [False] * size
        visited[start] = True
        path = [start]
        sq = start
        while len(path) < size:
            best = -1
            best_key = None
            for t in self.moves[sq]:
                if not visited[t]:
                    key = (self.degree(t, visited), (t * tiebreak) % 7)
                    if best_key is None or key < best_key:
                        best_key = key
                        best = t
            if best < 0:
                break
            visited[best] = True
            path.append(best)
            sq = best
        return path

    def count_paths(self, start, steps, mod):
        counts = [0] * (self.n * self.n)
        counts[start] = 1
        for _ in range(steps):
            nxt = [0] * len(counts)
            for sq, c in enumerate(counts):
                if c:
                    for t in self.moves[sq]:
                        nxt[t] = (nxt[t] + c) % mod
            counts = nxt
        return counts


def square_name(sq, n):
    return FILES[sq % n] + str(sq // n + 1)


def validate(board, path):
    for i in range(1, len(path)):
        if path[i] not in board.moves[path[i - 1]]:
            raise ValueError("illegal jump %d -> %d" % (path[i - 1], path[i]))
    if len(set(path)) != len(path):
        raise ValueError("square revisited")


def main():
    full = 0
    partial = 0
    check = 0
    notation = []
    for rep in range(50):
        for n in (5, 6, 7, 8):
            board = Board(n)
            for start in range(n * n):
                path = board.tour(start, rep % 5 + 1)
                validate(board, path)
                if len(path) == n * n:
                    full += 1
                else:
                    partial += 1
                check = (check * 7 + path[-1] * 13 + len(path)) % 1000000007
            counts = board.count_paths(rep % (n * n), 10, 1000003)
            for c in counts:
                check = (check + c) % 1000000007
            if rep == 0:
                path = board.tour(0, 1)
                notation.append("-".join(square_name(sq, n) for sq in path[:6]))
    print("full", full, "partial", partial, "check", check, " ".join(notation))


main()
