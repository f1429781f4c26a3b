eval {case} --timeout 0.5
