period {case} Sub --max 500
