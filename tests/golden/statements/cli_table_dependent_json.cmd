// gdsl table over dependent ranges, as JSON: the positions in order, then their values
table {case} 'Chomp(a in 1..2, b in 0..a, c in 0..b)' --json
