def run(n):
    d = {}
    for i in range(n):
        k = i % 97
        d[k] = d.get(k, 0) + 1
    return len(d)
print(run(100000))
