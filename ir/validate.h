/*
 * validate.h - structural checks of a trace.
 *
 * A valid trace: every argument is defined before use and has the kind the
 * op table asks for; every op has the right number of arguments and a
 * descr= where it needs one; every overflow guard directly follows an
 * overflow-checked op, and every overflow-checked op is directly followed by
 * an overflow guard; exactly one jump/finish, at the end; guard labels are
 * unique.  The parser calls ir_validate; code that builds traces by hand
 * (optimizer, generator, reducer) should call it in debug checks.
 */
#ifndef JP_IR_VALIDATE_H
#define JP_IR_VALIDATE_H

#include "trace.h"

/* FILE names the source in messages (may be NULL). */
jp_status ir_validate(const ir_trace *t, const char *file, jp_err *err);

#endif
