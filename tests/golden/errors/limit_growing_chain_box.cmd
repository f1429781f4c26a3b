eval {case} --max-states 160000
