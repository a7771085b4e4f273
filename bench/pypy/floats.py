def run(n):
    s = 0.0
    for i in range(n):
        s += i * 0.5 - s / (i + 1.0)
    return s
print(run(100000))
