# A discrete-time supermarket checkout simulation with customer subclasses, float service times and lane statistics.


class Customer(object):
    speed = 1.0

    def __init__(self, ident, items, arrival):
        self.ident = ident
        self.items = items
        self.arrival = arrival

    def service_time(self):
        return 0.5 + self.items * 0.12 / self.speed


class Express(Customer):
    speed = 1.6


class Family(Customer):
    def service_time(self):
        return Customer.service_time(self) * 1.3 + 0.8


class Lane(object):
    def __init__(self, name, limit):
        self.name = name
        self.limit = limit
        self.queue = []
        self.busy_until = 0.0
        self.served = 0
        self.wait = 0.0

    def step(self, now):
        if self.queue and self.busy_until <= now:
            c = self.queue.pop(0)
            self.wait += now - c.arrival
            self.busy_until = now + c.service_time()
            self.served += 1


def main():
    lanes = [Lane("express", 10), Lane("a", 1000), Lane("b", 1000), Lane("c", 1000)]
    kinds = (Customer, Express, Family, Customer)
    seed, now, ident = 5, 0.0, 0
    for tick in range(20000000):
        now += 0.1
        seed = (seed * 1103515245 + 12345) % 2147483648
        if seed % 20 < 2:
            ident += 1
            items = 1 + (seed >> 10) % 30
            cls = kinds[(seed >> 5) % 4]
            ok = [l for l in lanes if items <= l.limit]
            best = min(ok, key=lambda l: len(l.queue))
            best.queue.append(cls(ident, items, now))
        for lane in lanes:
            lane.step(now)
    for lane in lanes:
        print(lane.name, lane.served, round(lane.wait / max(lane.served, 1), 3), len(lane.queue))


if __name__ == "__main__":
    main()
