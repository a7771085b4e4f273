/*
 * err.h - the one error convention of the jitprove library.
 *
 * Every fallible library function returns a jp_status (JP_OK is 0) and,
 * when it fails, fills a caller-owned jp_err with a human-readable message.
 * The message says what was expected and what was found; input errors also
 * carry a source location (file:line:col).  Library code never exits and
 * never prints: only the CLI (tools/) decides what to print and which exit
 * code to use.  A NULL jp_err pointer is allowed and discards the message.
 */
#ifndef JP_IR_ERR_H
#define JP_IR_ERR_H

typedef enum jp_status {
	JP_OK = 0,
	JP_EINPUT,	 /* malformed or invalid input (exit code 2) */
	JP_EUNSUPPORTED, /* valid input that this build cannot handle (exit 2)
			  */
	JP_ENOMEM,	 /* allocation failed */
	JP_EIO,		 /* file system error */
	JP_EINTERNAL,	 /* a bug in jitprove itself */
	JP_ELIMIT,	 /* a resource limit was hit (time, memory, size) */
} jp_status;

typedef struct jp_err {
	jp_status status;
	char file[256]; /* empty when not about an input file */
	int line, col;	/* 1-based; 0 when unknown */
	char msg[768];
} jp_err;

/* Records STATUS and a printf-style message; returns STATUS. */
jp_status jp_fail(jp_err *e, jp_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* As jp_fail, with a location in FILE (may be NULL). */
jp_status jp_fail_at(jp_err *e, jp_status status, const char *file, int line,
		     int col, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Clears E to "no error". */
void jp_err_clear(jp_err *e);

/* Formats E as "file:line:col: error: msg" (or "error: msg") into BUF. */
void jp_err_format(const jp_err *e, char *buf, int size);

/* A short name for a status, such as "input error". */
const char *jp_status_name(jp_status s);

#endif
