# Hanging chain of point masses joined by damped 2-D springs, semi-implicit Euler integration and energy bookkeeping.
import math


class Mass:
    def __init__(self, x, y, m, pinned):
        self.x = x
        self.y = y
        self.vx = 0.0
        self.vy = 0.0
        self.fx = 0.0
        self.fy = 0.0
        self.m = m
        self.pinned = pinned


class Spring:
    def __init__(self, a, b, rest, k, damp):
        self.a = a
        self.b = b
        self.rest = rest
        self.k = k
        self.damp = damp

    def apply(self):
        a, b = self.a, self.b
        dx = b.x - a.x
        dy = b.y - a.y
        length = math.sqrt(dx * dx + dy * dy)
        if length < 1e-12:
            return 0.0
        ux, uy = dx / length, dy / length
        stretch = length - self.rest
        rel = (b.vx - a.vx) * ux + (b.vy - a.vy) * uy
        f = self.k * stretch + self.damp * rel
        a.fx += f * ux
        a.fy += f * uy
        b.fx -= f * ux
        b.fy -= f * uy
        return 0.5 * self.k * stretch * stretch


def build_chain(n, spacing):
    masses = [Mass(i * spacing, 0.0, 1.0 + 0.01 * (i % 5), i == 0) for i in range(n)]
    springs = [Spring(masses[i], masses[i + 1], spacing, 60.0, 0.05) for i in range(n - 1)]
    for i in range(0, n - 3, 3):
        springs.append(Spring(masses[i], masses[i + 2], 2.0 * spacing, 8.0, 0.02))
    return masses, springs


def step(masses, springs, dt, gravity):
    for m in masses:
        m.fx = 0.0
        m.fy = -gravity * m.m
    potential = 0.0
    for s in springs:
        potential += s.apply()
    kinetic = 0.0
    for m in masses:
        if m.pinned:
            continue
        m.vx += m.fx / m.m * dt
        m.vy += m.fy / m.m * dt
        m.x += m.vx * dt
        m.y += m.vy * dt
        kinetic += 0.5 * m.m * (m.vx * m.vx + m.vy * m.vy)
        potential += gravity * m.m * m.y
    return kinetic, potential


def main():
    masses, springs = build_chain(30, 0.25)
    dt = 0.002
    samples = []
    lowest = 0.0
    for t in range(24000):
        kinetic, potential = step(masses, springs, dt, 9.81)
        if t % 1000 == 0:
            samples.append("%.3f" % (kinetic + potential))
        tip = masses[-1]
        if tip.y < lowest:
            lowest = tip.y
    tip = masses[-1]
    span = max(m.x for m in masses) - min(m.x for m in masses)
    print("tip (%.4f, %.4f) lowest %.4f span %.4f energy %s" % (tip.x, tip.y, lowest, span, " ".join(samples)))


main()
