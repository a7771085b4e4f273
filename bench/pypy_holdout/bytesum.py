data = bytearray(range(256)) * 40
h = 0
for b in data:
    h = (h * 31 + b) & 0xFFFFFFFF
print(h)
