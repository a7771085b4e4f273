#!/usr/bin/env bash
# labels: slow
# jitprove log on corpus/pypy logs that need what the optimized trace
# shows PyPy knew (session 44, json_pretty and nqueens_count of holdout10
# and holdout14): each is proved with the rule, and stays unknown without
# it (an option that drops the assumption, or an edit that takes away
# what the rule rests on).  Runs without pypy3.
set -u
. "$JP_SRC/tests/cli/log_lib.bash"

# A weak fact (a closure cell read before the loop's call) the bridge
# reads after a call of its own, and its optimized trace reads only in a
# later bytecode, after a call with random effects: PyPy used the
# parent's value where the unoptimized trace read it (read_dropped).
# Proved counting the fields kept; not with --calls-write-all, nor when
# the two traces' debug_merge_points differ (no bytecode to compare).
W="$C/bridge_weak_dropped_read.log"
log_has bridge_weak_dropped_read '^bridge 0x7f00000c1006 .* proved .*fields kept by calls' "$W"
log_has "bridge_weak_dropped_read --calls-write-all" '^bridge 0x7f00000c1006 .* unknown' \
  --calls-write-all "$W"
awk '/~#26 LOAD_DEREF/ { n++; if (n == 2) sub(/#26/, "#28") } { print }' "$W" >"$tmp/w.log"
cmp -s "$W" "$tmp/w.log" && bad "bridge_weak_dropped_read: the edit did not apply"
log_has "bridge_weak_dropped_read, other bytecodes" '^bridge 0x7f00000c1006 .* unknown' "$tmp/w.log"

# s + K with K two chars, the optimized trace computing the second
# index between its two strsetitems (json_pretty's indent): K is taken
# to be those chars.  Not with --consts-unknown, nor with a gap between
# the indices (no run of chars).
K="$C/const_str_concat_indexed.log"
log_has const_str_concat_indexed '^bridge 0x7f0000440001 .* proved .*1 constant string' "$K"
log_has "const_str_concat_indexed --consts-unknown" '^bridge 0x7f0000440001 .* unknown' \
  --consts-unknown "$K"
sed 's/^+55: i16 = int_add(i13, 1)/+55: i16 = int_add(i13, 2)/' "$K" >"$tmp/k.log"
grep -q 'int_add(i13, 2)$' "$tmp/k.log" || bad "const_str_concat_indexed: the edit did not apply"
log_has "const_str_concat_indexed, a gap" '^bridge 0x7f0000440001 .* unknown' "$tmp/k.log"

# A constant appended to a list, its index computed otherwise by the
# optimizer (its cached length plus one), where the original also
# stores, then clears, another constant the optimizer dropped: the two
# constants appended to one list are one object (holder_role, since
# session 44).  Not with --ptrs-apart.
A="$C/append_const_holder.log"
log_has append_const_holder '^bridge 0x7f0000450001 .* proved .*ConstPtr identities' "$A"
log_has "append_const_holder --ptrs-apart" '^bridge 0x7f0000450001 .* unknown' --ptrs-apart "$A"
# Both appends constants: two objects in the holder role on each side,
# paired in order (json_pretty's "[" ... "]"); not with --ptrs-apart.
sed 's/^setarrayitem_gc(p5, i3, p14, /setarrayitem_gc(p5, i3, ConstPtr(ptr15), /
     s/^+50: setarrayitem_gc(p25, i23, p34, /+50: setarrayitem_gc(p25, i23, ConstPtr(ptr35), /' \
  "$A" >"$tmp/a2.log"
[ "$(grep -c 'ConstPtr(ptr[13]5)' "$tmp/a2.log")" = 2 ] || bad "append_const_holder: the edit did not apply"
log_has "append_const_holder, two constants" '^bridge 0x7f0000450001 .* proved .*ConstPtr identities' "$tmp/a2.log"
log_has "append_const_holder, two constants --ptrs-apart" '^bridge 0x7f0000450001 .* unknown' \
  --ptrs-apart "$tmp/a2.log"

# An instance comparison the optimizer folded by classes, of a constant
# the recording also found apart from another constant (a ptr_eq of two
# ConstPtrs in both traces' recorded facts is no comparison the optimizer
# kept): the constant class is assumed.  Not with --consts-unknown.
R="$C/const_class_recorded_apart.log"
log_has const_class_recorded_apart '^bridge 0x7f0000460001 .* proved .*1 constant class' "$R"
log_has "const_class_recorded_apart --consts-unknown" '^bridge 0x7f0000460001 .* unknown' \
  --consts-unknown "$R"

# Two reads of a frame's pycode promoted under two names, with a
# conditional call between whose condition the recorded run fixes to
# "no call" (a size computed from constants is not 0): the call wrote
# nothing on the run, so the two reads read one object (not_called in
# ir/pypylog_recorded.c; kv_parser's string builder).  Not when the size
# is 0 and the call is made.
U="$C/recorded_cond_call_unfired.log"
log_has recorded_cond_call_unfired '^bridge 0x7f0000470001 .* proved' "$U"
sed 's/^i5 = int_add(i4, 13)/i5 = int_add(i4, -4)/' "$U" >"$tmp/u.log"
grep -q 'int_add(i4, -4)' "$tmp/u.log" || bad "recorded_cond_call_unfired: the edit did not apply"
log_has "recorded_cond_call_unfired, a call made" '^bridge 0x7f0000470001 .* unknown' "$tmp/u.log"

# jit_force_virtual of a vref virtual_ref_finish just gave its frame:
# the call returns that frame and forces nothing (pl_forced_vrefs), so a
# field read through its result is the frame's.  Not when
# virtual_ref_finish stores NULL (the call would raise: left a call).
F="$C/vref_forced_known.log"
log_has vref_forced_known '^bridge 0x7f0000480001 .* proved' "$F"
sed 's/^virtual_ref_finish(p4, p2)/virtual_ref_finish(p4, NULL)/' "$F" >"$tmp/f.log"
grep -q 'virtual_ref_finish(p4, NULL)' "$tmp/f.log" || bad "vref_forced_known: the edit did not apply"
log_has "vref_forced_known, forced NULL" '^bridge 0x7f0000480001 .* unknown' "$tmp/f.log"

# Session 45.  A constant stored twice into one local of an array the
# trace allocated, no read between, before the array goes to a call:
# the optimizer writes the local once, with the second constant, which
# is the one the optimized trace's constant is (item_overwritten in
# ir/pypylog_ptrs.c; polygon_area's frame passed to call_assembler).
# Not with --ptrs-apart, nor when the local is read between the stores.
L="$C/frame_local_overwritten.log"
log_has frame_local_overwritten '^bridge 0x7f00004a0001 .* proved .*ConstPtr identities' "$L"
log_has "frame_local_overwritten --ptrs-apart" '^bridge 0x7f00004a0001 .* unknown' --ptrs-apart "$L"
sed 's/^guard_true(i7)$/guard_true(i7)\np20 = getarrayitem_gc_r(p5, 1, descr=<ArrayP 8>)/' "$L" >"$tmp/l.log"
grep -q 'getarrayitem_gc_r(p5, 1' "$tmp/l.log" || bad "frame_local_overwritten: the edit did not apply"
log_has "frame_local_overwritten, a read between" '^bridge 0x7f00004a0001 .* unknown' "$tmp/l.log"

# An allocation written through fields of two classes, B's above A's:
# one line of descent whose deepest, B, is its class (ir/pypylog_classes.c),
# so a guard_class(B) on the object read back passes.  Unknown when the
# offsets overlap (no line), and when the optimized trace writes only
# A's field of an object of that size (A there, B here: contested).
K="$C/alloc_class_line.log"
log_has alloc_class_line '^bridge 0x7f00004b0001 .* proved' "$K"
sed 's/A.inst_x 8>/A.inst_x 24>/' "$K" >"$tmp/k1.log"
grep -q 'A.inst_x 24>' "$tmp/k1.log" || bad "alloc_class_line: the overlap edit did not apply"
log_has "alloc_class_line, overlapping" '^bridge 0x7f00004b0001 .* unknown' "$tmp/k1.log"
sed 's/setfield_gc(p2, 7, /setfield_gc(p2, 0, /; /^+12: /d; s/^+14: finish(7)/+14: finish(0)/' \
  "$K" >"$tmp/k2.log"
grep -q '^+12: ' "$tmp/k2.log" && bad "alloc_class_line: the contested edit did not apply"
log_has "alloc_class_line, contested" '^bridge 0x7f00004b0001 .* unknown' "$tmp/k2.log"

# An inlined frame popped into the execution context the bridge has as
# an input, then another pushed into the context read anew from the
# thread-local state, around a call whose effects do not read it, and
# popped after: the optimized trace keeps only the first pop's store
# (undone_after, delayed_at in ir/pypylog_effects.c; spell_edits'
# bridges).  Not with --calls-write-all, nor when the second pop puts
# back another value than the one read before the push.
P="$C/frame_push_after_pop.log"
log_has frame_push_after_pop '^bridge 0x7f00004c0001 .* proved .*fields kept by calls' "$P"
log_has "frame_push_after_pop --calls-write-all" '^bridge 0x7f00004c0001 .* unknown' \
  --calls-write-all "$P"
sed 's/^setfield_gc(p5, p6, descr/setfield_gc(p5, p9, descr/' "$P" >"$tmp/p.log"
grep -q 'setfield_gc(p5, p9, ' "$tmp/p.log" || bad "frame_push_after_pop: the edit did not apply"
log_has "frame_push_after_pop, not put back" '^bridge 0x7f00004c0001 .* unknown' "$tmp/p.log"

# Session 46: a put-back of the context's saved topframeref leaves
# pending what was pending at the read (verify/heap_escape.c), so the
# vref stored in between does not escape at the call; with the overwrite
# of p0's field moved between the read and the put-back, the put-back
# may bring the first vref back: not proved.
P="$C/vref_put_back.log"
log_has vref_put_back '^bridge 0x7f00004d0001 .* proved' "$P"
awk '/^setfield_gc\(p5, p6,/{held=$0; next} {print} /^setfield_gc\(p0, p1,/{print held}' \
  "$P" >"$tmp/v.log"
grep -A1 '^setfield_gc(p0, p1, ' "$tmp/v.log" | grep -q '^setfield_gc(p5, p6, ' ||
  bad "vref_put_back: the edit did not apply"
log_has "vref_put_back, overwritten before the put-back" \
  '^bridge 0x7f00004d0001 .* unknown .*counterexample' "$tmp/v.log"

# Session 46: a constant a frame's local holds, read back after a call
# and passed to a call, names the optimized trace's constant in that
# role (run_ptrs in ir/pypylog_apart.c: the recorded run shows the
# read to be the constant); not with --ptrs-apart, nor when the item's
# index is a call's result (the run does not fix it).
P="$C/local_const_to_call.log"
log_has local_const_to_call '^bridge 0x7f00004e0001 .* proved .*1 ConstPtr identity' "$P"
log_has "local_const_to_call --ptrs-apart" '^bridge 0x7f00004e0001 .* unknown' \
  --ptrs-apart "$P"
sed 's/^p6 = getarrayitem_gc_r(p12, 1, /p6 = getarrayitem_gc_r(p12, i5, /' "$P" >"$tmp/l.log"
grep -q 'p12, i5, ' "$tmp/l.log" || bad "local_const_to_call: the edit did not apply"
log_has "local_const_to_call, index not fixed" '^bridge 0x7f00004e0001 .* unknown' "$tmp/l.log"

# Session 46: the parent stores a constant strategy into the list
# between a call and its guard_no_exception; the guard writes nothing
# (ir_py_writes_nothing), so the fact reaches the bridge, whose
# constant, named by nothing in the bridge, is an object of its own
# (hfact.anon): the bridge's guard_class on the strategy is the
# recording's fact about it.  Proved with no identity, --ptrs-apart
# too; not without the parent's store, nor with an EF=5 call in place
# of the guard under --calls-write-all.
P="$C/bridge_const_fact.log"
log_has bridge_const_fact '^bridge 0x7f00000c0002 .* proved *[0-9.]* ms$' "$P"
log_has "bridge_const_fact --ptrs-apart" '^bridge 0x7f00000c0002 .* proved *[0-9.]* ms$' \
  --ptrs-apart "$P"
grep -v '^+20: setfield_gc(p0, ConstPtr(ptr3)' "$P" >"$tmp/b1.log"
log_has "bridge_const_fact, no store" '^bridge 0x7f00000c0002 .* unknown' "$tmp/b1.log"
sed 's/^+30: guard_no_exception(descr=<Guard0x7f00000c0001>)/+30: call_n(ConstClass(other), i1, descr=<Callv 0 i EF=5>)/' \
  "$P" >"$tmp/b2.log"
grep -q 'ConstClass(other)' "$tmp/b2.log" || bad "bridge_const_fact: the edit did not apply"
log_has "bridge_const_fact, a call --calls-write-all" '^bridge 0x7f00000c0002 .* unknown' \
  --calls-write-all "$tmp/b2.log"

# Session 47: a pop, then a push undone after a call, with a
# loop-invariant call between that only the original makes: the
# optimized trace's window starts after the last call both make and
# after its own pop (pypylog_effects.c, window_start), so the call
# ignores topframeref; not with --calls-write-all, nor when the
# optimized trace stores the field a second time before the call.
P="$C/pop_then_push.log"
log_has pop_then_push '^bridge 0x7f00004d0001 .* proved .*fields kept by calls' "$P"
log_has "pop_then_push --calls-write-all" '^bridge 0x7f00004d0001 .* unknown' \
  --calls-write-all "$P"
sed 's/^+13: setfield_gc(p10, p15, descr=\(.*\)$/&\n+13: setfield_gc(p10, p15, descr=\1/' "$P" >"$tmp/pp.log"
[ "$(grep -c '^+13: setfield_gc' "$tmp/pp.log")" = 2 ] || bad "pop_then_push: the edit did not apply"
log_has "pop_then_push, stored twice" '^bridge 0x7f00004d0001 .* unknown' "$tmp/pp.log"

# Session 48, a real pypy3 log (holdout4's config_lexer, its "%s"
# formatting of a one-char string that raises): the unoptimized bridge
# calls codepoints_in_utf8 on unicode_escape's result and again on the
# _utf8 field of the W_UnicodeObject it boxed it in, which the pair's
# rewrite forwards to the same value (pl_repeated_elidable_calls); it
# appends the format string's tail from one ConstPtr where the optimized
# trace appends from the name of the head's (unite_call_args).  Proved;
# not with --ptrs-apart, nor when the second call takes another string.
P="$C/format_tail.log"
log_has format_tail '^bridge 0x7fd299158080 .* proved .*ConstPtr identities' "$P"
log_has "format_tail --ptrs-apart" '^bridge 0x7fd299158080 .* unknown' --ptrs-apart "$P"
sed 's/^i89 = call_pure_i(ConstClass(codepoints_in_utf8), p85,/i89 = call_pure_i(ConstClass(codepoints_in_utf8), p72,/' \
  "$P" >"$tmp/ft.log"
grep -q 'codepoints_in_utf8), p72,' "$tmp/ft.log" || bad "format_tail: the edit did not apply"
log_has "format_tail, another string" '^bridge 0x7fd299158080 .* unknown' "$tmp/ft.log"

# Session 48, a real pypy3 log (holdout9's topo_sort, sorted() on a
# set): the unoptimized entry bridge sets a new list's strategy, calls
# ll_kvi on the set's storage and sets the strategy again; nothing holds
# the list and the call is not passed it, so the call cannot see the
# first store (pypylog_ptrs.c, unseen_by_calls) and the second pairs
# with the optimized trace's one store.  Proved; not with --ptrs-apart
# (unknown on session 47's build).
P="$C/strategy_across_call.log"
log_has strategy_across_call '^entry 34 .* proved .*ConstPtr identities' "$P"
log_has "strategy_across_call --ptrs-apart" '^entry 34 .* unknown' --ptrs-apart "$P"

[ $fail -eq 0 ] || exit 1
echo "log_corpus_known: all passed"
