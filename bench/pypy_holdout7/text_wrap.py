# Greedy word wrapping and right-justification of generated paragraphs using join and slicing.

WORDS = ("the quick brown fox jumps over a lazy dog while seven wizards "
         "quietly hex jovial kings and bright vixens").split()


def paragraph(seed, n):
    out = []
    for _ in range(n):
        seed = (seed * 16807) % 2147483647
        out.append(WORDS[seed % len(WORDS)])
    return " ".join(out), seed


def wrap(text, width):
    lines = []
    current = []
    length = 0
    for word in text.split(" "):
        extra = len(word) + (1 if current else 0)
        if length + extra > width and current:
            lines.append(current)
            current, length = [word], len(word)
        else:
            current.append(word)
            length += extra
    if current:
        lines.append(current)
    return lines


def justify(words, width):
    if len(words) == 1:
        return words[0].ljust(width)
    gaps = len(words) - 1
    spaces = width - sum(len(w) for w in words)
    base, more = divmod(spaces, gaps)
    parts = []
    for i, w in enumerate(words[:-1]):
        parts.append(w + " " * (base + (1 if i < more else 0)))
    parts.append(words[-1])
    return "".join(parts)


def main():
    seed = 2024
    digest = 0
    total_lines = 0
    for k in range(1500):
        text, seed = paragraph(seed, 40 + k % 30)
        width = 20 + k % 25
        lines = wrap(text, width)
        out = [justify(ws, width) for ws in lines[:-1]] + [" ".join(lines[-1])]
        body, total_lines = "\n".join(out), total_lines + len(out)
        digest = (digest * 131 + len(body) + body[len(body) // 2:len(body) // 2 + 3].count(" ")) % 1000000007
    print("lines", total_lines, "digest", digest)


if __name__ == "__main__":
    main()
