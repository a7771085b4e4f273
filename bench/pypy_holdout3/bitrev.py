# Exercises: while-loops doing bit manipulation: popcount by clearing the
# lowest set bit, and reversing the low 16 bits with shifts and masks.
def popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c
def rev16(x):
    r = 0
    k = 0
    while k < 16:
        r = (r << 1) | (x & 1)
        x >>= 1
        k += 1
    return r
pc = 0
acc = 0
for i in range(40000):
    pc += popcount(i)
    acc += rev16(i) * (i & 3)
print(pc, acc)
