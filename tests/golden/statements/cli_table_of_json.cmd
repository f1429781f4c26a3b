// gdsl table with a comprehension, as JSON: the positions as text, then their values
table {case} '[Sub(n) + Sub(m) for n in 0..2 for m in n..2]' --json
