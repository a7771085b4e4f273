class Rect(object):
    def __init__(self, w, h):
        self.w = w
        self.h = h
    def area(self):
        return self.w * self.h
class Square(Rect):
    def __init__(self, s):
        Rect.__init__(self, s, s)
def total(n):
    t = 0
    for i in range(n):
        r = Rect(i % 7, i % 5) if i % 3 else Square(i % 4)
        t += r.area()
    return t
print(total(50000))
