class V(object):
    def __init__(self, x, y): self.x = x; self.y = y
    def add(self, o): return V(self.x + o.x, self.y + o.y)
def run(n):
    a = V(0, 0)
    for i in range(n):
        a = a.add(V(i, -i))
    return a.x + a.y
print(run(100000))
