class P(object):
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def add(self, o):
        return P(self.x + o.x, self.y + o.y)
s = P(0, 0)
d = P(1, 2)
for i in range(20000):
    s = s.add(d)
    if s.x > 1000:
        s = P(0, s.y)
print(s.x, s.y)
