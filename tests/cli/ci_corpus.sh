#!/usr/bin/env bash
# labels: slow
# The project's own corpus replayed through jitprove ci: every case under
# corpus/ states its expectation (or must be proved), so the run must exit 0.
# Known-bad reproducers (expect: counterexample) must stay refuted; a
# regression that starts failing, or a case that becomes unknown, fails here.
set -u
paths=()
for d in corpus/regressions corpus/bugs corpus/pairs corpus/examples; do
  [ -d "$d" ] && paths+=("$d")
done
if [ ${#paths[@]} -eq 0 ]; then echo "FAIL: no corpus directories"; exit 1; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$JITPROVE" ci "${paths[@]}" --jobs 2 --timeout-ms 120000 --json "$tmp/r.json" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "FAIL: jitprove ci ${paths[*]}: exit $rc, expected 0"; cat "$tmp/out"; exit 1
fi
n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["cases"])' "$tmp/r.json")
if [ "$n" -lt 1 ]; then echo "FAIL: no cases found in ${paths[*]}"; exit 1; fi
tail -n 1 "$tmp/out"
# Every shipped case that calls the solver carries a resource limit (an
# rlimit in its options or expect file), so its verdict does not depend on
# the machine's load; wall-clock limits flaked here (docs/ci.md, "Limits").
python3 - "$tmp/r.json" <<'PY' || exit 1
import json, os, re, sys
bad = []
for c in json.load(open(sys.argv[1]))["cases"]:
    if not c["solver_calls"]:
        continue
    files = [c["expect_file"]] if c["expect_file"] else []
    if c["kind"] == "pair":
        files.append(os.path.join(c["name"], "options"))
    else:
        files.append(re.sub(r"\.trace$", ".expect", c["name"]))
    text = "".join(open(f).read() for f in files if os.path.isfile(f))
    if not re.search(r"(^|\s)(--)?rlimit\s+[1-9]", text):
        bad.append(c["name"])
for n in bad:
    print("FAIL: %s calls the solver but sets no rlimit" % n)
sys.exit(1 if bad else 0)
PY
