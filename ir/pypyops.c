/* pypyops.c - the table of ir/pypyops.def and its lookup. */
#include "pypyops.h"

#include <string.h>

#include "ops.h"

static const ir_pyop table[] = {
#define PY(name, act, target, kind) {name, IR_PY_##act, IR_##target, kind},
#include "pypyops.def"
#undef PY
};

const ir_pyop *ir_pyop_find(const char *name, size_t len)
{
	/* A linear scan: the table is small and is only consulted for ops
	 * ops.def does not name. */
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (strlen(table[i].name) == len &&
		    memcmp(table[i].name, name, len) == 0)
			return &table[i];
	return NULL;
}

size_t ir_pyop_count(void)
{
	return sizeof table / sizeof *table;
}

const ir_pyop *ir_pyop_at(size_t i)
{
	return i < ir_pyop_count() ? &table[i] : NULL;
}
