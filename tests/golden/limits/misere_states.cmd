eval {case} --max-states 100
