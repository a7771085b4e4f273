#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void set_file(jp_err *e, const char *file)
{
	if (!file) {
		e->file[0] = '\0';
		return;
	}
	snprintf(e->file, sizeof e->file, "%s", file);
}

jp_status jp_fail(jp_err *e, jp_status status, const char *fmt, ...)
{
	if (!e)
		return status;
	va_list ap;
	e->status = status;
	e->file[0] = '\0';
	e->line = e->col = 0;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return status;
}

jp_status jp_fail_at(jp_err *e, jp_status status, const char *file, int line,
		     int col, const char *fmt, ...)
{
	if (!e)
		return status;
	va_list ap;
	e->status = status;
	set_file(e, file);
	e->line = line;
	e->col = col;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return status;
}

void jp_err_clear(jp_err *e)
{
	if (!e)
		return;
	memset(e, 0, sizeof *e);
}

void jp_err_format(const jp_err *e, char *buf, int size)
{
	if (e->file[0] && e->line > 0)
		snprintf(buf, (size_t)size, "%s:%d:%d: error: %s", e->file,
			 e->line, e->col, e->msg);
	else if (e->file[0])
		snprintf(buf, (size_t)size, "%s: error: %s", e->file, e->msg);
	else
		snprintf(buf, (size_t)size, "error: %s", e->msg);
}

const char *jp_status_name(jp_status s)
{
	switch (s) {
	case JP_OK: return "ok";
	case JP_EINPUT: return "input error";
	case JP_EUNSUPPORTED: return "unsupported";
	case JP_ENOMEM: return "out of memory";
	case JP_EIO: return "i/o error";
	case JP_EINTERNAL: return "internal error";
	case JP_ELIMIT: return "resource limit";
	}
	return "unknown status";
}
