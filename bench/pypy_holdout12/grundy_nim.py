# Grundy-number tables for subtraction games and Kayles, then sums of games judged by XOR of Grundy values and checked against a small brute-force search.


def mex(values):
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def subtraction_table(moves, limit):
    g = [0] * (limit + 1)
    for n in range(1, limit + 1):
        reach = []
        for m in moves:
            if m <= n:
                reach.append(g[n - m])
        g[n] = mex(reach)
    return g


def kayles_table(limit):
    g = [0] * (limit + 1)
    for n in range(1, limit + 1):
        reach = set()
        for take in (1, 2):
            for left in range(0, n - take + 1):
                right = n - take - left
                reach.add(g[left] ^ g[right])
        g[n] = mex(reach)
    return g


def period_of(table, start, max_period):
    for p in range(1, max_period + 1):
        ok = True
        for i in range(start, len(table) - p):
            if table[i] != table[i + p]:
                ok = False
                break
        if ok:
            return p
    return -1


def brute_wins(heaps, moves, memo):
    key = tuple(sorted(heaps))
    if key in memo:
        return memo[key]
    result = False
    for i, h in enumerate(key):
        for m in moves:
            if m <= h:
                nxt = list(key)
                nxt[i] = h - m
                if not brute_wins(nxt, moves, memo):
                    result = True
                    break
        if result:
            break
    memo[key] = result
    return result


def main():
    moves = (1, 3, 4)
    sub = subtraction_table(moves, 20000)
    kay = kayles_table(600)
    print("sub period=%d zeros=%d kayles period=%d kay[70..75]=%s"
          % (period_of(sub, 0, 20), sub.count(0), period_of(kay, 72, 100), kay[70:76]))
    state = 4242
    first_wins = 0
    disagree = 0
    memo = {}
    for game in range(30000):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        heaps = [(state >> s) % 15 for s in (4, 9, 14)]
        x = 0
        for h in heaps:
            x ^= sub[h]
        if x:
            first_wins += 1
        if game % 10 == 0 and (x != 0) != brute_wins(heaps, moves, memo):
            disagree += 1
        big = (state >> 3) % 600
        if kay[big] == 0:
            first_wins -= 1
    print("first_wins=%d disagree=%d memo=%d" % (first_wins, disagree, len(memo)))


main()
