# Build a plain-text invoice report using f-strings, % formatting and str.join.

PRODUCTS = ["widget", "gadget", "sprocket", "gizmo", "doohickey", "thingamajig"]
PRICES = [2.50, 7.25, 0.99, 12.00, 3.75, 19.95]


def format_line(idx, name, qty, price):
    total = qty * price
    return f"{idx:>6} | {name:<12} | {qty:>4} x {price:>7.2f} = {total:>10.2f}"


def build_invoice(number, n_lines):
    lines = ["INVOICE #%05d" % number, "-" * 52]
    subtotal = 0.0
    for i in range(n_lines):
        k = (number * 31 + i * 7) % len(PRODUCTS)
        qty = (number + i) % 9 + 1
        lines.append(format_line(i + 1, PRODUCTS[k], qty, PRICES[k]))
        subtotal += qty * PRICES[k]
    tax = subtotal * 0.08
    lines.append("-" * 52)
    lines.append("%-40s %11.2f" % ("Subtotal", subtotal))
    lines.append("%-40s %11.2f" % ("Tax", tax))
    lines.append("%-40s %11.2f" % ("TOTAL", subtotal + tax))
    return "\n".join(lines), subtotal + tax


def main():
    total_chars = 0
    grand_total = 0.0
    checksum = 0
    for number in range(1, 20001):
        text, amount = build_invoice(number, 12)
        total_chars += len(text)
        grand_total += amount
        checksum = (checksum * 31 + ord(text[-1])) % 1000003
    print("chars=%d grand_total=%.2f checksum=%d" % (total_chars, grand_total, checksum))


main()
