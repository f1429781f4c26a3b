eval {case} --timeout 0.5 --json
