table {case} Sub(0..3,1)
