# A spreadsheet-cell dependency evaluator: cells hold numbers or "=SUM(A1:A5)" / "=B2*3+C4" formulas, evaluated lazily with memoization and cycle detection.


class CycleError(Exception):
    pass


def cell_name(col, row):
    return "ABCDEFGH"[col] + str(row)


def parse_ref(ref):
    return "ABCDEFGH".index(ref[0]), int(ref[1:])


class Sheet(object):
    def __init__(self):
        self.cells = {}
        self.cache = {}
        self.active = set()
        self.evals = 0

    def set(self, name, value):
        self.cells[name] = value
        self.cache = {}

    def get(self, name):
        if name in self.cache:
            return self.cache[name]
        if name in self.active:
            raise CycleError(name)
        raw = self.cells.get(name, 0)
        if isinstance(raw, str) and raw.startswith("="):
            self.active.add(name)
            try:
                value = self.formula(raw[1:])
            finally:
                self.active.discard(name)
        else:
            value = float(raw)
        self.evals += 1
        self.cache[name] = value
        return value

    def formula(self, text):
        if text.startswith("SUM(") and text.endswith(")"):
            lo, hi = text[4:-1].split(":")
            c0, r0 = parse_ref(lo)
            c1, r1 = parse_ref(hi)
            total = 0.0
            for c in range(c0, c1 + 1):
                for r in range(r0, r1 + 1):
                    total += self.get(cell_name(c, r))
            return total
        total = 0.0
        for term in text.split("+"):
            factor = 1.0
            for piece in term.split("*"):
                if piece[0].isalpha():
                    factor *= self.get(piece)
                else:
                    factor *= float(piece)
            total += factor
        return total


def build(sheet, rows):
    for r in range(1, rows + 1):
        sheet.cells[cell_name(0, r)] = str(r % 17)
        sheet.cells[cell_name(1, r)] = "=A%d*2+%d" % (r, r % 5)
        if r > 1:
            sheet.cells[cell_name(2, r)] = "=C%d+B%d*0.5" % (r - 1, r)
        else:
            sheet.cells[cell_name(2, r)] = "=B1"
        sheet.cells[cell_name(3, r)] = "=SUM(A%d:B%d)" % (max(1, r - 3), r)
    sheet.cells["E1"] = "=SUM(D1:D%d)" % rows
    sheet.cells["F1"] = "=C%d+E1" % rows


def main():
    sheet = Sheet()
    rows = 300
    build(sheet, rows)
    state = 99
    acc = 0.0
    for step in range(60):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        sheet.set(cell_name(0, 1 + state % rows), str((state >> 8) % 100))
        acc += sheet.get("F1")
    cycles = 0
    for r in (5, 50, 150):
        sheet.set("G1", "=G2+1")
        sheet.set("G2", "=H%d*2" % r)
        sheet.set("H%d" % r, "=G1")
        try:
            sheet.get("G1")
        except CycleError:
            cycles += 1
        sheet.set("H%d" % r, "7")
        acc += sheet.get("G1")
    print("acc=%.2f F1=%.2f cycles=%d evals=%d" % (acc, sheet.get("F1"), cycles, sheet.evals))


main()
