# Render a tiny "{name}" template for many records, HTML-escaping substituted values.

ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def escape(text):
    parts = []
    for ch in text:
        rep = ESCAPES.get(ch)
        parts.append(ch if rep is None else rep)
    return "".join(parts)


def render(template, values):
    out = []
    i = 0
    n = len(template)
    while i < n:
        ch = template[i]
        if ch == "{":
            j = template.index("}", i)
            name = template[i + 1:j]
            out.append(escape(str(values[name])))
            i = j + 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


NAMES = ["Ann & Bob", "<root>", "O'Hara", "plain", 'say "hi"', "x<y>z"]
TEMPLATE = '<tr><td class="n">{name}</td><td>{qty}</td><td title="{note}">{id}</td></tr>'


def build_rows(count):
    total_len = 0
    amp = 0
    for i in range(count):
        values = {
            "name": NAMES[i % len(NAMES)],
            "qty": i * 7 % 113,
            "note": NAMES[(i * 5 + 1) % len(NAMES)],
            "id": i,
        }
        row = render(TEMPLATE, values)
        total_len += len(row)
        amp += row.count("&")
    return total_len, amp


if __name__ == "__main__":
    total_len, amp = build_rows(20000)
    print("chars", total_len, "entities", amp)
