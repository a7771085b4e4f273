#!/bin/sh
# builtin.sh - jitprove's own optimizer as an external optimizer command.
#   jitprove fuzz --optimizer 'sh builtin.sh'                  (one-shot)
#   jitprove fuzz --optimizer 'sh builtin.sh --persistent' --optimizer-persistent
# Further arguments go to `jitprove opt` (--passes, --inject, --width).
# JITPROVE names the binary (default: jitprove on PATH).
J=${JITPROVE:-jitprove}
if [ "${1:-}" = "--persistent" ]; then
	shift
	exec "$J" opt --serve "$@"
fi
exec "$J" opt - "$@"
