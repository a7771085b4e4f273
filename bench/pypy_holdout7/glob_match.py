# A tiny glob matcher supporting *, ? and [abc] classes, run over generated file names.


def match(pat, s):
    pi = si = 0
    star_pi = -1
    star_si = 0
    np, ns = len(pat), len(s)
    while si < ns:
        if pi < np:
            c = pat[pi]
            if c == "*":
                star_pi = pi
                star_si = si
                pi += 1
                continue
            if c == "[":
                end = pat.index("]", pi)
                if s[si] in pat[pi + 1:end]:
                    pi = end + 1
                    si += 1
                    continue
            elif c == "?" or c == s[si]:
                pi += 1
                si += 1
                continue
        if star_pi >= 0:
            star_si += 1
            si = star_si
            pi = star_pi + 1
            continue
        return False
    while pi < np and pat[pi] == "*":
        pi += 1
    return pi == np


def main():
    stems = ["data", "log", "img", "report", "cache", "tmp"]
    exts = ["txt", "csv", "png", "log", "py"]
    patterns = ["*.txt", "log*", "img_??.png", "*[0-3].csv", "r*t_*.py", "*a*e*"]
    names = []
    for i in range(400):
        names.append("%s_%02d.%s" % (stems[i % 6], i % 97, exts[(i * 7) % 5]))
    hits = [0] * len(patterns)
    for rep in range(60):
        for name in names:
            for j, pat in enumerate(patterns):
                if match(pat, name):
                    hits[j] += 1
    print("hits", " ".join("%s=%d" % (p, h) for p, h in zip(patterns, hits)))


if __name__ == "__main__":
    main()
