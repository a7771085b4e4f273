# A small stack-based bytecode interpreter running a counting loop program.

PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, JNZ, JMP, HALT = range(10)


def run(code, nvars):
    stack = []
    env = [0] * nvars
    pc = 0
    steps = 0
    while True:
        op = code[pc]
        arg = code[pc + 1]
        pc += 2
        steps += 1
        if op == PUSH:
            stack.append(arg)
        elif op == LOAD:
            stack.append(env[arg])
        elif op == STORE:
            env[arg] = stack.pop()
        elif op == ADD:
            b = stack.pop()
            stack.append(stack.pop() + b)
        elif op == SUB:
            b = stack.pop()
            stack.append(stack.pop() - b)
        elif op == MUL:
            b = stack.pop()
            stack.append(stack.pop() * b)
        elif op == MOD:
            b = stack.pop()
            stack.append(stack.pop() % b)
        elif op == JNZ:
            if stack.pop() != 0:
                pc = arg
        elif op == JMP:
            pc = arg
        elif op == HALT:
            return env, steps


# i = n; acc = 0; while i != 0: acc = (acc * 31 + i) % 1000003; i = i - 1
PROGRAM = [
    PUSH, 60000, STORE, 0, PUSH, 0, STORE, 1,
    LOAD, 1, PUSH, 31, MUL, 0, LOAD, 0, ADD, 0, PUSH, 1000003, MOD, 0, STORE, 1,
    LOAD, 0, PUSH, 1, SUB, 0, STORE, 0,
    LOAD, 0, JNZ, 8, HALT, 0,
]

if __name__ == "__main__":
    env, steps = run(PROGRAM, 2)
    print("acc", env[1], "steps", steps)
