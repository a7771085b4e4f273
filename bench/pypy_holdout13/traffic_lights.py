# Simulates a bank of traffic lights as state-machine classes (fixed-cycle, pedestrian-button, and flashing-night subclasses) and tallies car throughput.


class Light(object):
    GREEN, YELLOW, RED = 0, 1, 2

    def __init__(self, name, green, yellow, red):
        self.name = name
        self.durations = [green, yellow, red]
        self.state = Light.RED
        self.timer = red
        self.changes = 0

    def next_state(self):
        return (self.state + 1) % 3 if self.state != Light.RED else Light.GREEN

    def tick(self, t):
        self.timer -= 1
        if self.timer <= 0:
            self.state = self.next_state()
            self.timer = self.durations[self.state]
            self.changes += 1

    def lets_through(self):
        return self.state == Light.GREEN


class PedestrianLight(Light):
    def __init__(self, name, green, yellow, red, press_every):
        Light.__init__(self, name, green, yellow, red)
        self.press_every = press_every
        self.presses = 0

    def tick(self, t):
        if t % self.press_every == 0 and self.state == Light.GREEN and self.timer > 2:
            self.timer = 2
            self.presses += 1
        Light.tick(self, t)


class NightLight(Light):
    def __init__(self, name, period):
        Light.__init__(self, name, 1, period, 1)
        self.state = Light.YELLOW
        self.timer = period

    def next_state(self):
        return Light.YELLOW

    def lets_through(self):
        return self.timer % 2 == 0


class Junction(object):
    def __init__(self, lights):
        self.lights = lights
        self.queues = [0] * len(lights)
        self.passed = [0] * len(lights)

    def step(self, t, seed):
        for i in range(len(self.lights)):
            light = self.lights[i]
            light.tick(t)
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            if seed % 7 < 3:
                self.queues[i] += 1
            if light.lets_through() and self.queues[i] > 0:
                self.queues[i] -= 1
                self.passed[i] += 1
        return seed


def build():
    lights = []
    for k in range(12):
        if k % 4 == 0:
            lights.append(PedestrianLight("p%d" % k, 20 + k, 3, 15 + k, 7 + k))
        elif k % 4 == 3:
            lights.append(NightLight("n%d" % k, 5 + k % 3))
        else:
            lights.append(Light("l%d" % k, 18 + k, 4, 22 - k))
    return Junction(lights)


def main():
    junction = build()
    seed = 42
    for t in range(1, 30001):
        seed = junction.step(t, seed)
    total_changes = 0
    presses = 0
    for light in junction.lights:
        total_changes += light.changes
        if isinstance(light, PedestrianLight):
            presses += light.presses
    checksum = 0
    for i in range(len(junction.passed)):
        checksum = (checksum * 31 + junction.passed[i] + junction.queues[i]) % 1000000007
    print("changes", total_changes, "presses", presses, "passed", sum(junction.passed))
    print("checksum", checksum)


main()
