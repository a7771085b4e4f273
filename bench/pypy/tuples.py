def run(n):
    a, b = 0, 1
    t = 0
    for i in range(n):
        a, b = b, (a + b) % 1000003
        t += a
    return t
print(run(100000))
