def run(n):
    l = list(range(1000))
    s = 0
    for k in range(n):
        for v in l:
            s += v
    return s
print(run(200))
