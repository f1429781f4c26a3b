eval {case} --threads 0 # exit 2
