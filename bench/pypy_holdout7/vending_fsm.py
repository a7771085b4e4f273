# A vending machine state machine driven by a dict of (state, event) -> (state, action) transitions.

TRANSITIONS = {
    ("idle", "coin"): ("paid", "accept"),
    ("idle", "button"): ("idle", "beep"),
    ("idle", "refund"): ("idle", "none"),
    ("paid", "coin"): ("paid", "accept"),
    ("paid", "button"): ("vending", "dispense"),
    ("paid", "refund"): ("idle", "return"),
    ("vending", "coin"): ("vending", "reject"),
    ("vending", "button"): ("vending", "beep"),
    ("vending", "done"): ("idle", "none"),
    ("vending", "refund"): ("vending", "reject"),
}

EVENTS = ["coin", "coin", "button", "refund", "done", "button", "coin", "done"]


def run(steps, seed):
    state = "idle"
    credit = 0
    sold = 0
    returned = 0
    counts = {}
    for _ in range(steps):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        event = EVENTS[(seed >> 8) % len(EVENTS)]
        key = (state, event)
        if key not in TRANSITIONS:
            counts["ignored"] = counts.get("ignored", 0) + 1
            continue
        state, action = TRANSITIONS[key]
        counts[action] = counts.get(action, 0) + 1
        if action == "accept":
            credit += 25
        elif action == "dispense":
            if credit >= 50:
                credit -= 50
                sold += 1
            else:
                state = "paid"
        elif action == "return":
            returned += credit
            credit = 0
    return sold, returned, credit, counts


def main():
    sold, returned, credit, counts = run(300000, 42)
    items = sorted(counts.items())
    print("sold", sold, "returned", returned, "credit", credit)
    print(" ".join("%s:%d" % kv for kv in items))


if __name__ == "__main__":
    main()
