def run(n):
    x = 0
    for i in range(n):
        x ^= (i << 3) | (i >> 2)
        x &= 0xffff
    return x
print(run(200000))
