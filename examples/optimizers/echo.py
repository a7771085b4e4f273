#!/usr/bin/env python3
"""echo.py - the smallest external optimizer: it answers every trace with
the trace itself (always correct, optimizes nothing).  The throughput
measurement of the persistent protocol uses it (docs/performance.md).

  jitprove fuzz --optimizer 'python3 echo.py'
  jitprove fuzz --optimizer 'python3 echo.py --persistent' --optimizer-persistent
"""
import sys

if "--persistent" in sys.argv[1:]:
    out = []
    for line in sys.stdin:
        out.append(line)
        if line.rstrip("\r\n") == "--end--":
            sys.stdout.write("".join(out))
            sys.stdout.flush()
            out = []
else:
    sys.stdout.write(sys.stdin.read())
