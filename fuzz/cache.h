/*
 * cache.h - the proof cache: verdicts of trace pairs already checked.
 *
 * A verdict depends only on the two traces, the width, the verification
 * mode, whether fail-args are compared, the encoder (VER_ENCODER_VERSION)
 * and the solver (Z3's version).  The cache key is the SHA-256 of exactly
 * those: the canonical printed text of both traces (so comments, spacing
 * and spelling of the files do not matter, while any change to an op
 * does) and the parameters.  Only definite verdicts are stored -- proved,
 * or refuted with its counterexample -- never unknowns: an unknown depends
 * on the time limit and the machine's load, and must be retried.
 *
 * Layout: DIR/<first two hex digits>/<remaining 62 digits>, one small text
 * file per entry.  Every entry is written to a temporary file in the same
 * directory and renamed into place, so a reader (another worker process,
 * another CI job sharing the directory) sees a complete entry or none.  An
 * entry that does not parse, or whose recorded key differs from its name,
 * counts as a miss (stats.bad), never as a verdict.
 *
 * A read-only cache never creates, writes or removes anything.
 *
 * Ownership: pc_open copies DIR; pc_close frees it.  A pc_entry owns its
 * strings (pc_entry_free).
 */
#ifndef JP_FUZZ_CACHE_H
#define JP_FUZZ_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz/hash.h"
#include "ir/err.h"
#include "ir/trace.h"
#include "verify/check.h"

/* Version of the entry file format; part of the key. */
#define PC_FORMAT_VERSION 1

typedef enum pc_mode {
	PC_READ_WRITE,
	PC_READ_ONLY,
} pc_mode;

typedef struct pc_stats {
	uint32_t hits, misses, writes;
	uint32_t bad; /* entries that existed but did not parse (misses) */
} pc_stats;

typedef struct pc_cache {
	char *dir;
	pc_mode mode;
	pc_stats stats;
} pc_cache;

/* What decides a verdict besides the traces themselves. */
typedef struct pc_params {
	int width;     /* the width both traces are checked at */
	ver_mode mode; /* the mode asked for (not the one used) */
	bool failargs;
} pc_params;

/* A cached verdict.  Strings may be NULL. */
typedef struct pc_entry {
	ver_verdict verdict; /* VER_PROVED or VER_REFUTED */
	ver_mode mode_used;
	char *what; /* the failing obligation (refuted) */
	char *cex;  /* the counterexample report (refuted) */
	char *json; /* the verifier's JSON result, for reports */
} pc_entry;

/* Opens the cache in DIR.  Read-write creates DIR (and parents) if
 * missing.  Read-only accepts a missing DIR (every lookup misses).
 * Errors: JP_EIO when DIR cannot be created or is not a directory,
 * JP_ENOMEM. */
jp_status pc_open(pc_cache *c, const char *dir, pc_mode mode, jp_err *err);
void pc_close(pc_cache *c);

/* Parses "read-write" / "read-only". */
jp_status pc_parse_mode(const char *s, pc_mode *mode, jp_err *err);

/* The key of the pair (ORIG, OPT) under P, as 64 hex digits.  Errors:
 * JP_ENOMEM. */
jp_status pc_key(const ir_trace *orig, const ir_trace *opt, const pc_params *p,
		 char key[HASH_HEX_SIZE], jp_err *err);

/* The solver version the key uses, e.g. "4.8.12.0". */
void pc_solver_version(char *buf, size_t size);

/* Looks KEY up.  Returns true and fills E (caller frees) on a hit. */
bool pc_lookup(pc_cache *c, const char *key, pc_entry *e);

/* Stores E under KEY (a no-op for a read-only cache, and for verdicts
 * other than proved/refuted).  Errors: JP_EIO, JP_ENOMEM; a failed store
 * leaves no partial file behind. */
jp_status pc_store(pc_cache *c, const char *key, const pc_entry *e,
		   jp_err *err);

void pc_entry_free(pc_entry *e);

/* The entry's file name (DIR/xx/yyyy...) into BUF. */
void pc_entry_path(const pc_cache *c, const char *key, char *buf, size_t size);

#endif
