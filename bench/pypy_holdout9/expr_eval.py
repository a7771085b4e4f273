# A tokenizer and recursive-descent evaluator for integer arithmetic expressions with parentheses and error reporting.


class ParseError(Exception):
    pass


def tokenize(text):
    tokens = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == " ":
            i += 1
        elif ch.isdigit():
            j = i
            while j < n and text[j].isdigit():
                j += 1
            tokens.append(("num", int(text[i:j])))
            i = j
        elif ch in "+-*/%()":
            tokens.append(("op", ch))
            i += 1
        else:
            raise ParseError("bad char %r at %d" % (ch, i))
    return tokens


class Parser(object):
    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0

    def peek(self):
        if self.pos < len(self.tokens):
            return self.tokens[self.pos]
        return ("end", None)

    def take(self):
        tok = self.peek()
        self.pos += 1
        return tok

    def expr(self):
        value = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self):
        value = self.factor()
        while self.peek() in (("op", "*"), ("op", "/"), ("op", "%")):
            op = self.take()[1]
            rhs = self.factor()
            if op == "*":
                value *= rhs
            elif rhs == 0:
                raise ZeroDivisionError("divide by zero")
            elif op == "/":
                value //= rhs
            else:
                value %= rhs
        return value

    def factor(self):
        kind, val = self.take()
        if kind == "num":
            return val
        if val == "(":
            inner = self.expr()
            if self.take() != ("op", ")"):
                raise ParseError("missing )")
            return inner
        if val == "-":
            return -self.factor()
        raise ParseError("unexpected %s" % (val,))


def make_expr(i):
    a, b, c, d = i % 97, (i * 7) % 13, (i * 3) % 11, i % 5
    forms = ["%d + %d * %d" % (a, b, c), "(%d - %d) / %d" % (a, b, d),
             "(%d + %d" % (a, b)]
    if i % 500 == 0:
        return "%d # %d" % (a, b)
    return forms[i % len(forms)]


def main():
    total = 0
    parse_errors = 0
    zero_divs = 0
    for i in range(40000):
        src = make_expr(i)
        try:
            total += Parser(tokenize(src)).expr()
        except ParseError:
            parse_errors += 1
        except ZeroDivisionError:
            zero_divs += 1
    print("total", total, "parse errors", parse_errors, "zero divs", zero_divs)


if __name__ == "__main__":
    main()
