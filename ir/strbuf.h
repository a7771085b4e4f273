/*
 * strbuf.h - growable, always NUL-terminated byte strings.
 *
 * A strbuf owns its buffer (malloc'd); sb_release frees it, sb_detach hands
 * it to the caller.  sb.buf is never NULL after sb_init.  Allocation failure
 * sets sb.oom and drops further appends, so callers check once at the end
 * instead of after every append.
 */
#ifndef JP_IR_STRBUF_H
#define JP_IR_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct strbuf {
	char *buf;
	size_t len, cap;
	bool oom;
} strbuf;

void sb_init(strbuf *sb);
void sb_release(strbuf *sb);
/* Returns the buffer (caller frees) and leaves SB empty; NULL on oom. */
char *sb_detach(strbuf *sb);
void sb_reset(strbuf *sb);
void sb_add(strbuf *sb, const char *s, size_t len);
void sb_puts(strbuf *sb, const char *s);
void sb_putc(strbuf *sb, char c);
void sb_printf(strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends S as a JSON string literal, quotes included. */
void sb_json_str(strbuf *sb, const char *s);
/* Appends S with XML special characters escaped. */
void sb_xml_str(strbuf *sb, const char *s);

#endif
