# A bank of elevators serving generated floor requests: car objects with state, closures as dispatch policies, and rejected requests as exceptions.


class BadRequest(Exception):
    def __init__(self, floor):
        Exception.__init__(self, floor)
        self.floor = floor


class Car(object):
    def __init__(self, ident, floors):
        self.ident = ident
        self.floors = floors
        self.floor = 0
        self.direction = 0
        self.stops = []
        self.moved = 0
        self.served = 0
        self.energy = 0.0

    def add_stop(self, floor):
        if floor < 0 or floor >= self.floors:
            raise BadRequest(floor)
        if floor not in self.stops:
            self.stops.append(floor)

    def step(self):
        if not self.stops:
            self.direction = 0
            return
        target = self.stops[0]
        if target > self.floor:
            self.floor += 1
            self.direction = 1
            self.energy += 1.25
        elif target < self.floor:
            self.floor -= 1
            self.direction = -1
            self.energy += 0.75
        self.moved += 1
        if self.floor in self.stops:
            self.stops.remove(self.floor)
            self.served += 1
            self.energy += 0.1


def nearest_policy(penalty):
    def choose(cars, floor):
        best = None
        best_score = 0
        for car in cars:
            score = abs(car.floor - floor) + penalty * len(car.stops)
            if best is None or score < best_score:
                best = car
                best_score = score
        return best
    return choose


def round_robin_policy():
    counter = [0]

    def choose(cars, floor):
        car = cars[counter[0] % len(cars)]
        counter[0] += 1
        return car
    return choose


def simulate(policy, floors, ticks, seed):
    cars = [Car(i, floors) for i in range(4)]
    state = seed
    rejected = 0
    for t in range(ticks):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        if (state >> 10) % 3 == 0:
            floor = (state >> 13) % (floors + 2) - 1
            try:
                policy(cars, floor).add_stop(floor)
            except BadRequest as e:
                rejected += 1 + (e.floor < 0)
        for car in cars:
            car.step()
    served = sum(c.served for c in cars)
    moved = sum(c.moved for c in cars)
    energy = 0.0
    for c in cars:
        energy += c.energy
    return served, moved, rejected, energy


def main():
    for name, policy in (("nearest", nearest_policy(3)), ("lazy", nearest_policy(0)), ("rr", round_robin_policy())):
        served, moved, rejected, energy = simulate(policy, 30, 60000, 7)
        print("%s served=%d moved=%d rejected=%d energy=%.2f" % (name, served, moved, rejected, energy))


main()
