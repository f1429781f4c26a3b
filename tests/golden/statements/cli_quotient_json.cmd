quotient {case} Sub --json
