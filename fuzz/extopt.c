/*
 * extopt.c - running an external optimizer command (extopt.h).
 *
 * Sections: the process (start, kill, wait), the exchange (one poll loop
 * that writes the trace and reads stdout and stderr until an answer, EOF
 * or the deadline), the two modes, classification of the answer, the
 * probe, and small text helpers (quoting, printing, framing).
 */
#define _POSIX_C_SOURCE 200809L
#include "extopt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "ir/parse.h"
#include "ir/print.h"
#include "util/clock.h"

struct xo {
	xo_config cfg;
	char *cmd;
	pid_t pid;	    /* 0 = not running */
	int in, out, errfd; /* our ends of its stdin, stdout, stderr */
	bool out_eof, err_eof;
	strbuf obuf; /* stdout not consumed yet */
	strbuf ebuf; /* the tail of stderr */
	size_t scan; /* OBUF is searched for "--end--" from here */
	int status;  /* wait status once reaped */
	bool reaped;
};

static unsigned timeout_of(const xo *x)
{
	return x->cfg.timeout_ms ? x->cfg.timeout_ms : XO_DEFAULT_TIMEOUT_MS;
}

/* ---- the process ---- */

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static bool cloexec_pipe(int p[2])
{
	if (pipe(p) != 0)
		return false;
	for (int i = 0; i < 2; i++)
		if (fcntl(p[i], F_SETFD, FD_CLOEXEC) != 0) {
			close(p[0]);
			close(p[1]);
			return false;
		}
	return true;
}

static void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void child_exec(const char *cmd, int pin[2], int pout[2], int perr[2])
{
	setpgid(0, 0);
#ifdef __linux__
	/* A worker killed hard must not leave its optimizer running. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (dup2(pin[0], 0) < 0 || dup2(pout[1], 1) < 0 || dup2(perr[1], 2) < 0)
		_exit(127);
	/* An ignored signal stays ignored across exec: give the command
	 * the ordinary dispositions and an empty mask. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGPIPE, &dfl, NULL);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

static jp_status start(xo *x, jp_err *err)
{
	struct sigaction ign;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, NULL);
	int pin[2], pout[2], perr[2];
	if (!cloexec_pipe(pin))
		goto fail0;
	if (!cloexec_pipe(pout))
		goto fail1;
	if (!cloexec_pipe(perr))
		goto fail2;
	pid_t pid = fork();
	if (pid < 0)
		goto fail3;
	if (pid == 0)
		child_exec(x->cmd, pin, pout, perr);
	setpgid(pid, pid); /* also here: no race with kill(-pid) */
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	x->pid = pid;
	x->in = pin[1];
	x->out = pout[0];
	x->errfd = perr[0];
	set_nonblock(x->in);
	set_nonblock(x->out);
	set_nonblock(x->errfd);
	x->out_eof = x->err_eof = false;
	x->reaped = false;
	x->status = 0;
	sb_reset(&x->obuf);
	sb_reset(&x->ebuf);
	x->scan = 0;
	return JP_OK;
fail3:
	close(perr[0]);
	close(perr[1]);
fail2:
	close(pout[0]);
	close(pout[1]);
fail1:
	close(pin[0]);
	close(pin[1]);
fail0:
	return jp_fail(err, JP_EIO, "cannot start the optimizer command: %s",
		       strerror(errno));
}

static void reap(xo *x, int flags)
{
	if (x->pid <= 0 || x->reaped)
		return;
	int st;
	pid_t r;
	do
		r = waitpid(x->pid, &st, flags);
	while (r < 0 && errno == EINTR);
	if (r == x->pid || (r < 0 && errno == ECHILD)) {
		x->reaped = true;
		x->status = r == x->pid ? st : 0;
	}
}

/* Kills the whole process group and reaps the command. */
static void stop_proc(xo *x)
{
	if (x->pid > 0) {
		kill(-x->pid, SIGKILL);
		if (!x->reaped)
			kill(x->pid, SIGKILL);
		reap(x, 0);
	}
	close_fd(&x->in);
	close_fd(&x->out);
	close_fd(&x->errfd);
	x->pid = 0;
}

/* ---- the exchange ---- */

typedef enum xch {
	XCH_DONE,    /* the stop condition was met */
	XCH_EOF,     /* stdout ended first (persistent mode) */
	XCH_TIMEOUT, /* the deadline passed */
	XCH_TOOBIG,  /* more than XO_MAX_OUTPUT bytes */
} xch;

static void keep_tail(strbuf *sb)
{
	if (sb->len <= 2 * XO_STDERR_KEEP)
		return;
	size_t drop = sb->len - XO_STDERR_KEEP;
	memmove(sb->buf, sb->buf + drop, sb->len - drop + 1);
	sb->len -= drop;
}

/* Reads what is there from FD into SB; false at EOF. */
static bool drain(int fd, strbuf *sb, bool tail)
{
	char chunk[65536];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n > 0) {
			sb_add(sb, chunk, (size_t)n);
			if (tail)
				keep_tail(sb);
			if ((size_t)n < sizeof chunk)
				return true;
			continue;
		}
		if (n == 0)
			return false;
		return errno == EAGAIN || errno == EWOULDBLOCK ||
		       errno == EINTR;
	}
}

/* Where the answer ends: the offset of a line "--end--" in OBUF, or -1. */
static long find_end(xo *x)
{
	const size_t m = sizeof XO_END - 1;
	const char *b = x->obuf.buf;
	size_t n = x->obuf.len;
	size_t i = x->scan;
	for (; i + m < n; i++) {
		if ((i == 0 || b[i - 1] == '\n') && !memcmp(b + i, XO_END, m) &&
		    b[i + m] == '\n')
			return (long)i;
	}
	x->scan = i > m + 1 ? i - m - 1 : 0;
	return -1;
}

/* Writes DATA to the command's stdin while reading its stdout and stderr,
 * until: (FRAMED) an answer is complete or stdout ends, (!FRAMED) stdout
 * ends; or the deadline passes.  CLOSE_IN closes stdin once DATA is
 * written. */
static xch exchange(xo *x, const char *data, size_t len, bool close_in,
		    bool framed, double deadline)
{
	size_t off = 0;
	for (;;) {
		if (off == len && close_in)
			close_fd(&x->in);
		if (x->obuf.len > XO_MAX_OUTPUT)
			return XCH_TOOBIG;
		if (framed && find_end(x) >= 0)
			return XCH_DONE;
		if (x->out_eof)
			return framed ? XCH_EOF : XCH_DONE;
		double left = deadline - clk_now_ms();
		if (left <= 0)
			return XCH_TIMEOUT;
		struct pollfd p[3];
		int n = 0, iw = -1, io = -1, ie = -1;
		if (off < len && x->in >= 0) {
			iw = n;
			p[n++] = (struct pollfd){x->in, POLLOUT, 0};
		}
		io = n;
		p[n++] = (struct pollfd){x->out, POLLIN, 0};
		if (!x->err_eof && x->errfd >= 0) {
			ie = n;
			p[n++] = (struct pollfd){x->errfd, POLLIN, 0};
		}
		int r = poll(p, (nfds_t)n, (int)(left + 1));
		if (r < 0 && errno != EINTR)
			return XCH_EOF;
		if (r <= 0)
			continue;
		if (iw >= 0 && p[iw].revents) {
			ssize_t w = write(x->in, data + off, len - off);
			if (w > 0) {
				off += (size_t)w;
			} else if (w < 0 && errno != EAGAIN &&
				   errno != EWOULDBLOCK && errno != EINTR) {
				/* EPIPE: it stopped reading; its answer
				 * (or exit) will tell. */
				off = len;
				close_fd(&x->in);
			}
		}
		if (ie >= 0 && p[ie].revents &&
		    !drain(x->errfd, &x->ebuf, true))
			x->err_eof = true;
		if (p[io].revents && !drain(x->out, &x->obuf, false))
			x->out_eof = true;
	}
}

/* Waits until the command exits or DEADLINE passes (then false), still
 * collecting stderr. */
static bool wait_exit(xo *x, double deadline)
{
	for (;;) {
		reap(x, WNOHANG);
		if (x->reaped)
			break;
		double left = deadline - clk_now_ms();
		if (left <= 0)
			return false;
		int slice = left < 10 ? (int)left + 1 : 10;
		if (!x->err_eof && x->errfd >= 0) {
			struct pollfd p = {x->errfd, POLLIN, 0};
			if (poll(&p, 1, slice) > 0 &&
			    !drain(x->errfd, &x->ebuf, true))
				x->err_eof = true;
		} else {
			struct timespec ts = {0, (long)slice * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	if (!x->err_eof && x->errfd >= 0)
		drain(x->errfd, &x->ebuf, true);
	return true;
}

/* ---- failures ---- */

/* The last non-empty line of the command's stderr, cut short. */
static void stderr_tail(const xo *x, char *buf, size_t size)
{
	buf[0] = '\0';
	const char *b = x->ebuf.buf ? x->ebuf.buf : "";
	size_t n = x->ebuf.len;
	while (n > 0 &&
	       (b[n - 1] == '\n' || b[n - 1] == '\r' || b[n - 1] == ' '))
		n--;
	size_t s = n;
	while (s > 0 && b[s - 1] != '\n')
		s--;
	size_t len = n - s;
	if (len > 120)
		len = 120;
	if (len > 0 && len + 16 < size)
		snprintf(buf, size, " (stderr: %.*s)", (int)len, b + s);
}

static jp_status fail_with(xo *x, red_kind kind, const char *obl, char *oblbuf,
			   size_t oblsize, red_kind *fail, jp_err *err,
			   const char *what)
{
	char tail[160];
	stderr_tail(x, tail, sizeof tail);
	*fail = kind;
	snprintf(oblbuf, oblsize, "%s", obl);
	jp_fail(err, JP_EINPUT, "%s%s", what, tail);
	stop_proc(x);
	return JP_OK;
}

static jp_status fail_exit(xo *x, char *obl, size_t oblsize, red_kind *fail,
			   jp_err *err, const char *when)
{
	char what[200], cls[64];
	int st = x->status;
	if (WIFSIGNALED(st)) {
		snprintf(what, sizeof what, "optimizer killed by signal %d%s",
			 WTERMSIG(st), when);
		snprintf(cls, sizeof cls, "crash signal %d", WTERMSIG(st));
	} else {
		int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		snprintf(what, sizeof what, "optimizer exited with status %d%s",
			 code, when);
		snprintf(cls, sizeof cls, "crash exit %d", code);
	}
	return fail_with(x, RED_OPT_CRASH, cls, obl, oblsize, fail, err, what);
}

/* Parses the answer TEXT and checks its inputs against IN. */
static jp_status take_answer(xo *x, const ir_trace *in, const char *text,
			     size_t len, ir_trace **out, red_kind *fail,
			     char *obl, size_t oblsize, jp_err *err)
{
	ir_parse_opts po = {x->cfg.width ? x->cfg.width : in->width, false,
			    "optimizer output"};
	jp_err pe;
	jp_err_clear(&pe);
	ir_trace *t = NULL;
	jp_status st = ir_parse(text, len, &po, &t, &pe);
	if (st == JP_ENOMEM)
		return jp_fail(err, st, "out of memory");
	if (st) {
		char what[900];
		jp_err_format(&pe, what, sizeof what);
		*fail = RED_OPT_BADOUT;
		snprintf(obl, oblsize, "bad output parse");
		jp_fail(err, JP_EINPUT, "answer does not parse: %s", what);
		return JP_OK;
	}
	bool same = t->ninputs == in->ninputs;
	for (uint32_t i = 0; same && i < in->ninputs; i++)
		same = ir_val(t, t->inputs[i])->kind ==
		       ir_val(in, in->inputs[i])->kind;
	if (!same) {
		*fail = RED_OPT_BADOUT;
		snprintf(obl, oblsize, "bad output inputs");
		jp_fail(err, JP_EINPUT,
			"answer changes the inputs: %u input(s) sent, %u in "
			"the answer (or of other kinds)",
			in->ninputs, t->ninputs);
		ir_trace_free(t);
		return JP_OK;
	}
	*out = t;
	return JP_OK;
}

/* ---- the two modes ---- */

static jp_status one_shot(xo *x, const ir_trace *in, const strbuf *text,
			  ir_trace **out, red_kind *fail, char *obl,
			  size_t oblsize, jp_err *err)
{
	jp_status st = start(x, err);
	if (st)
		return st;
	double deadline = clk_now_ms() + timeout_of(x);
	xch r = exchange(x, text->buf, text->len, true, false, deadline);
	char what[120];
	if (r == XCH_TOOBIG) {
		snprintf(what, sizeof what,
			 "optimizer wrote more than %u bytes", XO_MAX_OUTPUT);
		return fail_with(x, RED_OPT_BADOUT, "bad output size", obl,
				 oblsize, fail, err, what);
	}
	if (r == XCH_DONE && !wait_exit(x, deadline))
		r = XCH_TIMEOUT;
	if (r != XCH_DONE) {
		snprintf(what, sizeof what,
			 "optimizer gave no answer within "
			 "%u ms",
			 timeout_of(x));
		return fail_with(x, RED_OPT_HANG, "hang", obl, oblsize, fail,
				 err, what);
	}
	if (!(WIFEXITED(x->status) && WEXITSTATUS(x->status) == 0))
		return fail_exit(x, obl, oblsize, fail, err, "");
	close_fd(&x->in);
	close_fd(&x->out);
	close_fd(&x->errfd);
	x->pid = 0;
	return take_answer(x, in, x->obuf.buf ? x->obuf.buf : "", x->obuf.len,
			   out, fail, obl, oblsize, err);
}

/* Whether the running command is still there with nothing unread; reaps
 * it when it has gone. */
static bool idle_and_alive(xo *x, bool *extra)
{
	*extra = false;
	sb_reset(&x->obuf); /* the last answer, consumed */
	x->scan = 0;
	struct pollfd p = {x->out, POLLIN, 0};
	if (poll(&p, 1, 0) > 0) {
		if (!drain(x->out, &x->obuf, false))
			x->out_eof = true;
		*extra = x->obuf.len > 0;
	}
	if (x->out_eof && !*extra) {
		stop_proc(x);
		return false;
	}
	return true;
}

static jp_status persistent(xo *x, const ir_trace *in, strbuf *text,
			    ir_trace **out, red_kind *fail, char *obl,
			    size_t oblsize, jp_err *err)
{
	jp_status st;
	bool extra = false;
	/* A command that quit after its last answer is started again
	 * (not a finding: no trace was lost). */
	if (x->pid > 0 && !idle_and_alive(x, &extra))
		x->pid = 0;
	if (extra)
		return fail_with(x, RED_OPT_BADOUT, "bad output extra", obl,
				 oblsize, fail, err,
				 "optimizer wrote output between answers (it "
				 "answered a trace twice?)");
	/* A fresh process may take a while to start (an interpreter, a
	 * JIT warming up): that is not the trace's fault. */
	double grace = 0;
	if (x->pid <= 0) {
		if ((st = start(x, err)))
			return st;
		grace = timeout_of(x);
	}
	sb_reset(&x->obuf);
	x->scan = 0;
	sb_puts(text, XO_END "\n");
	double deadline = clk_now_ms() + timeout_of(x) + grace;
	xch r = exchange(x, text->buf, text->len, false, true, deadline);
	char what[160];
	switch (r) {
	case XCH_DONE: break;
	case XCH_TOOBIG:
		snprintf(what, sizeof what,
			 "optimizer wrote more than %u bytes without "
			 "--end--",
			 XO_MAX_OUTPUT);
		return fail_with(x, RED_OPT_BADOUT, "bad output size", obl,
				 oblsize, fail, err, what);
	case XCH_TIMEOUT:
		snprintf(what, sizeof what,
			 "optimizer gave no answer (--end--) within %u ms",
			 timeout_of(x));
		return fail_with(x, RED_OPT_HANG, "hang", obl, oblsize, fail,
				 err, what);
	case XCH_EOF:
		if (!wait_exit(x, clk_now_ms() + 1000))
			return fail_with(x, RED_OPT_CRASH, "crash closed", obl,
					 oblsize, fail, err,
					 "optimizer closed its output without "
					 "answering");
		return fail_exit(x, obl, oblsize, fail, err,
				 " before answering");
	}
	long end = find_end(x);
	size_t after = (size_t)end + sizeof XO_END;
	if (after < x->obuf.len)
		return fail_with(x, RED_OPT_BADOUT, "bad output extra", obl,
				 oblsize, fail, err,
				 "optimizer wrote more after --end-- (it "
				 "answered twice?)");
	st = take_answer(x, in, x->obuf.buf, (size_t)end, out, fail, obl,
			 oblsize, err);
	if (!st && !*out)
		stop_proc(x); /* a bad answer: start afresh */
	return st;
}

/* ---- the interface ---- */

jp_status xo_new(const xo_config *cfg, xo **out, jp_err *err)
{
	*out = NULL;
	xo *x = calloc(1, sizeof *x);
	char *cmd = cfg->cmd ? strdup(cfg->cmd) : NULL;
	if (!x || !cmd) {
		free(x);
		free(cmd);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	x->cfg = *cfg;
	x->cmd = cmd;
	x->cfg.cmd = cmd;
	x->in = x->out = x->errfd = -1;
	sb_init(&x->obuf);
	sb_init(&x->ebuf);
	*out = x;
	return JP_OK;
}

void xo_free(xo *x)
{
	if (!x)
		return;
	stop_proc(x);
	sb_release(&x->obuf);
	sb_release(&x->ebuf);
	free(x->cmd);
	free(x);
}

jp_status xo_optimize(xo *x, const ir_trace *in, ir_trace **out, red_kind *fail,
		      char *obl, size_t oblsize, jp_err *err)
{
	*out = NULL;
	*fail = RED_OPT_ERROR;
	strbuf text;
	sb_init(&text);
	xo_print_trace(in, x->cfg.toy, &text);
	if (text.oom) {
		sb_release(&text);
		return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	jp_status st =
	    x->cfg.persistent
		? persistent(x, in, &text, out, fail, obl, oblsize, err)
		: one_shot(x, in, &text, out, fail, obl, oblsize, err);
	sb_release(&text);
	return st;
}

static jp_status optimize_cb(void *self, const ir_trace *in, ir_trace **out,
			     red_kind *fail, char *obl, size_t oblsize,
			     jp_err *err)
{
	return xo_optimize(self, in, out, fail, obl, oblsize, err);
}

red_optimizer xo_optimizer(xo *x)
{
	red_optimizer o = {optimize_cb, x};
	return o;
}

/* ---- the probe ---- */

static jp_status probe_one(xo *x, const ir_trace *t, jp_err *err)
{
	ir_trace *o = NULL;
	red_kind fail;
	char obl[96];
	jp_err e;
	jp_err_clear(&e);
	jp_status st = xo_optimize(x, t, &o, &fail, obl, sizeof obl, &e);
	if (st)
		return jp_fail(err, st, "%s", e.msg);
	if (o) {
		ir_trace_free(o);
		return JP_OK;
	}
	bool missing =
	    fail == RED_OPT_CRASH &&
	    (!strcmp(obl, "crash exit 127") || !strcmp(obl, "crash exit 126"));
	return jp_fail(err, JP_EINPUT,
		       "the optimizer command %s on the smallest trace: %s%s",
		       missing ? "cannot be run (sh: not found or not "
				 "executable)"
			       : "fails",
		       e.msg,
		       fail == RED_OPT_HANG
			   ? "; it must answer within --optimizer-timeout-ms"
			   : "");
}

jp_status xo_probe(const xo_config *cfg, jp_err *err)
{
	static const char pypy[] = "[i0]\ni1 = int_add(i0, 1)\nfinish(i1)\n";
	static const char toy[] = "i0 = getarg(0)\ni1 = add(i0, 1)\n"
				  "escape(i1)\n";
	ir_parse_opts po = {cfg->width, false, "probe"};
	/* Only whether it works at all: unless told otherwise, a loaded
	 * machine gets time. */
	xo_config pc = *cfg;
	if (!pc.timeout_ms)
		pc.timeout_ms = XO_PROBE_TIMEOUT_MS;
	cfg = &pc;
	ir_trace *t = NULL;
	const char *src = cfg->toy ? toy : pypy;
	jp_status st = ir_parse(src, strlen(src), &po, &t, err);
	if (st)
		return st;
	xo *x = NULL;
	if ((st = xo_new(cfg, &x, err))) {
		ir_trace_free(t);
		return st;
	}
	st = probe_one(x, t, err);
	if (!st && cfg->persistent) {
		st = probe_one(x, t, err);
		/* An answer followed by a second one shows up a moment
		 * later. */
		struct pollfd p = {x->out, POLLIN, 0};
		if (!st && x->pid > 0 && poll(&p, 1, 100) > 0) {
			bool extra = false;
			idle_and_alive(x, &extra);
			if (extra)
				st = jp_fail(err, JP_EINPUT,
					     "the optimizer command wrote "
					     "more output after its answer "
					     "(--end--) to the smallest "
					     "trace (it answered twice?): it "
					     "must answer each trace once");
		}
	}
	xo_free(x);
	ir_trace_free(t);
	return st;
}

/* ---- text ---- */

jp_status xo_config_from_args(xo_config *cfg, const char *cmd, bool persistent,
			      long timeout_ms, const char *syntax, int width,
			      jp_err *err)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->cmd = cmd;
	cfg->persistent = persistent;
	cfg->width = width;
	if (!cmd && (persistent || timeout_ms || syntax))
		return jp_fail(err, JP_EINPUT,
			       "--optimizer-persistent, --optimizer-timeout-ms "
			       "and --syntax go with --optimizer CMD");
	if (cmd && !*cmd)
		return jp_fail(err, JP_EINPUT,
			       "--optimizer: expected a command, found an "
			       "empty string");
	if (timeout_ms < 0 || timeout_ms > 3600000)
		return jp_fail(err, JP_EINPUT,
			       "--optimizer-timeout-ms: expected 1 to 3600000, "
			       "found %ld",
			       timeout_ms);
	cfg->timeout_ms = (unsigned)timeout_ms;
	if (syntax && !strcmp(syntax, "toy"))
		cfg->toy = true;
	else if (syntax && strcmp(syntax, "pypy") != 0)
		return jp_fail(err, JP_EINPUT,
			       "--syntax: expected pypy or toy, found '%s'",
			       syntax);
	return JP_OK;
}

void xo_shell_quote(const char *s, strbuf *sb)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"
			    "RSTUVWXYZ0123456789-_=.,/+:",
			    *p))
			plain = false;
	if (plain) {
		sb_puts(sb, s);
		return;
	}
	sb_putc(sb, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			sb_puts(sb, "'\\''");
		else
			sb_putc(sb, *p);
	}
	sb_putc(sb, '\'');
}

void xo_format_options(const xo_config *cfg, strbuf *sb)
{
	if (!cfg || !cfg->cmd)
		return;
	sb_puts(sb, " --optimizer ");
	xo_shell_quote(cfg->cmd, sb);
	if (cfg->persistent)
		sb_puts(sb, " --optimizer-persistent");
	if (cfg->timeout_ms && cfg->timeout_ms != XO_DEFAULT_TIMEOUT_MS)
		sb_printf(sb, " --optimizer-timeout-ms %u", cfg->timeout_ms);
	if (cfg->toy)
		sb_puts(sb, " --syntax toy");
}

void xo_print_trace(const ir_trace *in, bool toy, strbuf *sb)
{
	ir_trace *c = ir_trace_clone(in);
	if (!c) {
		sb->oom = true;
		return;
	}
	for (uint32_t i = 0; i < c->nops; i++)
		c->ops[i].flags &= (uint8_t)~IR_OPF_IMPLICIT_LABEL;
	if (toy)
		ir_print_toy(c, sb);
	else
		ir_print(c, sb);
	ir_trace_free(c);
}

int xo_read_frame(FILE *f, strbuf *sb)
{
	sb_reset(sb);
	char *line = NULL;
	size_t cap = 0;
	bool any = false;
	ssize_t n;
	int r = -1;
	while ((n = getline(&line, &cap, f)) >= 0) {
		any = true;
		size_t len = (size_t)n;
		while (len > 0 &&
		       (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (len == sizeof XO_END - 1 && !memcmp(line, XO_END, len)) {
			r = 1;
			break;
		}
		sb_add(sb, line, (size_t)n);
	}
	free(line);
	if (r == 1)
		return 1;
	return any ? -1 : 0;
}
