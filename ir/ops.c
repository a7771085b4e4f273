#include "ops.h"

#include <string.h>

const ir_opinfo ir_opinfos[IR_OPCODE_COUNT] = {
#define OP(id, name, nargs, res, args, flags, twin, rel, form, toy)            \
	{name, nargs, res, args, flags, IR_##twin, IR_REL_##rel, form, toy},
#include "ops.def"
#undef OP
};

int ir_opcode_by_name(const char *name, size_t len)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		if (i == IR_OPAQUE)
			continue;
		const char *n = ir_opinfos[i].name;
		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return i;
	}
	return -1;
}

int ir_opcode_by_toy(const char *name, size_t len)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		const char *n = ir_opinfos[i].toy;
		if (n && strlen(n) == len && memcmp(n, name, len) == 0)
			return i;
	}
	return -1;
}

ir_cmp ir_op_cmp(ir_opcode opc)
{
	const ir_opinfo *info = &ir_opinfos[opc];
	ir_cmp c = {IR_REL_NONE, false, false, false, false};
	if (info->rel == IR_REL_NONE || info->args[0] != 'i')
		return c;
	c.rel = info->rel;
	c.uns = (info->form & IRC_UNS) != 0;
	c.swap = (info->form & IRC_SWAP) != 0;
	c.neg = (info->form & IRC_NEG) != 0;
	c.zero = (info->form & IRC_ZERO) != 0;
	return c;
}

int ir_cmp_opcode(ir_cmp c)
{
	for (int i = 0; i < IR_OPCODE_COUNT; i++) {
		ir_cmp d = ir_op_cmp((ir_opcode)i);
		if (d.rel != IR_REL_NONE && d.rel == c.rel && d.uns == c.uns &&
		    d.swap == c.swap && d.neg == c.neg && d.zero == c.zero)
			return i;
	}
	return -1;
}

bool ir_cmp_reflexive(ir_opcode opc)
{
	const ir_opinfo *info = &ir_opinfos[opc];
	bool holds = info->rel == IR_REL_EQ || info->rel == IR_REL_LE;
	return (info->form & IRC_NEG) ? !holds : holds;
}

char ir_op_argkind(ir_opcode opc, int i)
{
	const ir_opinfo *info = &ir_opinfos[opc];
	if (info->nargs < 0)
		return info->args[0];
	if (i < 0 || i >= info->nargs)
		return 'a';
	return info->args[i];
}
