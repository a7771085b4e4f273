/*
 * extopt.h - an external optimizer: a command that reads a trace and
 * writes the optimized trace (docs/own-optimizer.md is the protocol).
 *
 * The command is run with `sh -c CMD`.  One-shot mode starts it once per
 * trace: the trace on its stdin (then EOF), the optimized trace on its
 * stdout, exit status 0.  Persistent mode starts it once and sends trace
 * after trace, each followed by a line "--end--"; it answers each with the
 * optimized trace followed by a line "--end--".  The trace is the
 * canonical text (ir/print.h) with every guard labelled (descr=gN), in
 * PyPy's spelling or, with TOY, the Toy Optimizer spelling.
 *
 * Failures of the command are the optimizer's failures (red_kind):
 *   RED_OPT_CRASH   non-zero exit, a signal, or (persistent) it exited
 *                   before answering;
 *   RED_OPT_HANG    no complete answer within TIMEOUT_MS (persistent:
 *                   twice that for the first trace after a start, which
 *                   includes starting the process);
 *   RED_OPT_BADOUT  the answer does not parse (with the parse error), has
 *                   other inputs than the trace sent, is larger than
 *                   XO_MAX_OUTPUT, or (persistent) more output follows an
 *                   answer.
 * After any failure a persistent command is killed and started afresh for
 * the next trace.  A command that cannot be run at all (sh cannot find
 * it: exit 126/127 on the probe) is the user's error: xo_probe says so.
 *
 * Process hygiene: the command runs in its own process group, which is
 * killed (SIGKILL) on timeout and on xo_free; every child is waited for;
 * the pipes are close-on-exec, so commands started later do not inherit
 * them; SIGPIPE is ignored in the calling process (a command that closes
 * its stdin early makes our write fail with EPIPE instead of killing us);
 * at most XO_MAX_OUTPUT bytes of stdout and the last XO_STDERR_KEEP bytes
 * of stderr are kept.
 *
 * Library rules: nothing is printed; the command's stderr tail goes into
 * the failure message.
 */
#ifndef JP_FUZZ_EXTOPT_H
#define JP_FUZZ_EXTOPT_H

#include <stdbool.h>
#include <stdio.h>

#include "fuzz/reduce.h"
#include "ir/err.h"
#include "ir/strbuf.h"
#include "ir/trace.h"

#define XO_DEFAULT_TIMEOUT_MS 5000u
/* xo_probe waits this long for each answer when no timeout is given. */
#define XO_PROBE_TIMEOUT_MS 30000u
#define XO_MAX_OUTPUT	    (16u << 20)
#define XO_STDERR_KEEP	    2048u
#define XO_END		    "--end--"

typedef struct xo_config {
	const char *cmd;     /* run with sh -c */
	bool persistent;     /* one process for many traces */
	unsigned timeout_ms; /* per trace; 0 = XO_DEFAULT_TIMEOUT_MS */
	bool toy;	     /* speak the toy spelling */
	int width;	     /* integer width of the answers; 0 = 64 */
} xo_config;

typedef struct xo xo;

/* A handle for CFG (copied, CMD included).  Starts nothing yet.  Errors:
 * JP_ENOMEM. */
jp_status xo_new(const xo_config *cfg, xo **out, jp_err *err);

/* Kills and reaps the command (if running) and frees X. */
void xo_free(xo *x);

/* Optimizes IN with the command, as red_optimizer.optimize. */
jp_status xo_optimize(xo *x, const ir_trace *in, ir_trace **out, red_kind *fail,
		      char *obl, size_t oblsize, jp_err *err);

/* The red_optimizer that calls xo_optimize on X. */
red_optimizer xo_optimizer(xo *x);

/* Runs the command on a tiny trace (twice in persistent mode, checking
 * nothing follows an answer) before a campaign, so a command that cannot
 * work at all is reported at once as the user's error (JP_EINPUT), with
 * what went wrong and the command's stderr.  A command that works there
 * passes; its failures on other traces are findings. */
jp_status xo_probe(const xo_config *cfg, jp_err *err);

/* Fills CFG from the command-line options (--optimizer CMD,
 * --optimizer-persistent, --optimizer-timeout-ms MS (0 = not given),
 * --syntax pypy|toy (NULL = pypy)).  CFG->cmd is NULL when CMD is.
 * Errors: JP_EINPUT naming the option (the others given without CMD, a
 * timeout out of 1..3600000, an unknown syntax). */
jp_status xo_config_from_args(xo_config *cfg, const char *cmd, bool persistent,
			      long timeout_ms, const char *syntax, int width,
			      jp_err *err);

/* Appends the options that select CFG on jitprove's command line,
 * shell-quoted: " --optimizer 'CMD' --optimizer-persistent
 * --optimizer-timeout-ms 5000 --syntax toy" (defaults left out). */
void xo_format_options(const xo_config *cfg, strbuf *sb);

/* Appends S shell-quoted ('...' unless it is plain). */
void xo_shell_quote(const char *s, strbuf *sb);

/* The trace text sent for IN: canonical, every guard labelled, the toy
 * spelling when TOY. */
void xo_print_trace(const ir_trace *in, bool toy, strbuf *sb);

/* Reads one framed trace from F into SB (cleared first): the lines up to
 * one that is exactly "--end--".  Returns 1 on a frame, 0 at EOF before
 * any line, -1 at EOF inside a frame (or a read error). */
int xo_read_frame(FILE *f, strbuf *sb);

#endif
