/*
 * print.h - writing traces in the canonical text format.
 *
 * The output parses back to the same trace (same inputs, ops, names,
 * constants, labels and fail-args), and printing that again gives the same
 * text.  Traces read in the toy spelling are printed in the toy spelling.
 */
#ifndef JP_IR_PRINT_H
#define JP_IR_PRINT_H

#include "strbuf.h"
#include "trace.h"

/* Appends the whole trace to SB. */
void ir_print(const ir_trace *t, strbuf *sb);

/* Appends the whole trace in the toy spelling of the optimizer tutorials
 * (getarg inputs, alloc/load/store/escape, and add, sub, mul, lshift,
 * rshift for the int_ ops), whatever spelling T was read in; ops the
 * spelling lacks keep their own names.  It parses back to the same trace
 * when T uses only toy ops, fields named by numbers and integer inputs. */
void ir_print_toy(const ir_trace *t, strbuf *sb);

/* Appends one op (no newline). */
void ir_print_op(const ir_trace *t, uint32_t opi, strbuf *sb);

/* Appends a value as it is written in an argument list: a name or a
 * constant ("i3", "-5", "NULL", "ConstPtr(p)", "ConstClass(T)"). */
void ir_print_arg(const ir_trace *t, ir_vid v, strbuf *sb);

/* Appends a canonical W-bit value as signed decimal. */
void ir_print_int(int width, uint64_t v, strbuf *sb);

#endif
