# Polygon geometry on float tuples: shoelace area, perimeter, centroid, convex hull by monotone chain, and ray-casting point-in-polygon counts.
import math


def lcg_points(n, seed, scale):
    state = seed
    pts = []
    for _ in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        x = (state % 10007) / 10007.0 * scale
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        y = (state % 10009) / 10009.0 * scale
        pts.append((x, y))
    return pts


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points):
    pts = sorted(points)
    lower = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def area(poly):
    s = 0.0
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        s += x1 * y2 - x2 * y1
    return s / 2.0


def perimeter(poly):
    total = 0.0
    prev = poly[-1]
    for p in poly:
        total += math.hypot(p[0] - prev[0], p[1] - prev[1])
        prev = p
    return total


def centroid(poly):
    a = area(poly)
    cx = cy = 0.0
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        f = x1 * y2 - x2 * y1
        cx += (x1 + x2) * f
        cy += (y1 + y2) * f
    return cx / (6.0 * a), cy / (6.0 * a)


def inside(pt, poly):
    x, y = pt
    hit = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def star(cx, cy, r_out, r_in, spikes):
    pts = []
    for k in range(2 * spikes):
        r = r_out if k % 2 == 0 else r_in
        ang = math.pi * k / spikes
        pts.append((cx + r * math.cos(ang), cy + r * math.sin(ang)))
    return pts


def main():
    cloud = lcg_points(40000, 17, 100.0)
    hull = convex_hull(cloud)
    print("hull n=%d area=%.4f perimeter=%.4f centroid=(%.4f, %.4f)"
          % ((len(hull), area(hull), perimeter(hull)) + centroid(hull)))
    shape = star(50.0, 50.0, 45.0, 18.0, 7)
    probes = lcg_points(30000, 99, 100.0)
    in_star = sum(1 for p in probes if inside(p, shape))
    est = 10000.0 * in_star / len(probes)
    print("star area=%.4f estimate=%.4f perimeter=%.4f inside=%d"
          % (abs(area(shape)), est, perimeter(shape), in_star))


main()
