table {case} Bash(0..6,1..3)
