def sqrt_newton(x):
    g = x / 2.0 + 1.0
    for i in range(20):
        g = 0.5 * (g + x / g)
    return g
acc = 0.0
for k in range(1, 20000):
    acc += sqrt_newton(float(k))
print(int(acc))
