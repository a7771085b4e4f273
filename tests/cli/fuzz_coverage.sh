#!/bin/bash
# Rule coverage in campaign summaries (#29 item 1): the text summary says
# how many rules and bounds branches fired and names those that never did;
# --json gives every rule's and branch's count and the never-fired lists,
# summed over the workers; with the bounds pass off no bounds branch is
# taken.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$J" fuzz --count 40 --seed 5 --no-heap --out "$D/a" >"$D/a.out" 2>"$D/a.err"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "campaign exit $rc: $(cat "$D/a.err")"
grep -Eq "^rule coverage over 40 optimized traces: [0-9]+ of [0-9]+ rules, [0-9]+ of [0-9]+ bounds branches fired$" "$D/a.out" ||
	fail "no coverage line in the summary: $(cat "$D/a.out")"
grep -q "^  rules never fired: " "$D/a.out" || fail "no never-fired rules line"
grep -q "^  branches never taken: " "$D/a.out" || fail "no never-taken branches line"
# Integer traces only: the heap rules never fire, and are named.
sed -n '/rules never fired/,/branches never taken/p' "$D/a.out" | grep -q "heap.forward" ||
	fail "heap.forward fired on integer traces"

# JSON, two workers: the counts add up over both.
"$J" fuzz --count 40 --seed 5 --no-heap --jobs 2 --json --out "$D/b" >"$D/b.json" 2>"$D/b.err"
python3 - "$D/b.json" <<'PY' || fail "--json coverage is not as expected"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["coverage"]
assert c["traces"] == d["traces"] == 40, (c["traces"], d["traces"])
rules, br = c["rules"], c["branches"]
assert len(rules) >= 30 and "bounds.div" in rules and "heap.dead-store" in rules
assert "fwd.add.wrap-split" in br and "rw.mod-identity" in br
assert sorted(c["rules_never_fired"]) == sorted(k for k, v in rules.items() if v == 0)
assert sorted(c["branches_never_taken"]) == sorted(k for k, v in br.items() if v == 0)
# 40 random integer traces always add, compare and guard.
assert rules["bounds.fwd-additive"] > 0 and br["cmp.undecided"] > 0
PY

# The bounds pass off: no bounds branch is taken.
"$J" fuzz --count 20 --seed 5 --no-heap --passes fold,simplify,cse,dce --json \
	--out "$D/c" >"$D/c.json" 2>"$D/c.err"
python3 - "$D/c.json" <<'PY' || fail "bounds branches counted with the bounds pass off"
import json, sys
c = json.load(open(sys.argv[1]))["coverage"]
assert c["traces"] == 20
assert all(v == 0 for v in c["branches"].values()), c["branches"]
assert c["rules"]["fold.op"] + c["rules"]["simplify.additive"] > 0
PY
echo "fuzz_coverage: ok"
