period {case} Nope
