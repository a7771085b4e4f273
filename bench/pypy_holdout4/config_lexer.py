# State machine over characters parsing "key = value;" config text (errors raise).

class ParseError(Exception):
    pass


def parse_entries(text):
    entries = {}
    state = "key"
    key = []
    value = []
    for ch in text:
        if state == "key":
            if ch == "=":
                state = "value"
            elif ch.isalnum() or ch == "_":
                key.append(ch)
            elif ch not in " \n":
                raise ParseError("bad key char %r" % ch)
        elif state == "value":
            if ch == ";":
                entries["".join(key)] = "".join(value).strip()
                key, value, state = [], [], "key"
            elif ch == '"':
                state = "quoted"
            else:
                value.append(ch)
        else:
            if ch == '"':
                state = "value"
            else:
                value.append(ch)
    if state != "key" or key:
        raise ParseError("unterminated entry")
    return entries


def make_doc(i):
    parts = ["name%d = item_%d;" % (j, i * j) for j in range(4)]
    parts.append('title = "hello; world %d";' % i)
    if i % 5 == 0:
        parts.append("bro-ken = 1;")
    elif i % 7 == 0:
        parts.append("tail = 3")
    return " ".join(parts)


def main():
    ok = failed = total_keys = 0
    for i in range(90000):
        try:
            total_keys += len(parse_entries(make_doc(i)))
            ok += 1
        except ParseError:
            failed += 1
    print("ok=%d failed=%d keys=%d" % (ok, failed, total_keys))


main()
