# Morse code encoder and decoder over generated sentences, with a binary-tree decoder, error handling for bad symbols and timing-unit totals.

CODE = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", (
    ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. "
    "... - ..- ...- .-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... "
    "-.... --... ---.. ----.").split()))

REVERSE = dict((v, k) for k, v in CODE.items())


class BadSymbol(Exception):
    pass


def build_tree():
    # tree nodes are lists [letter, dot_child, dash_child]
    root = [None, None, None]
    for letter, code in CODE.items():
        node = root
        for sym in code:
            slot = 1 if sym == "." else 2
            if node[slot] is None:
                node[slot] = [None, None, None]
            node = node[slot]
        node[0] = letter
    return root


def encode(text):
    words = []
    for word in text.upper().split():
        letters = []
        for ch in word:
            if ch not in CODE:
                raise BadSymbol(ch)
            letters.append(CODE[ch])
        words.append(" ".join(letters))
    return " / ".join(words)


def decode_tree(morse, tree):
    out = []
    for word in morse.split(" / "):
        for code in word.split(" "):
            node = tree
            for sym in code:
                node = node[1] if sym == "." else node[2]
                if node is None:
                    raise BadSymbol(code)
            out.append(node[0])
        out.append(" ")
    return "".join(out).rstrip()


def units(morse):
    total = 0
    for word in morse.split(" / "):
        for code in word.split(" "):
            total += code.count(".") + 3 * code.count("-") + len(code) - 1 + 3
        total += 4
    return total - 7


def sentence(seed, nwords):
    alphabet = "ETAOINSHRDLUCMFWYPVBGKQJXZ0123456789"
    words = []
    for _ in range(nwords):
        seed = (seed * 1103515245 + 12345) % 2147483648
        length = 1 + (seed >> 20) % 7
        w = ""
        for k in range(length):
            seed = (seed * 1103515245 + 12345) % 2147483648
            w += alphabet[(seed >> 16) % (len(alphabet) - 8 * (k % 2))]
        words.append(w.lower() if seed & 1 else w)
    return " ".join(words), seed


def main():
    tree = build_tree()
    seed = 99
    total_units = 0
    dict_hits = 0
    bad = 0
    for i in range(80000):
        text, seed = sentence(seed, 8 + i % 9)
        if i % 97 == 0:
            text += " ok?"
        try:
            morse = encode(text)
        except BadSymbol:
            bad += 1
            continue
        back = decode_tree(morse, tree)
        if back != text.upper():
            raise ValueError("mismatch at %d" % i)
        for code in morse.replace(" / ", " ").split(" "):
            if REVERSE[code] in "AEIOU":
                dict_hits += 1
        total_units += units(morse)
    try:
        decode_tree("...---...---.", tree)
    except BadSymbol as e:
        bad += 1000 + len(e.args[0])
    print("units", total_units, "vowels", dict_hits, "bad", bad)


main()
