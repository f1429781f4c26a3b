table {case} Bash(0..6,2)
