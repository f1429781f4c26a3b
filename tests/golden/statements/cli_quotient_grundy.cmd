quotient {case} Grundy --max 20
