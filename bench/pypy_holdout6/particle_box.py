# Simulate particles bouncing inside a box under gravity with float positions.


class Particle(object):
    def __init__(self, x, y, vx, vy):
        self.x = x
        self.y = y
        self.vx = vx
        self.vy = vy


def step(particles, dt, width, height, gravity):
    bounces = 0
    for p in particles:
        p.vy -= gravity * dt
        p.x += p.vx * dt
        p.y += p.vy * dt
        if p.x < 0.0:
            p.x = -p.x
            p.vx = -p.vx
            bounces += 1
        elif p.x > width:
            p.x = 2.0 * width - p.x
            p.vx = -p.vx
            bounces += 1
        if p.y < 0.0:
            p.y = -p.y
            p.vy = -p.vy * 0.9
            bounces += 1
    return bounces


def main():
    particles = []
    for i in range(200):
        particles.append(Particle(i * 0.05, 1.0 + (i % 7) * 0.3,
                                  ((i * 13) % 11 - 5) * 0.4, (i % 5) * 0.2))
    total_bounces = 0
    for t in range(3000):
        total_bounces += step(particles, 0.01, 10.0, 20.0, 9.81)
    energy = 0.0
    for p in particles:
        energy += 0.5 * (p.vx * p.vx + p.vy * p.vy) + 9.81 * p.y
    print("bounces", total_bounces, "energy %.3f" % energy)


if __name__ == "__main__":
    main()
