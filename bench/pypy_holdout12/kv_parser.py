# An exception-heavy parser of generated "key=value" config lines: typed coercion with fallbacks, a generator of lines, and per-error-kind tallies.


class ParseError(Exception):
    def __init__(self, kind, lineno):
        Exception.__init__(self, kind)
        self.kind = kind
        self.lineno = lineno


KEYS = ["port", "ratio", "name", "debug", "retries", "path", "timeout"]


def gen_lines(n, seed):
    state = seed
    for i in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        key = KEYS[state % 7]
        r = (state >> 7) % 20
        if r == 0:
            yield "# comment %d" % i
        elif r == 1:
            yield "   "
        elif r == 2:
            yield key + " " + str(r)
        elif r == 3:
            yield "=%d" % r
        elif r < 9:
            yield "%s = %d" % (key, (state >> 11) % 70000)
        elif r < 12:
            yield "%s=%d.%d" % (key, (state >> 11) % 100, (state >> 4) % 10)
        elif r < 15:
            yield "%s=%s" % (key, ("yes", "no", "true", "off")[(state >> 12) % 4])
        else:
            yield "%s= word%d " % (key, (state >> 13) % 50)


def split_line(line, lineno):
    text = line.strip()
    if not text or text[0] == "#":
        return None
    eq = text.find("=")
    if eq < 0:
        raise ParseError("no_equals", lineno)
    key = text[:eq].strip()
    if not key:
        raise ParseError("empty_key", lineno)
    return key, text[eq + 1:].strip()


def coerce(key, raw, lineno):
    if key in ("port", "retries"):
        try:
            v = int(raw)
        except ValueError:
            raise ParseError("not_int", lineno)
        if key == "port" and not (0 < v < 65536):
            raise ParseError("range", lineno)
        return v
    if key in ("ratio", "timeout"):
        try:
            return float(raw)
        except ValueError:
            raise ParseError("not_float", lineno)
    if key == "debug":
        low = raw.lower()
        if low in ("yes", "true", "on", "1"):
            return True
        if low in ("no", "false", "off", "0"):
            return False
        raise ParseError("not_bool", lineno)
    return raw


def parse(lines):
    config = {}
    errors = {}
    last_error = 0
    for lineno, line in enumerate(lines, 1):
        try:
            pair = split_line(line, lineno)
            if pair is None:
                continue
            key, raw = pair
            config[key] = coerce(key, raw, lineno)
        except ParseError as e:
            errors[e.kind] = errors.get(e.kind, 0) + 1
            last_error = e.lineno
    return config, errors, last_error


def main():
    total_errors = 0
    ints = 0
    floats = 0.0
    for seed in (1, 2, 3):
        config, errors, last = parse(gen_lines(40000, seed))
        total_errors += sum(errors.values())
        ints += config.get("port", 0) if isinstance(config.get("port"), int) else 0
        t = config.get("timeout", 0.0)
        floats += t if isinstance(t, float) else 0.0
        print("seed=%d keys=%d errors=%s last=%d" % (seed, len(config), sorted(errors.items()), last))
    print("total_errors=%d ints=%d floats=%.1f" % (total_errors, ints, floats))


main()
