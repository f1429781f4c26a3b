eval {case} --json --backend nope # exit 2
