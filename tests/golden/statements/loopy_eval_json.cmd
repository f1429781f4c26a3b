eval {case} --json
