# Exercises: a pipeline of chained generators (yield, generator resumption,
# filtering and mapping stages) consumed by a summing loop.
def numbers(n):
    i = 0
    while i < n:
        yield i
        i += 1
def odd_only(src):
    for x in src:
        if x & 1:
            yield x
def squares_mod(src, m):
    for x in src:
        yield (x * x) % m
s = 0
for v in squares_mod(odd_only(numbers(300000)), 1009):
    s += v
print(s)
