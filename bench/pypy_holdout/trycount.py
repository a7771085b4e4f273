def parse(s):
    try:
        return int(s)
    except ValueError:
        return -1
items = ["1", "x", "22", "333", "q"] * 2000
t = 0
for it in items:
    t += parse(it)
print(t)
