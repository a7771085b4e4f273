def gcd(a, b):
    while b:
        a, b = b, a % b
    return a
def run(n):
    s = 0
    for i in range(1, n):
        s += gcd(i, 360)
    return s
print(run(60000))
