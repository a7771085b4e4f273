/*
 * check_result.c - the ver_result of a pair: the obligations' statuses and
 * how each was settled (with the counters that always add up), the names
 * of verdicts, modes and methods, and the JSON form.
 */
#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/sem.h"

const char *ver_verdict_name(ver_verdict v)
{
	switch (v) {
	case VER_PROVED: return "proved";
	case VER_REFUTED: return "counterexample";
	case VER_UNKNOWN: return "unknown";
	}
	return "?";
}

const char *ver_mode_name(ver_mode m)
{
	switch (m) {
	case VER_MODE_AUTO: return "auto";
	case VER_MODE_ALIGNED: return "aligned";
	case VER_MODE_TRACE: return "trace";
	case VER_MODE_INFERRED: return "inferred";
	}
	return "?";
}

const char *ver_how_name(ver_how h)
{
	switch (h) {
	case VER_BY_IDENTITY: return "identity";
	case VER_BY_CONCRETE: return "concrete";
	case VER_BY_SOLVER: return "solver";
	case VER_BY_NONE: return "none";
	case VER_BY_REWRITE: return "rewrite";
	case VER_BY_RANGE: return "range";
	}
	return "?";
}

static void free_obligations(ver_result *r)
{
	for (uint32_t i = 0; i < r->nobl; i++)
		free(r->obl[i].what);
	free(r->obl);
	r->obl = NULL;
	r->nobl = 0;
}

void ver_result_free(ver_result *r)
{
	free_obligations(r);
	free(r->inputs);
	free(r->cex_text);
	if (r->input_names)
		for (uint32_t i = 0; i < r->ninputs; i++)
			free(r->input_names[i]);
	free(r->input_names);
	free(r->input_kinds);
	free(r->reason);
	free(r->unconfirmed_text);
	memset(r, 0, sizeof *r);
	r->failed = -1;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

jp_status chk_init_obligations(chk_pair *ps, jp_err *err)
{
	ver_result *r = ps->res;
	free_obligations(r);
	r->by_identity = r->by_rewrite = r->by_concrete = r->by_solver = 0;
	r->by_range = 0;
	r->failed = -1;
	r->obl = calloc(ps->L.n + 1, sizeof *r->obl);
	if (!r->obl)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	r->nobl = ps->L.n;
	for (uint32_t i = 0; i < ps->L.n; i++) {
		strbuf sb;
		sb_init(&sb);
		if (ps->L.v[i].kind == OBL_MODEL)
			hp_model_describe(ps->heap, &ps->L.v[i], &sb);
		else
			obl_describe(&ps->L.v[i], ps->o, ps->p, &sb);
		r->obl[i].what = sb_detach(&sb);
		r->obl[i].status = VER_UNKNOWN;
		r->obl[i].how = VER_BY_NONE;
		if (!r->obl[i].what)
			return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	return JP_OK;
}

static uint32_t *how_counter(ver_result *r, ver_how how)
{
	switch (how) {
	case VER_BY_IDENTITY: return &r->by_identity;
	case VER_BY_REWRITE: return &r->by_rewrite;
	case VER_BY_CONCRETE: return &r->by_concrete;
	case VER_BY_SOLVER: return &r->by_solver;
	case VER_BY_RANGE: return &r->by_range;
	default: return NULL;
	}
}

/* Records how obligation I was settled.  An obligation may be settled
 * again (a batch query first, then on its own): the counters then move
 * with it, so they always add up to the obligations settled. */
void chk_settle(chk_pair *ps, uint32_t i, ver_verdict v, ver_how how, double ms)
{
	ver_obligation *b = &ps->res->obl[i];
	if (b->checked && b->status != VER_UNKNOWN) {
		uint32_t *old = how_counter(ps->res, b->how);
		if (old && *old)
			(*old)--;
	}
	b->status = v;
	b->how = how;
	b->ms = ms;
	b->checked = true;
	if (v == VER_UNKNOWN)
		return;
	uint32_t *c = how_counter(ps->res, how);
	if (c)
		(*c)++;
}

/* Records why the last query's answer is unknown. */
void chk_set_reason(chk_pair *ps, const char *why)
{
	free(ps->res->reason);
	ps->res->reason = dup_str(why);
}

jp_status chk_init_result(chk_pair *ps, jp_err *err)
{
	ver_result *r = ps->res;
	const ir_trace *o = ps->o;
	r->failed = -1;
	r->verdict = VER_UNKNOWN;
	r->width = o->width;
	r->ninputs = o->ninputs;
	r->inputs = calloc(o->ninputs + 1, sizeof *r->inputs);
	r->input_names = calloc(o->ninputs + 1, sizeof *r->input_names);
	r->input_kinds = calloc(o->ninputs + 1, 1);
	if (!r->inputs || !r->input_names || !r->input_kinds)
		return jp_fail(err, JP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < o->ninputs; i++) {
		r->input_kinds[i] = ir_val(o, o->inputs[i])->kind;
		r->input_names[i] = dup_str(ir_valname(o, o->inputs[i]));
		if (!r->input_names[i])
			return jp_fail(err, JP_ENOMEM, "out of memory");
	}
	return JP_OK;
}

static const char *status_name(const ver_obligation *b)
{
	if (!b->checked)
		return "skipped";
	switch (b->status) {
	case VER_PROVED: return "proved";
	case VER_REFUTED: return "refuted";
	case VER_UNKNOWN: return "unknown";
	}
	return "?";
}

void ver_result_json(const ver_result *r, strbuf *sb)
{
	sb_puts(sb, "{\"verdict\":");
	sb_json_str(sb, ver_verdict_name(r->verdict));
	sb_puts(sb, ",\"mode\":");
	sb_json_str(sb, ver_mode_name(r->mode_used));
	sb_printf(sb, ",\"width\":%d,\"obligations\":[", r->width);
	for (uint32_t i = 0; i < r->nobl; i++) {
		const ver_obligation *b = &r->obl[i];
		sb_puts(sb, i ? ",{\"what\":" : "{\"what\":");
		sb_json_str(sb, b->what);
		sb_puts(sb, ",\"status\":");
		sb_json_str(sb, status_name(b));
		sb_puts(sb, ",\"how\":");
		sb_json_str(sb, ver_how_name(b->how));
		sb_printf(sb, ",\"ms\":%.3f}", b->ms);
	}
	sb_puts(sb, "],\"failed\":");
	if (r->failed >= 0 && r->verdict == VER_REFUTED) /* else none failed */
		sb_printf(sb, "%d", (int)r->failed);
	else
		sb_puts(sb, "null");
	sb_puts(sb, ",\"reason\":");
	if (r->verdict == VER_UNKNOWN && r->reason)
		sb_json_str(sb, r->reason);
	else
		sb_puts(sb, "null");
	sb_puts(sb, ",\"counterexample\":");
	if (r->verdict == VER_REFUTED && r->failed >= 0) {
		sb_puts(sb, "{\"obligation\":");
		sb_json_str(sb, r->obl[r->failed].what);
		sb_puts(sb, ",\"inputs\":[");
		for (uint32_t i = 0; i < r->ninputs; i++) {
			char hex[32];
			snprintf(hex, sizeof hex, "0x%llx",
				 (unsigned long long)r->inputs[i]);
			sb_puts(sb, i ? ",{\"name\":" : "{\"name\":");
			sb_json_str(sb,
				    r->input_names ? r->input_names[i] : "");
			sb_puts(sb, ",\"hex\":");
			sb_json_str(sb, hex);
			/* References are 64-bit addresses at every width. */
			bool ref = r->input_kinds && r->input_kinds[i] == 'r';
			sb_printf(sb, ",\"kind\":\"%s\",\"signed\":\"%lld\"}",
				  ref ? "ref" : "int",
				  (long long)sem_signed(ref ? 64 : r->width,
							r->inputs[i]));
		}
		sb_puts(sb, "],\"report\":");
		sb_json_str(sb, r->cex_text ? r->cex_text : "");
		sb_putc(sb, '}');
	} else {
		sb_puts(sb, "null");
	}
	sb_printf(sb,
		  ",\"stats\":{\"obligations\":%u,\"by_identity\":%u,"
		  "\"by_rewrite\":%u,\"by_range\":%u,"
		  "\"by_concrete\":%u,\"by_solver\":%u,\"solver_calls\":%u,"
		  "\"second_solver_checks\":%u,"
		  "\"second_solver_inconclusive\":%u,\"slow_queries\":%u,"
		  "\"abstract_calls\":%u,\"abstract_proved\":%u,"
		  "\"isolated\":%u,\"isolated_lost\":%u,"
		  "\"lemmas\":%u,\"lemma_queries\":%u,"
		  "\"audited\":%u,\"audit_agreed\":%u,"
		  "\"audit_disagreed\":%u,\"audit_unknown\":%u,"
		  "\"ms_total\":%.3f,\"ms_encode\":%.3f,\"ms_solve\":%.3f,"
		  "\"ms_screen\":%.3f}}",
		  r->nobl, r->by_identity, r->by_rewrite, r->by_range,
		  r->by_concrete, r->by_solver, r->solver_calls,
		  r->second_checked, r->second_inconclusive, r->slow_queries,
		  r->abstract_calls, r->abstract_proved, r->isolated,
		  r->isolated_lost, r->lemmas, r->lemma_queries, r->audited,
		  r->audit_agreed, r->audit_disagreed, r->audit_unknown,
		  r->ms_total, r->ms_encode, r->ms_solve, r->ms_screen);
}
