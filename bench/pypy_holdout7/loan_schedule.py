# Float-heavy loan amortization schedules with monthly interest, extra payments and rounding to cents.


def monthly_payment(principal, annual_rate, months):
    r = annual_rate / 12.0
    if r == 0.0:
        return principal / months
    f = (1.0 + r) ** months
    return principal * r * f / (f - 1.0)


def amortize(principal, annual_rate, months, extra):
    pay = round(monthly_payment(principal, annual_rate, months), 2)
    r = annual_rate / 12.0
    balance = principal
    total_interest = 0.0
    month = 0
    while balance > 0.005 and month < months * 2:
        month += 1
        interest = round(balance * r, 2)
        total_interest += interest
        step = pay + (extra if month % 12 == 0 else 0.0)
        if step > balance + interest:
            step = balance + interest
        balance = round(balance + interest - step, 2)
    return month, total_interest


def main():
    grand_interest = 0.0
    grand_months = 0
    longest = (0, 0.0)
    for i in range(1500):
        principal = 5000.0 + (i * 373) % 95000
        rate = 0.02 + (i % 17) * 0.0035
        months = 60 + (i % 5) * 60
        extra = float((i % 4) * 250)
        m, interest = amortize(principal, rate, months, extra)
        grand_interest += interest
        grand_months += m
        if m > longest[0]:
            longest = (m, principal)
    print("loans 1500 months %d interest %.2f longest %d on %.2f"
          % (grand_months, grand_interest, longest[0], longest[1]))


if __name__ == "__main__":
    main()
