# A tiny regex-free template renderer: scans "{{name}}" and "{{name|filter}}" placeholders by hand and fills them from per-record dicts.


class TemplateError(Exception):
    pass


def f_upper(v):
    return v.upper()


def f_title(v):
    return v[:1].upper() + v[1:]


def f_money(v):
    cents = int(v)
    return "%d.%02d" % (cents // 100, cents % 100)


def f_len(v):
    return str(len(v))


FILTERS = {"upper": f_upper, "title": f_title, "money": f_money, "len": f_len}


def compile_template(text):
    parts = []
    pos = 0
    while True:
        start = text.find("{{", pos)
        if start < 0:
            parts.append((0, text[pos:], None))
            return parts
        end = text.find("}}", start + 2)
        if end < 0:
            raise TemplateError("unclosed placeholder at %d" % start)
        parts.append((0, text[pos:start], None))
        inner = text[start + 2:end].strip()
        bar = inner.find("|")
        if bar >= 0:
            name, filt = inner[:bar].strip(), inner[bar + 1:].strip()
            if filt not in FILTERS:
                raise TemplateError("unknown filter " + filt)
            parts.append((1, name, FILTERS[filt]))
        else:
            parts.append((1, inner, None))
        pos = end + 2


def render(parts, context, missing):
    out = []
    for kind, value, filt in parts:
        if kind == 0:
            out.append(value)
            continue
        try:
            v = context[value]
        except KeyError:
            missing[value] = missing.get(value, 0) + 1
            v = ""
        if filt is not None:
            v = filt(str(v))
        out.append(str(v))
    return "".join(out)


def make_records(n, seed):
    names = ["ada", "brook", "cyrus", "dana", "eli", "fern", "gus", "hana"]
    items = ["lamp", "kettle", "rope", "stool", "mug"]
    state = seed
    records = []
    for i in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        rec = {"name": names[state % 8], "item": items[(state >> 5) % 5],
               "qty": 1 + (state >> 9) % 9, "cents": (state >> 12) % 50000}
        if i % 11 == 0:
            del rec["item"]
        records.append(rec)
    return records


def main():
    templates = [
        "Dear {{name|title}}, your {{item}} x{{qty}} costs {{cents|money}}.",
        "{{ name | upper }}:{{item|upper}}:{{qty}}",
        "len={{name|len}} note={{note}} total={{cents}}",
    ]
    compiled = [compile_template(t) for t in templates]
    errors = 0
    for bad in ("oops {{name", "x {{name|shout}} y"):
        try:
            compile_template(bad)
        except TemplateError:
            errors += 1
    missing = {}
    total_len = 0
    h = 0
    for rec in make_records(30000, 5):
        for parts in compiled:
            s = render(parts, rec, missing)
            total_len += len(s)
            for ch in s[-6:]:
                h = (h * 131 + ord(ch)) & 0xFFFFFFF
    print(render(compiled[0], {"name": "zoe", "item": "fan", "qty": 2, "cents": 1999}, {}))
    print("total_len=%d hash=%07x errors=%d missing=%s" % (total_len, h, errors, sorted(missing.items())))


main()
