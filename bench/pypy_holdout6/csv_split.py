# Split CSV-like lines with quoted fields by hand and total a numeric column.


def split_line(line):
    fields = []
    cur = []
    in_quotes = False
    i = 0
    n = len(line)
    while i < n:
        ch = line[i]
        if in_quotes:
            if ch == '"':
                if i + 1 < n and line[i + 1] == '"':
                    cur.append('"')
                    i += 1
                else:
                    in_quotes = False
            else:
                cur.append(ch)
        elif ch == '"':
            in_quotes = True
        elif ch == ",":
            fields.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    fields.append("".join(cur))
    return fields


def make_lines(n):
    names = ["ash", "birch, silver", 'oak "royal"', "pine", "elm"]
    lines = []
    for i in range(n):
        name = names[i % len(names)]
        quoted = '"' + name.replace('"', '""') + '"'
        lines.append("%d,%s,%d.%02d,%s" % (i, quoted, i % 90, i % 100, "yes" if i % 3 else "no"))
    return lines


def main():
    total_cents = 0
    yes = 0
    name_chars = 0
    for line in make_lines(40000):
        f = split_line(line)
        whole, frac = f[2].split(".")
        total_cents += int(whole) * 100 + int(frac)
        if f[3] == "yes":
            yes += 1
        name_chars += len(f[1])
    print("cents", total_cents, "yes", yes, "name_chars", name_chars)


if __name__ == "__main__":
    main()
