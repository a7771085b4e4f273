# Escape-time Mandelbrot counts on a grid of points, with an ASCII shading histogram and a checksum.


def escape_time(cr, ci, limit):
    zr = 0.0
    zi = 0.0
    n = 0
    while n < limit:
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 > 4.0:
            return n
        zi = 2.0 * zr * zi + ci
        zr = zr2 - zi2 + cr
        n += 1
    return limit


def render(width, height, limit):
    rows = []
    x0, x1 = -2.0, 0.6
    y0, y1 = -1.2, 1.2
    dx = (x1 - x0) / width
    dy = (y1 - y0) / height
    for j in range(height):
        ci = y0 + j * dy
        row = []
        for i in range(width):
            cr = x0 + i * dx
            row.append(escape_time(cr, ci, limit))
        rows.append(row)
    return rows


def shade(rows, limit):
    palette = " .:-=+*#%@"
    lines = []
    for row in rows:
        chars = []
        for n in row:
            if n >= limit:
                chars.append("@")
            else:
                chars.append(palette[n * (len(palette) - 1) // limit])
        lines.append("".join(chars))
    return lines


def histogram(rows, limit, buckets):
    counts = [0] * buckets
    for row in rows:
        for n in row:
            b = n * buckets // (limit + 1)
            counts[b] += 1
    return counts


def main():
    limit = 1000
    rows = render(1600, 800, limit)
    lines = shade(rows, limit)
    inside = 0
    checksum = 0
    for row in rows:
        for n in row:
            if n >= limit:
                inside += 1
            checksum = (checksum * 31 + n) % 1000003
    hist = histogram(rows, limit, 5)
    mid = lines[len(lines) // 2]
    print("inside=%d checksum=%d hist=%s mid=%d" % (inside, checksum, hist, mid.count("@")))


main()
