# An event dispatcher that maps event names to lists of closures capturing per-handler counters.


def make_counter(step):
    state = [0]

    def handler(payload):
        state[0] += payload * step
        return state[0]
    return handler, state


def make_threshold(limit, log):
    hits = [0]

    def handler(payload):
        if payload > limit:
            hits[0] += 1
            log.append(payload - limit)
        return hits[0]
    return handler, hits


def events(seed, n):
    names = ("click", "scroll", "key", "resize")
    for _ in range(n):
        seed = (seed * 69069 + 5) % 4294967296
        yield names[seed % 4], (seed >> 12) % 100


def main():
    log = []
    registry = {}
    states = []
    for i, name in enumerate(("click", "scroll", "key", "resize", "click", "key")):
        h, st = make_counter(i + 1)
        registry.setdefault(name, []).append(h)
        states.append(st)
    for name, limit in (("scroll", 80), ("key", 50), ("click", 95)):
        h, st = make_threshold(limit, log)
        registry[name].append(h)
        states.append(st)
    last = 0
    for name, payload in events(11, 400000):
        for h in registry[name]:
            last = h(payload)
        if len(log) > 1000:
            del log[:900]
    print("states", [s[0] for s in states], "last", last, "log", len(log), sum(log))


if __name__ == "__main__":
    main()
