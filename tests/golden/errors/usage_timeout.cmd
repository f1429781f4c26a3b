eval {case} --timeout -1 # exit 2
