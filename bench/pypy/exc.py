def run(n):
    c = 0
    for i in range(n):
        try:
            if i % 5 == 0:
                raise ValueError(i)
            c += 1
        except ValueError:
            c -= 1
    return c
print(run(50000))
