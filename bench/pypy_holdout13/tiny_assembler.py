# A tiny two-pass assembler: generated text lines with labels and mnemonics are turned into integer opcodes through dict lookups, then run on a register machine.

OPCODES = {"mov": 1, "add": 2, "sub": 3, "mul": 4, "jnz": 5, "dec": 6, "out": 7, "halt": 8}
REGS = {"r0": 0, "r1": 1, "r2": 2, "r3": 3}


def make_source(n, k):
    lines = ["start:", "mov r0 %d" % n, "mov r1 0", "mov r2 1", "mov r3 %d" % k, "loop:",
             "add r1 r2", "mul r2 r3", "mov r3 %d" % k, "dec r0", "jnz r0 loop",
             "out r1", "halt"]
    return lines


def parse_operand(tok, labels):
    if tok in REGS:
        return 0, REGS[tok]
    if tok in labels:
        return 1, labels[tok]
    return 1, int(tok)


def assemble(lines):
    labels = {}
    pc = 0
    for line in lines:
        line = line.strip()
        if line.endswith(":"):
            labels[line[:-1]] = pc
        elif line:
            pc += 1
    code = []
    for line in lines:
        line = line.strip()
        if not line or line.endswith(":"):
            continue
        parts = line.split()
        op = OPCODES[parts[0]]
        word = op << 12
        shift = 6
        for tok in parts[1:]:
            kind, val = parse_operand(tok, labels)
            if kind == 0:
                word |= val << shift
            else:
                word |= 1 << 11
                code.append(word)
                word = -1
                code.append(val)
                break
            shift -= 3
        if word != -1:
            code.append(word)
    return code


def run(code, limit):
    regs = [0, 0, 0, 0]
    pc = 0
    out = 0
    steps = 0
    while pc < len(code) and steps < limit:
        word = code[pc]
        op = word >> 12
        a = (word >> 6) & 7
        b = (word >> 3) & 7
        imm = None
        if word & (1 << 11):
            imm = code[pc + 1]
            pc += 1
        pc += 1
        steps += 1
        if op == 1:
            regs[a] = imm if imm is not None else regs[b]
        elif op == 2:
            regs[a] = (regs[a] + regs[b]) & 0xFFFFFF
        elif op == 3:
            regs[a] = (regs[a] - regs[b]) & 0xFFFFFF
        elif op == 4:
            regs[a] = (regs[a] * regs[b]) & 0xFFFFFF
        elif op == 5:
            if regs[a] != 0:
                pc = imm
        elif op == 6:
            regs[a] -= 1
        elif op == 7:
            out = (out * 31 + regs[a]) % 1000000007
        elif op == 8:
            break
    return out, steps


def main():
    checksum = 0
    total_steps = 0
    total_words = 0
    for i in range(300):
        code = assemble(make_source(50 + i % 40, 3 + i % 5))
        total_words += len(code)
        out, steps = run(code, 100000)
        total_steps += steps
        checksum = (checksum * 131 + out) % 1000000007
    print("words", total_words, "steps", total_steps)
    print("checksum", checksum)


main()
