/*
 * camp_int.h - the campaign's internals, shared by its files (not a public
 * interface: campaign.h is).
 *
 *   campaign.c    options, the parent: workers, messages, state, summary
 *   campworker.c  a worker process: generate, judge, blame, reduce, save;
 *                 coverage feedback (fuzz/corpus.h)
 *   campfiles.c   files written atomically, finding bundles, the options
 *                 that regenerate a trace
 *   campstate.c   the state file
 */
#ifndef JP_FUZZ_CAMP_INT_H
#define JP_FUZZ_CAMP_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz/campaign.h"
#include "fuzz/corpus.h"
#include "fuzz/reduce.h"
#include "ir/strbuf.h"

/* ---- messages from workers (fixed size, over a pipe) ---- */

enum { MSG_STATS = 1, MSG_FINDING, MSG_DUP, MSG_CRASH, MSG_DONE, MSG_CORPUS };

typedef struct wmsg {
	uint32_t type;
	uint32_t stream;
	uint64_t next_index; /* next trace of the stream (MSG_CRASH: the one
				that crashed) */
	camp_counts c;	     /* cumulative, this worker process */
	camp_finding f;	     /* MSG_CRASH: trace_seed, trace_id */
	int32_t signo;
	bool heap_off; /* the worker generates integer traces only */
	/* MSG_CORPUS: an entry the worker added to its corpus after trace
	 * next_index - 1; the parent adds it to its copy (cov_add is
	 * deterministic, so both stay equal) and saves it in the state. */
	cov_entry cov;
} wmsg;

/* Runs a worker for STREAM from trace NEXT (SHARE traces, 0 = until told
 * to stop; DEADLINE in clk_now_ms time, 0 = none), sending its messages
 * to FD.  COV: the stream's corpus so far (NULL = no coverage feedback;
 * the worker works on its own copy).  Never returns. */
_Noreturn void camp_worker_run(const camp_opts *o, uint32_t stream,
			       uint64_t next, uint64_t share, double deadline,
			       int fd, uint32_t max_unknown,
			       const cov_corpus *cov);

/* ---- files and bundles (campfiles.c) ---- */

/* Everything a reader needs about one failure. */
typedef struct camp_bundle {
	const ir_trace *orig;
	const gen_example *ex;
	const red_outcome *out; /* of ORIG */
	const ir_trace *reduced;
	const red_outcome *fin; /* of REDUCED */
	const red_stats *rs;
} camp_bundle;

/* Saves a bundle for F under OUTDIR/findings/<sig>, written completely as
 * TMPNAME first; 1 new, 0 already there, -1 error. */
int camp_save_finding(const camp_opts *o, const char *tmpname,
		      const camp_finding *f, const camp_bundle *b);

/* DIR/NAME with SB's text, fsynced. */
bool camp_write_file(const char *dir, const char *name, const strbuf *sb);
/* PATH atomically: a temporary file in the same directory, then rename. */
bool camp_write_atomic(const char *path, const strbuf *sb);
/* Removes a directory of plain files we wrote (no recursion). */
void camp_remove_dir(const char *dir);
/* mkdir; an existing directory is fine. */
bool camp_make_dir(const char *path);
/* Renames the complete temporary directory TMP to FINAL: 1 when it is
 * new, 0 when FINAL already exists, -1 on error. */
int camp_publish_dir(const char *tmp, const char *final, const char *parent);

/* "name,name" of the bits of MASK ("none" when empty). */
void camp_put_mask(strbuf *sb, uint64_t mask, int n, const char *(*name)(int));
const char *camp_bug_name_i(int i);
const char *camp_pass_name_i(int i);

#endif
