eval {case} --max-states 0 # exit 2
