/*
 * corpus.h - coverage feedback for campaigns: a small corpus of trace
 * identities whose traces made the built-in optimizer reach something new,
 * and the choice of the next trace as a mutation of one of them.
 *
 * Features.  One optimization of a trace gives a count per rule and per
 * branch (opt_stats.rule_hits, .branch_hits).  Each count that is not 0
 * sets one feature bit: the rule (or branch) and the bucket of its count
 * (1, 2-3, 4-7, 8 or more), as coverage-guided fuzzers bucket edge counts:
 * a trace that fires a rule four times where others fired it once is
 * interesting too.
 *
 * The corpus (one per worker, that is per seed stream) remembers the
 * features covered so far and up to COV_MAX entries: the identity of a
 * trace that added a feature, its body length (the cuts a mutation can use)
 * and its features.  When it is full, a new entry replaces the oldest one
 * whose every feature another entry also has; when there is none, the new
 * entry is not kept (its features still count as covered).
 *
 * The next trace.  Whether trace k of a stream is a mutation, of which
 * entry, and where it is cut, is drawn from that trace's seed (so a trace
 * is decided by its seed and the corpus, nothing else): with probability
 * PCT percent it is a mutation; the parent is drawn with a weight that
 * favours entries having rare features (1 + sum over its features of
 * 64 / the number of entries having it); entries at the chain limit
 * (GEN_MUT_MAX steps) are not drawn.  The child keeps the parent's steps
 * below the cut and adds (cut, the trace's seed).
 *
 * Determinism.  The corpus after trace k depends only on the traces 0..k
 * of the stream and the optimizer (deterministic), so a campaign run in
 * one go and one interrupted and resumed make the same traces if the
 * corpus is carried over: cov_format / cov_parse_line write it into the
 * campaign's state file and read it back.
 *
 * A corpus is a plain value (fixed arrays, no pointers): copy it freely.
 */
#ifndef JP_FUZZ_CORPUS_H
#define JP_FUZZ_CORPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz/gen.h"
#include "ir/err.h"
#include "ir/strbuf.h"
#include "passes/opt.h"

#define COV_BUCKETS 4
#define COV_NBITS   ((OPT_RULE_COUNT + OPT_BR_COUNT) * COV_BUCKETS)
#define COV_WORDS   ((COV_NBITS + 63) / 64)
#define COV_MAX	    256
/* The suggested share of mutations, percent (campaigns default to 0:
 * docs/performance.md, session 16). */
#define COV_PCT 25

typedef struct cov_bits {
	uint64_t w[COV_WORDS];
} cov_bits;

typedef struct cov_entry {
	gen_id id;
	uint32_t body; /* gen_example.body of its trace */
	cov_bits bits;
} cov_entry;

typedef struct cov_corpus {
	cov_bits covered;
	uint32_t n;
	cov_entry e[COV_MAX];
	/* Derived from the entries (cov_add keeps them): how many entries
	 * have each feature, each entry's weight, their sum. */
	uint32_t have[COV_NBITS];
	uint32_t weight[COV_MAX];
	uint64_t total;
} cov_corpus;

/* An empty corpus. */
void cov_init(cov_corpus *c);

/* The features of one optimization. */
void cov_features(const uint32_t rule_hits[OPT_RULE_COUNT],
		  const uint32_t branch_hits[OPT_BR_COUNT], cov_bits *out);

/* Number of features set in B. */
uint32_t cov_count(const cov_bits *b);

/* Whether B has a feature C has not covered. */
bool cov_is_new(const cov_corpus *c, const cov_bits *b);

/* Marks B covered without keeping an entry (coverage feedback off). */
void cov_note(cov_corpus *c, const cov_bits *b);

/* Marks E's features covered and keeps E (see above for a full corpus). */
void cov_add(cov_corpus *c, const cov_entry *e);

/* The identity of the trace whose seed is SEED: a mutation of an entry
 * with probability PCT percent (when the corpus has a parent to offer),
 * else the fresh trace of SEED.  Returns whether it is a mutation. */
bool cov_pick(const cov_corpus *c, uint64_t seed, uint32_t pct, gen_id *out);

/* Appends C as lines of the campaign state, for stream STREAM:
 * "cov_bits N" is written by the caller once; here
 * "cov_covered STREAM HEX..." and one "cov_entry STREAM ID BODY HEX..."
 * per entry (COV_WORDS hexadecimal words each). */
void cov_format(const cov_corpus *c, uint32_t stream, strbuf *sb);

/* Reads the part of a "cov_covered" or "cov_entry" line after the stream
 * number (REST) into C.  Errors: JP_EINPUT saying what was expected and
 * what was found (the caller adds file:line). */
jp_status cov_parse_line(cov_corpus *c, bool entry, const char *rest,
			 jp_err *err);

#endif
