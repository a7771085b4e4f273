# Small class hierarchy with properties and overridden methods, driven in a loop.

class Animal:
    def __init__(self, name, weight):
        self.name = name
        self._weight = weight

    @property
    def weight(self):
        return self._weight

    def daily_food(self):
        return self._weight * 0.02 + 0.5

    def feed(self, amount):
        self._weight += amount * 0.1


class Lion(Animal):
    def daily_food(self):
        return self._weight * 0.03 + 1.0


class Parrot(Animal):
    def daily_food(self):
        return 0.05

    def feed(self, amount):
        super().feed(amount)
        self._weight = min(self._weight, 2.0)


class Elephant(Animal):
    @property
    def weight(self):
        return round(self._weight, 1)

    def daily_food(self):
        return 150.0 if self._weight > 4000 else 120.0


def run(days):
    zoo = [Lion("leo", 190.0), Parrot("polly", 0.9), Elephant("dumbo", 3900.0),
           Lion("nala", 130.0), Parrot("kiwi", 1.1), Animal("goat", 45.0)]
    total_food = 0.0
    for day in range(days):
        for animal in zoo:
            food = animal.daily_food()
            if day % 7 == 6:
                food *= 0.5
            animal.feed(food)
            total_food += food
            animal._weight *= 0.996
    return total_food, zoo


if __name__ == "__main__":
    food, zoo = run(5000000)
    print("food used: %.1f" % food)
    print(", ".join("%s=%.1f" % (a.name, a.weight) for a in zoo))
