#!/usr/bin/env bash
# labels: pypy slow
# A real PyPy end to end: small Python programs of this test's own (integer
# loops, objects, lists, strings, dicts, floats, exceptions) run under
# pypy3 with PYPYLOG=jit-log-noopt,jit-log-opt, and jitprove log checks
# every loop and bridge PyPy compiled: no error, no counterexample, and
# every pair not proved has a reason; the proved share is printed.
# Skipped (77) where pypy3 is not installed (run.sh installs it).
set -u
command -v pypy3 >/dev/null 2>&1 || { echo "pypy3 not installed: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
cat >"$tmp/ints.py" <<'PY'
def f(n):
    s = 0
    for i in range(n):
        s += (i * 7) & 1023
        if s > 100000:
            s -= 100000
    return s
print(f(30000))
PY
cat >"$tmp/objects.py" <<'PY'
class C(object):
    def __init__(self, v): self.v = v
def f(n):
    c = C(0)
    for i in range(n):
        c = C(c.v + i % 3)
    return c.v
print(f(30000))
PY
cat >"$tmp/lists.py" <<'PY'
def f(n):
    l = [0] * 64
    for i in range(n):
        l[i % 64] += i
    return sum(l)
print(f(30000))
PY
cat >"$tmp/strings.py" <<'PY'
def f(n):
    c = 0
    s = "abcdefghij" * 10
    for i in range(n):
        if s[i % 100] == "c":
            c += 1
    return c
print(f(30000))
PY
cat >"$tmp/dicts.py" <<'PY'
def f(n):
    d = {}
    for i in range(n):
        d[i % 31] = i
    return len(d)
print(f(30000))
PY
cat >"$tmp/floats.py" <<'PY'
def f(n):
    x = 1.0
    for i in range(n):
        x = x * 0.999 + 1.0
    return x
print(f(30000))
PY
cat >"$tmp/exceptions.py" <<'PY'
def f(n):
    c = 0
    for i in range(n):
        try:
            if i % 7 == 0:
                raise KeyError(i)
            c += 1
        except KeyError:
            c += 2
    return c
print(f(30000))
PY
logs=()
for p in "$tmp"/*.py; do
  log="${p%.py}.log"
  if ! PYPYLOG=jit-log-noopt,jit-log-opt:"$log" pypy3 "$p" >/dev/null 2>"$tmp/err"; then
    echo "FAIL pypy3 $p: $(cat "$tmp/err")"; fail=$((fail + 1)); continue
  fi
  logs+=("$log")
done
"$JITPROVE" log --json "${logs[@]}" >"$tmp/out.json" 2>"$tmp/log.err"; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { echo "FAIL jitprove log exit $rc: $(cat "$tmp/log.err")"; fail=$((fail + 1)); }
python3 - "$tmp/out.json" <<'PY' || fail=$((fail + 1))
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
# (the summary also counts proved pairs by what they assume: not pairs)
n = sum(s[k] for k in ("proved", "unknown", "counterexample", "error"))
print("pypy: %d pairs: %d proved (%.0f%%), %d unknown, %d counterexample, %d error"
      % (n, s["proved"], 100.0 * s["proved"] / max(n, 1), s["unknown"],
         s["counterexample"], s["error"]))
bad = [t for t in d["traces"] if t["verdict"] in ("counterexample", "error")
       or (t["verdict"] != "proved" and not t["reason"])]
for t in bad:
    print("FAIL", t)
assert n > 0, "no pairs: PyPy compiled nothing?"
assert not bad
PY
echo "log_pypy: $fail failed"
[ $fail -eq 0 ]
