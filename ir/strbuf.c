#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char sb_empty[1];

void sb_init(strbuf *sb)
{
	sb->buf = sb_empty;
	sb->len = sb->cap = 0;
	sb->oom = false;
}

void sb_release(strbuf *sb)
{
	if (sb->cap)
		free(sb->buf);
	sb_init(sb);
}

char *sb_detach(strbuf *sb)
{
	char *p;
	if (sb->oom) {
		sb_release(sb);
		return NULL;
	}
	if (!sb->cap) {
		p = malloc(1);
		if (p)
			p[0] = '\0';
	} else {
		p = sb->buf;
	}
	sb_init(sb);
	return p;
}

void sb_reset(strbuf *sb)
{
	sb->len = 0;
	if (sb->cap)
		sb->buf[0] = '\0';
}

static bool grow(strbuf *sb, size_t extra)
{
	if (sb->oom)
		return false;
	if (sb->len + extra + 1 <= sb->cap)
		return true;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	char *p = sb->cap ? realloc(sb->buf, cap) : malloc(cap);
	if (!p) {
		sb->oom = true;
		return false;
	}
	if (!sb->cap)
		p[0] = '\0';
	sb->buf = p;
	sb->cap = cap;
	return true;
}

void sb_add(strbuf *sb, const char *s, size_t len)
{
	if (!grow(sb, len))
		return;
	memcpy(sb->buf + sb->len, s, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_putc(strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sb_json_str(strbuf *sb, const char *s)
{
	sb_putc(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			sb_putc(sb, '\\');
			sb_putc(sb, (char)c);
		} else if (c == '\n') {
			sb_puts(sb, "\\n");
		} else if (c == '\t') {
			sb_puts(sb, "\\t");
		} else if (c < 0x20) {
			sb_printf(sb, "\\u%04x", c);
		} else {
			sb_putc(sb, (char)c);
		}
	}
	sb_putc(sb, '"');
}

void sb_xml_str(strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '<': sb_puts(sb, "&lt;"); break;
		case '>': sb_puts(sb, "&gt;"); break;
		case '&': sb_puts(sb, "&amp;"); break;
		case '"': sb_puts(sb, "&quot;"); break;
		case '\'': sb_puts(sb, "&apos;"); break;
		default:
			if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
				sb_printf(sb, "&#xFFFD;");
			else
				sb_putc(sb, (char)c);
		}
	}
}
