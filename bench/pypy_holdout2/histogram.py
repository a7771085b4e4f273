def hist(values, nbins):
    bins = [0] * nbins
    for v in values:
        b = v % nbins
        bins[b] += 1
    return bins
vals = [(i * 7919) % 1000 for i in range(20000)]
h = None
for rep in range(20):
    h = hist(vals, 16)
print(h[:4])
