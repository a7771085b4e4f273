# Velocity-Verlet integration of a planet around a star, tracking energy drift.
import math

G_M = 1.0


def acceleration(x, y):
    r2 = x * x + y * y
    r = math.sqrt(r2)
    inv_r3 = G_M / (r2 * r)
    return -x * inv_r3, -y * inv_r3


def energy(x, y, vx, vy):
    return 0.5 * (vx * vx + vy * vy) - G_M / math.hypot(x, y)


def integrate(steps, dt, ecc):
    x, y = 1.0 - ecc, 0.0
    vx, vy = 0.0, math.sqrt(G_M * (1 + ecc) / (1 - ecc))
    ax, ay = acceleration(x, y)
    e0 = energy(x, y, vx, vy)
    min_r = max_r = math.hypot(x, y)
    orbits = 0
    for _ in range(steps):
        x += vx * dt + 0.5 * ax * dt * dt
        y_old = y
        y += vy * dt + 0.5 * ay * dt * dt
        nax, nay = acceleration(x, y)
        vx += 0.5 * (ax + nax) * dt
        vy += 0.5 * (ay + nay) * dt
        ax, ay = nax, nay
        r = math.hypot(x, y)
        if r < min_r:
            min_r = r
        if r > max_r:
            max_r = r
        if y_old < 0.0 <= y:
            orbits += 1
    drift = abs(energy(x, y, vx, vy) - e0) / abs(e0)
    return orbits, min_r, max_r, drift


if __name__ == "__main__":
    for ecc in (0.0, 0.3, 0.6):
        orbits, rmin, rmax, drift = integrate(700000, 0.001, ecc)
        print("e=%.1f orbits=%d rmin=%.4f rmax=%.4f drift=%.2e" % (ecc, orbits, rmin, rmax, drift))
