# Huffman coding of generated text: frequency dict, tree built with a sorted work list, bit packing into a bytearray, and decoding back.


class Leaf(object):
    def __init__(self, ch, weight):
        self.ch = ch
        self.weight = weight


class Branch(object):
    def __init__(self, left, right):
        self.left = left
        self.right = right
        self.weight = left.weight + right.weight


def build_tree(freq):
    work = []
    order = 0
    for ch in sorted(freq):
        work.append((freq[ch], order, Leaf(ch, freq[ch])))
        order += 1
    work.sort(key=lambda t: (t[0], t[1]))
    while len(work) > 1:
        a = work.pop(0)
        b = work.pop(0)
        node = Branch(a[2], b[2])
        item = (node.weight, order, node)
        order += 1
        i = 0
        while i < len(work) and (work[i][0], work[i][1]) < (item[0], item[1]):
            i += 1
        work.insert(i, item)
    return work[0][2]


def code_table(tree):
    table = {}
    stack = [(tree, "")]
    while stack:
        node, prefix = stack.pop()
        if isinstance(node, Leaf):
            table[node.ch] = prefix or "0"
        else:
            stack.append((node.left, prefix + "0"))
            stack.append((node.right, prefix + "1"))
    return table


def encode(text, table):
    out = bytearray()
    acc = 0
    nbits = 0
    total = 0
    for ch in text:
        for bit in table[ch]:
            acc = (acc << 1) | (1 if bit == "1" else 0)
            nbits += 1
            total += 1
            if nbits == 8:
                out.append(acc)
                acc = 0
                nbits = 0
    if nbits:
        out.append(acc << (8 - nbits))
    return out, total


def decode(data, nbits, tree):
    out = []
    node = tree
    for i in range(nbits):
        byte = data[i >> 3]
        bit = (byte >> (7 - (i & 7))) & 1
        node = node.right if bit else node.left
        if isinstance(node, Leaf):
            out.append(node.ch)
            node = tree
    return "".join(out)


def make_text(n, seed):
    words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "and", "zebra", "quartz", "vex"]
    parts = []
    state = seed
    for _ in range(n):
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        w = words[(state >> 16) % len(words)]
        if (state >> 8) & 15 == 0:
            w = w.upper()
        parts.append(w)
    return " ".join(parts)


def main():
    text = make_text(60000, 99)
    freq = {}
    for ch in text:
        freq[ch] = freq.get(ch, 0) + 1
    tree = build_tree(freq)
    table = code_table(tree)
    data, nbits = encode(text, table)
    back = decode(data, nbits, tree)
    longest = max(len(c) for c in table.values())
    print("chars=%d symbols=%d bits=%d bytes=%d longest=%d roundtrip=%s" % (
        len(text), len(table), nbits, len(data), longest, back == text))


main()
