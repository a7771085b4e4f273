/*
 * dce.c - dead code elimination.
 *
 * Runs once over the finished output, backwards: a pure op whose result
 * no later op, guard fail-args list or end op uses is removed.  Ops with an
 * effect (heap, calls, guards, *_ovf ops, which carry the overflow flag for
 * their guard) are always kept.  The other passes leave such ops behind:
 * the comparison whose guard the bounds proved, the operands of a folded
 * expression.
 */
#include <stdlib.h>

#include "passes/opt_internal.h"

static void mark(bool *used, const ir_vid *vs, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		if (vs[k] != IR_NOVAL)
			used[vs[k]] = true;
}

static jp_status dce_finish(opt_ctx *c)
{
	const ir_trace *t = c->out;
	bool *used = calloc(t->nvals + 1, sizeof *used);
	bool *keep = calloc(t->nops + 1, sizeof *keep);
	uint32_t dropped = 0;
	if (!used || !keep) {
		free(used);
		free(keep);
		opt_fail(c, JP_ENOMEM, "out of memory");
		return JP_ENOMEM;
	}
	for (uint32_t i = t->nops; i-- > 0;) {
		const ir_op *op = &t->ops[i];
		bool pure = ir_op_has(op->opc, IRF_PURE);
		keep[i] = !pure || (op->result != IR_NOVAL && used[op->result]);
		if (!keep[i]) {
			dropped++;
			if (c->stats && c->origin[i] != UINT32_MAX)
				c->stats->removed[OPT_PASS_DCE]++;
			continue;
		}
		mark(used, op->args, op->nargs);
		mark(used, op->failargs, op->nfail);
	}
	jp_status s = dropped ? opt_compact(c, keep) : JP_OK;
	free(used);
	free(keep);
	return s;
}

const opt_pass_hooks opt_dce_hooks = {
    .finish = dce_finish,
};
