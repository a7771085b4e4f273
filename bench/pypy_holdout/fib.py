def fib(n):
    a, b = 0, 1
    for i in range(n):
        a, b = b, (a + b) % 1000003
    return a
t = 0
for k in range(300):
    t += fib(200 + k)
print(t)
