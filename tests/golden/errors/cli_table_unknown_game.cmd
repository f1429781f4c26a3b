table {case} Nope(0..3)
