eval {case} --max-memory 150M
