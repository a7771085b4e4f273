def safe_div(a, b):
    try:
        return a // b
    except ZeroDivisionError:
        return 0
def run(n):
    s = 0
    for i in range(n):
        s += safe_div(i, i % 5)
    return s
print(run(100000))
