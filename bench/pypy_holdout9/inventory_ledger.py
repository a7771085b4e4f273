# An inventory ledger of item records with receive/ship/adjust entries, per-warehouse stock and a shortage report.


class Item(object):
    __slots__ = ("sku", "name", "unit_cost")

    def __init__(self, sku, name, unit_cost):
        self.sku = sku
        self.name = name
        self.unit_cost = unit_cost

    def __repr__(self):
        return "Item(%s)" % self.sku


class Entry(object):
    def __init__(self, sku, warehouse, qty):
        self.sku = sku
        self.warehouse = warehouse
        self.qty = qty

    def delta(self):
        return self.qty


class Receive(Entry):
    pass


class Ship(Entry):
    def delta(self):
        return -self.qty


class Adjust(Entry):
    def delta(self):
        return self.qty - 1


class OutOfStock(Exception):
    pass


class Ledger(object):
    def __init__(self, items):
        self.items = dict((it.sku, it) for it in items)
        self.stock = {}
        self.value = 0.0
        self.rejected = 0

    def post(self, entry):
        key = (entry.sku, entry.warehouse)
        have = self.stock.get(key, 0)
        after = have + entry.delta()
        if after < 0:
            self.rejected += 1
            raise OutOfStock("%s@%s" % key)
        self.stock[key] = after
        self.value += entry.delta() * self.items[entry.sku].unit_cost

    def shortages(self, minimum):
        return sorted(k for k, v in self.stock.items() if v < minimum)


def main():
    items = [Item("SKU%03d" % i, "part-%d" % i, 0.25 + i * 0.5) for i in range(24)]
    ledger = Ledger(items)
    warehouses = ("north", "south", "east")
    kinds = (Receive, Ship, Ship, Adjust)
    failures = 0
    for i in range(120000):
        sku = items[(i * 7) % len(items)].sku
        wh = warehouses[i % 3]
        kind = kinds[(i >> 2) % 4]
        try:
            ledger.post(kind(sku, wh, 1 + (i * 13) % 9))
        except OutOfStock:
            failures += 1
    short = ledger.shortages(5)
    print("value %.2f" % ledger.value, "rejected", ledger.rejected, failures)
    print("short", len(short), ", ".join("%s/%s" % s for s in short[:4]))


if __name__ == "__main__":
    main()
