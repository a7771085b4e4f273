# Exercises: a class-based state machine over a string (char tests, str
# indexing, attribute updates on self, int parsing by hand).
class Tokenizer(object):
    def __init__(self):
        self.nums = 0
        self.words = 0
        self.total = 0
        self.state = 0
        self.cur = 0
    def feed(self, ch):
        if '0' <= ch <= '9':
            if self.state != 1:
                self.state = 1
                self.cur = 0
            self.cur = self.cur * 10 + (ord(ch) - 48)
        elif 'a' <= ch <= 'z':
            if self.state == 1:
                self.flush()
            if self.state != 2:
                self.words += 1
            self.state = 2
        else:
            if self.state == 1:
                self.flush()
            self.state = 0
    def flush(self):
        self.nums += 1
        self.total += self.cur
        self.state = 0
text = "let x1 = 42 + y7 * 305; call f(12, abc, 9)\n" * 6000
t = Tokenizer()
for ch in text:
    t.feed(ch)
print(t.nums, t.words, t.total)
