period {case} TakeHalf --max 500
