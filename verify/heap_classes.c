/*
 * heap_classes.c - the classes a pair assumes its constants are not.
 *
 * jitprove log marks an instance comparison of the original that PyPy's
 * optimizer folded by the classes of its operands with the descr
 * "<not-class=C>" (ir/pypylog_consts.c, docs/pypy.md "Constant
 * classes"): the comparison's ConstPtr K is no instance of C.  Here that
 * becomes type(K) != C in the background, for the whole pair: a fact of
 * the object, like its address.  A class no guard or allocation of the
 * pair names has no index; nothing of the pair can then tell K from an
 * object of that class, and the fact is left out.
 */
#include "heap_int.h"

/* The fact op OP of T states, or NULL. */
static Z3_ast fact_of(hp *h, const ir_trace *t, const ir_op *op)
{
	if ((op->opc != IR_PTR_EQ && op->opc != IR_PTR_NE) || op->nargs != 2 ||
	    !op->descr)
		return NULL;
	size_t len;
	const char *c = ir_py_not_class(ir_strtext(t, op->descr), &len);
	uint32_t ci = c ? hp_class_find(h, c, len) : HP_NONE;
	if (ci == HP_NONE)
		return NULL;
	for (uint32_t a = 0; a < 2; a++) {
		const ir_value *v = ir_val(t, op->args[a]);
		if (v->tag != IR_VAL_CONST_PTR)
			continue;
		Z3_ast k = hp_cptr_addr(h, ir_strtext(t, v->name));
		Z3_ast ty = K(h, Z3_mk_app(h->z, h->tyfun, 1, &k));
		return K(h,
			 Z3_mk_not(h->z, K(h, Z3_mk_eq(h->z, ty,
						       zc_bv(&h->S, 16, ci)))));
	}
	return NULL;
}

void hp_class_facts(hp *h)
{
	const ir_trace *ts[2] = {h->o, h->p};
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < ts[s]->nops; i++) {
			Z3_ast f = fact_of(h, ts[s], &ts[s]->ops[i]);
			if (!f)
				continue;
			Z3_ast both[2] = {h->bg, f};
			h->bg = K(h, Z3_mk_and(h->z, 2, both));
		}
}
