words = ("alpha beta gamma delta alpha beta alpha epsilon " * 50).split()
freq = {}
for rep in range(200):
    for w in words:
        freq[w] = freq.get(w, 0) + 1
print(sorted(freq.items()))
