# Validates generated email addresses by hand (no regex): local-part and domain rules checked character by character, with per-reason rejection counts.

LOCAL_OK = set("abcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?^_`{|}~-")
LABEL_OK = set("abcdefghijklmnopqrstuvwxyz0123456789-")
PIECES = ["john", "a.b", "x..y", ".lead", "trail.", "mary+tag", "o'neil", "sp ace",
          "UPPER", "q_z", "", "very.long.name.with.dots", "a@b", "num123"]
DOMAINS = ["example.com", "mail.example.org", "-bad.net", "bad-.net", "nodot",
           "a.b.c.d.io", "x..com", "123.45", "Sub.Domain.COM", "toolong" * 10 + ".com",
           "ok-dash.co.uk", ".lead.com"]


def check_local(local):
    if not local:
        return "local-empty"
    if len(local) > 64:
        return "local-long"
    if local[0] == "." or local[-1] == ".":
        return "local-dot-edge"
    prev = ""
    for ch in local.lower():
        if ch not in LOCAL_OK:
            return "local-char"
        if ch == "." and prev == ".":
            return "local-double-dot"
        prev = ch
    return None


def check_domain(domain):
    if len(domain) > 253:
        return "domain-long"
    labels = domain.lower().split(".")
    if len(labels) < 2:
        return "domain-no-dot"
    for label in labels:
        if not label:
            return "domain-empty-label"
        if len(label) > 63:
            return "label-long"
        if label[0] == "-" or label[-1] == "-":
            return "label-dash-edge"
        for ch in label:
            if ch not in LABEL_OK:
                return "label-char"
    if labels[-1].isdigit():
        return "tld-numeric"
    return None


def validate(address):
    at = address.rfind("@")
    if at < 0:
        return "no-at"
    reason = check_local(address[:at])
    if reason is not None:
        return reason
    return check_domain(address[at + 1:])


def addresses(count):
    seed = 7
    for i in range(count):
        seed = (seed * 69069 + 1) % 4294967296
        local = PIECES[seed % len(PIECES)]
        domain = DOMAINS[(seed >> 8) % len(DOMAINS)]
        sep = "@" if (seed >> 16) % 11 else ""
        yield local + str(i % 3 if (seed >> 20) % 2 else "") + sep + domain


def main():
    reasons = {}
    valid = 0
    digest = 0
    for addr in addresses(40000):
        reason = validate(addr)
        if reason is None:
            valid += 1
            digest = (digest * 33 + len(addr)) % 1000000007
        else:
            reasons[reason] = reasons.get(reason, 0) + 1
    print("valid", valid)
    for key in sorted(reasons):
        print(key, reasons[key])
    print("checksum", (digest + sum(len(k) * v for k, v in reasons.items())) % 1000000007)


main()
