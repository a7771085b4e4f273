#!/usr/bin/env bash
# The reports of jitprove ci: the JUnit file parses as XML with the right
# counts and elements, the SARIF file validates against the SARIF 2.1.0
# schema shipped in tests/sarif-schema-2.1.0.json (python3-jsonschema) and
# locates every refutation at the failing line, the JSON report has
# everything.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
C=tests/ci-cases
if ! python3 -c 'import jsonschema' 2>/dev/null; then
  echo "FAIL: python3-jsonschema is missing (apt-get install python3-jsonschema; run.sh installs it)"
  exit 1
fi
"$JITPROVE" ci "$C/mixed" "$C/failing" "$C/broken" --junit "$tmp/a.xml" \
  --sarif "$tmp/a.sarif" --json "$tmp/a.json" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -ne 1 ]; then echo "FAIL: exit $rc, expected 1"; cat "$tmp/out"; exit 1; fi
"$JITPROVE" ci "$C/mixed" --max-unknown 1 --junit "$tmp/b.xml" \
  --sarif "$tmp/b.sarif" --sarif-root "$C" >/dev/null 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then echo "FAIL: second run: exit $rc, expected 0"; exit 1; fi

# The counterexample is the one `jitprove check` prints for the pair.
"$JITPROVE" check "$C/failing/miscompiled/orig.trace" "$C/failing/miscompiled/opt.trace" >"$tmp/check.out" 2>&1

python3 - "$tmp" "$JP_SRC/tests/sarif-schema-2.1.0.json" <<'PY'
import json, os, sys
import xml.etree.ElementTree as ET
import jsonschema

tmp, schema_path = sys.argv[1], sys.argv[2]
fails = []
def check(cond, what):
    if not cond:
        fails.append(what)

# ---- JUnit ----
def junit(path):
    root = ET.parse(path).getroot()
    check(root.tag == "testsuites", f"{path}: root is {root.tag}")
    cases = root.findall("./testsuite/testcase")
    for tc in cases:
        for attr in ("name", "classname", "time"):
            check(attr in tc.attrib, f"testcase without {attr}: {tc.attrib}")
        float(tc.get("time"))
        for el in tc.findall("failure") + tc.findall("error"):
            check(el.get("message") and el.get("type"),
                  f"{el.tag} without message/type in {tc.get('name')}")
            check((el.text or "").strip() != "", f"{el.tag} without a body")
    check(not root.findall(".//skipped"), "a <skipped> element")
    # Totals agree with the elements, at both levels.
    for node, sub in [(root, cases)] + [(s, s.findall("testcase")) for s in root.findall("testsuite")]:
        f = sum(len(tc.findall("failure")) for tc in sub)
        e = sum(len(tc.findall("error")) for tc in sub)
        check(int(node.get("tests")) == len(sub), f"tests= of {node.get('name')}")
        check(int(node.get("failures")) == f, f"failures= of {node.get('name')}")
        check(int(node.get("errors")) == e, f"errors= of {node.get('name')}")
        check(node.get("skipped") == "0", f"skipped= of {node.get('name')}")
    return root, cases

root, cases = junit(f"{tmp}/a.xml")
check(len(cases) == 10, f"a.xml: {len(cases)} testcases, expected 10")
check(root.get("failures") == "2", f"a.xml failures={root.get('failures')}, expected 2 (miscompiled, unknown over budget)")
check(root.get("errors") == "1", f"a.xml errors={root.get('errors')}, expected 1")
names = [s.get("name") for s in root.findall("testsuite")]
check(names == ["tests/ci-cases/mixed", "tests/ci-cases/failing", "tests/ci-cases/broken"], f"suites {names}")
by = {(tc.get("classname"), tc.get("name")): tc for tc in cases}
mis = by.get(("tests.ci-cases.failing", "miscompiled"))
check(mis is not None and mis.find("failure").get("type") == "miscompilation", "miscompiled: failure type")
check(mis is not None and "int_sub(i1, i0)" in mis.find("failure").text, "miscompiled: counterexample in the body")
unk = by.get(("tests.ci-cases.mixed", "unknown"))
check(unk is not None and unk.find("failure").get("type") == "unknown", "unknown over budget: failure type")
bad = by.get(("tests.ci-cases.broken", "bad.trace"))
check(bad is not None and "bad.trace:2:6" in bad.find("error").get("message"), "broken: located error")
root, cases = junit(f"{tmp}/b.xml")
check(root.get("failures") == "0" and root.get("errors") == "0", "b.xml: unknown within budget is no failure")

# ---- SARIF ----
schema = json.load(open(schema_path))
jsonschema.Draft4Validator.check_schema(schema)
v = jsonschema.Draft4Validator(schema)
report = json.load(open(f"{tmp}/a.json"))
refuted = [c for c in report["cases"] if c["verdict"] == "counterexample"]
check(len(refuted) == 4, f"{len(refuted)} refutations in the JSON report, expected 4")
for name, base in (("a.sarif", ""), ("b.sarif", "tests/ci-cases/")):
    doc = json.load(open(f"{tmp}/{name}"))
    errs = sorted(v.iter_errors(doc), key=str)
    check(not errs, f"{name} is not valid SARIF 2.1.0: " + "; ".join(e.message for e in errs[:3]))
    run = doc["runs"][0]
    rules = [x["id"] for x in run["tool"]["driver"]["rules"]]
    check(rules == ["jitprove/miscompilation", "jitprove/unknown"], f"{name}: rules {rules}")
    # The unknown that fails the gate (a.sarif) or is within the budget
    # (b.sarif) is a result too: kind open, level none (SARIF 2.1.0,
    # 3.27.10), pointing at the case's file.
    unk = [r for r in run["results"] if r["ruleId"] == "jitprove/unknown"]
    check(len(unk) == 1, f"{name}: {len(unk)} unknown results, expected 1")
    for r in unk:
        check(r["kind"] == "open" and r["level"] == "none" and r["ruleIndex"] == 1, f"{name}: unknown kind/level {r}")
        check(r["properties"]["case"] == "tests/ci-cases/mixed/unknown", f"{name}: unknown case {r['properties']}")
        over = name == "a.sarif"
        check(r["properties"]["overBudget"] == over, f"{name}: overBudget {r['properties']}")
        check(("fails the gate" in r["message"]["text"]) == over, f"{name}: unknown message {r['message']['text']!r}")
        uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        check(os.path.isfile(base + uri), f"{name}: unknown at {uri}, no file")
    for r in run["results"]:
        check(r.get("kind", "fail") == "fail" or r.get("level", "none") == "none", f"{name}: kind {r.get('kind')} with level {r.get('level')}")
    res = [r for r in run["results"] if r["ruleId"] != "jitprove/unknown"]
    want = len(refuted) - (1 if name == "b.sarif" else 0)
    check(len(res) == want, f"{name}: {len(res)} results, expected {want}")
    for r in res:
        check(r["ruleId"] == "jitprove/miscompilation" and r["level"] == "error", f"{name}: rule/level {r}")
        check(r["message"]["text"].strip() != "", f"{name}: empty message")
        loc = r["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        line = loc["region"]["startLine"]
        check(not uri.startswith("file:") and not uri.startswith("/"), f"{name}: URI not relative: {uri}")
        path = base + uri
        check(os.path.isfile(path), f"{name}: {uri} is no file under the root")
        if os.path.isfile(path):
            text = open(path).read().split("\n")
            op = text[line - 1] if 0 < line <= len(text) else ""
            check("guard" in op or "finish" in op or "jump" in op,
                  f"{name}: {uri}:{line} is not a guard or end op: {op!r}")
    # The unexpected refutation is not suppressed, the expected ones are.
    for r in res:
        case = r["properties"]["case"]
        check(("suppressions" in r) == (r["properties"]["expected"] == "counterexample"),
              f"{name}: suppression of {case}")
    inv = run["invocations"][0]
    check(inv["exitCode"] == (1 if name == "a.sarif" else 0), f"{name}: exitCode")
    notes = inv.get("toolExecutionNotifications", [])
    check(len(notes) == (1 if name == "a.sarif" else 0), f"{name}: {len(notes)} notifications")
# The validator does reject documents that break the schema.
doc = json.load(open(f"{tmp}/a.sarif"))
del doc["runs"][0]["results"][0]["message"]
check(list(v.iter_errors(doc)), "a result without message passed the schema")
doc = json.load(open(f"{tmp}/a.sarif"))
doc["runs"][0]["results"][0]["level"] = "fatal"
check(list(v.iter_errors(doc)), "level 'fatal' passed the schema")
doc = json.load(open(f"{tmp}/a.sarif"))
doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
check(list(v.iter_errors(doc)), "startLine 0 passed the schema")

# ---- JSON ----
s = report["summary"]
check((s["cases"], s["passed"], s["failed"], s["errors"], s["unknown"]) == (10, 7, 1, 1, 1), f"summary {s}")
check(report["exit_code"] == 1 and report["overall"] == "failed", "exit_code/overall")
mis = [c for c in report["cases"] if c["name"] == "tests/ci-cases/failing/miscompiled"][0]
check(mis["location"] == {"file": "tests/ci-cases/failing/miscompiled/opt.trace", "line": 3}, f"location {mis['location']}")
check(mis["verifier"]["verdict"] == "counterexample", "embedded verifier result")
check(mis["status"] == "fail" and mis["expected"] == "proved", "miscompiled status")
check(mis["counterexample"].strip() in open(f"{tmp}/check.out").read(),
      "the counterexample differs from jitprove check's")

for f in fails:
    print("FAIL", f)
print(f"ci_reports: {len(fails)} failed checks")
sys.exit(1 if fails else 0)
PY
