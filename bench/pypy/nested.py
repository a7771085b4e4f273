def run(n):
    s = 0
    for i in range(n):
        for j in range(10):
            if (i + j) % 3:
                s += j
            else:
                s -= 1
    return s
print(run(20000))
