#!/usr/bin/env bash
# Report paths (fd_write_path, ir/fdio.h): jitprove ci writes --json,
# --junit and --sarif in place when the path is not a regular file (a FIFO
# reader gets the whole report, a device stays a device, /dev/stdout and
# bash's >(...) work, '-' is standard output), replaces a symlink's target
# and keeps the link, and a write error is exit 2 with the reason.  The
# same writer serves `jitprove reduce --out`.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
case=$JP_SRC/corpus/pairs/const_fold
ci() { "$JITPROVE" ci "$case" "$@"; }
valid_json() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"; }

# a FIFO: the reader gets the whole report; the FIFO stays a FIFO
# (a writer that replaces the FIFO never opens it: the reader is then
# stopped after 60 s instead of waiting for ever)
mkfifo "$tmp/fifo"
timeout 60 cat "$tmp/fifo" > "$tmp/from-fifo" &
reader=$!
ci --json "$tmp/fifo" >/dev/null 2>"$tmp/err" || bad "ci --json FIFO: exit $?: $(cat "$tmp/err")"
wait "$reader"
valid_json "$tmp/from-fifo" || bad "the FIFO reader got no valid JSON ($(wc -c <"$tmp/from-fifo") bytes)"
[ -p "$tmp/fifo" ] || bad "the FIFO was replaced"

# a symlink: its target is replaced, the link stays
echo old > "$tmp/target.xml"
ln -s target.xml "$tmp/link.xml"
ci --junit "$tmp/link.xml" >/dev/null 2>&1 || bad "ci --junit symlink: exit $?"
[ -L "$tmp/link.xml" ] || bad "the symlink became a regular file"
grep -q '<testsuites' "$tmp/target.xml" || bad "the symlink's target kept its old content"

# standard output as /dev/fd/1 and as '-' into a pipe, and bash's process
# substitution.  (/dev/stdout is in tests/test_fdio.c: a writer that renames
# would replace it, run as root; one that renames over /dev/fd/1 fails, and
# '-' would become a file in this temporary directory.)
cd "$tmp"
ci --json /dev/fd/1 2>/dev/null | grep -q '"summary"' || bad "ci --json /dev/fd/1: no JSON on the pipe"
ci --sarif - 2>/dev/null | grep -q '"version": *"2.1.0"' || bad "ci --sarif -: no SARIF on standard output"
[ -e "$tmp/-" ] && bad "ci --sarif - wrote a file named '-'"
ci --json >(cat > "$tmp/subst.json") >/dev/null 2>&1 || bad "ci --json >(...): exit $?"
wait $!
valid_json "$tmp/subst.json" || bad "ci --json >(...) wrote no valid JSON"

# a device that fails writes (a private node like /dev/full): exit 2 with
# the reason, and the node stays a device
if mknod "$tmp/full" c 1 7 2>/dev/null; then
  ci --json "$tmp/full" >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] || bad "ci --json to a full device: exit $rc, expected 2"
  grep -q "cannot write '$tmp/full': No space left on device" "$tmp/err" ||
    bad "no write error message: $(cat "$tmp/err")"
  [ -c "$tmp/full" ] || bad "the device node was replaced"
else
  echo "mknod not allowed: the full-device case is skipped"
fi

# a directory: exit 2 before any case is checked (the option check of
# tools/cli.c), saying it found a directory
mkdir "$tmp/adir"
ci --json "$tmp/adir" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || bad "ci --json DIR: exit $rc, expected 2"
grep -q "found the directory" "$tmp/err" || bad "ci --json DIR: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && bad "ci --json DIR: cases were checked: $(head -2 "$tmp/out")"

# a regular file is replaced, keeping its mode, with no temporary left
echo old > "$tmp/r.json"; chmod 640 "$tmp/r.json"
ci --json "$tmp/r.json" >/dev/null 2>&1 || bad "ci --json FILE: exit $?"
valid_json "$tmp/r.json" || bad "ci --json FILE: not JSON"
[ "$(stat -c %a "$tmp/r.json")" = 640 ] || bad "mode not kept: $(stat -c %a "$tmp/r.json")"
ls "$tmp" | grep -q '\.tmp-' && bad "a temporary file was left: $(ls "$tmp")"

# jitprove reduce --out goes through the same writer: a symlink stays
echo old > "$tmp/red-target.trace"
ln -s red-target.trace "$tmp/red-link.trace"
"$JITPROVE" reduce "$JP_SRC/corpus/bugs/neg-minint/orig.trace" --inject neg-minint \
  --out "$tmp/red-link.trace" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] || bad "reduce --out symlink: exit $rc, expected 1 (a failure kept)"
[ -L "$tmp/red-link.trace" ] || bad "reduce --out: the symlink became a regular file"
grep -q '^# reduced' "$tmp/red-target.trace" || bad "reduce --out: the target kept its old content"

[ "$fail" -eq 0 ] && echo "ci_report_paths: ok"
exit "$fail"
