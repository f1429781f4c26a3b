eval {case} --max-states 2000000
