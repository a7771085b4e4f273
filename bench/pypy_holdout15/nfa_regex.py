# Tiny regex engine: recursive-descent parser to a Thompson NFA, set-simulation full matching, parse errors caught.

class Nfa:
    def __init__(self, pattern):
        self.p, self.i = pattern + '\0', 0
        self.chars, self.nexts, self.eps = [], [], []

    def new(self, ch=''):
        self.chars.append(ch)
        self.nexts.append(-1)
        self.eps.append([])
        return len(self.chars) - 1

    def alt(self):
        s, e = self.concat()
        while self.p[self.i] == '|':
            self.i += 1
            s2, e2 = self.concat()
            ns, ne = self.new(), self.new()
            self.eps[ns].extend((s, s2))
            for x in (e, e2):
                self.eps[x].append(ne)
            s, e = ns, ne
        return s, e

    def concat(self):
        s = e = self.new()
        while self.p[self.i] not in ('\0', '|', ')'):
            s2, e2 = self.atom()
            op = self.p[self.i]
            if op in ('*', '+', '?'):
                self.i += 1
                ns, ne = self.new(), self.new()
                self.eps[ns] += [s2] if op == '+' else [s2, ne]
                self.eps[e2] += [ne] if op == '?' else [ne, s2]
                s2, e2 = ns, ne
            self.eps[e].append(s2)
            e = e2
        return s, e

    def atom(self):
        c = self.p[self.i]
        if c == '(':
            self.i += 1
            s, e = self.alt()
            if self.p[self.i] != ')':
                raise ValueError("missing ) at %d" % self.i)
            self.i += 1
            return s, e
        if c in ('\0', ')', '*', '+', '?', '|'):
            raise ValueError("unexpected %r at %d" % (c, self.i))
        self.i += 1
        s = self.new(c)
        self.nexts[s] = self.new()
        return s, self.nexts[s]

def compile_pattern(pattern):
    nfa = Nfa(pattern)
    start, accept = nfa.alt()
    if nfa.i != len(pattern):
        raise ValueError("trailing %r at %d" % (pattern[nfa.i], nfa.i))
    return nfa, start, accept

def closure(nfa, states):
    stack, seen = list(states), set(states)
    while stack:
        for t in nfa.eps[stack.pop()]:
            if t not in seen:
                seen.add(t)
                stack.append(t)
    return seen

def full_match(nfa, start, accept, text):
    cur = closure(nfa, [start])
    for ch in text:
        nxt = [nfa.nexts[s] for s in cur if nfa.chars[s] in ('.', ch)]
        if not nxt:
            return False
        cur = closure(nfa, nxt)
    return accept in cur

PATTERNS = ["(a|b)*c", "a(b|c)*a", ".*abc.*", "(ab|ba)*(c|)", "a+b?c*.*", "((a|b)(b|c))*.?",
            "(a.b|c)+", ".*(aa|bb|cc).*", "(ab", "a|*b", "ab)c", "(c|a(b)*)+b?"]

def main():
    seed, texts = 777, []
    for k in range(3000):
        chars = []
        for _ in range(6 + k % 19):
            seed = (seed * 1664525 + 1013904223) % 4294967296
            chars.append("abc"[(seed >> 16) % 3])
        texts.append("".join(chars))
    hits, errors, check = {}, 0, 0
    for block in range(0, len(texts), 100):
        compiled = []
        for pat in PATTERNS:
            try:
                compiled.append((pat, compile_pattern(pat)))
            except ValueError as exc:
                errors += 1
                check = (check + len(str(exc))) % 1000000007
        for text in texts[block:block + 100]:
            for pat, (nfa, start, accept) in compiled:
                if full_match(nfa, start, accept, text):
                    hits[pat] = hits.get(pat, 0) + 1
                    check = (check * 31 + len(text)) % 1000000007
    summary = " ".join("%s=%d" % (p, hits.get(p, 0)) for p in PATTERNS[:8])
    print("errors", errors, "check", check, summary)

main()
