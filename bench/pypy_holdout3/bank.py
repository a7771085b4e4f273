# Exercises: objects with methods in a simulation (a list of accounts,
# method calls that read and write fields, a rejected-withdrawal branch).
class Account(object):
    def __init__(self, owner, balance):
        self.owner = owner
        self.balance = balance
        self.rejected = 0
    def deposit(self, amount):
        self.balance += amount
    def withdraw(self, amount):
        if amount > self.balance:
            self.rejected += 1
            return False
        self.balance -= amount
        return True
def transfer(a, b, amount):
    if a.withdraw(amount):
        b.deposit(amount)
accounts = [Account(k, 100 + k) for k in range(16)]
for step in range(150000):
    src = accounts[step % 16]
    dst = accounts[(step * 5 + 3) % 16]
    transfer(src, dst, (step * 13) % 97)
print(sum(a.balance for a in accounts), sum(a.rejected for a in accounts))
