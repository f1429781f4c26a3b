quotient {case} Kayles
