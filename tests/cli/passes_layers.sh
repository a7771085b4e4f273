#!/bin/bash
# The optimizer's layering (docs/optimizer.md, "Framework and passes"):
# passes/opt.c is the framework and every pass -- a file that defines an
# opt_<name>_hooks table -- is a leaf.  Read off the symbol tables of the
# built passes library:
#   - a pass calls no function defined in another pass file;
#   - the framework reaches a pass only through its hooks table;
#   - the other files (bounds.c, intdiv.c: libraries the passes share)
#     call neither a pass nor the framework.
# A self-test first shows that the check catches each kind of violation
# (the opt.c -> virtualize.c -> heapcache.c -> opt.c circle this rule
# removed).  Usage: passes_layers.sh [LIBRARY.a]
set -u
LIB=${1:-${JP_BUILD:?set JP_BUILD to the build directory}/libjp_passes.a}
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v nm >/dev/null || { echo "SKIP: nm not found"; exit 77; }
[ -f "$LIB" ] || fail "no library $LIB"

# Reads `nm -A` lines on stdin; prints one line per violation, exits 1
# when there is any.
check() {
	python3 -c '
import re, sys
defined, used = {}, {}
for line in sys.stdin:
    parts = line.rstrip("\n").split(":", 2)
    if len(parts) < 3:
        continue
    obj, rest = parts[1], parts[2].split()
    if len(rest) < 2:
        continue
    kind, sym = rest[-2], rest[-1]
    if kind == "U":
        used.setdefault(obj, set()).add(sym)
    elif kind in "TDRBC":
        defined[sym] = obj
passes = {o for s, o in defined.items() if re.fullmatch(r"opt_\w+_hooks", s)}
framework = "opt.c.o"
bad = []
for obj, syms in sorted(used.items()):
    for s in sorted(syms):
        owner = defined.get(s)
        if owner is None or owner == obj:
            continue
        if obj in passes and owner in passes:
            bad.append(f"pass {obj} calls {s} of pass {owner}")
        elif obj == framework and owner in passes and \
                not re.fullmatch(r"opt_\w+_hooks", s):
            bad.append(f"framework {obj} calls {s} of pass {owner}")
        elif obj != framework and obj not in passes and \
                (owner in passes or owner == framework):
            bad.append(f"library {obj} calls {s} of {owner}")
if not passes:
    bad.append("no pass found (no opt_*_hooks table defined)")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
'
}

# Self-test: the old circle, a framework call into a pass, a library
# calling up.  Each must be reported.
fake() {
	cat <<'EOF'
lib.a:opt.c.o:0000 T opt_get
lib.a:opt.c.o:     U opt_virtualize_hooks
lib.a:opt.c.o:     U opt_heap_hooks
lib.a:virtualize.c.o:0000 R opt_virtualize_hooks
lib.a:heapcache.c.o:0000 R opt_heap_hooks
lib.a:virtualize.c.o:     U opt_get
lib.a:bounds.c.o:0000 T bnd_add
lib.a:heapcache.c.o:     U bnd_add
EOF
}
out=$(fake | check) || fail "a clean layering was reported: $out"
for extra in "lib.a:opt.c.o:     U opt_vrt_get
lib.a:virtualize.c.o:0000 T opt_vrt_get" \
	"lib.a:virtualize.c.o:     U opt_hc_op
lib.a:heapcache.c.o:0000 T opt_hc_op" \
	"lib.a:bounds.c.o:     U opt_get"; do
	if out=$( (fake; echo "$extra") | check); then
		fail "self-test: violation not caught: $extra"
	fi
	echo "self-test caught: $out"
done

out=$(nm -A "$LIB" | check)
rc=$?
[ -n "$out" ] && echo "$out"
[ $rc = 0 ] || fail "the passes library breaks the layering (see above)"
echo "ok: $(nm -A "$LIB" | grep -c '_hooks$' ) hooks symbols; no pass calls another, the framework calls passes only through their hooks"
