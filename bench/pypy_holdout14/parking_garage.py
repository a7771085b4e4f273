# Multi-level parking garage simulation with vehicle subclasses, per-type fee rules, a full-garage exception and per-type revenue totals.


class GarageFull(Exception):
    pass


class Vehicle(object):
    size = 1
    rate = 2.0

    def __init__(self, plate, arrival):
        self.plate = plate
        self.arrival = arrival

    def fee(self, minutes):
        hours = (minutes + 59) // 60
        return self.rate * hours

    def kind(self):
        return "vehicle"


class Motorbike(Vehicle):
    rate = 1.0

    def kind(self):
        return "bike"


class Car(Vehicle):
    def fee(self, minutes):
        base = Vehicle.fee(self, minutes)
        return min(base, 24.0)

    def kind(self):
        return "car"


class Van(Car):
    size = 2
    rate = 3.5

    def fee(self, minutes):
        return Car.fee(self, minutes) * 1.25 + 1.0

    def kind(self):
        return "van"


class Garage(object):
    def __init__(self, levels, per_level):
        self.free = [per_level] * levels
        self.parked = {}
        self.revenue = {"bike": 0.0, "car": 0.0, "van": 0.0}

    def enter(self, vehicle):
        for lvl in range(len(self.free)):
            if self.free[lvl] >= vehicle.size:
                self.free[lvl] -= vehicle.size
                self.parked[vehicle.plate] = (vehicle, lvl)
                return lvl
        raise GarageFull(vehicle.plate)

    def leave(self, plate, now):
        vehicle, lvl = self.parked.pop(plate)
        self.free[lvl] += vehicle.size
        amount = vehicle.fee(now - vehicle.arrival)
        self.revenue[vehicle.kind()] += amount
        return amount


def simulate(days, seed):
    garage = Garage(4, 30)
    classes = (Motorbike, Car, Car, Car, Van)
    turned_away = 0
    served = 0
    serial = 0
    for day in range(days):
        for minute in range(0, 1440, 3):
            seed = (seed * 1664525 + 1013904223) % 4294967296
            if (seed >> 24) < 110:
                serial += 1
                cls = classes[(seed >> 8) % len(classes)]
                plate = "P%05d" % serial
                try:
                    garage.enter(cls(plate, day * 1440 + minute))
                except GarageFull:
                    turned_away += 1
            if garage.parked and (seed >> 16) % 9 < 3:
                plates = sorted(garage.parked)
                plate = plates[(seed >> 4) % len(plates)]
                garage.leave(plate, day * 1440 + minute + 1)
                served += 1
    return garage, served, turned_away


def main():
    garage, served, turned_away = simulate(3000, 2024)
    rev = garage.revenue
    print("served", served, "turned away", turned_away, "still parked", len(garage.parked))
    print("revenue bike %.2f car %.2f van %.2f" % (rev["bike"], rev["car"], rev["van"]))


main()
