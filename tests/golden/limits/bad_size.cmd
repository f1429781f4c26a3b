eval {case} --max-memory 3X # exit 2
