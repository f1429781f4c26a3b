period {case} Lasker --max 500
