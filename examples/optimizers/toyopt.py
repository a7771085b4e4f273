#!/usr/bin/env python3
"""toyopt.py - a small trace optimizer in the Toy Optimizer spelling.

It is an external optimizer for `jitprove fuzz --optimizer` (the protocol
is docs/own-optimizer.md), written for this project after the ideas of the
Toy Optimizer posts: one forward pass over the trace that does

  * constant folding of add, sub, mul, lshift and rshift (64-bit two's
    complement, shift counts read unsigned, as docs/semantics.md says),
    plus x + 0, x - 0, x * 1, x * 0;
  * common subexpression elimination of those pure operations;
  * allocation removal: alloc() makes a *virtual* object that lives only in
    the optimizer; store into it records the field, load from it is the
    recorded value (0 when none was stored: fresh fields start at 0).  When
    a virtual object escapes (escape/print, stored into a real object, an
    unknown operation), it is *materialized*: an alloc and one store per
    field are emitted right there, recursively for objects in its fields.

Usage:
  toyopt.py                 one trace on stdin, the optimized trace on stdout
  toyopt.py --persistent    trace after trace, each ended by a line --end--
  toyopt.py --bug           (or TOYOPT_BUG=1) plants a bug: materializing an
                            object forgets the fields that hold constants

Standard library only.  Input is the toy spelling: `x = getarg(0)`,
`add sub mul lshift rshift`, `alloc load store escape print`; any other
operation is passed through (its virtual arguments materialized first).
"""

import os
import re
import sys

MASK = (1 << 64) - 1
END = "--end--"


def wrap(v):
    """The signed 64-bit value of v."""
    v &= MASK
    return v - (1 << 64) if v >> 63 else v


def fold(op, a, b):
    """The value of the pure op OP on constants A, B (signed 64-bit)."""
    if op == "add":
        return wrap(a + b)
    if op == "sub":
        return wrap(a - b)
    if op == "mul":
        return wrap(a * b)
    n = b & MASK  # shift counts are read unsigned
    if op == "lshift":
        return 0 if n >= 64 else wrap(a << n)
    if op == "rshift":
        if n >= 64:
            return -1 if a < 0 else 0
        return a >> n  # Python's >> on a negative int is arithmetic
    raise ValueError(op)


PURE = ("add", "sub", "mul", "lshift", "rshift")
COMMUTATIVE = ("add", "mul")
LINE = re.compile(r"^\s*(?:(\w+)\s*=\s*)?(\w+)\((.*)\)\s*$")


class TraceError(Exception):
    pass


def parse(text):
    """A list of (result name or None, op, [argument texts])."""
    ops = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.split("#", 1)[0].strip()
        if not s:
            continue
        m = LINE.match(s)
        if not m:
            raise TraceError("line %d: cannot read %r" % (lineno, line))
        res, op, args = m.group(1), m.group(2), m.group(3).strip()
        ops.append((res, op, [a.strip() for a in args.split(",")] if args else []))
    return ops


class Virtual:
    """An object that exists only in the optimizer (not allocated yet)."""

    def __init__(self, name):
        self.name = name
        self.fields = {}  # field number (text) -> value


class Optimizer:
    def __init__(self, bug):
        self.bug = bug
        self.out = []  # output lines
        self.value = {}  # name -> int constant, Virtual, or a name
        self.cse = {}  # (op, a, b) -> name

    # -- values --
    def get(self, arg):
        """The current value of an argument: an int or a name."""
        if re.fullmatch(r"-?\d+", arg):
            return int(arg)
        v = self.value.get(arg, arg)
        return v

    def text(self, v):
        return str(v) if isinstance(v, int) else v

    def materialize(self, v):
        """Makes V real (emitting an alloc and its stores when it is a
        virtual object) and returns its name or constant."""
        if not isinstance(v, Virtual):
            return v
        name = v.name
        # Real from now on (before the fields: a cycle ends here).
        self.value[name] = name
        fields = v.fields
        v.fields = None
        self.out.append("%s = alloc()" % name)
        for f in sorted(fields, key=int):
            val = fields[f]
            if self.bug and isinstance(val, int):
                continue  # the planted bug: constant fields are lost
            val = self.materialize(self.current(val))
            self.out.append("store(%s, %s, %s)" % (name, f, self.text(val)))
        return name

    def current(self, v):
        """A Virtual that was materialized meanwhile is its name now."""
        if isinstance(v, Virtual) and v.fields is None:
            return v.name
        return v

    # -- operations --
    def pure(self, res, op, args):
        a, b = (self.current(self.get(x)) for x in args)
        a, b = self.materialize(a), self.materialize(b)
        if isinstance(a, int) and isinstance(b, int):
            self.value[res] = fold(op, a, b)
            return
        if op in ("add", "sub", "lshift", "rshift") and b == 0:
            self.value[res] = a
            return
        if op == "add" and a == 0:
            self.value[res] = b
            return
        if op == "mul" and (a == 1 or b == 1):
            self.value[res] = b if a == 1 else a
            return
        if op == "mul" and (a == 0 or b == 0):
            self.value[res] = 0
            return
        key = (op,) + tuple(sorted((str(a), str(b))) if op in COMMUTATIVE else (str(a), str(b)))
        if key in self.cse:
            self.value[res] = self.cse[key]
            return
        self.cse[key] = res
        self.value[res] = res
        self.out.append("%s = %s(%s, %s)" % (res, op, self.text(a), self.text(b)))

    def run(self, ops):
        for res, op, args in ops:
            if op == "getarg":
                self.value[res] = res
                self.out.append("%s = getarg(%s)" % (res, args[0]))
            elif op in PURE and len(args) == 2 and res:
                self.pure(res, op, args)
            elif op == "alloc" and not args:
                name = res or "obj%d" % len(self.value)
                self.value[name] = Virtual(name)
            elif op == "store" and len(args) == 3:
                obj = self.current(self.get(args[0]))
                val = self.current(self.get(args[2]))
                if isinstance(obj, Virtual):
                    obj.fields[args[1]] = val
                else:
                    val = self.materialize(val)
                    self.out.append("store(%s, %s, %s)" % (self.text(obj), args[1], self.text(val)))
            elif op == "load" and len(args) == 2 and res:
                obj = self.current(self.get(args[0]))
                if isinstance(obj, Virtual):
                    self.value[res] = obj.fields.get(args[1], 0)
                else:
                    self.value[res] = res
                    self.out.append("%s = load(%s, %s)" % (res, self.text(obj), args[1]))
            else:
                # escape, print and anything unknown: the arguments escape.
                vals = [self.text(self.materialize(self.current(self.get(a)))) for a in args]
                call = "%s(%s)" % (op, ", ".join(vals))
                if res:
                    self.value[res] = res
                    call = "%s = %s" % (res, call)
                self.out.append(call)
        return "\n".join(self.out) + "\n"


def optimize(text, bug):
    return Optimizer(bug).run(parse(text))


def main():
    bug = "--bug" in sys.argv[1:] or os.environ.get("TOYOPT_BUG", "") not in ("", "0")
    if "--persistent" not in sys.argv[1:]:
        sys.stdout.write(optimize(sys.stdin.read(), bug))
        return 0
    lines = []
    for line in sys.stdin:
        if line.rstrip("\r\n") != END:
            lines.append(line)
            continue
        sys.stdout.write(optimize("".join(lines), bug) + END + "\n")
        sys.stdout.flush()
        lines = []
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except TraceError as e:
        sys.stderr.write("toyopt: %s\n" % e)
        sys.exit(2)
