"""Shared by the Python baselines: the checksum every implementation prints.

h = (h * 1000003 + v) mod (2^61 - 1) over the values in the row's order, from h = 0.
"""

P = (1 << 61) - 1


def report(value, values):
    h = 0
    count = 0
    for v in values:
        h = (h * 1000003 + v) % P
        count += 1
    print(f"value={value} checksum={h} count={count}")
