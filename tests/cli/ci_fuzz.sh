#!/usr/bin/env bash
# labels: slow
# The fuzz smoke of jitprove ci: a clean campaign passes and shows up as a
# JUnit testcase; a campaign against an optimizer with an injected bug
# fails the run (exit 1) and names the saved bundle.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$JITPROVE" ci tests/ci-cases/mixed/proved --fuzz-seconds 2 --fuzz-out "$tmp/clean" \
  --junit "$tmp/clean.xml" --json "$tmp/clean.json" >"$tmp/clean.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then echo "FAIL: clean campaign: exit $rc"; cat "$tmp/clean.out"; fail=1; fi
# seed 1 hits uint-signed-cmp twice within its first six traces (with the
# generator of this commit; re-check when the generator changes); 20 s
# leaves room for a loaded machine at ~1 trace/s.
"$JITPROVE" ci tests/ci-cases/mixed/proved --fuzz-seconds 20 --fuzz-inject uint-signed-cmp \
  --fuzz-out "$tmp/buggy" --junit "$tmp/buggy.xml" --json "$tmp/buggy.json" >"$tmp/buggy.out" 2>&1
rc=$?
if [ "$rc" -ne 1 ]; then echo "FAIL: campaign with an injected bug: exit $rc, expected 1"; cat "$tmp/buggy.out"; fail=1; fi
if ! head -n 1 "$tmp/buggy.out" | grep -q '^FAIL     fuzz smoke'; then
  echo "FAIL: the fuzz failure is not listed first"; cat "$tmp/buggy.out"; fail=1
fi
python3 - "$tmp" <<'PY' || fail=1
import json, os, sys
import xml.etree.ElementTree as ET
tmp = sys.argv[1]
fails = []
for name, bad in (("clean", False), ("buggy", True)):
    root = ET.parse(f"{tmp}/{name}.xml").getroot()
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    fz = suites.get("fuzz smoke")
    if fz is None or len(fz.findall("testcase")) != 1:
        fails.append(f"{name}: no fuzz smoke testsuite with one testcase")
        continue
    f = fz.find("testcase/failure")
    if (f is not None) != bad:
        fails.append(f"{name}: fuzz failure element present={f is not None}")
    j = json.load(open(f"{tmp}/{name}.json"))["fuzz"]
    if j is None or j["traces"] < 1:
        fails.append(f"{name}: JSON has no fuzz section or no traces")
    elif bad:
        if j["distinct_failures"] < 1:
            fails.append("buggy: no distinct failure")
        elif not any(os.path.isdir(os.path.join(tmp, "buggy", "findings", d))
                     for d in os.listdir(os.path.join(tmp, "buggy", "findings"))):
            fails.append("buggy: no saved bundle")
for f in fails:
    print("FAIL", f)
sys.exit(1 if fails else 0)
PY
echo "ci_fuzz: $([ $fail -eq 0 ] && echo passed || echo FAILED)"
[ "$fail" -eq 0 ]
