#!/usr/bin/env bash
# JUnit testcase names are unique: cases a/b/c and a.b/c both map to
# classname "...a.b", name "c" (the directory with '/' as '.'), and
# reporters keyed on classname.name merged them into one.  The second gets
# "c #2", or "c #3" when a case is really named "c #2".
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
src=$JP_SRC/corpus/pairs/const_fold
for d in a/b/c a.b/c "a.b/c #2"; do
  mkdir -p "$tmp/t/$d"; cp "$src/orig.trace" "$src/opt.trace" "$tmp/t/$d/"
done
cd "$tmp"
"$JITPROVE" ci t --junit j.xml >out 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; cat out; exit 1; }
python3 - j.xml <<'PY'
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().findall("./testsuite/testcase")
keys = [(c.get("classname"), c.get("name")) for c in cases]

assert len(cases) == 3, keys
assert len(set(keys)) == 3, f"duplicate JUnit names: {keys}"
# byte order: a/b/c, a.b/c, a.b/c #2 -- the first keeps its name, the
# second is renamed past the real "c #2", which keeps its own
files = [c.get("file") for c in cases]
assert files == ["t/a/b/c/opt.trace", "t/a.b/c/opt.trace", "t/a.b/c #2/opt.trace"], files
assert keys == [("t.a.b", "c"), ("t.a.b", "c #3"), ("t.a.b", "c #2")], keys
PY
