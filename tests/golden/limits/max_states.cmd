eval {case} --max-states 5000
