def run(n):
    parts = []
    for i in range(n):
        parts.append(str(i % 10))
    return len("".join(parts))
print(run(100000))
