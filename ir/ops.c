#include "ops.h"

#include <string.h>

const ir_opinfo ir_opinfos[IR_OPCODE_COUNT] = {
#define OP(id, name, nargs, res, args, flags) {name, nargs, res, args, flags},
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

char ir_op_argkind(ir_opcode opc, int i)
{
	const ir_opinfo *info = &ir_opinfos[opc];
	if (info->nargs < 0)
		return info->args[0];
	if (i < 0 || i >= info->nargs)
		return 'a';
	return info->args[i];
}
