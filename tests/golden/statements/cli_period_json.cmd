period {case} Sub --max 500 --json
