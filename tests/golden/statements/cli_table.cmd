table {case} Sub(0..20)
