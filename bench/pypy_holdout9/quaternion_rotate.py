# Quaternion arithmetic for rotating a cloud of 3D points about changing axes, with renormalisation and drift checks.

import math


class Quaternion(object):
    __slots__ = ("w", "x", "y", "z")

    def __init__(self, w, x, y, z):
        self.w = w
        self.x = x
        self.y = y
        self.z = z

    @staticmethod
    def from_axis(ax, ay, az, angle):
        n = math.sqrt(ax * ax + ay * ay + az * az)
        s = math.sin(angle / 2.0) / n
        return Quaternion(math.cos(angle / 2.0), ax * s, ay * s, az * s)

    def __mul__(self, o):
        return Quaternion(
            self.w * o.w - self.x * o.x - self.y * o.y - self.z * o.z,
            self.w * o.x + self.x * o.w + self.y * o.z - self.z * o.y,
            self.w * o.y - self.x * o.z + self.y * o.w + self.z * o.x,
            self.w * o.z + self.x * o.y - self.y * o.x + self.z * o.w)

    def conj(self):
        return Quaternion(self.w, -self.x, -self.y, -self.z)

    def norm(self):
        return math.sqrt(self.w ** 2 + self.x ** 2 + self.y ** 2 + self.z ** 2)

    def normalized(self):
        n = self.norm()
        return Quaternion(self.w / n, self.x / n, self.y / n, self.z / n)

    def rotate(self, p):
        r = self * Quaternion(0.0, p[0], p[1], p[2]) * self.conj()
        return (r.x, r.y, r.z)


def main():
    points = [(math.cos(i * 0.1), math.sin(i * 0.1), (i % 7) * 0.25) for i in range(40)]
    lengths = [math.sqrt(x * x + y * y + z * z) for x, y, z in points]
    total = Quaternion(1.0, 0.0, 0.0, 0.0)
    renorms = 0
    for step in range(2500):
        axis = (1.0 + step % 3, 0.5 * (step % 5), 1.0)
        q = Quaternion.from_axis(axis[0], axis[1], axis[2], 0.01 * (1 + step % 4))
        total = q * total
        if abs(total.norm() - 1.0) > 4e-16:
            total = total.normalized()
            renorms += 1
        points = [q.rotate(p) for p in points]
    drift = 0.0
    for (x, y, z), l0 in zip(points, lengths):
        drift = max(drift, abs(math.sqrt(x * x + y * y + z * z) - l0))
    print("renorms", renorms, "drift %.3e" % drift, "w %.6f" % total.w)


if __name__ == "__main__":
    main()
