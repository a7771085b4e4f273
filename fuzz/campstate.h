/*
 * campstate.h - the campaign state file (OUTDIR/state): what a campaign
 * has done, so that --resume can go on.  Text, one "key value..." per line;
 * docs/fuzzing.md lists the keys.
 */
#ifndef JP_FUZZ_CAMPSTATE_H
#define JP_FUZZ_CAMPSTATE_H

#include "fuzz/campaign.h"
#include "fuzz/corpus.h"
#include "ir/strbuf.h"

typedef struct camp_state {
	uint64_t seed;
	gen_opts gen;
	opt_config cfg;
	unsigned timeout_ms;
	uint32_t nstreams;
	uint64_t next[256];
	camp_counts all;
	double elapsed;
	double budget_s;       /* --seconds over all sessions; 0 = none */
	uint64_t budget_count; /* --count over all sessions; 0 = none */
	uint32_t cov_pct;      /* camp_opts.cov_pct (0 in older states) */
	/* The coverage-feedback corpus of each stream (NULL = none).
	 * cst_read allocates them (free with cst_free); cst_format only
	 * reads them. */
	cov_corpus *cov[256];
} camp_state;

/* Appends the state S as text. */
void cst_format(const camp_state *s, strbuf *sb);

/* Reads OUTDIR/state into S.  Errors: JP_EINPUT (missing, unreadable,
 * damaged: file:line, expected, found), JP_ENOMEM.  Corpus lines written
 * with another feature count (another optimizer version) are skipped:
 * the streams then start with an empty corpus.  On error S holds nothing
 * to free. */
jp_status cst_read(const char *outdir, camp_state *s, jp_err *err);

/* Frees the corpora cst_read allocated in S. */
void cst_free(camp_state *s);

#endif
