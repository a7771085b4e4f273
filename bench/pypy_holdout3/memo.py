# Exercises: memoized recursion with a dict cache (dict lookup/insert,
# recursive calls), counting lattice paths that avoid blocked cells.
def paths(r, c, memo):
    key = r * 1000 + c
    v = memo.get(key)
    if v is not None:
        return v
    if r == 0 or c == 0:
        v = 1
    elif (r * 7 + c * 3) % 11 == 0:
        v = 0
    else:
        v = (paths(r - 1, c, memo) + paths(r, c - 1, memo)) % 1000003
    memo[key] = v
    return v
total = 0
for size in range(10, 130):
    memo = {}
    for d in range(size):
        paths(d, size - d, memo)
    total = (total + paths(size, size, memo)) % 1000003
print(total)
