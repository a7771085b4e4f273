#!/bin/bash
# Every reduced regression the fuzzer found (corpus/regressions/NAME/):
# the recorded pair gives the verdict of its expect file (unknown for a
# false counterexample fixed by not confirming it), and the original,
# optimized by today's optimizer, is proved.  A regression with a file
# "open" is a bug not fixed yet: its original must still fail (and the
# test says so when it no longer does).  Its options file, when there is
# one, is read as check_corpus.sh reads it.  A file "no-reduce" (with its
# reason) skips the second step.
set -u
J=$(realpath "${JITPROVE:?set JITPROVE to the jitprove binary}")
SRC=${JP_SRC:-.}
fail() { echo "FAIL: $*" >&2; exit 1; }
n=0
for d in "$SRC"/corpus/regressions/*/; do
	[ -f "$d/orig.trace" ] || continue
	n=$((n + 1))
	want=$(grep -v '^#' "$d/expect" | grep -Eo 'proved|counterexample|unknown' | head -1)
	fa=
	grep -q '^failargs' "$d/expect" && fa=--failargs
	# a pair in PyPy's vocabulary has an options file (--opaque ...);
	# the reduction takes only --opaque of it
	opts=() op=()
	[ -f "$d/options" ] && read -r -a opts <"$d/options"
	for o in "${opts[@]}"; do [ "$o" = --opaque ] && op=(--opaque); done
	"$J" check $fa "${opts[@]}" "$d/orig.trace" "$d/opt.trace" >/dev/null
	rc=$?
	case "$want:$rc" in
	proved:0 | counterexample:1 | unknown:3) ;;
	*) fail "$d: recorded pair gives exit $rc, expected $want" ;;
	esac
	# a verifier regression whose original no optimizer's output can be
	# proved against says why in its file "no-reduce"
	if [ -f "$d/no-reduce" ]; then
		[ -s "$d/no-reduce" ] || fail "$d: no-reduce gives no reason"
		continue
	fi
	"$J" reduce --failargs "${op[@]}" "$d/orig.trace" >"${TMPDIR:-/tmp}/reg.$$" 2>&1
	rc=$?
	if [ -f "$d/open" ]; then
		[ "$rc" = 0 ] && echo "note: $d is fixed: delete $d/open"
		[ "$rc" = 1 ] || [ "$rc" = 0 ] ||
			fail "$d: open bug gives exit $rc, expected 1"
	elif [ "$rc" != 0 ]; then
		cat "${TMPDIR:-/tmp}/reg.$$" >&2
		rm -f "${TMPDIR:-/tmp}/reg.$$"
		fail "$d: today's optimizer still miscompiles it (exit $rc)"
	fi
	rm -f "${TMPDIR:-/tmp}/reg.$$"
done
[ "$n" -gt 0 ] || fail "no regressions found under $SRC/corpus/regressions"
echo "fuzz_regressions: $n ok"
