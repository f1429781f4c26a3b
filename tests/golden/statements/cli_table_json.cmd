table {case} Sub(0..12) --json
