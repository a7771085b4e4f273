/*
 * test_strbuf.c - growable strings: appends, printf, growth, reset, detach,
 * and the JSON and XML escapers.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir/strbuf.h"

static void test_basic(void)
{
	strbuf sb;
	sb_init(&sb);
	CHECK(sb.buf != NULL);
	CHECK_STREQ(sb.buf, "");
	CHECK(sb.len == 0 && !sb.oom);
	sb_puts(&sb, "abc");
	sb_putc(&sb, '-');
	sb_add(&sb, "xyz123", 3);
	sb_puts(&sb, "");
	CHECK_STREQ(sb.buf, "abc-xyz");
	CHECK(sb.len == 7);
	sb_printf(&sb, "[%d|%s|%05x]", -42, "s", 0xbeef);
	CHECK_STREQ(sb.buf, "abc-xyz[-42|s|0beef]");
	CHECK(sb.len == strlen(sb.buf));
	/* Bytes after an embedded NUL are kept and counted. */
	sb_add(&sb, "\0q", 2);
	CHECK(sb.len == 22 && sb.buf[20] == '\0' && sb.buf[21] == 'q' &&
	      sb.buf[22] == '\0');
	sb_reset(&sb);
	CHECK(sb.len == 0);
	CHECK_STREQ(sb.buf, "");
	sb_puts(&sb, "again");
	CHECK_STREQ(sb.buf, "again");
	sb_release(&sb);
	CHECK(sb.buf != NULL && sb.len == 0);
	CHECK_STREQ(sb.buf, "");
	/* Reset and release of a buffer that never grew. */
	sb_reset(&sb);
	CHECK_STREQ(sb.buf, "");
	sb_release(&sb);
}

/* Many small appends and one long printf cross several growth steps; the
 * contents stay exact and NUL-terminated throughout. */
static void test_growth(void)
{
	strbuf sb;
	sb_init(&sb);
	char want[5001];
	for (int i = 0; i < 5000; i++) {
		char c = (char)('a' + i % 26);
		sb_putc(&sb, c);
		want[i] = c;
	}
	want[5000] = '\0';
	CHECK(sb.len == 5000);
	CHECK(sb.cap > sb.len);
	CHECK(strcmp(sb.buf, want) == 0);
	sb_reset(&sb);
	sb_printf(&sb, "%0300d|%s", 7, want);
	CHECK(sb.len == 300 + 1 + 5000);
	CHECK(sb.len == strlen(sb.buf));
	CHECK(sb.buf[0] == '0' && sb.buf[299] == '7' && sb.buf[300] == '|');
	CHECK(strcmp(sb.buf + 301, want) == 0);
	/* An empty printf changes nothing. */
	sb_printf(&sb, "%s", "");
	CHECK(sb.len == 5301);
	sb_release(&sb);

	/* printf as the very first append, longer than the first capacity. */
	sb_init(&sb);
	sb_printf(&sb, "%s%s", want + 4900, want + 4900);
	CHECK(sb.len == 200 && strlen(sb.buf) == 200);
	sb_release(&sb);
}

static void test_detach(void)
{
	strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "owned");
	char *p = sb_detach(&sb);
	CHECK_STREQ(p, "owned");
	CHECK(sb.len == 0);
	CHECK_STREQ(sb.buf, "");
	free(p);
	/* Detaching an empty buffer still gives a string the caller frees. */
	p = sb_detach(&sb);
	CHECK_STREQ(p, "");
	free(p);
	/* The buffer is usable after detach. */
	sb_puts(&sb, "more");
	CHECK_STREQ(sb.buf, "more");
	sb_release(&sb);
}

static void json(const char *in, const char *want)
{
	strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "x=");
	sb_json_str(&sb, in);
	CHECK_STREQ(sb.buf, want);
	sb_release(&sb);
}

static void test_json(void)
{
	json("", "x=\"\"");
	json("plain text", "x=\"plain text\"");
	json("a\"b\\c", "x=\"a\\\"b\\\\c\"");
	json("line\nnext\ttab", "x=\"line\\nnext\\ttab\"");
	/* Other control characters become \u escapes (JSON allows none raw). */
	json("\x01\x1f\r\b", "x=\"\\u0001\\u001f\\u000d\\u0008\"");
	/* '/', DEL and UTF-8 need no escape. */
	json("a/b\x7f\xc3\xa9", "x=\"a/b\x7f\xc3\xa9\"");
}

static void xml(const char *in, const char *want)
{
	strbuf sb;
	sb_init(&sb);
	sb_xml_str(&sb, in);
	CHECK_STREQ(sb.buf, want);
	sb_release(&sb);
}

static void test_xml(void)
{
	xml("", "");
	xml("plain", "plain");
	xml("<a & 'b' \"c\">", "&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;");
	xml("&amp;", "&amp;amp;");
	/* Newline, tab and CR are legal XML; other control characters are
	 * not and are replaced. */
	xml("a\nb\tc\rd", "a\nb\tc\rd");
	xml("a\x01z\x1f", "a&#xFFFD;z&#xFFFD;");
	xml("\xc3\xa9", "\xc3\xa9");
}

int main(void)
{
	test_basic();
	test_growth();
	test_detach();
	test_json();
	test_xml();
	return check_summary("test_strbuf");
}
